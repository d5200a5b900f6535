"""The door of ``potluck serve`` (``potluck.server.gate``): caps per address and in all,
deadlines for a request's head and body, and the penalty box, against a real server
process. One address (``127.0.0.2``) misbehaves while another (``127.0.0.1``) is
served: Linux routes all of 127.0.0.0/8 to loopback.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

import httpx
import pytest

from potluck.server import abuse

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux loopback")

ATTACKER = abuse.ATTACKER


@contextlib.contextmanager
def serving(*options: str, file_limit: int | None = None) -> Iterator[str]:
    with tempfile.TemporaryDirectory() as folder:
        server, url = abuse.start_server(folder, file_limit, list(options))
        try:
            yield url
        finally:
            server.terminate()
            server.wait(timeout=30)


def connect(url: str, source: str = ATTACKER) -> socket.socket:
    host, port = abuse._host_port(url)
    conn = socket.create_connection((host, port), timeout=10, source_address=(source, 0))
    return conn


def answer(conn: socket.socket, wait: float = 10.0) -> bytes:
    """What the server sends before it closes ``conn`` (b"" if it closes in silence)."""
    conn.settimeout(wait)
    chunks = []
    with contextlib.suppress(ConnectionResetError):
        while chunk := conn.recv(4096):
            chunks.append(chunk)
    return b"".join(chunks)


def one_response(conn: socket.socket, wait: float = 5.0) -> bytes:
    """One whole response on a kept connection: its head, then its body by Content-Length
    (a body may arrive in a later packet than the head)."""
    conn.settimeout(wait)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        assert chunk, data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        chunk = conn.recv(65536)
        assert chunk, data
        body += chunk
    return head + b"\r\n\r\n" + body


def status(data: bytes) -> int:
    return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0


def fair_get(url: str) -> float:
    """One GET from the fair address; its time (it must succeed)."""
    started = time.perf_counter()
    transport = httpx.HTTPTransport(local_address="127.0.0.1")
    with httpx.Client(transport=transport, timeout=10) as client:
        assert client.get(url + "/api/tables").status_code == 200
    return time.perf_counter() - started


def test_one_address_holds_only_its_share_and_a_slow_head_is_cut_off() -> None:
    with serving("--connections-per-address", "5", "--header-seconds", "1.5") as url:
        held = [connect(url) for _ in range(5)]
        for conn in held:  # a request line, and the head never finished
            conn.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\n")
        time.sleep(0.2)
        extra = [connect(url) for _ in range(3)]
        started = time.monotonic()
        for conn in extra:
            refused = answer(conn, 5)
            assert status(refused) == 429, refused
            assert b'"too_many_connections"' in refused
        assert time.monotonic() - started < 2  # refused at once, nothing read
        assert fair_get(url) < 5  # another address is served meanwhile
        for conn in held:
            cut = answer(conn, 10)
            assert status(cut) == 408, cut
        assert time.monotonic() - started < 6
        again = connect(url)  # the closed ones freed their places
        again.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert status(answer(again)) == 200
        for conn in [*held, *extra, again]:
            conn.close()


def test_a_kept_connection_that_starts_a_head_and_dawdles_is_cut_off() -> None:
    with serving("--header-seconds", "1") as url:
        conn = connect(url)
        conn.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\n\r\n")
        assert status(one_response(conn)) == 200
        time.sleep(1.5)  # idle between requests: kept (uvicorn's keep-alive is longer)
        conn.sendall(b"GET /api/tables HTTP/1.1\r\n")
        started = time.monotonic()
        for _ in range(5):
            time.sleep(0.4)
            with contextlib.suppress(OSError):
                conn.sendall(b"X-Slow: yes\r\n")
        cut = answer(conn, 5)
        assert status(cut) == 408
        assert time.monotonic() - started < 4
        conn.close()


def test_a_body_that_never_comes_is_cut_off() -> None:
    with serving("--body-seconds", "1") as url:
        conn = connect(url)
        conn.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b'Content-Length: 200\r\n\r\n{"game":'
        )
        started = time.monotonic()
        answer(conn, 10)  # closed (the app's answer, if any, says the body was cut)
        assert time.monotonic() - started < 5
        conn.close()


def test_the_server_holds_at_most_its_connections_in_all() -> None:
    with serving("--max-connections", "4") as url:
        held = [connect(url, f"127.0.0.{3 + n}") for n in range(4)]
        time.sleep(0.2)
        over = connect(url, "127.0.0.9")
        refused = answer(over, 5)
        assert status(refused) == 503
        assert b'"server_busy"' in refused
        for conn in [*held, over]:
            conn.close()
        time.sleep(0.3)
        assert fair_get(url) < 5


def test_an_address_whose_socket_flooded_is_refused_at_the_door() -> None:
    with serving("--move-rate", "5/second") as url:
        flood = abuse.ws_flood(url, 2.0)
        assert flood["closes"].get("closed 4429", 0) >= 1, flood
        refused = answer(connect(url), 5)
        assert status(refused) == 429
        assert b'"slow_down"' in refused
        assert int(refused.split(b"retry-after: ", 1)[1].split(b"\r\n", 1)[0]) > 20
        assert fair_get(url) < 5  # the other address is not held to it


def test_1100_slow_header_connections_from_one_address_do_not_slow_another() -> None:
    """Issue 33's attack, at the file limit it was seen at (1,024): the fair address's
    requests all succeed, none slower than the attack's noise allows. The figures
    (p99 under 100 ms on a quiet machine) are in docs/web.md, "Figures"."""
    report = abuse.run(
        "slow-headers", connections=1100, seconds=12, idle_seconds=4, file_limit=1024
    )
    fair, idle = report["under_attack"], report["idle"]
    # every attacking connection was refused at once (429) or cut off at its head's
    # deadline (408): none failed to connect, none was reset for want of files
    assert set(report["attacker"]["answers"]) <= {"closed with 429", "closed with 408"}, report
    assert fair["failures"] == 0, report
    assert idle["failures"] == 0, report
    assert fair["requests"] > 100
    # on a quiet machine p99 stays under 100 ms; the shared test machine's own noise
    # (the idle phase's p99) is allowed for
    assert fair["p99_ms"] < max(100.0, 2 * idle["p99_ms"]), report
    assert report["server_log_lines"] < 20, report  # no "Too many open files" flood


def test_the_door_is_what_potluck_serve_runs() -> None:
    from potluck.cli.serve_command import uvicorn_config
    from potluck.server.gate import ConnectionGate
    from potluck.server.settings import ServerSettings

    gate = ConnectionGate(ServerSettings())
    config = uvicorn_config(
        object(), host="127.0.0.1", port=0, behind_proxy=False, proxy_ip="", max_body=10, gate=gate
    )
    assert config.http.__name__ == "GatedHttp"  # type: ignore[union-attr]
    assert config.ws.__name__ == "GatedWebSocket"  # type: ignore[union-attr]
    assert config.timeout_graceful_shutdown is not None


def test_the_file_limit_bounds_the_connections() -> None:
    code = (
        "import resource; resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024));"
        "from potluck.cli.serve_command import usable_connections as u; print(u(4000), u(100))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["768", "100"]
