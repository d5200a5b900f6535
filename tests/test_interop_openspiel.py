"""OpenSpiel's own random simulation test on every game and player count, and the
adapter's promises (parameters, observer, resampling, ISMCTS)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import potluck  # noqa: E402
from potluck.interop.openspiel import game_name  # noqa: E402
from potluck.testing import table_cases  # noqa: E402


@pytest.mark.parametrize(("game_id", "num_players", "options"), table_cases())
def test_random_sim_test(game_id: str, num_players: int, options: dict[str, Any]) -> None:
    game = pyspiel.load_game(game_name(game_id), {"players": num_players, **options})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


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


def test_deals_follow_the_seed_parameter() -> None:
    def first_menus(seed: int) -> list[str]:
        game = pyspiel.load_game("potluck_cafe_carnage", {"seed": seed})
        return [game.new_initial_state().observation_string(0) for _ in range(3)]

    assert first_menus(1) == first_menus(1)
    assert first_menus(1) != first_menus(2)
    assert len(set(first_menus(1))) == 3


def test_the_observer_gives_the_encoding_and_the_view() -> None:
    game = pyspiel.load_game("potluck_burger_joint")
    state = game.new_initial_state()
    observation = make_observation(game)
    observation.set_from(state, 1)
    table = game.table
    assert observation.tensor.shape == (table.observation_size,)
    assert np.array_equal(observation.tensor, table.observation(state.engine_state, 1))
    assert set(observation.dict) == {f.name for f in table.encoding.features}
    view = json.loads(observation.string_from(state, 1))
    assert view["seat"] == 1
    assert state.observation_tensor(1) == pytest.approx(list(observation.tensor))


def test_information_state_strings_add_my_own_actions() -> None:
    game = pyspiel.load_game("potluck_cafe_carnage")
    state = game.new_initial_state()
    action = state.legal_actions()[0]
    state.apply_action(action)
    assert state.information_state_string(0).endswith(state.action_to_string(0, action))
    assert "my actions: " in state.information_state_string(1)


def test_resampling_keeps_what_the_seat_sees_and_redeals_the_rest() -> None:
    game = pyspiel.load_game("potluck_cafe_carnage")
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[-1])
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(seat, sampler) for _ in range(8)]
    for world in worlds:
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.legal_actions() == state.legal_actions()
        assert world.history() == state.history()
    others = {world.observation_string((seat + 1) % 4) for world in worlds}
    assert len(others) > 1, "another seat's hidden menu should differ between worlds"


def _ismcts_game(game_id: str, players: int, seed: int) -> Any:
    game = pyspiel.load_game(game_name(game_id), {"players": players, "seed": seed})
    rng = np.random.RandomState(seed)
    searcher = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 10, random_state=rng
    )
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == 0:
            state.apply_action(searcher.step(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_openspiels_ismcts_plays_a_whole_game() -> None:
    state = _ismcts_game("burger-joint", 2, seed=3)
    assert sum(state.returns()) == pytest.approx(1.0)
