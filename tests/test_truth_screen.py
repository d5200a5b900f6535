"""The truth screen (examples/truth_screen.py): judging worlds keep the true hidden cards."""

from __future__ import annotations

import random

import potluck
from exampletest import load_example
from potluck.agents import decide, make_agent


def test_its_worlds_keep_every_hidden_card_and_show_the_seat_what_it_sees() -> None:
    game = potluck.load_game("food-advice")
    state = game.new_game(4, seed=5)
    greedy = make_agent(game, "greedy")
    for step in range(14):  # into the discards: seats 0-2 have kept their ingredients
        seat = game.to_act(state)[0]
        game.step(state, seat, decide(greedy, game, state, seat, random.Random(step)))
    worlds = load_example("truth_screen").TrueWorlds(game, state)
    for number in range(3):
        world = worlds.sample(random.Random(number))
        assert world.hands == state.hands
        assert (
            world.ing_deck[: len(state.ing_returned)] == state.ing_deck[: len(state.ing_returned)]
        )
        assert game.view(world, 3) == game.view(state, 3)
        assert game.invariants(world) == []


def test_the_same_bot_on_both_sides_never_differs() -> None:
    small = "improve:time=0,worlds=4,min_worlds=2,candidates=3"
    result = load_example("truth_screen").screen(1, small, small, seed=3, worlds=2)
    assert result["decisions"] > 0
    assert result["differ"] == 0
    assert result["versus_lead_a_game"] == [0.0, 0.0]
