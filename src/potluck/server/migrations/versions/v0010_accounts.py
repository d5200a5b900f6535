"""Accounts, sessions, ratings and rematches (issue 35).

- ``accounts``: a unique display name (``name_key``, the name folded) and the
  password's argon2id hash; ``sessions``: the SHA-256 of each logged-in browser's
  cookie, with its expiry.
- ``ratings``: an account's openskill rating per pool (a game, or a game at some
  player counts); ``rating_changes``: what each rated game did to it.
- ``tables.rated`` and ``tables.rated_at`` (the ratings applied, once);
  ``tables.account_id`` (the creating account); ``tables.rematch_of`` (unique: one
  rematch per finished table); ``seats.account_id`` (the account sitting there, or
  the one the seat is kept for).

Only columns are added to the existing tables, each nullable or with a default and
without a foreign key: SQLite adds such a column in place (``ALTER TABLE ... ADD
COLUMN``), where a foreign key would make Alembic copy the table, and dropping the
old ``tables`` would cascade to every seat and action. An account's deletion
clears its ids itself (``potluck.server.accounts``).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "ratings",
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("pool", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_pool_ordinal", "ratings", ["pool", "ordinal"])
    op.create_table(
        "rating_changes",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("pool", sa.String(32), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("abandoned", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_changes_account_id", "rating_changes", ["account_id"])
    # the existing tables: columns added in place (see the module's docstring)
    op.add_column(
        "tables", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column("tables", sa.Column("rated_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("tables", sa.Column("account_id", sa.Integer(), nullable=True))
    op.add_column("tables", sa.Column("rematch_of", sa.String(32), nullable=True))
    op.create_index("ix_tables_account_id", "tables", ["account_id"])
    op.create_index("ix_tables_rematch_of", "tables", ["rematch_of"], unique=True)
    op.add_column("seats", sa.Column("account_id", sa.Integer(), nullable=True))
    op.create_index("ix_seats_account_id", "seats", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_account_id", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("account_id")
    op.drop_index("ix_tables_rematch_of", "tables")
    op.drop_index("ix_tables_account_id", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rematch_of")
        batch.drop_column("account_id")
        batch.drop_column("rated_at")
        batch.drop_column("rated")
    op.drop_index("ix_rating_changes_account_id", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_pool_ordinal", "ratings")
    op.drop_table("ratings")
    op.drop_index("ix_sessions_account_id", "sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
