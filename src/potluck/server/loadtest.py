"""Measure move round trips with many tables of every game playing at once.

    python -m potluck.server.loadtest --tables 200 --bot-delay 0.2
    python -m potluck.server.loadtest --tables 20 --json
    python -m potluck.server.loadtest --tables 100 --database-url postgresql+psycopg://...

Starts ``potluck serve`` in a separate process on a loopback port (on a fresh
SQLite file unless ``--database-url`` names a database), creates ``--tables``
tables spread evenly over every game (round robin: table 0 is the first game,
table 1 the second, ...), each with one scripted player in seat 0 and greedy
bots in the others, and plays them all to their end at once. The players
(``potluck.server.loadclient``) arrive ``--arrivals`` a second (40: 200 tables
start within 5 s), each making its table over its own connection, taking seat 0
and staying to the end. Each sits on a WebSocket for the pushes and, on each
push that offers it a move, posts a random legal one with ``POST .../actions``
at once; a move's round trip is that request's time (the move checked under
the table's lock, stored, applied and pushed to the table's watchers). The load
client's own waits count in it too, so the client is kept light.

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
trip, the errors counted by kind (the server's error code of a refused move, the
client's exception of a failed request or dropped socket, ``unfinished`` tables),
player moves per second, how far apart the bots' moves reached the players
(``bot_gap_p50_ms`` and ``bot_gap_p99_ms``: from one push to the next while the
scripted seat had nothing to do; at least ``--bot-delay``, more when the server
makes the bots wait), and the CPU the server used (its processes and their
bot workers, from ``/proc``), the load client and a local PostgreSQL server's
processes of the database used, and how long the server's event loop and the
client were ready to run but waited for a busy CPU (``/proc/PID/schedstat``).
``--json`` prints the same as one JSON object with
at least ``tables``, ``moves``, ``errors``, ``p50_ms``, ``p99_ms`` and ``max_ms``.
``--server-log FILE`` keeps the server's log (warnings and errors);
``--max-seconds S`` stops playing after S seconds and reports what was measured
(the tables still playing count as ``unfinished``). Only loopback is used.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from potluck.engine.registry import list_games
from potluck.server.loadclient import ARRIVALS_PER_SECOND, Tally, play_all, seats_of

__all__ = ["main", "run", "seats_of", "serve_command"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _kill_one_process(supervisor: int) -> int | None:
    """SIGKILL one of ``potluck serve --workers``' server processes; its pid."""
    for pid in _serving_children(supervisor):
        os.kill(pid, signal.SIGKILL)
        return pid
    return None


def _serving_children(parent_pid: int) -> list[int]:
    """The children of ``parent_pid`` that serve (``--socket-fd``), from /proc (Linux)."""
    children = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except (OSError, IndexError, ValueError):
            continue
        if parent == parent_pid and b"--socket-fd" in command:
            children.append(int(entry.name))
    return children


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


def _event_loops(root: int) -> list[int]:
    """The server's event-loop processes: ``root``, or with ``--workers`` its children
    that serve (``--socket-fd``)."""
    return _serving_children(root) or [root]


def _waited_for_cpu(pids: list[int]) -> float:
    """Seconds the main threads of ``pids`` were ready to run but waited for a CPU (the
    kernel's run-queue time, ``/proc/PID/schedstat``; Linux): a busy machine's share of
    the round trips, which no change to the server removes."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            total += int(Path(f"/proc/{pid}/schedstat").read_text().split()[1])
    return total / 1e9


def _database_cpu_seconds(database_url: str | None) -> float:
    """CPU seconds of the local PostgreSQL server processes serving ``database_url``'s
    database (``postgres: ... <user> <database> ...``, Linux); 0 without one. Only the
    living ones count: the server's pooled connections, which stay open for the run."""
    if not database_url or not database_url.startswith("postgresql"):
        return 0.0
    name = database_url.rsplit("/", 1)[-1].split("?", 1)[0]
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().decode(errors="replace").split()
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if command[:1] == ["postgres:"] and name in command[2:5]:
            total += (int(fields[11]) + int(fields[12])) / tick
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
               "--max-tables", "100000", "--sockets-per-client", "100000",
               "--connections-per-address", "100000", "--max-connections", "100000"]  # fmt: skip
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
    server_log: str | None = None,
    max_seconds: float | None = None,
    arrivals: float = ARRIVALS_PER_SECOND,
    moves: str = "http",
) -> dict[str, Any]:
    """Run one load test and return its report (what ``--json`` prints); ``server_log``:
    a file the server processes' log is appended to (else it is dropped)."""
    games = games or list(list_games())
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        database = database_url or f"sqlite:///{Path(folder) / 'load.sqlite3'}"
        log_file = open(server_log, "ab") if server_log else None  # noqa: SIM115
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
            stderr=log_file or subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        tally = Tally(over_http=moves != "socket")
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
            loops = _event_loops(server.pid)
            waited_before = _waited_for_cpu(loops), _waited_for_cpu([os.getpid()])
            database_before = _database_cpu_seconds(database_url)
            client_before = time.process_time()
            started = time.perf_counter()
            hard_tables = 1 if hard_seconds else 0
            play_all(base, tables, games, tally, hard_tables, max_seconds, arrivals)
            seconds = time.perf_counter() - started
            server_cpu = _cpu_seconds(server.pid) - cpu_before
            server_waited = _waited_for_cpu(loops) - waited_before[0]
            client_waited = _waited_for_cpu([os.getpid()]) - waited_before[1]
            database_cpu = _database_cpu_seconds(database_url) - database_before
            client_cpu = time.process_time() - client_before
        finally:
            # SIGINT unwinds cProfile's ``finally``, which writes the statistics
            server.send_signal(signal.SIGINT if profile else signal.SIGTERM)
            server.wait(timeout=30)
            if log_file is not None:
                log_file.close()
    every = [moment for times in tally.times.values() for moment in times]
    unfinished = tables - tally.finished
    report: dict[str, Any] = {
        "tables": tables,
        "finished": tally.finished,
        "games": {game_id: percentiles(tally.times.get(game_id, [])) for game_id in games},
        **percentiles(every),
        "errors": len(tally.errors) + unfinished,
        "error_kinds": dict(tally.kinds.most_common())
        | ({"unfinished": unfinished} if unfinished else {}),
        "error_samples": tally.errors[:5],
        "unfinished_tables": [t for t in tally.seated if t not in tally.done][:20],
        "acknowledged_moves_lost": tally.lost,
        "stopped_after_max_seconds": tally.stopped,
        "killed_process": (killed or [None])[0],
        "seconds": round(seconds, 1),
        "moves_per_second": round(len(every) / seconds, 1) if seconds else 0.0,
        # how far apart the bots' moves reached a player (the pause is ``bot_delay``)
        **{f"bot_gap_{key}": value for key, value in percentiles(tally.bot_gaps).items()},
        "server_cpu_seconds": round(server_cpu, 1),
        "server_cpu_percent": round(100 * server_cpu / seconds, 1) if seconds else 0.0,
        "client_cpu_seconds": round(client_cpu, 1),
        # ready to run, but every core was busy (the machine's share of the waits)
        "server_waited_for_cpu_seconds": round(server_waited, 1),
        "client_waited_for_cpu_seconds": round(client_waited, 1),
        "database_cpu_seconds": round(database_cpu, 1),
        "bot_delay": bot_delay,
        "arrivals_per_second": arrivals,
        "moves_over": moves,
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
    print(
        f"bots' moves reached the player {report['bot_gap_p50_ms']} ms apart (p50; p99 "
        f"{report['bot_gap_p99_ms']} ms, over {report['bot_gap_moves']} gaps; their pause "
        f"is {report['bot_delay']} s)"
    )
    if report["killed_process"] is not None:
        print(f"killed server process {report['killed_process']} with SIGKILL during the run")
    if report["stopped_after_max_seconds"]:
        print("stopped after --max-seconds: the unfinished tables were still playing")
    else:
        print(
            "acknowledged moves missing from the stored records: "
            f"{report['acknowledged_moves_lost']}"
        )
    print(
        f"server CPU {report['server_cpu_seconds']} s "
        f"({report['server_cpu_percent']}% of one core); "
        f"load client CPU {report['client_cpu_seconds']} s; "
        f"PostgreSQL CPU {report['database_cpu_seconds']} s"
    )
    print(
        "ready to run but waiting for a busy CPU: the server's event loop "
        f"{report['server_waited_for_cpu_seconds']} s, load client "
        f"{report['client_waited_for_cpu_seconds']} s"
    )
    for kind, count in report["error_kinds"].items():
        print(f"errors of kind {kind}: {count}")
    if report["unfinished_tables"]:
        print(f"unfinished tables (up to 20): {' '.join(report['unfinished_tables'])}")
    for sample in report["error_samples"]:
        print(f"error sample: {sample}")


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
        "--max-seconds",
        type=float,
        metavar="SECONDS",
        help="stop playing after this long and report (tables still playing: unfinished)",
    )
    parser.add_argument(
        "--server-log", metavar="FILE", help="append the server processes' log to FILE"
    )
    parser.add_argument(
        "--arrivals",
        type=float,
        default=ARRIVALS_PER_SECOND,
        metavar="PER_SECOND",
        help="players arriving a second, each making and joining a table (then all play)",
    )
    parser.add_argument(
        "--moves",
        choices=("http", "socket"),
        default="http",
        help="how the scripted player sends a move: POST .../actions, as the page does"
        " (timed to its answer), or over the table's WebSocket (timed to the push that"
        " shows it taken)",
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
        server_log=args.server_log,
        max_seconds=args.max_seconds,
        arrivals=args.arrivals,
        moves=args.moves,
    )
    if args.json:
        print(json.dumps(report))
    else:
        _print(report)


if __name__ == "__main__":
    main()
