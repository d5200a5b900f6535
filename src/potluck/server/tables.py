"""Live tables: the authoritative games the server runs, with their seats, bots and log.

``TableService`` holds every unfinished table in memory (its game state rebuilt
by replaying the stored log at start) and is the only thing that changes them:

- ``act`` checks an action against ``to_act``/``legal_actions`` under the
  table's lock, stores it, and only then applies it and tells the watchers;
- bots (bot seats, and human seats taken over after a time-out or a leave)
  move by themselves, ``bot_delay`` seconds apart;
- ``payload`` is what one seat (or a spectator) is sent: the game's own
  ``view`` for that seat and that seat's legal actions with labels and, for the
  others, the reason they are not legal. Nothing else of the state leaves here.

It knows nothing of HTTP; ``potluck.server.app`` maps its ``TableError``s to
responses.

    >>> from potluck.server.db import make_engine, migrate
    >>> engine = make_engine("sqlite://"); migrate(engine)
    >>> service = TableService(engine)
    >>> seats = ["human", "greedy", "greedy", "greedy"]
    >>> table, links = service.create_table("cafe-carnage", 4, {}, seats)
    >>> table.status
    'open'
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from potluck.engine.action import Action
from potluck.engine.bots import Bot
from potluck.engine.errors import (
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    PotluckError,
)
from potluck.engine.game import Game
from potluck.engine.registry import list_games, load_game
from potluck.engine.state import State
from potluck.server.db import ActionRow, SeatRow, TableRow, now, token_hash

log = logging.getLogger("potluck.server")

#: Reasons for illegal actions are sent with every view when a game has at most this
#: many distinct actions (for hover texts); larger games get them from ``/explain``.
MAX_EXPLAINED = 256
MAX_NAME = 40

#: A watcher's callback: it is given the payload for its seat and sends it on.
Sender = Callable[[dict[str, Any]], Awaitable[None]]


class TableError(Exception):
    """A request the server refuses; ``status`` is the HTTP status, ``reason`` a sentence."""

    def __init__(self, status: int, code: str, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.code = code
        self.reason = reason


@dataclass
class Seat:
    """A seat as the server sees it (the stored row's fields, kept in memory)."""

    seat: int
    kind: str  # "human" or "bot"
    bot: str | None
    name: str | None
    token_hash: str | None
    taken_over: str | None = None

    @property
    def free(self) -> bool:
        return self.kind == "human" and self.token_hash is None

    @property
    def played_by_bot(self) -> str | None:
        """The bot that moves for this seat now, if any."""
        if self.kind == "bot" or self.taken_over:
            return self.bot
        return None

    def public(self) -> dict[str, Any]:
        """What everyone may know of the seat (never its token)."""
        return {
            "seat": self.seat,
            "kind": self.kind,
            "name": self.name if self.kind == "human" else f"Bot {self.seat} ({self.bot})",
            "bot": self.bot if self.kind == "bot" else None,
            "free": self.free,
            "taken_over": self.taken_over,
            "played_by_bot": self.played_by_bot,
        }


@dataclass
class Watcher:
    """One open WebSocket: which seat it watches as (``None``: a spectator)."""

    seat: int | None
    send: Sender


@dataclass
class LiveTable:
    """A table in memory: its game and state, seats, lock and watchers."""

    id: str
    game: Game[Any, Any]
    state: State
    seats: list[Seat]
    status: str
    turn_seconds: int | None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: list[Watcher] = field(default_factory=list)
    bots: dict[int, Bot] = field(default_factory=dict)
    bot_rng: random.Random = field(default_factory=random.Random)
    bot_task: asyncio.Task[None] | None = None
    #: When the humans to act lose their turn to a bot (``clock()`` time), if a timer runs.
    deadline: float | None = None
    problem: str | None = None

    @property
    def over(self) -> bool:
        return self.game.is_over(self.state)

    def summary(self) -> dict[str, Any]:
        """The table as the lobby lists it."""
        return {
            "id": self.id,
            "game": self.game.id,
            "title": self.game.title,
            "num_players": self.state.num_players,
            "options": dict(self.state.options),
            "status": self.status,
            "turn_seconds": self.turn_seconds,
            "seats": [seat.public() for seat in self.seats],
            "steps": len(self.state.history),
            "problem": self.problem,
        }


class TableService:
    """Creates, joins, runs and restores tables; the server's only writer.

    ``bot_delay`` is the pause before each bot move (0 in tests: bots then move
    before the request that woke them returns). ``clock`` gives seconds for the
    turn timer (``time.monotonic``; tests pass their own).
    """

    def __init__(
        self,
        engine: Engine,
        *,
        bot_delay: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.engine = engine
        self.bot_delay = bot_delay
        self.clock = clock
        self.tables: dict[str, LiveTable] = {}

    # ------------------------------------------------------------------ games

    @staticmethod
    def games() -> list[dict[str, Any]]:
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
                    "summary": game.summary,
                    "notation": game.notation,
                }
            )
        return result

    # ------------------------------------------------------------------ creating and joining

    def create_table(
        self,
        game_id: str,
        num_players: int,
        options: Mapping[str, Any] | None,
        seats: Sequence[str],
        *,
        turn_seconds: int | None = None,
        seed: int | None = None,
    ) -> tuple[LiveTable, list[dict[str, Any]]]:
        """A new table; returns it and one ``{seat, join}`` link per human seat.

        ``seats`` says, in seat order, ``"human"`` or a bot name for each seat.
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
        bots = game.bots()
        for number, kind in enumerate(seats):
            if kind != "human" and kind not in bots:
                raise TableError(
                    422,
                    "bad_seats",
                    f"Seat {number} is {kind!r}: a seat is 'human' or one of "
                    f"{game.title}'s bots: {', '.join(sorted(bots))}.",
                )
        if turn_seconds is not None and turn_seconds < 5:
            raise TableError(422, "bad_timer", "A turn timer is at least 5 seconds.")
        if seed is None:
            seed = secrets.randbelow(2**62)
        try:
            state = game.new_game(num_players, seed, options)
        except PotluckError as error:
            raise TableError(422, "bad_options", str(error)) from None
        table_id = secrets.token_urlsafe(6)
        seat_list = [
            Seat(
                seat=number,
                kind="human" if kind == "human" else "bot",
                bot=None if kind == "human" else kind,
                name=None,
                token_hash=None,
            )
            for number, kind in enumerate(seats)
        ]
        table = LiveTable(
            id=table_id,
            game=game,
            state=state,
            seats=seat_list,
            status="open",
            turn_seconds=turn_seconds,
            bot_rng=random.Random(seed),
        )
        if not any(seat.free for seat in seat_list):
            table.status = "running"
        with Session(self.engine) as session, session.begin():
            session.add(
                TableRow(
                    id=table_id,
                    game=game.id,
                    game_version=game.version,
                    num_players=num_players,
                    seed=seed,
                    options=dict(state.options),
                    status=table.status,
                    turn_seconds=turn_seconds,
                    created_at=now(),
                )
            )
            session.flush()  # the table row first: the seats refer to it
            for seat in seat_list:
                session.add(
                    SeatRow(table_id=table_id, seat=seat.seat, kind=seat.kind, bot=seat.bot)
                )
        self.tables[table_id] = table
        self._reset_deadline(table)
        links = [
            {"seat": seat.seat, "join": f"/tables/{table_id}/join/{seat.seat}"}
            for seat in seat_list
            if seat.free
        ]
        return table, links

    def join(self, table_id: str, seat: int, name: str) -> str:
        """Take a free human seat under ``name``; returns the seat's secret token."""
        table = self.get(table_id)
        name = " ".join(name.split())
        if not name:
            raise TableError(422, "bad_name", "Give a name to sit down with.")
        if len(name) > MAX_NAME:
            raise TableError(422, "bad_name", f"A name has at most {MAX_NAME} characters.")
        if not 0 <= seat < len(table.seats):
            raise TableError(
                404, "no_seat", f"This table has seats 0 to {len(table.seats) - 1}, not {seat}."
            )
        place = table.seats[seat]
        if place.kind != "human":
            raise TableError(409, "seat_taken", f"Seat {seat} is played by the {place.bot} bot.")
        if not place.free:
            raise TableError(409, "seat_taken", f"Seat {seat} is taken by {place.name}.")
        token = secrets.token_urlsafe(24)
        place.name, place.token_hash = name, token_hash(token)
        starts = not any(s.free for s in table.seats)
        with Session(self.engine) as session, session.begin():
            session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(name=name, token_hash=place.token_hash)
            )
            if starts:
                session.execute(
                    update(TableRow).where(TableRow.id == table_id).values(status="running")
                )
        if starts:
            table.status = "running"
            self._reset_deadline(table)
        return token

    def seat_of(self, table: LiveTable, token: str) -> int | None:
        """The seat whose token this is, or ``None``."""
        digest = token_hash(token)
        for seat in table.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.seat
        return None

    def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError(404, "no_table", f"There is no table {table_id!r}.")
        return table

    def list_tables(self, status: str | None = None) -> list[dict[str, Any]]:
        """Tables for the lobby, newest first; ``status`` filters."""
        tables = [t for t in reversed(self.tables.values()) if status in (None, t.status)]
        return [t.summary() for t in tables]

    # ------------------------------------------------------------------ playing

    async def act(self, table_id: str, seat: int, text: str) -> None:
        """Apply ``seat``'s action ``text``: checked, stored, applied, then broadcast.

        Refused input raises ``TableError`` with the engine's reason and changes nothing.
        """
        table = self.get(table_id)
        async with table.lock:
            self._check_playing(table)
            place = table.seats[seat]
            if place.played_by_bot:
                raise TableError(
                    409,
                    "taken_over",
                    f"The {place.bot} bot is playing seat {seat} since you "
                    f"{'ran out of time' if place.taken_over == 'timeout' else 'left'}; "
                    "take your seat back first.",
                )
            try:
                action = table.game.parse_action(table.state, seat, text)
                self._commit(table, seat, action, by_bot=False)
            except NotYourTurnError as error:
                raise TableError(409, "not_your_turn", error.reason) from None
            except IllegalActionError as error:
                raise TableError(409, "illegal_action", error.reason) from None
            except InvalidActionError as error:
                raise TableError(400, "invalid_action", str(error)) from None
        await self.broadcast(table)
        await self.wake_bots(table)

    def _check_playing(self, table: LiveTable) -> None:
        if table.status == "open":
            free = ", ".join(str(s.seat) for s in table.seats if s.free)
            raise TableError(
                409, "not_started", f"The game starts when every seat is taken; free: {free}."
            )
        if table.status == "broken":
            raise TableError(409, "broken", f"This table cannot go on: {table.problem}")
        if table.over:
            raise TableError(409, "game_over", "The game is over.")

    def _commit(self, table: LiveTable, seat: int, action: Action, *, by_bot: bool) -> None:
        """Store the action, then apply it: the log is never behind what anyone saw.

        Runs under the table's lock. ``game.apply`` checks the action (raising the
        engine's errors) on a copy, so a refused action or a failed write changes
        nothing.
        """
        game, before = table.game, table.state
        after = game.apply(before, seat, action)
        number = len(before.history)
        # SQLAlchemy Core, not the ORM: one short transaction per move, on the hot path
        with self.engine.begin() as connection:
            connection.execute(
                insert(ActionRow).values(
                    table_id=table.id,
                    number=number,
                    seat=seat,
                    text=str(action),
                    by_bot=by_bot,
                    created_at=now(),
                )
            )
            if game.is_over(after):
                connection.execute(
                    update(TableRow)
                    .where(TableRow.id == table.id)
                    .values(status="over", finished_at=now(), outcome=game.outcome(after).to_json())
                )
        previous = set(game.to_act(before))
        table.state = after
        if game.is_over(after):
            table.status = "over"
            table.deadline = None
        elif not set(game.to_act(after)) <= previous:
            # a new decision: the timer starts again (a sealed choice keeps its timer
            # while its other seats are still choosing)
            self._reset_deadline(table)

    # ------------------------------------------------------------------ bots and the timer

    def _bot_for(self, table: LiveTable, seat: int) -> Bot | None:
        name = table.seats[seat].played_by_bot
        if name is None:
            return None
        bot = table.bots.get(seat)
        if bot is None or bot.name != name:
            bot = table.bots[seat] = table.game.make_bot(name)
        return bot

    def _bot_move(self, table: LiveTable) -> bool:
        """One bot move if a bot is to act (under the lock); whether one was made."""
        if table.status != "running" or table.over:
            return False
        for seat in table.game.to_act(table.state):
            bot = self._bot_for(table, seat)
            if bot is None:
                continue
            game, state = table.game, table.state
            view = game.view(state, seat) if bot.needs_view else None
            action = bot.choose(game, view, seat, game.legal_actions(state, seat), table.bot_rng)
            self._commit(table, seat, action, by_bot=True)
            return True
        return False

    async def run_bots(self, table: LiveTable) -> None:
        """Let the bots move until a human must act (each after ``bot_delay`` seconds)."""
        while True:
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            async with table.lock:
                moved = self._bot_move(table)
            if not moved:
                return
            await self.broadcast(table)

    async def wake_bots(self, table: LiveTable) -> None:
        """Start the bots if one is to act: inline without a delay, else in the background."""
        if (
            not any(table.seats[seat].played_by_bot for seat in table.game.to_act(table.state))
            or table.status != "running"
        ):
            return
        if not self.bot_delay:
            await self.run_bots(table)
            return
        if table.bot_task is None or table.bot_task.done():
            table.bot_task = asyncio.create_task(self.run_bots(table))

    def _reset_deadline(self, table: LiveTable) -> None:
        table.deadline = None
        if table.turn_seconds and table.status == "running":
            humans = [s for s in table.game.to_act(table.state) if not table.seats[s].played_by_bot]
            if humans:
                table.deadline = self.clock() + table.turn_seconds

    async def sweep(self) -> None:
        """Hand every human seat whose turn timer ran out to a bot (called every second)."""
        moment = self.clock()
        for table in list(self.tables.values()):
            if table.deadline is None or moment < table.deadline:
                continue
            async with table.lock:
                if table.deadline is None or self.clock() < table.deadline or table.over:
                    continue
                late = [
                    s for s in table.game.to_act(table.state) if not table.seats[s].played_by_bot
                ]
                for seat in late:
                    self._take_over(table, seat, "timeout")
                table.deadline = None
            await self.broadcast(table)
            await self.wake_bots(table)

    def _take_over(self, table: LiveTable, seat: int, reason: str) -> None:
        place = table.seats[seat]
        bots = table.game.bots()
        # the strongest bot the game has keeps the absent player's chances fair
        place.bot = "greedy" if "greedy" in bots else "random"
        place.taken_over = reason
        with Session(self.engine) as session, session.begin():
            session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table.id, SeatRow.seat == seat)
                .values(bot=place.bot, taken_over=reason)
            )

    async def leave(self, table_id: str, seat: int) -> None:
        """The human at ``seat`` leaves: a bot plays the seat from now on (until they return)."""
        table = self.get(table_id)
        async with table.lock:
            if table.over:
                raise TableError(409, "game_over", "The game is over.")
            if table.seats[seat].taken_over:
                raise TableError(409, "taken_over", f"A bot already plays seat {seat}.")
            self._take_over(table, seat, "left")
        await self.broadcast(table)
        await self.wake_bots(table)

    async def come_back(self, table_id: str, seat: int) -> None:
        """The human at ``seat`` takes the seat back from the bot."""
        table = self.get(table_id)
        async with table.lock:
            place = table.seats[seat]
            if not place.taken_over:
                raise TableError(409, "not_taken_over", f"You are already playing seat {seat}.")
            place.bot, place.taken_over = None, None
            with Session(self.engine) as session, session.begin():
                session.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table.id, SeatRow.seat == seat)
                    .values(bot=None, taken_over=None)
                )
            self._reset_deadline(table)
        await self.broadcast(table)

    # ------------------------------------------------------------------ what a seat is sent

    def payload(self, table: LiveTable, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) is sent: its view, turn and actions.

        Built only from ``game.view``, ``to_act``, the seat's own legal actions with
        ``describe_action`` labels and the ``explain`` reasons for its other actions:
        never the state, the RNG or another seat's hand.
        """
        game, state = table.game, table.state
        to_act = list(game.to_act(state))
        body: dict[str, Any] = {
            "table": table.summary(),
            "seat": seat,
            "step": len(state.history),
            "view": game.view(state, seat),
            "to_act": to_act,
            "legal": [],
            "illegal": {},
            "waiting": None,
            "outcome": game.outcome(state).to_json() if game.is_over(state) else None,
        }
        if table.deadline is not None:
            body["table"]["seconds_left"] = max(0, round(table.deadline - self.clock()))
        if seat is None:
            return body
        place = table.seats[seat]
        if table.status != "running" or game.is_over(state):
            body["waiting"] = self._waiting(table)
        elif place.played_by_bot and place.kind == "human":
            body["waiting"] = f"The {place.bot} bot is playing for you."
        elif seat in to_act:
            legal = game.legal_actions(state, seat)
            body["legal"] = [
                {"action": str(action), "label": game.describe_action(state, seat, action)}
                for action in legal
            ]
            body["illegal"] = self._reasons(table, seat, legal)
        else:
            body["waiting"] = self._waiting(table)
        return body

    def _waiting(self, table: LiveTable) -> str:
        if table.status == "open":
            return "Waiting for players to take the free seats."
        if table.status == "broken":
            return f"This table cannot go on: {table.problem}"
        if table.over:
            return "The game is over."
        names = [self._seat_name(table, s) for s in table.game.to_act(table.state)]
        return f"Waiting for {', '.join(names)}."

    @staticmethod
    def _seat_name(table: LiveTable, seat: int) -> str:
        place = table.seats[seat]
        if place.kind == "human":
            return place.name or f"seat {seat}"
        return f"the {place.bot} bot"

    @staticmethod
    def _reasons(table: LiveTable, seat: int, legal: Sequence[Action]) -> dict[str, str]:
        """Why each of the seat's other actions is not legal now (for hover texts)."""
        game, state = table.game, table.state
        count = game.num_distinct_actions(state.num_players, state.options)
        if count > MAX_EXPLAINED:
            return {}
        allowed = {str(action) for action in legal}
        reasons: dict[str, str] = {}
        for index in range(count):
            try:
                action = game.action_from_index(state, seat, index)
            except PotluckError:
                continue
            text = str(action)
            if text not in allowed:
                reasons[text] = game.explain(state, seat, action) or "Not allowed now."
        return reasons

    def explain(self, table_id: str, seat: int, text: str) -> str | None:
        """Why ``seat`` may not take ``text`` now, or ``None`` if it may."""
        table = self.get(table_id)
        try:
            return table.game.explain(table.state, seat, text)
        except PotluckError as error:
            raise TableError(400, "invalid_action", str(error)) from None

    async def broadcast(self, table: LiveTable) -> None:
        """Send every watcher the payload for its seat; drop watchers that are gone."""
        cache: dict[int | None, dict[str, Any]] = {}
        for watcher in list(table.watchers):
            if watcher.seat not in cache:
                cache[watcher.seat] = self.payload(table, watcher.seat)
            try:
                await watcher.send(cache[watcher.seat])
            except Exception:  # a closed socket: its handler removes it too
                with contextlib.suppress(ValueError):
                    table.watchers.remove(watcher)

    # ------------------------------------------------------------------ records and replays

    def record(self, table_id: str) -> dict[str, Any]:
        """The finished game's record (seed + options + actions, and the outcome)."""
        table = self.get(table_id)
        if not table.over:
            raise TableError(409, "not_over", "The record is published once the game is over.")
        record = table.game.record(table.state)
        record["table"] = table.id
        record["players"] = [seat.public()["name"] for seat in table.seats]
        return record

    def replay_view(
        self, table_id: str, step: int, seat: int | None, *, everyone: bool
    ) -> dict[str, Any]:
        """The finished game after its first ``step`` actions, as ``seat`` saw it.

        ``everyone`` gives every seat's view at once (all-seeing).
        """
        table = self.get(table_id)
        if not table.over:
            raise TableError(409, "not_over", "A game can be replayed once it is over.")
        total = len(table.state.history)
        if not 0 <= step <= total:
            raise TableError(422, "bad_step", f"This game has steps 0 to {total}, not {step}.")
        n = table.state.num_players
        if seat is not None and not 0 <= seat < n:
            raise TableError(404, "no_seat", f"This table has seats 0 to {n - 1}, not {seat}.")
        game = table.game
        state = game.replay(game.record(table.state), upto=step)
        last = None
        if step:
            actor, action = table.state.history[step - 1]
            last = {"seat": actor, "action": str(action)}
        body: dict[str, Any] = {
            "table": table.summary(),
            "step": step,
            "steps": total,
            "last": last,
            "to_act": list(game.to_act(state)),
            "seat": seat,
        }
        if everyone:
            body["views"] = [game.view(state, s) for s in range(n)]
        else:
            body["view"] = game.view(state, seat)
        return body

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

    def _restore(self, row: TableRow, seats: list[SeatRow], actions: list[tuple[int, str]]) -> None:
        seat_list = [Seat(s.seat, s.kind, s.bot, s.name, s.token_hash, s.taken_over) for s in seats]
        problem = None
        try:
            game = load_game(row.game)
            record = {
                "game": row.game,
                "version": row.game_version,
                "num_players": row.num_players,
                "seed": row.seed,
                "options": row.options,
                "actions": [[seat, text] for seat, text in actions],
            }
            state = game.replay(record)
        except PotluckError as error:
            problem = str(error)
            log.warning("table %s cannot be restored: %s", row.id, problem)
        if problem is not None:
            if row.status != "broken":
                with Session(self.engine) as session, session.begin():
                    session.execute(
                        update(TableRow)
                        .where(TableRow.id == row.id)
                        .values(status="broken", problem=problem)
                    )
            return
        table = LiveTable(
            id=row.id,
            game=game,
            state=state,
            seats=seat_list,
            status=row.status,
            turn_seconds=row.turn_seconds,
            bot_rng=random.Random(row.seed + len(actions)),
        )
        self.tables[row.id] = table
        self._reset_deadline(table)

    async def resume_bots(self) -> None:
        """After a restart, let the bots that were to move make their moves."""
        for table in list(self.tables.values()):
            await self.wake_bots(table)

    async def close(self) -> None:
        """Stop the bots' background tasks."""
        for table in self.tables.values():
            if table.bot_task is not None and not table.bot_task.done():
                table.bot_task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await table.bot_task
