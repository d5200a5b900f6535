"""Seats: joining, invitations, the creator's powers (re-issue an invite, replace an
absent player by a bot), leaving and coming back.

Each change is checked under the table's lock on the table caught up from the
database (``TableStore._change``) and written before it is made in memory.
``TableService`` (``potluck.server.tableservice``) builds on this class.
"""

from __future__ import annotations

import asyncio
import secrets

from sqlalchemy import update
from sqlalchemy.engine import Connection

from potluck.server.accounts import DELETED_NAME, Account, name_key
from potluck.server.db import SeatRow, TableRow, now, token_hash
from potluck.server.live import ACTIVE, LiveTable, TableError
from potluck.server.settings import (
    name_problem,
)
from potluck.server.store import TableStore, new_secret


class Seating(TableStore):
    """The seat part of ``TableService`` (see the module's docstring)."""

    # ------------------------------------------------------------------ joining

    async def join(
        self,
        table_id: str,
        seat: int,
        name: str | None,
        invite: str | None = None,
        *,
        practice: bool = False,
        account: Account | None = None,
        admitted: bool = False,
    ) -> str:
        """Take a free human seat (or a kicked player's) under ``name``; returns the
        seat's secret token. A private table's seat needs its invite code; a practice
        table's (its creator chose the deal) needs ``practice``: the player's word that
        they know whoever knows the seed may see their cards.

        ``account``: a logged-in player sits down under the account's name (a rated
        table seats only accounts; a seat kept for an account takes only that one).
        ``admitted``: the caller proved its right to this seat otherwise (a rematch's
        player, by their seat of the game before).
        """
        table = self.get(table_id)
        if table.practice and not practice:
            raise TableError(
                409,
                "practice_not_agreed",
                f"This is a practice table: its creator chose the deal (seed {table.state.seed}),"
                " so anyone who knows the seed can see every hidden card, yours included. "
                "Agree to that to sit down (practice: true).",
            )
        name = account.name if account is not None else " ".join((name or "").split())
        problem = name_problem(name)
        if problem:
            raise TableError(422, "bad_name", problem)
        if account is None and name_key(name) == DELETED_NAME:
            raise TableError(422, "bad_name", "That name is kept for deleted accounts.")

        async def attempt() -> str:
            place = self._seat(table, seat)
            if table.status not in ACTIVE:
                raise TableError(409, "table_closed", f"This table is {table.status}.")
            if place.kind != "human":
                raise TableError(
                    409, "seat_taken", f"Seat {seat} is played by the {place.bot} bot."
                )
            if not place.joinable:
                raise TableError(409, "seat_taken", f"Seat {seat} is taken by {place.name}.")
            if account is None and table.rated:
                raise TableError(
                    403,
                    "account_needed",
                    "This table is rated: log in (or sign up) to sit down.",
                )
            if account is not None and table.seat_of_account(account.id) is not None:
                raise TableError(
                    409,
                    "already_seated",
                    f"You already sit at this table (seat {table.seat_of_account(account.id)}).",
                )
            if place.reserved and (account is None or place.account != account.id):
                raise TableError(403, "seat_kept", f"This seat is kept for {place.name}.")
            kept_for_me = account is not None and place.account == account.id
            if (
                table.private
                and not admitted
                and not kept_for_me
                and not (
                    invite
                    and place.invite_hash
                    and secrets.compare_digest(place.invite_hash, token_hash(invite))
                )
            ):
                raise TableError(
                    403,
                    "invite_needed",
                    "This table is private: open the invite link its creator sent you.",
                )
            token = new_secret()
            digest = token_hash(token)
            starts = table.status == "open" and not any(
                s.free for s in table.seats if s.seat != seat
            )

            def change(connection: Connection) -> None:
                connection.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                    .values(
                        name=name,
                        token_hash=digest,
                        invite_hash=None,
                        taken_over=None,
                        bot=None,
                        account_id=account.id if account is not None else None,
                    )
                )
                if starts:
                    connection.execute(
                        update(TableRow).where(TableRow.id == table_id).values(status="running")
                    )

            await self._store(table, change)
            place.name, place.token_hash, place.invite_hash = name, digest, None
            place.taken_over, place.bot = None, None
            place.account = account.id if account is not None else None
            table.last_active = self.clock()
            if starts:
                table.status = "running"
            self._reset_deadline(table)
            return token

        token = await self._change(table, attempt)
        await self.broadcast(table)
        await self.wake_bots(table)
        return token

    # ------------------------------------------------------------------ the creator's powers

    async def reissue_invite(self, table_id: str, seat: int) -> str:
        """A new invite link for a private table's open seat; the old one stops working."""
        table = self.get(table_id)

        async def attempt() -> str:
            place = self._seat(table, seat)
            if not table.private:
                raise TableError(
                    409, "public_table", "Anyone may take a public table's free seats."
                )
            if table.status not in ACTIVE:
                raise TableError(409, "table_closed", f"This table is {table.status}.")
            if not place.joinable:
                raise TableError(
                    409,
                    "seat_taken",
                    f"Seat {seat} is {'a bot' if place.kind == 'bot' else 'taken'}: "
                    "replace an absent player first.",
                )
            invite = new_secret()

            kept = place.reserved  # a seat kept for an account is offered by link instead

            def change(connection: Connection) -> None:
                values: dict[str, object] = {"invite_hash": token_hash(invite)}
                if kept:
                    values.update(account_id=None, name=None)
                connection.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                    .values(**values)
                )

            await self._store(table, change)
            place.invite_hash = token_hash(invite)
            if kept:
                place.account, place.name = None, None
            table.last_active = self.clock()
            return invite

        invite = await self._change(table, attempt)
        return self._join_link(table, seat, invite)

    async def invite_account(self, table_id: str, seat: int, account: Account) -> None:
        """Keep a free seat for ``account`` (an invitation by name): only they may take it,
        from any device once logged in (their "Your tables" lists it); the seat's invite
        link, if any, stops working."""
        table = self.get(table_id)

        async def attempt() -> None:
            place = self._seat(table, seat)
            if table.status not in ACTIVE:
                raise TableError(409, "table_closed", f"This table is {table.status}.")
            if not place.free:
                raise TableError(
                    409,
                    "seat_taken",
                    f"Seat {seat} is {'a bot' if place.kind == 'bot' else 'taken'}.",
                )
            if table.seat_of_account(account.id) is not None:
                raise TableError(409, "already_seated", f"{account.name} sits here already.")

            def change(connection: Connection) -> None:
                connection.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                    .values(account_id=account.id, name=account.name, invite_hash=None)
                )

            await self._store(table, change)
            place.account, place.name, place.invite_hash = account.id, account.name, None
            table.last_active = self.clock()

        await self._change(table, attempt)
        await self.broadcast(table)

    async def kick(self, table_id: str, seat: int) -> None:
        """Give an absent player's seat (or a seat nobody took) to a bot.

        Absent: no page of that seat is open, or a bot already plays it. The
        player's token stops working; the seat can be given to someone else with an
        invite (private) or the join link (public).
        """
        table = self.get(table_id)

        async def attempt() -> None:
            place = self._seat(table, seat)
            if table.status not in ACTIVE:
                raise TableError(409, "table_closed", f"This table is {table.status}.")
            if place.kind != "human":
                raise TableError(409, "bot_seat", f"Seat {seat} is a bot's.")
            if place.taken_over == "kicked":
                raise TableError(409, "taken_over", f"A bot already plays seat {seat}.")
            if table.rated and place.free:
                raise TableError(
                    409,
                    "rated_seat",
                    f"Seat {seat} waits for a player with an account: a rated table's bots "
                    "are chosen when it is made (close it, or invite someone).",
                )
            if not place.taken_over and any(w.seat == seat for w in table.watchers):
                raise TableError(
                    409,
                    "player_present",
                    f"{place.name or 'The player'} has seat {seat} open now: only an absent "
                    "player can be replaced.",
                )
            bot = self._stand_in(table)
            starts = table.status == "open" and not any(
                s.free for s in table.seats if s.seat != seat
            )

            def change(connection: Connection) -> None:
                connection.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                    .values(bot=bot, taken_over="kicked", token_hash=None, invite_hash=None)
                )
                if starts:
                    connection.execute(
                        update(TableRow).where(TableRow.id == table_id).values(status="running")
                    )

            await self._store(table, change)
            place.bot, place.taken_over, place.token_hash, place.invite_hash = (
                bot,
                "kicked",
                None,
                None,
            )
            for watcher in table.watchers:
                if watcher.seat == seat:
                    watcher.seat = None  # a page still open as that seat sees no more of it
            if starts:
                table.status = "running"
            table.last_active = self.clock()
            self._reset_deadline(table)

        await self._change(table, attempt)
        await self.broadcast(table)
        await self.wake_bots(table)

    async def close_table(self, table_id: str) -> None:
        """The creator ends the game for everyone: the table stops (``closed``), nobody
        moves at it any more, and its record stays (``GET .../record``), as an expired
        table's does. It no longer counts against the creator's open tables."""
        table = self.get(table_id)

        async def attempt() -> None:
            if table.status not in ACTIVE:
                raise TableError(409, "table_closed", f"This table is {table.status} already.")

            def change(connection: Connection) -> None:
                connection.execute(
                    update(TableRow)
                    .where(TableRow.id == table_id)
                    .values(status="closed", finished_at=now())
                )

            await self._store(table, change)
            table.status, table.deadline = "closed", None
            table.last_active = self.clock()
            if table.bot_task is not None and table.bot_task is not asyncio.current_task():
                table.bot_task.cancel()

        await self._change(table, attempt)
        await self.broadcast(table)

    # ------------------------------------------------------------------ leaving, coming back

    @staticmethod
    def _stand_in(table: LiveTable) -> str:
        bots = table.game.bots()
        # the strongest bot the game has keeps the absent player's chances fair
        return "greedy" if "greedy" in bots else "random"

    async def _take_over(self, table: LiveTable, seat: int, reason: str) -> None:
        """A bot plays ``seat`` from now on (under the table's lock)."""
        bot = self._stand_in(table)

        def change(connection: Connection) -> None:
            connection.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table.id, SeatRow.seat == seat)
                .values(bot=bot, taken_over=reason)
            )

        await self._store(table, change)
        table.seats[seat].bot, table.seats[seat].taken_over = bot, reason

    async def leave(self, table_id: str, seat: int) -> None:
        """The human at ``seat`` leaves: a bot plays the seat from now on (until they return)."""
        table = self.get(table_id)

        async def attempt() -> None:
            if table.over or table.status not in ACTIVE:
                raise TableError(409, "game_over", "The game is over.")
            if table.seats[seat].taken_over:
                raise TableError(409, "taken_over", f"A bot already plays seat {seat}.")
            await self._take_over(table, seat, "left")
            table.last_active = self.clock()

        await self._change(table, attempt)
        await self.broadcast(table)
        await self.wake_bots(table)

    async def come_back(self, table_id: str, seat: int) -> None:
        """The human at ``seat`` takes the seat back from the bot."""
        table = self.get(table_id)

        async def attempt() -> None:
            place = table.seats[seat]
            if not place.taken_over:
                raise TableError(409, "not_taken_over", f"You are already playing seat {seat}.")

            def change(connection: Connection) -> None:
                connection.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table.id, SeatRow.seat == seat)
                    .values(bot=None, taken_over=None)
                )

            await self._store(table, change)
            place.bot, place.taken_over = None, None
            table.last_active = self.clock()
            self._reset_deadline(table)

        await self._change(table, attempt)
        await self.broadcast(table)
