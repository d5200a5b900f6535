"""PettingZoo environments for every Potluck game.

    >>> from potluck.interop.pettingzoo import env
    >>> game = env(game="cafe-carnage", num_players=4)
    >>> game.reset(seed=7)
    >>> observation, reward, termination, truncation, info = game.last()
    >>> sorted(observation)
    ['action_mask', 'observation']
    >>> game.agent_selection
    'player_0'

``env`` is the AEC environment, wrapped in PettingZoo's order-enforcing and
bounds checks; ``raw_env`` is the bare class. One agent acts at a time: the
lowest seat among those the game waits for. A sealed simultaneous choice
(everyone ordering a dish at once) is therefore made one seat after another,
but stays sealed: observations are built from each seat's view, which never
shows another seat's pending choice. ``parallel_env`` steps every waiting seat
at once, for games whose turns are simultaneous (Café Carnage).

Observations are dicts: ``observation`` is the game's fixed-size vector for that
seat (``docs/games/<id>.md``, "Observation encoding") and ``action_mask`` has a 1
for each legal action code. Rewards come at the end: each winner gets ``1/k``
(``k`` winners), the others 0. An illegal action changes nothing: the agent stays
to act, gets ``illegal_reward`` and finds the reason in ``infos[agent]["illegal"]``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from potluck.engine.game import Game
from potluck.engine.state import State
from potluck.interop.table import NumericTable, agent_name

__all__ = ["RawParallelEnv", "env", "parallel_env", "raw_env"]

ObsType = dict[str, Any]
RENDER_MODES = ["ansi"]


def _spaces(
    table: NumericTable, agents: list[str]
) -> tuple[dict[str, spaces.Space[Any]], dict[str, spaces.Space[Any]]]:
    observation_spaces: dict[str, spaces.Space[Any]] = {}
    action_spaces: dict[str, spaces.Space[Any]] = {}
    for agent in agents:
        observation_spaces[agent] = spaces.Dict(
            {
                "observation": spaces.Box(
                    table.low, table.high, shape=(table.observation_size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, shape=(table.num_actions,), dtype=np.int8),
            }
        )
        action_spaces[agent] = spaces.Discrete(table.num_actions)
    return observation_spaces, action_spaces


class _Seeds:
    """Deals for successive resets: ``reset(seed=s)`` restarts the sequence at ``s``."""

    def __init__(self) -> None:
        self._rng = random.Random()

    def next(self, seed: int | None) -> int:
        if seed is not None:
            self._rng = random.Random(seed)
        return self._rng.getrandbits(63)


class _TableEnv:
    """What both environments share: the table, its spaces, the state, rendering."""

    metadata: dict[str, Any]

    def _set_up(
        self,
        game: str | Game[Any, Any],
        num_players: int | None,
        options: Mapping[str, Any] | None,
        render_mode: str | None,
        illegal_reward: float,
        render_seat: int | None,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be one of {RENDER_MODES} or None, not {render_mode!r}"
            )
        self.table = NumericTable(game, num_players, options)
        self.metadata = {
            **self.metadata,
            "name": f"potluck_{self.table.game.id.replace('-', '_')}_v1",
        }
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.illegal_reward = illegal_reward
        self.possible_agents = [agent_name(s) for s in range(self.table.num_players)]
        self.observation_spaces, self.action_spaces = _spaces(self.table, self.possible_agents)
        self._seeds = _Seeds()
        self.state_: State | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game_state(self) -> State:
        """The engine state of the game in progress (``reset`` first)."""
        if self.state_ is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state_

    def _observe_seat(self, seat: int) -> ObsType:
        return {
            "observation": self.table.observation(self.game_state, seat),
            "action_mask": self.table.action_mask(self.game_state, seat),
        }

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.table.ansi(self.game_state, self.render_seat)

    def close(self) -> None:
        pass


class raw_env(_TableEnv, AECEnv[str, ObsType, int]):  # type: ignore[misc]  # noqa: N801 (PettingZoo's name)
    """The AEC environment of one Potluck game at one table size."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (the base classes declare it so)
        "render_modes": RENDER_MODES,
        "render_fps": 1,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str | Game[Any, Any] = "cafe-carnage",
        num_players: int | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        *,
        illegal_reward: float = -1.0,
        render_seat: int | None = None,
    ) -> None:
        super().__init__()
        self._set_up(game, num_players, options, render_mode, illegal_reward, render_seat)
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.state_ = self.table.new_state(self._seeds.next(seed))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._steps = 0
        self._select()

    def _select(self) -> None:
        acting = self.table.game.to_act(self.game_state)
        if acting:
            self.agent_selection = agent_name(acting[0])

    def observe(self, agent: str) -> ObsType:
        return self._observe_seat(self._seat[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents whose game is over")
        seat = self._seat[agent]
        state = self.game_state
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        for info in self.infos.values():
            info.pop("illegal", None)
        reason = self.table.why_illegal(state, seat, int(action))
        if reason is not None:
            self.rewards[agent] = self.illegal_reward
            self.infos[agent]["illegal"] = reason
        else:
            self.table.game.step(state, seat, self.table.action(state, seat, int(action)))
            self._steps += 1
            self._after_step()
        self._accumulate_rewards()

    def _after_step(self) -> None:
        state = self.game_state
        if self.table.game.is_over(state):
            for seat, reward in enumerate(self.table.rewards(state)):
                agent = agent_name(seat)
                self.rewards[agent] = reward
                self.terminations[agent] = True
        elif self._steps >= self.table.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self._select()


def env(
    game: str | Game[Any, Any] = "cafe-carnage",
    num_players: int | None = None,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    **kwargs: Any,
) -> AECEnv[str, ObsType, int]:
    """The AEC environment wrapped in PettingZoo's order and bounds checks."""
    wrapped: AECEnv[str, ObsType, int] = raw_env(game, num_players, options, render_mode, **kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped


class RawParallelEnv(_TableEnv, ParallelEnv[str, ObsType, int]):  # type: ignore[misc]
    """Every seat the game waits for acts in one step: natural for simultaneous turns.

    The agents acting in a step are those with a non-zero ``action_mask``; the
    actions of the others are ignored. Seats act in seat order, each on a sealed
    choice, so the order does not matter to the game.

        >>> from potluck.interop.pettingzoo import parallel_env
        >>> table = parallel_env(game="cafe-carnage", num_players=4)
        >>> observations, infos = table.reset(seed=3)
        >>> all(observations[a]["action_mask"].any() for a in table.agents)
        True
    """

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game[Any, Any] = "cafe-carnage",
        num_players: int | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        *,
        illegal_reward: float = -1.0,
        render_seat: int | None = None,
        max_cycles: int | None = None,
    ) -> None:
        self._set_up(game, num_players, options, render_mode, illegal_reward, render_seat)
        # Illegal actions do not advance the game, so the bound counts environment steps.
        self.max_cycles = 20 * self.table.max_steps if max_cycles is None else max_cycles
        self.agents: list[str] = []

    def _observations(self) -> dict[str, ObsType]:
        return {
            agent: self._observe_seat(seat)
            for seat, agent in enumerate(self.possible_agents)
            if agent in self.agents
        }

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, ObsType], dict[str, dict[str, Any]]]:
        self.state_ = self.table.new_state(self._seeds.next(seed))
        self.agents = list(self.possible_agents)
        self._cycles = 0
        return self._observations(), {agent: {} for agent in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, ObsType],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        state = self.game_state
        game = self.table.game
        rewards = dict.fromkeys(self.agents, 0.0)
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        for seat in game.to_act(state):
            agent = agent_name(seat)
            if agent not in actions:
                infos[agent]["illegal"] = f"{agent} is to act but sent no action"
                rewards[agent] = self.illegal_reward
                continue
            reason = self.table.why_illegal(state, seat, int(actions[agent]))
            if reason is not None:
                infos[agent]["illegal"] = reason
                rewards[agent] = self.illegal_reward
            else:
                game.step(state, seat, self.table.action(state, seat, int(actions[agent])))
        self._cycles += 1
        over = game.is_over(state)
        if over:
            for seat, reward in enumerate(self.table.rewards(state)):
                rewards[agent_name(seat)] += reward
        truncated = not over and self._cycles >= self.max_cycles
        observations = self._observations()
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, truncated)
        if over or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos


def parallel_env(
    game: str | Game[Any, Any] = "cafe-carnage",
    num_players: int | None = None,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    **kwargs: Any,
) -> RawParallelEnv:
    """The Parallel environment (see :class:`RawParallelEnv`)."""
    return RawParallelEnv(game, num_players, options, render_mode, **kwargs)
