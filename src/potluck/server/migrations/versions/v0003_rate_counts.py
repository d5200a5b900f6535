"""The processes' shared rate-limit counts (a cluster on PostgreSQL).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_counts",
        sa.Column("process", sa.Text(), primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("client", sa.String(64), primary_key=True),
        sa.Column("seconds", sa.Integer(), primary_key=True),
        sa.Column("slot", sa.BigInteger(), primary_key=True),
        sa.Column("hits", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rate_counts")
