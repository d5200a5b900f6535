"""Accounts: signing up, logging in and out, passwords, sessions across devices, CSRF,
rate limits, seats tied to accounts, invitations by name and deleting an account.

Each test runs a real app on its own database (SQLite, or ``POTLUCK_TEST_DATABASE_URL``);
``Browser`` gives each simulated browser its own cookies over the one app.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from accounts_helpers import PASSWORD, Browser, fake_references, play_to_the_end, serve
from potluck.server import create_app, ratings
from potluck.server.db import AccountRow, SessionRow, make_engine
from webtest import OPEN, fresh_database_url

BOTS = ["medium", "medium", "medium"]


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return fresh_database_url(tmp_path)


@pytest.fixture(autouse=True)
def _references(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratings, "references", fake_references)


@pytest.fixture
def app(db_url: str) -> Iterator[Any]:
    application = create_app(db_url, bot_delay=0, sweep_every=3600, settings=OPEN)
    with serve(application):  # runs the lifespan once; browsers share the app
        yield application


def rows(db_url: str, query: Any) -> list[Any]:
    engine = make_engine(db_url)
    with Session(engine) as session:
        return list(session.execute(query).all())


# ---------------------------------------------------------------------- signing up


def test_signing_up_logs_in_with_a_session_cookie_and_a_csrf_token(app: Any) -> None:
    ann = Browser(app)
    response = ann.sign_up("Ann")
    body = response.json()
    assert body["account"]["name"] == "Ann"
    assert body["csrf"] == ann.csrf
    cookies = response.headers.get_list("set-cookie")
    session = next(c for c in cookies if c.startswith("potluck_session="))
    csrf = next(c for c in cookies if c.startswith("potluck_csrf="))
    assert "HttpOnly" in session
    assert "samesite=lax" in session.lower()
    assert "Secure" not in session  # plain HTTP here: see the HTTPS test
    assert "HttpOnly" not in csrf  # the page's script reads it
    assert ann.get("/api/session").json()["account"]["name"] == "Ann"
    assert Browser(app).get("/api/session").json() == {"account": None, "csrf": None}


def test_over_https_the_session_cookies_are_secure(app: Any) -> None:
    ann = Browser(app, base_url="https://testserver")
    cookies = ann.sign_up("Ann").headers.get_list("set-cookie")
    assert all("Secure" in cookie for cookie in cookies if cookie.startswith("potluck_"))


def test_passwords_are_argon2id_hashes_each_with_its_own_salt(app: Any, db_url: str) -> None:
    Browser(app).sign_up("Ann", "the same password")
    Browser(app).sign_up("Bob", "the same password")
    hashes = [h for (h,) in rows(db_url, select(AccountRow.password_hash))]
    assert len(hashes) == 2
    assert all(h.startswith("$argon2id$v=19$m=19456,t=2,p=1$") for h in hashes)
    salts = {h.split("$")[4] for h in hashes}
    assert len(salts) == 2  # the same password, two salts, two hashes
    assert "the same password" not in str(rows(db_url, select(AccountRow)))
    tokens = [t for (t,) in rows(db_url, select(SessionRow.token_hash))]
    assert all(len(t) == 64 for t in tokens)  # only the sessions' SHA-256 is kept


@pytest.mark.parametrize(
    ("name", "password", "code"),
    [
        ("", PASSWORD, "malformed_request"),
        ("A\x07nn", PASSWORD, "bad_name"),
        ("Ann\u202e", PASSWORD, "bad_name"),
        ("Deleted Player", PASSWORD, "bad_name"),
        ("Bot 2", PASSWORD, "bad_name"),
        ("x" * 41, PASSWORD, "malformed_request"),
        ("Ann", "short", "bad_password"),
        ("Ann", "ann", "bad_password"),
        ("Ann", "x" * 257, "malformed_request"),
    ],
)
def test_a_bad_name_or_password_is_refused_with_the_reason(
    app: Any, name: str, password: str, code: str
) -> None:
    response = Browser(app).client.post("/api/account", json={"name": name, "password": password})
    assert response.status_code == 422
    assert response.json()["error"] == code


def test_a_name_is_unique_in_any_case(app: Any) -> None:
    Browser(app).sign_up("Ann")
    again = Browser(app).client.post("/api/account", json={"name": " ANN ", "password": PASSWORD})
    assert again.status_code == 409
    assert again.json()["error"] == "name_taken"


# ---------------------------------------------------------------------- logging in


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(app: Any) -> None:
    Browser(app).sign_up("Ann")
    wrong = Browser(app).log_in("Ann", "not the password")
    unknown = Browser(app).log_in("Nobody", "not the password")
    assert wrong.status_code == unknown.status_code == 401
    assert (
        wrong.json()
        == unknown.json()
        == {
            "error": "wrong_login",
            "reason": "Wrong name or password.",
        }
    )
    right = Browser(app).log_in("ann", PASSWORD)
    assert right.status_code == 200
    assert right.json()["account"]["name"] == "Ann"


def test_logins_are_limited_per_address_with_retry_after(db_url: str) -> None:
    settings = dataclasses.replace(OPEN, login_rate="3/minute")
    application = create_app(db_url, bot_delay=0, sweep_every=3600, settings=settings)
    with serve(application):
        browser = Browser(application)
        answers = [browser.log_in(f"Someone{i}", "a wrong password").status_code for i in range(3)]
        assert answers == [401, 401, 401]
        refused = browser.log_in("Someone", "a wrong password")
        assert refused.status_code == 429
        assert refused.json()["error"] == "too_many_requests"
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        signing_up = browser.client.post("/api/account", json={"name": "X", "password": PASSWORD})
        assert signing_up.status_code == 429  # sign-ups count with the logins


def test_failed_logins_are_limited_per_name_from_any_address(db_url: str) -> None:
    settings = dataclasses.replace(OPEN, login_name_rate="2/minute")
    application = create_app(db_url, bot_delay=0, sweep_every=3600, settings=settings)
    with serve(application):
        Browser(application).sign_up("Ann")
        assert Browser(application).log_in("Ann", "wrong one").status_code == 401
        assert Browser(application).log_in("ANN", "wrong two").status_code == 401
        refused = Browser(application).log_in("ann", PASSWORD)  # even the right one, now
        assert refused.status_code == 429
        assert int(refused.headers["Retry-After"]) >= 1
        assert Browser(application).log_in("Bob", "wrong").status_code == 401  # another name


# ---------------------------------------------------------------------- CSRF


def test_every_change_made_as_an_account_needs_the_csrf_token(app: Any) -> None:
    ann = Browser(app)
    ann.sign_up("Ann")
    table = ann.create(["human", *BOTS])
    private = ann.create(["human", "human", "medium", "medium"], private=True)
    ann.client.cookies.delete(f"potluck_host_{private}")  # the creator by account only
    no_token = {"X-CSRF-Token": ""}
    forged = "forged" + (ann.csrf or "")[6:]
    refused = [
        ann.client.post("/api/tables", json={"game": "cafe-carnage", "seats": ["human"] * 4}),
        ann.client.post(f"/api/tables/{table}/seats/0", json={}),
        ann.client.post(
            "/api/account/password", json={"current": PASSWORD, "new": "another password"}
        ),
        ann.client.post("/api/account/delete", json={"password": PASSWORD}),
        ann.client.delete("/api/account/sessions"),
        ann.client.delete("/api/session"),
        ann.client.post(f"/api/tables/{private}/seats/1/invite", headers=no_token),
        ann.client.post(f"/api/tables/{private}/close", headers=no_token),
        ann.client.post("/api/tables/x/seats/0", json={}, headers={"X-CSRF-Token": forged}),
    ]
    for response in refused:
        assert response.status_code == 403, response.text
        assert response.json()["error"] == "csrf_failed"
    assert ann.get("/api/session").json()["account"]["name"] == "Ann"  # still logged in
    assert ann.table(private)["table"]["status"] == "open"  # not closed
    assert ann.sit(table, 0).status_code == 200
    body = ann.table(table)
    move = {"action": body["legal"][0]["action"], "decision": body["decision"]}
    sent = ann.client.post(f"/api/tables/{table}/actions", json=move)
    assert sent.status_code == 403
    assert sent.json()["error"] == "csrf_failed"
    assert ann.table(table)["decision"] == body["decision"]  # nothing was played
    assert ann.post(f"/api/tables/{table}/actions", json=move).status_code == 200


# ---------------------------------------------------------------------- sessions


def test_an_accounts_seat_comes_back_on_any_device_after_login(app: Any) -> None:
    phone = Browser(app)
    phone.sign_up("Ann")
    table = phone.create(["human", *BOTS])
    joined = phone.sit(table, 0)
    assert joined.status_code == 200
    assert "potluck_seat_" not in str(joined.headers.get_list("set-cookie"))
    assert phone.table(table)["seat"] == 0
    laptop = Browser(app)
    assert laptop.table(table)["seat"] is None  # a spectator until logged in
    assert laptop.log_in("Ann").status_code == 200
    assert laptop.table(table)["seat"] == 0
    mine = laptop.get("/api/account/tables").json()["tables"]
    assert [(t["id"], t["seat"], t["host"]) for t in mine] == [(table, 0, True)]
    assert laptop.move_once(table)
    seats = laptop.table(table)["table"]["seats"]
    assert seats[0]["name"] == "Ann"
    assert seats[0]["account"] is True


def test_logging_out_ends_this_session_and_everywhere_ends_them_all(app: Any) -> None:
    one, two, three = Browser(app), Browser(app), Browser(app)
    one.sign_up("Ann")
    two.log_in("Ann")
    three.log_in("Ann")
    assert one.delete("/api/session").json() == {"account": None, "csrf": None}
    assert one.get("/api/session").json()["account"] is None
    assert two.get("/api/session").json()["account"]["name"] == "Ann"
    assert two.delete("/api/account/sessions").json() == {"ended": 2}
    assert two.get("/api/session").json()["account"] is None
    assert three.get("/api/session").json()["account"] is None
    assert three.get("/api/account/tables").status_code == 401


def test_changing_the_password_ends_the_other_sessions(app: Any) -> None:
    one, two = Browser(app), Browser(app)
    one.sign_up("Ann")
    two.log_in("Ann")
    wrong = one.post("/api/account/password", json={"current": "nope", "new": "a new password"})
    assert wrong.status_code == 401
    assert wrong.json()["error"] == "wrong_password"
    changed = one.post("/api/account/password", json={"current": PASSWORD, "new": "a new one!"})
    assert changed.status_code == 200, changed.text
    assert one.get("/api/session").json()["account"]["name"] == "Ann"
    assert two.get("/api/session").json()["account"] is None
    assert Browser(app).log_in("Ann").status_code == 401
    assert Browser(app).log_in("Ann", "a new one!").status_code == 200


# ---------------------------------------------------------------------- seats


def test_a_guest_cannot_sit_down_under_an_accounts_name(app: Any) -> None:
    Browser(app).sign_up("Ann")
    guest = Browser(app)
    table = guest.create(["human", *BOTS])
    taken = guest.sit(table, 0, "ann")
    assert taken.status_code == 409
    assert taken.json()["error"] == "name_taken"
    assert guest.sit(table, 0, "deleted player").status_code == 422
    assert guest.sit(table, 0, "Annie").status_code == 200  # guests play as before


def test_one_account_sits_at_one_seat_of_a_table(app: Any) -> None:
    ann = Browser(app)
    ann.sign_up("Ann")
    table = ann.create(["human", "human", "medium", "medium"])
    assert ann.sit(table, 0).status_code == 200
    again = ann.sit(table, 1)
    assert again.status_code == 409
    assert again.json()["error"] == "already_seated"


def test_a_seat_kept_for_an_account_is_taken_only_by_it(app: Any) -> None:
    Browser(app).sign_up("Bob")
    host = Browser(app)
    host.sign_up("Ann")
    table = host.create(["human", "human", "medium", "medium"], private=True)
    invited = host.post(f"/api/tables/{table}/seats/1/invite", json={"account": "bob"})
    assert invited.status_code == 200, invited.text
    assert invited.json() == {"seat": 1, "join": None, "invited": "Bob"}
    seat = host.table(table)["table"]["seats"][1]
    assert (seat["free"], seat["kept_for"], seat["name"]) == (True, "Bob", None)
    stranger = Browser(app)
    stranger.sign_up("Cy")
    assert stranger.sit(table, 1).json()["error"] == "seat_kept"
    assert Browser(app).sit(table, 1, "Guest").json()["error"] == "seat_kept"
    bob = Browser(app)
    bob.log_in("Bob")
    listed = bob.get("/api/account/tables").json()["tables"]
    assert [(t["id"], t["invited"], t["seat"]) for t in listed] == [(table, 1, None)]
    assert bob.sit(table, 1).status_code == 200  # no invite link needed
    assert bob.table(table)["seat"] == 1
    missing = host.post(f"/api/tables/{table}/seats/0/invite", json={"account": "Nobody"})
    assert missing.status_code == 404


def test_the_creators_powers_follow_the_account(app: Any) -> None:
    phone = Browser(app)
    phone.sign_up("Ann")
    table = phone.create(["human", "human", "medium", "medium"], private=True)
    laptop = Browser(app)
    laptop.log_in("Ann")
    assert laptop.table(table)["host"] is True
    link = laptop.post(f"/api/tables/{table}/seats/1/invite")
    assert link.status_code == 200
    assert "/invite/1/" in link.json()["join"]
    other = Browser(app)
    other.sign_up("Bob")
    assert other.table(table)["host"] is False
    assert other.post(f"/api/tables/{table}/seats/1/invite").status_code == 403


def test_one_account_cannot_see_anothers_seat_or_private_tables(app: Any) -> None:
    ann, bob = Browser(app), Browser(app)
    ann.sign_up("Ann")
    bob.sign_up("Bob")
    table = ann.create(["human", *BOTS], private=True)
    invite = ann.post(f"/api/tables/{table}/seats/0/invite").json()["join"].split("/")[-1]
    assert ann.post(f"/api/tables/{table}/seats/0", json={"invite": invite}).status_code == 200
    seen = bob.table(table)
    assert seen["seat"] is None
    assert seen["view"] is not None
    assert "hand" not in str(seen["view"]).lower() or seen["view"] != ann.table(table)["view"]
    assert seen["legal"] == []
    assert seen["decision"] is None
    body = ann.table(table)
    move = {"action": body["legal"][0]["action"], "decision": body["decision"]}
    assert bob.post(f"/api/tables/{table}/actions", json=move).status_code == 401
    assert bob.get("/api/account/tables").json()["tables"] == []
    play_to_the_end(table, ann)
    assert [g["table"] for g in ann.get("/api/players/Ann/games").json()["games"]] == [table]
    assert bob.get("/api/players/Ann/games").json() == {
        "games": [],
        "total": 0,
        "offset": 0,
        "limit": 20,
    }
    assert Browser(app).get("/api/players/Ann/games").json()["total"] == 0


def test_a_rated_table_seats_accounts_only(app: Any) -> None:
    ann = Browser(app)
    ann.sign_up("Ann")
    table = ann.create(["human", "human", "medium", "easy"], rated=True)
    assert ann.table(table)["table"]["rated"] is True
    assert ann.table(table)["table"]["turn_seconds"] == OPEN.rated_turn_seconds
    guest = Browser(app).sit(table, 1, "Guest")
    assert guest.status_code == 403
    assert guest.json()["error"] == "account_needed"
    for seats, code in (
        (["human", "greedy", "medium", "medium"], "bad_seats"),  # not a difficulty
        (["human", "hard", "medium", "medium"], "bad_seats"),  # the tests' hard is not measured
    ):
        response = ann.post(
            "/api/tables", json={"game": "cafe-carnage", "seats": seats, "rated": True}
        )
        assert response.status_code == 422
        assert response.json()["error"] == code
    seeded = ann.post(
        "/api/tables",
        json={"game": "cafe-carnage", "seats": ["human", *BOTS], "rated": True, "seed": 3},
    )
    assert seeded.json()["error"] == "bad_seed"
    # a player count the game is not played with: 422, as at an unrated table
    for seats in (["human"], ["human", "medium"]):
        response = ann.post(
            "/api/tables", json={"game": "cafe-carnage", "seats": seats, "rated": True}
        )
        assert response.status_code == 422
        assert response.json()["error"] == "bad_options"


# ---------------------------------------------------------------------- deleting


def test_deleting_an_account_leaves_its_games_under_deleted_player(app: Any, db_url: str) -> None:
    ann, bob = Browser(app), Browser(app)
    ann.sign_up("Ann")
    bob.sign_up("Bob")
    finished = ann.create(["human", "human", "medium", "medium"])
    ann.sit(finished, 0)
    bob.sit(finished, 1)
    play_to_the_end(finished, ann, bob)
    running = bob.create(["human", "human", "medium", "medium"])
    bob.sit(running, 0)
    ann.sit(running, 1)
    assert bob.get("/api/players/Bob/opponents").json()["opponents"][0]["name"] == "Ann"
    wrong = ann.post("/api/account/delete", json={"password": "not it"})
    assert wrong.status_code == 401
    deleted = ann.post("/api/account/delete", json={"password": PASSWORD})
    assert deleted.status_code == 200, deleted.text
    assert ann.get("/api/session").json()["account"] is None
    assert Browser(app).get("/api/players/Ann").status_code == 404
    record = bob.get(f"/api/tables/{finished}/record").json()
    assert record["players"][0] == "deleted player"
    assert "Ann" not in str(bob.get("/api/tables").json())
    assert "Ann" not in str(bob.table(running))
    seat = bob.table(running)["table"]["seats"][1]
    assert seat["played_by_bot"]
    assert seat["taken_over"] == "left"
    games = bob.get("/api/players/Bob/games").json()["games"]
    assert games[0]["seats"][0]["name"] == "deleted player"
    assert bob.get("/api/players/Bob/opponents").json()["opponents"] == []
    assert rows(db_url, select(AccountRow.name)) == [("Bob",)]
    assert Browser(app).log_in("Ann").status_code == 401
    Browser(app).sign_up("Ann")  # the name is free again


def test_a_sealed_choice_reaches_no_other_account(app: Any) -> None:
    """Ann's sealed order reaches neither Cal (seated: he gets his own seat's payload,
    the same as by his seat token) nor Bob (logged in, not seated: a spectator's, the same
    as a guest's), by any road: the table, its record or replay, Ann's profile."""
    ann, cal, bob, guest = Browser(app), Browser(app), Browser(app), Browser(app)
    for browser, name in ((ann, "Ann"), (cal, "Cal"), (bob, "Bob")):
        browser.sign_up(name)
    table = ann.create(["human", "human", "medium", "medium"])
    assert ann.sit(table, 0).status_code == 200
    cal_token = cal.sit(table, 1).json()["token"]
    body = ann.table(table)
    assert len(body["legal"]) > 1  # Café Carnage opens with a sealed order from a menu
    assert 1 in body["to_act"]  # Cal orders too: Ann's order stays sealed meanwhile
    choice = body["legal"][0]
    played = ann.post(
        f"/api/tables/{table}/actions",
        json={"action": choice["action"], "decision": body["decision"]},
    )
    assert played.status_code == 200, played.text
    assert {"seat": 0, "text": choice["label"]} in ann.table(table)["moves"]
    as_cal = cal.table(table)
    by_token = cal.client.get(
        f"/api/tables/{table}", headers={"Authorization": f"Bearer {cal_token}"}
    ).json()
    assert as_cal["seat"] == by_token["seat"] == 1
    assert as_cal["view"] == by_token["view"]
    assert as_cal["legal"] == by_token["legal"]
    as_bob, as_guest = bob.table(table), guest.table(table)
    assert as_bob["seat"] is None
    assert as_bob["legal"] == []
    assert (as_bob["view"], as_bob["moves"]) == (as_guest["view"], as_guest["moves"])
    for seen in (as_cal, as_bob):
        assert [m for m in seen["moves"] if m["seat"] == 0] == [{"seat": 0, "text": None}]
    for browser in (cal, bob):  # no record, replay or profile entry before the end
        assert browser.get(f"/api/tables/{table}/record").status_code == 409
        assert browser.get(f"/api/tables/{table}/replay?seat=0").status_code == 409
        assert table not in browser.get("/api/players/Ann/games").text
