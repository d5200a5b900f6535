"""Live tables: the authoritative games the server runs, with their seats, bots and log.

``TableService`` holds the tables in memory (each game state rebuilt by
replaying the stored log at start) and is the only thing that changes them:

- every change is **written to the database first** and made in memory only
  once the write succeeded, so a failed write leaves the table as it was;
- ``act`` takes a move only if it names the seat's next decision (a move sent
  twice is taken once), checks it against ``to_act``/``legal_actions`` under
  the table's lock, stores it, applies it and then tells the watchers;
- bots (bot seats, and human seats taken over after a time-out, a leave or a
  kick) move by themselves, ``bot_delay`` seconds apart;
- ``sweep`` runs the turn timers and expires idle tables.

New tables are made in ``potluck.server.creating``; seats, invitations and the
creator's powers are in ``potluck.server.seating``; following the other server
processes in ``potluck.server.catchup``; storage and restoring in
``potluck.server.store``; what a seat is sent is built by ``potluck.server.views``.
It knows nothing of HTTP; ``potluck.server.app`` maps its ``TableError``s to responses.

    >>> from potluck.server.db import make_engine, migrate
    >>> engine = make_engine("sqlite://"); migrate(engine)
    >>> service = TableService(engine)
    >>> seats = ["human", "greedy", "greedy", "greedy"]
    >>> created = service.create_table("cafe-carnage", 4, {}, seats)
    >>> created.table.status
    'open'
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import insert, update
from sqlalchemy.engine import Connection

from potluck.agents import decide, is_search_bot, make_agent
from potluck.engine.action import Action
from potluck.engine.bots import Bot
from potluck.engine.errors import IllegalActionError, InvalidActionError, NotYourTurnError
from potluck.engine.registry import load_game
from potluck.server import views
from potluck.server.analyses import Analyses
from potluck.server.botpool import BotPool, Thought
from potluck.server.catchup import CatchingUp
from potluck.server.cluster import CHANNEL, Cluster, Move, StaleTableError, known, store_move
from potluck.server.db import ActionRow, TableRow, now
from potluck.server.lane import SlowLane
from potluck.server.live import ACTIVE, LiveTable, TableError, Watcher
from potluck.server.membership import Membership
from potluck.server.movewriter import MoveWriter
from potluck.server.onetrip import OneTrip
from potluck.server.settings import ServerSettings
from potluck.server.store import MOVE_ATTEMPTS
from potluck.server.thinking import FairThinking

log = logging.getLogger("potluck.server")

INSERT_ACTION = insert(ActionRow)
#: Threads storing moves on a database server: each commit waits for PostgreSQL's log
#: flush (about 2 to 4 ms here), so one thread stored at most a few hundred moves a
#: second; several commit at once and share a flush. A table's moves still go one at a
#: time (each is stored under the table's lock). These store the bots' moves of one
#: process alone (with others, ``potluck.server.movewriter`` stores them in batches) and
#: do the other database work (catch-ups, seat changes).
DATABASE_THREADS = 8
#: Threads of their own for players' moves: a player waits for the answer, a bot's move
#: does not keep anyone waiting (it comes after a delay anyway). Sharing the threads, a
#: player's move queued behind the bots' moves of every table: at 1,000 tables with
#: ``--workers 2`` it waited 0.12 to 0.32 s (p50) for a thread, and a move's round trip
#: had p99 3.96 s; with these, 0.01 s and 1.30 s (docs/web-figures.md).
PLAYER_DATABASE_THREADS = 4
#: Every this many sweeps (seconds), rated tables that ended without their ratings (a
#: process died in between) get them.
RATING_SWEEPS = 30

__all__ = ["LiveTable", "TableError", "TableService", "Watcher"]


def _report_failure(task: asyncio.Task[None]) -> None:
    """Log a bot task that died of an error (the sweep wakes its table's bots again)."""
    if not task.cancelled() and task.exception() is not None:
        log.error("a table's bots stopped", exc_info=task.exception())


class TableService(Membership, CatchingUp):
    """Creates, joins, runs and restores tables; the server's only writer.

    ``bot_delay`` is the pause before each bot move (0 in tests: bots then move
    before the request that woke them returns). ``clock`` gives seconds for the
    turn timer and idle expiry (``time.monotonic``; tests pass their own).
    """

    def __init__(
        self,
        engine: Any,
        *,
        bot_delay: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
        settings: ServerSettings | None = None,
        cluster: bool = False,
    ) -> None:
        """``cluster``: other server processes share this (PostgreSQL) database."""
        if cluster and engine.dialect.name != "postgresql":
            raise ValueError(
                "several server processes need PostgreSQL: SQLite is one process's database"
            )
        self.engine = engine
        self.bot_delay = bot_delay
        self.clock = clock
        self.settings = settings or ServerSettings()
        self.tables: dict[str, LiveTable] = {}
        self.bot_pool = BotPool(self.settings.bot_workers)
        #: Who thinks next: each client's tables in turn, a few searches each at most.
        self.thinking = FairThinking(
            self.bot_pool.think,
            workers=self.bot_pool.workers,
            per_client=self.settings.bot_thinking_per_client,
            # play first: move analyses stand still while bots think
            on_busy=lambda searching: self.analyses.bots_busy(searching),
        )
        #: A database server's moves are stored from threads of their own (a table's in
        #: order), so the event loop serves other tables during the round trip. SQLite's commit
        #: (WAL, no fsync per move) takes less than handing the work to a thread costs.
        self.database_thread = (
            None
            if engine.dialect.name == "sqlite"
            else ThreadPoolExecutor(DATABASE_THREADS, thread_name_prefix="potluck-db")
        )
        self.player_database_thread = (
            None
            if self.database_thread is None
            else ThreadPoolExecutor(PLAYER_DATABASE_THREADS, thread_name_prefix="potluck-db-player")
        )
        #: The database threads' own connections to PostgreSQL: a move in one round trip.
        self.one_trip = (
            OneTrip(engine.url)
            if engine.dialect.name == "postgresql" and engine.dialect.driver == "psycopg"
            else None
        )
        #: The bots' turns after their pause, a few per round of the event loop: bots woken
        #: together must not make a round long enough to hold up a player's move.
        self.lane = SlowLane()
        #: With other processes, checked moves go in batches (one call for many tables).
        self.move_writer = (
            MoveWriter(self.one_trip, CHANNEL) if self.one_trip is not None and cluster else None
        )
        #: Move analyses of finished games: their own workers, a budget per client.
        self.analyses = Analyses(engine, self.settings, clock)
        if self.settings.hard_bot:  # a bad spec fails now
            make_agent(load_game("cafe-carnage"), self.settings.hard_bot)
        self.cluster = Cluster(engine.url, self) if cluster else None
        self.clustered = cluster
        self._syncs: dict[str, asyncio.Task[None]] = {}
        #: Ratings being applied (``Membership.rate``), on a thread of their own.
        self._rating_tasks: set[asyncio.Task[Any]] = set()
        self.rating_thread = ThreadPoolExecutor(1, thread_name_prefix="potluck-ratings")
        self._sweeps = 0
        self._pending: dict[str, list[Move | None]] = {}
        self._behind: dict[str, int] = {}

    # ------------------------------------------------------------------ playing

    async def act(self, table_id: str, seat: int, text: str, decision: int) -> None:
        """Apply ``seat``'s action ``text`` as its decision number ``decision``.

        Checked, stored, applied, then broadcast. A decision already answered (a
        move sent twice) is refused with 409 ``already_answered``; refused input
        raises ``TableError`` with the engine's reason and changes nothing.
        """
        table = self.get(table_id)
        async with table.lock:
            if table.stale:
                await self._sync(table)
            for attempt in range(1, MOVE_ATTEMPTS + 1):
                try:
                    await self._act(table, seat, text, decision)
                    break
                except TableError as error:
                    # another process may have moved the table on: the stored log is the
                    # truth. Caught up, the move is checked again; again if the table
                    # moved on once more meanwhile (its bots, on the process that runs it)
                    stale = isinstance(error, StaleTableError)
                    if not self.clustered or error.status != 409 or attempt == MOVE_ATTEMPTS:
                        raise
                    if attempt > 1 and not stale:
                        raise
                    await self._sync(table)
        await self.broadcast(table, told=True)  # the move's notice went with it
        await self.wake_bots(table)

    async def _act(self, table: LiveTable, seat: int, text: str, decision: int) -> None:
        """``act``'s checks and commit, under the table's lock."""
        self._check_playing(table)
        place = table.seats[seat]
        if place.played_by_bot:
            why = {"timeout": "ran out of time", "left": "left", "kicked": "were replaced"}
            raise TableError(
                409,
                "taken_over",
                f"The {place.bot} bot is playing seat {seat} since you "
                f"{why.get(place.taken_over or '', 'left')}; take your seat back first.",
            )
        expected = table.decisions[seat]
        if decision < expected:
            raise TableError(
                409,
                "already_answered",
                f"Decision {decision} of seat {seat} is already answered (a move sent "
                f"twice is taken once); the seat's next decision is {expected}.",
            )
        if decision > expected:
            raise TableError(
                409,
                "unknown_decision",
                f"Seat {seat} faces decision {expected}, not {decision}: reload the table.",
            )
        try:
            action = table.game.parse_action(table.state, seat, text)
            await self._commit(table, seat, action, by_bot=False)
        except NotYourTurnError as error:
            raise TableError(409, "not_your_turn", error.reason) from None
        except IllegalActionError as error:
            raise TableError(409, "illegal_action", error.reason) from None
        except InvalidActionError as error:
            raise TableError(400, "invalid_action", str(error)) from None

    def _check_playing(self, table: LiveTable) -> None:
        if table.status == "open":
            free = ", ".join(str(s.seat) for s in table.seats if s.free)
            raise TableError(
                409, "not_started", f"The game starts when every seat is taken; free: {free}."
            )
        if table.status == "broken":
            raise TableError(409, "broken", f"This table cannot go on: {table.problem}")
        if table.status == "expired":
            raise TableError(409, "expired", "This table expired: nothing happened for too long.")
        if table.status == "closed":
            raise TableError(409, "table_closed", "Its creator closed this table.")
        if table.over:
            raise TableError(409, "game_over", "The game is over.")

    async def _commit(self, table: LiveTable, seat: int, action: Action, *, by_bot: bool) -> None:
        """Store the action, then apply it: the log is never behind what anyone saw.

        Runs under the table's lock. ``game.apply`` checks the action (raising the
        engine's errors) on a copy, so a refused action or a failed write changes
        nothing. On a database server the write runs on the database thread, so the
        event loop serves the other tables while it waits for the answer.
        """
        game, before = table.game, table.state
        after = game.apply(before, seat, action)
        row = {
            "table_id": table.id,
            "number": len(before.history),
            "seat": seat,
            "text": str(action),
            "by_bot": by_bot,
            "created_at": now(),
        }
        ending = None
        if game.is_over(after):
            ending = {
                "status": "over",
                "finished_at": now(),
                "outcome": game.outcome(after).to_json(),
            }
        expected = known(table) if self.clustered else None
        # the other processes' notice goes with the move's transaction (see ``broadcast``)
        notice = (
            None
            if self.cluster is None
            else self.cluster.payload(table.id, (len(before.history), seat, str(action)))
        )
        threads = self.database_thread if by_bot else self.player_database_thread
        if self.move_writer is not None and expected is not None and ending is None:
            if not await self.move_writer.store(row, expected, notice, urgent=not by_bot):
                raise StaleTableError()
        elif threads is None:
            self._store_action(table.id, row, ending, expected, notice)
        else:
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(
                threads, self._store_action, table.id, row, ending, expected, notice
            )
        if notice is not None:
            table.notified = len(after.history)
        still_choosing = set(game.to_act(before)) - {seat}
        table.note_move(before, seat, action)
        table.state = after
        table.decisions[seat] += 1
        table.last_active = self.clock()
        if game.is_over(after):
            table.status = "over"
            table.deadline = None
            self.rate_soon(table)
        elif set(game.to_act(after)) - still_choosing:
            # a new decision, the mover's next one included: the timer starts again (a
            # sealed choice keeps its timer while its other seats are still choosing)
            self._reset_deadline(table)

    def _store_action(
        self,
        table_id: str,
        row: dict[str, Any],
        ending: dict[str, Any] | None,
        expected: tuple[int, str, str] | None,
        notice: str | None = None,
    ) -> None:
        """One move's transaction (on the database thread): its row, and the table's end.

        ``expected``: with other processes, the table as this process knows it; the move
        is stored only onto that (``cluster.store_move``: one writer per table at a time),
        and with its ``notice`` to the other processes, sent when it commits.
        """
        if self.one_trip is not None and ending is None:  # PostgreSQL: one round trip
            stored = self.one_trip.store_move(row, expected, notice, CHANNEL)
            if not stored:
                raise StaleTableError()
            return
        # SQLAlchemy Core with prepared statements, not the ORM: this is the hot path
        with self.write() as connection:
            if expected is not None:
                store_move(connection, row, expected, notice)
            else:
                connection.execute(INSERT_ACTION, row)
            if ending is not None:
                connection.execute(update(TableRow).where(TableRow.id == table_id).values(**ending))

    # ------------------------------------------------------------------ bots and the timer

    def _bot_for(self, table: LiveTable, seat: int) -> Bot | None:
        name = table.seats[seat].played_by_bot
        if name is None:
            return None
        bot = table.bots.get(seat)
        spec = self.bot_spec(table, seat, name)
        if bot is None or getattr(bot, "spec", bot.name) != spec:
            bot = table.bots[seat] = make_agent(table.game, spec)
        return bot

    async def _bot_move(self, table: LiveTable) -> bool | Thought:
        """One bot move if a bot is to act (under the lock); whether one was made.

        A search bot's move is not made here: the :class:`Thought` it needs is
        returned, for a worker process to think while the event loop goes on.
        """
        if table.status != "running" or table.over:
            return False
        for seat in table.game.to_act(table.state):
            bot = self._bot_for(table, seat)
            if bot is None:
                continue
            game, state = table.game, table.state
            if is_search_bot(bot):
                return Thought(
                    game.id,
                    game.data_source,
                    game.to_json(state),
                    seat,
                    getattr(bot, "spec", bot.name),
                    table.bot_rng.randrange(2**63),
                    len(state.history),
                )
            view = game.view(state, seat) if bot.needs_view else None
            action = bot.choose(game, view, seat, game.legal_actions(state, seat), table.bot_rng)
            await self._commit(table, seat, action, by_bot=True)
            return True
        return False

    async def _commit_thought(self, table: LiveTable, thought: Thought, text: str) -> bool:
        """Make a worker's move (under the lock) unless the table moved on meanwhile."""
        state = table.state
        if (
            table.status != "running"
            or table.over
            or len(state.history) != thought.step
            or thought.seat not in table.game.to_act(state)
            or table.seats[thought.seat].played_by_bot is None
        ):
            return False
        action = table.game.parse_action(state, thought.seat, text)
        await self._commit(table, thought.seat, action, by_bot=True)
        return True

    async def run_bots(self, table: LiveTable) -> None:
        """Let the bots move until a human must act (each after ``bot_delay`` seconds).

        Search bots think in the bot pool's worker processes, outside the table's
        lock, so other tables (and this table's humans) are served meanwhile.
        """
        while True:
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
                await self.lane.turn()  # bots woken together move a few per round
            async with table.lock:
                try:
                    moved = await self._bot_move(table)
                except StaleTableError:
                    await self._sync(table)
                    continue
                except TableError as error:  # the database failed: the next wake tries again
                    log.warning("table %s: a bot move was not stored: %s", table.id, error)
                    return
            if isinstance(moved, Thought):
                try:
                    text = await self.thinking.think(moved, table.creator or table.id)
                except Exception:  # a broken worker must not stop the table for good
                    log.exception("table %s: the search bot failed; moving at random", table.id)
                    text = None
                async with table.lock:
                    try:
                        if text is None:
                            stand_in = make_agent(table.game, "random")
                            game, state = table.game, table.state
                            text = str(decide(stand_in, game, state, moved.seat, table.bot_rng))
                        if not await self._commit_thought(table, moved, text):
                            continue  # the table moved on: think again from where it is
                    except StaleTableError:
                        await self._sync(table)
                        continue
                    except TableError as error:
                        log.warning("table %s: a bot move was not stored: %s", table.id, error)
                        return
                await self.broadcast(table, told=True)
                continue
            if not moved:
                return
            await self.broadcast(table, told=True)

    async def wake_bots(self, table: LiveTable) -> bool:
        """Start the bots if one is to act: inline without a delay, else in the background
        (whether this call started them)."""
        if (
            table.status != "running"
            or table.stale  # a copy known to be behind (its claim's catch-up is on the way)
            or (self.cluster is not None and not self.cluster.owns(table.id))
            or not any(table.seats[seat].played_by_bot for seat in table.game.to_act(table.state))
        ):
            return False
        if not self.bot_delay:
            await self.run_bots(table)
            return True
        if table.bot_task is None or table.bot_task.done():
            table.bot_task = asyncio.create_task(self.run_bots(table))
            table.bot_task.add_done_callback(_report_failure)
            return True
        return False

    def _reset_deadline(self, table: LiveTable) -> None:
        table.deadline = None
        if table.turn_seconds and table.status == "running":
            humans = [s for s in table.game.to_act(table.state) if not table.seats[s].played_by_bot]
            if humans:
                table.deadline = self.clock() + table.turn_seconds

    async def sweep(self) -> None:
        """Hand every human seat whose turn timer ran out to a bot, expire idle tables,
        and wake the bots of a table where one is to act and none is running (a
        notice lost or a catch-up failed: nothing else would wake them). Called every
        second."""
        moment = self.clock()
        self._sweeps += 1
        if self._sweeps % RATING_SWEEPS == 0:
            await self.rate_due()
        for table in list(self.tables.values()):
            if self.cluster is not None and not self.cluster.owns(table.id):
                continue  # its owner runs its timers
            if table.status in ACTIVE and moment - table.last_active > self.settings.idle_seconds:
                await self.expire(table)
                continue
            if (
                self.bot_delay
                and table.status == "running"
                and (table.bot_task is None or table.bot_task.done())
                and await self.wake_bots(table)
                and moment - table.last_active > 2 + 2 * self.bot_delay
            ):
                log.warning(
                    "table %s: a bot was to act and none ran for %.1f s (the sweep woke it;"
                    " %s, %d actions, notified %d, stale %s, %d watchers)",
                    table.id,
                    moment - table.last_active,
                    self.cluster.name if self.cluster is not None else "one process",
                    len(table.state.history),
                    table.notified,
                    table.stale,
                    len(table.watchers),
                )
            if table.deadline is None or moment < table.deadline:
                continue
            async with table.lock:
                if table.deadline is None or self.clock() < table.deadline or table.over:
                    continue
                late = [
                    s for s in table.game.to_act(table.state) if not table.seats[s].played_by_bot
                ]
                try:
                    for seat in late:
                        await self._take_over(table, seat, "timeout")
                except StaleTableError:  # changed on another process: the next sweep looks again
                    await self._sync(table)
                    continue
                table.deadline = None
            await self.broadcast(table)
            await self.wake_bots(table)

    async def expire(self, table: LiveTable) -> None:
        """Close an idle table: it stops, its stored record stays (``GET .../record``)."""
        async with table.lock:
            if table.status not in ACTIVE:
                return

            def change(connection: Connection) -> None:
                connection.execute(
                    update(TableRow)
                    .where(TableRow.id == table.id)
                    .values(status="expired", finished_at=now())
                )

            try:
                await self._store(table, change)
            except StaleTableError:  # changed on another process: the next sweep looks again
                await self._sync(table)
                return
            table.status, table.deadline = "expired", None
            if table.bot_task is not None and table.bot_task is not asyncio.current_task():
                table.bot_task.cancel()
        await self.broadcast(table)

    # ------------------------------------------------------------------ what a seat is sent

    def payload(self, table: LiveTable, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) is sent (see ``potluck.server.views``),
        with a finished table's rematch offer (``Membership.rematch_info``)."""
        body = views.payload(table, seat, self.clock())
        if table.rematch is not None:
            body["rematch"] = self.rematch_info(table, seat)
        return body

    def explain(self, table_id: str, seat: int, text: str) -> str | None:
        """Why ``seat`` may not take ``text`` now, or ``None`` if it may."""
        table = self.get(table_id)
        try:
            return table.game.explain(table.state, seat, text)
        except InvalidActionError as error:
            raise TableError(400, "invalid_action", str(error)) from None

    async def broadcast(self, table: LiveTable, *, told: bool = False) -> None:
        """Send every watcher the payload for its seat, and tell the other processes
        (``told``: a move's, whose notice went with its transaction)."""
        await self.push(table)
        if self.cluster is not None:
            history = table.state.history
            if not told:
                move = None
                if len(history) == table.notified + 1:  # one move: the notice carries it
                    seat, action = history[-1]
                    move = (len(history) - 1, seat, str(action))
                table.notified = len(history)
                await self.cluster.notify(table.id, move)
        self.let_go_if_ended(table)

    async def push(self, table: LiveTable) -> None:
        """Send this process's watchers the payload for their seat; drop those gone."""
        cache: dict[int | None, dict[str, Any]] = {}
        for watcher in list(table.watchers):
            if watcher.seat not in cache:
                cache[watcher.seat] = self.payload(table, watcher.seat)
            try:
                await watcher.send(cache[watcher.seat])
            except Exception:  # a closed socket: its handler removes it too
                with contextlib.suppress(ValueError):
                    table.watchers.remove(watcher)

    def record(self, table_id: str) -> dict[str, Any]:
        """The finished or expired game's record (seed + options + actions, and the outcome)."""
        return views.record(self.get(table_id))

    def replay_view(
        self, table_id: str, step: int, seat: int | None, *, everyone: bool
    ) -> dict[str, Any]:
        """The finished game after its first ``step`` actions, as ``seat`` saw it."""
        return views.replay_view(self.get(table_id), step, seat, everyone=everyone)

    # ------------------------------------------------------------------ restart

    async def resume_bots(self) -> None:
        """After a restart, let the bots that were to move make their moves."""
        for table in list(self.tables.values()):
            await self.wake_bots(table)

    async def close(self) -> None:
        """Stop the bots' background tasks and the bot pool's workers."""
        if self.cluster is not None:
            await self.cluster.stop()
            for task in self._syncs.values():
                task.cancel()
        for table in self.tables.values():
            if table.bot_task is not None and not table.bot_task.done():
                table.bot_task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await table.bot_task
        self.bot_pool.shutdown()
        await self.analyses.close()
        for task in list(self._rating_tasks):
            with contextlib.suppress(Exception):
                await task
        self.rating_thread.shutdown(wait=False)
        if self.move_writer is not None:
            await asyncio.get_running_loop().run_in_executor(None, self.move_writer.close)
        if self.one_trip is not None and self.database_thread is not None:
            await asyncio.get_running_loop().run_in_executor(
                self.database_thread, self.one_trip.close
            )
        if self.player_database_thread is not None:
            # its moves are done: each was awaited under its table's lock
            self.player_database_thread.shutdown(wait=False)
