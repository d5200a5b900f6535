"""Fair bot CPU (issue 33): one client's many search bots never hold every worker, and
free workers go to the waiting clients in turn (``potluck.server.thinking``).

Move analyses: their own worker, which stands still while bots think; an answer at
once with the progress; a budget per client; kept once done.

The end-to-end runs through a real server (one client's ten tables of four hard bots,
or two analyses, beside another table's hard bot; SIGTERM meanwhile) are load runs
(``POTLUCK_BENCHMARK=1``; ``python -m potluck.server.hogs``), their figures in
docs/web.md, "Figures".
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from potluck.server import TableService, create_app, hogs
from potluck.server.analyses import Job
from potluck.server.db import make_engine, migrate
from potluck.server.settings import ServerSettings
from potluck.server.thinking import FairThinking
from test_server_hardening import is_error
from webtest import OPEN, fresh_database_url


def run(coroutine: object) -> object:
    return asyncio.run(coroutine)  # type: ignore[arg-type]


def test_another_clients_search_starts_at_once_beside_a_hogs_forty() -> None:
    started: list[str] = []

    async def go() -> None:
        release = asyncio.Event()

        async def work(item: str) -> str:
            started.append(item)
            await release.wait()
            return item

        fair: FairThinking[str, str] = FairThinking(work, workers=2, per_client=1)
        hog = [asyncio.create_task(fair.think(f"hog-{n}", "hog")) for n in range(40)]
        await asyncio.sleep(0)
        other = asyncio.create_task(fair.think("other", "other"))
        await asyncio.sleep(0)
        assert started == ["hog-0", "other"]  # the hog holds one worker, not both
        assert fair.load() == {"running": 2, "waiting": 39, "clients": 2}
        release.set()
        assert await other == "other"
        assert await asyncio.gather(*hog) == [f"hog-{n}" for n in range(40)]

    run(go())


def test_free_workers_go_to_the_waiting_clients_in_turn() -> None:
    order: list[str] = []

    async def go() -> None:
        async def work(item: str) -> str:
            order.append(item)
            await asyncio.sleep(0.001)
            return item

        fair: FairThinking[str, str] = FairThinking(work, workers=1, per_client=1)
        tasks = [asyncio.create_task(fair.think(f"a{n}", "a")) for n in range(3)]
        tasks += [asyncio.create_task(fair.think(f"b{n}", "b")) for n in range(3)]
        tasks += [asyncio.create_task(fair.think("c0", "c"))]
        await asyncio.gather(*tasks)

    run(go())
    assert order == ["a0", "b0", "c0", "a1", "b1", "a2", "b2"]


def test_a_cancelled_search_gives_its_place_back() -> None:
    async def go() -> None:
        gate = asyncio.Event()

        async def work(item: str) -> str:
            await gate.wait()
            return item

        fair: FairThinking[str, str] = FairThinking(work, workers=1, per_client=1)
        first = asyncio.create_task(fair.think("first", "a"))
        waiting = asyncio.create_task(fair.think("waiting", "b"))
        await asyncio.sleep(0)
        waiting.cancel()  # still queued: it leaves the queue
        first.cancel()  # running: its worker is freed
        for task in (first, waiting):
            with pytest.raises(asyncio.CancelledError):
                await task
        assert fair.load() == {"running": 0, "waiting": 0, "clients": 0}
        gate.set()
        assert await fair.think("after", "c") == "after"

    run(go())


def test_a_host_sets_the_workers_and_the_share_of_one_client() -> None:
    from potluck.server.botpool import BotPool

    engine = make_engine("sqlite://")
    migrate(engine)
    service = TableService(
        engine, settings=ServerSettings(bot_workers=3, bot_thinking_per_client=2)
    )
    try:
        assert service.bot_pool.workers == 3
        assert (service.thinking.workers, service.thinking.per_client) == (3, 2)
        assert BotPool().workers >= 2  # never one worker that one client could hold
    finally:
        engine.dispose()


# ---------------------------------------------------------------------- move analyses


def analysis_app(db_url: str, **limits: Any) -> Any:
    settings = ServerSettings(**{**OPEN.__dict__, **limits})
    return create_app(db_url, bot_delay=0, sweep_every=3600, settings=settings)


def finished_game(client: TestClient) -> str:
    body = {"game": "cafe-carnage", "num_players": 4, "seats": ["greedy"] * 4}
    return str(client.post("/api/tables", json=body).json()["id"])


def test_an_analysis_answers_at_once_with_its_progress_and_is_kept(tmp_path: Path) -> None:
    db_url = fresh_database_url(tmp_path)
    with TestClient(analysis_app(db_url)) as client:
        table_id = finished_game(client)
        url = f"/api/tables/{table_id}/analysis?seat=2"
        first = client.get(url)
        assert first.status_code == 202, first.text
        assert first.json()["status"] in ("queued", "running")
        assert first.json()["total"] == 20
        seen = []
        deadline = time.monotonic() + 120
        while (answer := client.get(url)).status_code == 202:
            seen.append(answer.json()["done"])
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert seen == sorted(seen)  # progress only grows
        done = answer.json()
        assert (done["status"], done["done"], len(done["moves"])) == ("done", 20, 20)
        assert [m["number"] for m in done["moves"]] == sorted(m["number"] for m in done["moves"])
    with TestClient(analysis_app(db_url)) as again:  # a restart reads it back, computing nothing
        kept = again.get(url)
        assert kept.status_code == 200
        assert kept.json()["moves"] == done["moves"]
        assert again.app.state.service.analyses.pool._pool is None  # type: ignore[attr-defined]


def test_a_clients_analyses_are_held_to_its_budget_of_the_servers_time(tmp_path: Path) -> None:
    db_url = fresh_database_url(tmp_path)
    with TestClient(analysis_app(db_url, analysis_seconds_per_hour=15.0)) as client:
        table_id = finished_game(client)
        assert client.get(f"/api/tables/{table_id}/analysis?seat=0").status_code == 202
        refused = client.get(f"/api/tables/{table_id}/analysis?seat=1")
        assert is_error(refused, 429, "analysis_budget")
        assert int(refused.headers["Retry-After"]) > 60


def test_the_server_holds_only_so_many_analyses_at_once(tmp_path: Path) -> None:
    db_url = fresh_database_url(tmp_path)
    with TestClient(analysis_app(db_url, max_analyses=1)) as client:
        table_id = finished_game(client)
        assert client.get(f"/api/tables/{table_id}/analysis?seat=0").status_code == 202
        busy = client.get(f"/api/tables/{table_id}/analysis?seat=1")
        assert is_error(busy, 503, "analysis_busy")


def test_analyses_have_workers_of_their_own_which_stand_still_while_bots_think() -> None:
    engine = make_engine("sqlite://")
    migrate(engine)
    service = TableService(engine, settings=OPEN)
    try:
        analyses = service.analyses
        assert analyses.pool is not service.bot_pool
        assert analyses.pool.workers == 1
        analyses.start_workers()
        (worker,) = analyses.pool._pool._processes.values()  # type: ignore[union-attr]

        def state() -> str:
            return Path(f"/proc/{worker.pid}/stat").read_text().rsplit(")", 1)[1].split()[0]

        pause = service.thinking.on_busy
        assert pause is not None

        def paused() -> bool:
            return analyses.pool.paused

        pause(1)  # a bot's search started
        assert paused()
        deadline = time.monotonic() + 5
        while state() != "T" and time.monotonic() < deadline:
            time.sleep(0.01)
        assert state() == "T"  # stopped
        pause(0)
        assert not paused()
        while state() == "T" and time.monotonic() < deadline:
            time.sleep(0.01)
        assert state() != "T"
        pause(1)
    finally:
        analyses.pool.shutdown()  # ends a stopped worker too
        engine.dispose()
    worker.join(timeout=10)
    assert worker.exitcode is not None


# ---------------------------------------------------------------------- the load runs


benchmark = pytest.mark.skipif(
    not os.environ.get("POTLUCK_BENCHMARK"), reason="a load run: set POTLUCK_BENCHMARK=1"
)


@benchmark
def test_one_clients_ten_hard_bot_tables_slow_another_tables_hard_bot_at_most_1_5x() -> None:
    report = hogs.run("bots", amount=10, seconds=40, idle_seconds=20, warmup=10)
    assert report["hogged"]["tables_made"] >= 10, report
    assert report["mean_ratio"] <= 1.5, report


@benchmark
def test_two_analyses_delay_a_hard_bot_at_most_a_second_and_sigterm_ends_it_fast() -> None:
    report = hogs.run("analyses", amount=2, seconds=40, idle_seconds=20, warmup=15)
    assert report["hogged"]["answers"].get("202", 0) > 0, report  # analyses were under way
    assert report["mean_delay_s"] <= 1.0, report
    assert report["sigterm_exit_seconds"] < 10, report


def test_an_analysis_held_too_long_beside_bots_goes_on_for_a_slice() -> None:
    engine = make_engine("sqlite://")
    migrate(engine)
    clock = [0.0]
    settings = ServerSettings(analysis_most_held_seconds=30.0, analysis_move_seconds=2.0)
    service = TableService(engine, settings=settings, clock=lambda: clock[0])
    analyses = service.analyses
    held: list[bool] = []
    analyses.pool.pause = held.append  # type: ignore[method-assign, assignment]
    analyses.jobs = {("t", 0, "j"): Job("t", 0, "j", [1, 2, 3])}  # one under way
    try:
        bots = service.thinking.on_busy
        assert bots is not None

        async def scenario() -> list[bool]:
            watch = asyncio.create_task(analyses._watch())
            bots(1)  # a bot thinks, and goes on thinking
            states = []
            for moment in (1.0, 29.0, 30.0, 31.0, 32.5, 40.0, 62.0, 62.5):
                clock[0] = moment
                await asyncio.sleep(0.3)  # one tick of the watch
                states.append(held[-1])
            bots(0)
            states.append(held[-1])
            analyses.jobs.clear()
            await asyncio.wait_for(watch, 2)
            return states

        states = run(scenario())
        # held from 0 s; its slice at 30 s (2 s); held again from 32.5 s; a slice at 62.5 s
        assert states == [True, True, False, False, True, True, True, False, False]
    finally:
        engine.dispose()
