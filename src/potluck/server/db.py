"""The server's database: tables, seats and the action log, with SQLAlchemy 2.

A table is stored as its game, seed and options plus one row per action, in order
(a game is its seed plus its actions), so a restarted server rebuilds every table
by replaying its log. Seat tokens are stored only as SHA-256 hashes: a leaked
database copy gives nobody a seat.

The schema is created and upgraded by the Alembic migrations in
``potluck/server/migrations`` (``migrate(engine)``, run at every start); the
models below must match them (``tests/test_server.py`` checks that they do).

    >>> engine = make_engine("sqlite://")
    >>> migrate(engine)
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from platformdirs import user_data_dir
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    create_engine,
    event,
    false,
    text,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.pool import StaticPool

MIGRATIONS = Path(__file__).parent / "migrations"


def default_database_url() -> str:
    """The embedded default: a SQLite file in the user's data directory."""
    folder = Path(user_data_dir("potluck"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'server.sqlite3'}"


def now() -> datetime:
    """The current time in UTC (for the rows' timestamps only; no rule reads it)."""
    return datetime.now(UTC)


def token_hash(token: str) -> str:
    """What the database keeps of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


class Base(DeclarativeBase):
    """The declarative base of the server's models."""


class TableRow(Base):
    """One game table: enough, with its actions, to rebuild the game exactly."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    game_version: Mapped[int] = mapped_column(Integer)
    num_players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: ``open`` (free seats), ``running``, ``over``, ``expired`` (idle too long; its log is
    #: kept), ``closed`` (by its creator; its log is kept) or ``broken`` (its log no longer
    #: replays).
    status: Mapped[str] = mapped_column(String(16), index=True)
    turn_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    problem: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: A private table is not listed; its seats are joined only with their invite codes.
    private: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: The hash of the creator's secret (re-issues invites, replaces absent players).
    host_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: A hash of the creating client's address, for the cap on open tables per client.
    creator: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    #: How many changes other than moves the table has had (joins, invitations, kicks,
    #: leaves, returns, time-outs, expiry): with its number of moves, its revision
    #: (``potluck.server.views.payload``). Bumped in each such change's transaction.
    changes: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: A practice table: its creator chose the seed, every player agreed to that on
    #: joining, and every seat's screen says so (``potluck.server.creating``).
    practice: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: A "play from here" table dealt again after its first moves: ``[{"step", "seat",
    #: "seed"}, ...]`` (the record's ``redeal``, ``Game.redeal_of``); its ``seed`` is the
    #: source game's, public, and the last entry's is the secret. ``None``: dealt once.
    redeal: Mapped[list[dict[str, int]] | None] = mapped_column(JSON, nullable=True)
    #: A rated table: every seat an account or a bot of a difficulty with a reference
    #: rating; its end updates the players' ratings (``potluck.server.ratings``).
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: When the ratings of this (rated, finished) table were applied: exactly once, by the
    #: process whose conditional update set it.
    rated_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: The account that created the table (its host powers follow the account to any
    #: device). No foreign key: an account's deletion clears it itself (``accounts``).
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    #: The finished table this one is the rematch of ("Play again"): at most one each.
    rematch_of: Mapped[str | None] = mapped_column(
        String(32), nullable=True, index=True, unique=True
    )


class SeatRow(Base):
    """One seat of a table: a human (once joined, with a token) or a bot."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: ``human`` or ``bot``.
    kind: Mapped[str] = mapped_column(String(8))
    #: The bot that plays the seat: a bot seat's level, or the bot that took over a human seat.
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    #: Why a bot plays this human seat now: ``timeout``, ``left`` or ``kicked`` (``None``:
    #: the human does).
    taken_over: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: The hash of the seat's invite code (a private table's seat nobody has taken yet).
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: The account that sits here (with ``token_hash``), or that the seat is kept for
    #: while nobody has taken it (an invitation by name, a rematch). No foreign key: an
    #: account's deletion clears it itself and renames the seat "deleted player".
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)


class ActionRow(Base):
    """One action of a table's game, numbered from 0 in the order it was applied."""

    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(200))
    by_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AnalysisRow(Base):
    """A finished game's move analysis of one seat by one judge, kept once computed
    (``potluck.server.analyses``): the record never changes, so neither does it."""

    __tablename__ = "analyses"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: The judge's spec (``ServerSettings.analysis_bot``) and its time per move.
    judge: Mapped[str] = mapped_column(String(200), primary_key=True)
    #: Each analysed move (``potluck.review.MoveReview.to_json``), in order.
    moves: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RateCountRow(Base):
    """One process's hits of one client in one slot of one rate window, for the other
    processes' rate limits (``potluck.server.ratelimit``; PostgreSQL clusters only).
    Deleted once the slot has left its window."""

    __tablename__ = "rate_counts"

    #: The process that took the hits (``Cluster.name``).
    process: Mapped[str] = mapped_column(Text, primary_key=True)
    #: ``create``, ``join``, ``move`` or ``analysis``.
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    #: The hash of the client's address.
    client: Mapped[str] = mapped_column(String(64), primary_key=True)
    #: The window's length, in seconds.
    seconds: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: The slot's start, in seconds since the epoch on the database's clock.
    slot: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    hits: Mapped[int] = mapped_column(Integer)


class AccountRow(Base):
    """A player's account: a unique display name and an argon2 hash of the password."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: The name as the player wrote it (what every page shows).
    name: Mapped[str] = mapped_column(String(64))
    #: The name folded (``potluck.server.accounts.name_key``): unique, so "Ann" and
    #: "ANN" are one name.
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    #: The password's argon2id hash in PHC form (its salt and parameters inside).
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SessionRow(Base):
    """One logged-in browser (or client): the SHA-256 of its session cookie."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """An account's openskill rating in one pool (a game, or a game at some player
    counts: ``potluck.server.ratings.pool_of``)."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_pool_ordinal", "pool", "ordinal"),)

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    pool: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    #: ``mu - 3 sigma``: what the leaderboard is ordered by.
    ordinal: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingChangeRow(Base):
    """What one rated game did to one account's rating (the profile's history)."""

    __tablename__ = "rating_changes"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    pool: Mapped[str] = mapped_column(String(32))
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    #: The place the rating counted (a leaver's is last, below every other seat).
    place: Mapped[int] = mapped_column(Integer)
    #: A bot played the seat at the end (a time-out, a leave, a kick): counted as a loss.
    abandoned: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets foreign keys and use from the server's threads."""
    if url.startswith("sqlite"):
        memory = url in ("sqlite://", "sqlite:///:memory:")
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False},
            # one shared connection, or every connection would see its own empty database
            poolclass=StaticPool if memory else None,
        )

        @event.listens_for(engine, "connect")
        def _pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            if not memory:
                cursor.execute("PRAGMA journal_mode=WAL")  # readers never wait for the writer
                # a commit survives the server process dying at once; only a power cut
                # between checkpoints can lose the last moves (and no fsync per move)
                cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    # the moves and catch-ups have connections of their own (``potluck.server.onetrip``):
    # this pool serves seat changes and reads, and keeps few idle connections open
    return create_engine(url, pool_pre_ping=True, pool_size=2, max_overflow=8)


def alembic_config() -> Config:
    """Alembic's configuration, pointing at the migrations shipped in the package."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def migrate(engine: Engine) -> None:
    """Bring the database's schema up to date (creating it on first use)."""
    config = alembic_config()
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":  # processes starting at once migrate in turn
            connection.execute(text("SELECT pg_advisory_xact_lock(7510232710)"))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
