"""How many changes other than moves each table has had (its ``changes`` column).

With the number of stored moves it orders every state a table goes through, in
any server process: the ``revision`` of what a seat is sent
(``potluck.server.views.payload``), by which a browser tells a late answer from
a newer push. Bumped in the transaction of every join, invitation, kick,
leave, return, time-out and expiry (``TableStore._store``); a move needs no
bump, as it adds a row to the log.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("changes", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("changes")
