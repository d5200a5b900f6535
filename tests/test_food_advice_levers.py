"""The FoodAdvice levers benchmark (examples/food_advice_levers.py): each lever plays
legally and does what it says."""

from __future__ import annotations

import random
from typing import Any

import pytest

import potluck
import potluck.judge
from exampletest import load_example
from potluck.agents import decide, make_agent
from potluck.games.food_advice.actions import DISCARD
from potluck.games.food_advice.state import KEEP
from potluck.search.information import InformationSet

SMALL = "improve:time=0,worlds=8,min_worlds=4"


def _at_keep(seed: int) -> tuple[Any, Any]:
    """A FoodAdvice game played by greedy bots up to the first round's discards."""
    game = potluck.load_game("food-advice")
    state = game.new_game(4, seed=seed)
    greedy = make_agent(game, "greedy")
    while state.phase != KEEP:
        seat = game.to_act(state)[0]
        game.step(state, seat, decide(greedy, game, state, seat, random.Random(seat)))
    return game, state


def test_the_oracle_draws_the_true_hidden_cards_and_only_the_future_anew() -> None:
    levers = load_example("food_advice_levers")
    game, state = _at_keep(3)
    truth = levers.TrueInformation(game, InformationSet(game, state, 1))
    for number in range(3):
        world = truth.sample(random.Random(number))
        assert world.hands == state.hands  # every seat's hand, not only seat 1's
        assert game.view(world, 1) == game.view(state, 1)
    plain: Any = InformationSet(game, state, 1).sample(random.Random(0))
    assert plain.hands != state.hands  # (the player's own worlds redeal the others)


def test_the_whole_keep_is_a_keep_of_the_hand_and_is_played_through() -> None:
    levers = load_example("food_advice_levers")
    game, state = _at_keep(4)
    seat = 2
    legal = game.legal_actions(state, seat)
    info = InformationSet(game, state, seat)
    chosen = levers.whole_keep(game, info, legal, game.kept, "test", batch=2, fresh=4)
    assert len(chosen) == len(legal) - game.kept
    assert all(a in legal and a.kind == DISCARD for a in chosen)
    assert chosen == levers.whole_keep(game, info, legal, game.kept, "test", batch=2, fresh=4)
    bot = levers.lever_bot("whole-keep", SMALL, batch=2, fresh=4)
    rng = random.Random(5)
    made = []
    while seat in state.acting:
        action = decide(bot, game, state, seat, rng)
        made.append(action.index)
        game.step(state, seat, action)
    assert len(made) == len(legal) - game.kept
    assert bot.plan == []  # the keep chosen at the first discard, followed to its end


def test_the_greedy_keep_is_what_the_greedy_bot_discards() -> None:
    levers = load_example("food_advice_levers")
    game, state = _at_keep(6)
    seat = 0
    greedy = make_agent(game, "greedy")
    info = InformationSet(game, state.clone(), seat)  # (the state plays on below)
    count = len(game.legal_actions(state, seat)) - game.kept
    bot = game.make_bot("greedy")
    expected = set()
    for _ in range(count):
        action = decide(greedy, game, state, seat, random.Random(0))
        expected.add(action.index)
        game.step(state, seat, action)
    assert levers._greedy_discards(game, bot, info, seat, count, "x") == expected


def test_a_point_weight_ranks_by_points_too_and_an_unknown_lever_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    levers = load_example("food_advice_levers")
    ranking = vars(potluck.judge)
    monkeypatch.setattr(potluck.judge, "_rank", ranking["_rank"])  # restored after
    levers.lever_bot("point-weight=0.01", SMALL)
    assert ranking["_rank"](1.0, 50.0) == pytest.approx(1.5)
    with pytest.raises(SystemExit, match="unknown lever"):
        levers.lever_bot("deeper", SMALL)
    with pytest.raises(SystemExit, match="improve spec"):
        levers.lever_bot("oracle", "greedy")
