"""Gymnasium's env checker on every game, and the single-seat environment's promises."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from potluck.interop.gymnasium import PotluckEnv, env_id  # noqa: E402
from potluck.testing import table_cases  # noqa: E402

IDS = {
    "cafe-carnage": "potluck/CafeCarnage-v1",
    "belly-battle": "potluck/BellyBattle-v1",
    "belle-of-the-ball": "potluck/BelleOfTheBall-v1",
    "burger-joint": "potluck/BurgerJoint-v1",
    "food-advice": "potluck/FoodAdvice-v1",
}


CASES = table_cases()


def test_every_game_has_its_documented_id() -> None:
    assert {game_id: env_id(game_id) for game_id in IDS} == IDS
    for name in IDS.values():
        assert name in gymnasium.registry


@pytest.mark.parametrize(("game_id", "num_players", "options"), CASES)
def test_check_env(game_id: str, num_players: int, options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # Money in Belly Battle has no upper bound, and the encoding says so honestly.
        warnings.filterwarnings("ignore", message=".*value is infinity", category=UserWarning)
        check_env(
            gymnasium.make(
                IDS[game_id], num_players=num_players, options=options, render_mode="ansi"
            ).unwrapped
        )


@pytest.mark.parametrize("game_id", sorted({game for game, _, _ in CASES}))
def test_an_episode_with_masked_random_actions_ends_with_a_win_share(game_id: str) -> None:
    env = gymnasium.make(IDS[game_id], opponents="random")
    rng = np.random.default_rng(0)
    observation, _ = env.reset(seed=3)
    for _ in range(20_000):
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, _info = env.step(action)
        if terminated or truncated:
            break
    assert terminated
    assert 0.0 <= float(reward) <= 1.0


def test_same_seed_same_episode() -> None:
    first, second = PotluckEnv("cafe-carnage", 5), PotluckEnv("cafe-carnage", 5)
    a, _ = first.reset(seed=4)
    b, _ = second.reset(seed=4)
    assert np.array_equal(a["observation"], b["observation"])
    action = int(np.flatnonzero(first.action_masks())[0])
    assert np.array_equal(
        first.step(action)[0]["observation"], second.step(action)[0]["observation"]
    )


def test_the_agent_can_sit_in_any_seat_against_named_bots() -> None:
    env = PotluckEnv("cafe-carnage", 4, seat=2, opponents=["greedy", "random", "greedy"])
    observation, _ = env.reset(seed=1)
    assert 2 in env.game_state.acting
    assert observation["action_mask"].any()


def test_bad_arguments_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="seat must be 0 to 3"):
        PotluckEnv("cafe-carnage", 4, seat=4)
    with pytest.raises(ValueError, match="no bot 'genius'"):
        PotluckEnv("cafe-carnage", 4, opponents="genius")
    with pytest.raises(ValueError, match="3 opponents"):
        PotluckEnv("cafe-carnage", 4, opponents=["greedy"])


def test_an_illegal_action_changes_nothing() -> None:
    env = PotluckEnv("cafe-carnage", 4)
    env.reset(seed=1)
    history = list(env.game_state.history)
    illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, False, False)
    assert "illegal" in info
    assert env.game_state.history == history
