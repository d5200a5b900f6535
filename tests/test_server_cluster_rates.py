"""Rate limits that hold across server processes (docs/web.md, "What is limited").

Each process counts in memory; once a round it adds its new hits to ``rate_counts``
and reads the others' back (``RateLimits.share``). The unit tests share through a fake
of that table; the PostgreSQL test (``POTLUCK_TEST_DATABASE_URL``, skipped without it)
runs two clustered apps on one database and sees their combined requests refused.
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from potluck.server import TableService
from potluck.server.app import create_app
from potluck.server.db import make_engine, migrate
from potluck.server.live import TableError
from potluck.server.ratelimit import RateLimits, client_key, slot_width
from potluck.server.settings import ServerSettings
from webtest import OPEN, SHARED_URL, fresh_database_url

postgres = pytest.mark.skipif(
    SHARED_URL is None or not SHARED_URL.startswith("postgresql"),
    reason="needs POTLUCK_TEST_DATABASE_URL (PostgreSQL)",
)


class FakeCounts:
    """``rate_counts`` and ``SHARE`` in Python, on a clock of its own (``now``)."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, str, str, int, int], int] = defaultdict(int)
        self.now = 1000.5
        self.fail = False

    async def execute(self, _sql: str, params: dict[str, Any]) -> FakeCounts:
        if self.fail:
            raise OSError("the database went away")
        columns = zip(
            params["kinds"],
            params["clients"],
            params["seconds"],
            params["widths"],
            params["hits"],
            strict=True,
        )
        for kind, client, seconds, width, hits in columns:
            slot = int(self.now) // width * width
            self.rows[params["process"], kind, client, seconds, slot] += hits
        held: dict[tuple[str, str, int], list[tuple[float, float]]] = defaultdict(list)
        for (process, kind, client, seconds, slot), hits in self.rows.items():
            width = slot_width(seconds)
            inside = (slot + width - (self.now - seconds)) / width
            if process != params["process"] and inside > 0:
                held[kind, client, seconds].append((slot, hits * min(1.0, inside)))
        self.result = [
            (
                kind,
                client,
                seconds,
                sum(h for _, h in slots),
                min(slots)[0] + slot_width(seconds) + seconds - self.now,
            )
            for (kind, client, seconds), slots in held.items()
        ]
        return self

    async def fetchall(self) -> list[tuple[str, str, int, float, float]]:
        return self.result


def _pair(move_rate: str) -> tuple[RateLimits, RateLimits]:
    settings = ServerSettings(move_rate=move_rate)
    first, second = RateLimits(settings), RateLimits(settings)
    first.start_sharing()
    second.start_sharing()
    return first, second


def _share(rates: RateLimits, counts: FakeCounts, process: str) -> None:
    asyncio.run(rates.share(counts, process))


def _refused(rates: RateLimits, client: str = "10.0.0.1") -> TableError | None:
    try:
        rates.hit("move", client)
    except TableError as error:
        return error
    return None


def test_two_processes_together_get_the_configured_rate_once_they_shared() -> None:
    counts = FakeCounts()
    first, second = _pair("5/minute")
    for _ in range(3):
        assert _refused(first) is None
    assert _refused(second) is None  # 4 in all, but nobody has shared yet
    _share(first, counts, "first")
    _share(second, counts, "second")  # it learns the first's 3
    assert _refused(second) is None  # 3 + 2 = 5
    refused = _refused(second)
    assert refused is not None
    assert refused.status == 429
    assert refused.code == "too_many_requests"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert _refused(second, "10.0.0.2") is None  # another client counts apart
    _share(second, counts, "second")
    _share(first, counts, "first")  # and the first learns the second's 2 (3 + 2)
    refused = _refused(first)
    assert refused is not None
    assert refused.status == 429


def test_the_others_hits_leave_the_window_and_set_retry_after() -> None:
    counts = FakeCounts()
    first, second = _pair("2/minute")
    assert _refused(first) is None
    assert _refused(first) is None
    _share(first, counts, "first")
    _share(second, counts, "second")
    refused = _refused(second)  # none of its own: the wait is until the first's leave
    assert refused is not None
    wait = int(refused.headers["Retry-After"])
    assert 60 <= wait <= 66  # a minute after their slot (6 s wide) ends
    counts.now += 30  # half a minute on, they still count
    _share(second, counts, "second")
    assert _refused(second) is not None
    counts.now += 36  # then their slot has left the window
    _share(second, counts, "second")
    assert second.elsewhere == {}
    assert _refused(second) is None


def test_hits_whose_round_failed_are_shared_in_the_next() -> None:
    counts = FakeCounts()
    first, second = _pair("3/minute")
    for _ in range(3):
        assert _refused(first) is None
    counts.fail = True
    with pytest.raises(OSError, match="went away"):
        _share(first, counts, "first")
    counts.fail = False
    _share(first, counts, "first")
    _share(second, counts, "second")
    assert _refused(second) is not None


def test_a_process_alone_shares_nothing() -> None:
    rates = RateLimits(ServerSettings(move_rate="5/minute"))
    rates.hit("move", "10.0.0.1")
    assert rates.unshared is None
    assert rates.elsewhere == {}


def _clustered_app(url: str, **limits: Any) -> tuple[Any, TableService]:
    settings = ServerSettings(**{**OPEN.__dict__, **limits})
    engine = make_engine(url)
    migrate(engine)
    service = TableService(engine, bot_delay=0, settings=settings, cluster=True)
    assert service.cluster is not None
    service.cluster.claim_every = 0.05  # rounds of 50 ms: the test waits less
    service.load_all()
    return create_app(service=service, sweep_every=3600), service


@postgres
def test_two_processes_on_postgresql_refuse_their_combined_requests(tmp_path: Path) -> None:
    url = fresh_database_url(tmp_path)
    (one, one_service), (two, two_service) = (
        _clustered_app(url, move_rate="4/minute") for _ in "12"
    )
    with TestClient(one) as first, TestClient(two) as second:
        move = {"action": "zzz", "decision": 0}
        for _ in range(3):  # no such table: 404, but each move counts
            assert first.post("/api/tables/nothere/actions", json=move).status_code == 404
        refused = _until_refused(second, move)
        assert refused.status_code == 429
        assert refused.json()["error"] == "too_many_requests"
        assert 1 <= int(refused.headers["retry-after"]) <= 61
        taken_by_second = refused.extensions["taken"]
        refused = _until_refused(first, move)
        assert refused.status_code == 429
        taken_by_first = refused.extensions["taken"]
        # 4 taken in all, one more at most if a process moved before the other's round
        assert taken_by_second >= 1
        assert 3 + taken_by_second + taken_by_first <= 5
    for service in (one_service, two_service):
        service.engine.dispose()


def _until_refused(client: TestClient, move: dict[str, Any]) -> Any:
    """Move (on no table) until refused, 200 ms apart (the rounds are 50 ms): the
    refusal, with the number of moves taken before it in ``extensions["taken"]``."""
    deadline = time.monotonic() + 10
    taken = 0
    while True:
        answer = client.post("/api/tables/nothere/actions", json=move)
        if answer.status_code == 429 or time.monotonic() > deadline:
            answer.extensions["taken"] = taken
            return answer
        assert answer.status_code == 404, answer.text
        taken += 1
        time.sleep(0.2)


@postgres
def test_the_round_statement_counts_the_others_slots_inside_the_window(tmp_path: Path) -> None:
    """``SHARE`` on PostgreSQL: another process's slot inside the window counts whole,
    one straddling its start in part, one out of it not at all (and is deleted), and
    this process's own rows are not read back."""
    import psycopg
    from sqlalchemy.engine import make_url

    url = fresh_database_url(tmp_path)
    migrate(make_engine(url))
    conninfo = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    rates = RateLimits(ServerSettings(move_rate="100/minute"))
    key = client_key("10.0.0.1")

    async def round_trip() -> tuple[dict[tuple[str, str, int], tuple[int, float]], int]:
        async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as db:
            cursor = await db.execute("SELECT floor(extract(epoch FROM clock_timestamp()))")
            row = await cursor.fetchone()
            assert row is not None
            now = int(row[0])
            for process, slot, hits in [
                ("other", now // 6 * 6, 5),  # inside: 5
                ("other", now - 61, 12),  # straddles the start: 4 to 5 s of its 6 inside
                ("other", now - 80, 7),  # out of the window
                ("me", now // 6 * 6, 50),  # this process's own
            ]:
                await db.execute(
                    "INSERT INTO rate_counts VALUES (%s, 'move', %s, 60, %s, %s)",
                    (process, key, slot, hits),
                )
            await rates.share(db, "me")
            cursor = await db.execute("SELECT count(*) FROM rate_counts")
            row = await cursor.fetchone()
            assert row is not None
            return rates.elsewhere, int(row[0])

    elsewhere, left = asyncio.run(round_trip())
    hits, leaves = elsewhere["move", key, 60]
    assert 5 + 8 <= hits <= 5 + 10  # 12 * (4 to 5) / 6, rounded
    assert time.time() < leaves < time.time() + 6  # the straddling slot leaves first
    assert left == 3  # the slot out of the window was deleted
