"""The JSON API's request and response models, as OpenAPI documents them.

Every integer a client sends is bounded here, and every text's length, so a
request the schema allows is one the server and its database can hold.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from potluck.engine.registry import list_games, load_game
from potluck.server.accounts import MAX_PASSWORD
from potluck.server.botpool import DIFFICULTIES
from potluck.server.settings import MAX_NAME, MAX_SEED, MAX_TURN_SECONDS, MIN_TURN_SECONDS

#: The most decisions, steps or seats a request may name (far beyond any game).
MAX_INDEX = 1_000_000

#: The games and seat kinds, listed in the schema (``enum``) so that clients and the
#: fuzzer know them; the server checks them itself, with a reason when one is wrong.
GAMES: list[JsonValue] = [*sorted(list_games())]
BOTS = sorted({bot for game in list_games() for bot in load_game(game).bots()})
SEAT_KINDS: list[JsonValue] = ["human", *DIFFICULTIES, *BOTS]
GAME_ENUM: dict[str, JsonValue] = {"enum": GAMES}
SEAT_ENUM: dict[str, JsonValue] = {"enum": SEAT_KINDS}
SeatKind = Annotated[str, Field(max_length=64, json_schema_extra=SEAT_ENUM)]


class ErrorBody(BaseModel):
    """Every 4xx and 5xx: a short code and a sentence a player understands."""

    error: str = Field(examples=["illegal_action"])
    reason: str = Field(examples=["Orders are being taken: choose a starter from your menu first."])


class CreateTable(BaseModel):
    """A new table: the game, its players and options, and who sits where."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=64, examples=["cafe-carnage"], json_schema_extra=GAME_ENUM)
    num_players: int | None = Field(
        strict=True,  # a JSON true or false is not a number
        default=None,
        ge=1,
        le=64,
        description="Default: one per seat.",
        examples=[4],
    )
    options: dict[str, bool | int | float | str] = Field(
        default_factory=dict, max_length=32, examples=[{"no_repeat_dishes": True}]
    )
    seats: list[SeatKind] = Field(
        description='One entry per seat, in seat order: "human" or a bot name.',
        min_length=1,
        max_length=64,
        examples=[["human", "human", "greedy", "random"]],
    )
    turn_seconds: int | None = Field(
        strict=True,  # a JSON true or false is not a number
        default=None,
        ge=0,
        le=MAX_TURN_SECONDS,
        description=f"Turn timer, {MIN_TURN_SECONDS} s to {MAX_TURN_SECONDS} s: a human who "
        "takes longer is replaced by a bot (until they take their seat back); 0: no timer. "
        "When none is given, a public table with two or more human seats gets the server's "
        "default (`GET /api/server`); a private table, or one whose other seats are all "
        "bots, gets none.",
    )
    seed: int | None = Field(
        strict=True,  # a JSON true or false is not a number
        default=None,
        ge=0,
        le=MAX_SEED,
        description="Fix the deal (default: a secret random seed, published with the record "
        "once the game is over). Whoever knows a seed can see every hidden card, so a "
        "table with a human seat takes one only if it is a practice table.",
    )
    practice: bool = Field(
        default=False,
        description='A practice table: the creator may choose the seed (and "play from '
        'here" replays the position exactly, not dealt again); every player must agree '
        "on joining, and every seat's screen says so.",
    )
    private: bool = Field(
        default=False,
        description="Private: not listed, and each seat is joined only by its invite link.",
    )
    from_table: str | None = Field(
        default=None,
        max_length=32,
        description="Play on from a finished game of this table (same game, options and number "
        "of players; `game` and `options` must then match it or be left out): its first "
        "`from_step` actions are played, then what the new table's first human seat could "
        "not see is dealt anew from a secret seed (the record's `redeal`). With more than "
        "one human seat it must be a practice table.",
    )
    from_step: int | None = Field(
        strict=True,  # a JSON true or false is not a number
        default=None,
        ge=0,
        le=MAX_INDEX,
        description="With `from_table`: start after this many of its actions (default: 0).",
    )
    rated: bool = Field(
        default=False,
        description="Rated: its end updates the players' ratings. Every seat is then an "
        "account or a bot of a rated difficulty (`rated_levels` in `GET /api/games`), the "
        "deal is secret and the table has a turn timer.",
    )


class JoinLink(BaseModel):
    seat: int
    join: str = Field(
        description="The page where a player takes this seat by name (a private "
        "table's link carries the seat's invite code: send it only to that player)."
    )


class TableCreated(BaseModel):
    id: str
    url: str
    private: bool
    host_token: str = Field(
        description="The creator's secret (also set as a cookie): send it as `X-Host-Token` "
        "to re-issue an invite or replace an absent player by a bot."
    )
    join: list[JoinLink]


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_NAME,
        examples=["Ann"],
        description="A guest's name; a logged-in player sits down under their account's "
        "name (and this is ignored).",
    )
    invite: str | None = Field(
        default=None,
        max_length=64,
        description="A private table's invite code (browsers send it as a cookie instead).",
    )
    practice: bool = Field(
        default=False,
        description="Agree to a practice table (its creator chose the deal, so whoever knows "
        "the seed can see your cards): a practice table's seats are taken only with it.",
    )


class Joined(BaseModel):
    table: str
    seat: int
    token: str = Field(description="The seat's secret: send it as `Authorization: Bearer`.")
    seat_link: str = Field(description="Open this link again to come back to the seat.")


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: str = Field(max_length=200, description="The action's text.", examples=["split"])
    decision: int = Field(
        strict=True,  # a JSON true or false is not a number
        ge=0,
        le=MAX_INDEX,
        description="The seat's decision this move answers: the `decision` of the view the "
        "player saw. A decision already answered is refused with 409, so a move sent "
        "twice is taken once.",
        examples=[0],
    )


class Explained(BaseModel):
    action: str
    legal: bool
    reason: str | None


class TablePage(BaseModel):
    tables: list[dict[str, Any]]
    total: int = Field(description="How many tables match in all.")
    offset: int
    limit: int


class Invite(BaseModel):
    seat: int
    join: str | None = Field(
        description="The seat's new invite link; the old one no longer works (null: the "
        "seat is kept for an account instead)."
    )
    invited: str | None = Field(description="The account the seat is kept for, if any.")


class InviteAccount(BaseModel):
    model_config = ConfigDict(extra="forbid")

    account: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_NAME,
        description="Keep the seat for this account (an invitation by name) instead of "
        "making a new invite link.",
    )


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=MAX_NAME, examples=["Ann"])
    password: str = Field(min_length=1, max_length=MAX_PASSWORD, examples=["a long secret"])


class PasswordChange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    current: str = Field(min_length=1, max_length=MAX_PASSWORD)
    new: str = Field(min_length=1, max_length=MAX_PASSWORD)


class PasswordOnly(BaseModel):
    model_config = ConfigDict(extra="forbid")

    password: str = Field(min_length=1, max_length=MAX_PASSWORD)


class AccountOut(BaseModel):
    name: str
    created_at: str


class SessionOut(BaseModel):
    account: AccountOut | None = Field(description="The logged-in account (null: a guest).")
    csrf: str | None = Field(
        description="Send it as `X-CSRF-Token` with every change made as this account."
    )


class Page(BaseModel):
    total: int = Field(description="How many there are in all.")
    offset: int
    limit: int


class GamesPage(Page):
    games: list[dict[str, Any]]


class OpponentsPage(Page):
    opponents: list[dict[str, Any]] = Field(
        description="Each account played with: games together, wins (finished ahead), "
        "losses and ties."
    )


class LeaderboardPage(Page):
    pool: dict[str, Any]
    players: list[dict[str, Any]]


class RematchOut(BaseModel):
    table: str
    url: str
    seat: int = Field(description="Your seat at the rematch (the one after your old one).")
    token: str | None = Field(
        description="The new seat's secret (a guest's; null for an account, whose session "
        "is enough, or if taken already)."
    )
    host_token: str | None = Field(description="The new table's creator secret (its proposer).")


class ServerFacts(BaseModel):
    """What a client may want to know of this server's settings."""

    public_turn_seconds: int | None = Field(
        description="The turn timer a public table of people gets when its creator sets "
        "none (none: no timer)."
    )
    max_tables_per_client: int = Field(description="Open tables one client may have.")
    idle_minutes: float = Field(description="A table with nothing happening expires after.")
