"""The browser as a newcomer meets it: rules pages, every table at two sizes, bots named as
bots, and an accessibility scan (axe-core, through Playwright) of the lobby and each table.

Screenshots go to ``test-output/browser/first-hour/`` (git-ignored): ``GAME-wide.png``
(1280x800) and ``GAME-phone.png`` (390 px wide) for each game.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from potluck.engine.registry import load_game
from test_browser import PHONE, SHOTS, create_table, join_screen, new_page
from webtest import LiveServer

axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")

HERE = SHOTS / "first-hour"
WIDE_SCREEN = {"width": 1280, "height": 800}
#: Each game at a table of one human and bots, and a selector its screen draws when ready.
TABLES = {
    "belle-of-the-ball": (["human", "greedy", "random"], "#line .card"),
    "belly-battle": (["human", "greedy", "greedy", "random"], "#board .space"),
    "burger-joint": (["human", "greedy"], "#board-0"),
    "cafe-carnage": (["human", "greedy", "greedy", "random"], "#screen .panel"),
    "food-advice": (["human", "greedy", "greedy", "random"], "#kitchen"),
}
SERIOUS = ("serious", "critical")


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical findings on the page, one line each."""
    results = axe_module.Axe().run(page)
    found = []
    for violation in results.response["violations"]:
        if violation["impact"] in SERIOUS:
            targets = [", ".join(node["target"]) for node in violation["nodes"][:3]]
            found.append(f"{violation['id']} ({violation['impact']}): {targets}")
    return found


def fits_its_width(page: Any) -> bool:
    width: int = page.evaluate("() => document.documentElement.scrollWidth")
    viewport: int = page.viewport_size["width"]
    return width <= viewport


#: Text that must never be cut: names on the board, seats, tables (wide tables scroll in
#: a ``.scroll`` box, which is not clipping).
CLIPPED = """() => [...document.querySelectorAll(
    '.belly .space .label, #seats td, .belly-player, .panel table, .bill, h2, button')]
  .filter((e) => e.offsetParent !== null && !e.closest('.scroll')
    && getComputedStyle(e).overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1)
  .map((e) => e.textContent.trim().slice(0, 40))"""


#: Buttons on the screen that show a move's notation instead of saying what it does.
NOTATION_BUTTONS = """() => [...document.querySelectorAll('button[data-action]')]
  .filter((b) => b.offsetParent !== null && b.textContent.trim() === b.dataset.action)
  .map((b) => b.dataset.action)"""


def notation_buttons(page: Any) -> list[str]:
    """The visible move buttons whose text is the move's notation."""
    found: list[str] = page.evaluate(NOTATION_BUTTONS)
    return found


def clipped_text(page: Any) -> list[str]:
    """The texts cut off by their box (hidden overflow) on the page."""
    cut: list[str] = page.evaluate(CLIPPED)
    return cut


def test_lobby_has_each_games_rules_and_no_serious_accessibility_violation(
    browser: Any, server: LiveServer
) -> None:
    HERE.mkdir(parents=True, exist_ok=True)
    page = new_page(browser, WIDE_SCREEN)
    page.goto(server.url + "/")
    page.wait_for_selector("#rules-links li a")
    assert page.locator("#rules-links li a").count() == len(TABLES)
    page.click("#rules-title")
    page.wait_for_selector("#rules h3:has-text('Notation')")
    page.screenshot(path=HERE / "lobby-wide.png", full_page=True)
    assert serious_violations(page) == []
    page.set_viewport_size(PHONE)
    page.screenshot(path=HERE / "lobby-phone.png", full_page=True)
    assert fits_its_width(page)
    assert page.errors == []


@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_games_rules_page_is_its_markdown_as_safe_html(
    browser: Any, server: LiveServer, game: str
) -> None:
    page = new_page(browser, PHONE)
    page.goto(f"{server.url}/rules/{game}")
    page.wait_for_selector("#rules h2:has-text('Notation')")
    assert page.locator("#rules script, #rules [onclick]").count() == 0
    assert fits_its_width(page)
    page.screenshot(path=HERE / f"{game}-rules-phone.png", full_page=True)
    assert serious_violations(page) == []


@pytest.mark.parametrize("game", sorted(TABLES))
def test_each_table_reads_at_1280_and_390_with_rules_and_bots_named(
    browser: Any, server: LiveServer, game: str
) -> None:
    HERE.mkdir(parents=True, exist_ok=True)
    seats, ready = TABLES[game]
    created = create_table(server, game, seats)
    page = new_page(browser, WIDE_SCREEN)
    join_screen(page, server.url + created["join"][0]["join"], "Ann", ready)
    page.wait_for_timeout(300)
    # The Rules panel opens on the table, with the game's notation.
    page.click("#rules-panel summary")
    page.wait_for_selector("#rules-body h3:has-text('Notation')")
    page.screenshot(path=HERE / f"{game}-wide.png", full_page=True)
    assert fits_its_width(page)
    assert clipped_text(page) == []
    assert notation_buttons(page) == []
    # Every bot's seat says it is a bot.
    bots = sum(1 for seat in seats if seat != "human")
    assert page.locator("#seats .badge.bot").count() >= bots
    assert serious_violations(page) == []
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    page.screenshot(path=HERE / f"{game}-phone.png", full_page=True)
    assert fits_its_width(page)
    assert clipped_text(page) == []
    assert notation_buttons(page) == []
    assert page.errors == []


def test_the_banner_says_a_bot_won_when_a_bot_played_the_seat(
    browser: Any, server: LiveServer
) -> None:
    created = create_table(server, "burger-joint", ["human", "greedy"])
    page = new_page(browser, WIDE_SCREEN)
    join_screen(page, server.url + created["join"][0]["join"], "Carla", "#board-0")
    page.click("#leave")  # a bot plays Carla's seat from now on, to the end
    banner = page.wait_for_selector("#outcome", timeout=60000).inner_text()
    winners = banner.split("Game over: ", 1)[1].split(" scores", 1)[0].split(" wins", 1)[0]
    assert winners == "Your bot" or winners.startswith("Bot "), banner
    assert "Carla wins" not in banner
    page.screenshot(path=HERE / "bot-banner.png", full_page=True)


FOCUSED = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const style = getComputedStyle(e);
  return { action: e.dataset.action || null, tag: e.tagName,
           outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0 };
}"""


def test_burger_joint_cubes_are_taken_with_the_keyboard_with_visible_focus(
    browser: Any, server: LiveServer
) -> None:
    # A deal where the human (seat 0) takes the first production: in others the bot does,
    # and the human's first move is a trade, with no cube to take.
    burger = load_game("burger-joint")
    seed = next(s for s in range(100) if burger.to_act(burger.new_game(2, s)) == (0,))
    created = create_table(server, "burger-joint", ["human", "greedy"], seed=seed)
    page = new_page(browser, WIDE_SCREEN)
    join_screen(page, server.url + created["join"][0]["join"], "Ann", "#board-0")
    page.wait_for_selector("#production button.cube.live")
    before = httpx.get(f"{server.url}/api/tables/{created['id']}").json()["step"]
    focused = None
    for _ in range(60):  # Tab from the top of the page to the first cube to take
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused and (focused["action"] or "").startswith(("take ", "pick ")):
            break
    assert focused is not None
    assert (focused["action"] or "").startswith(("take ", "pick ")), focused
    assert focused["tag"] == "BUTTON"
    assert focused["outline"], "the focused cube shows no focus ring"
    page.screenshot(path=HERE / "burger-joint-cube-focus.png")
    page.keyboard.press("Enter")
    deadline = time.monotonic() + 15
    while httpx.get(f"{server.url}/api/tables/{created['id']}").json()["step"] == before:
        assert time.monotonic() < deadline, "Enter on a focused cube took nothing"
        time.sleep(0.1)
    assert page.errors == []


def test_screenshots_are_kept(tmp_path: Path) -> None:
    """The artefacts' folder is git-ignored (``/test-output/``)."""
    ignored = (Path(__file__).resolve().parent.parent / ".gitignore").read_text()
    assert "/test-output/" in ignored


BILL_CUT = """() => [...document.querySelectorAll('#bills .scroll')]
  .filter((box) => box.scrollWidth > box.clientWidth + 1).length"""


def test_cafe_carnages_bill_is_whole_at_1280_and_folds_on_a_phone(
    browser: Any, server: LiveServer
) -> None:
    created = create_table(server, "cafe-carnage", ["human", "greedy", "greedy", "random"])
    page = new_page(browser, WIDE_SCREEN)
    join_screen(page, server.url + created["join"][0]["join"], "Ann", "#screen .panel")
    live = "#screen button[data-action]:not([disabled]):not([aria-disabled=true])"
    deadline = time.monotonic() + 90
    while not page.locator("#bills .bill").count():  # play the first night to its bill
        assert time.monotonic() < deadline, "the first night's bill never came"
        button = page.locator(live).first
        try:
            button.click(timeout=2000)
        except Exception:  # the screen was redrawn under the pointer: look again
            page.wait_for_timeout(100)
    page.wait_for_timeout(300)
    page.screenshot(path=HERE / "cafe-carnage-bill-wide.png", full_page=True)
    assert page.evaluate(BILL_CUT) == 0, "the bill is cut at 1280 px"
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    page.screenshot(path=HERE / "cafe-carnage-bill-phone.png", full_page=True)
    assert fits_its_width(page)


def test_a_spectators_replay_hides_a_sealed_order_until_it_is_revealed(
    browser: Any, server: LiveServer
) -> None:
    created = create_table(server, "cafe-carnage", ["greedy", "random", "random", "greedy"])
    page = new_page(browser, WIDE_SCREEN)
    page.goto(f"{server.url}/tables/{created['id']}/replay")
    page.wait_for_selector("#counter:has-text('step 0')")
    page.click("#next")  # the first action: a seat's sealed starter order
    page.wait_for_selector("#counter:has-text('step 1')")
    page.wait_for_selector("#last:has-text('sealed choice')")
    page.screenshot(path=HERE / "replay-sealed-spectator.png", full_page=True)
    assert "played" not in page.locator("#last").inner_text()
    assert page.errors == []


def test_belly_battles_board_spaces_open_from_the_keyboard(
    browser: Any, server: LiveServer
) -> None:
    created = create_table(server, "belly-battle", ["human", "greedy"])
    page = new_page(browser, WIDE_SCREEN)
    join_screen(page, server.url + created["join"][0]["join"], "Ann", "#board .space")
    space = page.locator("#board .space[data-card=patiala-dhaba]")
    space.focus()
    focused = page.evaluate(FOCUSED)
    assert focused is not None
    assert focused["outline"], "a focused board space shows no focus ring"
    page.keyboard.press("Enter")
    page.wait_for_selector("#card h2:has-text('Patiala Dhaba')")
    page.screenshot(path=HERE / "belly-battle-keyboard.png")
    assert page.errors == []


def test_belly_battles_log_says_which_moves_a_bot_made(browser: Any, server: LiveServer) -> None:
    created = create_table(server, "belly-battle", ["greedy", "human"])
    page = new_page(browser, WIDE_SCREEN)
    join_screen(page, server.url + created["join"][0]["join"], "Ann", "#board .space")
    page.wait_for_selector(".log li")
    lines = page.locator(".log li").all_inner_texts()
    # The engine's "Seat 0 buys ..." reads with the seat's name, which says it is a bot.
    assert any(re.search(r"\bbot\b", line, re.IGNORECASE) for line in lines), lines
    assert not any(re.search(r"\b[Ss]eat 0\b", line) for line in lines), lines
    assert page.errors == []


CLIPPED_BELOW = """() => [...document.querySelectorAll(
    '.belly .space .label, .belly .space .meta, .belly .space, .belly-player, #seats td, button')]
  .filter((e) => e.offsetParent !== null && !e.closest('.scroll')
    && getComputedStyle(e).overflowY !== 'visible' && e.scrollHeight > e.clientHeight + 1)
  .map((e) => (e.dataset.card || e.textContent.trim()).slice(0, 40))"""


@pytest.mark.parametrize("size", [WIDE_SCREEN, PHONE], ids=["1280x800", "390"])
def test_belly_battles_board_clips_nothing_below(
    browser: Any, server: LiveServer, size: dict[str, int]
) -> None:
    created = create_table(server, "belly-battle", ["human", "greedy", "greedy", "random"])
    page = new_page(browser, size)
    join_screen(page, server.url + created["join"][0]["join"], "Ann", "#board .space")
    page.wait_for_timeout(300)
    cut: list[str] = page.evaluate(CLIPPED_BELOW)
    page.screenshot(path=HERE / f"belly-battle-board-{size['width']}.png", full_page=True)
    assert cut == []


@pytest.mark.parametrize("game", sorted(TABLES))
def test_each_games_recent_moves_say_which_a_bot_made(
    browser: Any, server: LiveServer, game: str
) -> None:
    """A bot moves before the human: the table's "Recent moves" names it as a bot."""
    seats, ready = TABLES[game]
    bot_first = [seats[1], "human", *seats[2:]]
    # A deal where the bot in seat 0 is to act at the start (Burger Joint's start player
    # is dealt, so in some deals the human would move first and no bot move would show).
    rules = load_game(game)
    seed = next(s for s in range(100) if 0 in rules.to_act(rules.new_game(len(seats), s)))
    created = create_table(server, game, bot_first, seed=seed)
    page = new_page(browser, PHONE)
    join_screen(page, server.url + created["join"][0]["join"], "Ann", ready)
    page.wait_for_selector("#recent-moves li")
    lines = page.locator("#recent-moves li").all_inner_texts()
    assert any(re.search(r"\bbot\b", line, re.IGNORECASE) for line in lines), lines
    assert fits_its_width(page)
    assert page.errors == []


BUILDS = ("basic", "publicity", "diner ", "bistro ")


def finished_record(server: LiveServer, table_id: str, seconds: float) -> dict[str, Any]:
    """The record of a bots' table, once the bots have played it out (they play at once)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        response = httpx.get(f"{server.url}/api/tables/{table_id}/record")
        if response.status_code == 200:
            record: dict[str, Any] = response.json()
            return record
        time.sleep(0.1)
    raise AssertionError(f"table {table_id} did not finish in {seconds} s")


@pytest.mark.parametrize("size", [WIDE_SCREEN, PHONE], ids=["1280x800", "390"])
def test_burger_joints_build_buttons_say_what_they_build(
    browser: Any, server: LiveServer, size: dict[str, int]
) -> None:
    """At a step of a bots' game where seat 0 may build, the human in that seat sees
    each build's description on its button, not its notation."""
    game = load_game("burger-joint")
    bots = create_table(server, "burger-joint", ["greedy", "greedy"], seed=5)
    record = finished_record(server, bots["id"], seconds=10)
    state = game.new_game(2, record["seed"], record["options"])
    step = None
    for number, (seat, text) in enumerate(record["actions"]):
        if game.to_act(state) == (0,) and any(
            str(a).startswith(BUILDS) for a in game.legal_actions(state, 0)
        ):
            step = number
            break
        game.step(state, seat, text)
    assert step is not None
    body = {"game": "burger-joint", "num_players": 2, "seats": ["human", "greedy"]}
    body |= {"from_table": bots["id"], "from_step": step}
    created = httpx.post(server.url + "/api/tables", json=body).json()
    page = new_page(browser, size)
    join_screen(page, server.url + created["join"][0]["join"], "Ann", "#board-0")
    page.wait_for_selector("#board-0 button:not([disabled]):not([aria-disabled=true])")
    legal = {
        str(a): game.describe_action(state, 0, a)
        for a in game.legal_actions(state, 0)
        if str(a).startswith(BUILDS)
    }
    shown: dict[str, str] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#board-0 button[data-action]')]
          .filter((b) => !b.disabled && b.getAttribute('aria-disabled') !== 'true')
          .map((b) => [b.dataset.action, b.textContent.trim()]))"""
    )
    page.screenshot(path=HERE / f"burger-joint-build-{size['width']}.png", full_page=True)
    worded = {a: text for a, text in shown.items() if a in legal}
    assert worded, (legal, shown)
    for action, text in shown.items():
        assert text != action, f"the button for {action!r} shows its notation"
    # the buttons without a piece of their own say the move's description
    for action in ("basic", "publicity advance"):
        if action in shown:
            assert shown[action] == legal[action]
    assert notation_buttons(page) == []
    assert page.errors == []


def test_food_advices_takings_history_names_bots_as_bots(browser: Any, server: LiveServer) -> None:
    """Two rounds into a bots' game, the human in seat 0 opens the rounds' takings: each
    column is headed by the seat's name, which says bot."""
    game = load_game("food-advice")
    bots = create_table(server, "food-advice", ["greedy"] * 4, seed=3)
    record = finished_record(server, bots["id"], seconds=30)
    state = game.new_game(4, record["seed"], record["options"])
    step = None
    for number, (seat, text) in enumerate(record["actions"]):
        if len(game.view(state, 0)["log"]) >= 2:
            step = number
            break
        game.step(state, seat, text)
    assert step is not None
    body = {"game": "food-advice", "num_players": 4, "seats": ["human", *["greedy"] * 3]}
    body |= {"from_table": bots["id"], "from_step": step}
    created = httpx.post(server.url + "/api/tables", json=body).json()
    page = new_page(browser, PHONE)
    join_screen(page, server.url + created["join"][0]["join"], "Ann", "#kitchen")
    page.click("#history summary")
    heads = page.locator("#history th").all_inner_texts()
    assert sum(1 for head in heads if re.search(r"\bbot\b", head, re.IGNORECASE)) == 3, heads
    assert page.errors == []
