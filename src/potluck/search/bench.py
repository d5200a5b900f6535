"""Benchmark a bot: decisions per second and, for search bots, simulations per second.

``bench_bot`` seats the bot in every seat and plays games through
:func:`potluck.agents.decide` (the call every surface uses) until the time is up,
timing only the bot's decisions::

    >>> import potluck
    >>> result = bench_bot(potluck.load_game("cafe-carnage"), 4, "ismcts:sims=20", seconds=0.2)
    >>> result.decisions >= 1 and result.simulations_per_second > 0
    True

A decision with a single legal action costs a search bot nothing and is not
counted. ``potluck.search.openspiel`` runs OpenSpiel's ISMCTS next to it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from potluck.agents import decide, make_agent
from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.search.ismcts import ISMCTSBot
from potluck.sim import bot_rng


@dataclass(frozen=True, slots=True)
class BotBenchResult:
    """How fast a bot decided: its decisions and simulations and the time they took."""

    game: str
    players: int
    bot: str
    decisions: int
    seconds: float
    #: Simulations the search ran (``None`` for a bot that does not search).
    simulations: int | None
    #: The longest single decision, in seconds (what a player waits at worst).
    slowest: float = 0.0

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds if self.seconds > 0 else 0.0

    @property
    def simulations_per_second(self) -> float | None:
        if self.simulations is None:
            return None
        return self.simulations / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "players": self.players,
            "bot": self.bot,
            "decisions": self.decisions,
            "seconds": self.seconds,
            "decisions_per_second": self.decisions_per_second,
            "slowest_decision_seconds": self.slowest,
        }
        if self.simulations is not None:
            data["simulations"] = self.simulations
            data["simulations_per_second"] = self.simulations_per_second
        return data


def bench_bot(
    game: Game[Any, Any],
    num_players: int | None,
    spec: str,
    seconds: float = 2.0,
    seed: int = 0,
) -> BotBenchResult:
    """The bot ``spec`` in every seat, for about ``seconds`` of its own thinking.

    Game ``i`` is dealt from ``seed + i``; the bot in seat ``s`` draws from
    ``potluck.sim.bot_rng(seed + i, s)``, so the games are the same on every run.
    """
    players = game.min_players if num_players is None else num_players
    if seconds <= 0:
        raise PotluckError(f"the benchmark needs a positive time, not {seconds} seconds")
    bot = make_agent(game, spec)
    search = bot if isinstance(bot, ISMCTSBot) else None
    clock = time.perf_counter
    decisions, thinking, simulations, number, slowest = 0, 0.0, 0, 0, 0.0
    while thinking < seconds:
        state = game.new_game(players, seed + number)
        rngs = [bot_rng(seed + number, s) for s in range(players)]
        while game.to_act(state) and thinking < seconds:
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            if len(legal) == 1:
                game.step(state, seat, legal[0])
                continue
            before = search.simulations_run if search is not None else 0
            start = clock()
            action = decide(bot, game, state, seat, rngs[seat])
            took = clock() - start
            thinking += took
            slowest = max(slowest, took)
            decisions += 1
            if search is not None:
                simulations += search.simulations_run - before
            game.step(state, seat, action)
        number += 1
    return BotBenchResult(
        game.id,
        players,
        spec,
        decisions,
        thinking,
        simulations if search is not None else None,
        slowest,
    )
