"""New tables: the games a table can be made for, creating one (seats, options,
a private table's invites, "play from here"), and the caps on open tables.

A **public** table is listed in the lobby and anyone may take its free seats
(it gets a turn timer unless its creator set one). A **private** table is not
listed; each human seat has an invite code that only the creator is given, and
joining that seat needs it. The creator gets a secret of their own (the
``host`` token) for ``reissue_invite`` and ``kick`` (``potluck.server.seating``).

**Seeds nobody can exploit.** A game is its seed plus its actions, so whoever
knows a table's seed can deal it offline and see every hidden card. A table with
a human seat is therefore dealt from a secret seed (``secrets``), published with
the record only once the game is over. A chosen seed is taken only at a table of
bots, or at a **practice** table: its creator says so (``practice``), every
player agrees on joining, and every seat's screen shows it, with the seed.
"Play from here" starts from a finished game's position, whose record is
public: the new table keeps what its player's seat knew there and draws every
other hidden card, and all future chance, from a fresh secret seed
(``Game.redeal``; the record's ``redeal``), unless it is a practice table,
which replays the position exactly.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert

from potluck.engine.errors import PotluckError
from potluck.engine.registry import list_games, load_game
from potluck.server.botpool import DIFFICULTIES, seat_bot_spec, seat_kinds
from potluck.server.db import ActionRow, SeatRow, TableRow, now, token_hash
from potluck.server.live import ACTIVE, LiveTable, Seat, TableError
from potluck.server.settings import (
    MAX_SEED,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
)
from potluck.server.store import TableStore, new_secret


@dataclass
class Created:
    """A new table, one ``{seat, join}`` link per human seat, and the creator's secret."""

    table: LiveTable
    links: list[dict[str, Any]]
    host_token: str


class Creating(TableStore):
    """Making tables: the part of ``TableService`` that creates them."""

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
        practice: bool = False,
        rated: bool = False,
        account: int | None = None,
        rematch_of: str | None = None,
        reserve: Mapping[int, tuple[int, str]] | None = None,
    ) -> Created:
        """A new table. ``seats`` says, in seat order, ``"human"`` or a bot name.

        ``creator`` names the client (any string: its hash is kept) for the cap on
        open tables per client. ``start`` (a finished table's id and a step) plays that
        game's first ``step`` actions with its options, then deals again what the new
        table's first human seat could not see: "play from here" on a replay.
        ``seed`` and ``practice``: see the module's docstring.
        ``rated``: a rated table (``check_rated``). ``account``: the creating account.
        ``rematch_of``: the finished table this is the rematch of; ``reserve`` keeps human
        seats for accounts (seat -> account's id and name).
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
        if turn_seconds and not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS:
            raise TableError(
                422,
                "bad_timer",
                f"A turn timer is {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS} seconds (0: none).",
            )
        if seed is not None and not 0 <= seed <= MAX_SEED:
            raise TableError(422, "bad_seed", f"A seed is 0 to {MAX_SEED} (2**63 - 1).")
        if rated:
            check_rated(game, num_players, seats, seed, start)
            if turn_seconds is None:
                turn_seconds = self.settings.rated_turn_seconds
        humans = [number for number, kind in enumerate(seats) if kind == "human"]
        if seed is not None and humans and not practice and start is None:
            raise TableError(
                422,
                "bad_seed",
                "A chosen seed shows whoever knows it every hidden card: choose one only "
                "for a table of bots, or for a practice table (practice: true), which "
                "every player agrees to and every seat's screen shows.",
            )
        prefix: list[tuple[int, str]] = []
        redeal: list[dict[str, int]] = []
        if start is not None:
            if len(humans) > 1 and not practice:
                raise TableError(
                    422,
                    "bad_start",
                    "The game's record is public, so at a table of several people each "
                    "would know what the others' seats held there: play from here alone "
                    "with bots, or make it a practice table (practice: true).",
                )
            seed, options, prefix, redeal = self._position(
                game, num_players, seed, options, *start, practice=practice
            )
            if not practice:  # keep what the player's seat knew; deal the rest anew
                keeper = humans[0] if humans else 0
                fresh = {"step": len(prefix), "seat": keeper, "seed": secrets.randbelow(2**62)}
                redeal = [*redeal, fresh]
        else:
            options = game.table_options(options, human_seat="human" in seats)
        self._check_caps(creator)
        if seed is None:
            seed = secrets.randbelow(2**62)
        if turn_seconds is None and not private and len(humans) > 1:
            # the server's timer for a public table of people; a table of friends (private)
            # or of one person and bots has none unless asked
            turn_seconds = self.settings.public_turn_seconds or None
        turn_seconds = turn_seconds or None  # 0: no timer
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
            kept = (reserve or {}).get(number)
            if kept is not None and seat.kind == "human":
                seat.account, seat.name = kept
            elif private and seat.kind == "human" and rematch_of is None:
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
            practice=practice,
            redeal=redeal,
            bot_rng=random.Random(redeal[-1]["seed"] if redeal else seed),
            last_active=self.clock(),
            rated=rated,
            account=account,
            rematch_of=rematch_of,
        )
        try:
            table.play_log(prefix)
        except PotluckError as error:
            raise TableError(422, "bad_options", str(error)) from None
        if start is not None and game.is_over(table.state):
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
                    practice=practice,
                    redeal=redeal or None,
                    rated=rated,
                    account_id=account,
                    rematch_of=rematch_of,
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
                        "name": s.name,
                        "account_id": s.account,
                    }
                    for s in seat_list
                ],
            )
        self.tables[table_id] = table
        if rematch_of is not None and rematch_of in self.tables:
            self.tables[rematch_of].rematch = table_id
        self._reset_deadline(table)
        links = [
            {"seat": s.seat, "join": self._join_link(table, s.seat, invites.get(s.seat))}
            for s in seat_list
            if s.free and not s.reserved and rematch_of is None
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
        *,
        practice: bool,
    ) -> tuple[int, Mapping[str, Any], list[tuple[int, str]], list[dict[str, int]]]:
        """The seed, options, first actions and deals again (``redeal``) of a finished
        table's game up to ``step``.

        Only a game played to its end is a source (an expired table's record is
        published, but its position was never played out: it would deal a game
        nobody finished, and its deal is the only thing of it that is public)."""
        source = self.tables.get(source_id)
        if source is None or not source.over or source.status == "broken":
            raise TableError(
                404, "no_finished_table", f"There is no finished table {source_id[:32]!r}."
            )
        record = source.game.record(source.state)
        redeals = [entry for entry in source.redeal if entry["step"] <= step]
        if source.game.id != game.id or source.state.num_players != num_players:
            raise TableError(
                422,
                "bad_start",
                f"Table {source_id} is a {source.state.num_players}-player "
                f"{source.game.title} game: the new table must be the same.",
            )
        if seed is not None and (seed != record["seed"] or not practice):
            raise TableError(422, "bad_start", "Leave the seed out: the game's own is used.")
        if options and dict(options) != dict(record["options"]):
            raise TableError(422, "bad_start", "Leave the options out: the game's own are used.")
        actions = [(int(seat), str(text)) for seat, text in record["actions"]]
        if step > len(actions):
            raise TableError(
                422, "bad_step", f"That game has steps 0 to {len(actions)}, not {step}."
            )
        return int(record["seed"]), dict(record["options"]), actions[:step], redeals

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
        theirs = [t for t in active if t.creator == mine]
        if len(theirs) >= self.settings.max_tables_per_client:
            # Tables made from this address in another browser (or by a script) count too but
            # are not in this browser's Your tables: say when the first closes by itself.
            idle = self.settings.idle_seconds
            soonest = min(idle - (self.clock() - t.last_active) for t in theirs)
            raise TableError(
                429,
                "too_many_tables",
                f"You have {len(theirs)} open tables, the most one player may have: close "
                "one (the lobby's Your tables) or finish one first. Tables made from your "
                "address in another browser count too; a table where nothing happens for "
                f"{in_words(idle)} closes by itself (the next in about {in_words(soonest)}).",
                {"Retry-After": "60"},
            )


def in_words(seconds: float) -> str:
    """A span of time as a player reads it, to the minute (at least one).

    >>> in_words(7200), in_words(5999), in_words(30)
    ('2 hours', '1 hour 40 minutes', '1 minute')
    """
    minutes = max(1, round(seconds / 60))
    hours, minutes = divmod(minutes, 60)
    parts = [f"{hours} hour{'s' * (hours != 1)}"] if hours else []
    if minutes or not hours:
        parts.append(f"{minutes} minute{'s' * (minutes != 1)}")
    return " ".join(parts)


def check_rated(
    game: Any,
    num_players: int,
    seats: Sequence[str],
    seed: int | None,
    start: tuple[str, int] | None,
) -> None:
    """Refuse a rated table that could not be rated fairly: every seat must be a person
    or a bot of a difficulty with a reference rating for this pool (``rateable_levels``),
    and the deal must be a secret one from the start."""
    from potluck.server.ratings import pool_of, rateable_levels

    if not game.min_players <= num_players <= game.max_players:
        raise TableError(
            422,
            "bad_options",
            f"{game.title} is played by {game.min_players} to {game.max_players} players, "
            f"not {num_players}.",
        )
    levels = rateable_levels(game, pool_of(game.id, num_players))
    for number, kind in enumerate(seats):
        if kind != "human" and kind not in levels:
            offered = ", ".join(levels) or "none on this server"
            raise TableError(
                422,
                "bad_seats",
                f"Seat {number} is {str(kind)[:40]!r}: a rated table seats people and bots "
                f"of a rated difficulty ({offered}).",
            )
    if seed is not None:
        raise TableError(
            422, "bad_seed", "A rated game is dealt from a secret seed: leave the seed out."
        )
    if start is not None:
        raise TableError(
            422, "bad_start", "A game played on from a replay cannot be rated: untick 'Rated'."
        )
