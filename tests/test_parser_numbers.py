"""The action parser is lenient with card names only, never with numbers: a seat number or
a position written with a sign or punctuation is refused, never read as another move."""

from __future__ import annotations

import random
import re

import pytest

import potluck
from potluck.engine.errors import InvalidActionError
from potluck.sim import lineup, play_game

MUTATIONS = ("-{n}", "+{n}", "{n}!", "({n})", "{n}.0", "#{n}")


def _states(game_id: str, players: int) -> list[object]:
    game = potluck.load_game(game_id)
    states = []
    for seed in range(3):
        record = play_game(
            game, players, list(lineup(["random"], players)), seed, keep_record=True
        ).record
        assert record is not None
        length = len(record["actions"])
        for upto in sorted({0, length // 4, length // 2, (3 * length) // 4}):
            states.append(game.replay(record, upto=upto))
    return states


@pytest.mark.parametrize(
    ("game_id", "players"),
    [
        ("cafe-carnage", 4),
        ("belly-battle", 4),
        ("belle-of-the-ball", 3),
        ("burger-joint", 2),
        ("food-advice", 4),
    ],
)
def test_numbers_with_signs_or_punctuation_are_refused(game_id: str, players: int) -> None:
    game = potluck.load_game(game_id)
    rng = random.Random(1)
    seen = 0
    for state in _states(game_id, players):
        checked = 0
        for seat in game.to_act(state):
            legal = game.legal_actions(state, seat)
            # numbers inside a product's free-text name or tagline are the player's own words
            texts = [str(a) for a in legal if re.search(r"\b\d+\b", str(a)) and '"' not in str(a)]
            for text in rng.sample(texts, min(len(texts), 6)):
                number = re.search(r"\b(\d+)\b", text)
                assert number is not None
                for mutation in MUTATIONS:
                    written = mutation.format(n=number.group(1))
                    bad = text[: number.start()] + written + text[number.end() :]
                    try:
                        parsed = game.parse_action(state, seat, bad)
                    except InvalidActionError:
                        checked += 1
                        continue
                    pytest.fail(f"{game_id}: {bad!r} was read as {parsed} (from {text!r})")
        seen += checked
    # Games whose actions carry numbers (seats, positions) had some to check.
    assert seen > 0 or game_id in ("cafe-carnage", "burger-joint")
