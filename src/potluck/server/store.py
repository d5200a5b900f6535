"""What every part of ``TableService`` stands on: the tables in memory and how one is
found, how a change is written (one transaction, off the event loop on a database
server, under the table's move lock with other processes), and rebuilding every
table from the database at start.

Every change is written to the database before it is made in memory. The parts
built on ``TableStore``: ``potluck.server.creating`` (new tables),
``potluck.server.seating`` (joins, invitations, kicks, leaving and coming back),
``potluck.server.catchup`` (several processes) and ``potluck.server.tableservice``
(moves, bots, timers: ``TableService``).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, contextmanager
from typing import Any, TypeVar

from sqlalchemy import bindparam, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from potluck.engine.errors import PotluckError
from potluck.engine.registry import load_game
from potluck.server.cluster import Cluster, StaleTableError, hold, known
from potluck.server.db import ActionRow, SeatRow, TableRow, token_hash
from potluck.server.live import ACTIVE, LiveTable, Seat, TableError
from potluck.server.onetrip import OneTrip
from potluck.server.settings import (
    ServerSettings,
)

log = logging.getLogger("potluck.server")

T = TypeVar("T")

#: How often a seat change is tried when other processes keep changing its table.
ATTEMPTS = 3
#: How often a player's move is tried when other processes keep moving its table on:
#: in a sealed choice the owner's bots choose beside the player, 0.2 s or so apart,
#: and under load a move taken by another process can lose three races in a row
#: (``moved_on``: 5 of 1,776 moves at 50 tables with three tries).
MOVE_ATTEMPTS = 8


#: A change other than a move: one more in the table's count (``TableRow.changes``),
#: and the new count.
BUMP_CHANGES = (
    update(TableRow)
    .where(TableRow.id == bindparam("table"))
    .values(changes=TableRow.changes + 1)
    .returning(TableRow.changes)
)


def new_secret() -> str:
    """A seat token, invite code or creator secret: 32 URL-safe random characters."""
    return secrets.token_urlsafe(24)


def secret_seed(row: TableRow) -> int:
    """The seed nobody at the table knows before the end: a redealt table's redeal seed
    (its ``seed`` is the source game's, whose record is public), else its own seed."""
    return int(row.redeal[-1]["seed"]) if row.redeal else int(row.seed)


class TableStore:
    """The tables in memory and their storage (see the module's docstring)."""

    engine: Engine
    settings: ServerSettings
    clock: Callable[[], float]
    tables: dict[str, LiveTable]

    # ``TableService`` and ``CatchingUp`` provide these
    def _reset_deadline(self, table: LiveTable) -> None:
        raise NotImplementedError

    async def broadcast(self, table: LiveTable) -> None:
        raise NotImplementedError

    async def wake_bots(self, table: LiveTable) -> bool:
        raise NotImplementedError

    async def push(self, table: LiveTable) -> None:
        raise NotImplementedError

    async def _sync(self, table: LiveTable) -> None:
        """Bring ``table`` up to the stored log and seats (under its lock)."""
        raise NotImplementedError

    async def fresh(self, table_id: str) -> LiveTable:
        """The table, caught up first if another process changed it since."""
        raise NotImplementedError

    async def created(self, table_id: str) -> None:
        """A table was made here: own it and tell the other processes."""
        raise NotImplementedError

    def let_go_if_ended(self, table: LiveTable) -> None:
        """A finished table needs no bots and no owner: its bots (with their caches,
        about half of what a finished table kept in memory; docs/web.md, "Limits, on
        purpose") are dropped, and its owner lock is given up in the background (the
        last move does not wait for it)."""
        if table.status in ACTIVE:
            return
        table.bots.clear()
        if self.cluster is not None:
            self.cluster.release_soon(table.id)

    def locked(self, table: LiveTable) -> AbstractAsyncContextManager[None]:
        """The table's lock, with its copy brought up to date from the database first
        when several processes share it."""
        raise NotImplementedError

    #: Whether several server processes share the database (see ``potluck.server.cluster``).
    clustered: bool = False
    #: This process's part in the cluster (its LISTEN/NOTIFY and owned tables), if any.
    cluster: Cluster | None = None
    #: Where a database server's writes run (``None``: SQLite, on the event loop).
    database_thread: ThreadPoolExecutor | None = None
    #: The database thread's own PostgreSQL connection (moves, catch-ups), if any.
    one_trip: OneTrip | None = None

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """One transaction; a failed write is a 503 that changed nothing."""
        try:
            with self.engine.begin() as connection:
                yield connection
        except SQLAlchemyError as error:
            log.error("a database write failed: %s", error)
            raise TableError(
                503, "storage_failed", "The server could not store this; nothing changed."
            ) from None

    # ------------------------------------------------------------------ finding

    def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None and self.clustered and len(table_id) <= 32:
            table = self.load_one(table_id)  # made by another server process
        if table is None:
            raise TableError(404, "no_table", f"There is no table {table_id[:40]!r}.")
        return table

    def seat_of(self, table: LiveTable, token: str) -> int | None:
        """The seat whose token this is, or ``None``."""
        digest = token_hash(token)
        for seat in table.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.seat
        if self.clustered:  # joined on another process a moment ago? the database knows
            with Session(self.engine) as session:
                found = session.scalar(
                    select(SeatRow.seat).where(
                        SeatRow.table_id == table.id, SeatRow.token_hash == digest
                    )
                )
            return found
        return None

    @staticmethod
    def is_host(table: LiveTable, token: str | None) -> bool:
        """Whether ``token`` is the creator's secret of this table."""
        return bool(
            token
            and table.host_hash is not None
            and secrets.compare_digest(table.host_hash, token_hash(token))
        )

    def list_tables(
        self, status: str | None = None, offset: int = 0, limit: int = 50
    ) -> tuple[list[dict[str, Any]], int]:
        """One page of the public tables, newest first, and how many there are in all.

        ``status`` filters (``open``, ``running``, ``over``, ``expired``); without it,
        expired and broken tables are left out. Private tables are never listed.
        """
        shown = ("open", "running", "over") if status is None else (status,)
        tables = [t for t in reversed(self.tables.values()) if not t.private and t.status in shown]
        return [t.summary() for t in tables[offset : offset + limit]], len(tables)

    def _seat(self, table: LiveTable, seat: int) -> Seat:
        if not 0 <= seat < len(table.seats):
            raise TableError(
                404, "no_seat", f"This table has seats 0 to {len(table.seats) - 1}, not {seat}."
            )
        return table.seats[seat]

    @staticmethod
    def _join_link(table: LiveTable, seat: int, invite: str | None) -> str:
        if invite is None:
            return f"/tables/{table.id}/join/{seat}"
        return f"/tables/{table.id}/invite/{seat}/{invite}"

    # ------------------------------------------------------------------ writing a change

    async def _store(self, table: LiveTable, change: Callable[[Connection], None]) -> None:
        """Write one change of ``table`` (under its lock) in one transaction, before it is
        made in memory. On a database server the write runs on the database thread, so
        the event loop serves other tables meanwhile; with other processes it holds the
        table's "move" lock, like a move, and is refused with ``StaleTableError`` if
        another process changed the stored table since this one caught up. The change is
        counted in the same transaction (``TableRow.changes``: the table's revision)."""
        expected = known(table) if self.clustered else None

        def run() -> int:
            with self.write() as connection:
                if expected is not None:
                    hold(connection, table.id, expected)
                change(connection)
                # the table's revision moves on with the change, in its transaction
                return int(connection.scalar(BUMP_CHANGES, {"table": table.id}) or 0)

        if self.database_thread is None:
            changes = run()
        else:
            changes = await asyncio.get_running_loop().run_in_executor(self.database_thread, run)
        table.changes = changes  # the caller makes the change itself in memory next

    async def _change(self, table: LiveTable, attempt: Callable[[], Awaitable[T]]) -> T:
        """Run ``attempt`` (its checks, its ``_store``, its change in memory) under the
        table's lock, the table caught up from the database first; and again, caught up
        again, if another process changed the table between that catch-up and the write."""
        for _ in range(ATTEMPTS):
            async with self.locked(table):
                try:
                    return await attempt()
                except StaleTableError:
                    continue
        raise TableError(
            503,
            "busy",
            "The table changed on another server meanwhile; try again.",
            {"Retry-After": "1"},
        )

    # ------------------------------------------------------------------ restart

    def load_all(self) -> None:
        """Rebuild every table from the database by replaying its log (at start)."""
        with Session(self.engine) as session:
            rows = session.scalars(select(TableRow).order_by(TableRow.created_at)).all()
            for row in rows:
                seats = session.scalars(
                    select(SeatRow).where(SeatRow.table_id == row.id).order_by(SeatRow.seat)
                ).all()
                actions = session.scalars(
                    select(ActionRow).where(ActionRow.table_id == row.id).order_by(ActionRow.number)
                ).all()
                self._restore(row, list(seats), [(a.seat, a.text) for a in actions])

    def load_one(self, table_id: str) -> LiveTable | None:
        """Load one table another process made, if the database has it (on the event loop:
        ``tables`` is only ever changed there, so one table never has two copies)."""
        stored = self.read_table(table_id)
        if stored is not None and table_id not in self.tables:
            self._restore(*stored)
        return self.tables.get(table_id)

    def read_table(
        self, table_id: str
    ) -> tuple[TableRow, list[SeatRow], list[tuple[int, str]]] | None:
        """A table's stored row, seats and log (any thread), or ``None``."""
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            seats = session.scalars(
                select(SeatRow).where(SeatRow.table_id == row.id).order_by(SeatRow.seat)
            ).all()
            actions = session.execute(
                select(ActionRow.seat, ActionRow.text)
                .where(ActionRow.table_id == row.id)
                .order_by(ActionRow.number)
            ).all()
            return row, list(seats), [(a.seat, a.text) for a in actions]

    def _restore(self, row: TableRow, seats: list[SeatRow], actions: list[tuple[int, str]]) -> None:
        seat_list = [
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
            for s in seats
        ]
        try:
            game = load_game(row.game)
            record = {
                "game": row.game,
                "version": row.game_version,
                "num_players": row.num_players,
                "seed": row.seed,
                "options": row.options,
                "actions": [],
            }
            table = LiveTable(
                id=row.id,
                game=game,
                state=game.replay(record),  # checks the game's version; no action yet
                seats=seat_list,
                status=row.status,
                turn_seconds=row.turn_seconds,
                private=row.private,
                host_hash=row.host_hash,
                creator=row.creator,
                changes=row.changes,
                practice=row.practice,
                redeal=list(row.redeal or ()),
                rated=row.rated,
                rated_done=row.rated_at is not None,
                account=row.account_id,
                rematch_of=row.rematch_of,
                # from the secret seed: a redealt table's own seed is its source's, public
                bot_rng=random.Random(secret_seed(row) + len(actions)),
                # a restart gives idle tables a fresh allowance rather than expiring them
                last_active=self.clock(),
            )
            table.play_log(actions)  # the log is played once, moves and decisions noted
        except PotluckError as error:
            problem = str(error)
            log.warning("table %s cannot be restored: %s", row.id, problem)
            if row.status != "broken":
                with Session(self.engine) as session, session.begin():
                    session.execute(
                        update(TableRow)
                        .where(TableRow.id == row.id)
                        .values(status="broken", problem=problem)
                    )
            return
        self.tables[row.id] = table
        if table.rematch_of is not None and table.rematch_of in self.tables:
            self.tables[table.rematch_of].rematch = table.id
        self._reset_deadline(table)
