"""Stored moves' notices in batches (``potluck.server.notices``; docs/web.md, "Scaling"):
many moves' lines in one notice, in order, under PostgreSQL's payload limit, and each
line applied by the listening process as a notice of its own.

The tests that send notices need ``POTLUCK_TEST_DATABASE_URL`` (PostgreSQL).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from potluck.server.cluster import parse_notice
from potluck.server.db import make_engine, migrate
from potluck.server.notices import MAX_PAYLOAD_BYTES, NoticeBatcher, batches
from potluck.server.onetrip import conninfo
from webtest import SHARED_URL, fresh_database_url

postgres = pytest.mark.skipif(
    SHARED_URL is None or not SHARED_URL.startswith("postgresql"),
    reason="needs POTLUCK_TEST_DATABASE_URL (PostgreSQL)",
)


def _listening(tmp_path: Path, channel: str) -> tuple[Any, NoticeBatcher]:
    """A fresh database with the schema (and its functions): a connection listening on
    ``channel``, and a batcher sending to it."""
    import psycopg

    engine = make_engine(fresh_database_url(tmp_path))
    migrate(engine)
    engine.dispose()
    url = conninfo(engine.url)
    listener = psycopg.connect(url, autocommit=True)
    listener.execute(f"LISTEN {channel}")
    return listener, NoticeBatcher(url, channel)


def test_batches_keep_the_order_and_stay_under_the_limit() -> None:
    lines = [f"host:1:ab table{n % 7} {n} {n % 4} {'x' * (n % 300)}" for n in range(600)]
    payloads = batches(lines)
    assert len(payloads) > 1
    assert all(len(payload.encode()) <= MAX_PAYLOAD_BYTES for payload in payloads)
    assert [line for payload in payloads for line in payload.split("\n")] == lines


def test_a_line_too_long_for_a_payload_goes_alone() -> None:
    assert batches(["a", "b" * 20, "c"], limit=10) == ["a", "b" * 20, "c"]
    assert batches([]) == []


def test_a_line_with_a_newline_is_refused() -> None:
    batcher = NoticeBatcher("postgresql://nowhere.invalid/none", "channel")
    with pytest.raises(ValueError, match="no newline"):
        batcher.add("host:1:ab table 1 2 two\nlines")
    assert batcher.queued_lines == 0
    batcher.close()


def test_each_line_of_a_notice_parses_as_a_notice_of_its_own() -> None:
    payload = "host:1:ab Xy12ab_c 7 2 spring-rolls\nhost:1:ab Qq00aa_b 3 0 order ramen 2"
    assert [parse_notice(line) for line in payload.split("\n")] == [
        ("host:1:ab", "Xy12ab_c", (7, 2, "spring-rolls")),
        ("host:1:ab", "Qq00aa_b", (3, 0, "order ramen 2")),
    ]


@postgres
def test_moves_queued_together_arrive_in_few_notices_in_order(tmp_path: Path) -> None:
    listener, batcher = _listening(tmp_path, "notices_test")
    lines = [f"host:1:ab table{n % 5} {n} {n % 4} move {n}" for n in range(400)]
    # four threads, as the database threads queue their moves; each thread's own order
    # must survive, and so must the order of everything queued from one thread
    per_thread = [lines[k::4] for k in range(4)]

    def queue(chunk: list[str]) -> None:
        for line in chunk:
            batcher.add(line)

    threads = [threading.Thread(target=queue, args=(chunk,)) for chunk in per_thread]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert batcher.flush()
    received = [n.payload for n in listener.notifies(timeout=1.0, stop_after=400)]
    got = [line for payload in received for line in payload.split("\n")]
    assert sorted(got) == sorted(lines)
    for chunk in per_thread:
        assert [line for line in got if line in set(chunk)] == chunk
    assert len(received) == batcher.sent_notices < len(lines)  # batched, not one each
    batcher.close()
    listener.close()


@postgres
def test_close_sends_what_is_queued_then_stops(tmp_path: Path) -> None:
    listener, batcher = _listening(tmp_path, "notices_close_test")
    for n in range(5):
        batcher.add(f"host:1:ab table {n} 0 move")
    batcher.close()
    received = [n.payload for n in listener.notifies(timeout=1.0, stop_after=5)]
    assert "\n".join(received).count("\n") + 1 == 5
    batcher.add("host:1:ab table 5 0 late")  # after close: dropped, nothing hangs
    assert batcher.queued_lines == 5
    listener.close()


def test_a_database_that_fails_loses_only_the_notice(caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("psycopg")  # the `postgres` extra
    batcher = NoticeBatcher("postgresql://potluck@127.0.0.1:1/none?connect_timeout=1", "c")
    batcher.add("host:1:ab table 0 0 move")
    assert batcher.flush(timeout=10)
    assert batcher.sent_notices == 0
    assert batcher.done_lines == 1
    assert "could not notify the other servers of 1 moves" in caplog.text
    batcher.close()
