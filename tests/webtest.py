"""What the server's tests share: the database they run on and a real server in a thread.

By default each test gets a SQLite file of its own. With ``POTLUCK_TEST_DATABASE_URL``
set (``.ci/run`` sets it to a PostgreSQL server it starts), the same tests run on
that database instead, emptied before each test; run them then without xdist.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import uvicorn
from sqlalchemy import text

from potluck.server import create_app
from potluck.server.db import Base, make_engine
from potluck.server.settings import ServerSettings

#: A database to run the server tests on instead of SQLite files (PostgreSQL in CI).
SHARED_URL = os.environ.get("POTLUCK_TEST_DATABASE_URL") or None

#: Debian's Chromium, which the browser tests drive through Playwright (its own browser
#: download is never used), and how it runs here: headless, as root, with no network
#: but loopback.
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: The tests make many tables and moves from one address, and set their own timers: the
#: rate limits, caps and public tables' default timer are lifted (limits have tests of
#: their own).
OPEN = ServerSettings(
    create_rate="none",
    join_rate="none",
    move_rate="none",
    analysis_rate="none",
    login_rate="none",
    login_name_rate="none",
    max_tables_per_client=100000,
    max_open_tables=100000,
    max_sockets_per_client=100000,
    public_turn_seconds=0,
    hard_bot="ismcts:sims=8",  # quick and reproducible (no time budget) in tests
    analysis_bot="playouts:worlds=4,min_worlds=4,time=0",  # quick and reproducible
)


def fresh_database_url(tmp_path: Path) -> str:
    """An empty database for one test."""
    if SHARED_URL is None:
        return f"sqlite:///{tmp_path / 'server.sqlite3'}"
    engine = make_engine(SHARED_URL)
    with engine.begin() as connection:
        Base.metadata.drop_all(connection)
        connection.execute(text("DROP TABLE IF EXISTS alembic_version"))
    engine.dispose()
    return SHARED_URL


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LiveServer:
    """``potluck serve`` in a thread on a loopback port, for browser tests.

    >>> server = LiveServer("sqlite:///x.db")  # doctest: +SKIP
    >>> server.url, server.stop()  # doctest: +SKIP
    """

    def __init__(
        self,
        database_url: str,
        port: int | None = None,
        bot_delay: float = 0.0,
        settings: ServerSettings = OPEN,
    ):
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.app = app = create_app(database_url, bot_delay=bot_delay, settings=settings)
        config = uvicorn.Config(
            app, host="127.0.0.1", port=self.port, log_level="warning", timeout_graceful_shutdown=1
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)
