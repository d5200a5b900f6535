"""Players by name in the engine's sentences (``potluck.renderers.names``): the shared cases
(the browser's ``Potluck.namer`` is checked against the same file in
``tests/test_browser_words.py``), and every sentence of whole games of each game read by
each seat: no seat left as a number, "you" with its verb in the second person."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import potluck
from potluck.engine.errors import PotluckError
from potluck.renderers.names import Namer, join_names, plural, second_person

CASES = json.loads((Path(__file__).parent / "data" / "naming.json").read_text("utf-8"))["cases"]
GAMES = [
    ("belle-of-the-ball", 4),
    ("belly-battle", 4),
    ("burger-joint", 2),
    ("cafe-carnage", 5),
    ("food-advice", 4),
]
#: A seat still named by its number (a range such as "seats 0 to 3" names nobody).
NUMBERED = re.compile(r"\b[Ss]eats? \d+\b(?! ?(?:to|-) ?\d)")
#: "You" with a verb in the third person: "You buys", "You is", "you has".
WRONG_PERSON = re.compile(r"\b[Yy]ou (?:is|has|was|does|goes|[a-z]+[^s's]s)\b")


@pytest.mark.parametrize("case", CASES, ids=[c["text"][:40] for c in CASES])
def test_each_shared_case(case: dict[str, Any]) -> None:
    namer = Namer(case["names"], case["you"], your_bot=case["your_bot"])
    assert namer.text(case["text"]) == case["named"]


def test_helpers() -> None:
    assert [second_person(v) for v in ("buys", "passes", "is", "has", "tries", "went")] == [
        "buy",
        "pass",
        "are",
        "have",
        "try",
        "went",
    ]
    assert join_names(["Ann"]) == "Ann"
    assert join_names(["Ann", "Bob", "Cy"]) == "Ann, Bob and Cy"
    assert plural(1, "vote") == "1 vote"
    assert plural(0, "vote") == "0 votes"
    assert plural(2, "Belle") == "2 Belles"


def strings(value: Any) -> list[str]:
    """Every text in a view."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in strings(item)]
    if isinstance(value, list | tuple):
        return [text for item in value for text in strings(item)]
    return []


def sentences(game_id: str, players: int, seed: int) -> set[str]:
    """The engine's sentences along one game of random moves: the views' texts, every legal
    move's description, why a few other moves are not possible, and the outcome's reason."""
    game = potluck.load_game(game_id)
    state = game.new_game(players, seed)
    rng = random.Random(seed)
    found: set[str] = set()
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        found.update(game.describe_action(state, seat, action) for action in legal)
        found.update(s for s in strings(game.view(state, seat)) if " " in s)
        other = (seat + 1) % players
        for action in rng.sample(legal, min(3, len(legal))):
            try:
                reason = game.explain(state, other, action)
            except PotluckError:
                continue
            if reason:
                found.add(reason)
        game.step(state, seat, rng.choice(legal))
    found.add(game.outcome(state).reason)
    found.update(s for s in strings(game.view(state, 0)) if " " in s)
    return found


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_every_sentence_of_a_whole_game_names_its_seats(game_id: str, players: int) -> None:
    names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][:players]
    texts = sentences(game_id, players, seed=3)
    problems = []
    for you in (None, *range(players)):
        namer = Namer(names, you)
        for text in texts:
            named = namer.text(text)
            if NUMBERED.search(named) and "at this table" not in named:
                problems.append(f"a seat by number: {named!r} (from {text!r})")
            if WRONG_PERSON.search(named):
                problems.append(f"'you' in the third person: {named!r} (from {text!r})")
    assert problems == []
