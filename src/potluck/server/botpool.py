"""Bots at the server: the difficulty levels a seat may have, and the worker processes
where search bots think, so that no table waits on another table's bot.

A seat is ``human``, a difficulty (``easy``, ``medium``, ``hard``) or one of the
game's own bots by name (``random``, ``greedy``). Clients never send bot
parameters: a spec such as ``ismcts:sims=10000000`` would let one visitor buy
minutes of the server's time, so each difficulty is a fixed spec chosen here.

    >>> import potluck
    >>> seat_bot_spec(potluck.load_game("belly-battle"), "hard")
    'ismcts:time=0.4'
    >>> seat_bot_spec(potluck.load_game("cafe-carnage"), "human") is None
    True
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
import signal
import sys
import threading
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_all_start_methods, get_context
from multiprocessing.connection import wait
from typing import Any

from potluck.engine.game import Game

__all__ = [
    "DIFFICULTIES",
    "BotPool",
    "Thought",
    "hard_spec",
    "review",
    "seat_bot_spec",
    "seat_kinds",
    "think",
]

#: Each difficulty's bot spec (rungs of the ladders in docs/bots.md). ``hard`` here is
#: the default hard bot: the game's tuned search (``ismcts`` with the game's defaults)
#: stopped at 0.4 s of thought if its own budget has not ended first, so a round of five
#: hard bots takes about 2 s. A game may have another (``HARD_BY_GAME``); ask
#: :func:`hard_spec`.
DIFFICULTIES = {
    "easy": "random",
    "medium": "greedy",
    "hard": "ismcts:time=0.4",
}

#: The hard level's bot in the games where it is not the default (docs/bots.md,
#: "Difficulties"): there the policy-improvement bot (``improve``, with the game's
#: defaults: at most 0.25 s of CPU a decision) beat the tuned search on development
#: deals; ``wall=0.4`` keeps the web's cap of 0.4 s a decision on the wall clock.
HARD_BY_GAME: dict[str, str] = {
    "cafe-carnage": "improve:wall=0.4",
    "belle-of-the-ball": "improve:wall=0.4",
    # (whole greedy games, at a fifth of the search's CPU: docs/bots.md, "Issue 32's
    # FoodAdvice hard bot")
    "food-advice": "improve:wall=0.4",
}


def hard_spec(game: Game[Any, Any]) -> str:
    """The bot spec a hard seat plays in ``game`` (the one place that says it).

    >>> import potluck
    >>> hard_spec(potluck.load_game("belly-battle")) == DIFFICULTIES["hard"]
    True
    """
    return HARD_BY_GAME.get(game.id, DIFFICULTIES["hard"])


def seat_kinds(game: Game[Any, Any]) -> list[str]:
    """Every seat kind a table of ``game`` accepts: human, the difficulties, its bots."""
    return ["human", *DIFFICULTIES, *sorted(game.bots())]


def seat_bot_spec(game: Game[Any, Any], kind: str, hard: str | None = None) -> str | None:
    """The bot spec that plays a seat of ``kind`` (``None``: a person, or no such kind);
    ``hard`` replaces the hard level's spec (the host's ``ServerSettings.hard_bot``;
    ``None``: the game's own, :func:`hard_spec`)."""
    if kind in DIFFICULTIES:
        spec = (hard or hard_spec(game)) if kind == "hard" else DIFFICULTIES[kind]
        return spec if spec != "greedy" or "greedy" in game.bots() else "random"
    if kind != "human" and kind in game.bots():
        return kind
    return None


@dataclass(frozen=True)
class Thought:
    """Everything a worker needs to choose one bot move: nothing of the live table."""

    game_id: str
    data: str | None
    state: dict[str, Any]  # Game.to_json of the table's state
    seat: int
    spec: str
    seed: int
    step: int  # how many actions the state had: the move is stale if that changed


def think(thought: Thought) -> str:
    """Choose the move (its canonical text) in a worker process."""
    from potluck.agents import decide, make_agent
    from potluck.engine.registry import load_game

    game = load_game(thought.game_id, data=thought.data)
    state = game.from_json(thought.state)
    bot = make_agent(game, thought.spec)
    return str(decide(bot, game, state, thought.seat, random.Random(thought.seed)))


def review(
    game_id: str,
    data: str | None,
    record: dict[str, Any],
    seat: int,
    spec: str,
    numbers: list[int] | None = None,
    seconds_per_move: float | None = None,
) -> list[dict[str, Any]]:
    """Move analysis of one seat of a finished game (only its moves ``numbers``, if
    given, each within ``seconds_per_move``), in a worker process."""
    from potluck.engine.registry import load_game
    from potluck.review import review_record

    game = load_game(game_id, data=data)
    found = review_record(
        game, record, seat, spec, numbers=numbers, seconds_per_move=seconds_per_move
    )
    return [r.to_json() for r in found]


#: How much lower the workers' OS priority is than the server's (``os.nice``; 19 is
#: the lowest there is): when a search bot and the event loop want the same core, the
#: loop wins it, so a bot thinking at one table does not slow the moves of the others.
WORKER_NICENESS = 19


def lower_priority() -> None:
    """A worker's initializer: run at a lower OS priority than the event loop.

    On Linux also in the ``SCHED_IDLE`` class: a nice-19 worker still holds its core
    until the scheduler takes it back, and a waking event loop is placed beside the
    load on the other core; a core running only ``SCHED_IDLE`` work counts as free
    when a task wakes, so the loop gets it at once."""
    with contextlib.suppress(AttributeError, OSError):  # no os.nice on Windows
        os.nice(WORKER_NICENESS)
    with contextlib.suppress(AttributeError, OSError):  # Linux only
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def exit_with_parent() -> None:
    """A worker's initializer: exit as soon as the server process that started it is gone.

    A pool's worker waits on a queue whose pipe it holds both ends of, so it never sees
    its server die; a server killed with SIGKILL (the failover test does it; so does the
    kernel's out-of-memory killer) left its workers, and with them the forkserver and
    the resource tracker that wait for the workers, running for good. Multiprocessing
    gives each child its parent's sentinel (a pipe the parent alone writes to, on every
    start method): a thread of the worker waits on it and ends the worker when it
    closes."""
    parent = multiprocessing.parent_process()
    if parent is None:  # not a multiprocessing child (a test calling this directly)
        return
    sentinel = parent.sentinel

    def watch() -> None:
        wait([sentinel])
        os._exit(0)  # nothing of a worker's needs flushing: its results went to the server

    threading.Thread(target=watch, name="potluck-parent-watch", daemon=True).start()


def die_with_parent() -> None:
    """Linux: the kernel kills this worker when the process that started it ends (the
    forkserver, which ends with the server). The parent watch cannot do that for a
    worker held stopped (``BotPool.pause``: an analysis worker while bots think)."""
    import signal

    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def start_worker() -> None:
    """The initializer of the pool's workers: a lower priority, and the parent watch."""
    lower_priority()
    exit_with_parent()
    if sys.platform.startswith("linux"):
        die_with_parent()


class BotPool:
    """Worker processes for search bots, started on first use.

    ``workers`` defaults to the machine's cores, at least 2: one client's searches
    may use only some of them (``potluck.server.thinking``), so another client's
    bot finds one free. The workers run at the lowest OS priority
    (``WORKER_NICENESS`` and ``SCHED_IDLE``), so the event loop wins a contended
    core at once. The
    workers end with ``shutdown`` (the app's shutdown calls it) or, if the server is
    killed, by themselves (``exit_with_parent``).
    """

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or max(2, os.cpu_count() or 2)
        self._pool: ProcessPoolExecutor | None = None
        #: Whether the workers are to be held stopped (``pause``), and those that are.
        self.paused = False
        self._stopped: set[int] = set()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            method = "forkserver" if "forkserver" in get_all_start_methods() else "spawn"
            context = get_context(method)
            if method == "forkserver":
                context.set_forkserver_preload(["potluck.agents", "potluck.search"])
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=start_worker
            )
        return self._pool

    def start(self) -> None:
        """Start the worker processes now (blocking until one answers), so that their
        imports are done before any table plays rather than at a hard bot's first move."""
        self._executor().submit(os.getpid).result()

    async def think(self, thought: Thought) -> str:
        """The move's text, chosen in a worker while the event loop serves other tables."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), think, thought)

    async def review(
        self,
        game_id: str,
        data: str | None,
        record: dict[str, Any],
        seat: int,
        spec: str,
        numbers: list[int] | None = None,
        seconds_per_move: float | None = None,
    ) -> list[dict[str, Any]]:
        """A seat's move analysis (``potluck.review``), computed in a worker."""
        loop = asyncio.get_running_loop()
        answer = loop.run_in_executor(
            self._executor(), review, game_id, data, record, seat, spec, numbers, seconds_per_move
        )
        self._hold()  # a worker this started while the pool is paused is stopped at once
        return await answer

    def pause(self, paused: bool) -> None:
        """Hold the workers stopped (``SIGSTOP``) or let them go on (``SIGCONT``), a task
        in progress included: play's strict priority over analyses (Unix only). Workers
        started while paused are stopped as they start (``review``)."""
        self.paused = paused
        self._hold()

    def _hold(self) -> None:
        if not hasattr(signal, "SIGSTOP") or self._pool is None:
            return
        for worker in list((self._pool._processes or {}).values()):
            pid = worker.pid
            if pid is None or (pid in self._stopped) == self.paused:
                continue
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGSTOP if self.paused else signal.SIGCONT)
            (self._stopped.add if self.paused else self._stopped.discard)(pid)

    def shutdown(self) -> None:
        """Stop the workers, a search in progress included: a worker left thinking when
        the server stopped was seen to outlive it."""
        self.pause(False)  # a stopped worker would not end on SIGTERM
        self._stopped.clear()
        if self._pool is not None:
            workers = list((self._pool._processes or {}).values())
            self._pool.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                if worker.is_alive():
                    worker.terminate()
            self._pool = None
