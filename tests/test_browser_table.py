"""The player's table, second pass (issue 34), in Chromium at 1280x800 and 390x844: the
turn timer ticks every second and warns before a bot takes over; Play now seats you in one
click; Your tables lists private and unseated tables and closes one; a move that is not
possible says why on a tap and on Enter; focus stays on the acting area after a move;
Belly Battle's labels are unique and its legend complete; one h1 a page; the page's names
match the terminal's (``tests/data/naming.json``).

One server for the module (each test makes its own tables); screenshots in
``test-output/browser/table/``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from test_browser import SHOTS, new_page
from webtest import LiveServer

sync_api = pytest.importorskip("playwright.sync_api")

HERE = SHOTS / "table"
WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = [pytest.param(WIDE, id="1280x800"), pytest.param(PHONE, id="390x844")]
LIVE = ":not([disabled]):not([aria-disabled=true])"
CASES = json.loads((Path(__file__).parent / "data" / "naming.json").read_text("utf-8"))["cases"]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    HERE.mkdir(parents=True, exist_ok=True)
    folder = tmp_path_factory.mktemp("table")
    server = LiveServer(f"sqlite:///{folder / 'server.sqlite3'}")
    yield server
    server.stop()


def table(live: LiveServer, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    body = {"game": game, "num_players": len(seats), "seats": seats, **extra}
    response = httpx.post(live.url + "/api/tables", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def sit(page: Any, live: LiveServer, created: dict[str, Any], name: str = "Ann") -> None:
    page.goto(live.url + created["join"][0]["join"])
    page.fill("input[name=name]", name)
    if created.get("practice"):  # a chosen deal: the player agrees to it
        page.check("input[name=practice]")
    page.click("#join")
    page.wait_for_selector("#turn-status, #outcome")


@pytest.mark.parametrize("size", SIZES)
def test_the_turn_timer_counts_down_every_second_and_warns_before_a_bot_takes_over(
    browser: Any, live: LiveServer, size: dict[str, int]
) -> None:
    # Café Carnage orders are sealed: the human is to act at once, and the bots answer
    created = table(live, "cafe-carnage", ["human", "greedy", "greedy", "greedy"], turn_seconds=13)
    page = new_page(browser, size)
    sit(page, live, created)
    countdown = page.locator("#turn-status .countdown .left")
    seen = []
    for _ in range(7):  # three seconds, read twice a second
        seen.append(int(countdown.inner_text().split(":")[1]))
        page.wait_for_timeout(500)
    assert 10 <= seen[0] <= 13, seen
    assert seen == sorted(seen, reverse=True), seen  # it never goes back up
    assert seen[0] - seen[-1] >= 2, seen  # it ticks each second, not only on a redraw
    assert "then a bot plays for you" in page.locator("#turn-status").inner_text()
    # ten seconds before the end: the countdown turns red and a screen reader hears it
    page.wait_for_selector("#turn-status .countdown.warn", timeout=5000)
    assert "seconds left to move" in page.locator("#alert").inner_text()
    page.screenshot(path=HERE / f"timer-warning-{size['width']}.png")
    # then a bot plays the seat (and, the test's bots playing at once, the game to its end)
    page.wait_for_selector("#seats .badge.away:has-text('out of time')", timeout=20000)
    assert "a greedy bot plays" in page.locator("#seats").inner_text()
    assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_play_now_seats_you_in_one_click(
    browser: Any, live: LiveServer, size: dict[str, int]
) -> None:
    page = new_page(browser, size)
    page.goto(live.url + "/")
    page.wait_for_selector("select[name=play_game] option", state="attached")
    page.select_option("select[name=play_game]", "burger-joint")
    page.fill("input[name=player_name]", "Ann")
    page.click("#play-easy")  # the one click
    page.wait_for_url(re.compile(r".*/tables/[^/]+$"))
    page.wait_for_selector("#board-0")
    # focus starts at the turn line (not the page's top): Tab goes on to the moves
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.id === 'turn-status'"
    )
    state = page.evaluate(
        "async () => (await (await fetch(location.pathname.replace('/tables/', '/api/tables/')))"
        ".json())"
    )
    assert state["seat"] == 0
    assert state["table"]["status"] == "running"
    assert state["table"]["seats"][0]["name"] == "Ann"
    assert state["table"]["seats"][1]["bot"] == "easy"
    assert state["table"]["turn_seconds"] is None  # no timer against bots
    page.screenshot(path=HERE / f"play-now-{size['width']}.png", full_page=True)
    # the lobby lists it among your tables, with Resume
    page.goto(live.url + "/")
    page.wait_for_selector(
        f"#tables-mine li[data-table='{state['table']['id']}'] a:has-text('Resume')"
    )
    assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_your_tables_lists_private_and_unseated_tables(
    browser: Any, live: LiveServer, size: dict[str, int]
) -> None:
    page = new_page(browser, size)
    page.goto(live.url + "/")
    page.wait_for_selector("#create-form select[name=game] option", state="attached")
    page.select_option("#create-form select[name=game]", "cafe-carnage")
    page.select_option("#create-form select[name=seat1]", "human")
    page.check("#create-form input[name=private]")
    page.click("#create")
    page.wait_for_selector("#invites")
    private = page.locator("#tables-mine li").filter(has_text="private").first
    private.wait_for()
    assert "waiting for players" in private.inner_text()
    assert "take seat" not in private.inner_text()  # a private seat is only by its invite
    page.uncheck("#create-form input[name=private]")
    page.select_option("#create-form select[name=game]", "belle-of-the-ball")
    page.click("#create")  # a public table nobody sat at
    page.wait_for_selector("#tables-mine li:has-text('Belle of the Ball')")
    assert page.locator("#tables-mine li").count() >= 2
    page.screenshot(path=HERE / f"your-tables-{size['width']}.png", full_page=True)
    # its creator closes one: it ends for everyone, and its replay stays
    page.on("dialog", lambda dialog: dialog.accept())
    belle = page.locator("#tables-mine li").filter(has_text="Belle of the Ball").first
    table_id = belle.get_attribute("data-table")
    belle.locator("button:has-text('Close')").click()
    page.wait_for_selector(f"#tables-mine li[data-table='{table_id}']:has-text('closed')")
    assert page.locator(f"#tables-mine li[data-table='{table_id}'] a:has-text('replay')").count()
    assert httpx.get(f"{live.url}/api/tables/{table_id}").json()["table"]["status"] == "closed"
    assert page.errors == []


def test_the_cap_on_open_tables_links_to_your_tables(browser: Any, tmp_path: Path) -> None:
    import dataclasses

    from webtest import OPEN

    capped = LiveServer(
        f"sqlite:///{tmp_path / 'capped.sqlite3'}",
        settings=dataclasses.replace(OPEN, max_tables_per_client=1),
    )
    try:
        page = new_page(browser, WIDE)
        page.goto(capped.url + "/")
        page.wait_for_selector("#create-form select[name=game] option", state="attached")
        page.click("#create")
        page.wait_for_selector("#invites")
        page.click("#create")  # one more than this client may have open
        page.wait_for_selector("#notice.error a[href='#your-tables']")
        assert "open tables" in page.locator("#notice").inner_text()
    finally:
        capped.stop()


@pytest.mark.parametrize("size", SIZES)
def test_a_move_that_is_not_possible_says_why_on_a_tap_and_on_enter(
    browser: Any, live: LiveServer, size: dict[str, int]
) -> None:
    created = table(live, "cafe-carnage", ["human", "greedy", "greedy", "greedy"])
    context = browser.new_context(viewport=size, has_touch=True, is_mobile=size is PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sit(page, live, created)
    run = page.locator("#hand button[data-action=run]")
    run.wait_for()
    assert run.get_attribute("aria-disabled") == "true"
    run.tap(force=True)  # Playwright's own checks refuse an aria-disabled button
    note = page.locator("#why-note.shown")
    note.wait_for()
    assert "choose a starter" in note.inner_text()
    assert note.get_attribute("role") == "status"  # said by a screen reader too
    page.screenshot(path=HERE / f"why-tap-{size['width']}.png")
    page.keyboard.press("Escape")
    page.locator("#why-note.shown").wait_for(state="detached")
    run.focus()
    page.keyboard.press("Enter")
    page.locator("#why-note.shown").wait_for()
    assert errors == []
    context.close()


#: The engine's reasons in notation, as a page says them.
REASONS = {
    "You landed on a restaurant for sale: 'buy' it or 'pass' (and pay its basic fee).": (
        "You landed on a restaurant for sale: buy it or pass (and pay its basic fee)."
    ),
    "It is the production phase: take a cube ('take <colour>').": (
        "It is the production phase: take a cube."
    ),
    "Yuck! Choose the player you pay 50 to: 'yuck <seat>'.": (
        "Yuck! Choose the player you pay 50 to."
    ),
    "Discard excess cubes: you hold more than 8; 'discard <colour>'.": (
        "Discard excess cubes: you hold more than 8."
    ),
    "BellyGuard Insurance: 'insure <restaurant>' or 'pass'.": (
        "BellyGuard Insurance: insure or pass."
    ),
    "Step 2, Group: start a new group as group 1, the first free one.": (
        "Start a new group as group 1, the first free one."
    ),
    "Your offer is to Ann: finish it ('done') or 'pass'.": (
        "Your offer is to Ann: finish it or pass."
    ),
}


def test_a_reason_names_moves_in_words_not_notation(browser: Any, live: LiveServer) -> None:
    page = new_page(browser, PHONE)
    page.goto(live.url + "/")
    page.wait_for_selector("#rules-links li")
    said = page.evaluate("(texts) => texts.map((t) => Potluck.plainReason(t))", list(REASONS))
    assert said == list(REASONS.values())
    # at a table: Burger Joint's production phase, a disabled move tapped
    created = table(live, "burger-joint", ["human", "greedy"])
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    phone = context.new_page()
    sit(phone, live, created)
    phone.locator("#screen [aria-disabled=true]").first.tap(force=True)
    note = phone.locator("#why-note.shown")
    note.wait_for()
    assert note.inner_text()
    assert not re.search(r"'[a-z]+'|<[a-z]+>", note.inner_text()), note.inner_text()
    context.close()
    assert page.errors == []


def test_belle_explains_a_belle_that_needs_a_target(browser: Any, live: LiveServer) -> None:
    """Every Belle's button names an action the table takes, a Belle with a target one of
    her plays (never "belle NAME" alone, which is no action): the server explains each."""
    from potluck.engine.registry import load_game

    belle = load_game("belle-of-the-ball")
    targeted = {"pickpocket", "scandal", "move_guest"}
    seed = next(
        s
        for s in range(200)
        if {b["effect"] for b in belle.view(belle.new_game(3, s), 0)["you"]["hand"]} & targeted
    )
    created = table(
        live, "belle-of-the-ball", ["human", "greedy", "greedy"], seed=seed, practice=True
    )
    created["practice"] = True
    page = new_page(browser, WIDE)
    sit(page, live, created)
    page.wait_for_selector("#hand button[data-action]")
    answers = page.evaluate(
        """async () => Promise.all([...document.querySelectorAll('#hand button[data-action]')]
          .map(async (b) => [b.dataset.action, (await fetch(
            location.pathname.replace('/tables/', '/api/tables/') + '/explain?action='
            + encodeURIComponent(b.dataset.action))).status]))"""
    )
    assert any(" on seat " in action or " to " in action for action, _ in answers), answers
    assert all(status == 200 for _, status in answers), answers
    for button in page.locator("#hand button[data-action][aria-disabled=true]").all():
        button.click(force=True)
        page.locator("#why-note.shown").wait_for()
    assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_focus_stays_on_the_acting_area_after_a_move(
    browser: Any, live: LiveServer, size: dict[str, int]
) -> None:
    created = table(live, "cafe-carnage", ["human", "greedy", "greedy", "greedy"])
    page = new_page(browser, size)
    sit(page, live, created)
    dish = page.locator(f"#menu button[data-action]{LIVE}").first
    dish.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#table h2:has-text('choose a main')")
    page.wait_for_timeout(200)
    focused = page.evaluate(
        "() => { const e = document.activeElement;"
        " return e && e.closest('#screen') ? (e.id || e.dataset.action) : null; }"
    )
    assert focused is not None, "focus left the game's screen after a move"
    # and the next move is a Tab or two away, not at the top of the page
    for _ in range(8):
        page.keyboard.press("Tab")
        action = page.evaluate(
            "() => document.activeElement.closest('#menu')"
            " ? document.activeElement.dataset.action : null"
        )
        if action:
            break
    assert action, "the next move is not reached from where focus was left"
    assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_belly_battles_labels_are_unique_with_a_legend_and_details_on_tap(
    browser: Any, live: LiveServer, size: dict[str, int]
) -> None:
    created = table(live, "belly-battle", ["human", "greedy", "greedy", "greedy"])
    page = new_page(browser, size)
    sit(page, live, created)
    page.wait_for_selector("#board .space")
    labels = page.evaluate(
        """() => [...document.querySelectorAll('#board .space .label span')]
          .filter((s) => getComputedStyle(s).display !== 'none')
          .map((s) => s.textContent.replace(/\\u00ad/g, ''))"""
    )
    assert len(labels) == 44
    assert len(set(labels)) == 44, sorted(labels)
    icons = page.evaluate(
        "() => [...new Set([...document.querySelectorAll('#board .space .icon')]"
        ".map((i) => i.textContent).filter(Boolean))]"
    )
    if page.locator("#legend[open]").count() == 0:  # folded on a phone: one tap opens it
        page.click("#legend summary")
    legend = page.locator("#legend").inner_text()
    assert all(icon in legend for icon in icons), (icons, legend)
    for mark in ("♙", "★", "☂", "◆", "☕"):
        assert mark in legend
    # a special space shows what it does when tapped
    page.locator("#board .space.tunnel").first.click()
    page.wait_for_selector("#card h2:has-text('Tunnel')")
    assert "other tunnel" in page.locator("#card").inner_text()
    page.screenshot(path=HERE / f"belly-battle-{size['width']}.png", full_page=True)
    assert page.errors == []


def test_a_board_scrolled_sideways_on_a_phone_stays_there_when_a_bot_moves(
    browser: Any, live: LiveServer
) -> None:
    created = table(live, "belly-battle", ["human", "greedy", "greedy", "greedy"])
    page = new_page(browser, PHONE)
    sit(page, live, created)
    box = page.locator(".board-scroll")
    box.wait_for()
    assert page.locator("#board-hint").is_visible()  # it says that it scrolls
    assert "sideways" in page.locator("#board-hint").inner_text()
    page.evaluate(
        "() => { const b = document.querySelector('.board-scroll'); b.scrollLeft = 200;"
        " document.querySelector('#board').dataset.old = 'yes'; }"
    )
    # a bot's move (or the player's own) draws the screen anew
    deadline = time.monotonic() + 20
    while page.locator("#board[data-old]").count():
        assert time.monotonic() < deadline, "the screen was never drawn again"
        live_move = page.locator(f"#moves button[data-action]{LIVE}")
        if live_move.count():
            live_move.first.click()
        page.wait_for_timeout(300)
    assert page.evaluate("() => document.querySelector('.board-scroll').scrollLeft") == 200
    wide = new_page(browser, WIDE)
    sit(wide, live, table(live, "belly-battle", ["human", "greedy"]))
    assert not wide.locator("#board-hint").is_visible()  # the whole board fits
    assert page.errors == []
    assert wide.errors == []


def test_each_page_has_one_h1(browser: Any, live: LiveServer) -> None:
    created = table(live, "burger-joint", ["human", "greedy"])
    page = new_page(browser, WIDE)
    for path, ready in [
        ("/", "#rules-links li"),
        (created["join"][0]["join"], "#join-info p"),
        ("/rules/burger-joint", "#rules h2"),
    ]:
        page.goto(live.url + path)
        page.wait_for_selector(ready)
        assert page.locator("h1").count() == 1, path
    sit(page, live, created)
    page.click("#rules-panel summary")
    page.wait_for_selector("#rules-body h3")
    assert page.locator("h1").count() == 1
    assert page.errors == []


def test_the_page_names_players_as_the_terminal_does(browser: Any, live: LiveServer) -> None:
    page = new_page(browser, WIDE)
    page.goto(live.url + "/")
    page.wait_for_selector("#rules-links li")
    named = page.evaluate(
        """(cases) => cases.map((c) => {
          const table = { seats: c.names.map((name, seat) => ({ seat, kind: 'human', name,
            free: false, taken_over: seat === c.you && c.your_bot ? 'left' : null })) };
          return Potluck.namer(table, c.you).text(c.text);
        })""",
        CASES,
    )
    assert named == [case["named"] for case in CASES]


def test_a_players_own_seat_and_the_others_read_by_name_from_one(
    browser: Any, live: LiveServer
) -> None:
    created = table(live, "food-advice", ["human", "greedy", "greedy", "greedy"])
    page = new_page(browser, PHONE)
    sit(page, live, created)
    seats = page.locator("#seats td").all_inner_texts()
    assert seats[0] == "1"
    assert seats[1].startswith("You")
    assert any(text.startswith("Bot 2 (greedy)") for text in seats)
    assert page.locator("#scoreline .chip").first.inner_text() == "1"
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not page.locator("#recent-moves").count():
        page.wait_for_timeout(100)
    assert page.errors == []


def test_the_replay_says_a_move_ending_in_its_own_bang_without_a_stop(
    browser: Any, live: LiveServer
) -> None:
    created = table(live, "cafe-carnage", ["random", "random", "random", "random"])
    api = f"{live.url}/api/tables/{created['id']}"
    deadline = time.monotonic() + 60
    while httpx.get(api).json()["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.3)
    actions = httpx.get(f"{api}/record").json()["actions"]
    step, runner = next((i + 1, seat) for i, (seat, text) in enumerate(actions) if text == "run")
    page = new_page(browser, WIDE)
    page.goto(f"{live.url}/tables/{created['id']}/replay")
    page.wait_for_selector("#counter:has-text('step 0')")
    page.select_option("#as", str(runner))  # the runner sees their own sealed card
    page.evaluate(
        "(n) => { const s = document.getElementById('step'); s.value = n;"
        " s.dispatchEvent(new Event('input')); s.dispatchEvent(new Event('change')); }",
        step,
    )
    page.wait_for_selector(f"#counter:has-text('step {step} ')")
    said = page.locator("#last").inner_text()
    assert said.endswith("played RUN!"), said
    assert page.errors == []


def test_a_variant_option_reads_as_a_label_with_its_help(browser: Any, live: LiveServer) -> None:
    page = new_page(browser, WIDE)
    page.goto(live.url + "/")
    page.wait_for_selector("select[name=game] option", state="attached")
    page.select_option("select[name=game]", "belle-of-the-ball")
    label = page.locator("#option-choices label").first
    label.wait_for()
    text = label.inner_text()
    assert text.strip().startswith("Belles in guest deck"), text
    assert "Designer's variant" in text
    assert page.errors == []
