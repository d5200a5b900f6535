"""Ratings, profiles, head-to-head, leaderboards and rematches.

Rated games here play against medium bots whose reference rating the tests fix
(``fake_references``): the measured file changes whenever the bots do.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session

from accounts_helpers import PASSWORD, Browser, fake_references, play_to_the_end, serve, wait_rated
from potluck.server import TableService, create_app, ratings, standings
from potluck.server.db import RatingChangeRow, TableRow, make_engine
from potluck.server.ratings import START, Standing, pool_of, pools_of, rate
from webtest import OPEN, fresh_database_url

BOTS = ["medium", "medium", "medium"]


@pytest.fixture(autouse=True)
def _references(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratings, "references", fake_references)


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return fresh_database_url(tmp_path)


@pytest.fixture
def app(db_url: str) -> Iterator[Any]:
    application = create_app(db_url, bot_delay=0, sweep_every=3600, settings=OPEN)
    with serve(application):
        yield application


def service_of(app: Any) -> TableService:
    service = app.state.service
    assert isinstance(service, TableService)
    return service


def rated_game(browser: Browser, *, leave: bool = False) -> str:
    table = browser.create(["human", *BOTS], rated=True)
    assert browser.sit(table, 0).status_code == 200
    play_to_the_end(table, *([] if leave else [browser]), leave=browser if leave else None)
    wait_rated(browser, table)
    return table


# ---------------------------------------------------------------------- the model


def test_the_pools_split_duels_from_larger_tables() -> None:
    from potluck.engine.registry import load_game

    assert [p.id for p in pools_of(load_game("belly-battle"))] == [
        "belly-battle.2",
        "belly-battle.3-6",
    ]
    assert [p.id for p in pools_of(load_game("burger-joint"))] == ["burger-joint"]
    assert pool_of("food-advice", 6) == pool_of("food-advice", 4) == "food-advice"
    assert pool_of("belle-of-the-ball", 3) == "belle-of-the-ball.3-5"


def test_a_win_raises_a_loss_lowers_and_a_leaver_loses_whatever_the_bot_did() -> None:
    bot = Standing(27.0, 1.0)
    won = rate([START, bot], [1, 2], leavers=set())
    lost = rate([START, bot], [2, 1], leavers=set())
    assert won[0].mu > START.mu > lost[0].mu
    assert won[0].sigma < START.sigma
    # the bot that played for the leaver won, yet the leaver is ranked last
    left = rate([START, bot, bot], [1, 2, 3], leavers={0})
    assert left[0].mu < START.mu
    assert left[0].mu == pytest.approx(rate([START, bot, bot], [4, 2, 3], set())[0].mu)


# ---------------------------------------------------------------------- rated games


def test_a_rated_game_moves_the_rating_once_and_shows_it_everywhere(app: Any, db_url: str) -> None:
    ann = Browser(app)
    ann.sign_up("Ann")
    table = rated_game(ann)
    changes = ann.get(f"/api/tables/{table}/ratings").json()
    assert changes["rated"]
    assert changes["applied"]
    (change,) = changes["changes"]
    assert (change["seat"], change["name"], change["before"]) == (0, "Ann", 25.0)
    assert change["after"] != 25.0
    profile = ann.get("/api/players/Ann").json()
    (rating,) = profile["ratings"]
    assert (rating["pool"], rating["games"], rating["title"]) == ("cafe-carnage", 1, "Café Carnage")
    assert rating["mu"] == change["after"]
    assert [point["table"] for point in rating["history"]] == [table]
    games = ann.get("/api/players/Ann/games").json()
    assert games["total"] == 1
    game = games["games"][0]
    assert game["rated"]
    assert game["rating"]["after"] == change["after"]
    assert game["replay"] == f"/tables/{table}/replay"
    assert game["analysis"] == f"/api/tables/{table}/analysis?seat=0"
    board = ann.get("/api/leaderboards/cafe-carnage").json()
    assert [(p["rank"], p["name"], p["games"]) for p in board["players"]] == [(1, "Ann", 1)]
    assert board["total"] == 1
    # once only, whoever tries again (another process, the sweep)
    engine = make_engine(db_url)
    assert standings.apply_ratings(engine, table) is None
    assert ann.get("/api/players/Ann").json()["ratings"][0]["games"] == 1


def test_an_abandoned_rated_game_counts_as_a_loss(app: Any) -> None:
    ann = Browser(app)
    ann.sign_up("Ann")
    table = rated_game(ann, leave=True)
    (change,) = ann.get(f"/api/tables/{table}/ratings").json()["changes"]
    assert change["abandoned"] is True
    assert change["after"] < change["before"]
    point = ann.get("/api/players/Ann").json()["ratings"][0]["history"][0]
    others = ann.get(f"/api/tables/{table}/record").json()["outcome"]["places"][1:]
    assert point["abandoned"] is True
    assert point["place"] == max(others) + 1  # below every other seat, whatever its bot did


def test_a_seat_nobody_holds_gives_nobody_free_points(app: Any) -> None:
    """A rated table's seat nobody took cannot be given to a bot (its loss, ranked last,
    would be free points for the others, game after game); a seat whose account was
    deleted mid-game counts as the bot that played it on, in the place it reached."""
    ann, bob = Browser(app), Browser(app)
    ann.sign_up("Ann")
    bob.sign_up("Bob")
    made = ann.post(
        "/api/tables",
        json={"game": "belly-battle", "num_players": 2, "seats": ["human"] * 2, "rated": True},
    ).json()
    assert ann.sit(made["id"], 0).status_code == 200
    kicked = ann.post(
        f"/api/tables/{made['id']}/seats/1/kick", headers={"X-Host-Token": made["host_token"]}
    )
    assert kicked.status_code == 409
    assert kicked.json()["error"] == "rated_seat"
    assert ann.table(made["id"])["table"]["status"] == "open"
    table = ann.create(["human", "human", "medium", "medium"], rated=True)
    ann.sit(table, 0)
    bob.sit(table, 1)
    bob.move_once(table)
    gone = bob.post("/api/account/delete", json={"password": PASSWORD})
    assert gone.status_code == 200, gone.text
    play_to_the_end(table, ann)
    (change,) = wait_rated(ann, table)["changes"]
    places = ann.get(f"/api/tables/{table}/record").json()["outcome"]["places"]
    medium = fake_references()["pools"]["cafe-carnage"]["levels"]["medium"]
    bot = Standing(medium["mu"], medium["sigma"])
    expected = rate([START, bot, bot, bot], places, leavers=set())[0]
    assert change["after"] == pytest.approx(expected.mu, abs=0.01)
    assert change["abandoned"] is False


def test_an_unrated_game_leaves_the_ratings_alone(app: Any) -> None:
    ann = Browser(app)
    ann.sign_up("Ann")
    table = ann.create(["human", *BOTS])
    ann.sit(table, 0)
    play_to_the_end(table, ann)
    assert ann.get("/api/players/Ann").json()["ratings"] == []
    assert ann.get(f"/api/tables/{table}/ratings").json()["rated"] is False
    assert ann.get("/api/players/Ann/games").json()["games"][0]["rating"] is None


def test_the_sweep_applies_ratings_that_a_dead_process_never_did(app: Any, db_url: str) -> None:
    ann = Browser(app)
    ann.sign_up("Ann")
    table = rated_game(ann)
    engine = make_engine(db_url)
    with Session(engine) as session, session.begin():  # as if the process died in between
        session.execute(update(TableRow).where(TableRow.id == table).values(rated_at=None))
        session.query(RatingChangeRow).delete()
    service = service_of(app)
    service.tables[table].rated_done = False
    app.state.test_client.portal.call(service.rate_due)
    assert ann.get("/api/players/Ann").json()["ratings"][0]["games"] == 2


def test_the_leaderboards_list_every_pool_with_its_rated_bots(app: Any) -> None:
    pools = Browser(app).get("/api/leaderboards").json()
    assert {p["id"] for p in pools} >= {"cafe-carnage", "belly-battle.2", "belly-battle.3-6"}
    cafe = next(p for p in pools if p["id"] == "cafe-carnage")
    assert set(cafe["rated_levels"]) == {"easy", "medium"}
    assert Browser(app).get("/api/leaderboards/nothing").status_code == 404
    page = Browser(app).get("/api/leaderboards/cafe-carnage?offset=5&limit=2").json()
    assert (page["players"], page["offset"], page["limit"]) == ([], 5, 2)


def test_the_shipped_references_are_measured_without_a_time_budget() -> None:
    """Every level of ``bot_ratings.json`` plays a spec whose strength does not depend on
    the machine (no ``time``: the search stops at its number of simulations), chained
    the way the file says (hard = medium + the difference its own arena measured)."""
    import json

    from potluck.engine.botspec import BotSpec
    from potluck.server.botratings import HARD, chained

    shipped = json.loads(ratings.REFERENCE_FILE.read_text(encoding="utf-8"))
    assert set(shipped["pools"]) == {pool.id for pool in ratings.all_pools()}
    for pool_id, pool in shipped["pools"].items():
        assert set(pool["levels"]) == {"easy", "medium", "hard"}, pool_id
        for level in pool["levels"].values():
            resolved = BotSpec.parse(level["resolved"])
            assert "time" not in dict(resolved.params), (pool_id, level["resolved"])
            assert level["measured"]["errors"] == 0
        hard, medium = pool["levels"]["hard"], pool["levels"]["medium"]
        assert hard["spec"] == HARD
        again = chained({}, hard["above_medium"], medium)
        assert (again["mu"], again["sigma"]) == (hard["mu"], hard["sigma"]), pool_id


def test_a_rated_tables_hard_seat_plays_the_measured_spec_not_the_hosts(
    app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host's ``--hard-bot`` (the tests': ``ismcts:sims=8``) plays unrated tables;
    a rated table's hard seat plays the spec its reference was measured with."""
    from potluck.agents import effective_spec
    from potluck.engine.registry import load_game

    measured = fake_references()
    spec = "ismcts:sims=8,prior=none"
    resolved = str(effective_spec(load_game("cafe-carnage"), spec))
    hard = {"spec": spec, "resolved": resolved, "mu": 30.0, "sigma": 1.0}
    measured["pools"]["cafe-carnage"]["levels"]["hard"] = hard
    monkeypatch.setattr(ratings, "references", lambda: measured)
    ann = Browser(app)
    ann.sign_up("Ann")
    rated = ann.create(["human", "hard", "medium", "easy"], rated=True)
    unrated = ann.create(["human", "hard", "medium", "easy"])
    service = service_of(app)
    assert service.bot_spec(service.tables[rated], 1, "hard") == spec
    assert service.bot_spec(service.tables[unrated], 1, "hard") == OPEN.hard_bot
    assert ann.table(rated)["table"]["seats"][1]["bot"] == "hard"


# ---------------------------------------------------------------------- rematch


def two_accounts_game(app: Any) -> tuple[Browser, Browser, str]:
    ann, bob = Browser(app), Browser(app)
    ann.sign_up("Ann")
    bob.sign_up("Bob")
    table = ann.create(["human", "human", "medium", "medium"], rated=True)
    ann.sit(table, 0)
    bob.sit(table, 1)
    play_to_the_end(table, ann, bob)
    wait_rated(ann, table)
    return ann, bob, table


def test_play_again_rotates_the_seats_and_each_player_accepts(app: Any) -> None:
    ann, bob, first = two_accounts_game(app)
    proposed = ann.post(f"/api/tables/{first}/rematch")
    assert proposed.status_code == 200, proposed.text
    offer = proposed.json()
    again = offer["table"]
    assert offer["seat"] == 1
    assert offer["token"] is None
    assert offer["host_token"]
    new = ann.table(again)
    assert new["seat"] == 1
    assert new["table"]["rated"] is True
    assert new["table"]["rematch_of"] == first
    assert new["table"]["private"] is True
    assert new["table"]["status"] == "open"
    seats = new["table"]["seats"]
    assert [s["kind"] for s in seats] == ["bot", "human", "human", "bot"]
    assert seats[2]["kept_for"] == "Bob"
    shown = bob.table(first)["rematch"]
    assert shown["table"] == again
    assert shown["mine"] == "waiting"
    assert {a["name"]: a["answer"] for a in shown["answers"]} == {
        "Ann": "accepted",
        "Bob": "waiting",
    }
    assert Browser(app).sit(again, 2, "Guest").status_code == 403  # kept for Bob
    accepted = bob.post(f"/api/tables/{first}/rematch")
    assert accepted.json()["table"] == again
    assert accepted.json()["seat"] == 2
    assert bob.table(again)["table"]["status"] == "running"
    assert ann.post(f"/api/tables/{first}/rematch").json()["table"] == again  # one rematch
    play_to_the_end(again, ann, bob)
    wait_rated(ann, again)
    h2h = ann.get("/api/players/Ann/opponents").json()
    assert h2h["total"] == 1
    (bob_row,) = h2h["opponents"]
    assert bob_row["name"] == "Bob"
    assert bob_row["games"] == 2
    assert bob_row["wins"] + bob_row["losses"] + bob_row["ties"] == 2
    assert ann.get("/api/players/Ann").json()["ratings"][0]["games"] == 2


def test_a_declined_rematch_seat_goes_to_a_medium_bot(app: Any) -> None:
    ann, bob, first = two_accounts_game(app)
    again = ann.post(f"/api/tables/{first}/rematch").json()["table"]
    declined = bob.post(f"/api/tables/{first}/rematch/decline")
    assert declined.status_code == 200, declined.text
    assert {a["name"]: a["answer"] for a in declined.json()["rematch"]["answers"]} == {
        "Ann": "accepted",
        "Bob": "declined",
    }
    new = ann.table(again)["table"]
    assert new["seats"][2]["bot"] == "medium"
    assert new["status"] == "running"
    assert bob.post(f"/api/tables/{first}/rematch").json()["error"] == "declined"
    assert Browser(app).post(f"/api/tables/{first}/rematch").status_code == 401


def test_guests_play_again_by_their_seat_tokens(app: Any) -> None:
    host = Browser(app)
    table = host.create(["human", "human", "easy", "easy"])
    tokens = [host.sit(table, seat, name).json()["token"] for seat, name in ((0, "Ann"), (1, "Bo"))]
    host.client.cookies.clear()
    ann = {"Authorization": f"Bearer {tokens[0]}"}
    bo = {"Authorization": f"Bearer {tokens[1]}"}
    early = host.post(f"/api/tables/{table}/rematch", headers=ann)
    assert early.json()["error"] == "not_over"
    for _ in range(500):
        moved = False
        for headers in (ann, bo):
            body = host.get(f"/api/tables/{table}", headers=headers).json()
            if body["legal"]:
                host.post(
                    f"/api/tables/{table}/actions",
                    json={"action": body["legal"][0]["action"], "decision": body["decision"]},
                    headers=headers,
                )
                moved = True
        if not moved:
            break
    first = host.post(f"/api/tables/{table}/rematch", headers=ann).json()
    assert first["seat"] == 1
    assert first["token"]
    second = host.post(f"/api/tables/{table}/rematch", headers=bo).json()
    assert second["seat"] == 2
    assert second["table"] == first["table"]
    new = host.get(
        f"/api/tables/{first['table']}", headers={"Authorization": f"Bearer {second['token']}"}
    ).json()
    assert new["seat"] == 2
    assert [s["name"] for s in new["table"]["seats"]][1:3] == ["Ann", "Bo"]
    assert new["table"]["status"] == "running"
