"""What the accounts' tests share: browsers with cookie jars of their own over one app,
and a game played to its end through the API.

``Browser`` wraps a Starlette test client that is not entered (the app's lifespan
runs once, in the test's main client): each has its own cookies, as two browsers
have. Every change it sends carries the session's CSRF token, as the pages do.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

PASSWORD = "correct horse battery"


def serve(app: Any) -> Any:
    """Enter ``app``'s lifespan (its one event loop) for ``Browser``s: ``with serve(app):``."""
    client = TestClient(app)
    app.state.test_client = client
    return client


class Browser:
    """One browser: its own cookies, and the CSRF header on every change."""

    def __init__(self, app: Any, base_url: str = "http://testserver") -> None:
        self.client = TestClient(app, base_url=base_url)
        # the requests run on the app's one event loop (its entered client's), as in a
        # server: a task a request starts (a game's ratings) goes on after it returns
        self.client.portal = app.state.test_client.portal

    @property
    def csrf(self) -> str | None:
        token = self.client.cookies.get("potluck_csrf")
        return None if token is None else str(token)

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        headers = dict(extra or {})
        if self.csrf:
            headers.setdefault("X-CSRF-Token", self.csrf)
        return headers

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.client.get(path, **kwargs)

    def post(self, path: str, json: Any = None, headers: dict[str, str] | None = None) -> Any:
        return self.client.post(path, json=json, headers=self.headers(headers))

    def delete(self, path: str, headers: dict[str, str] | None = None) -> Any:
        return self.client.delete(path, headers=self.headers(headers))

    def sign_up(self, name: str, password: str = PASSWORD) -> Any:
        response = self.client.post("/api/account", json={"name": name, "password": password})
        assert response.status_code == 201, response.text
        return response

    def log_in(self, name: str, password: str = PASSWORD) -> Any:
        return self.client.post("/api/session", json={"name": name, "password": password})

    def create(self, seats: list[str], game: str = "cafe-carnage", **extra: Any) -> str:
        body = {"game": game, "num_players": len(seats), "seats": seats, **extra}
        response = self.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        return str(response.json()["id"])

    def sit(self, table_id: str, seat: int, name: str | None = None) -> Any:
        body = {} if name is None else {"name": name}
        return self.post(f"/api/tables/{table_id}/seats/{seat}", json=body)

    def table(self, table_id: str) -> dict[str, Any]:
        response = self.get(f"/api/tables/{table_id}")
        assert response.status_code == 200, response.text
        return dict(response.json())

    def move_once(self, table_id: str) -> bool:
        """This browser's seat plays its first legal action, if it has one now."""
        body = self.table(table_id)
        if not body["legal"]:
            return False
        action = body["legal"][0]["action"]
        response = self.post(
            f"/api/tables/{table_id}/actions",
            json={"action": action, "decision": body["decision"]},
        )
        assert response.status_code == 200, response.text
        return True


def play_to_the_end(table_id: str, *browsers: Browser, leave: Browser | None = None) -> None:
    """Each browser plays its seat's first legal action until the game is over (bots
    move at once); ``leave`` leaves at its first turn (a bot plays on for it)."""
    if leave is not None:
        seat = leave.table(table_id)["seat"]
        response = leave.delete(f"/api/tables/{table_id}/seats/{seat}")
        assert response.status_code == 200, response.text
    for _ in range(2000):
        if not any(browser.move_once(table_id) for browser in browsers):
            break
    final = browsers[0].table(table_id) if browsers else leave.table(table_id)  # type: ignore[union-attr]
    assert final["outcome"] is not None, final["waiting"]


def fake_references() -> dict[str, Any]:
    """Reference ratings for the tests (the measured file may change with the bots):
    easy and medium in every pool, as the server plays them; no hard."""
    from potluck.agents import effective_spec
    from potluck.engine.registry import load_game
    from potluck.server.botpool import seat_bot_spec
    from potluck.server.ratings import all_pools

    pools = {}
    for pool in all_pools():
        game = load_game(pool.game)
        levels = {}
        for level, mu in (("easy", 20.0), ("medium", 27.0)):
            spec = seat_bot_spec(game, level) or "random"
            levels[level] = {
                "spec": spec,
                "resolved": str(effective_spec(game, spec)),
                "mu": mu,
                "sigma": 1.0,
            }
        pools[pool.id] = {"levels": levels}
    return {"pools": pools}


def wait_rated(browser: Browser, table_id: str, seconds: float = 20.0) -> dict[str, Any]:
    """The table's rating changes once applied (in the background, after its end)."""
    import time

    deadline = time.monotonic() + seconds
    while True:
        body = dict(browser.get(f"/api/tables/{table_id}/ratings").json())
        if body["applied"] or time.monotonic() > deadline:
            return body
        time.sleep(0.05)
