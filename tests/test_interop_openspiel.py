"""OpenSpiel's own random simulation test on every game and player count, and the
adapter's promises (parameters, observer, resampling, ISMCTS)."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import potluck  # noqa: E402
from potluck.agents import decide, make_agent  # noqa: E402
from potluck.interop.openspiel import game_name  # noqa: E402
from potluck.testing import table_cases  # noqa: E402


@pytest.mark.parametrize(("game_id", "num_players", "options"), table_cases())
def test_random_sim_test(game_id: str, num_players: int, options: dict[str, Any]) -> None:
    game = pyspiel.load_game(game_name(game_id), {"players": num_players, **options})
    # It checks every seat's strings and tensors at every step: one game for big tables.
    sims = 2 if num_players <= 4 else 1
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


def test_every_game_is_registered_under_its_documented_name() -> None:
    names = set(pyspiel.registered_names())
    for game_id in potluck.list_games():
        assert game_name(game_id) in names
    assert game_name("cafe-carnage") == "potluck_cafe_carnage"


def test_parameters_come_from_the_load_string() -> None:
    game = pyspiel.load_game("potluck_cafe_carnage(players=5,no_repeat_dishes=True)")
    assert game.num_players() == 5
    assert game.table.options == {"no_repeat_dishes": True}
    belly = pyspiel.load_game("potluck_belly_battle(players=3,max_rounds=20)")
    assert belly.table.options["max_rounds"] == 20
    small = pyspiel.load_game("potluck_food_advice(players=2,small_table=True)")
    assert small.num_players() == 2


def test_a_bad_parameter_is_refused_with_the_engines_reason() -> None:
    with pytest.raises(potluck.PotluckError, match="4 to 6 players"):
        pyspiel.load_game("potluck_cafe_carnage(players=3)")


def _first_menus(seed: int, clones: int = 0) -> list[str]:
    game = pyspiel.load_game("potluck_cafe_carnage", {"seed": seed})
    menus = []
    for _ in range(3):
        state = game.new_initial_state()
        for _ in range(clones):
            state.clone().apply_action(state.legal_actions()[0])
        menus.append(state.observation_string(0))
    return menus


def test_deals_follow_the_seed_parameter() -> None:
    assert _first_menus(1) == _first_menus(1)
    assert _first_menus(1) != _first_menus(2)
    assert len(set(_first_menus(1))) == 3


def test_cloning_draws_no_deal() -> None:
    # pyspiel clones by making a new initial state: that one must not use up a deal.
    assert _first_menus(1, clones=5) == _first_menus(1)


def test_a_clone_of_a_fresh_state_is_the_same_deal() -> None:
    game = pyspiel.load_game("potluck_belle_of_the_ball(players=3)")
    state = game.new_initial_state()
    twin = state.clone()
    assert [twin.observation_string(p) for p in range(3)] == [
        state.observation_string(p) for p in range(3)
    ]
    action = state.legal_actions()[0]
    state.apply_action(action)
    twin.apply_action(action)
    assert str(twin) == str(state)


@pytest.mark.parametrize("game_id", potluck.list_games())
def test_states_round_trip_through_serialize(game_id: str) -> None:
    rules = potluck.load_game(game_id)
    players = min(max(3, rules.min_players), rules.max_players)
    game = pyspiel.load_game(f"{game_name(game_id)}(players={players})")
    state = game.new_initial_state()
    for _ in range(6):
        state.apply_action(state.legal_actions()[-1])
    restored = game.deserialize_state(state.serialize())
    assert restored.history() == state.history()
    assert restored.information_state_string(1) == state.information_state_string(1)
    assert restored.legal_actions() == state.legal_actions()


def test_states_round_trip_after_a_greedy_decision_filled_the_games_memos() -> None:
    # The game object travels with a serialized state; what its greedy bot kept on it
    # (Belly Battle's shared public card state, a compiled class) must pickle too.
    game = pyspiel.load_game("potluck_belly_battle(players=3)")
    state = game.new_initial_state()
    for _ in range(6):
        state.apply_action(state.legal_actions()[-1])
    rules, inner = game.table.game, state.engine_state
    decide(make_agent(rules, "greedy"), rules, inner, inner.acting[0], random.Random(0))
    assert type(rules.seat_memo).__name__ == "PublicCards"
    restored = game.deserialize_state(state.serialize())
    assert restored.history() == state.history()
    assert restored.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("game_id", potluck.list_games())
def test_the_observer_gives_the_encoding_and_the_view(game_id: str) -> None:
    game = pyspiel.load_game(game_name(game_id))
    state = game.new_initial_state()
    observation = make_observation(game)
    observation.set_from(state, 1)
    table = game.table
    assert game.observation_tensor_shape() == [table.observation_size]
    assert observation.tensor.shape == (table.observation_size,)
    assert observation.tensor.dtype == np.float32
    assert np.array_equal(observation.tensor, table.observation(state.engine_state, 1))
    assert list(observation.dict) == ["observation"]
    assert list(observation.features) == [f.name for f in table.encoding.features]
    for feature in table.encoding.features:
        piece = observation.features[feature.name]
        assert np.array_equal(piece, observation.tensor[table.encoding.slice(feature.name)])
    assert json.loads(observation.string_from(state, 1)) == json.loads(
        json.dumps(table.game.view(state.engine_state, 1))
    )
    assert state.observation_tensor(1) == pytest.approx(list(observation.tensor))
    assert pyspiel.State.observation_tensor(state, 1) == state.observation_tensor(1)  # C++ path
    assert state.observation_string(1) == observation.string_from(state, 1)


def test_observation_tensors_draw_no_deal() -> None:
    # pyspiel's own observation_tensor deals a game to learn the tensor's size.
    def menus(look: bool) -> list[str]:
        game = pyspiel.load_game("potluck_cafe_carnage", {"seed": 4})
        seen = []
        for _ in range(3):
            state = game.new_initial_state()
            if look:
                state.observation_tensor()
                game.observation_tensor_size()
            seen.append(state.observation_string(0))
        return seen

    assert menus(look=True) == menus(look=False)


def _observation_type(private: Any, perfect_recall: bool = False) -> Any:
    return pyspiel.IIGObservationType(
        perfect_recall=perfect_recall, public_info=True, private_info=private
    )


def test_the_public_observer_shows_a_spectators_view_and_no_tensor() -> None:
    game = pyspiel.load_game("potluck_cafe_carnage")
    state = game.new_initial_state()
    public = make_observation(game, _observation_type(pyspiel.PrivateInfoType.NONE))
    assert public.tensor is None
    assert public.dict == {}
    spectator = json.loads(public.string_from(state, 0))
    assert spectator == json.loads(json.dumps(game.table.game.view(state.engine_state, None)))
    assert public.string_from(state, 0) == public.string_from(state, 3)
    assert public.string_from(state, 0) != state.observation_string(0)


def test_observers_it_cannot_give_are_refused() -> None:
    game = pyspiel.load_game("potluck_cafe_carnage")
    with pytest.raises(ValueError, match="ALL_PLAYERS"):
        make_observation(game, _observation_type(pyspiel.PrivateInfoType.ALL_PLAYERS))
    with pytest.raises(ValueError, match="no parameters"):
        make_observation(game, None, {"fancy": True})


def test_information_state_strings_add_my_own_actions() -> None:
    game = pyspiel.load_game("potluck_cafe_carnage")
    state = game.new_initial_state()
    action = state.legal_actions()[0]
    state.apply_action(action)
    assert state.information_state_string(0).endswith(state.action_to_string(0, action))
    assert "my actions: " in state.information_state_string(1)


@pytest.mark.parametrize(
    ("game_id", "num_players"), [(g, 4 if g != "burger-joint" else 2) for g in potluck.list_games()]
)
def test_resampling_keeps_what_the_seat_sees(game_id: str, num_players: int) -> None:
    game = pyspiel.load_game(game_name(game_id), {"players": num_players, "seed": 5})
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(4):
        world = state.resample_from_infostate(seat, sampler)
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.observation_tensor(seat) == state.observation_tensor(seat)
        assert world.legal_actions() == state.legal_actions()
        assert world.history() == state.history()
        world.apply_action(world.legal_actions()[0])  # the world plays on


def test_resampling_redeals_the_rest() -> None:
    game = pyspiel.load_game("potluck_cafe_carnage")
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[-1])
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(seat, sampler) for _ in range(8)]
    others = {world.observation_string((seat + 1) % 4) for world in worlds}
    assert len(others) > 1, "another seat's hidden menu should differ between worlds"


def _ismcts_bot(game: Any, simulations: int, seed: int) -> Any:
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=rng)
    # Its own resampler's sampler is unseeded; a seeded one keeps the test repeatable.
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    return bot


def test_openspiels_ismcts_plays_a_whole_game() -> None:
    game = pyspiel.load_game("potluck_cafe_carnage", {"seed": 3})
    searcher = _ismcts_bot(game, simulations=10, seed=3)
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == 0:
            state.apply_action(searcher.step(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("game_id", potluck.list_games())
def test_openspiels_ismcts_searches_every_game(game_id: str) -> None:
    # ISMCTS asserts that each resampled world has the root's information state.
    game = pyspiel.load_game(game_name(game_id), {"seed": 1})
    searcher = _ismcts_bot(game, simulations=4, seed=1)
    rng = np.random.RandomState(1)
    state = game.new_initial_state()
    searched = 0
    while searched < 4 and not state.is_terminal():
        if state.current_player() == 0:
            action = searcher.step(state)
            assert action in state.legal_actions()
            searched += len(state.legal_actions()) > 1
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    game = pyspiel.load_game("potluck_cafe_carnage")
    state = game.new_initial_state()
    before = state.information_state_string(0)
    legal = state.legal_actions()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    with pytest.raises(potluck.PotluckError, match="not on your"):
        state.apply_action(illegal)
    with pytest.raises(potluck.PotluckError, match="out of range"):
        state.apply_action(game.num_distinct_actions())
    assert state.history() == []
    assert state.information_state_string(0) == before
    assert state.legal_actions() == legal
