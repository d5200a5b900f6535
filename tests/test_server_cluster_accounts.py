"""Accounts across ``potluck serve --workers`` (docs/web.md, "Accounts" and "Rate limits
across processes").

One ``potluck serve --workers 3`` over PostgreSQL. Each HTTP connection is answered by
whichever worker accepted it; the test finds that worker by the connection's socket
(``/proc``), so it knows it signed up on one worker, used the session and its CSRF token
on another and logged in on a third. The login limits are counted in each worker's
memory and shared once a round (about a second) through the database: the test checks
the bound that gives, not an exact count. SQLite serves one process only (``--workers 2
needs PostgreSQL``, ``tests/test_server_cluster.py``), so there is nothing to share there.
Needs ``POTLUCK_TEST_DATABASE_URL`` (PostgreSQL) and Linux's ``/proc``.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from webtest import SHARED_URL, free_port, fresh_database_url

pytestmark = [
    pytest.mark.skipif(
        SHARED_URL is None or not SHARED_URL.startswith("postgresql"),
        reason="needs POTLUCK_TEST_DATABASE_URL (PostgreSQL)",
    ),
    pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux's /proc"),
]

WORKERS = 3
PASSWORD = "correct horse battery"
#: Per address (every try) and per name (failed tries), as a host would set them.
LOGIN_RATE = 6
NAME_RATE = 4


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, list[int]]]:
    """``potluck serve --workers 3 --behind-proxy`` (the tests set X-Forwarded-For to be
    several addresses): its port and its workers' process ids."""
    url = fresh_database_url(tmp_path_factory.mktemp("cluster"))
    port = free_port()
    command = [sys.executable, "-m", "potluck.cli", "serve", "--port", str(port),
               "--database-url", url, "--workers", str(WORKERS), "--behind-proxy",
               "--login-rate", f"{LOGIN_RATE}/minute", "--login-name-rate",
               f"{NAME_RATE}/minute", "--create-rate", "none", "--join-rate", "none",
               "--move-rate", "none"]  # fmt: skip
    # its own process group, killed whole at the end (workers, their bot pools)
    server = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        assert server.stdout is not None
        banner = server.stdout.readline().decode()
        found = re.search(r"by \d+ processes \(([\d, ]+);", banner)
        assert found, banner
        pids = [int(pid) for pid in found.group(1).split(", ")]
        deadline = time.monotonic() + 120
        while len({_session(Connection(port))[1] for _ in range(12)}) < WORKERS:
            assert time.monotonic() < deadline, "the workers did not all start"
            time.sleep(0.5)
        yield port, pids
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


class Connection:
    """One kept-alive HTTP connection (so one worker), with a browser's cookies."""

    def __init__(self, port: int, cookies: dict[str, str] | None = None) -> None:
        self.port = port
        self.http = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.http.connect()
        self.cookies = cookies if cookies is not None else {}

    def worker(self, pids: list[int]) -> int:
        """The process id of the worker that holds this connection."""
        local = self.http.sock.getsockname()[1]
        inode = _server_side_inode(self.port, local)
        for pid in pids:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                try:
                    if os.readlink(fd) == f"socket:[{inode}]":
                        return pid
                except OSError:
                    continue
        raise AssertionError(f"no worker holds the connection from port {local}")

    def send(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], Any]:
        sent = {"Content-Type": "application/json", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None if body is None else json.dumps(body)
        self.http.request(method, path, body=data, headers=sent)
        answer = self.http.getresponse()
        raw = answer.read()
        for header, value in answer.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";")[0].strip('"')
                if "max-age=0" in value.lower() or "expires=thu, 01 jan 1970" in value.lower():
                    self.cookies.pop(name)
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, json.loads(raw)


def _server_side_inode(server_port: int, client_port: int) -> str:
    """The inode of the server's end of the loopback connection from ``client_port``."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, remote, inode = fields[1], fields[2], fields[9]
            if int(local.rsplit(":", 1)[1], 16) == server_port and (
                int(remote.rsplit(":", 1)[1], 16) == client_port
            ):
                return inode
    raise AssertionError(f"no server socket for the connection from port {client_port}")


def _session(connection: Connection) -> tuple[Any, int]:
    status, _, body = connection.send("GET", "/api/session")
    assert status == 200, body
    return body, connection.http.sock.getsockname()[1]


def _one_per_worker(port: int, pids: list[int], cookies: dict[str, str]) -> dict[int, Connection]:
    """A connection to each worker (new ones until every worker has one), sharing
    ``cookies``: one browser whose requests land on every worker."""
    found: dict[int, Connection] = {}
    for _ in range(200):
        connection = Connection(port, cookies)
        connection.send("GET", "/api/session")
        found.setdefault(connection.worker(pids), connection)
        if len(found) == len(pids):
            return found
    raise AssertionError(f"200 connections reached only {len(found)} of {len(pids)} workers")


def _login(connection: Connection, name: str, password: str, address: str) -> Any:
    return connection.send(
        "POST",
        "/api/session",
        {"name": name, "password": password},
        {"X-Forwarded-For": address},
    )


def test_a_session_made_on_one_worker_holds_on_every_other(
    cluster: tuple[int, list[int]],
) -> None:
    port, pids = cluster
    cookies: dict[str, str] = {}
    first, second, third = _one_per_worker(port, pids, cookies).values()
    status, _, body = first.send(
        "POST",
        "/api/account",
        {"name": "Ann", "password": PASSWORD},
        {"X-Forwarded-For": "10.1.0.1"},
    )
    assert status == 201, body
    assert {"potluck_session", "potluck_csrf"} <= set(cookies)
    for other in (second, third):  # the session, whichever worker answers
        status, _, body = other.send("GET", "/api/session")
        assert body["account"]["name"] == "Ann", body
    # a change without the CSRF token is refused on another worker, and with it taken
    table = {"game": "cafe-carnage", "num_players": 4, "seats": ["human", "easy", "easy", "easy"]}
    status, _, body = second.send("POST", "/api/tables", table)
    assert (status, body["error"]) == (403, "csrf_failed")
    status, _, body = second.send("POST", "/api/tables", table, {"X-CSRF-Token": "x" * 43})
    assert (status, body["error"]) == (403, "csrf_failed")
    status, _, body = third.send(
        "POST", "/api/tables", table, {"X-CSRF-Token": cookies["potluck_csrf"]}
    )
    assert status == 201, body
    # logged in again on a second device (cookies of its own), on whichever worker
    other_device: dict[str, str] = {}
    devices = _one_per_worker(port, pids, other_device)
    status, _, body = _login(devices[first.worker(pids)], "Ann", PASSWORD, "10.1.0.2")
    assert status == 200, body
    assert other_device["potluck_session"] != cookies["potluck_session"]
    # the table made on one worker is in Your tables on every worker, on both devices
    for connection in [second, *devices.values()]:
        status, _, body = connection.send("GET", "/api/account/tables")
        assert status == 200, body
        assert len(body["tables"]) == 1, body
    # logging out everywhere on one worker ends both sessions on every worker at once
    status, _, body = third.send(
        "DELETE", "/api/account/sessions", None, {"X-CSRF-Token": cookies["potluck_csrf"]}
    )
    assert (status, body) == (200, {"ended": 2})
    cookies.clear()  # what the browser did with the cleared cookies; now the stolen copy:
    for connection in devices.values():
        status, _, body = connection.send("GET", "/api/session")
        assert body["account"] is None, body
        status, _, body = connection.send("GET", "/api/account/tables")
        assert status == 401, body


def _tries_until_refused(
    connections: list[Connection], name: str | None, address: str | None, pause: float
) -> int:
    """Wrong passwords sent in turn over ``connections`` (for ``name``, else a new name
    each try; from ``address``, else a new one each try) until a 429: how many were
    answered before it."""
    for taken in range(100):
        sender = connections[taken % len(connections)]
        status, _, body = _login(
            sender, name or f"nobody {taken}", "wrong password", address or f"10.2.0.{taken}"
        )
        if status == 429:
            return taken
        assert (status, body["error"]) == (401, "wrong_login"), body
        time.sleep(pause)
    raise AssertionError("never refused")


def _refused_everywhere(
    connections: list[Connection], name: str, password: str, address: str
) -> None:
    """Every worker refuses the login with 429 once the rounds have shared the tries
    (within 10 s: a round is a second on an idle machine, later on a loaded one)."""
    deadline = time.monotonic() + 10
    for connection in connections:
        while True:
            status, headers, body = _login(connection, name, password, address)
            if status == 429 or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert (status, body["error"]) == (429, "too_many_requests"), body
        assert 1 <= int(headers["retry-after"]) <= 61


#: Tries answered beyond a limit while the others' tries are on their way: those of about
#: 3 s (a round of the worker that took them and one of the worker asked, late on a
#: loaded machine), tries being 0.4 s apart.
LAG_TRIES = 8


def test_the_login_limits_hold_for_the_cluster_within_a_round(
    cluster: tuple[int, list[int]],
) -> None:
    port, pids = cluster
    workers = list(_one_per_worker(port, pids, {}).values())
    status, _, body = workers[0].send(
        "POST",
        "/api/account",
        {"name": "Bob", "password": PASSWORD},
        {"X-Forwarded-For": "10.3.0.1"},
    )
    assert status == 201, body
    # Per address: tries spread over the three workers, 0.4 s apart. A try reaches the
    # others within one round of its worker and one of theirs (about 1 to 2 s), so the
    # cluster takes the limit and at most the tries of that lag more (LAG_TRIES); never
    # the three workers' limits added (18).
    taken = _tries_until_refused(workers, None, "10.4.0.1", pause=0.4)
    print(f"per address: {taken} tries answered of a limit of {LOGIN_RATE}")
    assert LOGIN_RATE <= taken <= LOGIN_RATE + LAG_TRIES, taken
    _refused_everywhere(workers, "Bob", PASSWORD, "10.4.0.1")  # the right password too
    # Per name: failed tries of one name from a new address each time.
    taken = _tries_until_refused(workers, "Bob", None, pause=0.4)
    print(f"per name: {taken} tries answered of a limit of {NAME_RATE}")
    assert NAME_RATE <= taken <= NAME_RATE + LAG_TRIES, taken
    _refused_everywhere(workers, "Bob", PASSWORD, "10.5.0.1")  # a fresh address, refused
    # Another name from another address is not held off by either.
    status, _, body = _login(workers[1], "Nobody", "wrong password", "10.6.0.1")
    assert (status, body["error"]) == (401, "wrong_login")


def test_a_burst_within_one_round_is_bounded_by_the_workers_limits_added(
    cluster: tuple[int, list[int]],
) -> None:
    """The honest bound of a burst faster than a round: each worker refuses on its own
    count, so a burst spread over N workers can take up to N times the limit (docs/web.md,
    "Rate limits across processes"); after a round it is the limit again for all."""
    port, pids = cluster
    workers = list(_one_per_worker(port, pids, {}).values())
    answered = 0
    for attempt in range(3 * LOGIN_RATE * WORKERS):
        sender = workers[attempt % WORKERS]
        status, _, body = _login(sender, f"Carol {attempt}", "wrong password", "10.7.0.1")
        if status != 429:
            assert (status, body["error"]) == (401, "wrong_login")
            answered += 1
    print(f"a burst: {answered} tries answered of a limit of {LOGIN_RATE} on {WORKERS} workers")
    assert LOGIN_RATE <= answered <= LOGIN_RATE * WORKERS, answered
    _refused_everywhere(workers, "Carol", "wrong password", "10.7.0.1")
