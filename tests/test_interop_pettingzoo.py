"""PettingZoo's own tests on every game and player count, and the adapter's promises."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.test.seed_test import parallel_seed_test

import potluck
from potluck.interop.pettingzoo import env, parallel_env, raw_env
from potluck.testing import table_cases

CASES = table_cases()


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # PettingZoo warns that dict observations (vector + action mask) are not plain
    # arrays, although its own classic environments use exactly this layout.
    warnings.filterwarnings("ignore", message="Observation", category=UserWarning)


@pytest.mark.parametrize(("game_id", "num_players", "options"), CASES)
def test_api_test(game_id: str, num_players: int, options: dict[str, Any]) -> None:
    api_test(env(game_id, num_players, options, render_mode="ansi"), num_cycles=60)


@pytest.mark.parametrize(("game_id", "num_players", "options"), CASES)
def test_seed_test(game_id: str, num_players: int, options: dict[str, Any]) -> None:
    seed_test(lambda: env(game_id, num_players, options), num_cycles=60)


@pytest.mark.parametrize("num_players", [4, 5, 6])
def test_parallel_api_test_on_cafe_carnage(num_players: int) -> None:
    parallel_api_test(parallel_env(game="cafe-carnage", num_players=num_players), num_cycles=200)
    parallel_seed_test(lambda: parallel_env(game="cafe-carnage", num_players=num_players))


def _play_masked(aec: raw_env, seed: int) -> dict[str, float]:
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        observation, reward, termination, truncation, _ = aec.last()
        totals[agent] += float(reward)
        if termination or truncation:
            aec.step(None)
        else:
            aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return totals


def test_a_whole_game_pays_the_winners_one_point_between_them() -> None:
    totals = _play_masked(raw_env("cafe-carnage", 4), seed=11)
    assert sum(totals.values()) == pytest.approx(1.0)
    assert max(totals.values()) > 0


def test_a_sealed_order_stays_sealed_while_others_choose() -> None:
    aec = raw_env("cafe-carnage", 4)
    aec.reset(seed=2)
    before = aec.observe("player_1")["observation"].copy()
    aec.step(int(np.flatnonzero(aec.observe("player_0")["action_mask"])[0]))
    assert aec.agent_selection == "player_1"
    after = aec.observe("player_1")["observation"]
    changed = np.flatnonzero(before != after)
    waiting = aec.table.encoding.slice("waiting_for")
    hand_sizes = aec.table.encoding.slice("hand_size")
    # All that player_1 learns is that player_0 has chosen, never what.
    assert all(
        waiting.start <= i < waiting.stop or hand_sizes.start <= i < hand_sizes.stop
        for i in changed
    )


def test_an_illegal_action_changes_nothing_and_says_why() -> None:
    aec = raw_env("cafe-carnage", 4)
    aec.reset(seed=2)
    illegal = int(np.flatnonzero(aec.observe("player_0")["action_mask"] == 0)[0])
    history = list(aec.game_state.history)
    aec.step(illegal)
    assert aec.game_state.history == history
    assert aec.agent_selection == "player_0"
    assert aec.rewards["player_0"] == -1.0
    assert aec.infos["player_0"]["illegal"]
    aec.step(10_000)
    assert "outside the action space" in aec.infos["player_0"]["illegal"]


def test_same_seed_same_deal_and_reset_without_seed_deals_anew() -> None:
    first, second = raw_env("cafe-carnage", 4), raw_env("cafe-carnage", 4)
    first.reset(seed=9)
    second.reset(seed=9)
    assert np.array_equal(
        first.observe("player_0")["observation"], second.observe("player_0")["observation"]
    )
    first.reset()
    second.reset()
    assert first.game_state.seed == second.game_state.seed
    deals = set()
    for _ in range(5):
        first.reset()
        deals.add(first.game_state.seed)
    assert len(deals) == 5


def test_ansi_render_draws_the_table() -> None:
    aec = raw_env("cafe-carnage", 4, render_mode="ansi")
    aec.reset(seed=1)
    text = aec.render()
    assert text is not None
    assert "Night 1 of 5" in text
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("cafe-carnage", 4, render_mode="human")


def test_bad_table_sizes_and_options_are_refused_clearly() -> None:
    with pytest.raises(potluck.PotluckError, match="4 to 6 players"):
        env(game="cafe-carnage", num_players=3)
    with pytest.raises(potluck.PotluckError, match="option"):
        env(game="cafe-carnage", num_players=4, options={"no_such_option": True})
