"""Stored moves' notices to the other server processes, sent in batches.

Every move a process stores is announced to the other processes (``NOTIFY``, see
``potluck.server.cluster``). One notice per move cost a transaction of its own:
a round trip from a database thread, a commit in PostgreSQL, and one delivery
to every listening process, each parsed there; at 1,000 tables that is some
1,500 a second. Here the database threads only queue a move's notice line; one
thread of its own sends whatever has queued meanwhile as one notice, its lines
joined by newlines (under PostgreSQL's 8,000-byte limit for a payload), in one
transaction that does not wait for the log flush. Batches grow with the load
(while one is sent the next gathers), so a quiet server sends each move at once
and a busy one sends tens of moves in one notice. The lines of one table keep
their order (one queue, one sender), which the other processes rely on.

    batcher = NoticeBatcher(conninfo, "potluck_tables")
    batcher.add("host:1:ab Xy12ab_c 7 2 spring-rolls")  # returns at once
    batcher.close()                                       # sends what is queued, then stops
"""

from __future__ import annotations

import contextlib
import logging
import threading
from typing import Any

from potluck.server.cluster import KEEPALIVE

log = logging.getLogger("potluck.server")

#: PostgreSQL refuses a payload of 8,000 bytes or more; a little room is kept.
MAX_PAYLOAD_BYTES = 7_900

#: A notice in a transaction of its own that does not wait for the log flush (the
#: function of migration 0004): PostgreSQL commits the transactions that notify one
#: at a time, holding a database-wide lock through each one's commit, so a notice
#: inside a move's transaction made the whole cluster store one move per log flush.
ANNOUNCE = "SELECT potluck_announce(%s, %s)"


def batches(lines: list[str], limit: int = MAX_PAYLOAD_BYTES) -> list[str]:
    """``lines`` joined by newlines into as few payloads of at most ``limit`` bytes as
    their order allows (a longer line goes alone: PostgreSQL then refuses it, logged).

    >>> batches(["a 1", "b 2", "c 3"], limit=7)
    ['a 1\\nb 2', 'c 3']
    """
    payloads: list[str] = []
    current: list[str] = []
    size = 0
    for line in lines:
        length = len(line.encode())
        if current and size + 1 + length > limit:
            payloads.append("\n".join(current))
            current, size = [], 0
        size += length + (1 if current else 0)
        current.append(line)
    if current:
        payloads.append("\n".join(current))
    return payloads


class NoticeBatcher:
    """Queues notice lines from any thread; one thread sends them in batches."""

    def __init__(self, conninfo: str, channel: str) -> None:
        self.conninfo = conninfo
        self.channel = channel
        self._pending: list[str] = []
        self._wake = threading.Condition()
        self._closing = False
        self._connection: Any = None
        self._thread: threading.Thread | None = None
        #: Lines queued, and lines whose notice was sent or failed; notices sent.
        self.queued_lines = 0
        self.done_lines = 0
        self.sent_notices = 0

    def add(self, line: str) -> None:
        """Queue one notice line (one move); it is sent with the next batch."""
        if "\n" in line:  # would read as two lines: never from a move's canonical text
            raise ValueError(f"a notice line has no newline: {line!r}")
        with self._wake:
            if self._closing:
                return
            self._pending.append(line)
            self.queued_lines += 1
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="potluck-notices", daemon=True
                )
                self._thread.start()
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._pending and not self._closing:
                    self._wake.wait()
                lines, self._pending = self._pending, []
                closing = self._closing
            for payload in batches(lines):
                self._send(payload)
            if closing and not lines:
                return

    def _send(self, payload: str) -> None:
        """One notice; a failure is logged and its moves are not announced (a lost
        notice only delays the other processes: the owner's check of its tables, or the
        table's next notice, brings them up to date)."""
        lines = payload.count("\n") + 1
        try:
            import psycopg

            if self._connection is None or self._connection.closed:
                self._connection = psycopg.connect(
                    self.conninfo,
                    autocommit=True,
                    application_name="potluck-notices",
                    **KEEPALIVE,
                )
            self._connection.execute(ANNOUNCE, (self.channel, payload), prepare=True)
            self.sent_notices += 1
        except Exception as error:  # whatever failed, the thread goes on with the next batch
            log.warning("could not notify the other servers of %d moves: %s", lines, error)
            with contextlib.suppress(Exception):
                self._connection.close()
            self._connection = None
        finally:
            with self._wake:
                self.done_lines += lines
                self._wake.notify_all()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until what is queued now was sent (or failed); whether it was in time."""
        with self._wake:
            target = self.queued_lines
            return self._wake.wait_for(lambda: self.done_lines >= target, timeout)

    def close(self) -> None:
        """Send what is queued, then stop the thread and close its connection."""
        with self._wake:
            self._closing = True
            thread = self._thread
            self._wake.notify()
        if thread is not None:
            thread.join(timeout=5)
        if self._connection is not None:
            with contextlib.suppress(Exception):
                self._connection.close()
