"""The server's limits on the internet: request and move rates (429 with Retry-After),
caps on open tables, bodies, names, integers and WebSockets, paging, and the
command line that sets them (``test_server_hardening.py`` has the rest).

The limits' tests build apps with the settings they test (``app_with``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from potluck.server import create_app
from potluck.server.settings import ServerSettings
from test_server import create, join, move, service_of, table_of
from test_server_hardening import BOTS3, GAME, app_with, is_error
from webtest import OPEN, fresh_database_url


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return fresh_database_url(tmp_path)


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0, sweep_every=3600, settings=OPEN)) as c:
        yield c


def test_creating_too_fast_gets_429_with_retry_after(db_url: str) -> None:
    with TestClient(app_with(db_url, create_rate="2/minute")) as client:
        body = {"game": GAME, "num_players": 4, "seats": ["greedy"] * 4}
        assert client.post("/api/tables", json=body).status_code == 201
        assert client.post("/api/tables", json=body).status_code == 201
        refused = client.post("/api/tables", json=body)
        assert is_error(refused, 429, "too_many_requests")
        assert 1 <= int(refused.headers["retry-after"]) <= 60


def test_moving_too_fast_gets_429(db_url: str) -> None:
    with TestClient(app_with(db_url, move_rate="3/minute")) as client:
        table_id = create(client, ["human", *BOTS3])["id"]
        ann = join(client, table_id, 0, "Ann")
        answers = [move(client, table_id, ann, "zzz").status_code for _ in range(4)]
        assert answers == [400, 400, 400, 429]


def test_open_tables_are_capped_per_client_and_in_all(db_url: str) -> None:
    body = {"game": GAME, "num_players": 4, "seats": ["human", *BOTS3]}
    with TestClient(app_with(db_url, max_tables_per_client=2, max_open_tables=3)) as client:
        assert client.post("/api/tables", json=body).status_code == 201
        assert client.post("/api/tables", json=body).status_code == 201
        capped = client.post("/api/tables", json=body)
        assert is_error(capped, 429, "too_many_tables")
        # tables made elsewhere are not in this browser's list: it says when one closes
        assert "closes by itself (the next in about 2 hours)" in capped.json()["reason"]
        # a table handed to someone else frees a place for this client; three in all fill
        # the server
        service_of(client).tables[next(iter(service_of(client).tables))].creator = "another"
        assert client.post("/api/tables", json=body).status_code == 201
        assert is_error(client.post("/api/tables", json=body), 503, "server_full")


def test_bodies_over_the_cap_get_413_without_the_body_echoed(db_url: str) -> None:
    with TestClient(app_with(db_url, max_body_bytes=1000)) as client:
        big = {"game": GAME, "num_players": 4, "seats": ["x" * 5000]}
        refused = client.post("/api/tables", json=big)
        assert is_error(refused, 413, "body_too_large")
        assert len(refused.text) < 200

        def chunks() -> Iterator[bytes]:  # no Content-Length: the body is counted
            yield b'{"game": "' + b"x" * 800
            yield b"x" * 800 + b'"}'

        chunked = client.post(
            "/api/tables", content=chunks(), headers={"content-type": "application/json"}
        )
        assert is_error(chunked, 413, "body_too_large")


@pytest.mark.parametrize(
    "name", ["A\x00nn", "Bell\x07", "\x1b[31mRed", "Ann\u202eeve", "zero\u200bwidth", "x" * 41]
)
def test_names_with_control_characters_or_too_long_are_refused(
    client: TestClient, name: str
) -> None:
    table_id = create(client, ["human", *BOTS3])["id"]
    refused = client.post(f"/api/tables/{table_id}/seats/0", json={"name": name})
    assert is_error(refused, 422)
    assert table_of(client, table_id).seats[0].free
    assert client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Ann"}).status_code == 200


@pytest.mark.parametrize(
    ("field", "value"),
    [("seed", 2**63), ("seed", -1), ("turn_seconds", 2**63), ("turn_seconds", 4),
     ("turn_seconds", -1), ("turn_seconds", 10**6), ("num_players", 2**70)],
)  # fmt: skip
def test_every_integer_is_bounded(client: TestClient, field: str, value: int) -> None:
    body = {"game": GAME, "num_players": 4, "seats": ["human", *BOTS3], field: value}
    # 1 to 4 s pass the schema (0 means no timer) and are refused by the server
    code = "bad_timer" if (field, value) == ("turn_seconds", 4) else "malformed_request"
    assert is_error(client.post("/api/tables", json=body), 422, code)
    assert client.get("/api/tables").json()["total"] == 0


def test_the_largest_seed_is_taken(client: TestClient) -> None:
    body = {"game": GAME, "num_players": 4, "seats": ["greedy"] * 4, "seed": 2**63 - 1}
    table_id = client.post("/api/tables", json=body).json()["id"]
    assert client.get(f"/api/tables/{table_id}/record").json()["seed"] == 2**63 - 1


def test_big_integers_in_paths_and_queries_are_refused(client: TestClient) -> None:
    table_id = create(client, ["greedy"] * 4)["id"]
    assert is_error(client.post(f"/api/tables/{table_id}/seats/{2**64}", json={"name": "A"}), 422)
    assert is_error(client.get(f"/api/tables/{table_id}/replay?step={2**64}"), 422)
    assert is_error(client.get("/api/tables?offset=-1"), 422)


def test_the_table_list_is_paged(db_url: str) -> None:
    with TestClient(app_with(db_url, max_page=3)) as client:
        ids = [create(client, ["greedy"] * 4)["id"] for _ in range(5)]
        first = client.get("/api/tables?limit=2").json()
        assert (first["total"], first["offset"], first["limit"]) == (5, 0, 2)
        assert [t["id"] for t in first["tables"]] == ids[::-1][:2]
        rest = client.get("/api/tables?offset=2&limit=100").json()
        assert rest["limit"] == 3  # the server's largest page
        assert [t["id"] for t in rest["tables"]] == ids[::-1][2:5]


def test_potluck_serve_sets_every_limit_and_the_proxy() -> None:
    from typer.testing import CliRunner

    from potluck.cli.app import app

    shown = CliRunner().invoke(app, ["serve", "--help"], terminal_width=200).output
    for option in ("--behind-proxy", "--proxy-ip", "--allowed-origin", "--create-rate",
                   "--join-rate", "--move-rate", "--tables-per-client", "--max-tables",
                   "--max-body", "--idle-minutes", "--public-turn-seconds"):  # fmt: skip
        assert option in shown, option
    wrong = CliRunner().invoke(app, ["serve", "--move-rate", "lots"])
    assert wrong.exit_code == 2
    assert "'lots' is not a rate" in wrong.output


def test_a_rate_of_none_limits_nothing() -> None:
    from potluck.server.ratelimit import RateLimits

    rates = RateLimits(
        ServerSettings(
            create_rate="none",
            join_rate="none",
            move_rate="none",
            analysis_rate="none",
            login_rate="none",
            login_name_rate="none",
        )
    )
    assert rates.limiter is None  # and no timer thread of the limiter's storage
    for _ in range(1000):
        rates.hit("move", "10.0.0.1")


def test_new_move_analyses_are_rate_limited_but_a_kept_one_is_free(db_url: str) -> None:
    with TestClient(app_with(db_url, analysis_rate="1/minute")) as client:
        table_id = create(client, ["greedy"] * 4)["id"]
        assert client.get(f"/api/tables/{table_id}/analysis?seat=0").status_code in (200, 202)
        assert client.get(f"/api/tables/{table_id}/analysis?seat=0").status_code in (200, 202)
        refused = client.get(f"/api/tables/{table_id}/analysis?seat=1")
        assert is_error(refused, 429, "too_many_requests")
        assert "Retry-After" in refused.headers


def test_every_websocket_message_counts_against_the_move_rate(db_url: str) -> None:
    with TestClient(app_with(db_url, move_rate="2/minute")) as client:
        table_id = create(client, ["human", *BOTS3])["id"]
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            socket.receive_json()
            errors = []
            for _ in range(3):
                socket.send_text("junk")
                errors.append(socket.receive_json()["error"])
        assert errors == ["bad_message", "bad_message", "too_many_requests"]


def test_a_client_may_hold_only_so_many_websockets_open(db_url: str) -> None:
    with TestClient(app_with(db_url, max_sockets_per_client=2)) as client:
        table_id = create(client, ["human", *BOTS3])["id"]
        url = f"/ws/tables/{table_id}"
        with client.websocket_connect(url) as one, client.websocket_connect(url) as two:
            one.receive_json()
            two.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(url) as ws:
                ws.receive_json()
            assert closed.value.code == 4429
        with client.websocket_connect(url) as again:  # closing them freed the places
            assert again.receive_json()["type"] == "state"


@pytest.mark.parametrize("name", ["A\x00nn", "Bell\x07"])
def test_a_login_under_a_name_the_checks_refuse_is_a_wrong_login(
    client: TestClient, name: str
) -> None:
    # PostgreSQL cannot even compare a text holding NUL: such a name must never reach
    # a query (it answered 503 storage_failed there).
    answer = client.post("/api/session", json={"name": name, "password": "correct horse"})
    assert is_error(answer, 401, "wrong_login")
