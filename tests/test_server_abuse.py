"""What one abusive client meets (issue 33): a flooding WebSocket is closed and its
address refused for a while; a binary frame gets a close code; every text a player
writes has the same checks; the OpenAPI schema says what the server does; each
documented close code is the one a real server sends.

The door's own caps and deadlines (``potluck.server.gate``) are in
``tests/test_server_connections.py``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import potluck
from potluck.server import create_app
from potluck.server.gate import Penalties
from test_server import create, join
from test_server_hardening import app_with, is_error
from webtest import OPEN, LiveServer, fresh_database_url

BOTS3 = ["greedy", "greedy", "greedy"]


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return fresh_database_url(tmp_path)


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0, sweep_every=3600, settings=OPEN)) as c:
        yield c


# ---------------------------------------------------------------------- WebSocket floods


def send_junk(socket: Any, answers: list[str]) -> None:
    """Send junk and keep each answer's error code until the socket is closed."""
    socket.receive_json()
    for _ in range(20):
        socket.send_text("junk")
        answers.append(socket.receive_json()["error"])


def test_a_socket_that_keeps_sending_after_refusals_is_closed_and_its_address_slowed(
    db_url: str,
) -> None:
    with TestClient(
        app_with(db_url, move_rate="3/minute", socket_refusals=4, penalty_seconds=60)
    ) as client:
        table_id = create(client, ["human", *BOTS3])["id"]
        codes: list[str] = []
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            client.websocket_connect(f"/ws/tables/{table_id}") as socket,
        ):
            send_junk(socket, codes)
        assert closed.value.code == 4429
        # 3 answered, then refused: the 4th refusal closes it, without an answer
        assert codes == ["bad_message"] * 3 + ["too_many_requests"] * 3
        with (
            pytest.raises(WebSocketDisconnect) as again,
            client.websocket_connect(f"/ws/tables/{table_id}") as socket,
        ):
            socket.receive_json()
        assert again.value.code == 4429
        refused = client.get("/api/tables")
        assert is_error(refused, 429, "slow_down")
        assert 55 <= int(refused.headers["Retry-After"]) <= 61


def test_the_penalty_ends_and_other_addresses_never_had_one() -> None:
    moment = [100.0]
    box = Penalties(clock=lambda: moment[0])
    box.punish("10.0.0.1", 30)
    box.punish("10.0.0.1", 5)  # a shorter one never shortens it
    assert box.remaining("10.0.0.1") == 30
    assert box.remaining("10.0.0.2") == 0
    moment[0] += 30
    assert box.remaining("10.0.0.1") == 0


def send_bytes(socket: Any) -> None:
    socket.receive_json()
    socket.send_bytes(b'{"type": "action"}')
    socket.receive_json()


def test_a_binary_frame_gets_close_code_1003_not_a_traceback(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    table_id = create(client, ["human", *BOTS3])["id"]
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(f"/ws/tables/{table_id}") as socket,
    ):
        send_bytes(socket)
    assert closed.value.code == 1003
    assert "Traceback" not in caplog.text
    assert "KeyError" not in caplog.text


# ---------------------------------------------------------------------- close codes, for real


def _close_code(url: str, headers: dict[str, str] | None = None) -> int | None:
    """The close code a real server's WebSocket at ``url`` ends with (its first message
    read and dropped); None if it stays open."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    async def go() -> int | None:
        async with connect(url, additional_headers=headers or {}, open_timeout=10) as socket:
            try:
                while True:
                    await asyncio.wait_for(socket.recv(), 5)
            except ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd is not None else None
            except TimeoutError:
                return None

    return asyncio.run(go())


def test_each_documented_close_code_is_sent_by_a_real_server(tmp_path: Path) -> None:
    """Closed after the handshake, so a page can read why: a refused handshake reaches
    it as 1006 whatever the reason (the 33rd socket used to be refused so)."""
    import dataclasses

    import httpx

    settings = dataclasses.replace(OPEN, max_sockets_per_client=1)
    server = LiveServer(fresh_database_url(tmp_path), settings=settings)
    try:
        with httpx.Client(base_url=server.url) as http:
            body = {"game": "cafe-carnage", "num_players": 4, "seats": ["human", *BOTS3]}
            table_id = http.post("/api/tables", json=body).json()["id"]
        ws = server.url.replace("http", "ws", 1)
        assert _close_code(f"{ws}/ws/tables/nosuchtable") == 4404
        assert _close_code(f"{ws}/ws/tables/{table_id}?token=wrong") == 4401
        foreign = {"Origin": "http://elsewhere.example"}
        assert _close_code(f"{ws}/ws/tables/{table_id}", foreign) == 4403

        async def two_sockets() -> int | None:
            from websockets.asyncio.client import connect
            from websockets.exceptions import ConnectionClosed

            async with connect(f"{ws}/ws/tables/{table_id}") as first:
                await first.recv()
                async with connect(f"{ws}/ws/tables/{table_id}") as second:
                    try:
                        await asyncio.wait_for(second.recv(), 5)
                        await asyncio.wait_for(second.recv(), 5)
                    except ConnectionClosed as closed:
                        return closed.rcvd.code if closed.rcvd is not None else None
            return None

        assert asyncio.run(two_sockets()) == 4429
    finally:
        server.stop()


# ---------------------------------------------------------------------- texts players write


@pytest.mark.parametrize("text", ["Yo\x1bgurt", "Be\x07ll", "evil\u202etxt", "zero\u200bwidth"])
@pytest.mark.parametrize("part", ["name", "tagline"])
def test_product_names_and_taglines_have_the_names_checks(
    client: TestClient, text: str, part: str
) -> None:
    """The same check as a player's name (``potluck.engine.text.written_text_problem``):
    refused by the game's parser, so never stored, sent to a seat or kept in a record."""
    name, tagline = (text, "Fine") if part == "name" else ("Fine", text)
    game = potluck.load_game("food-advice")
    with pytest.raises(potluck.InvalidActionError, match="control character"):
        game.parse_action(None, 0, f'name "{name}" / "{tagline}"')
    body = {"game": "food-advice", "num_players": 4, "seats": ["human", *BOTS3]}
    food = client.post("/api/tables", json=body).json()["id"]
    headers = join(client, food, 0, "Ann")
    sent = client.post(
        f"/api/tables/{food}/actions",
        json={"action": f'name "{name}" / "{tagline}"', "decision": 0},
        headers=headers,
    )
    assert is_error(sent, 400, "invalid_action")
    assert "control character" in sent.json()["reason"]


def test_a_plain_product_name_still_parses() -> None:
    game = potluck.load_game("food-advice")
    action = game.parse_action(None, 0, 'name "Crème Brûlée Rocket" / "Fly me — to the moon"')
    assert str(action) == 'name "Crème Brûlée Rocket" / "Fly me — to the moon"'


# ---------------------------------------------------------------------- the schema


def test_the_schema_publishes_integer_bounds_as_integers(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    seed = schema["components"]["schemas"]["CreateTable"]["properties"]["seed"]["anyOf"][0]
    assert seed == {"type": "integer", "maximum": 2**63 - 1, "minimum": 0}
    # A guest's name, or none when a logged-in player sits under their account's name.
    name = schema["components"]["schemas"]["Join"]["properties"]["name"]
    assert {"type": "string", "maxLength": 40, "minLength": 1} in name["anyOf"]

    def floats(node: Any) -> list[Any]:
        if isinstance(node, dict):
            found = [v for k, v in node.items() if k in ("maximum", "minimum") and
                     node.get("type") == "integer" and not isinstance(v, int)]  # fmt: skip
            return found + [f for v in node.values() for f in floats(v)]
        if isinstance(node, list):
            return [f for v in node for f in floats(v)]
        return []

    assert floats(schema) == []


def test_a_name_one_past_the_schema_is_refused_and_at_it_taken(client: TestClient) -> None:
    table_id = create(client, ["human", "human", *BOTS3[:2]])["id"]
    url = f"/api/tables/{table_id}/seats"
    assert is_error(client.post(f"{url}/0", json={"name": "x" * 41}), 422)
    assert client.post(f"{url}/0", json={"name": "x" * 40}).status_code == 200


def test_a_405_allows_every_method_of_the_path(client: TestClient) -> None:
    refused = client.put("/api/tables/abc/seats/0")
    assert is_error(refused, 405, "method_not_allowed")
    assert refused.headers["Allow"] == "DELETE, POST"
    assert client.patch("/api/tables").headers["Allow"] == "GET, POST"
