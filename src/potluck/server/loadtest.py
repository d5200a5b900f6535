"""Measure move round trips with many tables of every game playing at once.

    python -m potluck.server.loadtest --tables 200 --bot-delay 0.2
    python -m potluck.server.loadtest --tables 20 --json
    python -m potluck.server.loadtest --tables 100 --database-url postgresql+psycopg://...

Starts ``potluck serve`` in a separate process on a loopback port (on a fresh
SQLite file unless ``--database-url`` names a database), creates ``--tables``
tables spread evenly over every game (round robin: table 0 is the first game,
table 1 the second, ...), each with one scripted player in seat 0 and greedy
bots in the others, and plays them all to their end at once. The players arrive
``--arrivals`` a second (40: 200 tables start within 5 s), each making its
table, taking seat 0 and staying until the end. Each table's player sits on a
WebSocket for the pushes and, on each push that offers it a move, posts a
random legal one with ``POST .../actions`` at once, over its own keep-alive
connection (``potluck.server.loadclient``); a move's round trip is that
request's time (the move checked under the table's lock, stored, applied and
pushed to the table's watchers). The client's own waits count in it too, so the
client is kept light: uvloop, a lean HTTP client, the garbage collector held back.

``--hard-bot-seconds 2`` adds one more table, of bots only, where a search bot
thinks 2 s a move (in the server's bot worker processes): its effect on the
other tables' round trips is what it measures.

``--kill-after 20`` (with ``--workers 2`` or more) kills one server process with
SIGKILL 20 s into the run, as a crash would: its tables must go on in the other
processes. Every run checks, at its end, that each finished table's stored record
holds every move of its scripted seat that was acknowledged (``acknowledged moves
missing``: 0). ``--profile FILE`` runs the (one) server process under cProfile,
counting CPU time, and writes its statistics to FILE.

Prints, per game and over all, the median, 99th percentile and maximum round
trip, the errors (refused moves, failed requests, tables that did not finish),
player moves per second and the CPU the server used (its processes and their
bot workers, from ``/proc``). ``--json`` prints the same as one JSON object with
at least ``tables``, ``moves``, ``errors``, ``p50_ms``, ``p99_ms`` and ``max_ms``.
Only loopback is used.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from potluck.engine.registry import list_games, load_game
from potluck.server.loadclient import HttpError, PlayerConnection

#: How many players arrive a second: 200 tables start within 5 s, as real players
#: would, not all in the same millisecond.
ARRIVALS_PER_SECOND = 40.0

#: The seats of every table: one scripted player, the rest greedy bots.
PLAYERS = {"cafe-carnage": 4, "food-advice": 4, "belly-battle": 4, "belle-of-the-ball": 4}


@dataclass
class Tally:
    """What the tables measured: round trips per game, and what went wrong."""

    times: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    finished: int = 0
    #: Each table's acknowledged moves of its scripted seat (their texts, in order).
    acknowledged: dict[str, list[str]] = field(default_factory=dict)
    #: Acknowledged moves missing from the tables' stored records.
    lost: int = 0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def seats_of(game_id: str) -> list[str]:
    """Seat 0 scripted ("human"), the others greedy bots."""
    game = load_game(game_id)
    players = max(game.min_players, min(PLAYERS.get(game_id, 2), game.max_players))
    return ["human"] + ["greedy"] * (players - 1)


async def _play(
    connection: PlayerConnection,
    base: str,
    game_id: str,
    table_id: str,
    token: str,
    seed: int,
    tally: Tally,
) -> None:
    """Play seat 0 of one table: act on each push that offers moves, timing each POST."""
    rng = random.Random(seed)
    times = tally.times.setdefault(game_id, [])
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}?token={token}"
    async with connect(url, max_size=None, open_timeout=60) as pushes:
        floor = 0  # pushes from before our last move are stale: their actions are gone
        async for raw in pushes:
            message: dict[str, Any] = json.loads(raw)
            if message.get("outcome") is not None:
                tally.finished += 1
                return
            if message["type"] != "state" or message["step"] < floor or not message["legal"]:
                continue
            choice = rng.choice(message["legal"])["action"]
            move = {"action": choice, "decision": message["decision"]}
            started = time.perf_counter()
            try:
                status, body = await connection.request(
                    "POST", f"/api/tables/{table_id}/actions", move, token=token
                )
            except HttpError as error:
                tally.errors.append(f"{game_id} {table_id}: {error}")
                continue  # the next push offers the move again
            times.append(time.perf_counter() - started)
            if not 200 <= status < 300:
                tally.errors.append(f"{game_id} {table_id}: {body.decode(errors='replace')}")
                continue
            tally.acknowledged.setdefault(table_id, []).append(choice)
            floor = json.loads(body)["step"]


async def _table(
    base: str, number: int, game_id: str, start_at: float, tally: Tally
) -> tuple[str, str] | None:
    """One player arriving at ``start_at`` (``perf_counter`` time): makes a table of
    ``game_id``, takes seat 0 and plays it to the end, reconnecting its WebSocket if it
    drops (a server process went away), as the page does. ``(game, table id)``."""
    await asyncio.sleep(max(0.0, start_at - time.perf_counter()))
    host, port = base.removeprefix("http://").rsplit(":", 1)
    connection = PlayerConnection(host, int(port))
    try:
        seats = {"game": game_id, "seats": seats_of(game_id), "seed": number}
        status, body = await connection.request("POST", "/api/tables", seats)
        if not 200 <= status < 300:
            tally.errors.append(f"{game_id}: not created: {body.decode(errors='replace')}")
            return None
        table_id = json.loads(body)["id"]
        path = f"/api/tables/{table_id}/seats/0"
        status, body = await connection.request("POST", path, {"name": "load"})
        if not 200 <= status < 300:
            tally.errors.append(f"{game_id} {table_id}: not joined: {body.decode()}")
            return None
        token = json.loads(body)["token"]
        for _ in range(20):
            try:
                await _play(connection, base, game_id, table_id, token, number, tally)
                return game_id, table_id
            except Exception as error:  # a dropped socket: reconnect, as the page does
                tally.errors.append(f"{game_id} {table_id}: socket {type(error).__name__}")
                await asyncio.sleep(0.5)
        tally.errors.append(f"{game_id} {table_id}: gave up")
        return game_id, table_id
    except HttpError as error:
        tally.errors.append(f"{game_id}: not seated: {error}")
        return None
    finally:
        await connection.close()


async def _run(
    base: str,
    tables: int,
    games: list[str],
    tally: Tally,
    hard_tables: int = 0,
    arrivals: float = ARRIVALS_PER_SECOND,
) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        for _ in range(hard_tables):  # bots only: a search bot thinking beside the others
            seats = ["hard", "greedy", "greedy", "greedy"]
            response = await http.post("/api/tables", json={"game": "cafe-carnage", "seats": seats})
            if not response.is_success:
                tally.errors.append(f"hard table not created: {response.text}")
        # players arrive ``arrivals`` a second (not all in the same instant), then all play
        # at once: every table lives until its game ends
        start = time.perf_counter()
        played = await asyncio.gather(
            *(
                _table(base, number, games[number % len(games)], start + number / arrivals, tally)
                for number in range(tables)
            )
        )
        for seated in played:
            if seated is not None:
                _, table_id = seated
                acknowledged = tally.acknowledged.get(table_id, [])
                tally.lost += await _lost_moves(http, table_id, acknowledged)


async def _lost_moves(http: httpx.AsyncClient, table_id: str, acknowledged: list[str]) -> int:
    """How many of seat 0's ``acknowledged`` moves its stored record lacks (in order; the
    record may hold more: a move stored whose answer was lost with a killed process)."""
    response = await http.get(f"/api/tables/{table_id}/record")
    if not response.is_success:  # not finished: counted among the errors
        return 0
    stored = iter(text for seat, text in response.json()["actions"] if seat == 0)
    found = sum(1 for move in acknowledged if any(text == move for text in stored))
    return len(acknowledged) - found


def _kill_one_process(supervisor: int) -> int | None:
    """SIGKILL one of ``potluck serve --workers``' server processes; its pid."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except (OSError, IndexError, ValueError):
            continue
        if parent == supervisor and b"--socket-fd" in command:
            os.kill(int(entry.name), signal.SIGKILL)
            return int(entry.name)
    return None


def _cpu_seconds(root: int) -> float:
    """User + system CPU seconds of process ``root`` and its living descendants (Linux)."""
    parents: dict[int, int] = {}
    spent: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        spent[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    total = 0.0
    for pid, seconds in spent.items():
        ancestor = pid
        while ancestor not in (root, 0, 1) and ancestor in parents:
            ancestor = parents[ancestor]
        if ancestor == root:
            total += seconds
    return total


def percentiles(times: list[float]) -> dict[str, float]:
    """Median, 99th percentile and maximum of ``times`` (seconds), in milliseconds."""
    if not times:
        return {"moves": 0, "p50_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}
    ordered = sorted(times)
    pick = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return {
        "moves": len(ordered),
        "p50_ms": round(ordered[len(ordered) // 2] * 1000, 1),
        "p99_ms": round(pick * 1000, 1),
        "max_ms": round(ordered[-1] * 1000, 1),
    }


def _play_all(players: Coroutine[Any, Any, None]) -> None:
    """Run the load client's event loop, as light as it can be: on uvloop where installed
    (uvicorn's own loop), and with the cyclic garbage collector held back, since each of
    its full collections stops every table's client for as long as it takes (the pushes
    the client parses are freed by reference counting; nothing it keeps is cyclic)."""
    gc.collect()
    gc.freeze()  # what is loaded already is never scanned again
    thresholds = gc.get_threshold()
    gc.set_threshold(100_000, 50, 100)
    try:
        import uvloop

        factory: Callable[[], asyncio.AbstractEventLoop] | None = uvloop.new_event_loop
    except ImportError:
        factory = None
    try:
        with asyncio.Runner(loop_factory=factory) as runner:
            runner.run(players)
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


#: ``python -c PROFILED FILE ARGS...`` runs ``potluck ARGS...`` under cProfile counting CPU
#: time (not wall time: on a busy machine that would charge other programs' time to
#: whatever ran when the server was descheduled), written to FILE when it stops.
PROFILED = """
import cProfile, runpy, sys, time
path, sys.argv = sys.argv[1], ["potluck", *sys.argv[2:]]
profile = cProfile.Profile(time.process_time)
profile.enable()
try:
    runpy.run_module("potluck.cli", run_name="__main__")
finally:
    profile.disable()
    profile.dump_stats(path)
"""


def serve_command(
    port: int,
    database: str,
    bot_delay: float,
    workers: int,
    hard_bot: str | None = None,
    profile: str | None = None,
) -> list[str]:
    """The ``potluck serve`` command line of a load run (per-client limits off);
    ``profile``: run it under cProfile, its statistics written there when it stops."""
    python = (
        [sys.executable, "-c", PROFILED, profile]
        if profile
        else [sys.executable, "-m", "potluck.cli"]
    )
    command = [*python, "serve", "--port", str(port),
               "--database-url", database, "--bot-delay", str(bot_delay),
               # one client makes every table and move: the per-client limits are raised
               "--create-rate", "none", "--join-rate", "none", "--move-rate", "none",
               "--analysis-rate", "none", "--tables-per-client", "100000",
               "--max-tables", "100000", "--sockets-per-client", "100000"]  # fmt: skip
    if workers > 1:
        command += ["--workers", str(workers)]
    if hard_bot is not None:
        command += ["--hard-bot", hard_bot]
    return command


def run(
    tables: int,
    *,
    bot_delay: float = 0.2,
    workers: int = 1,
    database_url: str | None = None,
    games: list[str] | None = None,
    hard_seconds: float = 0.0,
    profile: str | None = None,
    kill_after: float | None = None,
    arrivals: float = ARRIVALS_PER_SECOND,
) -> dict[str, Any]:
    """Run one load test and return its report (what ``--json`` prints)."""
    games = games or list(list_games())
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        database = database_url or f"sqlite:///{Path(folder) / 'load.sqlite3'}"
        server = subprocess.Popen(
            serve_command(
                port,
                database,
                bot_delay,
                workers,
                f"ismcts:sims=100000000,time={hard_seconds}" if hard_seconds else None,
                profile,
            ),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        tally = Tally()
        killed: list[int | None] = []
        try:
            for _ in range(600):  # the server may take a while to start on a busy machine
                try:
                    httpx.get(base + "/api/games", timeout=1)
                    break
                except httpx.TransportError:
                    if server.poll() is not None:
                        raise SystemExit("loadtest: the server did not start") from None
                    time.sleep(0.1)
            if kill_after is not None:
                killer = threading.Timer(
                    kill_after, lambda: killed.append(_kill_one_process(server.pid))
                )
                killer.daemon = True
                killer.start()
            cpu_before = _cpu_seconds(server.pid)
            client_before = time.process_time()
            started = time.perf_counter()
            _play_all(_run(base, tables, games, tally, 1 if hard_seconds else 0, arrivals))
            seconds = time.perf_counter() - started
            server_cpu = _cpu_seconds(server.pid) - cpu_before
            client_cpu = time.process_time() - client_before
        finally:
            # SIGINT unwinds cProfile's ``finally``, which writes the statistics
            server.send_signal(signal.SIGINT if profile else signal.SIGTERM)
            server.wait(timeout=30)
    every = [moment for times in tally.times.values() for moment in times]
    unfinished = tables - tally.finished
    report: dict[str, Any] = {
        "tables": tables,
        "finished": tally.finished,
        "games": {game_id: percentiles(tally.times.get(game_id, [])) for game_id in games},
        **percentiles(every),
        "errors": len(tally.errors) + unfinished,
        "error_samples": tally.errors[:5],
        "acknowledged_moves_lost": tally.lost,
        "killed_process": (killed or [None])[0],
        "seconds": round(seconds, 1),
        "moves_per_second": round(len(every) / seconds, 1) if seconds else 0.0,
        "server_cpu_seconds": round(server_cpu, 1),
        "server_cpu_percent": round(100 * server_cpu / seconds, 1) if seconds else 0.0,
        "client_cpu_seconds": round(client_cpu, 1),
        "bot_delay": bot_delay,
        "arrivals_per_second": arrivals,
        "workers": workers,
        "hard_bot_seconds": hard_seconds,
        "database": "sqlite" if database_url is None else database_url.split(":", 1)[0],
    }
    return report


def _print(report: dict[str, Any]) -> None:
    print(
        f"{report['tables']} tables ({report['finished']} finished), {report['moves']} player "
        f"moves in {report['seconds']} s ({report['moves_per_second']}/s; bots wait "
        f"{report['bot_delay']} s; {report['workers']} server process(es) on "
        f"{report['database']}); errors: {report['errors']}"
    )
    print(f"{'game':<20} {'moves':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    rows = [*report["games"].items(), ("all", report)]
    for name, row in rows:
        print(
            f"{name:<20} {row['moves']:>6} {row['p50_ms']:>8} {row['p99_ms']:>8} {row['max_ms']:>8}"
        )
    if report["killed_process"] is not None:
        print(f"killed server process {report['killed_process']} with SIGKILL during the run")
    print(
        f"acknowledged moves missing from the stored records: {report['acknowledged_moves_lost']}"
    )
    print(
        f"server CPU {report['server_cpu_seconds']} s "
        f"({report['server_cpu_percent']}% of one core); "
        f"load client CPU {report['client_cpu_seconds']} s"
    )
    for sample in report["error_samples"]:
        print(f"error: {sample}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50, help="tables in all, over every game")
    parser.add_argument("--bot-delay", type=float, default=0.2, help="seconds before a bot moves")
    parser.add_argument("--workers", type=int, default=1, help="server processes (PostgreSQL)")
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    parser.add_argument("--game", action="append", dest="games", help="only this game (repeat)")
    parser.add_argument(
        "--hard-bot-seconds",
        type=float,
        default=0.0,
        help="add one table of bots where a search bot thinks this long a move (not timed)",
    )
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="run the server (one process) under cProfile and write its statistics to FILE",
    )
    parser.add_argument(
        "--kill-after",
        type=float,
        metavar="SECONDS",
        help="with --workers 2 or more: SIGKILL one server process this long into the run",
    )
    parser.add_argument(
        "--arrivals",
        type=float,
        default=ARRIVALS_PER_SECOND,
        metavar="PER_SECOND",
        help="players arriving a second, each making and joining a table (then all play)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    # stopped (timeout, kill): stop the server too, through run()'s ``finally``
    signal.signal(signal.SIGTERM, lambda _signal, _frame: sys.exit(143))
    if args.arrivals <= 0:
        parser.error("--arrivals must be above 0")
    if args.tables < 1:
        parser.error("--tables must be at least 1")
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.kill_after is not None and args.workers < 2:
        parser.error("--kill-after needs --workers 2 or more (a process to take over)")
    if args.profile and args.workers > 1:
        parser.error("--profile profiles one server process: leave --workers out")
    if args.workers > 1 and not (args.database_url or "").startswith("postgresql"):
        parser.error("--workers above 1 needs a PostgreSQL --database-url")
    known = list(list_games())
    for game_id in args.games or []:
        if game_id not in known:
            parser.error(f"unknown game {game_id!r}; the games are {', '.join(known)}")
    report = run(
        args.tables,
        bot_delay=args.bot_delay,
        workers=args.workers,
        database_url=args.database_url,
        games=args.games,
        hard_seconds=args.hard_bot_seconds,
        profile=args.profile,
        kill_after=args.kill_after,
        arrivals=args.arrivals,
    )
    if args.json:
        print(json.dumps(report))
    else:
        _print(report)


if __name__ == "__main__":
    main()
