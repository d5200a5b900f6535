"""Moves stored in batches: one call, one transaction and one log flush for many tables.

With other server processes, every move is a checked insert in PostgreSQL
(``potluck.server.onetrip``). Stored one move per call, each move cost a hand-off
from the event loop to a database thread and back, a round trip, a transaction
and a commit: at 1,000 tables with ``--workers 2`` the database threads used
about a quarter of each server process's CPU, most of it in that per-call work
rather than in the insert (docs/web-figures.md). Here the event loop queues
a move and awaits it; at most ``WRITERS`` batches are on their way at once, and
whatever queued meanwhile goes in the next one: a single call of migration
0006's ``potluck_store_moves``, which stores each move as ``potluck_store_move``
does and answers, per move, whether it was stored. A quiet server sends each
move at once; a busy one sends the moves of many tables together. A player's
move never waits for a batch on its way: it goes at once, first in a batch of
its own with whatever else is queued.

A table's moves still go one at a time (each is awaited under the table's
lock), so a batch never holds two moves of one table from this process, and the
notices of one table's moves are queued in order, after each is stored.

    writer = MoveWriter(one_trip, CHANNEL)
    stored = await writer.store(row, expected, notice)  # on the event loop
    writer.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from potluck.server.live import TableError
from potluck.server.onetrip import OneTrip

log = logging.getLogger("potluck.server")

#: Batches on their way at once. Each waits for PostgreSQL's log flush (2 to 4 ms
#: here): two keep the log busy while the next batch gathers.
WRITERS = 2
#: More batches that may be on their way for a player's move (someone waits for its
#: answer): it goes at once, first in its batch, with whatever else is queued.
URGENT_WRITERS = 2
#: The most moves in one call.
MAX_BATCH = 100


@dataclass
class QueuedMove:
    """A move waiting for its batch: what ``OneTrip.store_moves`` takes, and its answer."""

    row: dict[str, Any]
    expected: tuple[int, str, str]
    notice: str | None
    answer: asyncio.Future[bool]


class MoveWriter:
    """Queues checked moves from the event loop and stores them in batches (see the module)."""

    def __init__(self, one_trip: OneTrip, channel: str, writers: int = WRITERS) -> None:
        self.one_trip = one_trip
        self.channel = channel
        self.writers = writers
        self._threads = ThreadPoolExecutor(
            writers + URGENT_WRITERS, thread_name_prefix="potluck-moves"
        )
        self._queue: list[QueuedMove] = []
        self._on_the_way = 0
        #: Calls made and moves they stored or refused (the docs' batch sizes).
        self.calls = 0
        self.moves = 0

    async def store(
        self,
        row: dict[str, Any],
        expected: tuple[int, str, str],
        notice: str | None,
        *,
        urgent: bool = False,
    ) -> bool:
        """Store ``row`` (an ``actions`` row) onto the table as ``expected`` (``cluster.known``);
        whether it was stored (``False``: the table moved on). ``notice`` is queued for the
        other processes once it is stored. ``urgent``: a player waits for it. A failed call
        raises ``TableError`` (503) for every move in it: nothing was stored."""
        loop = asyncio.get_running_loop()
        move = QueuedMove(row, expected, notice, loop.create_future())
        if urgent:
            self._queue.insert(0, move)
        else:
            self._queue.append(move)
        self._send_more(loop, urgent=urgent)
        return await move.answer

    def _send_more(self, loop: asyncio.AbstractEventLoop, *, urgent: bool = False) -> None:
        limit = self.writers + (URGENT_WRITERS if urgent else 0)
        while self._queue and self._on_the_way < limit:
            batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
            self._on_the_way += 1
            self._threads.submit(self._write_and_answer, loop, batch)

    def _write_and_answer(self, loop: asyncio.AbstractEventLoop, batch: list[QueuedMove]) -> None:
        """``_write`` on a writer thread, then its answers handed straight to the loop: one
        round of the loop to take them (``run_in_executor``'s future took three: its own
        future, then its callback, then the awaiting task)."""
        try:
            answers: list[bool | TableError] | BaseException = self._write(batch)
        except BaseException as failed:  # a bug: reported for every move of the batch
            answers = failed
        with contextlib.suppress(RuntimeError):  # the loop closed (shutting down)
            loop.call_soon_threadsafe(self._answer, loop, batch, answers)

    def _write(self, batch: list[QueuedMove]) -> list[bool | TableError]:
        """One call for ``batch`` (on a writer thread); each stored move's notice is queued.
        If the call fails, each move is tried alone: one bad move fails only itself."""
        try:
            answers: list[bool | TableError] = list(
                self.one_trip.store_moves([(m.row, m.expected) for m in batch])
            )
        except TableError as error:
            if len(batch) == 1:
                return [error]
            answers = []
            for move in batch:
                try:
                    answers.extend(self.one_trip.store_moves([(move.row, move.expected)]))
                except TableError as alone:
                    answers.append(alone)
        for move, answer in zip(batch, answers, strict=True):
            if answer is True and move.notice is not None:
                self.one_trip.notices(self.channel).add(move.notice)
        return answers

    def _answer(
        self,
        loop: asyncio.AbstractEventLoop,
        batch: list[QueuedMove],
        answers: list[bool | TableError] | BaseException,
    ) -> None:
        """Each move's answer (on the loop), and the next batch on its way."""
        self._on_the_way -= 1
        self.calls += 1
        self.moves += len(batch)
        if isinstance(answers, BaseException):
            log.error("a batch of moves failed", exc_info=answers)
        for index, move in enumerate(batch):
            _settle(move.answer, answers if isinstance(answers, BaseException) else answers[index])
        self._send_more(loop)

    def close(self) -> None:
        """Stop the writer threads (after the batches on their way)."""
        self._threads.shutdown(wait=True)


def _settle(answer: asyncio.Future[bool], found: bool | TableError | BaseException) -> None:
    """Give ``answer`` what the call found (unless its awaiting task was cancelled)."""
    if answer.done():
        return
    if isinstance(found, bool):
        answer.set_result(found)
    elif isinstance(found, TableError):
        answer.set_exception(found)
    else:  # the writer itself failed (a bug): nothing of the batch is known stored
        answer.set_exception(TableError(503, "storage_failed", "The server could not store this."))
