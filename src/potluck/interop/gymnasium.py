"""Gymnasium environments: one seat of a Potluck game against Potluck's bots.

Importing this module registers one id per game:

    >>> import gymnasium
    >>> import potluck.interop.gymnasium
    >>> env = gymnasium.make("potluck/CafeCarnage-v1", num_players=4, opponents="greedy")
    >>> observation, info = env.reset(seed=1)
    >>> observation["observation"].shape == env.observation_space["observation"].shape
    True

(``gymnasium.make("potluck.interop.gymnasium:potluck/BellyBattle-v1")`` imports
it for you.) The agent plays ``seat`` (default 0); the other seats are played by
the named bots, drawn from the episode's seed. Observations are dicts with the
game's fixed-size ``observation`` vector and an ``action_mask``; ``action_masks()``
gives the mask too, for maskable learners. The reward is the agent's share of the
win at the end (1, ``1/k`` in a ``k``-way tie, or 0). An illegal action changes
nothing and costs ``illegal_reward``; ``info["illegal"]`` says why.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from potluck.agents import decide, make_agent
from potluck.engine.game import Game
from potluck.engine.registry import list_games
from potluck.engine.state import State
from potluck.interop.table import MaskArray, NumericTable, camel_name
from potluck.sim import bot_rng

__all__ = ["PotluckEnv", "env_id", "register_envs"]

ObsType = dict[str, Any]


class PotluckEnv(gymnasium.Env[ObsType, np.int64]):
    """One seat of a Potluck game; the other seats are Potluck bots.

    >>> env = PotluckEnv("cafe-carnage", 5, opponents="random", seat=1)
    >>> observation, info = env.reset(seed=5)
    >>> action = int(np.flatnonzero(env.action_masks())[0])
    >>> observation, reward, terminated, truncated, info = env.step(action)
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game[Any, Any] = "cafe-carnage",
        num_players: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "greedy",
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        self.table = NumericTable(game, num_players, options)
        n = self.table.num_players
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0 to {n - 1} at a table of {n}, not {seat}")
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise ValueError(f"{n - 1} opponents are needed at a table of {n}, not {len(names)}")
        from potluck.agents import make_agent

        for name in names:
            make_agent(self.table.game, name)  # a bad spec fails now, naming what is wrong
        self.seat = seat
        others = [s for s in range(n) if s != seat]
        self.opponents: dict[int, str] = dict(zip(others, names, strict=True))
        self.render_mode = render_mode
        self.illegal_reward = illegal_reward
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    self.table.low,
                    self.table.high,
                    shape=(self.table.observation_size,),
                    dtype=np.float32,
                ),
                "action_mask": spaces.Box(0, 1, shape=(self.table.num_actions,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(self.table.num_actions)
        self.state_: State | None = None
        self._bots: dict[str, Any] = {}
        self._rngs: dict[int, random.Random] = {}

    @property
    def game_state(self) -> State:
        """The engine state of the episode (``reset`` first)."""
        if self.state_ is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state_

    def _observation(self) -> ObsType:
        return {
            "observation": self.table.observation(self.game_state, self.seat),
            "action_mask": self.table.action_mask(self.game_state, self.seat),
        }

    def action_masks(self) -> MaskArray:
        """The legal actions now, as a 0/1 vector over the action codes."""
        return self.table.action_mask(self.game_state, self.seat)

    def _play_bots(self) -> None:
        """Let the bots act until the agent's seat is to act or the game is over."""
        state, game = self.game_state, self.table.game
        while True:
            acting = game.to_act(state)
            if not acting or self.seat in acting:
                return
            seat = acting[0]
            spec = self.opponents[seat]
            bot = self._bots.get(spec)
            if bot is None:  # each spec is made once and kept for the episode's seats
                bot = self._bots[spec] = make_agent(game, spec)
            game.step(state, seat, decide(bot, game, state, seat, self._rngs[seat]))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        super().reset(seed=seed)
        deal = int(self.np_random.integers(2**62))
        self.state_ = self.table.new_state(deal)
        self._rngs = {seat: bot_rng(deal, seat) for seat in self.opponents}
        self._play_bots()
        return self._observation(), {"deal": deal}

    def step(
        self, action: np.int64 | int
    ) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        state, game = self.game_state, self.table.game
        if game.is_over(state):
            raise RuntimeError("the episode is over: call reset()")
        reason = self.table.why_illegal(state, self.seat, int(action))
        if reason is not None:
            return self._observation(), self.illegal_reward, False, False, {"illegal": reason}
        game.step(state, self.seat, self.table.action(state, self.seat, int(action)))
        self._play_bots()
        terminated = game.is_over(state)
        reward = self.table.rewards(state)[self.seat] if terminated else 0.0
        truncated = not terminated and len(state.history) >= self.table.max_steps
        return self._observation(), reward, terminated, truncated, {}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.table.ansi(self.game_state, self.seat)


def env_id(game_id: str) -> str:
    """The Gymnasium id of a game.

    >>> env_id("cafe-carnage")
    'potluck/CafeCarnage-v1'
    """
    return f"potluck/{camel_name(game_id)}-v1"


def register_envs() -> list[str]:
    """Register every installed game with Gymnasium (done on import); returns the ids."""
    ids = []
    for game_id in list_games():
        name = env_id(game_id)
        if name not in gymnasium.registry:
            gymnasium.register(
                id=name,
                entry_point="potluck.interop.gymnasium:PotluckEnv",
                kwargs={"game": game_id},
                disable_env_checker=True,
            )
        ids.append(name)
    return ids


register_envs()
