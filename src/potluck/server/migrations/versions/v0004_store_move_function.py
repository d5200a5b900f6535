"""A move's checked insert and a notice as PostgreSQL functions (a cluster's hot path).

``potluck_store_move`` takes the table's "move" lock, then stores the move only onto
the table the calling process checked it against (its number of actions, status and
seats; ``potluck.server.cluster.seats_fingerprint``'s form). Each statement of a
volatile PL/pgSQL function takes a snapshot of its own when it starts, so the insert
sees every move committed before the lock was granted, as a second statement after
the lock did. ``potluck_announce`` sends a notice in a transaction that does not wait
for the log flush. Called as one prepared statement each, their values bound by
PostgreSQL rather than quoted into a query string (``potluck.server.onetrip``).
SQLite has no functions and needs none (one process).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

STORE_MOVE = r"""
CREATE OR REPLACE FUNCTION potluck_store_move(
    p_key bigint, p_table varchar, p_number integer, p_seat integer, p_text varchar,
    p_by_bot boolean, p_created_at timestamptz, p_status varchar, p_seats text
) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(p_key);
    INSERT INTO actions (table_id, number, seat, text, by_bot, created_at)
    SELECT p_table, p_number, p_seat, p_text, p_by_bot, p_created_at
    WHERE (SELECT coalesce(max(number) + 1, 0) FROM actions WHERE table_id = p_table) = p_number
      AND (SELECT status FROM tables WHERE id = p_table) = p_status
      AND (SELECT coalesce(string_agg(concat_ws(chr(31), seat, coalesce(bot, ''),
                  coalesce(name, ''), coalesce(token_hash, ''), coalesce(taken_over, ''),
                  coalesce(invite_hash, '')), chr(30) ORDER BY seat), '')
           FROM seats WHERE table_id = p_table) = p_seats;
    RETURN FOUND;
END
$$
"""

ANNOUNCE = r"""
CREATE OR REPLACE FUNCTION potluck_announce(p_channel text, p_payload text)
RETURNS void LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
    PERFORM pg_notify(p_channel, p_payload);
END
$$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(STORE_MOVE)
    op.execute(ANNOUNCE)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP FUNCTION IF EXISTS potluck_announce(text, text)")
    op.execute(
        "DROP FUNCTION IF EXISTS potluck_store_move(bigint, varchar, integer, integer, varchar,"
        " boolean, timestamptz, varchar, text)"
    )
