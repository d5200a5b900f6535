"""Move analyses of finished games, kept apart from play: their own worker, one move at a
time, a budget per client, progress while they run, and each result kept for good.

An analysis judges every move of one seat (``potluck.review``). It used to run in
the search bots' one worker as one long task: a FoodAdvice seat took 276 s, and
while two ran another table's hard bot did not move for over 170 s. Now:

- analyses run in a **pool of their own** (``analysis_workers``, one by default),
  so a bot's search never waits behind one;
- an analysis is **one task per move**, each bounded (``analysis_move_seconds``
  of CPU: the judge stops between two playouts), handed out fairly between clients
  (``potluck.server.thinking``), so two clients' analyses advance together
  and a stopping server waits for one move at most;
- its worker **stands still** (``SIGSTOP``) while bots search
  (``analysis_pause_at``): play comes first, and the judge's bound is CPU time,
  so a paused move loses nothing but time; but never for ever: held for
  ``analysis_most_held_seconds`` (30 s), it goes on beside the bots for
  ``analysis_move_seconds`` (2 s), then waits again, so an analysis finishes
  on a server where some bot is always thinking (it stood still there for good);
- each client has a **budget** of workers' CPU (``analysis_seconds_per_hour``):
  a new analysis is charged its bound (moves x seconds a move) at once and
  refunded what it did not use; past the budget, 429 with ``Retry-After``; and
  there are at most ``max_analyses`` waiting or running (503 ``analysis_busy``);
- the answer comes at once: 202 with ``done`` of ``total`` moves while it runs
  (the replay page shows that and asks again), 200 with every move once done;
- a finished analysis is **kept** in the database (``analyses``: the record of a
  finished game never changes), so it is never computed twice, by this
  process or another, before or after a restart.

    analyses = Analyses(engine, settings)
    status, body = await analyses.ask(table, seat, client, on_new=count_it)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from potluck.server import views
from potluck.server.botpool import BotPool
from potluck.server.db import AnalysisRow, now
from potluck.server.live import LiveTable, TableError
from potluck.server.settings import ServerSettings
from potluck.server.thinking import FairThinking

log = logging.getLogger("potluck.server")

#: What one move's task is given: game, data, record, seat, judge, its number, seconds.
MoveTask = tuple[str, str | None, dict[str, Any], int, str, int, float]


class Budget:
    """Seconds of workers' time a client may spend, refilled evenly over an hour.

    >>> clock = [0.0]
    >>> budget = Budget(600, lambda: clock[0])
    >>> budget.charge(500), budget.wait_for(200)  # 100 s left: 100 more take 600 s
    (500, 600.0)
    >>> clock[0] += 600; budget.wait_for(200)
    0.0
    """

    def __init__(self, per_hour: float, clock: Callable[[], float]) -> None:
        self.capacity = per_hour
        self.rate = per_hour / 3600
        self.clock = clock
        self.left = per_hour
        self.at = clock()

    def _refill(self) -> None:
        moment = self.clock()
        self.left = min(self.capacity, self.left + (moment - self.at) * self.rate)
        self.at = moment

    def wait_for(self, seconds: float) -> float:
        """Seconds until ``seconds`` (at most the whole budget) can be charged (0: now)."""
        self._refill()
        wanted = min(seconds, self.capacity)
        return 0.0 if self.left >= wanted else (wanted - self.left) / self.rate

    def charge(self, seconds: float) -> float:
        """Take ``seconds`` (at most the whole budget); what was taken."""
        self._refill()
        taken = min(seconds, self.capacity)
        self.left -= taken
        return taken

    def refund(self, seconds: float) -> None:
        self._refill()
        self.left = min(self.capacity, self.left + max(0.0, seconds))


@dataclass
class Job:
    """One seat's analysis, waiting, running or done."""

    table_id: str
    seat: int
    judge: str
    numbers: list[int]
    moves: list[dict[str, Any]] = field(default_factory=list)
    done: int = 0
    state: str = "queued"  # queued, running, done, failed
    task: asyncio.Task[None] | None = None

    def body(self) -> dict[str, Any]:
        """What the API answers about it."""
        from potluck.review import MoveReview, summarise  # the judge's side, loaded late

        return {
            "table": self.table_id,
            "seat": self.seat,
            "bot": self.judge,
            "status": self.state,
            "done": self.done,
            "total": len(self.numbers),
            "moves": sorted(self.moves, key=lambda move: int(move["number"])),
            # the seat's mean loss, points and share of the stakes lost, once every move
            # is judged (``potluck.review.summarise``)
            "summary": (
                summarise([MoveReview.from_json(move) for move in self.moves]).to_json()
                if self.state == "done"
                else None
            ),
        }


class Analyses:
    """The server's move analyses (see the module's docstring)."""

    def __init__(
        self,
        engine: Any,
        settings: ServerSettings,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.engine = engine
        self.settings = settings
        self.clock = clock
        self.pool = BotPool(settings.analysis_workers)
        self.fair: FairThinking[MoveTask, list[dict[str, Any]]] = FairThinking(
            self._judge, workers=self.pool.workers, per_client=1
        )
        self.jobs: dict[tuple[str, int, str], Job] = {}
        self.budgets: dict[str, Budget] = {}
        #: Bot searches running now (``bots_busy``), since when the workers are held
        #: stopped, and until when a held analysis goes on anyway (its slice).
        self.bots_searching = 0
        self.held_since: float | None = None
        self.slice_until = 0.0
        self.watch: asyncio.Task[None] | None = None

    def bots_busy(self, searching: int) -> None:
        """Told each time the number of bot searches running changes: play comes first."""
        self.bots_searching = searching
        self._hold()

    def _hold(self) -> None:
        moment = self.clock()
        held = self.bots_searching >= self.settings.analysis_pause_at
        held = held and moment >= self.slice_until
        if held and self.held_since is None:
            self.held_since = moment
        elif not held:
            self.held_since = None
        self.pool.pause(held)

    def _active(self) -> bool:
        return any(job.state in ("queued", "running") for job in self.jobs.values())

    async def _watch(self) -> None:
        """While analyses are under way: one held too long gets its slice."""
        most = self.settings.analysis_most_held_seconds
        while self._active():
            moment = self.clock()
            if self.held_since is not None and moment - self.held_since >= most:
                self.slice_until = moment + self.settings.analysis_move_seconds
            self._hold()
            await asyncio.sleep(0.25)

    @property
    def judge(self) -> str:
        """The judge's spec as answers name it (the results are kept under it)."""
        return self.settings.analysis_bot

    async def ask(
        self,
        table: LiveTable,
        seat: int,
        client: str,
        on_new: Callable[[], None] = lambda: None,
    ) -> tuple[int, dict[str, Any]]:
        """The seat's analysis as it stands, starting it if nobody has: 200 and every
        move once done, else 202 and its progress. ``on_new`` runs before a new one
        starts (the rate limit: it may refuse by raising ``TableError``)."""
        if not table.over:
            raise TableError(409, "not_over", "A game is analysed once it is over.")
        n = table.state.num_players
        if not 0 <= seat < n:
            raise TableError(404, "no_seat", f"This table has seats 0 to {n - 1}, not {seat}.")
        key = (table.id, seat, self.judge)
        job = self.jobs.get(key)
        if job is None or job.state == "failed":
            stored = await asyncio.to_thread(self._read, key)
            if stored is not None:
                job = Job(table.id, seat, self.judge, [int(m["number"]) for m in stored])
                job.moves, job.done, job.state = stored, len(stored), "done"
                self.jobs[key] = job
            else:
                job = self._start(table, seat, client, on_new)
        return (200 if job.state == "done" else 202), job.body()

    def _start(self, table: LiveTable, seat: int, client: str, on_new: Callable[[], None]) -> Job:
        active = sum(1 for job in self.jobs.values() if job.state in ("queued", "running"))
        if active >= self.settings.max_analyses:
            raise TableError(
                503,
                "analysis_busy",
                f"The server is analysing {active} games, its most: try again in a minute.",
                {"Retry-After": "60"},
            )
        record = views.record(table)
        numbers = [k for k, (who, _) in enumerate(record["actions"], 1) if int(who) == seat]
        bound = len(numbers) * self.settings.analysis_move_seconds
        budget = self.budgets.setdefault(
            client, Budget(self.settings.analysis_seconds_per_hour, self.clock)
        )
        wait = budget.wait_for(bound)
        if wait > 0:
            raise TableError(
                429,
                "analysis_budget",
                f"This analysis may take {bound:.0f} s of the server's time, more than is left "
                f"of yours this hour: try again in {wait:.0f} s.",
                {"Retry-After": str(int(wait) + 1)},
            )
        on_new()
        charged = budget.charge(bound)
        job = Job(table.id, seat, self.judge, numbers)
        self.jobs[(table.id, seat, self.judge)] = job
        game = table.game
        job.task = asyncio.create_task(
            self._run(job, client, (game.id, game.data_source, record), budget, charged)
        )
        if self.watch is None or self.watch.done():
            self.watch = asyncio.create_task(self._watch())
        return job

    async def _run(
        self,
        job: Job,
        client: str,
        game: tuple[str, str | None, dict[str, Any]],
        budget: Budget,
        charged: float,
    ) -> None:
        spent = 0.0
        try:
            for number in job.numbers:
                task: MoveTask = (
                    *game,
                    job.seat,
                    self.judge,
                    number,
                    self.settings.analysis_move_seconds,
                )
                job.state = "running"
                found = await self.fair.think(task, client)
                # the judge's own CPU seconds (a paused worker's waits cost the client none)
                spent += sum(float(move.get("seconds", 0.0)) for move in found)
                job.moves.extend(found)
                job.done += 1
            await asyncio.to_thread(self._store, job)
            job.state = "done"
        except asyncio.CancelledError:
            job.state = "failed"
            raise
        except Exception:
            log.exception("the analysis of table %s, seat %d failed", job.table_id, job.seat)
            job.state = "failed"
        finally:
            budget.refund(charged - spent)

    async def _judge(self, task: MoveTask) -> list[dict[str, Any]]:
        game_id, data, record, seat, judge, number, seconds = task
        return await self.pool.review(game_id, data, record, seat, judge, [number], seconds)

    def _read(self, key: tuple[str, int, str]) -> list[dict[str, Any]] | None:
        with self.engine.connect() as connection:
            moves = connection.scalar(
                select(AnalysisRow.moves).where(
                    AnalysisRow.table_id == key[0],
                    AnalysisRow.seat == key[1],
                    AnalysisRow.judge == key[2],
                )
            )
        return list(moves) if moves is not None else None

    def _store(self, job: Job) -> None:
        row = {
            "table_id": job.table_id,
            "seat": job.seat,
            "judge": job.judge,
            "moves": job.body()["moves"],
            "created_at": now(),
        }
        with contextlib.suppress(IntegrityError), self.engine.begin() as connection:
            connection.execute(insert(AnalysisRow), row)  # another process stored it first

    def start_workers(self) -> None:
        self.pool.start()

    async def close(self) -> None:
        """Stop every analysis (their workers too, a move in progress included)."""
        tasks = [job.task for job in self.jobs.values() if job.task and not job.task.done()]
        if self.watch is not None and not self.watch.done():
            tasks.append(self.watch)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.pool.shutdown()
