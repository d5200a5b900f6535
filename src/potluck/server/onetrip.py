"""A move stored, and a table's copy caught up, in one round trip to PostgreSQL each.

The hot path of a server on PostgreSQL is a move's transaction, four of them per
player move (its bots' three). Through SQLAlchemy's pool it took five round trips
(the pool's ping, ``BEGIN``, the table's "move" lock, the checked insert,
``COMMIT``), and each round trip is a send and a receive on both sides: at
200 tables with ``--workers 2`` the database thread was about half of each
process's CPU. Here the database thread keeps one psycopg connection of its own
(autocommit) and sends each move as one query string of two statements, which
PostgreSQL runs as one transaction::

    SELECT pg_advisory_xact_lock(<the table's "move" key>);
    WITH stored AS (INSERT INTO actions ... SELECT ... WHERE <the stored table is
                    the one this process checked the move against> RETURNING 1)
    SELECT 1 FROM stored

The second statement takes its snapshot when it starts, after the lock is
granted (in ``READ COMMITTED`` each statement of a query string takes its own),
exactly as ``potluck.server.cluster.store_move``'s separate statements do. Only
a stored move's notice is sent, then, queued for ``potluck.server.notices``,
which sends the notices of many moves in one transaction of its own (see there
why not in the move's).
The values are bound by psycopg (``ClientCursor``: quoted by libpq's rules),
never pasted in by us. A catch-up's read (the table's status, seats and new
actions) is likewise one query string of three ``SELECT``\\ s.

Each database thread has a connection of its own (a table's moves are stored one at
a time: each under the table's lock).

    writer = OneTrip(engine.url)
    stored = writer.store_move(row, expected, notice)  # False: the table moved on
"""

from __future__ import annotations

import contextlib
import logging
import threading
from typing import TYPE_CHECKING, Any

from potluck.server.cluster import KEEPALIVE, lock_key
from potluck.server.live import Seat, TableError
from potluck.server.notices import NoticeBatcher

if TYPE_CHECKING:
    from sqlalchemy.engine import URL

log = logging.getLogger("potluck.server")

#: The stored table as ``potluck.server.cluster.known`` has it (see ``_SEATS`` there).
_LENGTH = "(SELECT coalesce(max(number) + 1, 0) FROM actions WHERE table_id = %(table)s)"
_SEATS = (
    "(SELECT coalesce(string_agg(concat_ws(chr(31), seat, coalesce(bot, ''),"
    " coalesce(name, ''), coalesce(token_hash, ''), coalesce(taken_over, ''),"
    " coalesce(invite_hash, '')), chr(30) ORDER BY seat), '') FROM seats"
    " WHERE table_id = %(table)s)"
)
_ROW = (
    "INSERT INTO actions (table_id, number, seat, text, by_bot, created_at)"
    " SELECT %(table)s, %(number)s, %(seat)s, %(text)s, %(by_bot)s, %(created_at)s"
)
#: A move checked against the table this process knows (to run after the table's move
#: lock), prepared once per connection: parsing and planning it was a quarter of
#: PostgreSQL's CPU per move. ``$1``...``$8``: the row, then the status and seats known.
_PARAMETERS = ("table", "number", "seat", "text", "by_bot", "created_at", "status", "seats")
_TYPES = "varchar, integer, integer, varchar, boolean, timestamptz, varchar, text"
_CHECKED = (
    f"WITH stored AS ({_ROW} WHERE {_LENGTH} = %(number)s"
    " AND (SELECT status FROM tables WHERE id = %(table)s) = %(status)s"
    f" AND {_SEATS} = %(seats)s RETURNING 1)"
)
for _number, _name in enumerate(_PARAMETERS, 1):
    _CHECKED = _CHECKED.replace(f"%({_name})s", f"${_number}")
PREPARE = f"PREPARE potluck_move_quiet ({_TYPES}) AS {_CHECKED} SELECT 1 FROM stored"
_ARGUMENTS = ", ".join(f"%({name})s" for name in _PARAMETERS)
#: The table's move lock, then the checked move.
CHECKED_MOVE = f"SELECT pg_advisory_xact_lock(%(key)s); EXECUTE potluck_move_quiet({_ARGUMENTS})"
#: One process alone on the database: the row, nothing to check.
PLAIN_MOVE = _ROW
#: A table's status, its seats and its actions from number ``since`` on.
READ_SINCE = (
    "SELECT status, problem FROM tables WHERE id = %(table)s;"
    " SELECT seat, kind, bot, name, token_hash, taken_over, invite_hash FROM seats"
    " WHERE table_id = %(table)s ORDER BY seat;"
    " SELECT seat, text FROM actions WHERE table_id = %(table)s AND number >= %(since)s"
    " ORDER BY number"
)


def conninfo(url: URL) -> str:
    """libpq's connection string of SQLAlchemy's ``url`` (``postgresql+psycopg://...``)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


class OneTrip:
    """The database threads' own connections, for moves and catch-ups (see the module)."""

    def __init__(self, url: URL) -> None:
        self.conninfo = conninfo(url)
        self._local = threading.local()  # each thread's cursor (and its connection)
        self._connections: list[Any] = []
        self._guard = threading.Lock()
        self._notices: dict[str, NoticeBatcher] = {}  # one per channel

    def _cursor_now(self) -> Any:
        cursor = getattr(self._local, "cursor", None)
        if cursor is None or cursor.connection.closed:
            import psycopg

            connection = psycopg.connect(
                self.conninfo, autocommit=True, application_name="potluck-moves", **KEEPALIVE
            )
            with self._guard:
                self._connections = [c for c in self._connections if not c.closed]
                self._connections.append(connection)
            cursor = psycopg.ClientCursor(connection)
            try:
                cursor.execute(PREPARE)
            except psycopg.Error:
                connection.close()
                raise
            self._local.cursor = cursor
        return cursor

    def _run(self, query: str, values: dict[str, Any]) -> Any:
        """Run ``query`` (one round trip); a failure is a 503 that changed nothing (the
        query string is one transaction), and this thread's next query connects again."""
        import psycopg

        try:
            cursor = self._cursor_now()
            cursor.execute(query, values)
            return cursor
        except psycopg.Error as error:
            log.error("a database query failed: %s", error)
            self._drop_connection()
            raise TableError(
                503, "storage_failed", "The server could not store this; nothing changed."
            ) from None

    def store_move(
        self,
        row: dict[str, Any],
        expected: tuple[int, str, str] | None,
        notice: str | None,
        channel: str = "",
    ) -> bool:
        """Store a move's ``row`` (an ``actions`` row); whether it was stored.

        ``expected``: with other processes, the table as this process knows it
        (``cluster.known``): stored only onto that, then ``notice`` queued for
        ``channel`` (sent with the next batch, ``NoticeBatcher``); ``False`` if the
        stored table is not that one.
        """
        values = {
            "table": row["table_id"],
            "number": row["number"],
            "seat": row["seat"],
            "text": row["text"],
            "by_bot": row["by_bot"],
            "created_at": row["created_at"],
        }
        if expected is None:
            self._run(PLAIN_MOVE, values)
            return True
        if expected[0] != row["number"]:
            return False
        values |= {
            "key": lock_key(row["table_id"], "move"),
            "status": expected[1],
            "seats": expected[2],
        }
        cursor = self._run(CHECKED_MOVE, values)
        cursor.nextset()  # past the lock's result, to the insert's
        stored = bool(cursor.fetchall())
        if stored and notice is not None:
            self.notices(channel).add(notice)
        return stored

    def notices(self, channel: str) -> NoticeBatcher:
        """The batcher of ``channel``'s notices (made on first use)."""
        with self._guard:
            batcher = self._notices.get(channel)
            if batcher is None:
                batcher = self._notices[channel] = NoticeBatcher(self.conninfo, channel)
            return batcher

    def _drop_connection(self) -> None:
        """Close this thread's connection after a failure; its next query connects again."""
        cursor, self._local.cursor = getattr(self._local, "cursor", None), None
        if cursor is not None:
            with contextlib.suppress(Exception):
                cursor.connection.close()

    def read_since(
        self, table_id: str, since: int
    ) -> tuple[dict[str, Any], list[Seat], list[tuple[int, str]]]:
        """The table's status and problem, its seats and its actions from number
        ``since`` on (``CatchingUp._read_since``'s answer)."""
        cursor = self._run(READ_SINCE, {"table": table_id, "since": since})
        found = cursor.fetchall()
        if not found:
            raise TableError(404, "no_table", f"There is no table {table_id!r}.")
        status, problem = found[0]
        cursor.nextset()
        seats = [Seat(*fields) for fields in cursor.fetchall()]
        cursor.nextset()
        actions = [(int(seat), str(text)) for seat, text in cursor.fetchall()]
        return {"status": status, "problem": problem}, seats, actions

    def close(self) -> None:
        """Send the queued notices, then close every thread's connection (at the end;
        each thread's next query would open a new one)."""
        with self._guard:
            connections, self._connections = self._connections, []
            batchers, self._notices = list(self._notices.values()), {}
        for batcher in batchers:
            batcher.close()
        for connection in connections:
            with contextlib.suppress(Exception):
                connection.close()
