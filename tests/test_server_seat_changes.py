"""Seat changes (joins, leaves, kicks, time-outs) and restores, as several processes and
a database server need them (docs/web.md, "Scaling").

- A restored table's log is played once at start-up (the moves, decisions and sealed
  choices are noted in the same pass).
- On a database server a seat change is written from the database thread, not the
  event loop.
- With several processes a seat change is stored under the table's "move" lock like a
  move, and only onto the table as this process knows it; a move is refused in the same
  way when a seat changed on another process meanwhile (then caught up, checked again).

The last two need ``POTLUCK_TEST_DATABASE_URL`` (PostgreSQL) and are skipped without it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

import potluck
from potluck.server import TableService
from potluck.server.db import SeatRow, make_engine, migrate
from potluck.server.live import TableError, Watcher
from webtest import OPEN, SHARED_URL, fresh_database_url

GAME = "cafe-carnage"
postgres = pytest.mark.skipif(
    SHARED_URL is None or not SHARED_URL.startswith("postgresql"),
    reason="needs POTLUCK_TEST_DATABASE_URL (PostgreSQL)",
)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


#: The services the running test made: their database threads' own connections are
#: closed when it ends (their engines' pools are disposed by tests/conftest.py).
SERVICES: list[TableService] = []


@pytest.fixture(autouse=True)
def _close_connections() -> Iterator[None]:
    yield
    while SERVICES:
        one_trip = SERVICES.pop().one_trip
        if one_trip is not None:  # its thread is idle now, or shut down by the test
            one_trip.close()


def service_over(url: str, *, cluster: bool = False, clock: Clock | None = None) -> TableService:
    engine = make_engine(url)
    migrate(engine)
    service = TableService(
        engine, bot_delay=0, clock=clock or Clock(), settings=OPEN, cluster=cluster
    )
    # no LISTEN/NOTIFY here: each service sees the other's changes only through the log
    service.cluster = None
    service.load_all()
    SERVICES.append(service)
    return service


def test_a_restored_table_plays_its_log_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = fresh_database_url(tmp_path)
    first = service_over(url)
    table = first.create_table(GAME, 4, {}, ["greedy", "greedy", "random", "greedy"]).table
    asyncio.run(first.run_bots(table))
    assert table.over
    game_class = type(potluck.load_game(GAME))
    steps: list[int] = []
    real_step = game_class.step

    def counting_step(self: Any, state: Any, seat: int, action: Any) -> None:
        steps.append(seat)
        real_step(self, state, seat, action)

    monkeypatch.setattr(game_class, "step", counting_step)
    second = service_over(url)
    restored = second.tables[table.id]
    assert len(steps) == len(table.state.history)  # once, not once more for the moves
    assert restored.decisions == table.decisions
    assert restored.moves == table.moves
    assert restored.state.history == table.state.history


@contextmanager
def writes_seen_from(service: TableService, threads: list[str]) -> Iterator[None]:
    real_write = service.write

    @contextmanager
    def spying() -> Iterator[Connection]:
        threads.append(threading.current_thread().name)
        with real_write() as connection:
            yield connection

    service.write = spying  # type: ignore[method-assign]
    try:
        yield
    finally:
        service.write = real_write  # type: ignore[method-assign]


@postgres
def test_seat_changes_are_written_from_the_database_thread(tmp_path: Path) -> None:
    clock = Clock()
    service = service_over(fresh_database_url(tmp_path), clock=clock)
    created = service.create_table(GAME, 4, {}, ["human", "human", "greedy", "greedy"])
    table_id = created.table.id
    service.tables[table_id].turn_seconds = 30
    threads: list[str] = []

    async def changes() -> None:
        with writes_seen_from(service, threads):
            await service.join(table_id, 0, "Ann")
            await service.join(table_id, 1, "Bo")
            await service.leave(table_id, 0)
            await service.come_back(table_id, 0)
            await service.kick(table_id, 1)
            clock.now += 31  # seat 0's turn timer runs out
            await service.sweep()

    asyncio.run(changes())
    assert service.tables[table_id].seats[0].taken_over == "timeout"
    assert len(threads) >= 6  # the six seat changes, and the bots' moves
    assert all(name.startswith("potluck-db") for name in threads), threads


@postgres
def test_a_seat_change_elsewhere_meanwhile_is_caught_under_the_move_lock(
    tmp_path: Path,
) -> None:
    url = fresh_database_url(tmp_path)
    one = service_over(url, cluster=True)
    table_id = one.create_table(GAME, 4, {}, ["human"] * 4).table.id
    two = service_over(url, cluster=True)  # a second process: its own copy of the table

    async def no_bots(table: Any) -> bool:  # a seat left stays unplayed: only the log moves
        return False

    for service in (one, two):
        service.wake_bots = no_bots  # type: ignore[method-assign]
    real_sync = two._sync
    syncs: list[str] = []

    async def missing_the_first_catch_up(table: Any) -> None:
        # the other process's join lands between this process's catch-up and its write
        syncs.append(table.id)
        if len(syncs) > 1:
            await real_sync(table)

    async def race() -> None:
        await one.join(table_id, 0, "Ann")
        two._sync = missing_the_first_catch_up  # type: ignore[method-assign]
        with pytest.raises(TableError) as refused:
            await two.join(table_id, 0, "Bo")
        assert refused.value.code == "seat_taken"  # refused after catching up, not stored
        two._sync = real_sync  # type: ignore[method-assign]
        for seat in (1, 2, 3):
            await one.join(table_id, seat, f"P{seat}")
        # seat 0 leaves on one process; the other, not caught up, takes seat 0's move
        await one.leave(table_id, 0)
        table = two.tables[table_id]
        assert not table.seats[0].taken_over  # two's copy does not know yet
        game = table.game
        await two._sync(table)  # the joins, not the leave: rewind that part
        table.seats[0].taken_over, table.seats[0].bot = None, None
        action = str(game.legal_actions(table.state, 0)[0])
        with pytest.raises(TableError) as refused:
            await two.act(table_id, 0, action, 0)
        assert refused.value.code == "taken_over"

    asyncio.run(race())
    with Session(make_engine(url)) as session:
        names = session.scalars(
            select(SeatRow.name).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
        ).all()
    assert names == ["Ann", "P1", "P2", "P3"]
    for service in (one, two):
        assert service.database_thread is not None
        service.database_thread.shutdown()


@postgres
def test_a_table_nobody_here_runs_or_watches_is_caught_up_when_needed(tmp_path: Path) -> None:
    url = fresh_database_url(tmp_path)
    one = service_over(url, cluster=True)
    table_id = one.create_table(GAME, 4, {}, ["human"] * 4).table.id
    two = service_over(url, cluster=True)

    async def lazily() -> None:
        await one.join(table_id, 0, "Ann")
        two.changed_elsewhere(table_id)  # the notice of the join
        table = two.tables[table_id]
        assert table.stale  # marked, not read nor replayed
        assert not two._syncs
        assert table.seats[0].name is None
        assert (await two.fresh(table_id)).seats[0].name == "Ann"
        assert not table.stale

    asyncio.run(lazily())
    for service in (one, two):
        assert service.database_thread is not None
        service.database_thread.shutdown()


@postgres
def test_a_notice_carrying_the_move_is_applied_without_reading_the_log(tmp_path: Path) -> None:
    url = fresh_database_url(tmp_path)
    one = service_over(url, cluster=True)
    table_id = one.create_table(GAME, 4, {}, ["human"] * 4).table.id
    two = service_over(url, cluster=True)
    pushed: list[dict[str, Any]] = []

    async def watch(payload: dict[str, Any]) -> None:
        pushed.append(payload)

    async def carried() -> None:
        for seat in range(4):
            await one.join(table_id, seat, f"P{seat}")
        table = two.tables[table_id]
        await two.fresh(table_id)
        async with table.lock:
            await two._sync(table)  # the joins
        table.watchers.append(Watcher(None, watch))  # a browser here: caught up at once
        mine = one.tables[table_id]
        action = str(mine.game.legal_actions(mine.state, 0)[0])
        await one.act(table_id, 0, action, 0)

        def no_reading(*_: Any) -> Any:
            raise AssertionError("the log was read")

        two._read_since = no_reading  # type: ignore[method-assign,assignment]
        two.changed_elsewhere(table_id, (0, 0, action))
        await asyncio.gather(*two._syncs.values())
        assert len(table.state.history) == 1
        assert table.decisions[0] == 1
        assert pushed[-1]["step"] == 1
        # a notice that does not follow on from this copy is not applied: the log is read
        assert not two._apply_noticed(table, (5, 1, action))

    asyncio.run(carried())
    for service in (one, two):
        assert service.database_thread is not None
        service.database_thread.shutdown()


@postgres
def test_a_lost_notice_costs_the_owner_a_few_seconds_not_the_table(tmp_path: Path) -> None:
    import types

    url = fresh_database_url(tmp_path)
    one = service_over(url, cluster=True)
    table_id = one.create_table(GAME, 4, {}, ["human"] * 4).table.id
    two = service_over(url, cluster=True)
    owned = {table_id}
    two.cluster = types.SimpleNamespace(owned=owned, owns=owned.__contains__)  # type: ignore[assignment]

    async def lost() -> None:
        for seat in range(4):
            await one.join(table_id, seat, f"P{seat}")
        mine = one.tables[table_id]
        await one.act(table_id, 0, str(mine.game.legal_actions(mine.state, 0)[0]), 0)
        # no notice reached ``two``, which runs the table: its periodic check finds it
        # behind, leaves it one round (a notice may be on its way), then catches it up
        await two.check_owned()
        assert not two._syncs
        assert len(two.tables[table_id].state.history) == 0
        await two.check_owned()
        await asyncio.gather(*two._syncs.values())
        assert len(two.tables[table_id].state.history) == 1

    asyncio.run(lost())
    for service in (one, two):
        assert service.database_thread is not None
        service.database_thread.shutdown()


@postgres
def test_a_table_loaded_by_a_request_during_a_notices_read_keeps_one_copy(
    tmp_path: Path,
) -> None:
    url = fresh_database_url(tmp_path)
    one = service_over(url, cluster=True)
    two = service_over(url, cluster=True)
    table_id = one.create_table(GAME, 4, {}, ["human"] * 4).table.id
    read = threading.Event()
    real_read = two.read_table

    def slow_read(wanted: str) -> Any | None:
        stored = real_read(wanted)
        read.wait(5)  # the request below loads the table meanwhile
        return stored

    two.read_table = slow_read  # type: ignore[method-assign,assignment]

    async def both() -> None:
        two.changed_elsewhere(table_id)  # the notice of the new table: read off the loop
        await asyncio.sleep(0.05)
        first = two.get(table_id)  # a request (a WebSocket, a join) loads it on the loop
        first.watchers.append(Watcher(0, lambda payload: asyncio.sleep(0)))
        read.set()
        await asyncio.gather(*two._syncs.values())
        assert two.tables[table_id] is first  # its watchers are on the one copy

    asyncio.run(both())
    for service in (one, two):
        assert service.database_thread is not None
        service.database_thread.shutdown()
