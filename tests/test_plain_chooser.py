"""``PlainChooser`` (the dispatch of ``choose_plain`` settled once per bot) chooses what
``choose_plain`` chooses: every plain bot of every game, at every decision of whole games,
each path with its own bot and a generator in the same state."""

from __future__ import annotations

import random

import pytest

import potluck
from potluck.agents import agent_factories, is_search_bot, make_agent
from potluck.engine.bots import PlainChooser, choose_plain

PLAIN_BOTS = [
    (game_id, name)
    for game_id in potluck.list_games()
    for name in agent_factories(potluck.load_game(game_id))
    if not is_search_bot(make_agent(potluck.load_game(game_id), name))
]


@pytest.mark.parametrize(("game_id", "name"), PLAIN_BOTS)
def test_plain_chooser_chooses_as_choose_plain(game_id: str, name: str) -> None:
    game = potluck.load_game(game_id)
    decisions = 0
    for players in range(game.min_players, game.max_players + 1):
        seed = 400 + players
        state = game.new_game(players, seed)
        plain_bots = [make_agent(game, name) for _ in range(players)]
        choosers = [PlainChooser(make_agent(game, name), game) for _ in range(players)]
        plain_rngs = [random.Random(f"{seed}:{seat}") for seat in range(players)]
        chooser_rngs = [random.Random(f"{seed}:{seat}") for seat in range(players)]
        acting = game.to_act(state)
        while acting:
            seat = acting[0]
            chosen = choosers[seat](state, seat, chooser_rngs[seat])
            expected = choose_plain(plain_bots[seat], game, state, seat, plain_rngs[seat])
            assert chosen == expected, (game_id, name, players, decisions)
            assert chooser_rngs[seat].getstate() == plain_rngs[seat].getstate()
            game.step(state, seat, chosen)
            decisions += 1
            acting = game.to_act(state)
    assert decisions > 0


def test_plain_chooser_asks_the_random_bot_on_the_legal_list_alone() -> None:
    """The random bot reads no view and answers nothing early: it is asked on the legal
    list alone, as ``choose_plain`` asks it."""
    game = potluck.load_game("cafe-carnage")
    chooser = PlainChooser(make_agent(game, "random"), game)
    assert chooser.read is None
    assert chooser.early is None
