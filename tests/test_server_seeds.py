"""Seeds nobody can exploit (issue 33): a table with a person at it is dealt from a
secret seed, published only with the finished game's record; a chosen seed only at a
table of bots or at a practice table every player agreed to; "play from here" keeps
what its player's seat knew and deals the rest anew.

A game is its seed plus its actions, so a seed known before the end shows every hidden
card to whoever deals it offline: the tests try exactly that, for every game, with
every number a seat was shown.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import potluck
from potluck.engine.errors import RecordError
from potluck.server import create_app
from potluck.server.settings import MAX_SEED
from test_server_hardening import is_error
from webtest import OPEN, fresh_database_url

GAMES = sorted(potluck.list_games())


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return fresh_database_url(tmp_path)


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0, sweep_every=3600, settings=OPEN)) as c:
        yield c


def players(game_id: str) -> int:
    game = potluck.load_game(game_id)
    return min(max(3, game.min_players), game.max_players)


def service(client: TestClient) -> Any:
    return client.app.state.service  # type: ignore[attr-defined]


def numbers_in(shown: Any) -> set[int]:
    """Every whole number in ``shown`` (JSON), and every run of digits in its texts."""
    found: set[int] = set()
    if isinstance(shown, bool):
        return found
    if isinstance(shown, int):
        found.add(shown)
    elif isinstance(shown, str):
        digits = "".join(c if c.isdigit() else " " for c in shown)
        found.update(int(run) for run in digits.split() if len(run) < 20)
    elif isinstance(shown, dict):
        for key, value in shown.items():
            found |= numbers_in(key) | numbers_in(value)
    elif isinstance(shown, list):
        for value in shown:
            found |= numbers_in(value)
    return found


def join(client: TestClient, table_id: str, seat: int, **extra: Any) -> tuple[dict[str, Any], Any]:
    answer = client.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": "Ann", **extra})
    assert answer.status_code == 200, answer.text
    client.cookies.clear()
    return {"Authorization": f"Bearer {answer.json()['token']}"}, answer.json()


def play_some(client: TestClient, table_id: str, headers: dict[str, str], moves: int) -> list[Any]:
    """The seat plays its first legal move ``moves`` times (or until it has none); every
    payload it was shown."""
    shown = []
    for _ in range(moves):
        body = client.get(f"/api/tables/{table_id}", headers=headers).json()
        shown.append(body)
        if not body["legal"] or body["table"]["status"] != "running":
            break
        answer = client.post(
            f"/api/tables/{table_id}/actions",
            json={"action": body["legal"][0]["action"], "decision": body["decision"]},
            headers=headers,
        )
        assert answer.status_code == 200, answer.text
        shown.append(answer.json())
    return shown


# ---------------------------------------------------------------------- secret seeds


@pytest.mark.parametrize("game_id", GAMES)
def test_no_seat_can_deal_the_game_again_from_what_it_was_shown(
    client: TestClient, game_id: str
) -> None:
    n = players(game_id)
    body = {"game": game_id, "num_players": n, "seats": ["human"] + ["greedy"] * (n - 1)}
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201
    table_id = created.json()["id"]
    headers, joined = join(client, table_id, 0)
    shown: list[Any] = [created.json(), joined, client.get("/api/tables").json()]
    shown += play_some(client, table_id, headers, 6)
    if client.get(f"/api/tables/{table_id}", headers=headers).json()["table"]["status"] != "over":
        assert client.get(f"/api/tables/{table_id}/record").status_code == 409
    table = service(client).tables[table_id]
    game, truth = table.game, table.state
    candidates = {c for c in numbers_in(shown) if 0 <= c <= MAX_SEED}
    assert truth.seed not in candidates  # the seed itself never reached the seat
    actions = [(seat, str(action)) for seat, action in truth.history]
    hidden = game.to_json(truth)["state"]
    for candidate in sorted(candidates):
        try:
            state = game.new_game(n, candidate, dict(truth.options))
            for seat, text in actions:  # even given every action, the seat's own and others'
                game.step(state, seat, text)
        except potluck.PotluckError:
            continue  # that deal does not even allow the moves made
        assert game.to_json(state)["state"] != hidden, f"seed {candidate} deals the game"


def test_a_chosen_seed_is_taken_only_for_bots_or_a_practice_table(client: TestClient) -> None:
    bots = {"game": "cafe-carnage", "num_players": 4, "seats": ["greedy"] * 4, "seed": 12345}
    assert client.post("/api/tables", json=bots).status_code == 201
    human = {**bots, "seats": ["human", "human", "greedy", "greedy"]}
    refused = client.post("/api/tables", json=human)
    assert is_error(refused, 422, "bad_seed")
    assert "practice" in refused.json()["reason"]
    practice = client.post("/api/tables", json={**human, "practice": True})
    assert practice.status_code == 201
    table_id = practice.json()["id"]
    summary = client.get(f"/api/tables/{table_id}").json()["table"]
    assert summary["practice"] is True
    assert summary["seed"] == 12345  # every seat's screen shows the deal was chosen
    unagreed = client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Ann"})
    assert is_error(unagreed, 409, "practice_not_agreed")
    assert "12345" in unagreed.json()["reason"]
    headers, _ = join(client, table_id, 0, practice=True)
    seat_view = client.get(f"/api/tables/{table_id}", headers=headers).json()
    assert seat_view["table"]["practice"] is True
    join(client, table_id, 1, practice=True)
    assert service(client).tables[table_id].status == "running"


def test_an_ordinary_table_says_it_is_no_practice_and_shows_no_seed(client: TestClient) -> None:
    body = {"game": "cafe-carnage", "num_players": 4, "seats": ["human"] + ["greedy"] * 3}
    table_id = client.post("/api/tables", json=body).json()["id"]
    summary = client.get(f"/api/tables/{table_id}").json()["table"]
    assert summary["practice"] is False
    assert "seed" not in summary


# ---------------------------------------------------------------------- play from here


def finished(client: TestClient, game_id: str, seed: int = 12345) -> tuple[str, dict[str, Any]]:
    n = players(game_id)
    body = {"game": game_id, "num_players": n, "seats": ["greedy"] * n, "seed": seed}
    source = client.post("/api/tables", json=body).json()["id"]
    record = client.get(f"/api/tables/{source}/record").json()
    return source, record


@pytest.mark.parametrize("game_id", GAMES)
def test_playing_from_here_keeps_the_players_seat_and_deals_the_rest_anew(
    client: TestClient, db_url: str, game_id: str
) -> None:
    source, record = finished(client, game_id)
    game = potluck.load_game(game_id)
    n = players(game_id)
    step = len(record["actions"]) // 2
    there = game.replay(record, upto=step)  # anyone can do this: the record is public
    seats = ["human"] + ["medium"] * (n - 1)
    body = {"game": game_id, "seats": seats, "from_table": source, "from_step": step}
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    new_id = created.json()["id"]
    table = service(client).tables[new_id]
    now = table.state
    assert [(s, str(a)) for s, a in now.history] == [tuple(a) for a in record["actions"][:step]]
    assert game.view(now, 0) == game.view(there, 0)  # what the player's seat knew
    assert game.view(now, None) == game.view(there, None)  # and what everyone saw
    # the rest is new: every future draw (a game whose hidden cards are all drawn later,
    # Burger Joint's bag or Belly Battle's decks, hides nothing else at that moment)
    assert game.to_json(now)["rng"] != game.to_json(there)["rng"]
    # the seat plays on; until the end its record is not published, then it replays
    headers, _ = join(client, new_id, 0)
    while client.get(f"/api/tables/{new_id}", headers=headers).json()["legal"]:
        play_some(client, new_id, headers, 10)
    assert table.over
    published = client.get(f"/api/tables/{new_id}/record").json()
    assert [entry["step"] for entry in published["redeal"]] == [step]
    assert published["seed"] == record["seed"]
    assert game.to_json(game.replay(published)) == game.to_json(table.state)
    view = client.get(f"/api/tables/{new_id}/replay?step={step + 1}&everyone=true").json()
    replayed = game.replay(published, upto=step + 1)
    assert view["views"] == [game.view(replayed, s) for s in range(n)]
    # a restarted server deals it again the same way
    with TestClient(create_app(db_url, bot_delay=0, sweep_every=3600, settings=OPEN)) as again:
        restored = service(again).tables[new_id]
        assert game.to_json(restored.state) == game.to_json(table.state)


def test_only_finished_games_are_sources(client: TestClient) -> None:
    running = {"game": "cafe-carnage", "num_players": 4, "seats": ["human"] + ["greedy"] * 3}
    table_id = client.post("/api/tables", json=running).json()["id"]
    body = {"game": "cafe-carnage", "seats": ["human", "medium", "medium", "medium"],
            "from_table": table_id, "from_step": 0}  # fmt: skip
    assert is_error(client.post("/api/tables", json=body), 404, "no_finished_table")
    service(client).tables[table_id].status = "expired"  # its record is public...
    assert client.get(f"/api/tables/{table_id}/record").status_code == 200
    refused = client.post("/api/tables", json=body)  # ...but it is no game played out
    assert is_error(refused, 404, "no_finished_table")


def test_several_people_play_from_here_only_at_a_practice_table(client: TestClient) -> None:
    source, record = finished(client, "cafe-carnage")
    body = {"game": "cafe-carnage", "seats": ["human", "human", "medium", "medium"],
            "from_table": source, "from_step": 10}  # fmt: skip
    assert is_error(client.post("/api/tables", json=body), 422, "bad_start")
    practice = client.post("/api/tables", json={**body, "practice": True})
    assert practice.status_code == 201
    table = service(client).tables[practice.json()["id"]]
    game = table.game
    assert game.to_json(table.state) == game.to_json(game.replay(record, upto=10))
    assert table.redeal == []  # the position exactly, as everyone agreed


def test_playing_from_a_game_that_was_itself_played_from_here(client: TestClient) -> None:
    source, _ = finished(client, "cafe-carnage")
    first = {"game": "cafe-carnage", "seats": ["greedy"] * 4, "from_table": source,
             "from_step": 8}  # fmt: skip
    middle = client.post("/api/tables", json=first).json()["id"]
    middle_record = client.get(f"/api/tables/{middle}/record").json()
    assert len(middle_record["redeal"]) == 1
    body = {"game": "cafe-carnage", "seats": ["human", "medium", "medium", "medium"],
            "from_table": middle, "from_step": 20}  # fmt: skip
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    table = service(client).tables[created.json()["id"]]
    assert [entry["step"] for entry in table.redeal] == [8, 20]
    game = table.game
    there = game.replay(middle_record, upto=20)
    assert game.view(table.state, 0) == game.view(there, 0)


# ---------------------------------------------------------------------- the record's redeal


def test_a_records_redeal_is_checked() -> None:
    game = potluck.load_game("cafe-carnage")
    record = game.record(game.new_game(4, 1))
    bads: list[Any] = [
        {"step": 0},
        [{"step": 0, "seat": 9, "seed": 1}],
        [{"step": 5, "seat": 0, "seed": 1}],
        [{"step": 0, "seat": 0, "seed": "x"}],
        [{"step": 0, "seat": 1, "seed": 1}, {"step": -1, "seat": 0, "seed": 1}],
    ]
    for bad in bads:
        with pytest.raises(RecordError):
            game.replay({**record, "redeal": bad})
    redealt = game.replay({**record, "redeal": [{"step": 0, "seat": 2, "seed": 3}]})
    assert redealt.history == []
    assert game.view(redealt, 2) == game.view(game.new_game(4, 1), 2)
    expected = game.redeal(game.new_game(4, 1), 2, random.Random(3))
    assert game.to_json(redealt) == game.to_json(expected)
