"""The truth screen (examples/truth_screen.py): judging worlds keep the true hidden cards."""

from __future__ import annotations

import random
from importlib import resources
from pathlib import Path

import pytest

import potluck
from exampletest import load_example
from potluck.agents import decide, make_agent
from potluck.engine.errors import DataError


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


def test_the_versus_bot_reads_its_own_model_file(tmp_path: Path) -> None:
    """``--versus-model``: the versus bot's cut playouts scored by a model file; the
    shipped model's own file plays as the shipped model, and a file for another game
    is refused."""
    small = "improve:time=0,worlds=4,min_worlds=2,candidates=3,depth=10,cutoff=model"
    shipped = resources.files("potluck.search.models").joinpath("food-advice-4p.json")
    copy = tmp_path / "copy.json"
    copy.write_text(shipped.read_text())
    screen = load_example("truth_screen").screen
    result = screen(1, small, small, seed=3, worlds=2, versus_model=copy)
    assert result["versus_model"] == str(copy)
    assert result["decisions"] > 0
    assert result["differ"] == 0
    other = tmp_path / "other.json"
    other.write_text(
        resources.files("potluck.search.models").joinpath("burger-joint-2p.json").read_text()
    )
    with pytest.raises(DataError, match="burger-joint"):
        screen(1, small, small, seed=3, worlds=2, versus_model=other)
