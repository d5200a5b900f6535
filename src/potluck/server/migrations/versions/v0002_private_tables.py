"""Private tables, invite codes, the creator's secret and who created a table.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(
            sa.Column("private", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("host_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
        batch.create_index("ix_tables_creator", ["creator"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("invite_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("invite_hash")
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_creator")
        batch.drop_column("creator")
        batch.drop_column("host_hash")
        batch.drop_column("private")
