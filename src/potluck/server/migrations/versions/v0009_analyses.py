"""Move analyses kept once computed (issue 33: results cached per record).

A finished game's record never changes, so a seat's analysis by one judge is
computed once, by whichever server process is asked first, and read back by
every later request, restarts included (``potluck.server.analyses``).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("judge", sa.String(200), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id", "seat", "judge"),
    )


def downgrade() -> None:
    op.drop_table("analyses")
