"""What every test shares: no database connection and no process outlives its test.

- Every SQLAlchemy engine a test connects is disposed when the test ends: an app
  whose lifespan never ran, a ``TableService`` a test built over its own engine, an
  engine made to look at the rows. (An app disposes the engine it made itself when it
  shuts down; that is the server's job and has its own test.) Without this the
  PostgreSQL pass of ``.ci/run`` held 81 to 89 of the server's 100 connections at once.
- After each server test module (``test_server*``, ``test_browser*``), no process of
  this environment is left without its parent (a killed server's bot workers, their
  forkserver and resource tracker; a server process nobody stopped), and, on
  PostgreSQL (``POTLUCK_TEST_DATABASE_URL``), no connection to the test database is
  left open. Either fails the module's last test, naming what was left.
"""

from __future__ import annotations

import os
import sys
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

try:
    from sqlalchemy import event
    from sqlalchemy.engine import Engine
except ImportError:  # `make test` without the web extra: no engines to dispose
    ENGINES: weakref.WeakSet[Any] = weakref.WeakSet()
else:
    ENGINES = weakref.WeakSet()

    @event.listens_for(Engine, "engine_connect")
    def _seen(connection: Any) -> None:
        ENGINES.add(connection.engine)


#: The modules that start servers, bot workers and database connections.
SERVER_MODULES = ("test_server", "test_browser")
#: What the processes the server starts run: multiprocessing's (the bot workers, their
#: forkserver and resource tracker) and the server's own (`potluck serve`, its
#: `--workers`). Nothing wider: the checkout's own path may contain "potluck".
WATCHED = ("from multiprocessing.", "potluck.cli", "/bin/potluck ")
#: How long what a module started may take to go away once it ended.
GRACE_SECONDS = 10.0


@pytest.fixture(autouse=True)
def _dispose_engines() -> Iterator[None]:
    before = set(ENGINES)
    yield
    for engine in set(ENGINES) - before:
        engine.dispose()


def orphans() -> dict[int, str]:
    """This environment's Potluck and multiprocessing processes whose parent is not one
    of this environment's processes (their parent died): pid -> command line. Linux
    only (``/proc``); elsewhere nothing."""
    ours: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            stat = (entry / "stat").read_text()
        except OSError:  # it ended while we looked
            continue
        state, parent = stat.rsplit(") ", 1)[1].split()[:2]
        command = " ".join(part.decode(errors="replace") for part in argv).strip()
        if state != "Z" and command.startswith(sys.prefix):
            ours[int(entry.name)] = (int(parent), command)
    return {
        pid: command
        for pid, (parent, command) in ours.items()
        if parent not in ours and any(mark in command for mark in WATCHED)
    }


def open_connections() -> int:
    """Connections to the PostgreSQL test database other than this question's own."""
    url = os.environ.get("POTLUCK_TEST_DATABASE_URL") or ""
    if not url.startswith("postgresql"):
        return 0
    import psycopg
    from sqlalchemy.engine import make_url

    conninfo = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo) as connection:
        row = connection.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()
    return int(row[0]) if row else 0


@pytest.fixture(autouse=True, scope="module")
def _nothing_outlives_the_module(request: pytest.FixtureRequest) -> Iterator[None]:
    if not request.module.__name__.startswith(SERVER_MODULES):
        yield
        return
    before = set(orphans())
    yield
    deadline = time.monotonic() + GRACE_SECONDS
    while True:
        left = {pid: command for pid, command in orphans().items() if pid not in before}
        connections = open_connections()
        if not left and not connections:
            return
        if time.monotonic() > deadline:
            problems = [
                f"process {pid} outlived its parent: {cmd[:160]}" for pid, cmd in left.items()
            ]
            if connections:
                problems.append(f"{connections} connection(s) to the test database left open")
            pytest.fail("; ".join(problems))
        time.sleep(0.1)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for a browser test module (``webtest.CHROMIUM``)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from webtest import ARGS, CHROMIUM

    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Any]:
    """A live server (``webtest.LiveServer``) on a fresh database, stopped afterwards."""
    from webtest import LiveServer, fresh_database_url

    live = LiveServer(fresh_database_url(tmp_path))
    yield live
    live.stop()
