"""Bot difficulties at the server: easy, medium and hard seats, and search bots that think
in worker processes while the event loop serves every other request."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import potluck
from potluck.agents import make_agent
from potluck.server import botpool, create_app
from potluck.server.botpool import Thought, seat_bot_spec, seat_kinds, think
from webtest import OPEN, fresh_database_url

GAME = "cafe-carnage"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(fresh_database_url(tmp_path), bot_delay=0, settings=OPEN, sweep_every=3600)
    with TestClient(app) as test_client:
        yield test_client


def _join(client: TestClient, table_id: str) -> dict[str, str]:
    response = client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Ann"})
    assert response.status_code == 200, response.text
    client.cookies.clear()
    return {"Authorization": f"Bearer {response.json()['token']}"}


def test_every_game_offers_three_difficulties_and_never_takes_raw_specs() -> None:
    for game_id in potluck.list_games():
        game = potluck.load_game(game_id)
        assert seat_kinds(game)[:4] == ["human", "easy", "medium", "hard"]
        assert seat_bot_spec(game, "hard") == botpool.hard_spec(game)
        assert botpool.hard_spec(game) == botpool.HARD_BY_GAME.get(
            game_id, botpool.DIFFICULTIES["hard"]
        )
        make_agent(game, botpool.hard_spec(game))  # a spec the game seats
        assert seat_bot_spec(game, "hard", "ismcts:sims=5") == "ismcts:sims=5"
        assert seat_bot_spec(game, "ismcts:sims=99999999") is None


def test_the_lobby_lists_the_difficulties(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert games[GAME]["difficulties"]["hard"] == OPEN.hard_bot
    assert games[GAME]["difficulties"]["medium"] == "greedy"
    refused = client.post(
        "/api/tables", json={"game": GAME, "num_players": 4, "seats": ["human"] + ["ismcts"] * 3}
    )
    assert refused.status_code == 422
    assert "a difficulty" in refused.json()["reason"]


def test_a_worker_thinks_a_legal_move_from_the_state_it_is_sent() -> None:
    game = potluck.load_game(GAME)
    state = game.new_game(4, seed=3)
    thought = Thought(GAME, None, game.to_json(state), 1, "ismcts:sims=10", 7, 0)
    text = think(thought)
    assert game.explain(state, 1, text) is None
    assert think(thought) == text  # reproducible from the seed it is sent


def test_a_hard_bot_plays_a_table_to_the_end(client: TestClient) -> None:
    body = {"game": GAME, "num_players": 4, "seats": ["human", "hard", "medium", "easy"]}
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    headers = _join(client, table_id)
    while True:
        view = client.get(f"/api/tables/{table_id}", headers=headers).json()
        if not view["legal"]:
            if view["outcome"] is not None:
                break
            time.sleep(0.05)  # the hard bot is still thinking in its worker
            continue
        answer = client.post(
            f"/api/tables/{table_id}/actions",
            json={"action": view["legal"][0]["action"], "decision": view["decision"]},
            headers=headers,
        )
        assert answer.status_code in (200, 409), answer.text
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert sum(1 for seat, _ in record["actions"] if seat == 1) == 20


def test_other_requests_are_served_while_a_hard_bot_thinks(tmp_path: Path) -> None:
    settings = replace(OPEN, hard_bot="ismcts:sims=0,time=1.5")
    app = create_app(fresh_database_url(tmp_path), bot_delay=0, settings=settings, sweep_every=3600)
    with TestClient(app) as client:
        _serve_while_thinking(client)


def _serve_while_thinking(client: TestClient) -> None:
    body = {"game": GAME, "num_players": 4, "seats": ["human", "hard", "hard", "hard"]}
    table_id = client.post("/api/tables", json=body).json()["id"]
    headers = _join(client, table_id)
    view = client.get(f"/api/tables/{table_id}", headers=headers).json()
    first = view["legal"][0]["action"]
    worker = threading.Thread(
        target=client.post,
        args=(f"/api/tables/{table_id}/actions",),
        kwargs={"json": {"action": first, "decision": view["decision"]}, "headers": headers},
    )
    worker.start()
    time.sleep(0.3)  # the hard bots are thinking now
    slowest = 0.0
    for _ in range(5):
        start = time.perf_counter()
        assert client.get("/api/games").status_code == 200
        slowest = max(slowest, time.perf_counter() - start)
    worker.join(timeout=30)
    assert slowest < 1.0, f"a request waited {slowest:.2f} s behind a thinking bot"


def analysed(client: TestClient, url: str) -> dict[str, Any]:
    """Ask for an analysis until it is done (202 with its progress meanwhile)."""
    deadline = time.monotonic() + 120
    while True:
        answer = client.get(url)
        assert answer.status_code in (200, 202), answer.text
        if answer.status_code == 200:
            return dict(answer.json())
        progress = answer.json()
        assert progress["status"] in ("queued", "running")
        assert 0 <= progress["done"] <= progress["total"]
        assert time.monotonic() < deadline, "the analysis did not finish"
        time.sleep(0.2)


def test_a_finished_games_moves_are_analysed_once_per_seat(client: TestClient) -> None:
    body = {"game": GAME, "num_players": 4, "seats": ["greedy", "random", "greedy", "random"]}
    table_id = client.post("/api/tables", json=body).json()["id"]
    data = analysed(client, f"/api/tables/{table_id}/analysis?seat=1")
    assert (data["status"], data["done"], data["total"]) == ("done", 20, 20)
    assert (data["seat"], data["bot"]) == (1, OPEN.analysis_bot)
    assert len(data["moves"]) == 20
    first = data["moves"][0]
    assert {"number", "played", "preferred", "before", "after", "loss", "verdict"} <= set(first)
    # the seat's mean loss (uncut, over its moves with a choice) and share of the stakes
    summary = data["summary"]
    assert summary["moves"] == 20
    assert 0 < summary["choices"] <= 20
    assert {"mean_loss", "loss_stderr", "mean_points_lost", "share_lost"} <= set(summary)
    again = client.get(f"/api/tables/{table_id}/analysis?seat=1").json()
    assert again == data  # kept, not searched again
    assert client.get(f"/api/tables/{table_id}/analysis?seat=9").status_code == 404


def test_a_running_game_is_not_analysed(client: TestClient) -> None:
    body = {"game": GAME, "num_players": 4, "seats": ["human", "greedy", "greedy", "random"]}
    table_id = client.post("/api/tables", json=body).json()["id"]
    answer = client.get(f"/api/tables/{table_id}/analysis?seat=1")
    assert answer.status_code == 409
    assert answer.json()["error"] == "not_over"


def test_a_new_table_plays_on_from_a_finished_games_position(client: TestClient) -> None:
    body = {"game": GAME, "num_players": 4, "seats": ["greedy", "random", "greedy", "random"]}
    source = client.post("/api/tables", json=body).json()["id"]
    record = client.get(f"/api/tables/{source}/record").json()
    again = {
        "game": GAME,
        "seats": ["human", "medium", "medium", "easy"],
        "from_table": source,
        "from_step": 24,
    }
    created = client.post("/api/tables", json=again)
    assert created.status_code == 201, created.text
    new_id = created.json()["id"]
    summary = client.get(f"/api/tables/{new_id}").json()["table"]
    assert summary["steps"] == 24
    headers = _join(client, new_id)
    view = client.get(f"/api/tables/{new_id}", headers=headers).json()
    assert view["legal"]  # the human plays on from the position
    table = client.app.state.service.tables[new_id]  # type: ignore[attr-defined]
    assert table.state.seed == record["seed"]
    history = [[seat, str(action)] for seat, action in table.state.history[:24]]
    assert history == record["actions"][:24]


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"from_step": 999}, "bad_step"),
        ({"from_step": 80}, "bad_step"),
        ({"from_table": "nope"}, "no_finished_table"),
        ({"seed": 5}, "bad_start"),
        ({"seats": ["human", "medium", "medium", "easy", "easy"]}, "bad_start"),
    ],
)
def test_playing_on_refuses_what_does_not_fit(
    client: TestClient, change: dict[str, object], code: str
) -> None:
    body = {"game": GAME, "num_players": 4, "seats": ["greedy", "random", "greedy", "random"]}
    source = client.post("/api/tables", json=body).json()["id"]
    request = {"game": GAME, "seats": ["human", "medium", "medium", "easy"], "from_table": source}
    answer = client.post("/api/tables", json={**request, **change})
    assert answer.status_code in (404, 422), answer.text
    assert answer.json()["error"] == code


def test_the_bot_workers_run_at_a_lower_priority_than_the_server() -> None:
    import os

    pool = botpool.BotPool(workers=1)
    try:
        niceness = pool._executor().submit(os.nice, 0).result(timeout=60)
    finally:
        pool.shutdown()
    assert niceness == min(19, os.nice(0) + botpool.WORKER_NICENESS)


def test_the_pool_started_with_the_server_has_its_worker_at_the_lowest_priority() -> None:
    import os

    pool = botpool.BotPool(workers=1)
    try:
        pool.start()  # returns once a worker answered: its imports are done
        assert pool._pool is not None
        workers = list((pool._pool._processes or {}).values())
        assert len(workers) == 1
        assert os.getpriority(os.PRIO_PROCESS, workers[0].pid or 0) == 19
        if hasattr(os, "SCHED_IDLE"):
            assert os.sched_getscheduler(workers[0].pid or 0) == os.SCHED_IDLE
    finally:
        pool.shutdown()


def test_stopping_the_pool_stops_a_worker_in_the_middle_of_a_search() -> None:
    import time

    pool = botpool.BotPool(workers=1)
    executor = pool._executor()
    executor.submit(time.sleep, 60)  # a long search, as far as the pool can tell
    for _ in range(200):
        if executor._processes:
            break
        time.sleep(0.05)
    workers = list(executor._processes.values())
    assert workers
    pool.shutdown()
    for worker in workers:
        worker.join(timeout=10)
        assert not worker.is_alive()


def test_the_sweep_wakes_bots_that_nothing_woke(tmp_path: Path) -> None:
    import asyncio

    from potluck.server.db import make_engine, migrate
    from potluck.server.tableservice import TableService
    from webtest import OPEN

    engine = make_engine(f"sqlite:///{tmp_path / 'sweep.sqlite3'}")
    migrate(engine)
    service = TableService(engine, bot_delay=0.001, settings=OPEN)
    table = service.create_table("burger-joint", 2, {}, ["greedy", "greedy"]).table
    assert table.bot_task is None  # made, and nothing woke its bots

    async def sweep() -> None:
        await service.sweep()
        assert table.bot_task is not None
        await table.bot_task

    asyncio.run(sweep())
    assert table.over


def test_the_app_stops_its_bot_workers_and_closes_its_connections_when_it_stops(
    tmp_path: Path,
) -> None:
    settings = replace(OPEN, start_bot_workers=True)
    app = create_app(fresh_database_url(tmp_path), bot_delay=0, settings=settings)
    with TestClient(app) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        assert service.bot_pool._pool is not None
        workers = list(service.bot_pool._pool._processes.values())
        assert workers
        assert client.get("/api/games").status_code == 200
        assert service.engine.pool.checkedin() > 0  # the app's connection, back in its pool
    assert service.bot_pool._pool is None
    for worker in workers:
        worker.join(timeout=10)
        assert not worker.is_alive()
    assert service.engine.pool.checkedin() == 0  # disposed: a host restarting apps keeps none


KILLED_SERVER = """
import multiprocessing.forkserver as forkserver, multiprocessing.resource_tracker as tracker
import sys
from potluck.server.botpool import BotPool
pool = BotPool(workers=1)
pool.start()
print(*pool._pool._processes, forkserver._forkserver._forkserver_pid, end=" ")
print(tracker._resource_tracker._pid, flush=True)
sys.stdin.read()
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_a_killed_servers_bot_workers_forkserver_and_tracker_end_with_it() -> None:
    import signal
    import subprocess
    import sys

    server = subprocess.Popen(
        [sys.executable, "-c", KILLED_SERVER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,  # the tracker's note on the semaphores it cleans up
        text=True,
    )
    try:
        assert server.stdout is not None
        helpers = [int(pid) for pid in server.stdout.readline().split()]
        assert len(helpers) == 3, helpers
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
    deadline = time.monotonic() + 10
    while (left := [pid for pid in helpers if _running(pid)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"processes {left} outlived the killed server"


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(") ", 1)[1][0] != "Z"  # a zombie has ended
    except FileNotFoundError:
        return False
