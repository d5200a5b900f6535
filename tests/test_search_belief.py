"""``improve:belief=greedy``: worlds kept from the seat's last decision, played on with
greedy other seats and kept where they show the seat its real view
(``potluck.search.belief``). Legal in every game, reproducible, consistent with what
the seat sees, blind to what it cannot see."""

from __future__ import annotations

import random
from typing import Any

import pytest

import potluck
from potluck.agents import InformationSet, decide, make_agent
from potluck.engine.game import Game
from potluck.search.belief import GreedyBelief, ParticleInformation
from potluck.search.improve import PolicyImprovementBot
from potluck.sim import play_game
from potluck.testing import USUAL_TABLES

#: Reproducible and quick: worlds alone bound it.
BELIEF = "improve:belief=greedy,particles=8,time=0,worlds=2,min_worlds=1,candidates=3"


def _spec(game_id: str) -> str:
    return BELIEF + (",depth=8" if game_id == "cafe-carnage" else "")


@pytest.mark.parametrize(("game_id", "players"), USUAL_TABLES)
def test_it_plays_legal_moves_to_the_end_of_a_game(game_id: str, players: int) -> None:
    game = potluck.load_game(game_id)
    others = ["greedy"] * (players - 1)
    result = play_game(game, players, [_spec(game_id), *others], seed=11)
    assert result.outcome.winners


def test_a_whole_game_is_the_same_from_the_same_seeds() -> None:
    game = potluck.load_game("food-advice")
    seats = [_spec("food-advice"), "greedy", "greedy", "greedy"]
    first = play_game(game, 4, seats, seed=5, keep_record=True)
    second = play_game(game, 4, seats, seed=5, keep_record=True)
    assert first.record is not None
    assert first.record == second.record


def _to_seat_three_discarding(seed: int) -> tuple[Game[Any, Any], Any, GreedyBelief]:
    """FoodAdvice, four greedy seats, until seat 3's first discard, a belief kept for
    seat 3 from its exchange decision on."""
    game = potluck.load_game("food-advice")
    greedy = make_agent(game, "greedy")
    belief = GreedyBelief(game, particles=16)
    state = game.new_game(4, seed=seed)
    while True:
        seat = game.to_act(state)[0]
        action = decide(greedy, game, state, seat, random.Random(seed))
        if seat == 3:
            if str(action).startswith("discard"):
                return game, state, belief
            belief.remember(InformationSet(game, state, 3), action, "test")
        game.step(state, seat, action)


def test_kept_worlds_show_the_seat_its_real_view() -> None:
    """At seat 3's first discard (the seats before it have kept their three ingredients,
    sealed) the worlds kept since its exchange decision, played on by greedy seats,
    show it what it really sees, and the decision draws from them."""
    game, state, belief = _to_seat_three_discarding(seed=21)
    info = belief.information(InformationSet(game, state, 3), "test")
    assert isinstance(info, ParticleInformation)
    assert info.particles == belief.last_kept[0] >= belief.least
    for number in range(4):
        world = info.sample(random.Random(number))
        assert game.view(world, 3) == game.view(state, 3)


def test_what_the_seat_cannot_see_does_not_change_its_worlds() -> None:
    """The true state and one redealt for seat 3 (the other hands, seat 0's sealed
    discards among them, drawn anew) give seat 3 the very same worlds."""
    game, state, belief = _to_seat_three_discarding(seed=21)
    redealt = game.redeal(state, 3, random.Random(5))
    assert redealt.hands[0] != state.hands[0]
    drawn = []
    for true_or_not in (state, redealt):
        info = belief.information(InformationSet(game, true_or_not, 3), "same")
        drawn.append([game.to_json(info.sample(random.Random(k))) for k in range(3)])
    assert drawn[0] == drawn[1]


def test_a_seat_that_does_not_play_greedily_leaves_the_information_set_as_it_is() -> None:
    """Where no kept world reproduces the seat's view, the decision draws as before."""
    game = potluck.load_game("food-advice")
    belief = GreedyBelief(game, particles=4)
    state = game.new_game(4, seed=2)
    info = InformationSet(game, state, 0)
    assert belief.information(info, "first") is info  # nothing kept yet
    bot = make_agent(game, _spec("food-advice"))
    assert isinstance(bot, PolicyImprovementBot)
    assert bot.belief == "greedy"
