"""The checked-move functions always find a table's rows through its keys' indexes.

``potluck_store_move`` (migration 0004) reads, for every move, the table's last
action number, its status and its seats, each by the table's id. PL/pgSQL plans
each of those statements once per connection and, after five calls, may keep a
generic plan for the connection's life, built from what the planner knew then. A
server that starts on a new or nearly empty database makes that plan while the
``tables`` and ``seats`` tables fill up (within its first seconds): a plan that
reads the whole table, since it was a page or two. Kept until PostgreSQL next
analyses the table (its autovacuum, up to a minute or more later), it read all
of ``seats`` and ``tables`` for each move: in half the 1,000-table runs with two
processes, about 85,000 to 90,000 whole reads of ``seats`` (250 million rows)
and 170,000 to 180,000 of ``tables``, and PostgreSQL's CPU per player move
1.05 to 1.17 ms instead of 0.6 (docs/web-figures.md). Every one of these
reads is by key, so an index is always the right plan: the two functions run
with ``enable_seqscan = off``, which makes the planner take the index however
small the table looks (the setting holds for the call only).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27
"""

from __future__ import annotations

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

STORE_MOVE = (
    "potluck_store_move(bigint, varchar, integer, integer, varchar, boolean, timestamptz,"
    " varchar, text)"
)
STORE_MOVES = (
    "potluck_store_moves(bigint[], varchar[], integer[], integer[], varchar[], boolean[],"
    " timestamptz[], varchar[], text[])"
)


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for function in (STORE_MOVE, STORE_MOVES):
        op.execute(f"ALTER FUNCTION {function} SET enable_seqscan = off")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for function in (STORE_MOVE, STORE_MOVES):
        op.execute(f"ALTER FUNCTION {function} RESET enable_seqscan")
