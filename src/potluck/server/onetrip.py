"""A move stored, and a table's copy caught up, in one round trip to PostgreSQL each.

The hot path of a server on PostgreSQL is a move's transaction, four of them per
player move (its bots' three). Through SQLAlchemy's pool it took five round trips
(the pool's ping, ``BEGIN``, the table's "move" lock, the checked insert,
``COMMIT``), and each round trip is a send and a receive on both sides: at
200 tables with ``--workers 2`` the database thread was about half of each
process's CPU. Here each database thread keeps one psycopg connection of its own
(autocommit), and a move is one prepared statement, one round trip and one
transaction, with other processes a call of migration 0006's function for one
move or a batch of them (``store_moves``; ``potluck.server.movewriter`` batches
the event loop's moves)::

    SELECT potluck_store_moves(<the tables' "move" keys>, <the rows' fields>,
                               <the status and seats each was checked against>)

which stores each with migration 0004's ``potluck_store_move``. That function
takes the table's "move" lock, then inserts the row only onto the table the
process checked the move against; its insert takes its snapshot when it starts,
after the lock is granted (each statement of a volatile PL/pgSQL function takes
its own), so it never misses a move committed while it waited. A game's last
move calls the same function from its own transaction, which also stores the
table's end (``cluster.store_move``). The values are bound by PostgreSQL (the
extended protocol), never pasted into the query: in a 3,000-move loop on one
connection this cost 0.10 ms of the client's CPU and 0.25 ms of PostgreSQL's per
move, against 0.14 and 0.31 ms for the previous query string of two statements
(the lock, then a prepared checked insert) whose values psycopg quoted in
Python. Only a stored move's notice is sent, then, queued for
``potluck.server.notices``, which sends the notices of many moves in one
transaction of its own (see there why not in the move's). A catch-up's read (the
table's status, seats and new actions) is one query string of three
``SELECT``\\ s (``ClientCursor``: its values quoted by libpq's rules).

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

#: Checked moves (each against the table this process knows, ``cluster.known``) in one
#: call and one transaction: the function of migration 0006, which stores each with
#: migration 0004's; one array per field, an answer per move (one move: arrays of one).
CHECKED_MOVES = (
    "SELECT potluck_store_moves(%s::bigint[], %s::varchar[], %s::integer[], %s::integer[],"
    " %s::varchar[], %s::boolean[], %s::timestamptz[], %s::varchar[], %s::text[])"
)
#: One process alone on the database: the row, nothing to check.
PLAIN_MOVE = (
    "INSERT INTO actions (table_id, number, seat, text, by_bot, created_at)"
    " VALUES (%s, %s, %s, %s, %s, %s)"
)
#: A table's status, its seats and its actions from number ``since`` on.
READ_SINCE = (
    "SELECT status, problem, changes FROM tables WHERE id = %(table)s;"
    " SELECT seat, kind, bot, name, token_hash, taken_over, invite_hash, account_id FROM seats"
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

    def _cursors_now(self) -> tuple[Any, Any]:
        """This thread's cursors: one binding values in PostgreSQL (moves), one quoting
        them into a query string of several statements (catch-ups' reads)."""
        cursors = getattr(self._local, "cursors", None)
        if cursors is None or cursors[0].connection.closed:
            import psycopg

            connection = psycopg.connect(
                self.conninfo, autocommit=True, application_name="potluck-moves", **KEEPALIVE
            )
            with self._guard:
                self._connections = [c for c in self._connections if not c.closed]
                self._connections.append(connection)
            cursors = self._local.cursors = (connection.cursor(), psycopg.ClientCursor(connection))
        return cursors

    def _run(self, query: str, values: Any, *, several: bool = False) -> Any:
        """Run ``query`` (one round trip; ``several``: a query string of several
        statements); a failure is a 503 that changed nothing (one transaction), and this
        thread's next query connects again."""
        import psycopg

        try:
            binding, quoting = self._cursors_now()
            if several:
                quoting.execute(query, values)
                return quoting
            binding.execute(query, values, prepare=True)
            return binding
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
        if expected is None:
            fields = (row["table_id"], row["number"], row["seat"], row["text"], row["by_bot"])
            self._run(PLAIN_MOVE, (*fields, row["created_at"]))
            return True
        stored = self.store_moves([(row, expected)])[0]  # a batch of one: one definition
        if stored and notice is not None:
            self.notices(channel).add(notice)
        return stored

    def store_moves(self, moves: list[tuple[dict[str, Any], tuple[int, str, str]]]) -> list[bool]:
        """Store several checked moves (``(row, expected)`` as ``store_move`` takes them, of
        different tables) in one call and one transaction; whether each was stored. Their
        notices are the caller's to queue (``potluck.server.movewriter``).

        A move checked against another count of actions than its number is not sent (as
        in ``store_move``): ``False``."""
        sent = [i for i, (row, expected) in enumerate(moves) if expected[0] == row["number"]]
        answers = [False] * len(moves)
        if not sent:
            return answers
        columns: list[list[Any]] = [[] for _ in range(9)]
        for index in sent:
            row, (_, status, seats) = moves[index]
            fields = (
                lock_key(row["table_id"], "move"),
                row["table_id"],
                row["number"],
                row["seat"],
                row["text"],
                row["by_bot"],
                row["created_at"],
                status,
                seats,
            )
            for column, value in zip(columns, fields, strict=True):
                column.append(value)
        found = self._run(CHECKED_MOVES, columns).fetchone()
        stored = list(found[0]) if found and found[0] is not None else []
        if len(stored) != len(sent):
            raise TableError(503, "storage_failed", "The server could not store this.")
        for index, was_stored in zip(sent, stored, strict=True):
            answers[index] = bool(was_stored)
        return answers

    def notices(self, channel: str) -> NoticeBatcher:
        """The batcher of ``channel``'s notices (made on first use)."""
        with self._guard:
            batcher = self._notices.get(channel)
            if batcher is None:
                batcher = self._notices[channel] = NoticeBatcher(self.conninfo, channel)
            return batcher

    def _drop_connection(self) -> None:
        """Close this thread's connection after a failure; its next query connects again."""
        cursors, self._local.cursors = getattr(self._local, "cursors", None), None
        if cursors is not None:
            with contextlib.suppress(Exception):
                cursors[0].connection.close()

    def read_since(
        self, table_id: str, since: int
    ) -> tuple[dict[str, Any], list[Seat], list[tuple[int, str]]]:
        """The table's status, problem and count of changes, its seats and its actions
        from number ``since`` on (``CatchingUp._read_since``'s answer)."""
        cursor = self._run(READ_SINCE, {"table": table_id, "since": since}, several=True)
        found = cursor.fetchall()
        if not found:
            raise TableError(404, "no_table", f"There is no table {table_id!r}.")
        status, problem, changes = found[0]
        cursor.nextset()
        seats = [Seat(*fields) for fields in cursor.fetchall()]
        cursor.nextset()
        actions = [(int(seat), str(text)) for seat, text in cursor.fetchall()]
        return {"status": status, "problem": problem, "changes": int(changes)}, seats, actions

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
