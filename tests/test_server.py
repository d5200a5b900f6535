"""The web server: JSON API, WebSocket, hidden information, restarts, timers and pages.

Each test runs a real app (``create_app``) on a SQLite file in ``tmp_path`` with
Starlette's test client; bots move at once (``bot_delay=0``), so a request that
wakes them returns after they have moved.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

import potluck
from potluck.server import TableService, create_app
from potluck.server.db import ActionRow, Base, TableRow, make_engine, migrate
from potluck.server.tableservice import LiveTable, Watcher
from potluck.server.views import RECENT_MOVES
from webtest import OPEN, fresh_database_url

GAME = "cafe-carnage"
BOTS3 = ["greedy", "random", "greedy"]


def app_for(db_url: str, **extra: Any) -> Any:
    """The server app over ``db_url`` with bots that move at once and the limits lifted."""
    return create_app(db_url, bot_delay=0, settings=OPEN, **extra)


class Clock:
    """A clock the tests move by hand, for the turn timer."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make_service(url: str, clock: Clock | None = None) -> TableService:
    engine = make_engine(url)
    migrate(engine)
    service = TableService(engine, bot_delay=0, clock=clock or Clock(), settings=OPEN)
    service.load_all()
    return service


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return fresh_database_url(tmp_path)


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(app_for(db_url, sweep_every=3600)) as test_client:
        yield test_client


def service_of(client: TestClient) -> TableService:
    service = client.app.state.service  # type: ignore[attr-defined]
    assert isinstance(service, TableService)
    return service


def create(client: TestClient, seats: list[str], **extra: Any) -> dict[str, Any]:
    body = {"game": GAME, "num_players": len(seats), "seats": seats, **extra}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def join(
    client: TestClient, table_id: str, seat: int, name: str, *, practice: bool = False
) -> dict[str, str]:
    """Take the seat; ``practice``: agree to a practice table (one with a chosen seed)."""
    body = {"name": name, "practice": True} if practice else {"name": name}
    response = client.post(f"/api/tables/{table_id}/seats/{seat}", json=body)
    assert response.status_code == 200, response.text
    client.cookies.clear()  # the test speaks for seats with their tokens, not the cookie
    return {"Authorization": f"Bearer {response.json()['token']}"}


def table_of(client: TestClient, table_id: str) -> LiveTable:
    return service_of(client).tables[table_id]


def move(
    client: TestClient,
    table_id: str,
    headers: dict[str, str],
    action: str,
    decision: int | None = None,
) -> Any:
    """POST one action as the seat's current decision (or the one given)."""
    if decision is None:
        decision = client.get(f"/api/tables/{table_id}", headers=headers).json()["decision"]
    return client.post(
        f"/api/tables/{table_id}/actions",
        json={"action": action, "decision": decision or 0},
        headers=headers,
    )


def play_out(client: TestClient, table_id: str, players: dict[int, dict[str, str]]) -> int:
    """Every human seat plays its first legal action until the game ends; returns moves."""
    moves = 0
    while True:
        moved = False
        for headers in players.values():
            body = client.get(f"/api/tables/{table_id}", headers=headers).json()
            if body["legal"]:
                response = move(
                    client, table_id, headers, body["legal"][0]["action"], body["decision"]
                )
                assert response.status_code == 200, response.text
                moves += 1
                moved = True
        if not moved:
            return moves


# ---------------------------------------------------------------------- the API


def test_openapi_documents_the_api(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert "post" in paths["/api/tables"]
    assert "post" in paths["/api/tables/{table_id}/seats/{seat}"]
    assert "get" in paths["/api/tables/{table_id}"]
    assert "post" in paths["/api/tables/{table_id}/actions"]
    assert "get" in paths["/api/tables/{table_id}/record"]
    refusal = paths["/api/tables/{table_id}/actions"]["post"]["responses"]["409"]
    assert refusal["content"]["application/json"]["schema"]["$ref"].endswith("ErrorBody")


def test_games_lists_every_game_with_options_and_bots(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert set(games) == set(potluck.list_games())
    cafe = games[GAME]
    assert (cafe["min_players"], cafe["max_players"]) == (4, 6)
    assert cafe["options"]["no_repeat_dishes"]["type"] == "bool"
    assert {"random", "greedy"} <= set(cafe["bots"])


def test_a_human_and_three_bots_play_to_the_end(client: TestClient) -> None:
    created = create(client, ["human", *BOTS3])
    table_id = created["id"]
    assert created["join"] == [{"seat": 0, "join": f"/tables/{table_id}/join/0"}]
    assert client.get(f"/api/tables/{table_id}").json()["table"]["status"] == "open"
    headers = join(client, table_id, 0, "Ann")
    assert client.get(f"/api/tables/{table_id}").json()["table"]["status"] == "running"
    assert play_out(client, table_id, {0: headers}) > 10
    body = client.get(f"/api/tables/{table_id}", headers=headers).json()
    assert body["outcome"] is not None
    assert body["table"]["status"] == "over"
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert record["players"][0] == "Ann"
    assert record["outcome"] == body["outcome"]
    game = potluck.load_game(GAME)
    assert game.outcome(game.replay(record)).to_json() == body["outcome"]


def test_bots_alone_play_a_table_to_the_end_at_once(client: TestClient) -> None:
    created = create(client, ["greedy", "random", "greedy", "random", "greedy"])
    assert created["join"] == []
    body = client.get(f"/api/tables/{created['id']}").json()
    assert body["table"]["status"] == "over"
    assert body["outcome"]["winners"]


def test_a_finished_table_lets_go_of_its_bots(client: TestClient) -> None:
    """Its bots never move again, and with their caches they were about half of what a
    finished table kept in memory; its view and record are still served."""
    table_id = create(client, ["human", *BOTS3])["id"]
    headers = join(client, table_id, 0, "Ann")
    live = service_of(client).tables[table_id]
    assert live.bots  # made when they first moved
    play_out(client, table_id, {0: headers})
    assert live.over
    assert live.bots == {}
    assert client.get(f"/api/tables/{table_id}", headers=headers).json()["outcome"] is not None
    assert client.get(f"/api/tables/{table_id}/record").status_code == 200


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "chess", "num_players": 4, "seats": ["human"] * 4}, 404, "unknown game"),
        ({"game": GAME, "num_players": 4, "seats": ["human"] * 3}, 422, "one entry per seat"),
        (
            {"game": GAME, "num_players": 4, "seats": ["human", "genius", "random", "random"]},
            422,
            "one of Café Carnage's bots",
        ),
        ({"game": GAME, "num_players": 3, "seats": ["human"] * 3}, 422, "4 to 6 players"),
        (
            {"game": GAME, "num_players": 4, "seats": ["human"] * 4, "options": {"x": 1}},
            422,
            "no option 'x'",
        ),
        (
            {"game": GAME, "num_players": 4, "seats": ["human"] * 4, "turn_seconds": 1},
            422,
            "A turn timer is 5 to 86400 seconds (0: none).",
        ),
        ({"game": GAME, "num_players": 4, "seats": []}, 422, "seats: List should have at least 1"),
    ],
)
def test_a_bad_table_is_refused_with_the_reason(
    client: TestClient, body: dict[str, Any], status: int, words: str
) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == status
    assert words in response.json()["reason"]
    assert client.get("/api/tables").json()["tables"] == []


def test_joining_refuses_bot_seats_taken_seats_and_bad_names(client: TestClient) -> None:
    table_id = create(client, ["human", "human", "greedy", "greedy"])["id"]
    seats = f"/api/tables/{table_id}/seats"
    assert client.post(f"{seats}/2", json={"name": "Bo"}).json()["error"] == "seat_taken"
    assert client.post(f"{seats}/0", json={"name": "   "}).status_code == 422
    assert client.post(f"{seats}/0", json={"name": "x" * 41}).status_code == 422
    assert client.post(f"{seats}/9", json={"name": "Bo"}).status_code == 404
    assert client.post("/api/tables/nope/seats/0", json={"name": "Bo"}).status_code == 404
    join(client, table_id, 0, "Ann")
    taken = client.post(f"{seats}/0", json={"name": "Eve"})
    assert taken.status_code == 409
    assert "taken by Ann" in taken.json()["reason"]


def test_refused_actions_carry_the_reason_and_change_nothing(client: TestClient) -> None:
    table_id = create(client, ["human", "human", "greedy", "greedy"])["id"]
    actions = f"/api/tables/{table_id}/actions"
    ann = join(client, table_id, 0, "Ann")
    early = move(client, table_id, ann, "split", 0)
    assert early.status_code == 409
    assert "free: 1" in early.json()["reason"]
    join(client, table_id, 1, "Bo")
    before = potluck.load_game(GAME).to_json(table_of(client, table_id).state)

    nobody = client.post(actions, json={"action": "split", "decision": 0})
    assert nobody.status_code == 401
    assert "token" in nobody.json()["reason"]
    forged = move(client, table_id, {"Authorization": "Bearer x"}, "split", 0)
    assert forged.status_code == 401
    garbled = move(client, table_id, ann, "zzz")
    assert garbled.status_code == 400
    assert "not a Café Carnage action" in garbled.json()["reason"]
    illegal = move(client, table_id, ann, "split")
    game, state = potluck.load_game(GAME), table_of(client, table_id).state
    assert illegal.status_code == 409
    assert illegal.json() == {"error": "illegal_action", "reason": game.explain(state, 0, "split")}
    malformed = client.post(actions, json={"move": "split", "decision": 0}, headers=ann)
    assert malformed.status_code == 422
    assert "action: Field required" in malformed.json()["reason"]
    assert game.to_json(table_of(client, table_id).state) == before

    explained = client.get(f"/api/tables/{table_id}/explain?action=split", headers=ann).json()
    assert explained == {"action": "split", "legal": False, "reason": illegal.json()["reason"]}


def test_a_seat_gets_its_own_view_and_a_spectator_the_public_one(client: TestClient) -> None:
    table_id = create(client, ["human", "human", "greedy", "greedy"])["id"]
    ann, bo = join(client, table_id, 0, "Ann"), join(client, table_id, 1, "Bo")
    game, state = potluck.load_game(GAME), table_of(client, table_id).state
    for headers, seat in ((ann, 0), (bo, 1), ({}, None)):
        body = client.get(f"/api/tables/{table_id}", headers=headers).json()
        assert body["seat"] == seat
        assert body["view"] == game.view(state, seat)
        assert body["to_act"] == list(game.to_act(state))
        expected = [] if seat is None else [str(a) for a in game.legal_actions(state, seat)]
        assert [a["action"] for a in body["legal"]] == expected
        if seat is not None:
            labels = [game.describe_action(state, seat, a) for a in game.legal_actions(state, seat)]
            assert [a["label"] for a in body["legal"]] == labels
            assert all(game.explain(state, seat, a) == r for a, r in body["illegal"].items())


def test_nothing_a_seat_may_not_know_reaches_it(client: TestClient) -> None:
    """Re-dealing everything hidden from a seat changes nothing the server sends it."""
    table_id = create(client, ["human", "human", "greedy", "greedy"])["id"]
    ann, bo = join(client, table_id, 0, "Ann"), join(client, table_id, 1, "Bo")
    service, table = service_of(client), table_of(client, table_id)
    game, rng = table.game, random.Random(3)
    checked = 0
    for _ in range(40):  # through orders, ballots, bills and into later nights
        real = table.state
        sent = {seat: service.payload(table, seat) for seat in (0, 1, None)}
        for seat in (0, 1):
            table.state = game.redeal(real, seat, rng)
            assert service.payload(table, seat) == sent[seat]
            assert service.payload(table, None) == sent[None]
            table.state = real
            checked += 1
        text = json.dumps(sent[None])
        assert '"you"' not in text
        assert "rng" not in text
        assert sent[None]["legal"] == []
        assert sent[None]["illegal"] == {}
        moved = False
        for headers in (ann, bo):
            legal = client.get(f"/api/tables/{table_id}", headers=headers).json()["legal"]
            if legal:
                action = legal[int(rng.random() * len(legal))]["action"]
                move(client, table_id, headers, action)
                moved = True
        if not moved:
            break
    assert checked >= 30


def test_recent_moves_say_who_did_what_and_keep_others_sealed_choices_hidden(
    client: TestClient,
) -> None:
    """Each payload carries the latest moves in words; another seat's part of a sealed
    choice (an order, a ballot) comes without its text, to a seat and to a spectator."""
    table_id = create(client, ["human", *BOTS3])["id"]
    ann = join(client, table_id, 0, "Ann")
    service, table = service_of(client), table_of(client, table_id)
    for _ in range(6):
        body = client.get(f"/api/tables/{table_id}", headers=ann).json()
        if body["legal"]:
            assert move(client, table_id, ann, body["legal"][0]["action"]).status_code == 200
    latest = table.moves[-RECENT_MOVES:]
    assert any(secret for _, _, secret in latest)
    assert any(s == 0 for s, _, _ in latest)
    for seat in (0, None):
        sent = service.payload(table, seat)["moves"]
        assert [m["seat"] for m in sent] == [actor for actor, _, _ in latest]
        for shown, (actor, text, secret) in zip(sent, latest, strict=True):
            hidden = secret and actor != seat
            assert shown["text"] == (None if hidden else text)


def test_the_websocket_pushes_each_seat_its_view(client: TestClient) -> None:
    table_id = create(client, ["human", "human", "greedy", "greedy"])["id"]
    ann = join(client, table_id, 0, "Ann")
    bo_token = client.post(f"/api/tables/{table_id}/seats/1", json={"name": "Bo"}).json()["token"]
    client.cookies.clear()
    game = potluck.load_game(GAME)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}?token={bo_token}") as bo_socket,
        client.websocket_connect(f"/ws/tables/{table_id}") as spectator,
    ):
        first = bo_socket.receive_json()
        assert first["type"] == "state"
        assert first["seat"] == 1
        assert first["legal"]
        assert spectator.receive_json()["seat"] is None
        menu = client.get(f"/api/tables/{table_id}", headers=ann).json()["legal"]
        move(client, table_id, ann, menu[0]["action"])
        pushed = bo_socket.receive_json()
        state = table_of(client, table_id).state
        assert pushed["step"] == len(state.history)
        assert pushed["view"] == game.view(state, 1)
        assert spectator.receive_json()["view"] == game.view(state, None)
        # acting over the socket, and a refusal that comes back with the reason
        bo_socket.send_json({"type": "action", "action": "split", "decision": 0})
        refusal = bo_socket.receive_json()
        assert refusal["type"] == "error"
        assert refusal["error"] == "illegal_action"
        bo_socket.send_json(
            {"type": "action", "action": first["legal"][0]["action"], "decision": 0}
        )
        assert bo_socket.receive_json()["step"] > pushed["step"]
        spectator.send_json({"type": "action", "action": "split", "decision": 0})
        assert next_error(spectator)["error"] == "no_seat"
        bo_socket.send_text("not json")
        assert next_error(bo_socket)["error"] == "bad_message"


def next_error(socket: Any) -> dict[str, Any]:
    """The next error message on a socket, past the state pushes before it."""
    while (message := socket.receive_json())["type"] == "state":
        pass
    return dict(message)


def test_the_websocket_refuses_a_bad_token_and_an_unknown_table(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    table_id = create(client, ["human", *BOTS3])["id"]
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(f"/ws/tables/{table_id}?token=forged") as socket,
    ):
        socket.receive_json()
    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws/tables/nope") as socket:
        socket.receive_json()


def test_every_action_is_stored_before_it_is_broadcast(client: TestClient) -> None:
    table_id = create(client, ["human", *BOTS3])["id"]
    ann = join(client, table_id, 0, "Ann")
    service, table = service_of(client), table_of(client, table_id)
    seen: list[tuple[int, int]] = []

    async def send(payload: dict[str, Any]) -> None:
        with Session(service.engine) as session:
            stored = session.scalar(
                select(func.count()).select_from(ActionRow).where(ActionRow.table_id == table_id)
            )
        seen.append((payload["step"], stored or 0))

    table.watchers.append(Watcher(None, send))
    play_out(client, table_id, {0: ann})
    assert len(seen) > 20
    assert all(step == stored for step, stored in seen)


# ---------------------------------------------------------------------- restarts


def test_a_restarted_server_resumes_every_table_exactly(db_url: str) -> None:
    with TestClient(app_for(db_url)) as first:
        running = create(first, ["human", "human", "greedy", "random"])["id"]
        ann, bo = join(first, running, 0, "Ann"), join(first, running, 1, "Bo")
        for _ in range(5):
            for headers in (ann, bo):
                legal = first.get(f"/api/tables/{running}", headers=headers).json()["legal"]
                if legal:
                    move(first, running, headers, legal[-1]["action"])
        waiting = create(first, ["human", "human", "greedy", "greedy"])["id"]
        join(first, waiting, 1, "Cy")
        finished = create(first, ["greedy"] * 4)["id"]
        game = potluck.load_game(GAME)
        saved = {t: game.to_json(table_of(first, t).state) for t in (running, waiting, finished)}
        seats = {t: table_of(first, t).seats for t in (running, waiting, finished)}
        record = first.get(f"/api/tables/{finished}/record").json()

    with TestClient(app_for(db_url)) as second:
        for table_id, state in saved.items():
            table = table_of(second, table_id)
            assert game.to_json(table.state) == state
            assert table.seats == seats[table_id]
        assert table_of(second, waiting).status == "open"
        assert second.get(f"/api/tables/{finished}/record").json() == record
        # the seats' tokens still work, and the game goes on to its end
        assert second.get(f"/api/tables/{running}", headers=ann).json()["seat"] == 0
        assert play_out(second, running, {0: ann, 1: bo}) > 0
        assert table_of(second, running).status == "over"


def test_a_table_whose_log_no_longer_replays_is_set_aside(db_url: str) -> None:
    with TestClient(app_for(db_url)) as first:
        table_id = create(first, ["human", *BOTS3])["id"]
        engine = service_of(first).engine
    with Session(engine) as session, session.begin():
        session.execute(update(TableRow).values(game_version=999))
    with TestClient(app_for(db_url)) as second:
        assert second.get(f"/api/tables/{table_id}").status_code == 404
        assert second.get("/api/tables").json()["tables"] == []
    with Session(make_engine(db_url)) as session:
        row = session.get(TableRow, table_id)
        assert row is not None
        assert row.status == "broken"
        assert "version 999" in (row.problem or "")


def test_the_migrations_build_exactly_the_models(db_url: str) -> None:
    engine = make_engine(db_url)
    migrate(engine)
    migrate(engine)  # a second start upgrades nothing
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []


# ---------------------------------------------------------------------- timer, leaving, seat links


def test_a_seat_that_runs_out_of_time_is_played_by_a_bot(db_url: str) -> None:
    clock = Clock()
    service = make_service(db_url, clock)
    with TestClient(create_app(service=service, sweep_every=3600)) as client:
        table_id = create(client, ["human", "human", "greedy", "greedy"], turn_seconds=30)["id"]
        ann, bo = join(client, table_id, 0, "Ann"), join(client, table_id, 1, "Bo")
        assert client.get(f"/api/tables/{table_id}").json()["table"]["seconds_left"] == 30
        legal = client.get(f"/api/tables/{table_id}", headers=ann).json()["legal"]
        move(client, table_id, ann, legal[0]["action"])
        clock.now += 29
        client.portal.call(service.sweep)  # type: ignore[union-attr]
        assert not table_of(client, table_id).seats[1].taken_over
        clock.now += 2
        client.portal.call(service.sweep)  # type: ignore[union-attr]
        seats = client.get(f"/api/tables/{table_id}").json()["table"]["seats"]
        assert seats[1]["taken_over"] == "timeout"
        assert seats[1]["played_by_bot"] == "greedy"
        assert not seats[0]["taken_over"]  # Ann had chosen in time
        body = client.get(f"/api/tables/{table_id}", headers=bo).json()
        assert body["legal"] == []
        assert "bot is playing for you" in body["waiting"]
        refused = move(client, table_id, bo, "split", 0)
        assert refused.status_code == 409
        assert "take your seat back" in refused.json()["reason"]
        back = client.post(f"/api/tables/{table_id}/seats/1/return", headers=bo)
        assert back.status_code == 200
        assert back.json()["table"]["seats"][1]["taken_over"] is None


def test_a_player_who_leaves_is_replaced_by_a_bot_that_finishes(client: TestClient) -> None:
    table_id = create(client, ["human", *BOTS3])["id"]
    ann = join(client, table_id, 0, "Ann")
    other = create(client, ["human", *BOTS3])["id"]
    bo = join(client, other, 0, "Bo")
    wrong = client.delete(f"/api/tables/{table_id}/seats/0", headers=bo)
    assert wrong.status_code == 401  # Bo's token is no seat's at Ann's table
    left = client.delete(f"/api/tables/{table_id}/seats/0", headers=ann)
    assert left.status_code == 200
    assert left.json()["table"]["seats"][0]["taken_over"] == "left"
    assert left.json()["table"]["status"] == "over"  # the bots played on at once


def test_the_seat_link_keeps_the_token_in_a_cookie(client: TestClient) -> None:
    table_id = create(client, ["human", *BOTS3])["id"]
    joined = client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Ann"}).json()
    client.cookies.clear()
    assert client.get(f"/api/tables/{table_id}").json()["seat"] is None
    response = client.get(joined["seat_link"], follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == f"/tables/{table_id}"
    assert client.get(f"/api/tables/{table_id}").json()["seat"] == 0
    assert client.get(f"/tables/{table_id}/seat/forged").status_code == 404


# ---------------------------------------------------------------------- replays and pages


def test_a_finished_game_replays_as_any_seat_or_all_seeing(client: TestClient) -> None:
    running = create(client, ["human", *BOTS3])["id"]
    assert client.get(f"/api/tables/{running}/record").status_code == 409
    assert client.get(f"/api/tables/{running}/replay").status_code == 409
    table_id = create(client, ["greedy", "random", "random", "greedy"])["id"]
    record = client.get(f"/api/tables/{table_id}/record").json()
    game = potluck.load_game(GAME)
    steps = len(record["actions"])
    for step in (0, 7, steps):
        state = game.replay(record, upto=step)
        as_seat = client.get(f"/api/tables/{table_id}/replay?step={step}&seat=2").json()
        assert as_seat["view"] == game.view(state, 2)
        assert as_seat["steps"] == steps
        spectator = client.get(f"/api/tables/{table_id}/replay?step={step}").json()
        assert spectator["view"] == game.view(state, None)
        everyone = client.get(f"/api/tables/{table_id}/replay?step={step}&everyone=true").json()
        assert everyone["views"] == [game.view(state, s) for s in range(4)]
    assert client.get(f"/api/tables/{table_id}/replay?step={steps + 1}").status_code == 422
    assert client.get(f"/api/tables/{table_id}/replay?seat=7").status_code == 404


def test_the_lobby_lists_tables_by_status(client: TestClient) -> None:
    open_id = create(client, ["human", *BOTS3])["id"]
    over_id = create(client, ["greedy"] * 4)["id"]
    listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
    assert listed[open_id]["status"] == "open"
    assert listed[over_id]["status"] == "over"
    assert listed[open_id]["seats"][0]["free"] is True
    assert "token_hash" not in json.dumps(listed)
    assert [t["id"] for t in client.get("/api/tables?status=open").json()["tables"]] == [open_id]


@pytest.mark.parametrize(
    "path", ["/", "/tables/x", "/tables/x/join/0", "/tables/x/replay", "/static/potluck.js"]
)
def test_the_pages_are_served(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert len(response.text) > 200


def test_the_pages_fetch_nothing_from_other_servers() -> None:
    folder = Path(potluck.__file__).parent / "server"
    for page in [*folder.glob("pages/*.html"), *folder.glob("static/*")]:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"(src|href)=[\"']?(https?:)?//", text), page.name
        assert ".innerHTML" not in text, page.name  # names and views are drawn as text


def test_potluck_serve_is_a_command() -> None:
    from typer.testing import CliRunner

    from potluck.cli.app import app
    from potluck.cli.serve_command import _safe_url

    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    assert "--database-url" in result.output
    assert _safe_url("postgresql+psycopg://ann:secret@db/potluck") == (
        "postgresql+psycopg://ann:***@db/potluck"
    )
    assert _safe_url("sqlite:///x.db") == "sqlite:///x.db"
    wrong = CliRunner().invoke(app, ["serve", "--database-url", "nosuchdb://x"])
    assert wrong.exit_code == 2
    assert "cannot use the database nosuchdb://x" in wrong.output


def test_a_human_table_plays_burger_joint_without_the_turn_limit(client: TestClient) -> None:
    """Ruling BJ-10: the turn limit is for simulations; a person's game is not cut short."""

    def burger(seats: list[str], **extra: Any) -> dict[str, Any]:
        return create(client, seats, game="burger-joint", num_players=2, **extra)

    assert table_of(client, burger(["human", "greedy"])["id"]).state.options["turn_limit"] == 0
    assert table_of(client, burger(["greedy", "random"])["id"]).state.options["turn_limit"] == 40
    chosen = burger(["human", "greedy"], options={"turn_limit": 60})
    assert table_of(client, chosen["id"]).state.options["turn_limit"] == 60


def test_a_restart_in_the_middle_of_a_sealed_choice_keeps_the_rest_of_it_secret(
    db_url: str,
) -> None:
    """A restored table rebuilds its recent moves and which were sealed from its history:
    the last seat's order of a batch begun before the restart is still another seat's
    secret (Café Carnage's orders are chosen at once)."""
    with TestClient(app_for(db_url)) as first:
        table_id = create(first, ["human", "human", "greedy", "greedy"])["id"]
        ann, bo = join(first, table_id, 0, "Ann"), join(first, table_id, 1, "Bo")
        legal = first.get(f"/api/tables/{table_id}", headers=ann).json()["legal"]
        assert move(first, table_id, ann, legal[0]["action"]).status_code == 200
        assert 1 in table_of(first, table_id).state.acting  # Bo still to order
        before = list(table_of(first, table_id).moves)
    with TestClient(app_for(db_url)) as second:
        table = table_of(second, table_id)
        assert table.moves == before  # rebuilt from the history, sealed marks included
        legal = second.get(f"/api/tables/{table_id}", headers=bo).json()["legal"]
        assert move(second, table_id, bo, legal[0]["action"]).status_code == 200
        assert next(secret for actor, _, secret in table.moves if actor == 1)
        for viewer in (0, None):
            shown = service_of(second).payload(table, viewer)["moves"]
            assert all(m["text"] is None for m in shown if m["seat"] == 1)
