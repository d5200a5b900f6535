"""Every game's terminal screen reads on an 80x24 terminal: a page at a time where it is taller."""

from __future__ import annotations

import io
import random
import re
from types import SimpleNamespace
from typing import Any

import pytest
import typer
from rich.console import Console

import potluck
from potluck.cli import play as play_module
from potluck.cli.play import PlaySession, parse_seats

TABLES = [
    ("belle-of-the-ball", 5),
    ("belly-battle", 6),
    ("burger-joint", 2),
    ("cafe-carnage", 6),
    ("food-advice", 6),
]
PROMPT = "\x00PROMPT\x00"
#: Games whose every screen, the moves and the end included, fits 80x24 without a page break.
FIT_WITHOUT_PAGING = {"burger-joint"}
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_each_screen_fits_80_by_24(
    game_id: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    screen = io.StringIO()
    console = Console(file=screen, width=80, height=24, force_terminal=True, color_system=None)

    page_breaks = []

    def answer(text: str, **_: Any) -> str:
        screen.write(PROMPT)
        if "more lines" in text:
            page_breaks.append(text)
            return ""
        return "1"

    monkeypatch.setattr(play_module, "typer", SimpleNamespace(prompt=answer, Abort=typer.Abort))
    game = potluck.load_game(game_id)
    seats = parse_seats(game, ["you"] + ["greedy"] * (players - 1), seed=4)
    state = game.new_game(players, seed=4)
    assert PlaySession(game, seats, state, console).run()
    if game_id in FIT_WITHOUT_PAGING:
        assert page_breaks == [], f"{game_id} paged {len(page_breaks)} screens"

    pages = ANSI.sub("", screen.getvalue()).split(PROMPT)
    # What a player reads before each prompt: a whole page, or from the turn's header on
    # (bots' moves printed before it scroll away, and the view's log repeats them).
    shown = [page[page.index("─") :] if "─" in page else page for page in pages]
    heights = [page.rstrip("\n").count("\n") + 1 for page in shown]
    assert any("to act" in page for page in pages), "the human never had a turn"
    assert max(heights) <= 23, f"a {game_id} screen is {max(heights)} lines tall"
    assert "Game over" in screen.getvalue()
    # The end screen says who won once: the outcome's reason, or the view's log saying it.
    end = " ".join(ANSI.sub("", screen.getvalue()).split("Game over", 1)[1].split())
    reason = " ".join(game.outcome(state).reason.split())
    times = end.count(reason)
    assert times == 1, f"{game_id}'s end screen says {reason!r} {times} times"


def test_burger_joints_table_leaves_room_for_the_moves_on_80_by_24() -> None:
    """Burger Joint's table (players, cubes, the board's costs) takes at most 16 lines at
    80 columns along a whole game, so that with the moves it fits a page."""
    from potluck.renderers import renderer_for

    game = potluck.load_game("burger-joint")
    render = renderer_for("burger-joint")
    assert render is not None
    state = game.new_game(2, seed=4)
    rng = random.Random(1)
    tallest = 0
    while state.acting:
        screen = io.StringIO()
        Console(file=screen, width=80, color_system=None).print(render(game.view(state, 0)))
        text = screen.getvalue()
        tallest = max(tallest, text.count("\n"))
        assert max(len(line) for line in text.splitlines()) <= 80
        seat = state.acting[0]
        game.step(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert tallest <= 16
