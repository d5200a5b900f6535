"""The server on the internet: exactly-once moves, origins, private tables, idle
tables, one error shape, the order of writes, the timer and the security headers
(the limits and rates: ``test_server_limits.py``).

Most tests run the app with Starlette's test client (``client``: limits lifted,
as in ``test_server.py``); the limits' own tests build apps with the settings
they test. The concurrent duplicates go through a real server over loopback.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError
from starlette.websockets import WebSocketDisconnect

import potluck
from potluck.server import TableService, create_app
from potluck.server.db import ActionRow, SeatRow, make_engine, migrate
from potluck.server.settings import ServerSettings
from test_server import Clock, create, join, move, play_out, service_of, table_of
from webtest import OPEN, LiveServer, fresh_database_url

GAME = "cafe-carnage"
BOTS3 = ["greedy", "random", "greedy"]


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return fresh_database_url(tmp_path)


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0, sweep_every=3600, settings=OPEN)) as c:
        yield c


def app_with(db_url: str, clock: Clock | None = None, **limits: Any) -> Any:
    """An app whose limits are ``OPEN``'s with ``limits`` changed."""
    settings = ServerSettings(**{**OPEN.__dict__, **limits})
    engine = make_engine(db_url)
    migrate(engine)
    service = TableService(engine, bot_delay=0, clock=clock or Clock(), settings=settings)
    service.load_all()
    return create_app(service=service, sweep_every=3600)


def is_error(response: httpx.Response, status: int, code: str | None = None) -> bool:
    """The one error shape: exactly ``{"error": code, "reason": sentence}``."""
    body = response.json()
    assert response.status_code == status, response.text
    assert set(body) == {"error", "reason"}, body
    assert body["reason"]
    assert code is None or body["error"] == code, body
    return True


def stored_moves(service: TableService, table_id: str, seat: int) -> int:
    with service.engine.connect() as connection:
        return int(
            connection.scalar(
                select(func.count())
                .select_from(ActionRow)
                .where(ActionRow.table_id == table_id, ActionRow.seat == seat)
            )
            or 0
        )


# ---------------------------------------------------------------------- exactly-once moves


async def _duplicates(base: str, game: dict[str, Any], copies: int) -> tuple[list[int], str, int]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        n = game["min_players"]
        seats = ["human"] + ["greedy"] * (n - 1)
        created = await http.post(
            "/api/tables",  # a chosen seed with a person seated: a practice table
            json={
                "game": game["id"],
                "num_players": n,
                "seats": seats,
                "seed": 5,
                "practice": True,
            },
        )
        table_id = created.json()["id"]
        seated = await http.post(
            f"/api/tables/{table_id}/seats/0", json={"name": "Ann", "practice": True}
        )
        token = seated.json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        body = (await http.get(f"/api/tables/{table_id}", headers=headers)).json()
        assert body["legal"], body["waiting"]
        move_body = {"action": body["legal"][0]["action"], "decision": body["decision"]}
        answers = await asyncio.gather(
            *(
                http.post(f"/api/tables/{table_id}/actions", json=move_body, headers=headers)
                for _ in range(copies)
            )
        )
        for answer in answers:
            if answer.status_code != 200:
                assert is_error(answer, 409, "already_answered")
        return [a.status_code for a in answers], table_id, body["decision"]


@pytest.mark.parametrize("game_id", sorted(potluck.list_games()))
def test_many_copies_of_one_move_sent_at_once_are_taken_once(db_url: str, game_id: str) -> None:
    server = LiveServer(db_url)
    try:
        game = next(g for g in httpx.get(server.url + "/api/games").json() if g["id"] == game_id)
        statuses, table_id, decision = asyncio.run(_duplicates(server.url, game, 20))
        service = server.app.state.service
        assert statuses.count(200) == 1, statuses
        assert statuses.count(409) == 19
        # the record holds the move once: seat 0 has answered exactly one more decision
        assert stored_moves(service, table_id, 0) == decision + 1
        assert service.tables[table_id].decisions[0] == decision + 1
    finally:
        server.stop()


def test_a_move_sent_again_over_the_websocket_is_refused(client: TestClient) -> None:
    table_id = create(client, ["human", *BOTS3])["id"]
    token = client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Ann"}).json()["token"]
    client.cookies.clear()
    with client.websocket_connect(f"/ws/tables/{table_id}?token={token}") as socket:
        first = socket.receive_json()
        message = {"type": "action", "action": first["legal"][0]["action"], "decision": 0}
        socket.send_json(message)
        assert socket.receive_json()["decision"] == 1
        socket.send_json(message)
        while (reply := socket.receive_json())["type"] == "state":
            pass
        assert reply["error"] == "already_answered"
        socket.send_json({"type": "action", "action": "split"})
        while (reply := socket.receive_json())["type"] == "state":
            pass
        assert reply["error"] == "bad_message"  # a move without its decision
    assert stored_moves(service_of(client), table_id, 0) == 1


def test_a_move_for_a_future_decision_is_refused(client: TestClient) -> None:
    table_id = create(client, ["human", *BOTS3])["id"]
    ann = join(client, table_id, 0, "Ann")
    body = client.get(f"/api/tables/{table_id}", headers=ann).json()
    assert is_error(move(client, table_id, ann, body["legal"][0]["action"], 5), 409)
    assert stored_moves(service_of(client), table_id, 0) == 0


# ---------------------------------------------------------------------- origins


def test_other_sites_may_not_change_anything_nor_open_a_seat_socket(db_url: str) -> None:
    foreign = {"Origin": "http://127.0.0.1:9999"}
    with TestClient(app_with(db_url, allowed_origins=("https://play.example.org",))) as client:
        body = {"game": GAME, "num_players": 4, "seats": ["human", *BOTS3]}
        assert is_error(client.post("/api/tables", json=body, headers=foreign), 403, "bad_origin")
        assert is_error(
            client.post("/api/tables", json=body, headers={"Origin": "null"}), 403, "bad_origin"
        )
        own = client.post("/api/tables", json=body, headers={"Origin": "http://testserver"})
        assert own.status_code == 201
        allowed = {"Origin": "https://play.example.org"}
        assert client.post("/api/tables", json=body, headers=allowed).status_code == 201
        assert client.post("/api/tables", json=body).status_code == 201  # not a browser
        table_id = own.json()["id"]
        assert client.get(f"/api/tables/{table_id}", headers=foreign).status_code == 200
        token = client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Ann"}).json()["token"]
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            client.websocket_connect(f"/ws/tables/{table_id}?token={token}", headers=foreign) as ws,
        ):
            ws.receive_json()
        assert closed.value.code == 4403
        with client.websocket_connect(
            f"/ws/tables/{table_id}?token={token}", headers={"Origin": "http://testserver"}
        ) as ws:
            assert ws.receive_json()["seat"] == 0


# ---------------------------------------------------------------------- private tables


def test_a_private_table_is_unlisted_and_joined_only_by_invite(client: TestClient) -> None:
    created = client.post(
        "/api/tables",
        json={"game": GAME, "num_players": 4, "seats": ["human", "human", *BOTS3[:2]],
              "private": True},
    ).json()  # fmt: skip
    table_id, host = created["id"], {"X-Host-Token": created["host_token"]}
    client.cookies.clear()
    assert client.get("/api/tables").json()["tables"] == []
    public = client.get(f"/api/tables/{table_id}").json()
    assert "invite" not in str(public)
    assert created["host_token"] not in str(public)
    assert public["host"] is False
    assert client.get(f"/api/tables/{table_id}", headers=host).json()["host"] is True
    link0, link1 = (j["join"] for j in created["join"])
    assert link0.startswith(f"/tables/{table_id}/invite/0/")
    seat0 = f"/api/tables/{table_id}/seats/0"
    assert is_error(client.post(seat0, json={"name": "Eve"}), 403, "invite_needed")
    wrong = client.post(seat0, json={"name": "Eve", "invite": link1.rsplit("/", 1)[1]})
    assert is_error(wrong, 403, "invite_needed")  # seat 1's code is not seat 0's
    # the browser's way: the invite link leaves its code in a cookie and the URL loses it
    opened = client.get(link0, follow_redirects=False)
    assert opened.status_code == 303
    assert opened.headers["location"] == f"/tables/{table_id}/join/0"
    assert "httponly" in opened.headers["set-cookie"].lower()
    assert client.post(seat0, json={"name": "Ann"}).status_code == 200
    client.cookies.clear()
    # the creator re-issues seat 1's invite: the old one stops working
    assert is_error(client.post(f"/api/tables/{table_id}/seats/1/invite"), 403, "not_the_creator")
    fresh = client.post(f"/api/tables/{table_id}/seats/1/invite", headers=host)
    assert fresh.status_code == 200
    old_code, new_code = link1.rsplit("/", 1)[1], fresh.json()["join"].rsplit("/", 1)[1]
    seat1 = f"/api/tables/{table_id}/seats/1"
    assert is_error(client.post(seat1, json={"name": "Eve", "invite": old_code}), 403)
    assert client.post(seat1, json={"name": "Bo", "invite": new_code}).status_code == 200
    assert table_of(client, table_id).status == "running"


def test_the_creator_gives_an_absent_players_seat_to_a_bot(client: TestClient) -> None:
    created = create(client, ["human", "human", *BOTS3[:2]])
    table_id, host = created["id"], {"X-Host-Token": created["host_token"]}
    client.cookies.clear()
    ann = join(client, table_id, 0, "Ann")
    bo_token = client.post(f"/api/tables/{table_id}/seats/1", json={"name": "Bo"}).json()["token"]
    client.cookies.clear()
    assert is_error(client.post(f"/api/tables/{table_id}/seats/1/kick", headers=ann), 403)
    with client.websocket_connect(f"/ws/tables/{table_id}?token={bo_token}") as socket:
        socket.receive_json()
        present = client.post(f"/api/tables/{table_id}/seats/1/kick", headers=host)
        assert is_error(present, 409, "player_present")
    kicked = client.post(f"/api/tables/{table_id}/seats/1/kick", headers=host)
    assert kicked.status_code == 200
    assert kicked.json()["seats"][1]["taken_over"] == "kicked"
    bo = {"Authorization": f"Bearer {bo_token}"}
    assert is_error(client.get(f"/api/tables/{table_id}", headers=bo), 401, "bad_token")
    assert play_out(client, table_id, {0: ann}) > 0  # the bot plays Bo's seat to the end
    assert table_of(client, table_id).status == "over"


def test_a_seat_nobody_took_can_go_to_a_bot_so_the_game_starts(client: TestClient) -> None:
    created = create(client, ["human", "human", *BOTS3[:2]])
    table_id, host = created["id"], {"X-Host-Token": created["host_token"]}
    ann = join(client, table_id, 0, "Ann")
    assert client.post(f"/api/tables/{table_id}/seats/1/kick", headers=host).status_code == 200
    assert table_of(client, table_id).status == "running"
    assert client.get(f"/api/tables/{table_id}", headers=ann).json()["legal"]


# ------------------------------------------------------------------ idle tables, public timers


def test_an_idle_table_expires_and_keeps_its_record(db_url: str) -> None:
    clock = Clock()
    with TestClient(app_with(db_url, clock, idle_seconds=600)) as client:
        table_id = create(client, ["human", *BOTS3])["id"]
        ann = join(client, table_id, 0, "Ann")
        play = client.get(f"/api/tables/{table_id}", headers=ann).json()
        move(client, table_id, ann, play["legal"][0]["action"])
        service = service_of(client)
        clock.now += 599
        client.portal.call(service.sweep)  # type: ignore[union-attr]
        assert table_of(client, table_id).status == "running"
        clock.now += 2
        client.portal.call(service.sweep)  # type: ignore[union-attr]
        assert table_of(client, table_id).status == "expired"
        assert client.get("/api/tables").json()["tables"] == []
        assert client.get("/api/tables?status=expired").json()["total"] == 1
        assert is_error(move(client, table_id, ann, "split"), 409, "expired")
        record = client.get(f"/api/tables/{table_id}/record").json()
        assert [seat for seat, _ in record["actions"]].count(0) == 1
    with TestClient(app_with(db_url)) as again:  # stored so: a restart keeps it expired
        assert table_of(again, table_id).status == "expired"


def test_public_tables_of_people_get_the_default_turn_timer(db_url: str) -> None:
    with TestClient(app_with(db_url, public_turn_seconds=90)) as client:
        public = create(client, ["human", "human", *BOTS3[:2]])
        alone = create(client, ["human", *BOTS3])  # the other seats are all bots
        private = create(client, ["human", "human", *BOTS3[:2]], private=True)
        chosen = create(client, ["human", *BOTS3], turn_seconds=20)
        none = create(client, ["human", "human", *BOTS3[:2]], turn_seconds=0)
        assert table_of(client, public["id"]).turn_seconds == 90
        assert table_of(client, alone["id"]).turn_seconds is None
        assert table_of(client, private["id"]).turn_seconds is None
        assert table_of(client, chosen["id"]).turn_seconds == 20
        assert table_of(client, none["id"]).turn_seconds is None  # 0: no timer, asked for
        assert client.get("/api/server").json()["public_turn_seconds"] == 90


# ---------------------------------------------------------------------- one error shape


def test_every_error_has_one_shape(db_url: str) -> None:
    with TestClient(
        app_with(db_url, max_body_bytes=100, create_rate="1/minute"),
        raise_server_exceptions=False,
    ) as client:
        assert is_error(client.get("/api/nothing"), 404, "not_found")
        assert is_error(client.get("/api/tables/nope"), 404, "no_table")
        assert is_error(client.put("/api/tables"), 405, "method_not_allowed")
        assert is_error(client.post("/api/tables", content=b"{"), 422, "malformed_request")
        assert is_error(client.post("/api/tables", json={"x": "y" * 200}), 413)
        body = {"game": GAME, "num_players": 4, "seats": ["greedy"] * 4}
        assert client.post("/api/tables", json=body).status_code == 201
        assert is_error(client.post("/api/tables", json=body), 429)

        def broken() -> list[dict[str, Any]]:
            raise RuntimeError("boom")

        service_of(client).games = broken  # type: ignore[method-assign]
        failed = client.get("/api/games")
        assert is_error(failed, 500, "internal_error")
        assert "boom" not in failed.text


# ---------------------------------------------------------------------- order of writes


class FailingWrites:
    """Makes the service's database writes fail while active."""

    def __init__(self, service: TableService) -> None:
        self.service, self.engine = service, service.engine

    def __enter__(self) -> None:
        real = self.engine

        class Broken:
            def begin(self) -> Any:
                raise OperationalError("INSERT", {}, Exception("disk full"))

            def __getattr__(self, name: str) -> Any:
                return getattr(real, name)

        self.service.engine = Broken()  # type: ignore[assignment]
        self.one_trip = self.service.one_trip
        if self.one_trip is not None:  # PostgreSQL's moves go on their own connection
            import psycopg

            def broken_connection() -> Any:
                raise psycopg.OperationalError("disk full")

            self.one_trip._cursors_now = broken_connection  # type: ignore[method-assign]

    def __exit__(self, *_: object) -> None:
        self.service.engine = self.engine
        if self.one_trip is not None:
            del self.one_trip._cursors_now  # the class's own again


def test_a_failed_write_leaves_the_table_as_it_was(client: TestClient) -> None:
    table_id = create(client, ["human", "human", *BOTS3[:2]])["id"]
    service, table = service_of(client), table_of(client, table_id)
    with FailingWrites(service):
        refused = client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Ann"})
    assert is_error(refused, 503, "storage_failed")
    assert table.seats[0].free
    ann = join(client, table_id, 0, "Ann")
    bo = join(client, table_id, 1, "Bo")
    game = table.game
    before = game.to_json(table.state)
    play = client.get(f"/api/tables/{table_id}", headers=ann).json()
    with FailingWrites(service):
        failed = move(client, table_id, ann, play["legal"][0]["action"])
        assert is_error(failed, 503, "storage_failed")
        assert is_error(client.delete(f"/api/tables/{table_id}/seats/1", headers=bo), 503)
    assert game.to_json(table.state) == before
    assert table.decisions[0] == 0
    assert not table.seats[1].taken_over
    assert move(client, table_id, ann, play["legal"][0]["action"]).status_code == 200
    with service.engine.connect() as connection:
        assert connection.scalar(select(func.count()).select_from(SeatRow)) == 4


# ---------------------------------------------------------------------- the timer


def test_the_timer_restarts_for_a_players_back_to_back_decisions(db_url: str) -> None:
    """In Belly Battle a player decides several times in a row (move, buy, end the turn):
    each decision gets the whole timer, not what the last one left."""
    clock = Clock()
    with TestClient(app_with(db_url, clock)) as client:
        body = {"game": "belly-battle", "num_players": 2, "seats": ["human", "human"],
                "turn_seconds": 30, "seed": 3, "practice": True}  # fmt: skip
        table_id = client.post("/api/tables", json=body).json()["id"]
        players = {
            0: join(client, table_id, 0, "Ann", practice=True),
            1: join(client, table_id, 1, "Bo", practice=True),
        }
        table = table_of(client, table_id)
        again = 0
        for _ in range(40):
            seat = table.game.to_act(table.state)[0]
            play = client.get(f"/api/tables/{table_id}", headers=players[seat]).json()
            clock.now += 20  # most of the timer spent thinking
            assert (
                move(client, table_id, players[seat], play["legal"][-1]["action"]).status_code
                == 200
            )
            if table.over:
                break
            if seat in table.game.to_act(table.state):
                again += 1
            assert table.deadline == clock.now + 30
        assert again >= 3


# ---------------------------------------------------------------------- headers


@pytest.mark.parametrize("path", ["/", "/tables/x", "/api/games", "/static/potluck.js", "/nope"])
def test_every_response_carries_the_security_headers(client: TestClient, path: str) -> None:
    headers = client.get(path).headers
    policy = headers["content-security-policy"]
    assert "script-src 'self';" in policy
    assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


def test_the_pages_hold_no_inline_script() -> None:
    folder = Path(potluck.__file__).parent / "server" / "pages"
    for page in folder.glob("*.html"):
        for tag in re.findall(r"<script[^>]*>", page.read_text(encoding="utf-8")):
            assert "src=" in tag, page.name  # every script is a file the policy allows
        assert not re.search(r"\son[a-z]+=", page.read_text(encoding="utf-8")), page.name


def test_cookies_are_http_only_same_site_and_secure_over_https(db_url: str) -> None:
    body = {"game": GAME, "num_players": 4, "seats": ["human", *BOTS3]}
    with TestClient(app_with(db_url)) as plain:
        created = plain.post("/api/tables", json=body)
        cookie = created.headers["set-cookie"].lower()
        assert "httponly" in cookie
        assert "samesite=lax" in cookie
        assert "secure" not in cookie
    with TestClient(app_with(db_url), base_url="https://potluck.example") as tls:
        created = tls.post("/api/tables", json=body)
        assert "secure" in created.headers["set-cookie"].lower()
        joined = tls.post(f"/api/tables/{created.json()['id']}/seats/0", json={"name": "Ann"})
        assert "secure" in joined.headers["set-cookie"].lower()
        assert "strict-transport-security" in joined.headers


# ---------------------------------------------------------------------- reasons per state


def test_why_not_reasons_are_worked_out_once_per_state(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from potluck.server import views

    counted: list[int] = []
    real = views.reasons

    def counting(table: Any, seat: int, legal: Any) -> dict[str, str]:
        counted.append(seat)
        return real(table, seat, legal)

    monkeypatch.setattr(views, "reasons", counting)
    table_id = create(client, ["human", *BOTS3])["id"]
    token = client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Ann"}).json()["token"]
    client.cookies.clear()
    ann = {"Authorization": f"Bearer {token}"}
    with client.websocket_connect(f"/ws/tables/{table_id}?token={token}") as socket:
        first = socket.receive_json()
        for _ in range(3):
            client.get(f"/api/tables/{table_id}", headers=ann)
        assert counted == [0]  # the push and three reads of one decision: worked out once
        answer = move(client, table_id, ann, first["legal"][0]["action"], 0).json()
        client.get(f"/api/tables/{table_id}", headers=ann)
        # at most once per state the table went through (Ann's move, then each bot's),
        # however many answers, pushes and reads showed it
        assert len(counted) - 1 <= answer["step"] - first["step"]
        assert answer["illegal"]
