"""What a live table is made of: its seats, watchers and state, and the refusals.

``TableService`` (``potluck.server.tableservice``) is the only thing that changes
these; ``potluck.server.views`` builds what a seat is sent from them.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from potluck.engine.action import Action
from potluck.engine.bots import Bot
from potluck.engine.game import Game
from potluck.engine.sealed import SealedChoices
from potluck.engine.state import State

#: A watcher's callback: it is given the payload for its seat and sends it on.
Sender = Callable[[dict[str, Any]], Awaitable[None]]

#: Tables that hold seats and count against the caps on open tables.
ACTIVE = ("open", "running")


class TableError(Exception):
    """A request the server refuses; ``status`` is the HTTP status, ``reason`` a sentence.

    ``headers`` go with the response (``Retry-After`` on a 429).
    """

    def __init__(
        self, status: int, code: str, reason: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(reason)
        self.status = status
        self.code = code
        self.reason = reason
        self.headers = headers or {}


#: How many of a table's latest moves it keeps (the pages show fewer).
MOVES_KEPT = 32


@dataclass
class Seat:
    """A seat as the server sees it (the stored row's fields, kept in memory)."""

    seat: int
    kind: str  # "human" or "bot"
    bot: str | None
    name: str | None
    token_hash: str | None
    #: Why a bot plays this human seat now: ``timeout``, ``left`` or ``kicked``.
    taken_over: str | None = None
    #: The hash of the seat's invite code (private tables), while the seat is free.
    invite_hash: str | None = None
    #: The account sitting here (with a token), or the one the free seat is kept for
    #: (an invitation by name, a rematch: ``name`` is then that account's name).
    account: int | None = None

    @property
    def reserved(self) -> bool:
        """A free seat kept for one account (a kicked player's seat is not kept)."""
        return self.account is not None and self.token_hash is None and self.taken_over is None

    @property
    def free(self) -> bool:
        """A human seat nobody has taken (a kicked player's seat is not: a bot plays it)."""
        return self.kind == "human" and self.token_hash is None and self.taken_over is None

    @property
    def joinable(self) -> bool:
        """A seat a new player may take: a free one, or one whose player was kicked."""
        return self.kind == "human" and self.token_hash is None

    @property
    def played_by_bot(self) -> str | None:
        """The bot that moves for this seat now, if any."""
        if self.kind == "bot" or self.taken_over:
            return self.bot
        return None

    def public(self) -> dict[str, Any]:
        """What everyone may know of the seat (never its token nor its invite)."""
        if self.kind != "human":
            # a bot by its seat counted from 1, as the pages number seats: "Bot 2 (medium)"
            name: str | None = f"Bot {self.seat + 1} ({self.bot})"
        else:
            name = None if self.reserved else self.name
        return {
            "seat": self.seat,
            "kind": self.kind,
            "name": name,
            "bot": self.bot if self.kind == "bot" else None,
            "free": self.free,
            "taken_over": self.taken_over,
            "played_by_bot": self.played_by_bot,
            # an account's seat: its name is the account's (its profile: /players/NAME)
            "account": self.account is not None and not self.reserved,
            # a free seat kept for an account (an invitation by name, a rematch)
            "kept_for": self.name if self.reserved else None,
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
    private: bool = False
    #: The hash of the creator's secret (re-issues invites, kicks absent players).
    host_hash: str | None = None
    #: Who created the table (a hash of the client's address), for the per-client cap.
    creator: str | None = None
    #: Its creator chose the deal and every player agreed (every seat is told).
    practice: bool = False
    #: Dealt again after its first moves ("play from here"): the record's ``redeal``
    #: entries (``Game.redeal_of``), and the step up to which they were applied here.
    redeal: list[dict[str, int]] = field(default_factory=list)
    redealt_at: int = -1
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: list[Watcher] = field(default_factory=list)
    bots: dict[int, Bot] = field(default_factory=dict)
    bot_rng: random.Random = field(default_factory=random.Random)
    bot_task: asyncio.Task[None] | None = None
    #: When the humans to act lose their turn to a bot (``clock()`` time), if a timer runs.
    deadline: float | None = None
    #: When anything last happened here (``clock()`` time), for idle expiry.
    last_active: float = 0.0
    problem: str | None = None
    #: Another server process changed the table since this copy was caught up (only a
    #: table this process neither runs nor shows is left so): caught up when next needed.
    stale: bool = False
    #: How many changes other than moves are stored (``TableRow.changes``): with the
    #: number of moves, the table's revision (``potluck.server.views.revision``).
    changes: int = 0
    #: How many actions the table had when this process last told the others of it.
    notified: int = 0
    #: How many actions each seat has taken: the number of the decision it faces next.
    decisions: list[int] = field(default_factory=list)
    #: A rated table (``potluck.server.ratings``), and whether its ratings are applied.
    rated: bool = False
    rated_done: bool = False
    #: The account that created the table (its host powers follow it to any device).
    account: int | None = None
    #: The finished table this one is the rematch of, and this table's rematch.
    rematch_of: str | None = None
    rematch: str | None = None
    #: The latest moves made at this table (a restored table rebuilds them from its
    #: history): ``(seat, the move in words, whether it was part of a sealed choice)``.
    moves: list[tuple[int, str, bool]] = field(default_factory=list)
    sealed: SealedChoices = field(default_factory=SealedChoices)
    #: Each seat's legal actions (labelled) and reasons for the others, worked out once
    #: per decision: ``seat -> (state, legal, illegal)``, current while ``state`` is
    #: the table's state (every move makes a new state object).
    choices: dict[int, tuple[State, list[dict[str, str]], dict[str, str]]] = field(
        default_factory=dict
    )

    @property
    def over(self) -> bool:
        return self.game.is_over(self.state)

    def note_move(self, before: State, seat: int, action: Action) -> None:
        """Keep ``seat``'s ``action``, about to be applied to ``before``, in ``moves`` (the
        latest few dozen): in words, and whether it is part of a sealed choice."""
        secret = self.sealed.is_sealed(self.game.to_act(before), seat)
        self.moves.append((seat, self.game.describe_action(before, seat, action), secret))
        del self.moves[:-MOVES_KEPT]

    def play_log(self, actions: Iterable[tuple[int, Action | str]]) -> None:
        """Play stored ``actions`` onto ``state`` in place (a restored table's log, or a
        new table's first actions): one pass that also counts each seat's decisions and
        keeps the recent moves and which of them were sealed (a table restored in the
        middle of a sealed choice must keep the rest of that choice secret).

        Raises the engine's errors (``PotluckError``) on an action that does not replay.
        """
        game, state = self.game, self.state
        if len(self.decisions) != state.num_players:
            self.decisions = [0] * state.num_players
        for seat, entry in actions:
            state = self._redeal_here()
            action = entry if isinstance(entry, Action) else game.parse_action(state, seat, entry)
            self.note_move(state, seat, action)
            try:
                game.step(state, seat, action)
            except Exception:
                self.moves.pop()  # the move noted just now was not made
                raise
            self.decisions[seat] += 1
        self._redeal_here()

    def _redeal_here(self) -> State:
        """The state, dealt again if the table's ``redeal`` says so at this step (once a
        step: ``play_log`` runs again on a table catching up)."""
        steps = len(self.state.history)
        if self.redeal and steps > self.redealt_at:
            self.state = self.game.redealt(self.state, self.redeal)
            self.redealt_at = steps
        return self.state

    def summary(self) -> dict[str, Any]:
        """The table as the lobby lists it."""
        return {
            "id": self.id,
            "game": self.game.id,
            "title": self.game.title,
            "num_players": self.state.num_players,
            "options": dict(self.state.options),
            "status": self.status,
            "private": self.private,
            "turn_seconds": self.turn_seconds,
            "seats": [seat.public() for seat in self.seats],
            "steps": len(self.state.history),
            "problem": self.problem,
            # a practice table says so on every screen, with the seed its creator chose
            "practice": self.practice,
            **({"seed": self.state.seed} if self.practice else {}),
            "rated": self.rated,
            "rematch_of": self.rematch_of,
            "rematch": self.rematch,
        }

    def seat_of_account(self, account: int) -> int | None:
        """The seat ``account`` sits at here (a bot may play it while they are away)."""
        for seat in self.seats:
            if seat.account == account and seat.token_hash is not None:
                return seat.seat
        return None
