"""Every game plays to its end on an 80x24 terminal: each decision's screen fits without a
pager prompt, names are whole (nothing cut with "…" but a folded group's label), players by
name, and no letter codes or notation on the screen."""

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
from potluck.cli.menu import MoveMenu
from potluck.cli.play import PlaySession, parse_seats
from potluck.renderers.names import Namer

TABLES = [
    ("belle-of-the-ball", 5),
    ("belly-battle", 6),
    ("burger-joint", 2),
    ("cafe-carnage", 6),
    ("food-advice", 6),
]
PROMPT = "\x00PROMPT\x00"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
#: A seat by its number from 0 (the engine's words) left on a screen.
SEAT_NUMBER = re.compile(r"\b[Ss]eats? \d\b")


class Player:
    """Answers a session's prompts like a person: mostly a move by its number, sometimes a
    group's letter (then a move in it, or back), sometimes ``table``."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.screen = io.StringIO()
        self.prompts: list[str] = []

    def answer(self, text: str, **_: Any) -> str:
        self.screen.write(PROMPT)
        self.prompts.append(text)
        shown = ANSI.sub("", self.screen.getvalue().rsplit(PROMPT, 2)[-2])
        letters = re.findall(r"^ {3}([a-z])  ", shown, re.MULTILINE)
        numbers = re.findall(r"^ *(\d+)  ", shown, re.MULTILINE)
        roll = self.rng.random()
        if letters and roll < 0.3:
            return str(self.rng.choice(letters))
        if roll < 0.33:
            return "table"
        if numbers:
            return str(self.rng.choice(numbers))
        return ""  # back to every move


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_a_whole_game_fits_80_by_24_without_paging(
    game_id: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    person = Player(seed=len(game_id))
    console = Console(
        file=person.screen, width=80, height=24, force_terminal=True, color_system=None
    )
    monkeypatch.setattr(
        play_module, "typer", SimpleNamespace(prompt=person.answer, Abort=typer.Abort)
    )
    game = potluck.load_game(game_id)
    seats = parse_seats(game, ["you"] + ["greedy"] * (players - 1), seed=4)
    state = game.new_game(players, seed=4)
    assert PlaySession(game, seats, state, console).run()

    text = ANSI.sub("", person.screen.getvalue())
    assert not any("more lines" in prompt for prompt in person.prompts)
    decisions = 0
    for page, prompt in zip(text.split(PROMPT), person.prompts, strict=False):
        rules = [n for n, line in enumerate(page.split("\n")) if line.startswith("─")]
        if "your move" not in prompt.lower() or not rules:
            continue  # a hand-over, or the whole table the player asked for (never paged)
        # what the player reads at the prompt: from the screen's rule on (the bots' moves
        # printed before it scroll away; the screen repeats what matters)
        lines = page.split("\n")[rules[-1] :]
        while lines and not lines[-1]:
            lines.pop()
        screen = "\n".join(lines)
        decisions += 1
        assert len(lines) <= 23, f"a {game_id} screen is {len(lines)} lines:\n{screen}"
        assert all(len(line) <= 80 for line in lines)
        assert not SEAT_NUMBER.search(screen), screen
        body = re.sub(r"…\s*\(\d+\s+moves\)", "", screen)
        assert "…" not in body, f"something cut on a {game_id} screen:\n{screen}"
    assert decisions >= 5
    end = text.split("Game over", 1)[1]
    assert "Player" in end
    assert "You" in end
    assert not SEAT_NUMBER.search(end)
    # the end says who won once: the reason, with names
    reason = Namer([p.label for p in seats], 0).text(game.outcome(state).reason)
    assert " ".join(end.split()).count(" ".join(reason.split())) == 1


def test_burger_joint_shows_colours_by_name_not_letter_codes() -> None:
    from potluck.renderers import renderer_for

    game = potluck.load_game("burger-joint")
    render = renderer_for("burger-joint")
    assert render is not None
    state = game.new_game(2, seed=4)
    rng = random.Random(1)
    while state.acting:
        screen = io.StringIO()
        Console(file=screen, width=80, color_system=None).print(render(game.view(state, 0)))
        text = screen.getvalue()
        assert not re.search(r"\b(Bl|Br|W|Y|G|R)\b", text), text
        assert "swap-two" not in text
        assert "swap-one" not in text
        seat = state.acting[0]
        game.step(state, seat, rng.choice(game.legal_actions(state, seat)))


def test_the_menu_folds_moves_that_share_their_first_words_and_keeps_their_numbers() -> None:
    legal = ["pass"] + [f"offer card-{c} to {s}" for c in range(6) for s in range(1, 6)]
    menu = MoveMenu(legal, lambda a: a.replace("offer", "Offer").replace("card-", "Card "))
    top = menu.choices(range(len(legal)), lines=8, width=80)
    assert [c.key for c in top] == ["1", "a", "b", "c", "d", "e", "f"]
    assert top[1].text == "Offer Card 0 to … (5 moves)"
    inside = menu.choices(top[1].moves, lines=20, width=80, strip=True)
    assert [c.key for c in inside] == ["2", "3", "4", "5", "6"]  # numbers in the whole list
    assert inside[0].text == "1"  # under the group's title, what tells its moves apart
    every = menu.choices(range(len(legal)), lines=100, width=80)
    assert len(every) == len(legal)
