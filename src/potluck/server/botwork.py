"""Bot decisions off the event loop: in worker processes, each within a time budget.

A bot's decision is pure CPU (a search bot's, hundreds of times a greedy one's).
On the server's one event loop it would hold up every table; here it runs in a
``ProcessPoolExecutor`` (``workers`` processes, started with ``spawn`` so no
thread or socket of the server is copied into them) while the loop serves
everyone else. The worker is given what ``potluck.agents.decide`` needs: the
game's id, the bot's spec, the state, the seat and the table's bot RNG state;
it returns the action's text and the RNG's new state, so a table's bots draw the
same numbers as they would inline. A decision that takes longer than ``budget``
seconds is replaced by a random legal move (and logged), so one slow bot never
stalls its table.

``workers=0`` decides inline, on the loop (the tests, and a server whose bots are
all cheap).

    >>> pool = BotWorkers(workers=0, budget=5.0)
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import cache
from typing import Any

from potluck.agents import decide, make_agent
from potluck.engine.action import Action
from potluck.engine.bots import Bot
from potluck.engine.game import Game
from potluck.engine.registry import load_game
from potluck.engine.state import State

log = logging.getLogger("potluck.server")

RngState = tuple[Any, ...]


@cache
def _game(game_id: str) -> Game[Any, Any]:
    return load_game(game_id)


@cache
def _bot(game_id: str, spec: str) -> Bot:
    # bots keep no memory between decisions (the conformance suite checks that a
    # decision depends only on the seat's information), so one per spec serves all
    return make_agent(_game(game_id), spec)


def decide_in_worker(
    game_id: str, spec: str, state: State, seat: int, rng_state: RngState
) -> tuple[str, RngState]:
    """One decision, in a worker process: the action's text and the RNG's new state."""
    rng = random.Random()
    rng.setstate(rng_state)
    action = decide(_bot(game_id, spec), _game(game_id), state, seat, rng)
    return str(action), rng.getstate()


def _warm_up() -> None:
    """Import the games in a new worker before its first decision."""
    from potluck.engine.registry import list_games

    for game_id in list_games():
        _game(game_id)


class BotWorkers:
    """Where bots decide: ``workers`` processes (0: inline) and the time ``budget``."""

    def __init__(self, workers: int = 0, budget: float = 10.0) -> None:
        self.workers = workers
        self.budget = budget
        self.pool: ProcessPoolExecutor | None = self._new_pool() if workers else None

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_warm_up
        )

    @staticmethod
    def heavy(game: Game[Any, Any], spec: str) -> bool:
        """Whether ``spec`` decides in a worker: every bot but the game's own (random,
        greedy: a millisecond or two, less than the trip to a worker and back)."""
        return spec.partition(":")[0] not in game.bots()

    @staticmethod
    def decide_inline(
        game: Game[Any, Any], spec: str, state: State, seat: int, rng: random.Random
    ) -> Action:
        """The bot's action, decided here and now (for the game's own bots)."""
        return decide(_bot(game.id, spec), game, state, seat, rng)

    async def decide(
        self, game: Game[Any, Any], spec: str, state: State, seat: int, rng: random.Random
    ) -> str:
        """The text of the action the bot ``spec`` takes for ``seat``; ``rng`` advances as
        it would inline. Past the budget: a random legal action."""
        if self.pool is None:
            return str(self.decide_inline(game, spec, state, seat, rng))
        loop = asyncio.get_running_loop()
        job = loop.run_in_executor(
            self.pool, decide_in_worker, game.id, spec, state, seat, rng.getstate()
        )
        try:
            text, rng_state = await asyncio.wait_for(job, self.budget)
        except TimeoutError:
            log.warning(
                "the %s bot took over %.1f s for seat %d: a random move instead",
                spec,
                self.budget,
                seat,
            )
            self._restart()  # the worker would go on thinking: stop it
            return str(rng.choice(game.legal_actions(state, seat)))
        except BrokenProcessPool:  # another decision's overrun restarted the workers
            return str(rng.choice(game.legal_actions(state, seat)))
        rng.setstate(rng_state)
        return text

    def _restart(self) -> None:
        self.close()
        self.pool = self._new_pool()

    def close(self) -> None:
        """Stop the worker processes, a decision still running included."""
        if self.pool is None:
            return
        # a process pool cannot cancel a running call: its processes are ended instead
        processes = list(getattr(self.pool, "_processes", {}).values())
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.pool = None
        for process in processes:
            process.terminate()
