"""Unit tests of the engine core: options, outcomes, the registry, data, actions, records."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, Field

import potluck
from potluck import (
    Action,
    DataError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    Option,
    OptionError,
    Outcome,
    PotluckError,
    RandomBot,
    RecordError,
    UnknownGameError,
)
from potluck.engine.data import load_data
from potluck.engine.options import coerce_option, resolve_options
from potluck.engine.state import State
from toygame import BIDS, BidsState, SecretBids

# ------------------------------------------------------------------ options

OPTIONS = {
    "fast": Option(bool, False, "play fast"),
    "rounds": Option(int, 5, "rounds"),
    "budget": Option(float, 30.0, "money"),
    "menu": Option(str, "classic", "which menu"),
}


@pytest.mark.parametrize(
    ("name", "text", "value"),
    [
        ("fast", "yes", True),
        ("fast", " TRUE ", True),
        ("fast", "on", True),
        ("fast", "0", False),
        ("fast", "no", False),
        ("rounds", "7", 7),
        ("budget", "12.5", 12.5),
        ("budget", "3", 3.0),
        ("menu", "Vegan", "Vegan"),
    ],
)
def test_option_text_is_coerced(name: str, text: str, value: object) -> None:
    got = coerce_option(name, OPTIONS[name], text)
    assert got == value
    assert type(got) is type(value)


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("fast", "maybe", "option 'fast' takes a bool, not 'maybe'"),
        ("fast", 1, "option 'fast' takes true or false, not 1"),
        ("rounds", "seven", "option 'rounds' takes a int, not 'seven'"),
        ("rounds", "2.5", "option 'rounds' takes a int"),
        ("rounds", True, "option 'rounds' takes a whole number, not True"),
        ("rounds", 2.0, "option 'rounds' takes a whole number, not 2.0"),
        ("budget", False, "option 'budget' takes a number, not False"),
        ("menu", 3, "option 'menu' takes text, not 3"),
    ],
)
def test_option_of_the_wrong_type_is_refused(name: str, value: object, message: str) -> None:
    with pytest.raises(OptionError, match=message.replace("(", r"\(")):
        coerce_option(name, OPTIONS[name], value)


def test_a_whole_number_for_a_float_option_becomes_a_float() -> None:
    assert resolve_options("g", OPTIONS, {"budget": 20})["budget"] == 20.0
    assert isinstance(resolve_options("g", OPTIONS, {"budget": 20})["budget"], float)


def test_options_not_given_take_their_defaults() -> None:
    assert resolve_options("g", OPTIONS, {"rounds": "3"}) == {
        "fast": False,
        "rounds": 3,
        "budget": 30.0,
        "menu": "classic",
    }
    assert resolve_options("g", OPTIONS, None)["rounds"] == 5


def test_an_unknown_option_names_the_known_ones() -> None:
    with pytest.raises(OptionError) as error:
        resolve_options("cafe-carnage", OPTIONS, {"turbo": True})
    assert str(error.value) == (
        "cafe-carnage has no option 'turbo'; its options are: budget, fast, menu, rounds"
    )
    with pytest.raises(OptionError, match="its options are: none"):
        resolve_options("secret-bids", {}, {"turbo": True})


def test_option_errors_are_potluck_errors_and_value_errors() -> None:
    assert issubclass(OptionError, PotluckError)
    assert issubclass(PotluckError, ValueError)
    assert issubclass(NotYourTurnError, IllegalActionError)


# ------------------------------------------------------------------ outcome


def test_outcome_from_keys_shares_places_among_ties() -> None:
    outcome = Outcome.from_keys((10.0, 12.0, 12.0, 3.0), [(10,), (12, 1), (12, 1), (3,)], "end")
    assert outcome.winners == (1, 2)
    assert outcome.ranking == (1, 2, 0, 3)
    assert outcome.places == (3, 1, 1, 4)
    assert outcome.scores == (10.0, 12.0, 12.0, 3.0)
    assert outcome.reason == "end"


def test_outcome_tie_breaks_decide_before_places_are_shared() -> None:
    outcome = Outcome.from_keys((8, 8, 8), [(8, 2), (8, 5), (8, 2)], "money breaks ties")
    assert outcome.winners == (1,)
    assert outcome.ranking == (1, 0, 2)
    assert outcome.places == (2, 1, 2)


def test_outcome_of_a_total_tie_is_a_shared_win_in_seat_order() -> None:
    outcome = Outcome.from_keys((5, 5, 5), [(5,), (5,), (5,)], "all equal")
    assert outcome.winners == (0, 1, 2)
    assert outcome.ranking == (0, 1, 2)
    assert outcome.places == (1, 1, 1)


def test_outcome_to_json_is_plain_lists() -> None:
    outcome = Outcome.from_keys((1.0, 2.0), [(1,), (2,)], "r")
    assert outcome.to_json() == {
        "scores": [1.0, 2.0],
        "winners": [1],
        "ranking": [1, 0],
        "places": [2, 1],
        "reason": "r",
    }


# ------------------------------------------------------------------ registry


@pytest.fixture
def toy() -> Iterator[SecretBids]:
    potluck.register("secret-bids", SecretBids)
    yield potluck.load_game("secret-bids")  # type: ignore[misc]
    potluck.unregister("secret-bids")


def test_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(UnknownGameError) as error:
        potluck.load_game("chess")
    assert str(error.value) == (
        f"unknown game 'chess'; known games: {', '.join(potluck.list_games())}"
    )
    assert "cafe-carnage" in str(error.value)


def test_list_games_is_sorted_and_has_the_builtin_games() -> None:
    games = potluck.list_games()
    assert games == sorted(games)
    assert "cafe-carnage" in games


def test_register_and_unregister(toy: SecretBids) -> None:
    assert "secret-bids" in potluck.list_games()
    assert potluck.list_games() == sorted(potluck.list_games())
    assert potluck.load_game("secret-bids") is toy  # loaded once, then cached
    potluck.unregister("secret-bids")
    assert "secret-bids" not in potluck.list_games()
    with pytest.raises(UnknownGameError, match="unknown game 'secret-bids'"):
        potluck.load_game("secret-bids")


def test_register_again_replaces_the_cached_game(toy: SecretBids) -> None:
    potluck.register("secret-bids", SecretBids)
    again = potluck.load_game("secret-bids")
    assert again is not toy
    assert isinstance(again, SecretBids)


def test_a_factory_gets_the_data_given_and_is_not_cached() -> None:
    seen: list[object] = []

    def factory(data: object) -> SecretBids:
        seen.append(data)
        return SecretBids()

    potluck.register("secret-bids", factory)
    try:
        one = potluck.load_game("secret-bids", data={"x": 1})
        two = potluck.load_game("secret-bids", data={"x": 1})
        assert one is not two
        assert seen == [{"x": 1}, {"x": 1}]
    finally:
        potluck.unregister("secret-bids")


# ------------------------------------------------------------------ data


class Dish(BaseModel):
    name: str
    price: int = Field(ge=1)


class Menu(BaseModel):
    dishes: list[Dish]


def test_data_from_a_file_is_validated(tmp_path: Path) -> None:
    path = tmp_path / "menu.toml"
    path.write_text('[[dishes]]\nname = "Samosa"\nprice = 2\n', "utf-8")
    menu = load_data(Menu, path, package="x", default="x.toml")
    assert menu.dishes == [Dish(name="Samosa", price=2)]
    assert load_data(Menu, str(path), package="x", default="x.toml") == menu


def test_data_from_a_mapping_is_validated() -> None:
    menu = load_data(Menu, {"dishes": []}, package="x", default="x.toml")
    assert menu.dishes == []


def test_a_missing_data_file_says_so(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    with pytest.raises(DataError, match=f"data file {path} does not exist"):
        load_data(Menu, path, package="x", default="x.toml")


def test_a_data_file_that_is_a_folder_says_it_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="cannot read data file"):
        load_data(Menu, tmp_path, package="x", default="x.toml")


def test_bad_toml_says_where(tmp_path: Path) -> None:
    path = tmp_path / "menu.toml"
    path.write_text("[[dishes]\nname = ", "utf-8")
    with pytest.raises(DataError, match=r"menu.toml is not valid TOML: .*line 1"):
        load_data(Menu, path, package="x", default="x.toml")


def test_a_schema_failure_names_the_field(tmp_path: Path) -> None:
    path = tmp_path / "menu.toml"
    path.write_text('[[dishes]]\nname = "Samosa"\nprice = 0\n', "utf-8")
    with pytest.raises(DataError) as error:
        load_data(Menu, path, package="x", default="x.toml")
    message = str(error.value)
    assert message.startswith(f"{path} is not valid Menu data: dishes.0.price: ")
    assert "greater than or equal to 1" in message


def test_a_schema_failure_counts_the_problems_it_does_not_list() -> None:
    data = {"dishes": [{"name": 1, "price": "x"} for _ in range(4)]}
    with pytest.raises(DataError, match=r"the data given is not valid .*\(and 3 more problems\)"):
        load_data(Menu, data, package="x", default="x.toml")
    with pytest.raises(DataError, match=r"top level|dishes: Field required"):
        load_data(Menu, {}, package="x", default="x.toml")


# ------------------------------------------------------------------ actions


def test_actions_are_values() -> None:
    a = Action(3, "split")
    assert a == Action(3, "split")
    assert a != Action(4, "split")
    assert a != Action(3, "run")
    assert a != "split"
    assert hash(a) == hash(Action(3, "split"))
    assert len({a, Action(3, "split"), Action(4, "run")}) == 2
    assert str(a) == "split"
    assert repr(a) == "Action('split')"


def test_actions_of_different_classes_differ() -> None:
    class Order(Action):
        __slots__ = ()

    assert Order(3, "split") != Action(3, "split")
    assert Action(3, "split") != Order(3, "split")


def test_actions_are_immutable() -> None:
    a = Action(3, "split")
    with pytest.raises(AttributeError, match="immutable"):
        a.index = 4
    with pytest.raises(AttributeError, match="immutable"):
        a.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(AttributeError, match="immutable"):
        del a.text
    assert a.index == 3
    assert a.text == "split"


@pytest.mark.parametrize("game_id", potluck.list_games())
def test_every_games_actions_are_immutable_values(game_id: str) -> None:
    """The games' action classes are compiled with the rules (``potluck.native``): each
    still refuses changes, compares by value and survives pickling, in both builds."""
    game = potluck.load_game(game_id)
    state = game.new_game(max(game.min_players, 2), seed=3)
    action = game.legal_actions(state, state.acting[0])[0]
    name = type(action).__name__
    for change in ("index", "text", "extra"):
        with pytest.raises(AttributeError, match=f"{name} is immutable"):
            setattr(action, change, 1)
    with pytest.raises(AttributeError, match=f"{name} is immutable"):
        del action.text
    for twin in (pickle.loads(pickle.dumps(action)), copy.copy(action), copy.deepcopy(action)):
        assert twin == action
        assert hash(twin) == hash(action)
        assert type(twin) is type(action)
    assert game.parse_action(state, state.acting[0], str(action)) == action


def test_actions_survive_pickling_and_copying() -> None:
    a = Action(3, "split")
    for twin in (pickle.loads(pickle.dumps(a)), copy.copy(a), copy.deepcopy(a)):
        assert twin == a
        assert hash(twin) == hash(a)
        assert type(twin) is Action
    assert pickle.loads(pickle.dumps(BIDS[2])) in SecretBids().legal_actions(
        SecretBids().new_game(2, 0), 0
    )


# ------------------------------------------------------------------ new games, turns, explain


def test_new_game_checks_its_arguments() -> None:
    game = SecretBids()
    with pytest.raises(PotluckError, match="Secret Bids is for 2 to 4 players, not 5"):
        game.new_game(5)
    with pytest.raises(PotluckError, match="num_players must be a whole number, not True"):
        game.new_game(True)
    with pytest.raises(PotluckError, match="seed must be a whole number, not '7'"):
        game.new_game(2, seed="7")
    with pytest.raises(OptionError, match="no option 'x'; its options are: none"):
        game.new_game(2, options={"x": 1})


def test_explain_and_step_agree_on_why_not() -> None:
    game = SecretBids()
    state = game.new_game(2, seed=0)
    assert game.explain(state, 0, "bid 1") is None
    game.step(state, 0, "bid 1")
    assert game.explain(state, 0, "bid 2") == "It is not seat 0's turn: waiting for seat 1."
    assert game.explain(state, 5, "bid 2") == "There is no seat 5 at this table (seats 0 to 1)."
    with pytest.raises(NotYourTurnError, match="waiting for seat"):
        game.step(state, 0, "bid 2")
    game.step(state, 1, "bid 3")  # round 2: seat 0 has chips 2 and 3 left
    assert game.explain(state, 0, "bid 1") == "You have already spent your 1 chip."
    with pytest.raises(IllegalActionError) as error:
        game.step(state, 0, "bid 1")
    assert error.value.reason == "You have already spent your 1 chip."
    with pytest.raises(InvalidActionError):
        game.step(state, 0, "bid 9")


def test_explain_after_the_game_is_over() -> None:
    game = SecretBids()
    state = game.new_game(2, seed=0)
    while state.acting:
        seat = state.acting[0]
        game.step(state, seat, game.legal_actions(state, seat)[0])
    assert game.explain(state, 0, "bid 1") == "The game is over."
    with pytest.raises(NotYourTurnError, match=r"The game is over\."):
        game.step(state, 0, "bid 1")


def test_the_default_clone_copies_the_games_slots_independently() -> None:
    game = SecretBids()
    state = game.new_game(3, seed=1)
    twin = state.clone()
    assert game.to_json(twin) == game.to_json(state)
    game.step(twin, 0, "bid 2")
    assert twin.bids != state.bids
    assert state.history == []
    assert twin.rng is not state.rng


def test_the_base_state_clones_with_slots_left_unset() -> None:
    class Sparse(State):
        __slots__ = ("board", "extra")
        board: tuple[int, ...]
        extra: int

    state = Sparse(2, 0, {})
    state.board = (1, 2)
    twin = state.clone()
    assert twin.board == (1, 2)
    assert not hasattr(twin, "extra")


def test_random_bot_picks_a_legal_action() -> None:
    game = SecretBids()
    state = game.new_game(2, seed=0)
    legal = game.legal_actions(state, 0)
    bot = game.make_bot("random")
    assert isinstance(bot, RandomBot)
    assert bot.choose(game, None, 0, legal, random.Random(0)) in legal
    with pytest.raises(PotluckError, match="Secret Bids has no bot 'genius'; its bots are: random"):
        game.make_bot("genius")


# ------------------------------------------------------------------ records and saved states


def _finished() -> tuple[SecretBids, dict[str, object]]:
    game = SecretBids()
    state = game.new_game(3, seed=11)
    rng = random.Random(0)
    while state.acting:
        seat = rng.choice(state.acting)
        game.step(state, seat, rng.choice(game.legal_actions(state, seat)))
    return game, game.record(state)


def test_a_record_replays_to_the_same_game() -> None:
    game, record = _finished()
    state = game.replay(record)
    assert game.record(state) == record
    assert record["outcome"] == game.outcome(state).to_json()
    partial = game.replay(record, upto=4)
    assert len(partial.history) == 4
    assert "outcome" not in game.record(partial)


def test_a_record_of_another_game_is_refused() -> None:
    game, record = _finished()
    with pytest.raises(RecordError, match="this record is of game 'chess', not 'secret-bids'"):
        game.replay({**record, "game": "chess"})


def test_a_record_of_another_version_is_refused() -> None:
    game, record = _finished()
    with pytest.raises(RecordError, match="version 2; this engine plays version 1"):
        game.replay({**record, "version": 2})


def test_a_record_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(RecordError, match="a record must be a JSON object, not list"):
        SecretBids().replay([])  # type: ignore[arg-type]


def test_a_record_missing_a_field_names_it() -> None:
    game, record = _finished()
    del record["actions"]
    with pytest.raises(RecordError, match="the record has no 'actions' field"):
        game.replay(record)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ([0, "bid 7"], "'bid 7' is not a bid"),
        ([0], "not enough values"),
        ("bid 1", "too many values|not enough values"),
        (["zero", "bid 1"], "invalid literal"),
        ([1, "bid 1"], "not seat 1's turn|already spent"),
    ],
)
def test_a_malformed_action_names_its_number(entry: object, message: str) -> None:
    game, record = _finished()
    actions = list(record["actions"])  # type: ignore[call-overload]
    actions[3] = entry
    actions[2] = [1, "bid 1"] if entry == [1, "bid 1"] else actions[2]
    number = 3 if entry == [1, "bid 1"] else 4
    with pytest.raises(RecordError, match=rf"^action {number} of the record, .*({message})"):
        game.replay({**record, "actions": actions})


def test_a_saved_state_round_trips_and_checks_its_header() -> None:
    game = SecretBids()
    state = game.new_game(2, seed=3)
    game.step(state, 0, "bid 2")
    data = game.to_json(state)
    restored = game.from_json(data)
    assert game.to_json(restored) == data
    assert restored.rng.random() == state.rng.random()
    with pytest.raises(RecordError, match="saved state is of game 'chess'"):
        game.from_json({**data, "game": "chess"})
    with pytest.raises(RecordError, match="the saved state has no 'history' field"):
        game.from_json({k: v for k, v in data.items() if k != "history"})
    with pytest.raises(RecordError, match="seat 5 is to act, but the table has seats 0 to 1"):
        game.from_json({**data, "acting": [5]})
    with pytest.raises(RecordError, match="a seat must be a whole number, not '1'"):
        game.from_json({**data, "acting": ["1"]})
    with pytest.raises(RecordError, match="the saved state is malformed: "):
        game.from_json({**data, "rng": "not a generator"})


def test_from_json_refuses_a_state_that_breaks_the_games_invariants() -> None:
    """The engine asks the game's ``invariants`` before it hands back a loaded state."""

    class Fussy(SecretBids):
        def invariants(self, state: BidsState) -> list[str]:
            return ["seat 0 holds a bid of 99"]

    game = Fussy()
    data = game.to_json(game.new_game(2, seed=3))
    with pytest.raises(RecordError, match="inconsistent: seat 0 holds a bid of 99"):
        game.from_json(data)


def test_from_json_turns_a_crash_while_rebuilding_into_a_record_error() -> None:
    class Fragile(SecretBids):
        def _state_from_json(self, *args: Any) -> BidsState:
            raise ZeroDivisionError("division by zero")

    game = Fragile()
    data = game.to_json(game.new_game(2, seed=3))
    with pytest.raises(RecordError, match="malformed: ZeroDivisionError: division by zero"):
        game.from_json(data)
