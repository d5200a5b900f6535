"""Several server processes over one PostgreSQL database (docs/web.md, "Scaling").

Two ``potluck serve --cluster`` processes on two ports share one database, as two
machines behind a proxy would. The tests check that a client of either sees its
table live, that a move posted to the process that does not run the table is
taken once, and that killing one process mid-game loses no acknowledged move
and every table still finishes. They need ``POTLUCK_TEST_DATABASE_URL`` (a
PostgreSQL database, as ``.ci/run`` makes) and are skipped without it.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from potluck.server.loadtest import _free_port, seats_of, serve_command

DATABASE = os.environ.get("POTLUCK_TEST_DATABASE_URL", "")
postgres = pytest.mark.skipif(
    not DATABASE.startswith("postgresql"), reason="needs POTLUCK_TEST_DATABASE_URL (PostgreSQL)"
)


def test_several_workers_are_refused_on_sqlite(tmp_path: Any) -> None:
    from potluck.cli.app import app

    url = f"sqlite:///{tmp_path / 'one.sqlite3'}"
    result = CliRunner().invoke(app, ["serve", "--workers", "2", "--database-url", url])
    assert result.exit_code != 0
    assert "--workers 2 needs PostgreSQL" in result.output
    result = CliRunner().invoke(app, ["serve", "--cluster", "--database-url", url])
    assert result.exit_code != 0
    assert "--cluster needs PostgreSQL" in result.output


def _start(port: int, bot_delay: float) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*serve_command(port, DATABASE, bot_delay, 1), "--cluster"],
        stdout=subprocess.DEVNULL,
        # its own process group: a crash is emulated by killing the server with every
        # process it runs (bot pool, forkserver), which would otherwise linger orphaned
        start_new_session=True,
    )


def _wait_until_up(base: str) -> None:
    for _ in range(300):
        try:
            httpx.get(base + "/api/games", timeout=1)
            return
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError(f"{base} did not start")


@pytest.fixture
def two_servers() -> Iterator[tuple[list[str], list[subprocess.Popen[bytes]]]]:
    ports = [_free_port(), _free_port()]
    processes = [_start(port, 0.05) for port in ports]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        for base in bases:
            _wait_until_up(base)
        yield bases, processes
    finally:
        for process in processes:
            if process.poll() is None:
                process.terminate()
        for process in processes:
            process.wait(timeout=30)


def _new_table(base: str, game: str = "cafe-carnage") -> tuple[str, str]:
    created = httpx.post(base + "/api/tables", json={"game": game, "seats": seats_of(game)})
    assert created.is_success, created.text
    table_id = created.json()["id"]
    joined = httpx.post(f"{base}/api/tables/{table_id}/seats/0", json={"name": "p"})
    assert joined.is_success, joined.text
    return table_id, joined.json()["token"]


@postgres
def test_a_client_of_the_other_process_sees_the_table_live_and_moves_once(
    two_servers: tuple[list[str], list[subprocess.Popen[bytes]]],
) -> None:
    (first, second), _ = two_servers
    table_id, token = _new_table(first)
    headers = {"Authorization": f"Bearer {token}"}

    async def scenario() -> None:
        from websockets.asyncio.client import connect

        url = second.replace("http", "ws", 1) + f"/ws/tables/{table_id}?token={token}"
        async with connect(url) as pushes, httpx.AsyncClient() as http:
            message: dict[str, Any] = {}
            while not message.get("legal"):  # the first process's bots move; we see it here
                message = json.loads(await asyncio.wait_for(pushes.recv(), 30))
            move = {"action": message["legal"][0]["action"], "decision": message["decision"]}
            answers = await asyncio.gather(
                http.post(f"{first}/api/tables/{table_id}/actions", json=move, headers=headers),
                http.post(f"{second}/api/tables/{table_id}/actions", json=move, headers=headers),
            )
            codes = sorted(answer.status_code for answer in answers)
            assert codes == [200, 409], [answer.text for answer in answers]
            refused = next(answer for answer in answers if answer.status_code == 409)
            assert refused.json()["error"] == "already_answered"
            step = message["step"]
            while message["step"] <= step:  # the move reaches this socket, whoever stored it
                message = json.loads(await asyncio.wait_for(pushes.recv(), 30))

    asyncio.run(scenario())


async def _play(
    bases: list[str], table_id: str, token: str, seed: int, acked: list[str], dead: set[str]
) -> None:
    """Play seat 0 over whichever process is alive, as the page does: reconnect on a drop."""
    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    headers = {"Authorization": f"Bearer {token}"}
    turn = seed
    async with httpx.AsyncClient(timeout=30) as http:
        for _ in range(60):
            live = [base for base in bases if base not in dead] or bases
            base = live[turn % len(live)]
            turn += 1
            url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}?token={token}"
            try:
                async with connect(url, open_timeout=10) as pushes:
                    floor = 0
                    async for raw in pushes:
                        message = json.loads(raw)
                        if message.get("outcome") is not None:
                            return
                        if message["type"] != "state" or message["step"] < floor:
                            continue
                        if not message["legal"]:
                            continue
                        action = rng.choice(message["legal"])["action"]
                        answer = await http.post(
                            f"{base}/api/tables/{table_id}/actions",
                            json={"action": action, "decision": message["decision"]},
                            headers=headers,
                        )
                        if answer.status_code == 200:
                            acked.append(action)
                            floor = answer.json()["step"]
            except (OSError, httpx.HTTPError, Exception):
                await asyncio.sleep(0.3)  # the process went away: try the other
    raise AssertionError(f"table {table_id} never finished")


@postgres
def test_killing_one_of_two_processes_loses_no_acknowledged_move(
    two_servers: tuple[list[str], list[subprocess.Popen[bytes]]],
) -> None:
    from sqlalchemy import create_engine, text

    bases, processes = two_servers
    games = ["cafe-carnage", "burger-joint", "belly-battle", "food-advice", "belle-of-the-ball"]
    # every table is made on the first process, which runs their bots until it dies
    tables = [_new_table(bases[0], games[n % len(games)]) for n in range(10)]
    acked: dict[str, list[str]] = {table_id: [] for table_id, _ in tables}
    dead: set[str] = set()

    async def scenario() -> None:
        async def killer() -> None:
            await asyncio.sleep(3)  # mid-game: the tables have moves behind and ahead
            dead.add(bases[0])
            os.killpg(processes[0].pid, signal.SIGKILL)

        await asyncio.wait_for(
            asyncio.gather(
                killer(),
                *(
                    _play(bases, table_id, token, seed, acked[table_id], dead)
                    for seed, (table_id, token) in enumerate(tables)
                ),
            ),
            timeout=240,
        )

    asyncio.run(scenario())
    assert processes[0].poll() == -signal.SIGKILL  # it really died mid-game
    engine = create_engine(DATABASE)
    with engine.connect() as connection:
        for table_id, moves in acked.items():
            status = connection.execute(
                text("SELECT status FROM tables WHERE id = :id"), {"id": table_id}
            ).scalar_one()
            assert status == "over", table_id
            stored = connection.execute(
                text("SELECT text FROM actions WHERE table_id = :id AND seat = 0 ORDER BY number"),
                {"id": table_id},
            ).scalars()
            # each acknowledged move, once, in order; and at most one more: a move the
            # killed process stored whose answer died with it (its player waits for each
            # answer, so one a table at most)
            stored_moves = list(stored)
            rest = iter(stored_moves)
            assert all(any(text == move for text in rest) for move in moves), table_id
            assert len(stored_moves) - len(moves) <= 1, table_id
    engine.dispose()
