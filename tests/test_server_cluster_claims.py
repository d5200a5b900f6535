"""Claiming tables in a cluster (docs/web.md, "Scaling"): a process takes the "owner"
lock only of tables still open or running in the database, each once, and never runs
bots on a copy it knows to be behind.

The claim tests need ``POTLUCK_TEST_DATABASE_URL`` (PostgreSQL) and are skipped without it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import text

from potluck.server import TableService
from potluck.server.cluster import lock_key
from potluck.server.db import make_engine, migrate
from webtest import OPEN, SHARED_URL, fresh_database_url

GAME = "cafe-carnage"
postgres = pytest.mark.skipif(
    SHARED_URL is None or not SHARED_URL.startswith("postgresql"),
    reason="needs POTLUCK_TEST_DATABASE_URL (PostgreSQL)",
)


def _service(url: str) -> TableService:
    """A server process's tables over ``url``, without LISTEN/NOTIFY (notices by hand)."""
    engine = make_engine(url)
    migrate(engine)
    service = TableService(engine, settings=OPEN, cluster=True)
    service.cluster = None
    service.load_all()
    return service


def _close(service: TableService) -> None:
    """Close what ``_service`` opened: its one-trip connection, its database thread and
    its engine's pool (left to the garbage collector, their connections sometimes
    outlived the module's check that none is left open)."""
    if service.one_trip is not None:
        service.one_trip.close()
    assert service.database_thread is not None
    service.database_thread.shutdown()
    service.engine.dispose()


@postgres
def test_a_claim_locks_only_running_tables_and_each_once(tmp_path: Path) -> None:
    url = fresh_database_url(tmp_path)
    engine = make_engine(url)
    migrate(engine)
    service = TableService(engine, settings=OPEN, cluster=True)
    ended = service.create_table("burger-joint", 2, {}, ["human", "greedy"]).table.id
    running = service.create_table("burger-joint", 2, {}, ["human", "greedy"]).table.id
    with engine.begin() as connection:  # it ended on another process; this copy missed it
        connection.execute(text("UPDATE tables SET status = 'over' WHERE id = :id"), {"id": ended})
    cluster = service.cluster
    assert cluster is not None

    async def claims() -> None:
        await cluster._connect("locks")
        try:
            # the claim round and the new table's own claim, at once
            taken = await asyncio.gather(cluster.claim([ended, running]), cluster.claim([running]))
            assert sorted(taken, key=len) == [[], [running]]
            assert service.tables[ended].status == "over"  # not asked about again
            assert service.tables[ended].stale  # its moves are read when next needed
            await cluster.release(running)  # one unlock frees it: it was locked once
            with engine.connect() as other:
                for table_id in (running, ended):
                    key = {"key": lock_key(table_id)}
                    free = other.execute(text("SELECT pg_try_advisory_lock(:key)"), key).scalar()
                    assert free, table_id
                    other.execute(text("SELECT pg_advisory_unlock(:key)"), key)
        finally:
            await cluster.stop()

    asyncio.run(claims())
    assert service.database_thread is not None
    service.database_thread.shutdown()
    engine.dispose()


@postgres
def test_finished_tables_are_unlocked_together_without_waiting(tmp_path: Path) -> None:
    """``release_soon``: a finished table's lock is given up in the background, the
    locks of tables finished meanwhile in the same query; the caller does not wait."""
    url = fresh_database_url(tmp_path)
    engine = make_engine(url)
    migrate(engine)
    service = TableService(engine, settings=OPEN, cluster=True)
    ids = [service.create_table("burger-joint", 2, {}, ["human", "greedy"]).table.id
           for _ in range(3)]  # fmt: skip
    cluster = service.cluster
    assert cluster is not None

    def free(table_id: str) -> bool:
        with engine.connect() as other:
            key = {"key": lock_key(table_id)}
            got = bool(other.execute(text("SELECT pg_try_advisory_lock(:key)"), key).scalar())
            if got:
                other.execute(text("SELECT pg_advisory_unlock(:key)"), key)
            return got

    async def releases() -> None:
        await cluster._connect("locks")
        try:
            assert sorted(await cluster.claim(ids)) == sorted(ids)
            assert not any(free(table_id) for table_id in ids)
            for table_id in ids[:2]:
                cluster.release_soon(table_id)  # returns at once
            cluster.release_soon("never-owned")  # not ours: nothing to do
            assert not cluster.owns(ids[0])
            assert cluster._releaser is not None
            await cluster._releaser
            assert [free(table_id) for table_id in ids] == [True, True, False]
        finally:
            await cluster.stop()

    asyncio.run(releases())
    assert service.database_thread is not None
    service.database_thread.shutdown()
    engine.dispose()


def test_bots_never_move_on_a_copy_known_to_be_behind(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'stale.sqlite3'}")
    migrate(engine)
    service = TableService(engine, bot_delay=0.001, settings=OPEN)
    table = service.create_table("burger-joint", 2, {}, ["greedy", "greedy"]).table
    table.stale = True  # another process moved it on: its claim's catch-up is on the way

    async def wake() -> None:
        assert not await service.wake_bots(table)
        await service.sweep()
        assert table.bot_task is None
        table.stale = False
        assert await service.wake_bots(table)
        started: asyncio.Task[None] | None = table.bot_task
        assert started is not None
        started.cancel()

    asyncio.run(wake())


@postgres
def test_notices_that_arrive_together_are_all_applied(tmp_path: Path) -> None:
    """Three moves stored by another process, their notices read in one batch (the
    listener hands them over before the first catch-up starts): the copy has all three.
    The catch-up once applied the first notice's move and forgot the other two, so the
    owner's bots waited for a move they never heard of (the load runs' stalled tables)."""
    from potluck.server.live import Watcher

    url = fresh_database_url(tmp_path)
    one, two = (_service(url) for _ in range(2))
    table_id = one.create_table(GAME, 4, {}, ["human"] * 4).table.id

    async def pushed(payload: object) -> None:
        return None

    async def batch() -> None:
        for seat in range(4):
            await one.join(table_id, seat, f"P{seat}")
        table = await two.fresh(table_id)
        table.watchers.append(Watcher(None, pushed))  # shown here: caught up at once
        mine = one.tables[table_id]
        notices = []
        for seat in range(3):  # the sealed first choice: each seat's move in turn
            action = str(mine.game.legal_actions(mine.state, seat)[0])
            await one.act(table_id, seat, action, 0)
            notices.append((seat, seat, action))

        def no_reading(*_: object) -> None:
            raise AssertionError("the log was read: the notices carried every move")

        two._read_since = no_reading  # type: ignore[method-assign,assignment]
        for move in notices:
            two.changed_elsewhere(table_id, move)
        while two._syncs:
            await asyncio.gather(*two._syncs.values())
        assert len(table.state.history) == 3
        assert table.decisions[:3] == [1, 1, 1]

    asyncio.run(batch())
    for service in (one, two):
        _close(service)


@postgres
def test_a_move_in_one_round_trip_is_stored_and_announced_only_onto_the_known_table(
    tmp_path: Path,
) -> None:
    """``OneTrip.store_move`` (the lock, the checked insert and the notice in one query
    string): a move checked against a table that moved on is not stored, and only a
    stored move's notice is sent."""
    import psycopg

    from potluck.server.cluster import known
    from potluck.server.db import now
    from potluck.server.onetrip import conninfo

    url = fresh_database_url(tmp_path)
    service = _service(url)
    table = service.create_table(GAME, 4, {}, ["greedy"] * 4).table
    writer = service.one_trip
    assert writer is not None
    listener = psycopg.connect(conninfo(make_engine(url).url), autocommit=True)
    listener.execute("LISTEN one_trip_test")
    row = {"table_id": table.id, "seat": 0, "text": "a move's text, with 'quotes'; and --",
           "by_bot": True, "created_at": now()}  # fmt: skip
    length, status, seats = known(table)
    assert writer.store_move(
        {**row, "number": length}, (length, status, seats), "one", "one_trip_test"
    )
    # the same copy again: the stored log is one action longer now
    assert not writer.store_move(
        {**row, "number": length + 1}, (length + 1, "open", seats), "two", "one_trip_test"
    )
    assert not writer.store_move(
        {**row, "number": length + 1}, (length + 1, status, seats + "x"), "three", "one_trip_test"
    )
    assert [n.payload for n in listener.notifies(timeout=0.5, stop_after=3)] == ["one"]
    _, stored_seats, actions = writer.read_since(table.id, length)
    assert actions == [(0, row["text"])]
    assert [seat.bot for seat in stored_seats] == ["greedy"] * 4
    listener.close()
    _close(service)
