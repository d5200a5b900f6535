"""Accounts in Chromium (issue 35): sign up, a rated game against bots moves the rating on
the profile, log out, log in on a second browser and resume a table; two accounts play,
play again, and the head-to-head counts both games; a deleted account's name leaves the
lobby, the profiles and the records.

One live server for the module (bots move at once); the bots' reference ratings are the
tests' (``fake_references``), since the measured ones change with the bots. Café
Carnage: about twenty clicks a player a game. Screenshots in
``test-output/browser/accounts/``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from accounts_helpers import PASSWORD, fake_references
from test_browser import SHOTS, new_page, play_until_over
from webtest import LiveServer

sync_api = pytest.importorskip("playwright.sync_api")

HERE = SHOTS / "accounts"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    from potluck.server import ratings

    HERE.mkdir(parents=True, exist_ok=True)
    saved = ratings.references
    ratings.references = fake_references  # type: ignore[assignment]
    folder = tmp_path_factory.mktemp("accounts")
    server = LiveServer(f"sqlite:///{folder / 'server.sqlite3'}")
    yield server
    server.stop()
    ratings.references = saved


def sign_up(page: Any, live: LiveServer, name: str) -> None:
    page.goto(live.url + "/account")
    form = page.locator("#signup-form")
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("input[name=again]").fill(PASSWORD)
    form.locator("button").click()
    page.wait_for_url(live.url + "/")
    page.wait_for_selector(f"#account-link:has-text('{name}')")


def play_now(page: Any, live: LiveServer, *, rated: bool) -> str:
    """Play now: Café Carnage, four players, medium bots; the new table's id."""
    page.goto(live.url + "/")
    page.wait_for_selector("#play-rated-label:not(.hidden)")  # logged in: no name to type
    page.select_option("select[name=play_game]", "cafe-carnage")
    page.select_option("select[name=play_players]", "4")
    if rated:
        page.check("input[name=rated]")
    page.click("#play-medium")
    page.wait_for_url(re.compile(r".*/tables/[^/]+$"))
    page.wait_for_selector("#you button[data-action]")
    return str(page.url.rsplit("/", 1)[1])


def state(page: Any, table: str) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(
        f"async () => (await (await fetch('/api/tables/{table}')).json())"
    )
    return found


def test_a_rated_game_moves_the_rating_and_the_seat_follows_the_account(
    browser: Any, live: LiveServer
) -> None:
    phone = new_page(browser, {"width": 390, "height": 844})
    sign_up(phone, live, "Ann")
    waiting = play_now(phone, live, rated=False)  # a table left unfinished, for later
    phone.locator("#you button[data-action]:not([aria-disabled=true])").first.click()
    rated = play_now(phone, live, rated=True)
    assert "rated" in phone.locator("#where").inner_text()
    assert state(phone, rated)["table"]["seats"][1]["bot"] == "medium"
    play_until_over([phone])
    change = phone.locator("#rating-changes li.rating-change").first
    change.wait_for(timeout=30000)
    text = change.inner_text()
    assert text.startswith("Ann: 25.0 → ")
    phone.screenshot(path=HERE / "rated-game-over.png", full_page=True)
    # the profile: the rating, its history drawn, the game with its replay
    phone.click("#rating-changes a:has-text('Ann')")
    phone.wait_for_selector(".rating-card[data-pool=cafe-carnage] svg.rating-chart")
    card = phone.locator(".rating-card[data-pool=cafe-carnage]")
    after = change_after(text)
    assert card.locator(".rating-value").inner_text() == f"{after:.1f}"
    assert card.locator("svg circle").count() == 2  # the start and one game
    row = phone.locator(f"#games tr[data-table='{rated}']")
    assert "1 of 4" in row.inner_text() or " of 4" in row.inner_text()
    assert row.locator(f"a[href='/tables/{rated}/replay']").count() == 1
    phone.screenshot(path=HERE / "profile.png", full_page=True)
    # log out: the lobby is a guest's again
    phone.goto(live.url + "/account")
    phone.click("#log-out")
    phone.wait_for_url(live.url + "/")
    phone.wait_for_selector("#account-link:has-text('Log in')")
    assert state(phone, waiting)["seat"] is None
    # a second browser: log in, and the unfinished table is there to resume
    laptop = new_page(browser)
    laptop.goto(live.url + "/account")
    login = laptop.locator("#login-form")
    login.locator("input[name=name]").fill("ann")
    login.locator("input[name=password]").fill(PASSWORD)
    login.locator("button").click()
    laptop.wait_for_url(live.url + "/")
    laptop.locator(f"#tables-mine li[data-table='{waiting}'] a:has-text('Resume')").click()
    laptop.wait_for_url(live.url + f"/tables/{waiting}")
    laptop.wait_for_selector("#you button[data-action]")
    before = state(laptop, waiting)["decision"]
    assert state(laptop, waiting)["seat"] == 0
    laptop.locator("#you button[data-action]:not([aria-disabled=true])").first.click()
    laptop.wait_for_function(
        f"async () => (await (await fetch('/api/tables/{waiting}')).json()).decision > {before}"
    )
    laptop.screenshot(path=HERE / "resumed-on-a-second-browser.png")
    assert phone.errors == []
    assert laptop.errors == []


def change_after(text: str) -> float:
    return float(text.split("→")[1].split()[0])


def test_two_accounts_play_again_and_the_head_to_head_counts_both_games(
    browser: Any, live: LiveServer
) -> None:
    bea, cal = new_page(browser), new_page(browser)
    sign_up(bea, live, "Bea")
    sign_up(cal, live, "Cal")
    # Bea makes a table for the two of them and two medium bots, and sits down
    bea.select_option("select[name=game]", "cafe-carnage")
    bea.select_option("select[name=num_players]", "4")
    bea.select_option("select[name=seat1]", "human")
    bea.click("#create")
    links = bea.locator("#invites .link-box")
    seat_two = links.nth(1).inner_text()
    bea.locator("#invites a.button").first.click()
    bea.wait_for_selector("#as-account")  # the join page: her account's name, no typing
    bea.click("#join")
    cal.goto(seat_two)
    cal.wait_for_selector("#as-account")
    cal.click("#join")
    for page in (bea, cal):
        page.wait_for_selector("#you button[data-action]")
    first = bea.url.rsplit("/", 1)[1]
    play_until_over([bea, cal])
    # Play again: Bea proposes, Cal sees the offer and accepts; seats move on by one
    bea.click("#play-again")
    bea.wait_for_url(lambda url: re.search(r"/tables/[^/]+$", url) and not url.endswith(first))
    second = bea.url.rsplit("/", 1)[1]
    assert second != first
    cal.wait_for_selector("#rematch li:has-text('Bea plays again')")
    cal.screenshot(path=HERE / "play-again-offer.png", full_page=True)
    cal.click("#play-again")
    cal.wait_for_url(live.url + f"/tables/{second}")
    for page in (bea, cal):
        page.wait_for_selector("#you button[data-action]")
    assert state(bea, second)["seat"] == 1
    assert state(cal, second)["seat"] == 2
    play_until_over([bea, cal])
    bea.goto(live.url + "/players/Bea")
    row = bea.locator("#opponents tr[data-player='Cal']")
    cells = row.inner_text().split("\t")
    assert cells[:2] == ["Cal", "2"], cells
    # the games and the head-to-head come by two requests: wait for the games' rows too
    bea.locator(f"#games tr[data-table='{first}']").wait_for()
    assert bea.locator("#games tr").count() == 2
    bea.screenshot(path=HERE / "head-to-head.png", full_page=True)
    assert bea.errors == []
    assert cal.errors == []


def test_a_deleted_accounts_name_leaves_the_lobby_the_profiles_and_the_records(
    browser: Any, live: LiveServer
) -> None:
    dex = new_page(browser)
    sign_up(dex, live, "Dex")
    finished = play_now(dex, live, rated=False)
    play_until_over([dex])
    # and an open public table, listed in the lobby with his name
    dex.goto(live.url + "/")
    dex.select_option("select[name=game]", "cafe-carnage")
    dex.select_option("select[name=num_players]", "4")
    dex.select_option("select[name=seat1]", "human")
    dex.click("#create")
    dex.locator("#invites a.button").first.click()
    dex.click("#join")
    dex.wait_for_url(re.compile(r".*/tables/[^/]+$"))
    waiting = dex.url.rsplit("/", 1)[1]
    guest = new_page(browser)
    guest.goto(live.url + "/")
    guest.wait_for_selector("#tables-open li:has-text('Dex')")
    # delete the account
    dex.goto(live.url + "/account")
    form = dex.locator("#delete-form")
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("input[name=sure]").check()
    form.locator("button").click()
    dex.wait_for_url(re.compile(r".*/\?deleted=1$"))
    dex.wait_for_selector("#account-link:has-text('Log in')")
    guest.reload()
    guest.wait_for_selector("#tables-open li")
    assert "Dex" not in guest.locator("main").inner_text()
    guest.goto(live.url + "/players/Dex")
    guest.wait_for_selector("#player-name:has-text('No such player')")
    record = httpx.get(f"{live.url}/api/tables/{finished}/record").json()
    assert record["players"][0] == "deleted player"
    assert "Dex" not in str(httpx.get(f"{live.url}/api/tables/{waiting}").json())
    guest.goto(live.url + f"/tables/{finished}/replay")
    guest.wait_for_selector("#screen :text('deleted player')")
    assert "Dex" not in guest.locator("main").inner_text()
    assert dex.errors == []
    assert guest.errors == []


def test_the_creator_keeps_a_seat_for_an_account_by_name(browser: Any, live: LiveServer) -> None:
    eve, fay = new_page(browser), new_page(browser)
    sign_up(eve, live, "Eve")
    sign_up(fay, live, "Fay")
    eve.select_option("select[name=game]", "cafe-carnage")
    eve.select_option("select[name=num_players]", "4")
    eve.select_option("select[name=seat1]", "human")
    eve.click("#create")
    eve.locator("#invites a.button").first.click()
    eve.wait_for_selector("#as-account")
    eve.click("#join")
    eve.wait_for_url(re.compile(r".*/tables/[^/]+$"))
    table = eve.url.rsplit("/", 1)[1]
    # the creator's panel: seat 2 kept for Fay, typed in any case
    eve.fill("#host li[data-seat='1'] input[name=invite_account_1]", "fay")
    eve.click("#host li[data-seat='1'] .invite-by-name button")
    eve.wait_for_selector(".badge:has-text('kept for Fay')")
    eve.screenshot(path=HERE / "seat-kept-by-name.png", full_page=True)
    # Fay finds it in her Your tables and takes it
    fay.goto(live.url + "/")
    fay.locator(f"#tables-mine li[data-table='{table}'] button.take-kept").click()
    fay.wait_for_url(live.url + f"/tables/{table}")
    fay.wait_for_selector("#you")
    assert state(fay, table)["seat"] == 1
    assert state(eve, table)["table"]["seats"][1]["name"] == "Fay"
    assert eve.errors == []
    assert fay.errors == []
