"""Attack a local ``potluck serve`` as one address while another plays fair, and time it.

    python -m potluck.server.abuse slow-headers --connections 1100 --seconds 30 --json
    python -m potluck.server.abuse ws-flood --seconds 5 --json
    python -m potluck.server.abuse slow-headers --file-limit 1024   # as in issue 33

Starts ``potluck serve`` on a loopback port (a fresh SQLite file; ``--file-limit``
sets the process's open-file limit, soft and hard) unless ``--url`` names a
running server. The attacker connects from ``127.0.0.2`` and the fair client
from ``127.0.0.1``: Linux routes all of ``127.0.0.0/8`` to loopback, so the
server sees two addresses on one machine.

- ``slow-headers``: ``--connections`` connections, each sending a request line
  and then one more header line every ``--interval`` seconds, never finishing
  its head (a "slowloris" client); a connection the server closes is opened
  again at its next tick.
- ``ws-flood``: the attacker creates a table, takes its human seat, opens the
  table's WebSocket and sends moves as fast as it can without waiting for
  answers; when the server closes the socket it connects again at once.

The fair client (its own process, ``probe``) asks ``GET /api/tables`` every
``--every`` seconds, first ``--idle-seconds`` alone, then during the attack,
and reports each phase's median, 99th percentile, maximum and failures (an
error status or no answer within 10 s). The report also says what the attacker
saw: connections held at most, answers by status, closes by code.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

ATTACKER = "127.0.0.2"
FAIR = "127.0.0.1"

__all__ = ["main", "probe", "slow_headers", "ws_flood"]


def percentiles(times: list[float]) -> dict[str, float]:
    """Median, 99th percentile and maximum of ``times`` (seconds), in milliseconds."""
    if not times:
        return {"requests": 0, "p50_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}
    ordered = sorted(times)
    pick = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return {
        "requests": len(ordered),
        "p50_ms": round(ordered[len(ordered) // 2] * 1000, 2),
        "p99_ms": round(pick * 1000, 2),
        "max_ms": round(ordered[-1] * 1000, 2),
    }


# ---------------------------------------------------------------------- the fair client


async def _probe(
    base: str, seconds: float, every: float, address: str, delay: float
) -> dict[str, Any]:
    await asyncio.sleep(delay)
    transport = httpx.AsyncHTTPTransport(local_address=address, retries=0)
    times: list[float] = []
    failures: Counter[str] = Counter()
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=10) as client:
        stop = time.perf_counter() + seconds
        while time.perf_counter() < stop:
            started = time.perf_counter()
            try:
                response = await client.get("/api/tables?limit=5")
                if response.status_code != 200:
                    failures[f"status {response.status_code}"] += 1
                else:
                    times.append(time.perf_counter() - started)
            except httpx.HTTPError as error:
                failures[type(error).__name__] += 1
            await asyncio.sleep(max(0.0, every - (time.perf_counter() - started)))
    return {**percentiles(times), "failures": sum(failures.values()), "failed": dict(failures)}


def probe(
    base: str, seconds: float, every: float = 0.02, address: str = FAIR, delay: float = 0.0
) -> dict[str, Any]:
    """Time ``GET /api/tables`` from ``address`` every ``every`` seconds for ``seconds``,
    starting ``delay`` seconds from now."""
    return asyncio.run(_probe(base, seconds, every, address, delay))


def _probe_process(
    base: str, seconds: float, every: float, delay: float = 0.0
) -> subprocess.Popen[bytes]:
    """The fair client in a process of its own (the attacker's work must not slow it)."""
    command = [sys.executable, "-m", "potluck.server.abuse", "probe", "--url", base,
               "--seconds", str(seconds), "--every", str(every), "--delay", str(delay)]  # fmt: skip
    return subprocess.Popen(command, stdout=subprocess.PIPE)


def _probe_result(process: subprocess.Popen[bytes]) -> dict[str, Any]:
    out, _ = process.communicate(timeout=600)
    return dict(json.loads(out))


# ---------------------------------------------------------------------- the attacks


async def _slow_headers(
    host: str, port: int, connections: int, seconds: float, interval: float
) -> dict[str, Any]:
    held = 0
    most_held = 0
    answers: Counter[str] = Counter()
    opened = 0
    stop = time.monotonic() + seconds

    async def one(number: int) -> None:
        nonlocal held, most_held, opened
        await asyncio.sleep(interval * number / connections)  # spread over one tick
        while time.monotonic() < stop:
            tick = time.monotonic()
            try:
                reader, writer = await asyncio.open_connection(host, port, local_addr=(ATTACKER, 0))
            except OSError as error:
                answers[f"connect failed: {error.strerror or error}"] += 1
                await asyncio.sleep(max(0.0, interval - (time.monotonic() - tick)))
                continue
            opened += 1
            held += 1
            most_held = max(most_held, held)
            try:
                writer.write(f"GET /api/tables HTTP/1.1\r\nHost: {host}\r\n".encode())
                line = 0
                while time.monotonic() < stop:
                    try:
                        data = await asyncio.wait_for(reader.read(4096), interval)
                    except TimeoutError:
                        line += 1
                        writer.write(f"X-Slow-{line}: still coming\r\n".encode())
                        continue
                    status = data.split(b" ", 2)[1].decode() if data.startswith(b"HTTP/") else ""
                    answers[f"closed with {status}" if status else "closed"] += 1
                    break
            except OSError:
                answers["reset"] += 1
            finally:
                held -= 1
                writer.close()
                with contextlib.suppress(OSError):
                    await writer.wait_closed()
            await asyncio.sleep(max(0.0, interval - (time.monotonic() - tick)))

    await asyncio.gather(*(one(n) for n in range(connections)))
    return {"most_held": most_held, "opened": opened, "answers": dict(answers)}


def slow_headers(
    base: str, connections: int, seconds: float, interval: float = 5.0
) -> dict[str, Any]:
    """Hold ``connections`` slow-header connections from ``ATTACKER`` for ``seconds``."""
    _raise_file_limit(connections + 100)
    host, port = _host_port(base)
    return asyncio.run(_slow_headers(host, port, connections, seconds, interval))


async def _ws_flood(base: str, seconds: float) -> dict[str, Any]:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    transport = httpx.AsyncHTTPTransport(local_address=ATTACKER, retries=0)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=10) as client:
        created = await client.post(
            "/api/tables",
            json={"game": "cafe-carnage", "num_players": 4,
                  "seats": ["human", "greedy", "greedy", "greedy"]},
        )  # fmt: skip
        created.raise_for_status()
        table = created.json()["id"]
        joined = await client.post(f"/api/tables/{table}/seats/0", json={"name": "Flood"})
        joined.raise_for_status()
        token = joined.json()["token"]
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table}?token={token}"
    message = json.dumps({"type": "action", "action": "split", "decision": 0})
    sent = 0
    closes: Counter[str] = Counter()
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        try:
            async with connect(url, local_addr=(ATTACKER, 0), open_timeout=10) as socket_:
                while time.monotonic() < stop:
                    await socket_.send(message)
                    sent += 1
                    if sent % 50 == 0:  # let the socket's reader see a close frame
                        await asyncio.sleep(0)
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else "none"
            closes[f"closed {code}"] += 1
        except InvalidStatus as refused:
            closes[f"refused {refused.response.status_code}"] += 1
        except OSError as error:
            closes[f"failed: {error.strerror or error}"] += 1
    return {"table": table, "sent": sent, "closes": dict(closes)}


def ws_flood(base: str, seconds: float) -> dict[str, Any]:
    """Flood one seated WebSocket from ``ATTACKER`` for ``seconds``, reconnecting."""
    return asyncio.run(_ws_flood(base, seconds))


# ---------------------------------------------------------------------- running it


def _host_port(base: str) -> tuple[str, int]:
    rest = base.split("://", 1)[1].rstrip("/")
    host, _, port = rest.rpartition(":")
    return host, int(port)


def _raise_file_limit(wanted: int) -> None:
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


def _free_port() -> int:
    with socket.socket() as probe_socket:
        probe_socket.bind(("127.0.0.1", 0))
        return int(probe_socket.getsockname()[1])


def start_server(
    folder: str, file_limit: int | None = None, extra: list[str] | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """``potluck serve`` on a free loopback port and a fresh SQLite file; its URL."""
    port = _free_port()
    command = [sys.executable, "-m", "potluck.cli", "serve", "--port", str(port),
               "--database-url", f"sqlite:///{Path(folder) / 'abuse.sqlite3'}",
               "--bot-delay", "0.2", *(extra or [])]  # fmt: skip

    def limit_files() -> None:
        if file_limit is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (file_limit, file_limit))

    server = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=limit_files
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            httpx.get(base + "/api/games", timeout=1)
            return server, base
        except httpx.TransportError:
            if server.poll() is not None:
                raise SystemExit("abuse: the server did not start") from None
            time.sleep(0.1)
    raise SystemExit("abuse: the server did not start")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(
    attack: str,
    *,
    url: str | None = None,
    connections: int = 1100,
    seconds: float = 30.0,
    idle_seconds: float = 10.0,
    interval: float = 5.0,
    every: float = 0.02,
    file_limit: int | None = None,
    server_args: list[str] | None = None,
) -> dict[str, Any]:
    """One run: the fair client alone, then beside the attack; the report."""
    with tempfile.TemporaryDirectory() as folder:
        server = None
        if url is None:
            server, url = start_server(folder, file_limit, server_args)
        try:
            idle = _probe_result(_probe_process(url, idle_seconds, every))
            cpu_before = _cpu_seconds(server.pid) if server else 0.0
            # the fair client starts once the attack is under way (slow headers: one tick)
            settle = min(interval, seconds / 4) if attack == "slow-headers" else 0.5
            fair = _probe_process(url, seconds - settle, every, settle)
            started = time.perf_counter()
            if attack == "slow-headers":
                attacker = slow_headers(url, connections, seconds, interval)
            else:
                attacker = ws_flood(url, seconds)
            attack_seconds = time.perf_counter() - started
            under = _probe_result(fair)
            server_cpu = (_cpu_seconds(server.pid) - cpu_before) if server else 0.0
            log = b""
        finally:
            if server is not None:
                server.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    _, log = server.communicate(timeout=30)
    return {
        "attack": attack,
        "connections": connections if attack == "slow-headers" else 1,
        "seconds": seconds,
        "file_limit": file_limit,
        "idle": idle,
        "under_attack": under,
        "p50_ratio": round(under["p50_ms"] / idle["p50_ms"], 2) if idle["p50_ms"] else None,
        "attacker": attacker,
        "attack_seconds": round(attack_seconds, 1),
        "server_cpu_seconds": round(server_cpu, 1),
        "server_log_lines": len(log.splitlines()),
        "server_log_bytes": len(log),
        "load_average": os.getloadavg(),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m potluck.server.abuse", description=__doc__)
    parser.add_argument("attack", choices=["slow-headers", "ws-flood", "probe"])
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--connections", type=int, default=1100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    parser.add_argument("--interval", type=float, default=5.0)
    parser.add_argument("--every", type=float, default=0.02)
    parser.add_argument("--delay", type=float, default=0.0, help="probe: wait this long first")
    parser.add_argument("--file-limit", type=int)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("server_args", nargs="*", help="after --: more `potluck serve` options")
    args = parser.parse_intermixed_args(argv)  # "ws-flood --seconds 5 -- --move-rate X"
    if args.attack == "probe":
        print(json.dumps(probe(args.url, args.seconds, args.every, delay=args.delay)))
        return
    report = run(
        args.attack,
        url=args.url,
        connections=args.connections,
        seconds=args.seconds,
        idle_seconds=args.idle_seconds,
        interval=args.interval,
        every=args.every,
        file_limit=args.file_limit,
        server_args=args.server_args,
    )
    print(json.dumps(report, indent=None if args.json else 2))


if __name__ == "__main__":
    main()
