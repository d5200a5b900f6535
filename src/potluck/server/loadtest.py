"""Measure move round trips with many tables of bots playing at once.

    python -m potluck.server.loadtest --tables 50 --bot-delay 0.2

Starts ``potluck serve`` in a separate process on a loopback port with a fresh
SQLite file, creates the tables (Café Carnage: one scripted player and three
bots each) and plays every table to its end at once. Each table's player sits
on a WebSocket for the pushes and moves with ``POST .../actions``; a move's
round trip is that request's time (the move checked under the table's lock,
stored, applied and pushed to the table's watchers). Prints the median and the
99th percentile over every move. Only loopback is used.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _play(
    http: httpx.AsyncClient, table_id: str, token: str, seed: int, times: list[float]
) -> None:
    """Play seat 0 of one table: act on each push that offers moves, timing each POST."""
    rng = random.Random(seed)
    url = str(http.base_url).rstrip("/").replace("http", "ws", 1)
    url += f"/ws/tables/{table_id}?token={token}"
    headers = {"Authorization": f"Bearer {token}"}
    async with connect(url, max_size=None, open_timeout=60) as pushes:
        floor = 0  # pushes from before our last move are stale: their actions are gone
        async for raw in pushes:
            message: dict[str, Any] = json.loads(raw)
            if message.get("outcome") is not None:
                return
            if message["type"] != "state" or message["step"] < floor or not message["legal"]:
                continue
            choice = rng.choice(message["legal"])["action"]
            started = time.perf_counter()
            response = await http.post(
                f"/api/tables/{table_id}/actions",
                json={"action": choice, "decision": message["decision"]},
                headers=headers,
            )
            times.append(time.perf_counter() - started)
            if response.status_code != 200:
                raise RuntimeError(f"refused: {response.text}")
            floor = response.json()["step"]


async def _run(base: str, tables: int) -> list[float]:
    # one client for every table: making a client per table costs the load generator
    # more time than the moves it measures
    limits = httpx.Limits(max_connections=tables + 10, max_keepalive_connections=tables + 10)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        seated = []
        for number in range(tables):
            created = (
                await http.post(
                    "/api/tables",
                    json={
                        "game": "cafe-carnage",
                        "num_players": 4,
                        "seats": ["human", "greedy", "greedy", "random"],
                        "seed": number,
                    },
                )
            ).json()
            joined = (
                await http.post(f"/api/tables/{created['id']}/seats/0", json={"name": "load"})
            ).json()
            seated.append((created["id"], joined["token"]))
        times: list[float] = []
        await asyncio.gather(
            *(_play(http, table, token, seed, times) for seed, (table, token) in enumerate(seated))
        )
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--bot-delay", type=float, default=0.2)
    args = parser.parse_args()
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{Path(folder) / 'load.sqlite3'}"
        server = subprocess.Popen(
            [sys.executable, "-m", "potluck.cli", "serve", "--port", str(port),
             "--database-url", database, "--bot-delay", str(args.bot_delay),
             # one client makes every table and move: the per-client limits are raised
             "--create-rate", "none", "--join-rate", "none", "--move-rate", "none",
             "--analysis-rate", "none",
             "--tables-per-client", "100000",
             "--max-tables", "100000", "--sockets-per-client", "100000"],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(600):  # the server may take a while to start on a busy machine
                try:
                    httpx.get(base + "/api/games", timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            started = time.perf_counter()
            times = asyncio.run(_run(base, args.tables))
            seconds = time.perf_counter() - started
        finally:
            server.terminate()
            server.wait(timeout=10)
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(
        f"{args.tables} tables, {len(times)} player moves in {seconds:.1f} s "
        f"(bots wait {args.bot_delay} s): round trip median "
        f"{statistics.median(times) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
        f"max {times[-1] * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
