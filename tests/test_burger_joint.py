"""Burger Joint: the rulebook's worked examples and one test per rule and ruling.

This file covers setup, chapter 1 (Production), chapters 4-5 (Calculate Current Score,
Discard Excess Cubes), saving, board data and bots. Chapters 2-3 (Trading & Special
Abilities, Building) are in test_burger_joint_trading_and_building.py; shared helpers in
burger_joint_helpers.py.

Seat 0 plays Burger (and starts), seat 1 plays Pizza. Bistro slots on the
built-in boards: 1 redraw (2 VP), 2 swap-two (2 VP), 3 extra (1 VP),
4 swap-one (2 VP), 5 pick (0 VP), 6 no ability (3 VP).
"""

from __future__ import annotations

import json
import random
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import potluck
from burger_joint_helpers import (
    BURGER,
    PIZZA,
    board,
    c,
    empty_hands,
    game,
    give,
    held,
    production,
    takers,
    texts,
    trading,
)
from potluck.engine.errors import DataError, IllegalActionError, OptionError, RecordError
from potluck.games.burger_joint import BurgerAction, BurgerJoint, BurgerState
from potluck.games.burger_joint.production import start_turn
from potluck.games.burger_joint.scoring import capacity, points
from potluck.games.burger_joint.state import DISCARD, DRAFT, OVER, TRADE

__all__ = ["game"]  # the fixture, shared from burger_joint_helpers


# ---------------------------------------------------------------------- setup


def test_preparation_both_start_at_two_vp_and_burger_starts(game: BurgerJoint) -> None:
    state = game.new_game(2, seed=3)
    view = game.view(state, None)
    burger, pizza = view["players"]
    assert (burger["side"], pizza["side"]) == ("Burger", "Pizza")
    assert burger["diners"] == ["black", "yellow"]
    assert pizza["diners"] == ["green", "red"]
    assert burger["basics"] == pizza["basics"] == 1
    assert burger["score"] == pizza["score"] == 2
    assert state.active == BURGER
    assert view["turn"] == 1
    assert sum(state.bag) + sum(state.pool) + sum(state.cubes) == 60


# ---------------------------------------------------------------------- production


def test_production_example_black_cubes_go_to_the_burger_area(game: BurgerJoint) -> None:
    """Rulebook: at the start Burger has the black diner and Pizza has not: black cubes go to
    the Burger area (green and red to the Pizza area; the rest to the general area)."""
    state = game.new_game(2, seed=0)
    production(game, state, BURGER, {"black": 1, "green": 1, "white": 1, "brown": 1})
    areas = game.view(state, PIZZA)["areas"]
    assert areas == {"general": ["white", "brown"], "Burger": ["black"], "Pizza": ["green"]}


def test_production_draws_one_cube_per_diner_and_bistro_of_each_player(
    game: BurgerJoint,
) -> None:
    state = game.new_game(2, seed=5)
    assert state.owed == [2, 2]
    assert sum(state.pool) + sum(state.taken) == 4


def test_pizza_may_not_take_black_with_his_first_pick_but_may_later(game: BurgerJoint) -> None:
    """Rulebook: with black cubes in the Burger area, Pizza's first pick may not be black;
    any later pick may."""
    state = trading(game)
    state.phase, state.active, state.acting = DRAFT, BURGER, (PIZZA,)
    state.owed, state.taken = [2, 2], [1, 0]
    state.bag[c(game, "black")] -= 2
    state.bag[c(game, "brown")] -= 1
    state.pool[c(game, "black")] = 2
    state.pool[c(game, "brown")] = 1
    assert texts(game, state, PIZZA) == ["take brown"]
    reason = game.explain(state, PIZZA, "take black")
    assert reason is not None
    assert "opponent's area" in reason
    with pytest.raises(IllegalActionError, match="opponent's area"):
        game.step(state, PIZZA, "take black")
    state.taken = [1, 1]  # after his first pick, everything is in the general area
    assert texts(game, state, PIZZA) == ["take black", "take brown"]


@pytest.mark.parametrize("text", ["english", "german"])
def test_first_pick_exception_pizza_may_choose_black_or_yellow(
    game: BurgerJoint, text: str
) -> None:
    """Rulebook: no cube in the general area and none in his own area, so Pizza may take a
    black or a yellow cube from the Burger area; the choice is not lost."""
    state = trading(game, options={"first_pick": text})
    state.phase, state.active, state.acting = DRAFT, BURGER, (PIZZA,)
    state.owed, state.taken = [2, 2], [1, 0]
    for name in ("black", "yellow"):
        state.bag[c(game, name)] -= 1
        state.pool[c(game, name)] = 1
    assert texts(game, state, PIZZA) == ["take black", "take yellow"]
    game.step(state, PIZZA, "take yellow")
    assert held(game, state, PIZZA) == {"yellow": 1}


def test_capacity_5_vs_2_gives_a_o_a_o_a_a(game: BurgerJoint) -> None:
    """Rulebook: the active player has three diners and two bistros (capacity 5, limited to
    4), the other one diner and one bistro (2): six cubes, taken A-O-A-O-A-A."""
    state = game.new_game(2, seed=0)
    board(game, state, BURGER, diners=["black", "yellow", "white"], bistros=[1, 2])
    board(game, state, PIZZA, diners=["green"], bistros=[1])
    assert capacity(game, state, BURGER) == 5
    assert capacity(game, state, PIZZA) == 2
    empty_hands(game, state)
    start_turn(game, state)
    assert state.owed == [4, 2]
    assert sum(state.pool) + sum(state.taken) == 6  # only 4 for the active player
    pool = {"white": 1, "black": 1, "yellow": 1, "green": 1, "red": 1, "brown": 1}
    production(game, state, BURGER, pool)
    assert takers(game, state) == [BURGER, PIZZA, BURGER, PIZZA, BURGER, BURGER]
    assert state.phase == TRADE
    assert sum(held(game, state, BURGER).values()) == 4


def test_the_other_player_can_be_active_and_pick_first(game: BurgerJoint) -> None:
    state = game.new_game(2, seed=0)
    production(game, state, PIZZA, {"white": 1, "brown": 1, "black": 1, "red": 1})
    assert takers(game, state)[:2] == [PIZZA, BURGER]


def test_ruling_bj11_a_pick_without_choice_is_made_at_once(game: BurgerJoint) -> None:
    state = game.new_game(2, seed=0)
    production(game, state, BURGER, {"white": 4})
    # Every pick is "take white": all four are handed out without a step.
    assert state.phase == TRADE
    assert state.acting == (BURGER,)
    assert held(game, state, BURGER) == {"white": 2}
    assert held(game, state, PIZZA) == {"white": 2}


def test_ruling_bj1_english_and_german_first_pick_exceptions_agree(game: BurgerJoint) -> None:
    """The exception applies only when the general area and one's own area are empty, so
    'any available cube' and 'a cube from the opponent's area' are the same cubes."""
    for seed in range(6):
        histories = []
        for text in ("english", "german"):
            state = game.new_game(2, seed=seed, options={"first_pick": text})
            rng = random.Random(seed)
            while not game.is_over(state) and len(state.history) < 400:
                seat = state.acting[0]
                legal = game.legal_actions(state, seat)
                game.step(state, seat, legal[rng.randrange(len(legal))])
            histories.append([str(a) for _, a in state.history])
        assert histories[0] == histories[1]


def test_first_pick_option_is_checked(game: BurgerJoint) -> None:
    with pytest.raises(OptionError, match="english"):
        game.new_game(2, options={"first_pick": "french"})


def test_ruling_bj4_production_from_a_short_bag(game: BurgerJoint) -> None:
    state = game.new_game(2, seed=2)
    empty_hands(game, state)
    for colour in range(game.num_colours):
        keep = 1 if game.colours[colour] in ("white", "brown", "red") else 0
        move = state.bag[colour] - keep
        state.bag[colour] -= move
        state.cubes[colour] += move  # somebody holds them
    start_turn(game, state)
    assert sum(state.pool) + sum(state.taken) == 3
    assert sum(state.bag) == 0
    while state.phase == DRAFT:
        seat = state.acting[0]
        game.step(state, seat, game.legal_actions(state, seat)[0])
    assert sum(state.taken) == 3
    assert state.phase == TRADE
    board(game, state, state.active, bistros=[3, 5])
    reason = game.explain(state, state.active, "extra")
    assert reason is not None
    assert "bag is empty" in reason
    reason = game.explain(state, state.active, "pick red")
    assert reason is not None
    assert "no red cube in the bag" in reason


# ---------------------------------------------------------------------- scoring and discard


def test_scoring_example_seven_vp(game: BurgerJoint) -> None:
    """Rulebook: 1 VP for publicity, 2 for basic restaurants, 2 for specialty diners and 2
    for upscale bistros: the scoring marker moves to 7."""
    state = trading(game)
    board(game, state, BURGER, publicity=1, basics=5, diners=["black", "yellow"], bistros=[1])
    game.step(state, BURGER, "end")
    assert state.score[BURGER] == 7
    assert game.view(state, None)["players"][BURGER]["score"] == 7


def test_twelve_vp_wins_at_once(game: BurgerJoint) -> None:
    state = trading(game)
    board(game, state, BURGER, publicity=4, basics=5, diners=["black", "yellow"], bistros=[1, 6])
    assert points(game, state, BURGER) == 2 + 2 + 2 + 5
    give(game, state, BURGER, black=1, yellow=1, brown=1)
    give(game, state, PIZZA, white=9)
    game.step(state, BURGER, "basic")  # the sixth basic restaurant: 12 VP
    game.step(state, BURGER, "end")
    assert state.phase == OVER
    assert game.is_over(state)
    assert game.to_act(state) == ()
    outcome = game.outcome(state)
    assert outcome.winners == (BURGER,)
    assert "wins at once" in outcome.reason
    assert outcome.scores == (12.0, 2.0)  # Pizza never discards: the game is over


def test_ruling_bj9_only_the_active_player_scores(game: BurgerJoint) -> None:
    state = trading(game)
    board(game, state, PIZZA, publicity=5, basics=6, diners=["green", "red", "white"], bistros=[6])
    assert points(game, state, PIZZA) >= 12
    game.step(state, BURGER, "end")
    assert not game.is_over(state)
    assert state.score[PIZZA] == 2
    while state.active == BURGER or state.phase == DRAFT:
        seat = state.acting[0]
        game.step(state, seat, game.legal_actions(state, seat)[0])
    game.step(state, PIZZA, "end")
    assert game.outcome(state).winners == (PIZZA,)


def test_discard_excess_cubes_both_players_active_first(game: BurgerJoint) -> None:
    state = trading(game)
    give(game, state, BURGER, white=5, red=4)
    give(game, state, PIZZA, green=8)
    game.step(state, BURGER, "end")
    assert state.phase == DISCARD
    assert state.acting == (BURGER,)
    assert texts(game, state, BURGER) == ["discard white", "discard red"]
    game.step(state, BURGER, "discard white")
    game.step(state, BURGER, "discard red")
    assert state.acting == (PIZZA,)
    game.step(state, PIZZA, "discard green")
    assert state.active == PIZZA
    assert state.turn == 2
    assert held(game, state, BURGER) == {"white": 4, "red": 3} or state.phase == DRAFT


def test_ruling_bj5_discarded_cubes_go_back_into_the_bag(game: BurgerJoint) -> None:
    state = trading(game)
    give(game, state, BURGER, white=8)
    game.step(state, BURGER, "end")
    game.step(state, BURGER, "discard white")
    assert (
        state.bag[c(game, "white")]
        + state.pool[c(game, "white")]
        + sum(state.cubes[k * game.num_colours + c(game, "white")] for k in (0, 1))
        == 10
    )
    assert not game.invariants(state)


def test_ruling_bj10_the_turn_limit_gives_the_win_to_the_higher_score(
    game: BurgerJoint,
) -> None:
    state = trading(game, active=PIZZA)
    state.turn = 40  # the default option turn_limit, for simulations
    state.score = [5, 4]
    board(game, state, PIZZA, publicity=0)
    game.step(state, PIZZA, "end")  # Pizza scores 2 on its board: the marker drops
    assert state.phase == OVER
    outcome = game.outcome(state)
    assert outcome.winners == (BURGER,)
    assert "40 turns" in outcome.reason
    state.score = [2, 2]
    assert game.outcome(state).winners == (BURGER, PIZZA)


# ---------------------------------------------------------------------- hidden information, saving


def test_the_bag_is_counted_but_its_order_is_redrawn(game: BurgerJoint) -> None:
    state = game.new_game(2, seed=9)
    seat = state.acting[0]
    view = game.view(state, seat)
    assert sum(view["bag"].values()) == sum(state.bag)
    futures = set()
    for k in range(8):
        other = game.redeal(state, seat, random.Random(k))
        assert game.view(other, seat) == view
        game.step(other, seat, game.legal_actions(other, seat)[0])
        while other.phase == DRAFT:
            s = other.acting[0]
            game.step(other, s, game.legal_actions(other, s)[0])
        game.step(other, other.active, "end")
        while other.phase != DRAFT:
            s = other.acting[0]
            game.step(other, s, game.legal_actions(other, s)[0])
        futures.add(tuple(other.pool))
    assert len(futures) > 1  # the next production differs: the bag was reshuffled


def test_json_round_trip_and_replay(game: BurgerJoint) -> None:
    state = game.new_game(2, seed=11)
    rng = random.Random(1)
    for _ in range(120):
        seat = state.acting[0]
        legal = game.legal_actions(state, seat)
        game.step(state, seat, legal[rng.randrange(len(legal))])
    saved = json.loads(json.dumps(game.to_json(state)))
    assert game.to_json(game.from_json(saved)) == game.to_json(state)
    assert game.to_json(game.replay(game.record(state))) == game.to_json(state)


def test_action_notation_round_trips(game: BurgerJoint) -> None:
    assert game.num_distinct_actions(2) == len(game.actions)
    for index, action in enumerate(game.actions):
        assert game.parse_action(None, 0, str(action)) == action
        assert game.action_from_index(None, 0, index) is action
    assert str(game.parse_action(None, 0, "  Trade  WHITE for red ")) == "trade white for red"


# ---------------------------------------------------------------------- data


def test_board_data_is_authored_and_the_pizza_board_is_the_burger_board_recoloured(
    game: BurgerJoint,
) -> None:
    assert game.data.authored
    swap = {"black": "green", "green": "black", "yellow": "red", "red": "yellow"}
    swap |= {"white": "brown", "brown": "white"}
    burger, pizza = game.data.sides

    def recolour(cost: list[str]) -> list[str]:
        return sorted(swap[x] for x in cost)

    assert recolour(burger.publicity_cost) == sorted(pizza.publicity_cost)
    assert recolour(burger.basic_cost) == sorted(pizza.basic_cost)
    assert sorted(swap[x] for x in burger.start_diners) == sorted(pizza.start_diners)
    for diner in burger.diners:
        other = next(d for d in pizza.diners if d.colour == swap[diner.colour])
        assert recolour(diner.cost) == sorted(other.cost)
    for mine, theirs in zip(burger.bistros, pizza.bistros, strict=True):
        assert (mine.points, mine.ability) == (theirs.points, theirs.ability)
        assert recolour(mine.cost) == sorted(theirs.cost)


def _raw_boards() -> dict[str, Any]:
    text = (
        resources.files("potluck.games.burger_joint")
        .joinpath("data/boards.toml")
        .read_text("utf-8")
    )
    return tomllib.loads(text)


def test_a_users_board_file_loads_through_the_schema(tmp_path: Path) -> None:
    raw = _raw_boards()
    raw["win_points"] = 10
    raw["sides"][0]["basic_cost"] = ["white", "white"]
    path = tmp_path / "boards.toml"
    lines = [f"win_points = {raw['win_points']}"]
    source = (
        resources.files("potluck.games.burger_joint")
        .joinpath("data/boards.toml")
        .read_text("utf-8")
    )
    body = source.replace("win_points = 12", lines[0]).replace(
        'basic_cost = ["black", "yellow", "brown"]', 'basic_cost = ["white", "white"]'
    )
    path.write_text(body, "utf-8")
    custom = potluck.load_game("burger-joint", data=path)
    assert isinstance(custom, BurgerJoint)
    assert custom.win == 10
    assert custom.sides[0].basic_cost[0] == 2
    from_table = potluck.load_game("burger-joint", data=raw)
    assert isinstance(from_table, BurgerJoint)
    assert from_table.win == 10


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda raw: raw["sides"][0].update(basic_cost=["purple"]), "purple"),
        (lambda raw: raw["sides"][1]["diners"].pop(), "one diner per colour"),
        (lambda raw: raw["sides"][0]["bistros"][0].update(ability="teleport"), "teleport"),
        (lambda raw: raw.update(colours=[*raw["colours"][:5], "end"]), "action word"),
        (lambda raw: raw.update(surprise=1), "surprise"),
    ],
)
def test_bad_board_data_is_refused_with_a_clear_error(change: Any, message: str) -> None:
    raw = _raw_boards()
    change(raw)
    with pytest.raises(DataError, match=message):
        potluck.load_game("burger-joint", data=raw)


# ---------------------------------------------------------------------- bots


def _play(game: BurgerJoint, seed: int, agents: list[str]) -> BurgerState:
    bots = [game.make_bot(name) for name in agents]
    state = game.new_game(2, seed=seed)
    rngs = [random.Random(seed * 10 + i) for i in (0, 1)]
    while not game.is_over(state):
        seat = state.acting[0]
        legal = game.legal_actions(state, seat)
        view = game.view(state, seat) if bots[seat].needs_view else None
        action = bots[seat].choose(game, view, seat, legal, rngs[seat])
        assert isinstance(action, BurgerAction)
        assert action in legal
        game.step(state, seat, action)
    return state


def test_greedy_plays_legal_moves_and_finishes(game: BurgerJoint) -> None:
    for seed in range(6):
        state = _play(game, seed, ["greedy", "greedy"])
        assert state.winner in (0, 1)


def test_greedy_beats_random_nine_times_in_ten(game: BurgerJoint) -> None:
    games, wins = 30, 0.0
    for i in range(games):
        agents = ["greedy", "random"] if i % 2 == 0 else ["random", "greedy"]
        outcome = game.outcome(_play(game, 500 + i, agents))
        if i % 2 in outcome.winners:
            wins += 1 / len(outcome.winners)
    assert wins / games >= 0.9


def test_greedy_is_deterministic(game: BurgerJoint) -> None:
    bot = game.make_bot("greedy")
    state = game.new_game(2, seed=3)
    seat = state.acting[0]
    view = game.view(state, seat)
    legal = game.legal_actions(state, seat)
    assert len({bot.choose(game, view, seat, legal, random.Random(k)) for k in range(5)}) == 1


def test_legal_actions_are_exactly_the_allowed_ones_in_code_order(game: BurgerJoint) -> None:
    for seed in range(3):
        state = game.new_game(2, seed=seed)
        rng = random.Random(seed)
        while not game.is_over(state):
            seat = state.acting[0]
            legal = game.legal_actions(state, seat)
            assert legal == [a for a in game.actions if game.explain(state, seat, a) is None]
            game.step(state, seat, legal[rng.randrange(len(legal))])


def test_the_terminal_renderer_draws_every_phase(game: BurgerJoint) -> None:
    from rich.console import Console

    from potluck.cli.renderers import renderer_for

    render = renderer_for("burger-joint")
    assert render is not None
    state = game.new_game(2, seed=2)
    board(game, state, BURGER, bistros=[1])
    rng = random.Random(2)
    phases: set[str] = set()
    while True:
        view = game.view(state, state.acting[0] if state.acting else None)
        if view["phase"] not in phases:
            phases.add(view["phase"])
            console = Console(record=True, width=100)
            console.print(render(view))
            assert f"Turn {view['turn']}" in console.export_text()
        if game.is_over(state):
            break
        seat = state.acting[0]
        legal = game.legal_actions(state, seat)
        # Prefer the redraw ability once, so that its phase is drawn too.
        wanted = [a for a in legal if str(a) == "redraw"]
        game.step(state, seat, wanted[0] if wanted else legal[rng.randrange(len(legal))])
    assert {"production", "trading", "redraw", "discard", "over"} <= phases


def test_a_malformed_saved_state_is_refused(game: BurgerJoint) -> None:
    from potluck.engine.errors import RecordError

    saved = game.to_json(game.new_game(2, seed=1))
    saved["state"]["bag"] = [10, 10]
    with pytest.raises(RecordError, match="'bag' has 2 entries, not 6"):
        game.from_json(saved)
    del saved["state"]["cubes"]
    with pytest.raises(RecordError, match="malformed"):
        game.from_json(saved)


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("active", 10**9, "the active seat is 1000000000"),
        ("phase", 9, "phase 9 is none of"),
        ("turn", -3, "turn -3 is outside"),
        ("winner", 4, "the winner is seat 4"),
    ],
)
def test_a_hand_edited_save_is_refused_with_what_is_wrong(
    game: BurgerJoint, field: str, value: int, words: str
) -> None:
    saved = game.to_json(game.new_game(2, seed=1))
    saved["state"][field] = value
    with pytest.raises(RecordError, match=words):
        game.from_json(saved)


def test_version_2_refuses_a_version_1_record(game: BurgerJoint) -> None:
    """The second rules pass (BJ-10, BJ-15) is version 2: a version 1 record is refused, clearly."""
    record = game.record(game.new_game(2, seed=3))
    assert record["version"] == 2
    with pytest.raises(RecordError, match="version 1; this engine plays version 2"):
        game.replay({**record, "version": 1})
