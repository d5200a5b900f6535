"""Tables and their seats: creating, listing, joining, invitations, the creator's
powers (re-issue an invite, replace an absent player by a bot), leaving, coming
back, and rebuilding every table from the database at start.

A **public** table is listed in the lobby and anyone may take its free seats
(it gets a turn timer unless its creator set one). A **private** table is not
listed; each human seat has an invite code that only the creator is given, and
joining that seat needs it. The creator gets a secret of their own (the
``host`` token) for ``reissue_invite`` and ``kick``.

Every change here is written to the database before it is made in memory.
``TableService`` (``potluck.server.tables``) builds on this class.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from potluck.engine.errors import PotluckError
from potluck.engine.registry import list_games, load_game
from potluck.server.botpool import DIFFICULTIES, seat_bot_spec, seat_kinds
from potluck.server.cluster import StaleTableError, hold, known
from potluck.server.db import ActionRow, SeatRow, TableRow, now, token_hash
from potluck.server.live import ACTIVE, LiveTable, Seat, TableError
from potluck.server.settings import (
    MAX_SEED,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    ServerSettings,
    name_problem,
)

log = logging.getLogger("potluck.server")

T = TypeVar("T")

#: How often a seat change is tried when other processes keep changing its table.
ATTEMPTS = 3


def new_secret() -> str:
    """A seat token, invite code or creator secret: 32 URL-safe random characters."""
    return secrets.token_urlsafe(24)


@dataclass
class Created:
    """A new table, one ``{seat, join}`` link per human seat, and the creator's secret."""

    table: LiveTable
    links: list[dict[str, Any]]
    host_token: str


class Seating:
    """The seat half of ``TableService`` (see the module's docstring)."""

    engine: Engine
    settings: ServerSettings
    clock: Callable[[], float]
    tables: dict[str, LiveTable]

    # the playing half (``TableService``) provides these
    def _reset_deadline(self, table: LiveTable) -> None:
        raise NotImplementedError

    async def broadcast(self, table: LiveTable) -> None:
        raise NotImplementedError

    async def wake_bots(self, table: LiveTable) -> None:
        raise NotImplementedError

    def locked(self, table: LiveTable) -> AbstractAsyncContextManager[None]:
        """The table's lock, with its copy brought up to date from the database first
        when several processes share it."""
        raise NotImplementedError

    #: Whether several server processes share the database (see ``potluck.server.cluster``).
    clustered: bool = False
    #: Where a database server's writes run (``None``: SQLite, on the event loop).
    database_thread: ThreadPoolExecutor | None = None

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

    # ------------------------------------------------------------------ games

    def games(self) -> list[dict[str, Any]]:
        """Every game a table can be made for, with its options and bots."""
        result = []
        for game_id in list_games():
            game = load_game(game_id)
            result.append(
                {
                    "id": game.id,
                    "title": game.title,
                    "version": game.version,
                    "min_players": game.min_players,
                    "max_players": game.max_players,
                    "options": {
                        name: {
                            "type": option.type.__name__,
                            "default": option.default,
                            "help": option.help,
                        }
                        for name, option in game.options.items()
                    },
                    "bots": sorted(game.bots()),
                    # What each difficulty plays this game with (the lobby's bot choices).
                    "difficulties": {
                        level: seat_bot_spec(game, level, self.settings.hard_bot)
                        for level in DIFFICULTIES
                    },
                    "summary": game.summary,
                    "notation": game.notation,
                }
            )
        return result

    # ------------------------------------------------------------------ creating

    def create_table(
        self,
        game_id: str,
        num_players: int,
        options: Mapping[str, Any] | None,
        seats: Sequence[str],
        *,
        turn_seconds: int | None = None,
        seed: int | None = None,
        private: bool = False,
        creator: str | None = None,
        start: tuple[str, int] | None = None,
    ) -> Created:
        """A new table. ``seats`` says, in seat order, ``"human"`` or a bot name.

        ``creator`` names the client (any string: its hash is kept) for the cap on
        open tables per client. ``start`` (a finished table's id and a step) deals the
        new table that game's seed and options and plays its first ``step`` actions:
        "play from here" on a replay.
        """
        try:
            game = load_game(game_id)
        except PotluckError as error:
            raise TableError(404, "unknown_game", str(error)) from None
        if len(seats) != num_players:
            raise TableError(
                422,
                "bad_seats",
                f"Give one entry per seat: {num_players} players but {len(seats)} seats.",
            )
        kinds = seat_kinds(game)
        for number, kind in enumerate(seats):
            if kind not in kinds:
                raise TableError(
                    422,
                    "bad_seats",
                    f"Seat {number} is {str(kind)[:40]!r}: a seat is one of "
                    f"{', '.join(kinds)} (a difficulty or one of {game.title}'s bots).",
                )
        if turn_seconds is not None and not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS:
            raise TableError(
                422,
                "bad_timer",
                f"A turn timer is {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS} seconds.",
            )
        if seed is not None and not 0 <= seed <= MAX_SEED:
            raise TableError(422, "bad_seed", f"A seed is 0 to {MAX_SEED} (2**63 - 1).")
        prefix: list[tuple[int, str]] = []
        if start is not None:
            seed, options, prefix = self._position(game, num_players, seed, options, *start)
        else:
            options = game.table_options(options, human_seat="human" in seats)
        self._check_caps(creator)
        if seed is None:
            seed = secrets.randbelow(2**62)
        if turn_seconds is None and not private:
            turn_seconds = self.settings.public_turn_seconds or None
        try:
            state = game.new_game(num_players, seed, options)
        except PotluckError as error:
            raise TableError(422, "bad_options", str(error)) from None
        table_id = secrets.token_urlsafe(6)
        host_token = new_secret()
        invites: dict[int, str] = {}
        seat_list = []
        for number, kind in enumerate(seats):
            seat = Seat(
                seat=number,
                kind="human" if kind == "human" else "bot",
                bot=None if kind == "human" else kind,
                name=None,
                token_hash=None,
            )
            if private and seat.kind == "human":
                invites[number] = new_secret()
                seat.invite_hash = token_hash(invites[number])
            seat_list.append(seat)
        status = "open" if any(seat.free for seat in seat_list) else "running"
        creator_hash = token_hash(creator) if creator is not None else None
        table = LiveTable(
            id=table_id,
            game=game,
            state=state,
            seats=seat_list,
            status=status,
            turn_seconds=turn_seconds,
            private=private,
            host_hash=token_hash(host_token),
            creator=creator_hash,
            bot_rng=random.Random(seed),
            last_active=self.clock(),
        )
        try:
            table.play_log(prefix)
        except PotluckError as error:
            raise TableError(422, "bad_options", str(error)) from None
        if start is not None and game.is_over(state):
            raise TableError(
                422, "bad_step", "The game is over at that step: choose an earlier one."
            )
        with self.write() as connection:
            connection.execute(
                insert(TableRow).values(
                    id=table_id,
                    game=game.id,
                    game_version=game.version,
                    num_players=num_players,
                    seed=seed,
                    options=dict(state.options),
                    status=status,
                    turn_seconds=turn_seconds,
                    created_at=now(),
                    private=private,
                    host_hash=token_hash(host_token),
                    creator=creator_hash,
                )
            )
            if prefix:
                connection.execute(
                    insert(ActionRow),
                    [
                        {
                            "table_id": table_id,
                            "number": number,
                            "seat": seat_number,
                            "text": text,
                            "by_bot": False,
                            "created_at": now(),
                        }
                        for number, (seat_number, text) in enumerate(prefix)
                    ],
                )
            connection.execute(
                insert(SeatRow),
                [
                    {
                        "table_id": table_id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "bot": s.bot,
                        "invite_hash": s.invite_hash,
                    }
                    for s in seat_list
                ],
            )
        self.tables[table_id] = table
        self._reset_deadline(table)
        links = [
            {"seat": s.seat, "join": self._join_link(table, s.seat, invites.get(s.seat))}
            for s in seat_list
            if s.free
        ]
        return Created(table, links, host_token)

    def _position(
        self,
        game: Any,
        num_players: int,
        seed: int | None,
        options: Mapping[str, Any] | None,
        source_id: str,
        step: int,
    ) -> tuple[int, Mapping[str, Any], list[tuple[int, str]]]:
        """The seed, options and first actions of a finished table's game at ``step``."""
        source = self.tables.get(source_id)
        if source is None or not (source.over or source.status == "expired"):
            raise TableError(
                404, "no_finished_table", f"There is no finished table {source_id[:32]!r}."
            )
        record = source.game.record(source.state)
        if source.game.id != game.id or source.state.num_players != num_players:
            raise TableError(
                422,
                "bad_start",
                f"Table {source_id} is a {source.state.num_players}-player "
                f"{source.game.title} game: the new table must be the same.",
            )
        if seed is not None and seed != record["seed"]:
            raise TableError(422, "bad_start", "Leave the seed out: the game's own is used.")
        if options and dict(options) != dict(record["options"]):
            raise TableError(422, "bad_start", "Leave the options out: the game's own are used.")
        actions = [(int(seat), str(text)) for seat, text in record["actions"]]
        if step > len(actions):
            raise TableError(
                422, "bad_step", f"That game has steps 0 to {len(actions)}, not {step}."
            )
        return int(record["seed"]), dict(record["options"]), actions[:step]

    @staticmethod
    def _join_link(table: LiveTable, seat: int, invite: str | None) -> str:
        if invite is None:
            return f"/tables/{table.id}/join/{seat}"
        return f"/tables/{table.id}/invite/{seat}/{invite}"

    def _check_caps(self, creator: str | None) -> None:
        active = [t for t in self.tables.values() if t.status in ACTIVE]
        if len(active) >= self.settings.max_open_tables:
            raise TableError(
                503,
                "server_full",
                f"The server has {len(active)} open tables, its most: join one, or "
                "come back when some have finished.",
                {"Retry-After": "60"},
            )
        if creator is None:
            return
        mine = token_hash(creator)
        count = sum(1 for t in active if t.creator == mine)
        if count >= self.settings.max_tables_per_client:
            raise TableError(
                429,
                "too_many_tables",
                f"You have {count} open tables, the most one player may have: finish "
                "one or let it expire first.",
                {"Retry-After": "60"},
            )

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

    # ------------------------------------------------------------------ writing a change

    async def _store(self, table: LiveTable, change: Callable[[Connection], None]) -> None:
        """Write one change of ``table`` (under its lock) in one transaction, before it is
        made in memory. On a database server the write runs on the database thread, so
        the event loop serves other tables meanwhile; with other processes it holds the
        table's "move" lock, like a move, and is refused with ``StaleTableError`` if
        another process changed the stored table since this one caught up."""
        expected = known(table) if self.clustered else None

        def run() -> None:
            with self.write() as connection:
                if expected is not None:
                    hold(connection, table.id, expected)
                change(connection)

        if self.database_thread is None:
            run()
        else:
            await asyncio.get_running_loop().run_in_executor(self.database_thread, run)

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

    # ------------------------------------------------------------------ joining

    async def join(self, table_id: str, seat: int, name: str, invite: str | None = None) -> str:
        """Take a free human seat (or a kicked player's) under ``name``; returns the
        seat's secret token. A private table's seat needs its invite code."""
        table = self.get(table_id)
        name = " ".join(name.split())
        problem = name_problem(name)
        if problem:
            raise TableError(422, "bad_name", problem)

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
            if table.private and not (
                invite
                and place.invite_hash
                and secrets.compare_digest(place.invite_hash, token_hash(invite))
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
                        name=name, token_hash=digest, invite_hash=None, taken_over=None, bot=None
                    )
                )
                if starts:
                    connection.execute(
                        update(TableRow).where(TableRow.id == table_id).values(status="running")
                    )

            await self._store(table, change)
            place.name, place.token_hash, place.invite_hash = name, digest, None
            place.taken_over, place.bot = None, None
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

            def change(connection: Connection) -> None:
                connection.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                    .values(invite_hash=token_hash(invite))
                )

            await self._store(table, change)
            place.invite_hash = token_hash(invite)
            table.last_active = self.clock()
            return invite

        invite = await self._change(table, attempt)
        return self._join_link(table, seat, invite)

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
        """Load one table another process made, if the database has it."""
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
            if table_id not in self.tables:  # a notice may have loaded it meanwhile
                self._restore(row, list(seats), [(a.seat, a.text) for a in actions])
        return self.tables.get(table_id)

    def _restore(self, row: TableRow, seats: list[SeatRow], actions: list[tuple[int, str]]) -> None:
        seat_list = [
            Seat(s.seat, s.kind, s.bot, s.name, s.token_hash, s.taken_over, s.invite_hash)
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
                bot_rng=random.Random(row.seed + len(actions)),
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
        self._reset_deadline(table)
