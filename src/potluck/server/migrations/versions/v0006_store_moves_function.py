"""Several tables' moves stored in one call and one transaction (a cluster's hot path).

``potluck_store_moves`` takes arrays, one element per move, and stores each with
``potluck_store_move`` (migration 0004: the table's "move" lock, then the checked
insert), returning whether each was stored, in the order given. It takes the
locks in the order of their keys, so two processes' batches never wait on each
other in a cycle (a batch holds its locks until it commits). One call stores
what a busy process's tables moved meanwhile: one round trip, one commit and one
wait for the log flush for all of them (``potluck.server.movewriter``). SQLite
needs none (one process).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

STORE_MOVES = r"""
CREATE OR REPLACE FUNCTION potluck_store_moves(
    p_keys bigint[], p_tables varchar[], p_numbers integer[], p_seats integer[],
    p_texts varchar[], p_by_bots boolean[], p_created_ats timestamptz[],
    p_statuses varchar[], p_seat_lists text[]
) RETURNS boolean[] LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    stored boolean[] := array_fill(false, ARRAY[cardinality(p_keys)]);
    i integer;
BEGIN
    FOR i IN SELECT o FROM generate_subscripts(p_keys, 1) AS o ORDER BY p_keys[o], o LOOP
        stored[i] := potluck_store_move(
            p_keys[i], p_tables[i], p_numbers[i], p_seats[i], p_texts[i], p_by_bots[i],
            p_created_ats[i], p_statuses[i], p_seat_lists[i]);
    END LOOP;
    RETURN stored;
END
$$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(STORE_MOVES)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(
        "DROP FUNCTION IF EXISTS potluck_store_moves(bigint[], varchar[], integer[], integer[],"
        " varchar[], boolean[], timestamptz[], varchar[], text[])"
    )
