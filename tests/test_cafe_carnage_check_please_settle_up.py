"""Café Carnage, the rulebook's steps 4 and 5 (*Check, Please!* and *Settle Up*, with
its IOUs): one test per rule and ruling (the RULINGS table of docs/games/cafe-carnage.md
names them).
"""

from __future__ import annotations

import random

from cafe_carnage_helpers import game, order_round, vote
from potluck.games.cafe_carnage import CafeCarnage, caught_runners

__all__ = ["game"]  # the fixture, shared from cafe_carnage_helpers

# ---------------------------------------------------------------------- check, please!


def test_caught_runners_table() -> None:
    costs = [9, 8, 8, 4, 3, 7]
    assert caught_runners([], costs) == []
    assert caught_runners([3], costs) == []  # a lone runner always escapes
    assert caught_runners([0, 3], costs) == [0]  # 2-4 runners: the dearest is caught
    assert caught_runners([1, 2, 3], costs) == [1, 2]  # a tie for dearest: all caught
    assert caught_runners([1, 2], costs) == []  # all the same cost: all escape
    assert caught_runners([0, 1, 3, 4, 5], costs) == [0, 1]  # 5 runners: the two dearest
    assert caught_runners([0, 1, 2, 3, 4], costs) == [0, 1, 2]  # ruling CC-3: tie for 2nd


def test_caught_runners_split_all_runners_meals_rounded_up(game: CafeCarnage) -> None:
    state = game.new_game(6, seed=9)
    meals = {
        0: ("seafood-tempura", "soton-game-jam-burger", "raspberry-cheesecake"),  # 12
        1: ("smoked-ham", "soton-game-jam-burger", "neapolitan-cake"),  # 12
        2: ("tomato-soup", "masala-omelette", "coffee-espresso"),  # 4
        3: ("tomato-soup", "masala-omelette", "fruit-salad"),  # 4
        4: ("spring-rolls", "vegetable-tacos", "fruit-salad"),  # 4
    }
    order_round(game, state, meals)
    vote(game, state, {0: "run", 1: "run", 2: "run", 3: "run", 4: "run", 5: "split"})
    record = state.log[0]
    assert record.caught == (0, 1)
    assert record.runners_bill == 12 + 12 + 4 + 4 + 4
    assert record.paid[0] == record.paid[1] == 18  # 36 / 2
    assert state.hands[2] == 1
    assert state.hands[5] == 1
    assert all(state.fled[s] for s in (2, 3, 4))


def test_rounding_up_leaves_a_tip(game: CafeCarnage) -> None:
    state = game.new_game(5, seed=10)
    meals = {
        0: ("smoked-ham", "soton-game-jam-burger", "neapolitan-cake"),  # 12
        1: ("smoked-ham", "soton-game-jam-burger", "neapolitan-cake"),  # 12
        2: ("tomato-soup", "masala-omelette", "coffee-espresso"),  # 4
        3: ("spring-rolls", "vegetable-tacos", "banana-split"),  # 5
    }
    order_round(game, state, meals)
    vote(game, state, {0: "run", 1: "run", 2: "run", 3: "run", 4: "separately"})
    record = state.log[0]
    assert record.caught == (0, 1)
    assert record.runners_bill == 33
    assert record.paid[0] == record.paid[1] == 17  # 16.5 rounded up; $1 goes to the tip jar


# ---------------------------------------------------------------------- settle up


def test_split_majority_shares_every_unpaid_meal_including_escaped_runners(
    game: CafeCarnage,
) -> None:
    state = game.new_game(4, seed=11)
    meals = {
        0: ("tomato-soup", "masala-omelette", "coffee-espresso"),  # 4
        1: ("smoked-ham", "buffalo-steak", "neapolitan-cake"),  # 11, runs alone
        2: ("spring-rolls", "vegetable-tacos", "banana-split"),  # 5
        3: ("vegetable-samosas", "butternut-squash-pie", "sweet-plum-roulade"),  # 7
    }
    order_round(game, state, meals)
    vote(game, state, {0: "split", 1: "run", 2: "split", 3: "separately"})
    record = state.log[0]
    assert record.caught == ()
    assert record.method == 0  # split
    share = -(-(4 + 11 + 5 + 7) // 3)  # 27 / 3 = 9
    assert [record.paid[s] for s in (0, 2, 3)] == [share] * 3
    assert record.paid[1] == 0


def test_separate_bills_leave_an_escaped_runners_meal_to_the_restaurant(game: CafeCarnage) -> None:
    state = game.new_game(4, seed=12)
    order_round(game, state, {})
    costs = [sum(game.value_of[d] for d in state.orders[3 * s : 3 * s + 3]) for s in range(4)]
    vote(game, state, {0: "run", 1: "separately", 2: "separately", 3: "split"})
    record = state.log[0]
    assert record.paid == (0, costs[1], costs[2], costs[3])


def test_a_split_share_is_rounded_up(game: CafeCarnage) -> None:
    state = game.new_game(4, seed=13)
    meals = {
        0: ("tomato-soup", "masala-omelette", "coffee-espresso"),  # 4
        1: ("tomato-soup", "masala-omelette", "coffee-espresso"),  # 4
        2: ("tomato-soup", "masala-omelette", "coffee-espresso"),  # 4
        3: ("tomato-soup", "masala-omelette", "banana-split"),  # 5
    }
    order_round(game, state, meals)
    vote(game, state, {0: "split", 1: "split", 2: "split", 3: "split"})
    assert state.log[0].paid == (5, 5, 5, 5)  # 17 / 4 = 4.25, rounded up


def test_everyone_running_leaves_nobody_to_settle_up(game: CafeCarnage) -> None:
    state = game.new_game(4, seed=14)
    meals = dict.fromkeys(range(4), ("tomato-soup", "masala-omelette", "coffee-espresso"))
    order_round(game, state, meals)
    vote(game, state, dict.fromkeys(range(4), "run"))
    record = state.log[0]
    assert record.caught == ()
    assert record.method == -1
    assert state.money == [30] * 4


# ---------------------------------------------------------------------- IOUs


def test_points_below_zero_after_loans_stay_within_the_observation_bounds(
    game: CafeCarnage,
) -> None:
    """Loans cost points, so a player low on points goes below zero (ruling CC-8); the
    observation vector's declared range must hold them (PettingZoo's api_test found a
    6-player game, dealt from seed 212, where a seat reached -3 against a range of 0..60)."""
    state, rng = game.new_game(6, 212), random.Random(212)
    encoding = game.observation_encoding(6)
    lowest = 0
    while game.to_act(state):
        for seat in range(6):
            assert encoding.problems(game.encode_observation(state, seat, encoding)) == []
        lowest = min(lowest, *state.points)
        seat = game.to_act(state)[0]
        game.step(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert lowest < 0


def test_iou_loans_repeat_until_the_bill_is_paid_with_one_token(game: CafeCarnage) -> None:
    state = game.new_game(4, seed=15)
    meals = {0: ("smoked-ham", "soton-game-jam-burger", "neapolitan-cake")}  # 12
    order_round(game, state, meals)
    state.money[0] = 1
    vote(game, state, {0: "separately", 1: "separately", 2: "separately", 3: "split"})
    assert state.log[0].loans[0] == 3  # short $11: three $5 loans
    assert state.money[0] == 1 + 15 - 12
    assert state.points[0] == 12 - 15
    assert state.iou[0]
