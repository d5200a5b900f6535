"""Several server processes over one PostgreSQL database: who runs a table, and who hears.

PostgreSQL does all the coordination; there is no protocol of our own:

- **The truth is the action log.** Any process may take a player's move: it
  stores it in a transaction that first takes the table's transaction advisory
  lock (``pg_advisory_xact_lock``) and checks that the log has exactly as many
  actions as its copy of the game. If another process stored one meanwhile, the
  move is not stored (:class:`StaleTableError`): the process reads the new actions from the
  log, replays them, and checks the move again. So moves are serialised per
  table, and none is ever applied to an outdated state.
- **One owner runs a table's bots and timers**: the process holding the table's
  session advisory lock (``pg_try_advisory_lock``) on its lock connection. The
  lock goes with the connection, so when a process dies PostgreSQL frees its
  tables at once (TCP keepalives bound the wait when a whole machine vanishes),
  and the other processes claim them on their next round (every second),
  replay the log and let the bots move on.
- **Fan-out by LISTEN/NOTIFY**: after every change a process sends
  ``NOTIFY potluck_tables, '<sender> <table> [<number> <seat> <action>]'``
  (a stored move's line carries the move; a busy process sends many moves' lines
  in one notice, ``potluck.server.notices``); every other process applies the
  move to its copy of that table, or reads the table's new actions and seats
  from the database, and pushes them to its own WebSockets, so a browser may be
  connected to any process.

    cluster = Cluster(engine.url, service)
    await cluster.start()       # in the app's lifespan; cluster.stop() at the end
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import text

from potluck.server.live import ACTIVE, LiveTable, Seat, TableError

if TYPE_CHECKING:
    from sqlalchemy.engine import URL, Connection

log = logging.getLogger("potluck.server")

CHANNEL = "potluck_tables"
#: A vanished machine's connections are noticed within about 10 s (idle 4 s, 3 probes 2 s apart).
KEEPALIVE: dict[str, Any] = {
    "keepalives": 1,
    "keepalives_idle": 4,
    "keepalives_interval": 2,
    "keepalives_count": 3,
}


#: Every this many claim rounds (seconds), the tables a process runs are checked
#: against the log (``TableService.check_owned``): a lost notice costs a few seconds.
CHECK_EVERY = 5


class StaleTableError(TableError):
    """The table's log moved on in another process: read it, then try again."""

    def __init__(self) -> None:
        super().__init__(
            409, "moved_on", "The table moved on meanwhile (another server took a move)."
        )


@functools.lru_cache(maxsize=65536)  # the claim round asks for every table's, every second
def lock_key(table_id: str, purpose: str = "owner") -> int:
    """An advisory lock key of the table: a signed 64-bit hash of its id and ``purpose``
    (``owner``: who runs it; ``move``: who stores a move now; two keys, so the owner's
    lock never blocks a move)."""
    digest = hashlib.blake2b(f"potluck-{purpose}:{table_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


#: The table's "move" lock, held until the transaction ends.
MOVE_LOCK = text("SELECT pg_advisory_xact_lock(:key)")
#: What the stored table is now: its number of actions, its status and its seats
#: (``seats_fingerprint``). A statement of its own, after ``MOVE_LOCK``: a statement's
#: snapshot is taken when it starts, before a lock it waits for is granted.
#: (The log's length is its last number + 1: numbers run from 0 without a gap, and the
#: primary key's index finds the last at once, where counting reads the whole log.)
_LENGTH = "(SELECT coalesce(max(number) + 1, 0) FROM actions WHERE table_id = :table)"
_SEATS = (
    "(SELECT coalesce(string_agg(concat_ws(chr(31), seat, coalesce(bot, ''),"
    " coalesce(name, ''), coalesce(token_hash, ''), coalesce(taken_over, ''),"
    " coalesce(invite_hash, '')), chr(30) ORDER BY seat), '') FROM seats"
    " WHERE table_id = :table)"
)
STORED = text(f"SELECT {_LENGTH}, (SELECT status FROM tables WHERE id = :table), {_SEATS}")
#: A move's row, stored only onto the table as the process knows it: migration 0004's
#: function takes the table's "move" lock, then inserts the row only if the stored
#: log, status and seats are the ones given (the one definition of that check; the
#: event loop's moves call it too, ``potluck.server.onetrip``). False: the table moved
#: on (``StaleTableError``).
STORE_MOVE = text(
    "SELECT potluck_store_move(:key, :table, :number, :seat, :text, :by_bot, :created_at,"
    " :status, :seats)"
)
#: The move's notice, sent when its transaction commits (only once it is stored).
NOTIFY = text("SELECT pg_notify(CAST(:channel AS text), CAST(:payload AS text))")


def seats_fingerprint(seats: list[Seat]) -> str:
    """The seats as ``STORED`` reads them from the database (every field a change touches)."""
    return "\x1e".join(
        "\x1f".join(
            (
                str(s.seat),
                s.bot or "",
                s.name or "",
                s.token_hash or "",
                s.taken_over or "",
                s.invite_hash or "",
            )
        )
        for s in seats
    )


def known(table: LiveTable) -> tuple[int, str, str]:
    """What this process knows of ``table``: actions, status, seats (see ``hold``)."""
    return len(table.state.history), table.status, seats_fingerprint(table.seats)


def hold(connection: Connection, table_id: str, expected: tuple[int, str, str]) -> None:
    """Serialise this transaction with every other change of the table, in any process:
    take the table's "move" advisory lock until the transaction ends, and check that
    the stored table is the one this process changes (``known``, taken under the
    table's lock). If another process changed it meanwhile, nothing may be written:
    ``StaleTableError`` (catch up from the log, check again)."""
    connection.execute(MOVE_LOCK, {"key": lock_key(table_id, "move")})
    row = connection.execute(STORED, {"table": table_id}).one()
    if (row[0], row[1], row[2] or "") != expected:
        raise StaleTableError()


#: The claim of a list of tables (ids, lock keys): those still open or running are
#: locked if nobody holds them (``CASE`` keeps the lock off the others: a condition's
#: order is PostgreSQL's to choose); returned are the ones taken and the ones ended.
CLAIM = """
SELECT id, locked, status FROM (
    SELECT c.id, t.status,
        CASE WHEN t.status IN ('open', 'running') THEN pg_try_advisory_lock(c.k)
        ELSE false END AS locked
    FROM unnest(%s::text[], %s::bigint[]) AS c(id, k) JOIN tables t ON t.id = c.id
    OFFSET 0
) AS claimed WHERE locked OR status NOT IN ('open', 'running')
"""


def store_move(
    connection: Connection,
    row: dict[str, Any],
    expected: tuple[int, str, str],
    payload: str | None,
) -> None:
    """Store a move's ``row`` (an ``actions`` row) in this transaction, serialised like
    ``hold``, with its notice ``payload`` (``Cluster.payload``) if there are listeners.
    ``StaleTableError`` if the stored table is not ``expected`` (``known``)."""
    table_id = row["table_id"]
    if expected[0] != row["number"]:
        raise StaleTableError()
    values = {
        "key": lock_key(table_id, "move"),
        "table": table_id,
        "number": row["number"],
        "seat": row["seat"],
        "text": row["text"],
        "by_bot": row["by_bot"],
        "created_at": row["created_at"],
        "status": expected[1],
        "seats": expected[2],
    }
    if not connection.execute(STORE_MOVE, values).scalar():
        raise StaleTableError()
    if payload is not None:
        connection.execute(NOTIFY, {"channel": CHANNEL, "payload": payload})


#: One action as a notice carries it: its number in the log, its seat, its text.
Move = tuple[int, int, str]


def parse_notice(payload: str) -> tuple[str, str, Move | None]:
    """A notice's sender, table and action (if it carries one).

    >>> parse_notice("host:1:ab Xy12ab_c 7 2 spring-rolls")
    ('host:1:ab', 'Xy12ab_c', (7, 2, 'spring-rolls'))
    >>> parse_notice("host:1:ab Xy12ab_c")
    ('host:1:ab', 'Xy12ab_c', None)
    """
    parts = payload.split(" ", 4)
    sender, table_id = parts[0], parts[1] if len(parts) > 1 else ""
    if len(parts) == 5 and parts[2].isdigit() and parts[3].isdigit():
        return sender, table_id, (int(parts[2]), int(parts[3]), parts[4])
    return sender, table_id, None


class Member(Protocol):
    """What the cluster asks of this process's tables (``TableService`` is one). The
    cluster sits under the table service and knows it only through this protocol, so
    storage and notices never import the service above them."""

    tables: dict[str, LiveTable]

    def changed_elsewhere(self, table_id: str, move: Move | None = None) -> None:
        """Another process changed ``table_id`` (by ``move``, if its notice carried one)."""

    def ended_elsewhere(self, table_id: str, status: str) -> None:
        """``table_id`` ended in another process (``status`` as stored)."""

    async def check_owned(self) -> None:
        """Check the tables this process runs against the log."""

    async def adopt(self, table_id: str) -> None:
        """This process now runs ``table_id``: catch it up, then let its bots move."""


class Cluster:
    """This process's part in a cluster: its owned tables, its listener, its claims."""

    def __init__(self, url: URL, service: Member, *, claim_every: float = 1.0) -> None:
        self.conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self.service = service
        self.claim_every = claim_every
        self.name = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        #: The tables whose session lock this process holds: it runs their bots and timers.
        self.owned: set[str] = set()
        #: The tables whose claim is on its way to the database.
        self._claiming: set[str] = set()
        self._tasks: list[asyncio.Task[None]] = []
        self._connections: dict[str, Any] = {}
        #: Finished tables' lock keys not yet unlocked (``release_soon``), and the task
        #: unlocking them.
        self._to_release: list[int] = []
        self._releaser: asyncio.Task[None] | None = None
        #: Called once a round with the lock connection and this process's name (the
        #: rate limits' counts, ``RateLimits.share``); a failure waits for the next round.
        self.every_round: list[Callable[[Any, str], Awaitable[None]]] = []

    async def _connect(self, role: str) -> Any:
        import psycopg

        old = self._connections.pop(role, None)
        if old is not None:
            with contextlib.suppress(Exception):
                await old.close()
        connection = await psycopg.AsyncConnection.connect(
            self.conninfo, autocommit=True, **KEEPALIVE
        )
        self._connections[role] = connection
        return connection

    async def start(self) -> None:
        """Connect, listen, and claim this process's first tables."""
        await self._connect("locks")
        await self._connect("sender")
        listener = await self._connect("listener")
        await listener.execute(f"LISTEN {CHANNEL}")
        self._tasks = [
            asyncio.create_task(self._listen()),
            asyncio.create_task(self._claim_loop()),
        ]

    async def stop(self) -> None:
        if self._releaser is not None and not self._releaser.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._releaser, 5)
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for connection in self._connections.values():
            with contextlib.suppress(Exception):
                await connection.close()
        self.owned.clear()

    def owns(self, table_id: str) -> bool:
        return table_id in self.owned

    def payload(self, table_id: str, move: Move | None = None) -> str:
        """A notice's text: this process, the table, and the one action it carries."""
        payload = f"{self.name} {table_id}"
        if move is not None:
            payload += f" {move[0]} {move[1]} {move[2]}"
        return payload

    async def notify(self, table_id: str, move: Move | None = None) -> None:
        """Tell the other processes that ``table_id`` changed (a lost notice only delays).

        ``move``: the change was this one action, ``(number, seat, text)``; a process
        whose copy holds exactly ``number`` actions applies it without reading the log.
        """
        payload = self.payload(table_id, move)
        try:
            await self._connections["sender"].execute(
                "SELECT pg_notify(%s, %s)", (CHANNEL, payload)
            )
        except Exception as error:
            log.warning("could not notify the other servers of %s: %s", table_id, error)
            with contextlib.suppress(Exception):
                await self._connect("sender")

    async def _listen(self) -> None:
        while True:
            try:
                mine = self.name + " "  # PostgreSQL sends our own notices back too
                async for notice in self._connections["listener"].notifies():
                    if notice.payload.startswith(mine):
                        continue
                    # one line per move: a process's stored moves come in batches
                    # (``potluck.server.notices``), other changes one to a notice
                    for line in notice.payload.split("\n"):
                        sender, table_id, move = parse_notice(line)
                        if sender != self.name and table_id:
                            self.service.changed_elsewhere(table_id, move)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the connection broke: listen again, catch up
                log.warning("the cluster listener failed (%s); reconnecting", error)
                await asyncio.sleep(1)
                with contextlib.suppress(Exception):
                    listener = await self._connect("listener")
                    await listener.execute(f"LISTEN {CHANNEL}")
                    for table_id in list(self.service.tables):
                        self.service.changed_elsewhere(table_id)

    async def claim(self, table_ids: list[str]) -> list[str]:
        """Take the session locks of those of ``table_ids`` still open or running in the
        database that nobody holds; the ones taken. A table that ended meanwhile is not
        locked: its copy here learns its status (``TableService.ended_elsewhere``), so it
        is not asked about again.

        A table already being claimed (the claim round and a new table's own claim at
        once) is left out: a session lock taken twice would need two unlocks.
        """
        busy = self.owned | self._claiming  # once: the round asks about every table
        wanted = [t for t in dict.fromkeys(table_ids) if t not in busy]
        if not wanted:  # still ask: a lock connection that broke took our locks with it
            await self._connections["locks"].execute("SELECT 1")
            return []
        self._claiming.update(wanted)
        try:
            cursor = await self._connections["locks"].execute(
                CLAIM, (wanted, [lock_key(table_id) for table_id in wanted])
            )
            rows = await cursor.fetchall()
        finally:
            self._claiming.difference_update(wanted)
        taken = [str(table_id) for table_id, locked, _ in rows if locked]
        self.owned.update(taken)
        for table_id, locked, status in rows:
            if not locked:
                self.service.ended_elsewhere(str(table_id), str(status))
        return taken

    def release_soon(self, table_id: str) -> None:
        """Give up a finished table's lock without waiting for it: unlocked in the
        background, with the others finished meanwhile, in one query. A player's last
        move used to wait for its table's unlock, one query at a time on the lock
        connection (shared with the claim round): when hundreds of tables ended
        together at 1,000 tables, those last moves took 5 to 14 s. A finished table
        needs no owner, so a lock held a moment longer costs nothing."""
        if table_id not in self.owned:
            return
        self.owned.discard(table_id)
        self._to_release.append(lock_key(table_id))
        if self._releaser is None or self._releaser.done():
            self._releaser = asyncio.create_task(self._release_pending())

    async def _release_pending(self) -> None:
        while self._to_release:
            keys, self._to_release = self._to_release, []
            try:
                await self._connections["locks"].execute(
                    "SELECT pg_advisory_unlock(key) FROM unnest(%s::bigint[]) AS key", (keys,)
                )
            except Exception as error:  # a broken lock connection took its locks with it
                log.warning("could not unlock %d finished tables: %s", len(keys), error)

    async def release(self, table_id: str) -> None:
        """Give up a finished table's lock, and wait until it is given up."""
        self.release_soon(table_id)
        if self._releaser is not None:
            await self._releaser

    async def _claim_loop(self) -> None:
        rounds = 0
        while True:
            rounds += 1
            if rounds % CHECK_EVERY == 0:
                try:
                    await self.service.check_owned()
                except Exception as error:  # the next round tries again
                    log.warning("could not check this process's tables: %s", error)
            try:
                orphans = [
                    table.id
                    for table in list(self.service.tables.values())
                    if table.status in ACTIVE and table.id not in self.owned
                ]
                taken = await self.claim(orphans)
                for table_id in taken:  # caught up by ``adopt`` before their bots move
                    if table_id in self.service.tables:
                        self.service.tables[table_id].stale = True
                for table_id in taken:
                    await self.service.adopt(table_id)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the lock connection is gone: so are our locks
                log.warning("the cluster's lock connection failed (%s); reconnecting", error)
                self.owned.clear()
                with contextlib.suppress(Exception):
                    await self._connect("locks")
            for task in self.every_round:
                try:
                    await task(self._connections["locks"], self.name)
                except asyncio.CancelledError:
                    raise
                except Exception as error:
                    log.warning("a cluster round's task failed: %s", error)
            await asyncio.sleep(self.claim_every)
