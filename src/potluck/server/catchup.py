"""Several server processes over one database: catching a table up from the stored
log when another process changed it, lazily for the tables this process neither
runs nor shows, and adopting the tables whose owner died (``potluck.server.cluster``
is the PostgreSQL side: locks, LISTEN/NOTIFY, claims).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from potluck.server.cluster import Move
from potluck.server.db import ActionRow, SeatRow, TableRow
from potluck.server.live import ACTIVE, LiveTable, Seat, TableError
from potluck.server.store import TableStore

log = logging.getLogger("potluck.server")


class CatchingUp(TableStore):
    """The part of ``TableService`` that follows the other processes' changes."""

    _syncs: dict[str, asyncio.Task[None]]
    #: The notices of a table that came while its catch-up ran (the moves they carried,
    #: ``None`` for none): its next round follows them.
    _pending: dict[str, list[Move | None]]
    #: The tables this process runs that were behind the log at the last ``check_owned``,
    #: with the log's length then.
    _behind: dict[str, int]

    @contextlib.asynccontextmanager
    async def locked(self, table: LiveTable) -> AsyncIterator[None]:
        """The table's lock; with other processes, its copy is caught up first."""
        async with table.lock:
            if self.clustered:
                await self._sync(table)
            yield

    async def created(self, table_id: str) -> None:
        """A table was made here: own it and tell the other processes."""
        if self.cluster is not None:
            await self.cluster.claim([table_id])
            await self.cluster.notify(table_id)

    async def fresh(self, table_id: str) -> LiveTable:
        """The table (``get``), caught up first if another process changed it since."""
        table = self.get(table_id)
        if table.stale:
            async with table.lock:
                if table.stale:
                    await self._sync(table)
        return table

    def changed_elsewhere(self, table_id: str, move: Move | None = None) -> None:
        """Another process changed ``table_id``: catch up (one catch-up at a time).

        Lazily for a table this process neither runs nor has a WebSocket of: it is
        only marked ``stale`` and caught up when a request, a WebSocket or a claim
        next needs it (``fresh``, ``locked``, ``adopt``). Each process would otherwise
        read and replay every move of every table of the cluster. ``move``: the
        change was that one action (``Cluster.notify``), applied without reading the
        log when this copy is just before it.
        """
        table = self.tables.get(table_id)
        if (
            table is not None
            and not table.watchers
            and not (self.cluster is not None and self.cluster.owns(table_id))
        ):
            table.stale = True
            return
        running = self._syncs.get(table_id)
        if running is not None and not running.done():
            # its next round takes this notice (a batch of notices is read before the
            # catch-up of the first starts: each is kept, in order, none is dropped)
            self._pending.setdefault(table_id, []).append(move)
            return
        self._syncs[table_id] = asyncio.create_task(self._catch_up(table_id, move))

    def ended_elsewhere(self, table_id: str, status: str) -> None:
        """The database says ``table_id`` ended (``over``, ``expired``, ``broken``) while
        this copy, not caught up since, still counts it as open or running: it takes the
        status now (the lobby, the claim round) and its moves when next needed."""
        table = self.tables.get(table_id)
        if table is not None and table.status in ACTIVE and status not in ACTIVE:
            table.status, table.deadline, table.stale = status, None, True

    async def _catch_up(self, table_id: str, move: Move | None = None) -> None:
        """Follow ``table_id``'s notices, in rounds: the first one's, then those that came
        during a round (``_pending``), until none is left."""
        notices: list[Move | None] = [move]
        try:
            while notices:
                table = self.tables.get(table_id)
                if table is None:  # made on another process: read it off the loop
                    self._pending.pop(table_id, None)  # the read covers every notice so far
                    loop = asyncio.get_running_loop()
                    stored = await loop.run_in_executor(None, self.read_table, table_id)
                    if stored is None:
                        return
                    # restored on the loop, and only if a request did not load it meanwhile
                    # (a second copy would leave that request's watchers on a dead one)
                    if table_id not in self.tables:
                        self._restore(*stored)
                        notices = []
                    table = self.tables.get(table_id)
                    if table is None:  # it does not replay: marked broken
                        return
                if notices:
                    async with table.lock:
                        await self._follow(table, notices)
                await self.push(table)
                self.let_go_if_ended(table)  # it may have ended on another process
                await self.wake_bots(table)
                notices = self._pending.pop(table_id, [])
        except Exception:
            log.exception("table %s: could not catch up with the other servers", table_id)
        finally:
            self._syncs.pop(table_id, None)

    async def _follow(self, table: LiveTable, notices: list[Move | None]) -> None:
        """Apply the moves ``notices`` carried, in order (under the table's lock); read
        the log instead from the first notice that carried none or that does not follow
        on from this copy (a notice missed)."""
        for move in notices:
            if move is not None and self._apply_noticed(table, move):
                continue
            self._pending.pop(table.id, None)  # the read covers every notice so far
            await self._sync(table)
            return

    def _apply_noticed(self, table: LiveTable, move: Move) -> bool:
        """Apply the one action a notice carried (under the table's lock), if this copy
        is exactly one action behind it; whether this copy has it now (if not: read the
        log). A copy that already has it (read with an earlier notice) is left as it is."""
        number, seat, text = move
        if table.stale or len(table.state.history) < number:
            return False
        if len(table.state.history) > number:
            return True
        before = table.state
        table.state = before.clone()  # a new state object, as ``_sync`` makes
        try:
            table.play_log([(seat, text)])
        except Exception:  # the log is the truth: read it
            table.state = before
            return False
        table.notified = number + 1  # the other processes had the same notice
        if table.game.is_over(table.state):
            table.status, table.deadline = "over", None
        table.last_active = self.clock()
        if table.status in ACTIVE:
            self._reset_deadline(table)
        return True

    async def check_owned(self) -> None:
        """Catch up the tables this process runs whose copy is still behind the log
        length seen at the previous check: a notice lost must not leave their bots
        waiting for a move they never heard of (one query for all of them; called every
        few seconds). A copy behind only now has its notice on the way: not read twice."""
        if self.cluster is None or not self.cluster.owned:
            self._behind = {}
            return
        ids = [table_id for table_id in self.cluster.owned if table_id in self.tables]
        loop = asyncio.get_running_loop()
        stored = await loop.run_in_executor(self.database_thread, self._stored_lengths, ids)
        behind, self._behind = self._behind, {}
        for table_id, count in stored.items():
            table = self.tables.get(table_id)
            if table is None:
                continue
            known = len(table.state.history)
            if known < behind.get(table_id, 0):
                log.warning(
                    "table %s: this process runs it, and its copy was %d actions behind the "
                    "log for a whole check (a notice lost, or this process that far behind its "
                    "notices); caught up",
                    table_id,
                    behind[table_id] - known,
                )
                self.changed_elsewhere(table_id)
            elif known < count:
                self._behind[table_id] = count

    def _stored_lengths(self, table_ids: list[str]) -> dict[str, int]:
        """How many actions the log holds for each of ``table_ids`` that has any."""
        with Session(self.engine) as session:
            rows = session.execute(  # the last number + 1: the index finds it, no counting
                select(ActionRow.table_id, func.max(ActionRow.number))
                .where(ActionRow.table_id.in_(table_ids))
                .group_by(ActionRow.table_id)
            )
            return {str(table_id): int(last) + 1 for table_id, last in rows}

    async def adopt(self, table_id: str) -> None:
        """This process now owns ``table_id`` (made here, or its owner died): run it."""
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            await self._sync(table)
            table.last_active = self.clock()
            self._reset_deadline(table)
        if table.status not in ACTIVE:  # it ended elsewhere since this copy last caught up
            if self.cluster is not None:
                await self.cluster.release(table_id)
            return
        log.warning(
            "table %s: %s runs it from now on (%d actions)",
            table_id,
            self.cluster.name if self.cluster is not None else "this process",
            len(table.state.history),
        )
        await self.push(table)
        await self.wake_bots(table)

    async def _sync(self, table: LiveTable) -> None:
        """Bring ``table`` up to the stored log and seats (under its lock)."""
        loop = asyncio.get_running_loop()
        table.stale = False  # a notice during the read marks it again
        since = len(table.state.history)
        row, seats, actions = await loop.run_in_executor(
            self.database_thread, self._read_since, table.id, since
        )
        game = table.game
        if actions:
            # a new state object (views and bots' thoughts keep the one they were given),
            # then the other processes' moves played onto it in one pass
            table.state = table.state.clone()
            try:
                table.play_log(actions)
            except Exception as error:  # the stored log is the truth: it should always replay
                log.error("table %s: the stored log does not replay: %s", table.id, error)
        state = table.state
        table.notified = len(state.history)  # what the log's writers told everyone of
        table.seats = seats
        table.status = "over" if game.is_over(state) else row["status"]
        table.problem = row["problem"]
        table.changes = row["changes"]
        if actions:
            table.last_active = self.clock()
        if table.status not in ACTIVE:
            table.deadline = None
        elif actions:
            self._reset_deadline(table)

    def _read_since(
        self, table_id: str, since: int
    ) -> tuple[dict[str, Any], list[Seat], list[tuple[int, str]]]:
        """The table's status (and problem, and count of changes), its seats and its
        actions from number ``since`` on (on the database thread; on PostgreSQL in one
        round trip)."""
        if self.one_trip is not None:
            return self.one_trip.read_since(table_id, since)
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id)
            if row is None:
                raise TableError(404, "no_table", f"There is no table {table_id!r}.")
            seats = [
                Seat(
                    s.seat,
                    s.kind,
                    s.bot,
                    s.name,
                    s.token_hash,
                    s.taken_over,
                    s.invite_hash,
                    s.account_id,
                )
                for s in session.scalars(
                    select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
                )
            ]
            actions = [
                (a.seat, a.text)
                for a in session.execute(
                    select(ActionRow.seat, ActionRow.text)
                    .where(ActionRow.table_id == table_id, ActionRow.number >= since)
                    .order_by(ActionRow.number)
                )
            ]
            return (
                {"status": row.status, "problem": row.problem, "changes": row.changes},
                seats,
                actions,
            )
