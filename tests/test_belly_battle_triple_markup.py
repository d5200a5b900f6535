"""Belly Battle's greedy weight ``triple_markup``, through a scenario: what the bot pays
for a card that completes three in a row. Greedy-only play never reaches it (greedy
bots never offer above a card's wealth), so the shared tests of every greedy weight
(test_greedy_weight_params.py) leave it to this one. Helpers: belly_battle_helpers.py."""

from __future__ import annotations

import random

import pytest

from belly_battle_helpers import GAME, REAL, card, give, play, table
from potluck.games.belly_battle import turn
from potluck.games.belly_battle.state import RESPOND


@pytest.mark.parametrize(
    ("percent", "spec", "answer"),
    [
        (150, "greedy", "accept"),
        (150, "greedy:triple_markup=1", "decline"),
        (200, "greedy", "decline"),
        (200, "greedy:triple_markup=2", "accept"),
    ],
)
def test_triple_markup_is_what_it_pays_for_a_card_completing_three_in_a_row(
    percent: int, spec: str, answer: str
) -> None:
    # Seat 1 owns both neighbours of Momo Mia: buying it makes three in a row.
    state = table(2)
    give(state, 0, "momo-mia")
    give(state, 1, "osteria-formaggio", "pasta-la-vista")
    turn.open_window(state)
    play(state, 0, f"offer momo-mia to 1 for {GAME.price[card('momo-mia')] * percent // 100}")
    assert state.phase == RESPOND
    bot = REAL.make_bot(spec)
    legal = GAME.legal_actions(state, 1)
    chosen = bot.choose(GAME, GAME.view(state, 1), 1, legal, random.Random(0))
    assert str(chosen) == answer
