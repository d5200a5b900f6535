"""A table's creator closes it: the game ends for everyone at it, its record and replay stay,
and it no longer counts against the creator's open tables (issue 34). The server's settings
a client shows (``GET /api/server``), and the bots' names counted from 1."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from potluck.server import create_app
from test_server import GAME, create, join, service_of
from webtest import OPEN, fresh_database_url

BOTS = ["greedy", "greedy", "greedy"]


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    settings = dataclasses.replace(OPEN, max_tables_per_client=2)
    app = create_app(fresh_database_url(tmp_path), bot_delay=0, settings=settings)
    with TestClient(app) as client:
        yield client


def host(created: dict[str, Any]) -> dict[str, str]:
    return {"X-Host-Token": created["host_token"]}


def test_the_creator_closes_a_table_for_everyone_and_its_record_stays(client: TestClient) -> None:
    created = create(client, ["human", "human", *BOTS[:2]])
    table_id = created["id"]
    seat = join(client, table_id, 0, "Ann")
    join(client, table_id, 1, "Bo")
    move = client.get(f"/api/tables/{table_id}", headers=seat).json()
    first = move["legal"][0]["action"]
    assert (
        client.post(
            f"/api/tables/{table_id}/actions", json={"action": first, "decision": 0}, headers=seat
        ).status_code
        == 200
    )
    # only the creator may close it
    refused = client.post(f"/api/tables/{table_id}/close", headers=seat)
    assert refused.status_code == 403
    assert refused.json()["error"] == "not_the_creator"
    closed = client.post(f"/api/tables/{table_id}/close", headers=host(created))
    assert closed.status_code == 200, closed.text
    assert closed.json()["table"]["status"] == "closed"
    # nobody moves any more
    later = client.get(f"/api/tables/{table_id}", headers=seat).json()
    assert later["legal"] == []
    assert later["waiting"] == "Its creator closed this table."
    refused = client.post(
        f"/api/tables/{table_id}/actions",
        json={"action": later["view"]["you"]["menu"][0]["dish"], "decision": 1},
        headers=seat,
    )
    assert refused.status_code == 409
    assert refused.json()["error"] == "table_closed"
    assert client.post(f"/api/tables/{table_id}/close", headers=host(created)).status_code == 409
    # its record and replay stay, the moves made kept
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert [0, first] in record["actions"]
    replay = client.get(f"/api/tables/{table_id}/replay?step=1&everyone=true").json()
    assert replay["last"]["label"]  # the move in words, as the table said it
    # the lobby lists it only when asked for closed tables
    assert client.get("/api/tables").json()["total"] == 0
    assert client.get("/api/tables?status=closed").json()["total"] == 1
    assert service_of(client).tables[table_id].status == "closed"


def test_a_closed_table_frees_its_creators_place_under_the_cap(client: TestClient) -> None:
    first = create(client, ["human", *BOTS])
    create(client, ["human", *BOTS])
    refused = client.post(
        "/api/tables", json={"game": GAME, "num_players": 4, "seats": ["human", *BOTS]}
    )
    assert refused.status_code == 429
    assert "close one" in refused.json()["reason"]
    assert client.post(f"/api/tables/{first['id']}/close", headers=host(first)).status_code == 200
    assert create(client, ["human", *BOTS])["id"]


def test_the_server_says_its_settings_and_bots_are_counted_from_one(client: TestClient) -> None:
    facts = client.get("/api/server").json()
    assert set(facts) == {"public_turn_seconds", "max_tables_per_client", "idle_minutes"}
    assert facts["max_tables_per_client"] == 2
    created = create(client, ["human", "medium", "easy", "hard"])
    seats = client.get(f"/api/tables/{created['id']}").json()["table"]["seats"]
    assert [s["name"] for s in seats[1:]] == ["Bot 2 (medium)", "Bot 3 (easy)", "Bot 4 (hard)"]
