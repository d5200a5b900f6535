"""Players who come back: an account's tables, rated games' ends, rematches, and
forgetting a deleted account. Part of ``TableService``.

- **Your tables**: every table an account sits at, is invited to or created
  (``account_tables``), read from the database so that a seat taken on another
  server process or device is there too.
- **Ratings**: when a rated table ends, the process that stored its last move
  applies its result (``potluck.server.standings.apply_ratings``, once, even if
  several try); the sweep applies any whose process died in between.
- **Rematch** ("Play again"): any player of a finished table proposes it; the new
  table has the same game, options, bot levels, timer and rating, a new secret
  seed, and every seat moved on by one (seat 0's player sits at seat 1, and so on).
  It is private: its human seats are kept for the players of the game before, and
  each accepts (takes the seat) or declines (a medium bot takes it). The proposer
  accepts by proposing and becomes the new table's creator.
- **Forgetting an account**: at its open and running tables a bot plays its seat
  (a table not started frees it); everywhere its name becomes "deleted player";
  its games stay.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import delete, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from potluck.server import standings
from potluck.server.accounts import DELETED_NAME, Account
from potluck.server.botpool import seat_bot_spec
from potluck.server.creating import Creating
from potluck.server.db import AccountRow, SeatRow, TableRow
from potluck.server.live import ACTIVE, LiveTable, TableError
from potluck.server.ratings import pool_of, rated_spec
from potluck.server.seating import Seating
from potluck.server.store import BUMP_CHANGES

log = logging.getLogger("potluck.server")

#: How many tables "Your tables" lists (the newest).
MY_TABLES = 50
#: The bot that takes a declined rematch seat (a level: a rated rematch stays rated).
DECLINED_BOT = "medium"


class Membership(Seating, Creating):
    """The accounts' part of ``TableService`` (see the module's docstring)."""

    _rating_tasks: set[asyncio.Task[Any]]
    rating_thread: ThreadPoolExecutor

    # ------------------------------------------------------------------ your tables

    async def account_tables(self, account: Account) -> list[dict[str, Any]]:
        """The newest tables ``account`` sits at, is invited to or created, each as the
        lobby lists it plus ``seat`` (theirs, if seated), ``invited`` (a seat kept for
        them) and ``host`` (they created it)."""

        def read() -> list[str]:
            with Session(self.engine) as session:
                seated = select(SeatRow.table_id).where(SeatRow.account_id == account.id)
                return list(
                    session.scalars(
                        select(TableRow.id)
                        .where(or_(TableRow.id.in_(seated), TableRow.account_id == account.id))
                        .order_by(TableRow.created_at.desc())
                        .limit(MY_TABLES)
                    )
                )

        found = []
        for table_id in await self.read_db(read):
            try:
                table = await self.fresh(table_id)
            except TableError:
                continue
            invited = [s.seat for s in table.seats if s.reserved and s.account == account.id]
            found.append(
                {
                    **table.summary(),
                    "seat": table.seat_of_account(account.id),
                    "invited": invited[0] if invited else None,
                    "host": table.account == account.id,
                }
            )
        return found

    async def read_db(self, work: Any) -> Any:
        if self.database_thread is None:
            return work()
        return await asyncio.get_running_loop().run_in_executor(self.database_thread, work)

    # ------------------------------------------------------------------ ratings

    def bot_spec(self, table: LiveTable, seat: int, level: str) -> str:
        """The spec a bot plays at ``seat``: a rated table's bot seat plays its level's
        measured spec (``ratings.rated_spec``), any other the server's (``hard``: the
        host's ``--hard-bot``)."""
        if table.rated and table.seats[seat].kind == "bot":
            pool = pool_of(table.game.id, len(table.seats))
            spec = rated_spec(table.game, pool, level)
            if spec is not None:
                return spec
        return seat_bot_spec(table.game, level, self.settings.hard_bot) or "random"

    def rate_soon(self, table: LiveTable) -> None:
        """A rated table just ended here: apply its ratings in the background."""
        if not table.rated or table.rated_done:
            return
        task = asyncio.create_task(self.rate(table.id))
        self._rating_tasks.add(task)
        task.add_done_callback(self._rating_tasks.discard)

    async def rate(self, table_id: str) -> list[dict[str, Any]] | None:
        """Apply a finished rated table's ratings (once across every process)."""
        loop = asyncio.get_running_loop()
        try:
            # one thread of its own: one process's rating updates never race each other
            changes = await loop.run_in_executor(
                self.rating_thread,
                standings.apply_ratings,
                self.engine,
                table_id,
            )
        except Exception:
            log.exception(
                "table %s: its ratings could not be applied (the sweep retries)", table_id
            )
            return None
        table = self.tables.get(table_id)
        if changes is not None and table is not None:
            table.rated_done = True
            if not changes:
                log.warning("table %s: a bot's level changed since it started: unrated", table_id)
            await self.push(table)  # the players see their new ratings
        return changes

    async def rate_due(self) -> None:
        """Apply the ratings of rated tables that ended without them (a process died)."""
        if not any(t.rated and not t.rated_done and t.over for t in self.tables.values()):
            return
        for table_id in await self.read_db(lambda: standings.due(self.engine)):
            await self.rate(table_id)

    # ------------------------------------------------------------------ rematch

    async def find_rematch(self, table: LiveTable) -> LiveTable | None:
        """The rematch of ``table``, if one was proposed (here or on another process)."""
        if table.rematch is None:

            def read() -> str | None:
                with Session(self.engine) as session:
                    return session.scalar(
                        select(TableRow.id).where(TableRow.rematch_of == table.id)
                    )

            table.rematch = await self.read_db(read)
        return None if table.rematch is None else await self.fresh(table.rematch)

    async def propose_rematch(
        self, table_id: str, seat: int, account: Account | None, creator: str | None
    ) -> tuple[LiveTable, str | None, str | None]:
        """ "Play again": ``seat``'s player of the finished ``table_id`` proposes (or
        accepts) its rematch; the rematch, the seat's new token (``None``: they had
        taken it already) and, for its proposer, the new table's creator secret."""
        old = await self.fresh(table_id)
        if not old.over:
            raise TableError(409, "not_over", "A rematch is offered once the game is over.")
        new = await self.find_rematch(old)
        host_token = None
        if new is None:
            new, host_token = await self._create_rematch(old, account, creator)
        return new, await self._accept(old, new, seat, account), host_token

    async def _create_rematch(
        self, old: LiveTable, account: Account | None, creator: str | None
    ) -> tuple[LiveTable, str | None]:
        n = len(old.seats)
        kinds = ["human"] * n
        reserve = {}
        for place in old.seats:
            to = (place.seat + 1) % n
            if place.kind == "bot":
                kinds[to] = place.bot or DECLINED_BOT
            elif place.token_hash is None and place.account is None:
                kinds[to] = DECLINED_BOT  # nobody holds this seat any more
            elif place.account is not None:
                reserve[to] = (place.account, place.name or "")
        try:
            created = self.create_table(
                old.game.id,
                n,
                dict(old.state.options),
                kinds,
                turn_seconds=old.turn_seconds,
                private=True,
                creator=creator,
                rated=old.rated,
                account=account.id if account is not None else None,
                rematch_of=old.id,
                reserve=reserve,
            )
        except TableError:
            old.rematch = None
            again = await self.find_rematch(old)  # proposed at the same moment elsewhere
            if again is None:
                raise
            return again, None
        new = created.table
        await self.created(new.id)
        await self.broadcast(old)  # its players see the offer
        return new, created.host_token

    async def _accept(
        self, old: LiveTable, new: LiveTable, seat: int, account: Account | None
    ) -> str | None:
        to = (seat + 1) % len(new.seats)
        place = new.seats[to]
        if place.token_hash is not None:
            return None  # accepted already
        if place.kind == "bot":
            raise TableError(409, "declined", "You declined this rematch.")
        name = old.seats[seat].name
        kept = account if account is not None and place.account == account.id else None
        if place.reserved and kept is None:
            raise TableError(
                403, "account_needed", f"Log in as {place.name} to take this rematch seat."
            )
        token = await self.join(new.id, to, name, account=kept, admitted=True)
        await self.broadcast(old)
        return token

    async def decline_rematch(self, table_id: str, seat: int) -> LiveTable:
        """``seat``'s player of ``table_id`` declines its rematch: a medium bot takes
        their seat there."""
        old = await self.fresh(table_id)
        new = await self.find_rematch(old)
        if new is None:
            raise TableError(404, "no_rematch", "Nobody proposed a rematch of this game.")
        to = (seat + 1) % len(new.seats)

        async def attempt() -> None:
            place = new.seats[to]
            if place.kind == "bot":
                return
            if place.token_hash is not None:
                raise TableError(409, "seat_taken", "You accepted this rematch already.")
            starts = new.status == "open" and not any(s.free for s in new.seats if s.seat != to)

            def change(connection: Connection) -> None:
                connection.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == new.id, SeatRow.seat == to)
                    .values(kind="bot", bot=DECLINED_BOT, name=None, account_id=None)
                )
                if starts:
                    connection.execute(
                        update(TableRow).where(TableRow.id == new.id).values(status="running")
                    )

            await self._store(new, change)
            place.kind, place.bot, place.name, place.account = "bot", DECLINED_BOT, None, None
            if starts:
                new.status = "running"
            new.last_active = self.clock()
            self._reset_deadline(new)

        await self._change(new, attempt)
        await self.broadcast(new)
        await self.wake_bots(new)
        await self.broadcast(old)
        return new

    def rematch_info(self, table: LiveTable, seat: int | None) -> dict[str, Any] | None:
        """The rematch offer as a finished table's payload shows it: the new table and
        each player's answer (``waiting``, ``accepted``, ``declined``)."""
        new = self.tables.get(table.rematch) if table.rematch else None
        if new is None:
            return None
        answers = []
        for place in table.seats:
            if place.kind != "human":
                continue
            there = new.seats[(place.seat + 1) % len(new.seats)]
            answer = (
                "declined"
                if there.kind == "bot"
                else "accepted"
                if there.token_hash is not None
                else "waiting"
            )
            answers.append({"seat": place.seat, "name": place.name, "answer": answer})
        mine = next((a["answer"] for a in answers if a["seat"] == seat), None)
        return {"table": new.id, "url": f"/tables/{new.id}", "answers": answers, "mine": mine}

    # ------------------------------------------------------------------ forgetting

    async def forget_account(self, account: Account) -> None:
        """Delete ``account``: a bot plays its seats at running tables (an open table frees
        them), its name becomes "deleted player" in every record, and the account, its
        sessions and its ratings go. The games stay."""

        def active() -> list[str]:
            with Session(self.engine) as session:
                return list(
                    session.scalars(
                        select(SeatRow.table_id)
                        .join(TableRow, TableRow.id == SeatRow.table_id)
                        .where(SeatRow.account_id == account.id, TableRow.status.in_(ACTIVE))
                        .distinct()
                    )
                )

        for table_id in await self.read_db(active):
            try:
                table = await self.fresh(table_id)
            except TableError:
                continue
            await self._change(table, functools.partial(self._leave_for_good, table, account))
            await self.broadcast(table)
            await self.wake_bots(table)

        def finish() -> list[str]:
            with self.write() as connection:
                touched = list(
                    connection.scalars(
                        select(SeatRow.table_id).where(SeatRow.account_id == account.id).distinct()
                    )
                )
                connection.execute(
                    update(SeatRow)
                    .where(SeatRow.account_id == account.id, SeatRow.name.is_not(None))
                    .values(name=DELETED_NAME)
                )
                connection.execute(
                    update(SeatRow).where(SeatRow.account_id == account.id).values(account_id=None)
                )
                connection.execute(
                    update(TableRow)
                    .where(TableRow.account_id == account.id)
                    .values(account_id=None)
                )
                for table_id in touched:
                    connection.execute(BUMP_CHANGES, {"table": table_id})
                # its sessions, ratings and rating changes go with it (ON DELETE CASCADE)
                connection.execute(delete(AccountRow).where(AccountRow.id == account.id))
                return touched

        touched = await self.read_db(finish)
        for table in list(self.tables.values()):
            if table.account == account.id:
                table.account = None
        for table_id in touched:
            found = self.tables.get(table_id)
            if found is None:
                continue
            table = found
            for place in table.seats:
                if place.account == account.id:
                    place.name = DELETED_NAME if place.name else None
                    place.account = None
            table.changes += 1
            await self.broadcast(table)

    async def _leave_for_good(self, table: LiveTable, account: Account) -> None:
        """At an open or running table (under its lock): the account's seats go to a bot
        (a table not started yet frees them)."""
        for place in table.seats:
            if place.account != account.id:
                continue
            playing = table.status == "running" and place.token_hash is not None
            bot = self._stand_in(table) if playing else None
            values: dict[str, Any] = {"token_hash": None, "account_id": None}
            if playing:
                values.update(name=DELETED_NAME, bot=bot, taken_over="left")
            else:
                values.update(name=None, invite_hash=None)

            def change(
                connection: Connection, seat: int = place.seat, values: dict[str, Any] = values
            ) -> None:
                connection.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table.id, SeatRow.seat == seat)
                    .values(**values)
                )

            await self._store(table, change)
            place.token_hash, place.account = None, None
            if playing:
                place.name, place.bot, place.taken_over = DELETED_NAME, bot, "left"
            else:
                place.name, place.invite_hash = None, None
            for watcher in table.watchers:
                if watcher.seat == place.seat:
                    watcher.seat = None
        self._reset_deadline(table)
