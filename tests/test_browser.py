"""Browser tests: Playwright drives Debian's Chromium (headless) against a real server.

They need the ``playwright`` package and ``/usr/bin/chromium`` (``.ci/run`` installs
both; Playwright's own browser download is never used) and are skipped without
them. Screenshots of each screen go to ``test-output/browser/``.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from webtest import CHROMIUM, LiveServer, fresh_database_url

sync_api = pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():  # pragma: no cover - depends on the machine
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

SHOTS = Path(__file__).resolve().parent.parent / "test-output" / "browser"
PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1200, "height": 900}
#: A move that can be made now (an illegal one is aria-disabled: it says why when pressed).
LIVE = ":not([disabled]):not([aria-disabled=true])"

Page = Any  # playwright's Page; its stubs are not part of the type check


@pytest.fixture(autouse=True, scope="module")
def _screenshots_folder() -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)


def new_page(browser: Any, viewport: dict[str, int] = WIDE) -> Page:
    page = browser.new_context(viewport=viewport).new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def join_by_link(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.wait_for_selector("#join-info p")  # the table is read (a practice table asks more)
    if page.locator("input[name=practice]").count():
        page.check("input[name=practice]")
    page.fill("input[name=name]", name)
    page.click("#join")
    page.wait_for_selector("#diners")


def play_until_over(pages: list[Page], limit: float = 240.0) -> int:
    """Each page clicks one of its enabled cards when it has one, until all show the end.

    A game that does not end in time fails with what each page shows, what the server
    says to its seat, and why its last click failed (see ``stalled``)."""
    clicks, deadline = 0, time.monotonic() + limit
    problems: set[str] = set()  # raw data on a page (``raw_words``)
    missed: dict[int, str] = {}  # page -> why its latest click did not happen
    while not all(page.locator("#outcome").count() for page in pages):
        if time.monotonic() >= deadline:
            raise AssertionError("the game did not finish in time\n" + stalled(pages, missed))
        moved = False
        for number, page in enumerate(pages):
            cards = page.locator(f"#you button[data-action]{LIVE}")
            if cards.count():
                try:
                    cards.first.click(timeout=500)
                    clicks, moved = clicks + 1, True
                    missed.pop(number, None)
                    problems.update(raw_words(page))
                except sync_api.Error as error:
                    missed[number] = str(error)  # redrawn under the click? look again
        if not moved:
            time.sleep(0.05)
    for page in pages:
        problems.update(raw_words(page))
    assert problems == set(), sorted(problems)
    return clicks


#: What a page shows of its seat's turn, and what the server tells that seat now.
SHOWN = """async () => {
  const text = (selector) => {
    const found = document.querySelector(selector);
    return found ? found.textContent : null;
  };
  const enabled = document.querySelectorAll(
    "#you button[data-action]:not([disabled]):not([aria-disabled=true])");
  const now = await (await fetch(location.pathname.replace("/tables/", "/api/tables/"))).json();
  return {
    where: text("#where"), heading: text("#you h2"), waiting: text("#waiting"),
    notice: text("#notice"), busy: document.getElementById("screen").classList.contains("busy"),
    enabled: Array.from(enabled, (button) => button.dataset.action),
    server: {
      step: now.step, to_act: now.to_act, decision: now.decision, waiting: now.waiting,
      legal: (now.legal || []).map((legal) => legal.action),
    },
  };
}"""


def stalled(pages: list[Page], missed: dict[int, str]) -> str:
    """Why a game stalled, as far as the pages can tell: for each, what it shows, what the
    server says to its seat now, its script errors and why its latest click failed."""
    lines = []
    for number, page in enumerate(pages):
        try:
            lines.append(f"page {number}: {page.evaluate(SHOWN)}")
        except sync_api.Error as error:
            lines.append(f"page {number}: could not be read: {error}")
        lines.append(f"  script errors: {page.errors}")
        if number in missed:
            lines.append(f"  its latest click failed: {missed[number]}")
    return "\n".join(lines)


def test_two_browsers_create_and_join_a_cafe_table_with_two_bots_and_finish_it(
    browser: Any, server: LiveServer
) -> None:
    ann = new_page(browser)
    ann.goto(server.url + "/")
    ann.wait_for_selector("select[name=game] option", state="attached")
    ann.screenshot(path=SHOTS / "lobby.png", full_page=True)
    # The lobby lists every game; choose Café Carnage at four players explicitly.
    ann.select_option("select[name=game]", "cafe-carnage")
    ann.select_option("select[name=num_players]", "4")
    ann.select_option("select[name=seat1]", "human")
    ann.select_option("select[name=seat2]", "medium")
    ann.select_option("select[name=seat3]", "easy")
    ann.click("#create")
    invites = ann.locator("#invites .link-box")
    invites.first.wait_for()
    assert invites.count() == 2
    bo_link = invites.nth(1).inner_text()
    ann.locator("#invites a").first.click()
    ann.fill("input[name=name]", "Ann")
    ann.click("#join")
    ann.wait_for_selector("#diners")

    bo = new_page(browser, PHONE)  # the second player is on a phone
    join_by_link(bo, bo_link, "Bo")
    ann.wait_for_selector("#menu button:not([disabled]):not([aria-disabled=true])")
    bo.wait_for_selector("#menu button:not([disabled]):not([aria-disabled=true])")
    ann.screenshot(path=SHOTS / "cafe-carnage-table.png", full_page=True)
    bo.screenshot(path=SHOTS / "cafe-carnage-phone.png", full_page=True)
    assert bo.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # an illegal card explains itself on hover, and on a click (or a tap) instead of playing
    run = ann.locator("#hand button[data-action=run]")
    assert run.get_attribute("aria-disabled") == "true"
    assert "choose a starter" in (run.get_attribute("title") or "")
    run.click(force=True)  # a real click: Playwright's own checks refuse aria-disabled
    assert "choose a starter" in ann.locator("#why-note.shown").inner_text()

    clicks = play_until_over([ann, bo])
    # The record counts the humans' moves: a click that timed out on a loaded machine
    # may still have landed, so the clicks counted can fall short of the moves made.
    # The table has no turn timer, so every move of theirs was a click of theirs.
    table_id = re.search(r"/tables/([^/?#]+)", ann.url)
    assert table_id, ann.url
    record = httpx.get(f"{server.url}/api/tables/{table_id[1]}/record").json()
    movers = [seat for seat, _ in record["actions"]]
    assert movers.count(0) >= 20  # 5 nights of 3 courses and a ballot each, per human
    assert movers.count(1) >= 20
    assert 0 < clicks <= movers.count(0) + movers.count(1)
    ann.screenshot(path=SHOTS / "cafe-carnage-over.png", full_page=True)
    assert "Final scores" in ann.locator("#final").inner_text()
    assert ann.errors == []
    assert bo.errors == []

    ann.click("#outcome a")  # the replay
    ann.wait_for_selector("#counter:has-text('step 0')")
    for _ in range(12):
        ann.click("#next")
    ann.select_option("#as", "1")
    ann.wait_for_selector("#counter:has-text('step 12')")
    ann.wait_for_selector("#diners")
    ann.screenshot(path=SHOTS / "cafe-carnage-replay.png", full_page=True)


def test_a_spectator_sees_no_hidden_card(browser: Any, server: LiveServer) -> None:
    created = httpx.post(
        server.url + "/api/tables",
        json={"game": "cafe-carnage", "num_players": 4, "seats": ["human", "greedy", "greedy",
              "random"]},
    ).json()  # fmt: skip
    ann = new_page(browser)
    join_by_link(ann, server.url + created["join"][0]["join"], "Ann")
    ann.wait_for_selector("#menu button")
    menu = [t.strip() for t in ann.locator("#menu .title").all_inner_texts()]
    assert len(menu) == 3
    watcher = new_page(browser)
    watcher.goto(f"{server.url}/tables/{created['id']}")
    watcher.wait_for_selector("#diners")
    watcher.screenshot(path=SHOTS / "cafe-carnage-spectator.png", full_page=True)
    seen = watcher.locator("body").inner_text()
    assert "Ann" in seen
    for dish in menu:
        assert dish not in seen
    assert watcher.locator("#you button").count() == 0
    # and after Ann orders, the spectator still cannot see her order
    ann.locator("#menu button").first.click()
    ann.wait_for_selector("#order .slot:has-text('$')")
    watcher.wait_for_selector("#table h2:has-text('choose a main')")
    seen = watcher.locator("body").inner_text()
    for dish in menu:
        assert dish not in seen


def test_a_restarted_server_resumes_the_table_in_the_open_page(
    browser: Any, tmp_path: Path
) -> None:
    url = fresh_database_url(tmp_path)
    first = LiveServer(url)
    created = httpx.post(
        first.url + "/api/tables",
        json={"game": "cafe-carnage", "num_players": 4, "seats": ["human", "greedy", "random",
              "greedy"]},
    ).json()  # fmt: skip
    ann = new_page(browser)
    join_by_link(ann, first.url + created["join"][0]["join"], "Ann")
    ann.locator("#menu button").first.click()
    ann.wait_for_selector("#menu.cards .main, #menu .dish.main")
    ordered = ann.locator("#order .slot").first.inner_text()
    first.stop()

    second = LiveServer(url, port=first.port)
    try:
        # the page's socket reconnects by itself and shows the same game
        ann.wait_for_selector("#menu .dish.main", timeout=20000)
        assert ann.locator("#order .slot").first.inner_text() == ordered
        ann.reload()
        ann.wait_for_selector("#menu .dish.main")
        assert ann.locator("#order .slot").first.inner_text() == ordered
        play_until_over([ann])
        assert ann.errors == []
    finally:
        second.stop()


def create_table(
    server: LiveServer, game: str, seats: list[str], seed: int | None = None, **options: Any
) -> dict[str, Any]:
    body = {"game": game, "num_players": len(seats), "seats": seats, "options": options}
    if seed is not None:  # a chosen deal: a practice table if a person sits at it
        body["seed"] = seed
        body["practice"] = "human" in seats
    response = httpx.post(server.url + "/api/tables", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def join_screen(page: Page, url: str, name: str, ready: str) -> None:
    page.goto(url)
    page.wait_for_selector("#join-info p")  # the table is read (a practice table asks more)
    if page.locator("input[name=practice]").count():
        page.check("input[name=practice]")
    page.fill("input[name=name]", name)
    page.click("#join")
    page.wait_for_selector(ready)


def watch_on_a_phone(browser: Any, server: LiveServer, table: str, ready: str, shot: str) -> Page:
    """A phone-sized spectator opens the table: the screen fits and is saved as ``shot``."""
    phone = new_page(browser, PHONE)
    phone.goto(f"{server.url}/tables/{table}")
    phone.wait_for_selector(ready)
    phone.screenshot(path=SHOTS / shot, full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    return phone


def see_on_a_phone(page: Page, shot: str) -> None:
    """The player's own screen at phone width: it fits and is saved as ``shot``."""
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    page.screenshot(path=SHOTS / shot, full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size(WIDE)


def play_to_the_end(page: Page, buttons: str, least: int, shot: str) -> None:
    """Click ``buttons`` to the end of the game (at least ``least`` clicks), then save ``shot``."""
    assert click_until_over(page, buttons) >= least
    page.screenshot(path=SHOTS / shot, full_page=True)
    assert page.errors == []


def step_through_the_replay(page: Page, screen: str, shot: str) -> None:
    """From the end of a game, open its replay, step in, see it as everyone, save ``shot``."""
    page.click("#outcome a")
    page.wait_for_selector("#counter:has-text('step 0')")
    for _ in range(6):
        page.click("#next")
    page.wait_for_selector("#counter:has-text('step 6')")
    page.select_option("#as", "all")
    page.wait_for_selector(".replay-view[data-seat='1'] h2:has-text('As seat 2')")
    page.wait_for_selector(f".replay-view[data-seat='1'] {screen}")
    page.screenshot(path=SHOTS / shot, full_page=True)
    assert page.errors == []


def click_first(page: Page, buttons: str) -> bool:
    """Click the first element matching ``buttons``; whether there was one to click."""
    live = page.locator(buttons)
    if not live.count():
        return False
    try:
        live.first.click(timeout=500)
    except sync_api.Error:
        return False  # redrawn under the click: look again
    return True


def click_until_over(page: Page, buttons: str, limit: float = 240.0) -> int:
    """Click the first enabled button matching ``buttons`` whenever there is one, to the end.

    Along the way every text the page shows is read for raw data ("null", "undefined",
    notation ids, rule keys, seats by number from 0), the page switching between 1280x800
    and 390x844 every few moves; the end is read too. A problem fails the game at its end,
    with every one seen."""
    clicks, deadline = 0, time.monotonic() + limit
    problems: set[str] = set()
    while not page.locator("#outcome").count():
        assert time.monotonic() < deadline, "the game did not finish in time"
        if click_first(page, buttons):
            clicks += 1
            problems.update(raw_words(page))
            if clicks % 12 == 0:
                page.set_viewport_size(PHONE if page.viewport_size["width"] > 500 else WIDE)
        else:
            time.sleep(0.05)
    page.wait_for_timeout(200)
    problems.update(raw_words(page))
    page.set_viewport_size(WIDE)
    assert problems == set(), sorted(problems)
    return clicks


#: Every text a page shows (text nodes, titles, labels), but the rules' notation help and
#: the links a player copies, with what in it is raw data rather than words.
RAW_WORDS = r"""() => {
  const found = new Set();
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('#rules-panel, .link-box, script, style, #alert, #host')) {
      continue;
    }
    texts.push(node.textContent);
  }
  for (const e of document.querySelectorAll('[title], [aria-label]')) {
    if (e.closest('#rules-panel')) continue;
    texts.push(e.getAttribute('title') || '', e.getAttribute('aria-label') || '');
  }
  const rules = [
    [/\b(null|undefined|NaN)\b|\[object /, 'raw value'],
    [/\b[a-z]+(?:_[a-z]+)+\b/, 'a key'],
    [/(?<![\w-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w-])/, 'an id'],
    [/\b[Ss]eats? \d/, 'a seat by its number, not its name'],
    [/[!?]\.(?!\.)/, 'a stop after "!" or "?"'],
    [/<[a-z]+>|'[a-z]+ <|\('[a-z]+'\)/, 'notation'],
  ];
  for (const text of texts) {
    for (const [pattern, what] of rules) {
      const hit = pattern.exec(text);
      if (hit) found.add(`${what}: ${hit[0]} in ${JSON.stringify(text.trim().slice(0, 80))}`);
    }
  }
  return [...found];
}"""


def raw_words(page: Page) -> list[str]:
    """What on the page is raw data rather than words (``RAW_WORDS``)."""
    try:
        found: list[str] = page.evaluate(RAW_WORDS)
    except sync_api.Error:
        return []  # the page was being redrawn: read it at the next move
    return found


def test_one_human_and_three_bots_finish_a_belly_battle_game(
    browser: Any, server: LiveServer
) -> None:
    # A fixed deal: with the first enabled button always clicked, how long the human lasts
    # depends on the dice (a human who sells to the bank at every decision can go broke
    # within a few turns), and the test wants a human who plays several turns.
    created = create_table(server, "belly-battle", ["human", "greedy", "greedy", "random"],
                           max_rounds=8, seed=3)  # fmt: skip
    ann = new_page(browser)
    join_screen(ann, server.url + created["join"][0]["join"], "Ann", "#board .space")
    assert ann.locator("#board .space").count() == 44
    assert ann.locator("#board .space .pawn").count() == 4
    ann.wait_for_selector(f"#moves button[data-action], #card button[data-action]{LIVE}")
    ann.screenshot(path=SHOTS / "belly-battle-table.png", full_page=True)

    # tapping a restaurant shows it, with its moves; an illegal one explains itself when
    # pressed (the game has too many actions for the reasons to come with the view: the
    # page asks the server)
    for attempt in range(5):  # a push from the server may redraw the panel: look again
        ann.locator("#board .space[data-card=patiala-dhaba]").click()
        ann.wait_for_selector("#card h2:has-text('Patiala Dhaba')")
        star = ann.locator("#card button[data-action='star patiala-dhaba']")
        assert star.get_attribute("aria-disabled") == "true"
        try:
            star.click(timeout=2000, force=True)  # not refused for aria-disabled
            ann.wait_for_selector("#why-note.shown", timeout=5000)
            break
        except sync_api.Error:
            assert attempt < 4, "an illegal move never explained itself when pressed"

    phone = watch_on_a_phone(
        browser, server, created["id"], "#board .space", "belly-battle-phone.png"
    )

    clicks = click_until_over(ann, f"#moves button[data-action], #card button[data-action]{LIVE}")
    assert clicks >= 8
    ann.wait_for_selector("#final")
    ann.screenshot(path=SHOTS / "belly-battle-over.png", full_page=True)
    assert ann.errors == []
    assert phone.errors == []
    step_through_the_replay(ann, ".space .pawn", "belly-battle-replay.png")


def test_a_burger_joint_table_plays_to_the_end_against_a_bot(
    browser: Any, server: LiveServer
) -> None:
    created = create_table(server, "burger-joint", ["human", "greedy"])
    ann = new_page(browser)
    join_screen(ann, server.url + created["join"][0]["join"], "Ann", "#board-0")
    live = (
        f"#production .cube.live, .dev-board.mine button[data-action]{LIVE}, "
        "#moves button[data-action]"
    )
    ann.wait_for_selector(live)  # a cube to take, or (if the bot took them all) a move
    assert ann.locator(".dev-board").count() == 2
    ann.screenshot(path=SHOTS / "burger-joint-table.png", full_page=True)
    phone = watch_on_a_phone(browser, server, created["id"], "#board-1", "burger-joint-phone.png")

    play_to_the_end(ann, live, 10, "burger-joint-over.png")
    # the result is said once, in the game-over banner (no second banner repeats it)
    assert ann.locator("#outcome").count() == 1
    assert ann.locator("#final").count() == 0
    step_through_the_replay(ann, ".dev-board", "burger-joint-replay.png")
    assert phone.errors == []


def test_a_belle_of_the_ball_table_plays_to_the_end_with_bots(
    browser: Any, server: LiveServer
) -> None:
    created = create_table(server, "belle-of-the-ball", ["human", "greedy", "random"])
    ann = new_page(browser)
    join_screen(ann, server.url + created["join"][0]["join"], "Ann", "#line")
    ann.wait_for_selector("#party .group")
    ann.wait_for_selector("#line .card")
    ann.screenshot(path=SHOTS / "belle-of-the-ball-table.png", full_page=True)
    phone = watch_on_a_phone(
        browser, server, created["id"], "#line .card", "belle-of-the-ball-phone.png"
    )
    assert phone.locator("#hand").count() == 0  # a spectator sees no Belles in hand
    assert ann.locator("#legend .legend-item").count() == 10  # every interest, named
    assert ann.locator("#line .cost").first.inner_text() == "free"
    # a group the guest may not join is greyed out and says why
    blocked = ann.locator("#party button.seat-here[aria-disabled=true]").first
    assert "group" in (blocked.get_attribute("title") or "")
    see_on_a_phone(ann, "belle-of-the-ball-phone-player.png")

    live = (
        f"#party button.seat-here{LIVE}, #line button[data-action]{LIVE}, "
        f"#moves button[data-action], #hand button[data-action]{LIVE}"
    )
    play_to_the_end(ann, live, 5, "belle-of-the-ball-over.png")
    assert ann.locator("#final li").count() == 3  # the standings, best first
    step_through_the_replay(ann, ".line .card", "belle-of-the-ball-replay.png")
    assert phone.errors == []


def test_a_food_advice_table_plays_to_the_end_with_bots(browser: Any, server: LiveServer) -> None:
    created = create_table(server, "food-advice", ["human", "greedy", "greedy", "random"])
    ann = new_page(browser)
    join_screen(ann, server.url + created["join"][0]["join"], "Ann", "#kitchen")
    ann.wait_for_selector("#hand .ingredient")
    ann.screenshot(path=SHOTS / "food-advice-table.png", full_page=True)
    phone = watch_on_a_phone(browser, server, created["id"], "#market", "food-advice-phone.png")
    assert phone.locator("#kitchen").count() == 0  # a spectator sees no hand
    assert ann.locator("#scoreline .score").count() == 4  # everyone's foodcoins, at the top
    see_on_a_phone(ann, "food-advice-phone-player.png")

    # the naming form: a product gets the name and tagline the player types
    live = (
        f"#offer-to button[data-action]{LIVE}, #moves button[data-action], "
        f"#hand button[data-action]{LIVE}, #products button[data-action]{LIVE}, "
        "#market button[data-action]:not([disabled]):not([aria-disabled=true])"
    )
    deadline = time.monotonic() + 60
    while not ann.locator("#naming").count():
        assert time.monotonic() < deadline, "never asked to name a product"
        if not click_first(ann, live):
            time.sleep(0.05)
    ann.fill("input[name=product-name]", "Ann's Famous Stew")
    ann.fill("input[name=tagline]", "Warm, rich and honest")
    ann.click("#naming button")
    ann.wait_for_selector('.product-name:has-text("Ann\'s Famous Stew")')
    ann.screenshot(path=SHOTS / "food-advice-products.png", full_page=True)

    play_to_the_end(ann, live + ", #naming button", 5, "food-advice-over.png")
    assert ann.locator("#final li").count() == 4  # the standings, best first
    # the last round's customers, each with a budget and the hashtags they like
    assert ann.locator("#customers .customer .budget").count() >= 1
    assert ann.locator("#customers .customer .tag").count() >= 1
    step_through_the_replay(ann, ".kitchen", "food-advice-replay.png")
    assert phone.errors == []
