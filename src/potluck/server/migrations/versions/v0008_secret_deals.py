"""Practice tables and tables dealt again part-way (issue 33: seeds nobody can exploit).

- ``tables.practice``: the creator chose the seed, and every player agreed on
  joining (a seat's screen says so). Without it a table with a human seat is
  always dealt from a secret seed.
- ``tables.redeal``: a "play from here" table keeps what its player's seat knew
  at the step it starts from and draws every other hidden card anew from a
  secret seed: ``{"step": K, "seat": S, "seed": R}``, published with the record
  once the game is over (``Game.redeal_of``).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(
            sa.Column("practice", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("redeal", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("redeal")
        batch.drop_column("practice")
