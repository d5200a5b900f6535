"""Browser tests: an answer that arrives late never replaces a newer table state.

The table page hears of the table by three roads: its first ``GET``, the WebSocket's
pushes and the answers to its own requests (a move's answer, the ``GET`` that follows
a refused move). They race, and a late answer used to be drawn over a newer push on
the first load and after a refusal, and a reconnected socket's first push (from a
process behind) at the same step was drawn too. Here Playwright holds such an answer
back (its route interception), lets a newer push through, then delivers the old
answer, or replays an old push on a reconnection: the page must keep the newer state
(docs/web.md, "What reaches a browser": ``revision``). Each test failed before the page
compared revisions.

Playwright drives Debian's Chromium (headless), as in ``test_browser.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from webtest import CHROMIUM, LiveServer

sync_api = pytest.importorskip("playwright.sync_api")
from test_browser import new_page  # noqa: E402

if not Path(CHROMIUM).exists():  # pragma: no cover - depends on the machine
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

GAME = "cafe-carnage"


class Held:
    """The table's ``GET`` answers, fetched from the server when the page asks (so they
    say what the table was then) and handed to the page only when ``deliver`` is called.
    Before ``arm`` the page's requests go through untouched."""

    def __init__(self, page: Any, table_id: str) -> None:
        self.page = page
        self.armed = False
        self.routes: list[tuple[Any, Any]] = []
        page.route(f"**/api/tables/{table_id}", self._intercept)

    def arm(self) -> None:
        self.armed = True

    def _intercept(self, route: Any) -> None:
        if not self.armed or route.request.method != "GET":
            route.continue_()
            return
        self.routes.append((route, route.fetch()))

    def wait(self) -> None:
        """Until the page has asked (Playwright calls ``_intercept`` while it waits)."""
        for _ in range(200):
            if self.routes:
                return
            self.page.wait_for_timeout(25)
        raise AssertionError("the page did not ask for the table")

    def deliver(self) -> None:
        """Hand the held answer to the page, and give its script time to draw it."""
        route, answer = self.routes.pop(0)
        with self.page.expect_event("requestfinished"):
            route.fulfill(response=answer)
        self.page.wait_for_timeout(300)


def new_table(server: LiveServer) -> str:
    """A Café Carnage table with two free seats and two greedy bots; its id."""
    created = httpx.post(
        server.url + "/api/tables",
        json={"game": GAME, "seats": ["human", "human", "greedy", "greedy"]},
    )
    assert created.is_success, created.text
    return str(created.json()["id"])


def seats_text(page: Any) -> str:
    return str(page.locator("#seats").inner_text())


def test_the_first_load_answer_arriving_after_a_newer_push_is_not_drawn(
    browser: Any, server: LiveServer
) -> None:
    """A join in the lobby leaves the step at 0: only the revision orders it."""
    table_id = new_table(server)
    page = new_page(browser)
    held = Held(page, table_id)
    held.arm()
    page.goto(f"{server.url}/tables/{table_id}")  # a spectator
    held.wait()  # the first GET's answer, from before Ann joins, is held
    page.wait_for_selector("#seats")  # drawn from the socket's first push
    assert "Ann" not in seats_text(page)
    joined = httpx.post(f"{server.url}/api/tables/{table_id}/seats/0", json={"name": "Ann"})
    assert joined.is_success, joined.text
    page.wait_for_function("() => document.querySelector('#seats').textContent.includes('Ann')")
    held.deliver()
    assert "Ann" in seats_text(page), "the old first answer replaced the newer push"
    assert page.errors == []


def test_the_recovery_answer_arriving_after_a_newer_push_is_not_drawn(
    browser: Any, server: LiveServer
) -> None:
    """After a refused move the page asks for the table again; a move pushed meanwhile
    is newer than that answer."""
    table_id = new_table(server)
    ann = httpx.post(f"{server.url}/api/tables/{table_id}/seats/0", json={"name": "Ann"}).json()
    bo = httpx.post(f"{server.url}/api/tables/{table_id}/seats/1", json={"name": "Bo"}).json()
    page = new_page(browser)
    held = Held(page, table_id)
    page.goto(server.url + ann["seat_link"])
    page.wait_for_selector("#menu button:not([disabled]):not([aria-disabled=true])")
    moves_before = page.locator("#recent-moves li").count()
    # Ann's move is refused (as if a push had been missed), and the page's GET after it held
    page.route(
        f"**/api/tables/{table_id}/actions",
        lambda route: route.fulfill(
            status=409,
            content_type="application/json",
            body='{"error": "already_answered", "reason": "Already answered."}',
        ),
    )
    held.arm()
    page.locator("#menu button:not([disabled]):not([aria-disabled=true])").first.click()
    held.wait()
    # Bo orders meanwhile: the page is pushed the newer table
    bearer = {"Authorization": f"Bearer {bo['token']}"}
    mine = httpx.get(f"{server.url}/api/tables/{table_id}", headers=bearer).json()
    moved = httpx.post(
        f"{server.url}/api/tables/{table_id}/actions",
        json={"action": mine["legal"][0]["action"], "decision": mine["decision"]},
        headers=bearer,
    )
    assert moved.is_success, moved.text
    newer = f"() => document.querySelectorAll('#recent-moves li').length === {moves_before + 1}"
    page.wait_for_function(newer)
    held.deliver()
    assert page.locator("#recent-moves li").count() == moves_before + 1, (
        "the old answer replaced the newer push"
    )
    # and the page is usable: not left busy by the answer it did not draw
    assert page.locator("#screen.busy").count() == 0
    assert page.locator("#menu button:not([disabled]):not([aria-disabled=true])").count() > 0
    assert page.errors == []


def test_an_old_state_pushed_after_a_reconnect_is_not_drawn(
    browser: Any, server: LiveServer
) -> None:
    """A dropped socket reconnects, maybe to a process whose copy is behind: its first
    push is older than what the page shows (here the socket's first push of the page,
    replayed by Playwright's WebSocket route on the second connection)."""
    table_id = new_table(server)
    page = new_page(browser)
    sockets: list[Any] = []
    first_push: list[str] = []

    def route(socket: Any) -> None:
        sockets.append(socket)
        if len(sockets) > 1:  # the reconnection: a process that only knows the old state
            socket.send(first_push[0])
            return
        upstream = socket.connect_to_server()

        def forward(message: str | bytes) -> None:
            if not first_push:
                first_push.append(str(message))
            socket.send(message)

        upstream.on_message(forward)

    page.route_web_socket(f"**/ws/tables/{table_id}", route)
    page.goto(f"{server.url}/tables/{table_id}")  # a spectator
    page.wait_for_selector("#seats")
    joined = httpx.post(f"{server.url}/api/tables/{table_id}/seats/0", json={"name": "Ann"})
    assert joined.is_success, joined.text
    page.wait_for_function("() => document.querySelector('#seats').textContent.includes('Ann')")
    sockets[0].close()  # dropped: the page reconnects half a second later
    for _ in range(200):
        if len(sockets) > 1:
            break
        page.wait_for_timeout(25)
    assert len(sockets) > 1, "the page did not reconnect"
    page.wait_for_timeout(300)
    assert "Ann" in seats_text(page), "the old push after the reconnect replaced the newer state"
    assert page.errors == []
