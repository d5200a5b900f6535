"""Moves stored in batches (``potluck.server.movewriter``, migration 0006): one call for
many tables' moves, each checked as if alone, answers and notices per move.

Needs ``POTLUCK_TEST_DATABASE_URL`` (PostgreSQL) and is skipped without it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from potluck.server import TableService
from potluck.server.cluster import known
from potluck.server.db import make_engine, migrate, now
from potluck.server.live import LiveTable, TableError
from potluck.server.movewriter import MoveWriter
from potluck.server.onetrip import conninfo
from webtest import OPEN, SHARED_URL, fresh_database_url

postgres = pytest.mark.skipif(
    SHARED_URL is None or not SHARED_URL.startswith("postgresql"),
    reason="needs POTLUCK_TEST_DATABASE_URL (PostgreSQL)",
)


def _tables(url: str, count: int) -> tuple[TableService, list[LiveTable]]:
    """A process's service over ``url`` (no LISTEN/NOTIFY) with ``count`` bots' tables."""
    engine = make_engine(url)
    migrate(engine)
    service = TableService(engine, settings=OPEN, cluster=True)
    service.cluster = None
    tables = [
        service.create_table("cafe-carnage", 4, {}, ["greedy"] * 4).table for _ in range(count)
    ]
    return service, tables


def _move(table: LiveTable, text: str = "a move") -> tuple[dict[str, Any], tuple[int, str, str]]:
    """The next move's row for ``table`` and the table as this process knows it."""
    expected = known(table)
    row = {"table_id": table.id, "number": expected[0], "seat": 0, "text": text,
           "by_bot": True, "created_at": now()}  # fmt: skip
    return row, expected


def _close(service: TableService) -> None:
    for threads in (service.database_thread, service.player_database_thread):
        if threads is not None:
            threads.shutdown()
    if service.move_writer is not None:
        service.move_writer.close()
    if service.one_trip is not None:
        service.one_trip.close()


@postgres
def test_one_call_stores_several_tables_moves_and_refuses_only_the_stale_one(
    tmp_path: Path,
) -> None:
    service, tables = _tables(fresh_database_url(tmp_path), 3)
    one_trip = service.one_trip
    assert one_trip is not None
    stale_row, stale_known = _move(tables[1])
    moves = [
        _move(tables[0], "first"),
        ({**stale_row, "number": 5}, (5, stale_known[1], stale_known[2])),  # not its count
        _move(tables[2], "third"),
    ]
    assert one_trip.store_moves(moves) == [True, False, True]
    # the same moves again: each table's log is one longer now, so none is stored
    assert one_trip.store_moves([moves[0], moves[2]]) == [False, False]
    # a move checked against other seats than the stored ones is refused
    row, (count, status, seats) = _move(tables[1])
    assert one_trip.store_moves([(row, (count, status, seats + "x"))]) == [False]
    assert one_trip.read_since(tables[0].id, 0)[2] == [(0, "first")]
    assert one_trip.read_since(tables[1].id, 0)[2] == []
    assert one_trip.read_since(tables[2].id, 0)[2] == [(0, "third")]
    _close(service)


@postgres
def test_moves_queued_together_go_in_one_call_with_their_notices_in_order(
    tmp_path: Path,
) -> None:
    import psycopg

    url = fresh_database_url(tmp_path)
    service, tables = _tables(url, 6)
    one_trip = service.one_trip
    assert one_trip is not None
    listener = psycopg.connect(conninfo(make_engine(url).url), autocommit=True)
    listener.execute("LISTEN batch_test")
    writer = MoveWriter(one_trip, "batch_test", writers=1)

    async def store_all() -> list[bool]:
        moves = [_move(table, f"move {n}") for n, table in enumerate(tables)]
        return await asyncio.gather(
            *(writer.store(row, known, f"notice {n}") for n, (row, known) in enumerate(moves))
        )

    assert asyncio.run(store_all()) == [True] * 6
    # the first went at once; the five queued while it was on its way went together
    assert (writer.calls, writer.moves) == (2, 6)
    one_trip.notices("batch_test").flush()
    notices = listener.notifies(timeout=1, stop_after=6)
    lines = [line for notice in notices for line in notice.payload.split("\n")]
    assert lines == [f"notice {n}" for n in range(6)]
    listener.close()
    writer.close()
    _close(service)


@postgres
def test_a_move_that_breaks_its_call_fails_alone(tmp_path: Path) -> None:
    """A move the database refuses outright (here: of a table that does not exist) fails
    the call; each move is then stored alone, so only that one fails."""
    service, tables = _tables(fresh_database_url(tmp_path), 3)
    one_trip = service.one_trip
    assert one_trip is not None
    writer = MoveWriter(one_trip, "batch_test", writers=1)
    broken_row, broken_known = _move(tables[2])
    broken_row["seat"] = None  # NOT NULL: the insert fails

    async def store_all() -> tuple[bool | BaseException, ...]:
        first = _move(tables[0], "first")
        return await asyncio.gather(
            writer.store(*_move(tables[1], "blocker"), None),  # goes alone, first
            writer.store(*first, None),
            writer.store(broken_row, broken_known, None),
            return_exceptions=True,
        )

    first_answer, stored, broken = asyncio.run(store_all())
    assert (first_answer, stored) == (True, True)
    assert isinstance(broken, TableError)
    assert broken.status == 503
    assert one_trip.read_since(tables[0].id, 0)[2] == [(0, "first")]
    assert one_trip.read_since(tables[1].id, 0)[2] == [(0, "blocker")]
    assert one_trip.read_since(tables[2].id, 0)[2] == []
    writer.close()
    _close(service)


@postgres
def test_a_players_move_does_not_wait_for_a_batch_on_its_way(tmp_path: Path) -> None:
    """With every writer busy, a player's move starts a call of its own at once, first in
    it; a bot's move waits for the next."""
    service, tables = _tables(fresh_database_url(tmp_path), 3)
    one_trip = service.one_trip
    assert one_trip is not None
    writer = MoveWriter(one_trip, "batch_test", writers=1)

    async def store_all() -> list[bool]:
        return list(
            await asyncio.gather(
                writer.store(*_move(tables[0]), None),  # on its way
                writer.store(*_move(tables[1]), None),  # queued behind it
                writer.store(*_move(tables[2]), None, urgent=True),  # goes now, with the queued one
            )
        )

    assert asyncio.run(store_all()) == [True, True, True]
    assert (writer.calls, writer.moves) == (2, 3)
    writer.close()
    _close(service)


def test_a_service_batches_only_with_other_processes_on_postgresql() -> None:
    engine = make_engine("sqlite://")
    migrate(engine)
    assert TableService(engine, settings=OPEN).move_writer is None


@postgres
def test_the_store_functions_always_read_by_index(tmp_path: Path) -> None:
    """Migration 0007: a plan made while the tables were nearly empty must not read the
    whole of ``seats`` and ``tables`` for every move once they have grown."""
    from sqlalchemy import text

    engine = make_engine(fresh_database_url(tmp_path))
    migrate(engine)
    with engine.connect() as connection:
        found: dict[str, list[str]] = dict(
            connection.execute(
                text(
                    "SELECT proname, proconfig FROM pg_proc"
                    " WHERE proname IN ('potluck_store_move', 'potluck_store_moves')"
                )
            ).all()
        )
    engine.dispose()
    assert found == {
        "potluck_store_move": ["enable_seqscan=off"],
        "potluck_store_moves": ["enable_seqscan=off"],
    }
