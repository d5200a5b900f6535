"""Burger Joint, rulebook chapters 2 (Trading & Special Abilities) and 3 (Building):
the worked examples and one test per rule and ruling. Helpers: burger_joint_helpers.py.

Seat 0 plays Burger (and starts), seat 1 plays Pizza. Bistro slots on the
built-in boards: 1 redraw (2 VP), 2 swap-two (2 VP), 3 extra (1 VP),
4 swap-one (2 VP), 5 pick (0 VP), 6 no ability (3 VP).
"""

from __future__ import annotations

import random

import pytest

from burger_joint_helpers import (
    BURGER,
    PIZZA,
    board,
    c,
    empty_hands,
    game,
    give,
    held,
    texts,
    trading,
)
from potluck.engine.errors import OptionError
from potluck.games.burger_joint import BurgerJoint
from potluck.games.burger_joint.production import start_turn
from potluck.games.burger_joint.scoring import capacity, points, tokens_on_board
from potluck.games.burger_joint.state import BUILD, DRAFT, OVER, REDRAW, TRADE

__all__ = ["game"]  # the fixture, shared from burger_joint_helpers


# ---------------------------------------------------------------------- trading and abilities


def test_trade_three_for_one(game: BurgerJoint) -> None:
    state = trading(game)
    give(game, state, BURGER, white=3)
    assert "trade white for red" in texts(game, state, BURGER)
    game.step(state, BURGER, "trade white for red")
    assert held(game, state, BURGER) == {"red": 1}
    assert state.bag[c(game, "white")] == 10
    assert state.bag[c(game, "red")] == 9
    reason = game.explain(state, BURGER, "trade red for white")
    assert reason is not None
    assert "three red" in reason


def test_abilities_once_per_turn_in_any_order(game: BurgerJoint) -> None:
    state = trading(game)
    board(game, state, BURGER, diners=["black"], bistros=[3, 4, 5])
    give(game, state, BURGER, white=1)
    game.step(state, BURGER, "pick red")
    game.step(state, BURGER, "swap-one white for green")
    game.step(state, BURGER, "extra")
    assert sum(held(game, state, BURGER).values()) == 3
    reason = game.explain(state, BURGER, "pick red")
    assert reason is not None
    assert "once per turn" in reason
    # Abilities come back next turn.
    game.step(state, BURGER, "end")
    assert state.used == 0


def test_an_ability_needs_its_bistro(game: BurgerJoint) -> None:
    state = trading(game)
    reason = game.explain(state, BURGER, "extra")
    assert reason is not None
    assert "no upscale bistro" in reason


def test_swap_two_puts_two_cubes_back_for_one_of_any_colour(game: BurgerJoint) -> None:
    state = trading(game)
    board(game, state, BURGER, bistros=[2])
    give(game, state, BURGER, white=1, black=1)
    game.step(state, BURGER, "swap-two white black for red")
    assert held(game, state, BURGER) == {"red": 1}


def test_redraw_puts_any_number_back_and_draws_as_many(game: BurgerJoint) -> None:
    state = trading(game)
    board(game, state, BURGER, bistros=[1])
    give(game, state, BURGER, white=2, red=1)
    game.step(state, BURGER, "redraw")
    assert state.phase == REDRAW
    assert texts(game, state, BURGER) == [
        "put white",
        "put red",
        "draw",
    ]
    game.step(state, BURGER, "put white")
    game.step(state, BURGER, "put white")
    assert not game.invariants(state)
    game.step(state, BURGER, "draw")
    assert state.phase == TRADE
    assert sum(held(game, state, BURGER).values()) == 3
    assert "redraw" not in texts(game, state, BURGER)


def test_ruling_bj2_extra_cubes_go_to_storage_beyond_the_production_limit(
    game: BurgerJoint,
) -> None:
    state = game.new_game(2, seed=4)
    board(game, state, BURGER, diners=["black", "yellow", "white"], bistros=[3, 5])
    empty_hands(game, state)
    start_turn(game, state)
    while state.phase == DRAFT:
        seat = state.acting[0]
        game.step(state, seat, game.legal_actions(state, seat)[0])
    assert sum(held(game, state, BURGER).values()) == 4  # the production limit
    game.step(state, BURGER, "extra")
    game.step(state, BURGER, "pick white")
    assert sum(held(game, state, BURGER).values()) == 6  # beyond it, straight to storage


def test_ruling_bj8_trading_closes_once_building_starts(game: BurgerJoint) -> None:
    state = trading(game)
    board(game, state, BURGER, bistros=[3])
    give(game, state, BURGER, black=1, yellow=1, brown=1, white=3)
    game.step(state, BURGER, "basic")
    assert state.phase == BUILD
    for text in ("extra", "trade white for red"):
        reason = game.explain(state, BURGER, text)
        assert reason is not None
        assert "before building" in reason


# ---------------------------------------------------------------------- building


def test_basic_restaurants_fill_from_the_top_and_score_third_fifth_sixth(
    game: BurgerJoint,
) -> None:
    state = trading(game)
    values = []
    for count in range(7):
        board(game, state, BURGER, basics=count, diners=[], bistros=[])
        values.append(points(game, state, BURGER))
    assert values == [0, 0, 0, 1, 1, 2, 3]
    board(game, state, BURGER, basics=6)
    give(game, state, BURGER, black=1, yellow=1, brown=1)
    reason = game.explain(state, BURGER, "basic")
    assert reason is not None
    assert "Every space" in reason


def test_building_returns_the_cubes_to_the_bag(game: BurgerJoint) -> None:
    state = trading(game)
    give(game, state, BURGER, black=1, yellow=1, brown=1)
    game.step(state, BURGER, "basic")
    assert state.basics[BURGER] == 2
    assert held(game, state, BURGER) == {}
    assert sum(state.bag) == 60


def test_a_diner_upgrades_the_lowest_basic_restaurant(game: BurgerJoint) -> None:
    state = trading(game)
    board(game, state, BURGER, basics=3)
    give(game, state, BURGER, black=1, yellow=1, green=1, brown=1)
    before = points(game, state, BURGER)
    game.step(state, BURGER, "diner white")
    assert state.basics[BURGER] == 2
    # +1 for the diner, -1 for the third basic restaurant's space.
    assert points(game, state, BURGER) == before


def test_a_diner_needs_a_basic_restaurant_and_one_per_colour(game: BurgerJoint) -> None:
    state = trading(game)
    board(game, state, BURGER, basics=0)
    give(game, state, BURGER, black=1, yellow=1, green=1, brown=1, red=1)
    reason = game.explain(state, BURGER, "diner white")
    assert reason is not None
    assert "build a basic restaurant first" in reason
    board(game, state, BURGER, basics=1)
    reason = game.explain(state, BURGER, "diner black")
    assert reason is not None
    assert "one diner per specialty" in reason


def test_a_bistro_upgrades_any_diner_and_each_is_built_once(game: BurgerJoint) -> None:
    state = trading(game)
    give(game, state, BURGER, yellow=6, brown=6)
    game.step(state, BURGER, "bistro 6 from yellow")
    view = game.view(state, None)["players"][BURGER]
    assert view["diners"] == ["black"]
    assert view["bistros"] == [6]
    assert capacity(game, state, BURGER) == 2  # the token moved: capacity unchanged
    reason = game.explain(state, BURGER, "bistro 6 from black")
    assert reason is not None
    assert "each bistro once" in reason
    reason = game.explain(state, BURGER, "bistro 1 from white")
    assert reason is not None
    assert "no white diner" in reason


def test_ruling_bj6_a_diner_upgraded_to_a_bistro_may_be_rebuilt(game: BurgerJoint) -> None:
    state = trading(game)
    give(game, state, BURGER, yellow=6, brown=6)
    game.step(state, BURGER, "bistro 6 from yellow")
    give(game, state, BURGER, white=1, black=1, green=1, red=1)
    assert "diner yellow" in texts(game, state, BURGER)
    game.step(state, BURGER, "diner yellow")
    assert game.view(state, None)["players"][BURGER]["diners"] == ["black", "yellow"]


def test_first_publicity_steals_and_advances(game: BurgerJoint) -> None:
    state = trading(game)
    give(game, state, BURGER, white=1, red=1)
    give(game, state, PIZZA, green=2, black=1)
    legal = texts(game, state, BURGER)
    assert "publicity steal green and advance" in legal
    assert "publicity steal green" not in legal
    game.step(state, BURGER, "publicity steal green and advance")
    assert state.publicity[BURGER] == 1
    assert points(game, state, BURGER) == 3
    assert held(game, state, BURGER) == {"green": 1}
    assert held(game, state, PIZZA) == {"black": 1, "green": 1}


def test_later_publicity_in_the_same_turn_steals_or_advances(game: BurgerJoint) -> None:
    state = trading(game)
    give(game, state, BURGER, white=3, red=3)
    give(game, state, PIZZA, green=2)
    game.step(state, BURGER, "publicity steal green and advance")
    legal = texts(game, state, BURGER)
    assert "publicity steal green" in legal
    assert "publicity advance" in legal
    assert "publicity steal green and advance" not in legal
    game.step(state, BURGER, "publicity steal green")
    assert state.publicity[BURGER] == 1
    assert held(game, state, PIZZA) == {}
    game.step(state, BURGER, "publicity advance")
    assert state.publicity[BURGER] == 2


def test_ruling_bj10_the_turn_limit_is_an_option_that_human_tables_play_without(
    game: BurgerJoint,
) -> None:
    assert game.new_game(2, seed=1).options["turn_limit"] == 40
    state = trading(game, active=PIZZA, options={"turn_limit": 0})
    state.turn = 40
    game.step(state, PIZZA, "end")
    assert state.phase != OVER  # no limit: only the winning score ends the game
    state = trading(game, active=PIZZA, options={"turn_limit": 100})
    state.turn = 99
    game.step(state, PIZZA, "end")
    assert state.phase != OVER
    game.step(state, BURGER, game.legal_actions(state, BURGER)[0])
    for bad in (1, -1, 401):
        with pytest.raises(OptionError, match="'turn_limit' is 0"):
            game.new_game(2, seed=1, options={"turn_limit": bad})
    # A table with a person at it plays to the end unless its creator sets a limit.
    assert game.table_options({}, human_seat=True) == {"turn_limit": 0}
    assert game.table_options({"turn_limit": 60}, human_seat=True) == {"turn_limit": 60}
    assert game.table_options({}, human_seat=False) == {}


def test_ruling_bj10_a_capped_games_outcome_says_so(game: BurgerJoint) -> None:
    state = trading(game, active=PIZZA, options={"turn_limit": 12})
    state.turn = 12
    state.score = [5, 4]
    game.step(state, PIZZA, "end")
    record = game.record(state)
    assert record["options"]["turn_limit"] == 12
    assert "12 turns (the turn limit)" in record["outcome"]["reason"]
    assert game.metrics(state)["ended_by"] == "turn_limit"


def test_l231_the_first_publicity_names_the_advance_it_brings_ruling_bj15(
    game: BurgerJoint,
) -> None:
    """'When publicity is bought ... the player moves his publicity token down by one
    position'; the first one places the marker on the column's first space. Only the
    steal says "may" (BJ-7), so the advance is not optional (BJ-15)."""
    state = trading(game)
    give(game, state, BURGER, white=3, red=3)
    give(game, state, PIZZA, green=2)
    first_point = game.sides[BURGER].publicity_points[0]
    label = game.describe_action(
        state, BURGER, game.parse_action(state, BURGER, "publicity steal green and advance")
    )
    assert "steal a green cube" in label
    assert f"place your publicity marker on the column's first space ({first_point} VP)" in label
    reason = game.explain(state, BURGER, "publicity steal green")
    assert reason is not None
    assert "always moves the marker" in reason
    assert "first space" in reason
    game.step(state, BURGER, "publicity steal green and advance")
    second_point = game.sides[BURGER].publicity_points[1]
    advance = game.describe_action(
        state, BURGER, game.parse_action(state, BURGER, "publicity advance")
    )
    assert f"move your publicity marker down to space 2 ({second_point} VP)" in advance
    steal = game.describe_action(
        state, BURGER, game.parse_action(state, BURGER, "publicity steal green")
    )
    assert "the marker stays" in steal


def test_every_action_is_described_in_words(game: BurgerJoint) -> None:
    state = game.new_game(2, seed=3)
    rng = random.Random(3)
    while not game.is_over(state):
        seat = state.acting[0]
        legal = game.legal_actions(state, seat)
        for action in legal:
            label = game.describe_action(state, seat, action)
            assert label != action.text, label
            assert label[0].isupper(), label
        game.step(state, seat, rng.choice(legal))


def test_ruling_bj7_the_first_steal_may_be_declined(game: BurgerJoint) -> None:
    state = trading(game)
    give(game, state, BURGER, white=1, red=1)
    game.step(state, BURGER, "publicity advance")
    assert state.publicity[BURGER] == 1
    assert state.pub_buys == 1


def test_ruling_bj3_the_buyer_chooses_the_stolen_cube(game: BurgerJoint) -> None:
    state = trading(game)
    give(game, state, BURGER, white=1, red=1)
    give(game, state, PIZZA, green=3, brown=1)
    legal = texts(game, state, BURGER)
    assert "publicity steal brown and advance" in legal
    assert "publicity steal green and advance" in legal
    reason = game.explain(state, BURGER, "publicity steal red and advance")
    assert reason is not None
    assert "no red cube to steal" in reason


def test_no_publicity_past_the_bottom_of_the_column(game: BurgerJoint) -> None:
    state = trading(game)
    board(game, state, BURGER, publicity=len(game.sides[BURGER].publicity_points))
    give(game, state, BURGER, white=1, red=1)
    reason = game.explain(state, BURGER, "publicity advance")
    assert reason is not None
    assert "bottom of its column" in reason


def test_ruling_bj12_fifteen_tokens_per_side(game: BurgerJoint) -> None:
    state = trading(game)
    board(game, state, BURGER, basics=5, diners=list(game.colours), bistros=[1, 2, 3, 4])
    assert tokens_on_board(game, state, BURGER) == 15
    give(game, state, BURGER, black=1, yellow=1, brown=1)
    reason = game.explain(state, BURGER, "basic")
    assert reason is not None
    assert "15" in reason
