"""Browser: the lobby's bot difficulties; a table with a hard (search) bot plays to the end."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from webtest import LiveServer

sync_api = pytest.importorskip("playwright.sync_api")

from test_browser import SHOTS, new_page, play_until_over  # noqa: E402


def test_a_player_chooses_a_hard_bot_in_the_lobby_and_plays_it_to_the_end(
    browser: Any, server: LiveServer
) -> None:
    ann = new_page(browser)
    ann.goto(server.url + "/")
    ann.wait_for_selector("select[name=game] option", state="attached")
    ann.select_option("select[name=game]", "cafe-carnage")
    ann.select_option("select[name=num_players]", "4")
    labels = ann.locator("select[name=seat1] option").all_inner_texts()
    assert any(label.startswith("Hard bot") for label in labels)
    # each difficulty once: no "greedy bot" beside "medium bot (greedy)"
    assert len(labels) == 4, labels
    assert ann.locator("select[name=seat1]").input_value() == "medium"
    ann.select_option("select[name=seat1]", "hard")
    ann.select_option("select[name=seat2]", "medium")
    ann.select_option("select[name=seat3]", "easy")
    ann.click("#create")
    ann.locator("#invites a").first.click()
    ann.fill("input[name=name]", "Ann")
    ann.click("#join")
    # The test server moves bots inline (bot_delay 0; a served lobby moves them in the
    # background after 0.6 s), so the page answers after the bots' moves up to Ann's
    # turn: about 2.5 s with the hard bot on a quiet machine, over 15 s at load 9.
    ann.wait_for_selector("#diners", timeout=90_000)
    clicks = play_until_over([ann])
    ann.screenshot(path=SHOTS / "cafe-carnage-hard-bot.png", full_page=True)
    # The hard bot is cut by the wall clock, so how many moves the game asks of Ann
    # varies with the machine's load: the record says how many she made.
    table_id = re.search(r"/tables/([^/?#]+)", ann.url)
    assert table_id, ann.url
    record = httpx.get(f"{server.url}/api/tables/{table_id[1]}/record").json()
    movers = [seat for seat, _ in record["actions"]]
    # No turn timer: every move of hers was a click of hers (a click that timed out on a
    # loaded machine may still have landed, so the clicks counted can be fewer).
    assert 0 < clicks <= movers.count(0)
    assert movers.count(1) > 0  # and the hard bot played its seat to the end
    assert "outcome" in record
    assert ann.errors == []


def test_the_replay_page_analyses_a_seats_moves(browser: Any, server: LiveServer) -> None:

    created = httpx.post(
        server.url + "/api/tables",
        # a chosen deal (all bots may have one): not every deal gives seat 1 a forced move
        json={
            "game": "cafe-carnage",
            "num_players": 4,
            "seats": ["greedy", "random"] * 2,
            "seed": 1,
        },
        headers={"Origin": server.url},
    )
    assert created.status_code == 201, created.text
    page = new_page(browser)
    page.goto(f"{server.url}/tables/{created.json()['id']}/replay")
    page.wait_for_selector("#as option[value='1']", state="attached")
    assert page.locator("#analyse").is_disabled()  # a spectator has no moves to judge
    page.select_option("#as", "1")
    page.click("#analyse")
    page.wait_for_selector("table.analysis", timeout=90_000)  # a worker process starts
    assert page.locator("table.analysis tr").count() == 21  # a heading and 20 moves
    summary = page.locator("#analysis p").first.inner_text()
    assert "share of playouts this seat won" in summary
    assert "of CPU in all" in summary
    # the seat's mean loss (uncut, over its moves with a choice) and points lost
    seat_summary = page.locator("#analysis p.analysis-summary").inner_text()
    assert "Mean loss over" in seat_summary
    assert "points" in seat_summary
    # a seat's last ballot card is its only move: shown as forced, with its time
    assert page.locator("table.analysis td", has_text="(forced: the only move)").count() >= 1
    assert page.locator("table.analysis th", has_text="Time").count() == 1
    assert page.locator("table.analysis th", has_text="Points lost").count() == 1
    fourth = page.locator("table.analysis button").nth(3)
    number = int(fourth.inner_text())
    fourth.click()  # shows the game just before that move
    page.wait_for_function(
        # a function, not an expression: the pages' policy forbids eval, which Playwright
        # would use for an expression
        f"() => document.getElementById('counter').textContent.includes('step {number - 1} of 80')"
    )
    page.screenshot(path=SHOTS / "replay-analysis.png", full_page=True)
    assert page.errors == []


def test_play_from_here_starts_a_table_at_the_replayed_position(
    browser: Any, server: LiveServer
) -> None:

    created = httpx.post(
        server.url + "/api/tables",
        # a chosen deal (all bots may have one): not every deal gives seat 1 a forced move
        json={
            "game": "cafe-carnage",
            "num_players": 4,
            "seats": ["greedy", "random"] * 2,
            "seed": 1,
        },
        headers={"Origin": server.url},
    )
    page = new_page(browser)
    page.goto(f"{server.url}/tables/{created.json()['id']}/replay")
    page.wait_for_selector("#as option[value='2']", state="attached")
    page.select_option("#as", "2")
    for _ in range(8):
        page.click("#next")
    page.wait_for_function(
        "() => document.getElementById('counter').textContent.includes('step 8')"
    )
    page.click("#play-here")
    page.wait_for_url("**/join/2")
    page.fill("input[name=name]", "Ann")
    page.click("#join")
    page.wait_for_selector("#diners")
    assert play_until_over([page]) >= 1
    assert page.errors == []
