"""Per-client rate limits on creating tables, joining and moving, with ``limits``.

A moving window per client address (the proxy's ``X-Forwarded-For`` when the
server runs ``--behind-proxy``). Over the limit: 429 with ``Retry-After``.

    >>> rates = RateLimits(ServerSettings(create_rate="1/minute"))
    >>> rates.hit("create", "10.0.0.1")
    >>> rates.hit("create", "10.0.0.1")
    Traceback (most recent call last):
    ...
    potluck.server.live.TableError: Too many new tables: at most 1 per 1 minute; try again in 60 s.

Several processes over one PostgreSQL database (``potluck.server.cluster``) share
their counts without a database round trip per request: every request is still
checked in memory, and once a round (a second) each process adds the hits it took
since the last round to the ``rate_counts`` table and reads back the other
processes' hits of the same windows (``share``, one statement), which its checks
then count as their own. So the cluster as a whole allows about the configured
rate, late by at most one round.
"""

from __future__ import annotations

import functools
import math
import time
from collections import Counter
from typing import Any

from limits import RateLimitItem, parse_many, storage, strategies

from potluck.server.db import token_hash
from potluck.server.live import TableError
from potluck.server.settings import ServerSettings

WHAT = {
    "create": "new tables",
    "join": "seats taken",
    "move": "moves",
    "analysis": "move analyses",
    "login": "logins",
    "login_name": "failed logins of this name",
}


#: A rate that limits nothing (the load tool's, or a host's who limits at the proxy).
UNLIMITED = "none"


def parse_rates(text: str) -> list[RateLimitItem]:
    """``10/minute;100/hour`` as ``limits`` items; ``none``: no limit."""
    if text.strip().lower() == UNLIMITED:
        return []
    return parse_many(text)


def slot_width(seconds: int) -> int:
    """The width of the slots a window of ``seconds`` is shared in: a tenth of the
    window, at least a second (a minute's window: 10 rows per client and process).

    >>> slot_width(1), slot_width(60), slot_width(3600)
    (1, 6, 360)
    """
    return max(1, seconds // 10)


@functools.lru_cache(maxsize=65536)
def client_key(client: str) -> str:
    """What the shared table keeps of a client's address: its hash (as for ``creator``)."""
    return token_hash(client)


#: One round of a process in the cluster, in one statement: its new hits added to its own
#: rows (a row per process, kind, client, window and slot, the slot on the database's
#: clock, so the machines' clocks never matter); every tenth round (``sweep``) the rows
#: whose slot has left its window deleted (any process's: a dead one's too; ``SKIP
#: LOCKED``, so two processes deleting at once never wait for each other); and the other
#: processes' hits read back, summed per kind, client and window: a slot that straddles
#: the window's start counts for the part of it inside the window (its hits taken as
#: spread evenly over it). The read's snapshot predates this statement's own writes: it
#: reads only the others' rows anyway. ``slot_width`` is ``greatest(1, seconds / 10)``.
SHARE = """
WITH clock AS (SELECT extract(epoch FROM clock_timestamp())::float8 AS now),
added AS (
    INSERT INTO rate_counts (process, kind, client, seconds, slot, hits)
    SELECT %(process)s, u.kind, u.client, u.seconds,
        (floor(clock.now)::bigint / u.width) * u.width, u.hits
    FROM unnest(%(kinds)s::text[], %(clients)s::text[], %(seconds)s::int[],
        %(widths)s::int[], %(hits)s::int[]) AS u(kind, client, seconds, width, hits), clock
    ON CONFLICT (process, kind, client, seconds, slot)
    DO UPDATE SET hits = rate_counts.hits + excluded.hits
),
gone AS (
    DELETE FROM rate_counts WHERE %(sweep)s AND ctid IN (
        SELECT r.ctid FROM rate_counts r, clock
        WHERE r.slot + greatest(1, r.seconds / 10) + r.seconds < clock.now - 1
        FOR UPDATE OF r SKIP LOCKED
    )
)
SELECT r.kind, r.client, r.seconds,
    sum(r.hits * least(1.0, (r.slot + greatest(1, r.seconds / 10) - clock.now + r.seconds)
        / greatest(1, r.seconds / 10)))::float8,
    min(r.slot) + greatest(1, r.seconds / 10) + r.seconds - clock.now
FROM rate_counts r, clock
WHERE r.process <> %(process)s
    AND r.slot + greatest(1, r.seconds / 10) > clock.now - r.seconds
GROUP BY r.kind, r.client, r.seconds, clock.now
"""
#: Every this many rounds, ``SHARE`` deletes the rows that left their windows (the
#: reads skip them meanwhile).
SWEEP_EVERY = 10


class RateLimits:
    """The server's limits, counted in memory; with several processes, the others'
    counts are added once a round (``share``)."""

    def __init__(self, settings: ServerSettings) -> None:
        self.rules: dict[str, list[RateLimitItem]] = {
            "create": parse_rates(settings.create_rate),
            "join": parse_rates(settings.join_rate),
            "move": parse_rates(settings.move_rate),
            "analysis": parse_rates(settings.analysis_rate),
            "login": parse_rates(settings.login_rate),
            "login_name": parse_rates(settings.login_name_rate),
        }
        # the in-memory storage runs a timer thread: none at all when nothing is limited
        self.limiter = (
            strategies.MovingWindowRateLimiter(storage.MemoryStorage())
            if any(self.rules.values())
            else None
        )
        #: This process's hits since its last round, per kind and client (``None``: this
        #: process shares nothing, being alone on its database).
        self.unshared: Counter[tuple[str, str]] | None = None
        #: The other processes' hits as of the last round, per kind, client key and window
        #: (seconds): their number, and when (``time.time()``) the oldest leaves the window.
        self.elsewhere: dict[tuple[str, str, int], tuple[int, float]] = {}
        self.rounds = 0

    @property
    def limited(self) -> bool:
        """Whether any rate is limited (else there is nothing to share)."""
        return self.limiter is not None

    def hit(self, kind: str, client: str) -> None:
        """Count one ``kind`` request of ``client``, or refuse it with 429."""
        self.check(kind, client)
        self.count(kind, client)

    def check(self, kind: str, client: str) -> None:
        """Refuse with 429 if one more ``kind`` request of ``client`` is over the limit,
        without counting it (``count`` does: for limits on failures only)."""
        rules = self.rules[kind]
        if self.limiter is None or not rules:
            return
        key = client_key(client) if self.elsewhere else ""
        for item in rules:
            others, leaves = self.elsewhere.get((kind, key, item.get_expiry()), (0, math.inf))
            if not self.limiter.test(item, kind, client, cost=1 + others):
                stats = self.limiter.get_window_stats(item, kind, client)
                mine = stats.remaining < item.amount  # some of the hits are this process's
                reset = min(stats.reset_time if mine else math.inf, leaves)
                if math.isinf(reset):
                    reset = time.time() + item.get_expiry()
                wait = max(1, math.ceil(reset - time.time()))
                per = f"{item.multiples} {item.GRANULARITY.name}"
                raise TableError(
                    429,
                    "too_many_requests",
                    f"Too many {WHAT[kind]}: at most {item.amount} per {per}; "
                    f"try again in {wait} s.",
                    {"Retry-After": str(wait)},
                )

    def count(self, kind: str, client: str) -> None:
        """Count one ``kind`` request of ``client`` (checked first with ``check``)."""
        rules = self.rules[kind]
        if self.limiter is None or not rules:
            return
        for item in rules:
            self.limiter.hit(item, kind, client)
        if self.unshared is not None:
            self.unshared[kind, client] += 1

    def start_sharing(self) -> None:
        """From now on, count this process's hits for the other processes (``share``)."""
        if self.unshared is None:
            self.unshared = Counter()

    def share_rows(self, taken: Counter[tuple[str, str]]) -> dict[str, list[Any]]:
        """``taken`` (hits per kind and client) as ``SHARE``'s arrays: a row per window
        of each kind."""
        rows: dict[str, list[Any]] = {
            "kinds": [],
            "clients": [],
            "seconds": [],
            "widths": [],
            "hits": [],
        }
        for (kind, client), hits in taken.items():
            for item in self.rules[kind]:
                rows["kinds"].append(kind)
                rows["clients"].append(client_key(client))
                rows["seconds"].append(item.get_expiry())
                rows["widths"].append(slot_width(item.get_expiry()))
                rows["hits"].append(hits)
        return rows

    def shared(self, counts: list[tuple[str, str, int, float, float]]) -> None:
        """Take the other processes' counts as ``SHARE`` reads them: kind, client key,
        window, hits (a slot straddling the window's start counts in part: rounded
        here), and in how many seconds the oldest slot leaves the window."""
        now = time.time()
        self.elsewhere = {
            (kind, client, int(seconds)): (round(hits), now + float(leaves_in))
            for kind, client, seconds, hits, leaves_in in counts
            if round(hits) > 0
        }

    async def share(self, connection: Any, process: str) -> None:
        """One round of ``process`` on ``connection`` (an autocommit psycopg
        ``AsyncConnection`` to PostgreSQL): add this process's hits since the last round
        to the table and read the others' back (``SHARE``: one statement). If it fails,
        the hits wait for the next round."""
        taken, self.unshared = self.unshared or Counter(), Counter()
        self.rounds += 1
        sweep = self.rounds % SWEEP_EVERY == 1
        try:
            cursor = await connection.execute(
                SHARE, {"process": process, "sweep": sweep, **self.share_rows(taken)}
            )
            counts = await cursor.fetchall()
        except BaseException:
            self.unshared.update(taken)
            raise
        self.shared(counts)
