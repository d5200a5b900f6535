"""One client hogging the server's CPU while another's hard bot plays, and the time it costs.

    python -m potluck.server.hogs bots --tables 10 --seconds 60 --json
    python -m potluck.server.hogs analyses --analyses 2 --seconds 60 --json

Starts ``potluck serve`` (a fresh SQLite file; ``--bot-delay``, 0.2 s by
default) unless ``--url`` names one. The fair client (``127.0.0.1``, a process of
its own) makes a table of four hard bots (Café Carnage) and watches it as a
spectator: each push that shows one more move ends a *decision*, timed from the
push before (the bots' pause included), and a finished table is followed by a
new one. It watches first alone for ``--idle-seconds``, then beside the hog
(``127.0.0.2``):

- ``bots``: ``--tables`` tables of four hard bots of the hog's own;
- ``analyses``: the hog finishes two games of greedy bots, then keeps
  ``--analyses`` move analyses running at once (a finished one is asked again
  for another seat: every one is new work for the server).

The report gives the fair table's decisions alone and beside the hog (median,
mean, 90th percentile), their ratio and difference, and how long the server took
to exit after SIGTERM, sent while the hog was still at it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx

from potluck.server.abuse import ATTACKER, FAIR, start_server

__all__ = ["decisions", "main", "run"]

HARD_TABLE = {"game": "cafe-carnage", "num_players": 4, "seats": ["hard"] * 4}


def summary(times: list[float]) -> dict[str, float]:
    """Median, mean and 90th percentile of ``times`` (seconds)."""
    if not times:
        return {"decisions": 0, "p50_s": 0.0, "mean_s": 0.0, "p90_s": 0.0}
    ordered = sorted(times)
    return {
        "decisions": len(ordered),
        "p50_s": round(ordered[len(ordered) // 2], 3),
        "mean_s": round(sum(ordered) / len(ordered), 3),
        "p90_s": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))], 3),
    }


# ---------------------------------------------------------------------- the fair table


async def _decisions(
    base: str, seconds: float, address: str, table: str | None
) -> tuple[list[float], str | None]:
    from websockets.asyncio.client import connect

    transport = httpx.AsyncHTTPTransport(local_address=address, retries=0)
    gaps: list[float] = []
    stop = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as client:
        while time.monotonic() < stop:
            if table is None:
                created = await client.post("/api/tables", json=HARD_TABLE)
                created.raise_for_status()
                table = str(created.json()["id"])
            url = base.replace("http", "ws", 1) + f"/ws/tables/{table}"
            async with connect(url, local_addr=(address, 0)) as socket:
                steps, last = -1, time.monotonic()
                while time.monotonic() < stop:
                    try:
                        push = json.loads(await asyncio.wait_for(socket.recv(), 60))
                    except TimeoutError:
                        break
                    if push.get("type") != "state":
                        continue
                    now = time.monotonic()
                    if steps >= 0 and push["step"] == steps + 1:
                        gaps.append(now - last)
                    steps, last = push["step"], now
                    if push["table"]["status"] != "running":
                        table = None
                        break
    return gaps, table


def decisions(
    base: str, seconds: float, address: str = FAIR, table: str | None = None
) -> tuple[list[float], str | None]:
    """The fair table's decision times (seconds) over ``seconds``, and the table still
    playing at the end. ``table``: go on watching that one (the client's earlier table:
    a second table of its own would wait for its first's bots, by the rule under test)."""
    return asyncio.run(_decisions(base, seconds, address, table))


def _decisions_process(base: str, seconds: float, table: str | None) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "potluck.server.hogs", "watch", "--url", base,
               "--seconds", str(seconds), *(["--table", table] if table else [])]  # fmt: skip
    return subprocess.Popen(command, stdout=subprocess.PIPE)


async def _watched(process: subprocess.Popen[bytes]) -> tuple[list[float], str | None]:
    out, _ = await asyncio.to_thread(process.communicate, None, 900)
    gaps, table = json.loads(out)
    return list(gaps), table


# ---------------------------------------------------------------------- the hogs


async def _bot_hog(
    client: httpx.AsyncClient, tables: int, stop: asyncio.Event, seen: dict[str, Any]
) -> None:
    seen["tables_made"] = 0
    ids: list[str] = []
    while not stop.is_set():
        for table_id in list(ids):  # a finished table makes room for another
            status = (await client.get(f"/api/tables/{table_id}")).json()["table"]["status"]
            if status != "running":
                ids.remove(table_id)
        while len(ids) < tables:
            answer = await client.post("/api/tables", json=HARD_TABLE)
            if answer.status_code != 201:
                break
            ids.append(answer.json()["id"])
            seen["tables_made"] += 1
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 5)


async def _finished_games(client: httpx.AsyncClient, count: int) -> list[str]:
    body = {"game": "cafe-carnage", "num_players": 4, "seats": ["greedy"] * 4}
    ids = [(await client.post("/api/tables", json=body)).json()["id"] for _ in range(count)]
    for table_id in ids:
        while (await client.get(f"/api/tables/{table_id}")).json()["table"]["status"] != "over":
            await asyncio.sleep(0.5)
    return ids


async def _analysis_hog(
    client: httpx.AsyncClient, analyses: int, stop: asyncio.Event, seen: dict[str, Any]
) -> None:
    games = await _finished_games(client, analyses)
    asked: list[str] = []
    answers: dict[str, int] = {}
    seen.update(games_finished_after_s=round(time.monotonic() - seen["since"], 1),
                analyses_asked=asked, answers=answers, moves_judged=0)  # fmt: skip

    async def keep_one_running(table_id: str) -> None:
        seat = 0
        while not stop.is_set():
            url = f"/api/tables/{table_id}/analysis?seat={seat % 4}"
            asked.append(url)
            while not stop.is_set():
                answer = await client.get(url)
                answers[str(answer.status_code)] = answers.get(str(answer.status_code), 0) + 1
                if answer.status_code == 200:
                    seen["moves_judged"] += len(answer.json()["moves"])
                elif answer.status_code == 202:  # how far the one under way got
                    seen["most_done"] = max(seen.get("most_done", 0), answer.json()["done"])
                if answer.status_code != 202:
                    break
                await asyncio.sleep(0.5)
            if answer.status_code == 429:  # out of budget: the server says when to come back
                with contextlib.suppress(TimeoutError):
                    wait = float(answer.headers.get("Retry-After", "5"))
                    await asyncio.wait_for(stop.wait(), wait)
            seat += 1

    await asyncio.gather(*(keep_one_running(table_id) for table_id in games))


async def _run(
    base: str,
    server: subprocess.Popen[bytes] | None,
    hog: str,
    amount: int,
    seconds: float,
    idle_seconds: float,
    warmup: float,
) -> dict[str, Any]:
    idle, table = await _watched(_decisions_process(base, idle_seconds, None))
    stop = asyncio.Event()
    transport = httpx.AsyncHTTPTransport(local_address=ATTACKER, retries=0)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=600) as client:
        seen: dict[str, Any] = {"since": time.monotonic()}
        work = (
            _bot_hog(client, amount, stop, seen)
            if hog == "bots"
            else _analysis_hog(client, amount, stop, seen)
        )
        hogging = asyncio.create_task(work)
        await asyncio.sleep(warmup)
        beside, _ = await _watched(_decisions_process(base, seconds, table))
        stopped_in = None
        if server is not None:  # stopped while the hog is still at it
            started = time.monotonic()
            server.send_signal(signal.SIGTERM)
            await asyncio.to_thread(server.wait, 60)
            stopped_in = round(time.monotonic() - started, 2)
        stop.set()
        with contextlib.suppress(TimeoutError, httpx.HTTPError):  # the server is gone
            await asyncio.wait_for(hogging, 30)
        hogged = {key: len(v) if isinstance(v, list) else v for key, v in seen.items()}
        hogged.pop("since")
    alone, under = summary(idle), summary(beside)
    return {
        "hog": hog,
        "amount": amount,
        "alone": alone,
        "beside_hog": under,
        "mean_ratio": round(under["mean_s"] / alone["mean_s"], 2) if alone["mean_s"] else None,
        "p50_ratio": round(under["p50_s"] / alone["p50_s"], 2) if alone["p50_s"] else None,
        "mean_delay_s": round(under["mean_s"] - alone["mean_s"], 3),
        "p90_delay_s": round(under["p90_s"] - alone["p90_s"], 3),
        "hogged": hogged,
        "sigterm_exit_seconds": stopped_in,
        "load_average": os.getloadavg(),
    }


def run(
    hog: str,
    *,
    url: str | None = None,
    amount: int = 10,
    seconds: float = 60.0,
    idle_seconds: float = 40.0,
    warmup: float = 10.0,
    bot_delay: float = 0.2,
    server_args: list[str] | None = None,
) -> dict[str, Any]:
    """One run (see the module's docstring); the report."""
    with tempfile.TemporaryDirectory() as folder:
        server = None
        if url is None:
            extra = ["--bot-delay", str(bot_delay), *(server_args or [])]
            server, url = start_server(folder, None, extra)
        try:
            return asyncio.run(_run(url, server, hog, amount, seconds, idle_seconds, warmup))
        finally:
            if server is not None and server.poll() is None:
                server.kill()
                server.wait(timeout=30)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m potluck.server.hogs", description=__doc__)
    parser.add_argument("hog", choices=["bots", "analyses", "watch"])
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--tables", type=int, default=10, help="bots: the hog's tables")
    parser.add_argument("--analyses", type=int, default=2, help="analyses: at once")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--idle-seconds", type=float, default=40.0)
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--bot-delay", type=float, default=0.2)
    parser.add_argument("--table", help="watch: go on watching this table")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("server_args", nargs="*", help="after --: more `potluck serve` options")
    args = parser.parse_intermixed_args(argv)  # "bots --tables 3 -- --hard-bot X"
    if args.hog == "watch":
        print(json.dumps(decisions(args.url, args.seconds, table=args.table)))
        return
    report = run(
        args.hog,
        url=args.url,
        amount=args.tables if args.hog == "bots" else args.analyses,
        seconds=args.seconds,
        idle_seconds=args.idle_seconds,
        warmup=args.warmup,
        bot_delay=args.bot_delay,
        server_args=args.server_args,
    )
    print(json.dumps(report, indent=None if args.json else 2))


if __name__ == "__main__":
    main()
