"""Café Carnage: the rulebook's worked examples and one test per rule and ruling, for
*Setup*, steps 1 to 3 (*Take Orders*, *Secret Ballot*, *Dinner is Served*), the *End of
the Game*, the *Advanced Variant*, hidden information and the dish data. Steps 4 and 5
(*Check, Please!*, *Settle Up* and IOUs) are in test_cafe_carnage_check_please_settle_up.py.

Seats in the rulebook's examples: Francois 0, Kwame 1, Alice 2, Meera 3.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

import potluck
from cafe_carnage_helpers import (
    ALICE,
    ALICE_MEAL,
    EXAMPLE_CARDS,
    EXAMPLE_MEALS,
    FRANCOIS,
    FRANCOIS_MEAL,
    KWAME,
    KWAME_MEAL,
    MEERA,
    MEERA_MEAL,
    force_menu,
    game,
    meal_cost,
    order_round,
    vote,
)
from potluck.games.cafe_carnage import CafeCarnage, CafeState
from potluck.games.cafe_carnage.round import derive_choices
from potluck.games.cafe_carnage.state import BALLOT, DESSERT, MAIN, OVER, STARTER, STARTING_HAND

__all__ = ["game"]  # the fixture, shared from cafe_carnage_helpers

# ---------------------------------------------------------------------- worked examples


def test_example_meals_cost_what_the_rulebook_says(game: CafeCarnage) -> None:
    assert meal_cost(game, ALICE_MEAL) == 7
    assert meal_cost(game, KWAME_MEAL) == 6
    assert meal_cost(game, FRANCOIS_MEAL) == 5
    assert meal_cost(game, MEERA_MEAL) == 8


def test_dinner_is_served_alice_gains_7_points(game: CafeCarnage) -> None:
    """Step 3 example: Samosas, Butternut Squash Pie and Sweet Plum Roulade give Alice +7."""
    state = game.new_game(4, seed=1)
    order_round(game, state, {ALICE: ALICE_MEAL})
    vote(game, state, {0: "separately", 1: "separately", 2: "separately", 3: "separately"})
    assert state.points[ALICE] == 7
    assert state.log[0].scored[ALICE] == 7


def test_check_please_alice_caught_paying_for_kwame(game: CafeCarnage) -> None:
    """Step 4 example: Alice (7) and Kwame (6) run; one guard catches Alice, who pays $13."""
    state = game.new_game(4, seed=2)
    assert game.guards(4) == 1
    order_round(game, state, EXAMPLE_MEALS)
    vote(game, state, EXAMPLE_CARDS)
    record = state.log[0]
    assert record.runners == (KWAME, ALICE)
    assert record.caught == (ALICE,)
    assert record.runners_bill == 13
    assert record.paid[ALICE] == 13
    assert state.money[ALICE] == 30 - 13
    assert record.paid[KWAME] == 0
    assert state.money[KWAME] == 30
    # Kwame discards her Run! card for good; Alice takes hers back.
    assert state.fled[KWAME]
    assert state.hands[3 * KWAME + 2] == 0
    assert not state.fled[ALICE]
    assert state.hands[3 * ALICE + 2] == 1


def test_settle_up_francois_and_meera_pay_separately_on_a_tied_ballot(game: CafeCarnage) -> None:
    """Step 5 example: one Split and one Separately is a tie, so each pays their own meal."""
    state = game.new_game(4, seed=2)
    order_round(game, state, EXAMPLE_MEALS)
    vote(game, state, EXAMPLE_CARDS)
    record = state.log[0]
    assert (record.split_votes, record.separately_votes) == (1, 1)
    assert record.method == 1  # separately
    assert record.paid[FRANCOIS] == 5
    assert record.paid[MEERA] == 8


def test_ious_meera_takes_an_iou_with_7_dollars_left(game: CafeCarnage) -> None:
    """IOU example, in a mid-game state (ruling CC-5): Meera owes $8 with $7 left."""
    state = game.new_game(4, seed=2)
    order_round(game, state, EXAMPLE_MEALS)
    state.money[MEERA] = 7
    vote(game, state, EXAMPLE_CARDS)
    assert state.iou[MEERA]
    assert state.log[0].loans[MEERA] == 1
    assert state.money[MEERA] == 7 + 5 - 8
    assert state.points[MEERA] == 8 - 5  # her meal's 8 points, then 5 spaces back


# ---------------------------------------------------------------------- setup


def test_setup_example_four_friends_one_guard_on_duty(game: CafeCarnage) -> None:
    """Setup example: Alice, Francois, Meera and Kwame take $30 and a full hand; one guard."""
    state = game.new_game(4, seed=0)
    view = game.view(state, ALICE)
    assert view["guards"] == 1
    assert [p["money"] for p in view["players"]] == [30] * 4
    assert [p["points"] for p in view["players"]] == [0] * 4
    assert view["you"]["hand"] == {"split": 2, "separately": 2, "run": 1}
    assert all(p["hand_size"] == 5 for p in view["players"])


def test_setup_budget_hand_and_menus(game: CafeCarnage) -> None:
    state = game.new_game(5, seed=3)
    assert state.money == [30] * 5
    assert state.hands == [2, 2, 1] * 5
    assert all(len(menu) == 3 for menu in state.menus)
    assert game.to_act(state) == (0, 1, 2, 3, 4)
    assert {len(d) for d in game.full_decks} == {35}


def test_player_counts_are_four_to_six(game: CafeCarnage) -> None:
    for n in (4, 5, 6):
        game.new_game(n)
    for n in (3, 7):
        with pytest.raises(potluck.PotluckError, match="4 to 6 players"):
            game.new_game(n)


def test_l15_the_asterisk_in_4_6_players_keeps_the_game_at_four_to_six(game: CafeCarnage) -> None:
    """Ruling CC-14: "4-6*" has no footnote; the action cards make exactly six hands."""
    split, separately, run = 12, 12, 6  # the components list's action cards
    hands = {split // STARTING_HAND[0], separately // STARTING_HAND[1], run // STARTING_HAND[2]}
    assert hands == {game.max_players} == {6}
    assert game.min_players == 4
    for n in (3, 7, 8):  # eight player tokens do not make eight seats
        with pytest.raises(potluck.PotluckError, match="4 to 6 players"):
            game.new_game(n)


def test_guards_on_duty_by_player_count(game: CafeCarnage) -> None:
    assert [game.guards(n) for n in (4, 5, 6)] == [1, 2, 2]


# ---------------------------------------------------------------------- take orders


def test_orders_are_sealed_and_simultaneous(game: CafeCarnage) -> None:
    state = game.new_game(4, seed=4)
    game.step(state, 2, game.legal_actions(state, 2)[0])
    assert game.to_act(state) == (0, 1, 3)
    for seat in (0, 1, 3):
        assert game.view(state, seat)["you"]["order"]["starter"] is None
    spectator = json.dumps(game.view(state, None))
    assert game.legal_actions(state, 2) == []
    with pytest.raises(potluck.NotYourTurnError, match="has ordered a starter"):
        game.step(state, 2, game.legal_actions(state, 0)[0])
    assert "waiting_for" in spectator


def test_courses_are_dealt_one_after_another(game: CafeCarnage) -> None:
    state = game.new_game(4, seed=5)
    for course in (STARTER, MAIN, DESSERT):
        assert state.phase == course
        assert all(game.course_of[d] == course for menu in state.menus for d in menu)
        for seat in range(4):
            game.step(state, seat, game.legal_actions(state, seat)[0])
    assert state.phase == BALLOT


def test_a_dish_off_the_menu_is_refused_with_the_menu(game: CafeCarnage) -> None:
    state = game.new_game(4, seed=6)
    menu = {game.dish_slugs[d] for d in state.menus[0]}
    other = next(
        slug
        for slug, c in zip(game.dish_slugs, game.course_of, strict=True)
        if c == 0 and slug not in menu
    )
    reason = game.explain(state, 0, other)
    assert reason is not None
    assert "is not on your starter menu" in reason
    before = game.to_json(state)
    with pytest.raises(potluck.IllegalActionError) as error:
        game.step(state, 0, other)
    assert error.value.reason == reason
    assert game.to_json(state) == before
    main = next(slug for slug, c in zip(game.dish_slugs, game.course_of, strict=True) if c == 1)
    assert "you are choosing a starter now" in (game.explain(state, 0, main) or "")
    assert "choose a starter" in (game.explain(state, 0, "split") or "")


def test_unparsable_text_is_an_invalid_action(game: CafeCarnage) -> None:
    state = game.new_game(4, seed=6)
    with pytest.raises(potluck.InvalidActionError, match="not a Café Carnage action"):
        game.parse_action(state, 0, "a pint of ale")


def test_dish_names_parse_in_any_case(game: CafeCarnage) -> None:
    state = game.new_game(4, seed=6)
    assert str(game.parse_action(state, 0, "Rhubarb & Apple Pie")) == "rhubarb-and-apple-pie"
    assert str(game.parse_action(state, 0, "  Crème Chocolate ")) == "creme-chocolate"
    assert str(game.parse_action(state, 0, "Each Pay Separately")) == "separately"


# ---------------------------------------------------------------------- secret ballot


def test_ballot_cards_come_from_the_hand(game: CafeCarnage) -> None:
    state = game.new_game(4, seed=7)
    order_round(game, state, {})
    assert [str(a) for a in game.legal_actions(state, 0)] == ["split", "separately", "run"]
    state.hands[0:3] = [0, 2, 1]
    derive_choices(game, state)
    assert "played both" in (game.explain(state, 0, "split") or "")


def test_a_runner_who_got_away_has_no_run_card_left(game: CafeCarnage) -> None:
    state = game.new_game(4, seed=8)
    order_round(game, state, {})
    vote(game, state, {0: "run", 1: "split", 2: "split", 3: "separately"})
    assert state.fled[0]
    order_round(game, state, {})
    assert "run" not in [str(a) for a in game.legal_actions(state, 0)]
    assert "got away" in (game.explain(state, 0, "run") or "")


# ---------------------------------------------------------------------- the end


def play_out(game: CafeCarnage, state: CafeState, seed: int = 0) -> None:
    rng = random.Random(seed)
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        game.step(state, seat, rng.choice(actions))


def test_five_rounds_then_the_game_ends(game: CafeCarnage) -> None:
    state = game.new_game(4, seed=16)
    play_out(game, state)
    assert state.phase == OVER
    assert len(state.log) == 5
    assert game.to_act(state) == ()
    assert len(state.history) == game.max_steps(4)


def test_end_bonus_only_without_an_iou(game: CafeCarnage) -> None:
    state = game.new_game(4, seed=17)
    play_out(game, state)
    state.points[:] = [20, 20, 20, 20]
    state.money[:] = [5, 5, 0, 9]
    state.iou[:] = [False, True, False, True]
    assert game.final_scores(state) == [25, 20, 20, 20]


def test_tie_breaks_on_money_then_a_shared_win(game: CafeCarnage) -> None:
    state = game.new_game(4, seed=18)
    play_out(game, state)
    state.iou[:] = [True] * 4
    state.points[:] = [30, 30, 28, 30]
    state.money[:] = [2, 4, 9, 4]
    outcome = game.outcome(state)
    assert outcome.winners == (1, 3)
    assert outcome.ranking[:2] == (1, 3)
    assert outcome.places == (3, 1, 4, 1)
    assert "share the win" in outcome.reason
    state.money[3] = 3
    assert game.outcome(state).winners == (1,)


def test_outcome_before_the_end_is_an_error(game: CafeCarnage) -> None:
    with pytest.raises(potluck.PotluckError, match="not over"):
        game.outcome(game.new_game(4))


# ---------------------------------------------------------------------- advanced variant


def test_no_repeat_dishes_refuses_a_dish_eaten_earlier_in_the_week(game: CafeCarnage) -> None:
    state = game.new_game(4, seed=19, options={"no_repeat_dishes": True})
    meals = {0: ("tomato-soup", "masala-omelette", "coffee-espresso")}
    order_round(game, state, meals)
    vote(game, state, {0: "separately", 1: "separately", 2: "separately", 3: "split"})
    force_menu(game, state, 0, ["tomato-soup", "spring-rolls", "spring-rolls"])
    assert [str(a) for a in game.legal_actions(state, 0)] == ["spring-rolls"]
    assert "no dish twice a week" in (game.explain(state, 0, "tomato-soup") or "")


def test_a_forced_repeat_is_paid_but_scores_nothing(game: CafeCarnage) -> None:
    state = game.new_game(4, seed=20, options={"no_repeat_dishes": True})
    meal = ("tomato-soup", "masala-omelette", "coffee-espresso")
    order_round(game, state, {0: meal})
    vote(game, state, {0: "separately", 1: "separately", 2: "separately", 3: "split"})
    force_menu(game, state, 0, ["tomato-soup"] * 3)
    assert [str(a) for a in game.legal_actions(state, 0)] == ["tomato-soup"]
    order_round(game, state, {0: ("tomato-soup", "vegetable-tacos", "fruit-salad")})
    money = state.money[0]
    vote(game, state, {0: "separately", 1: "separately", 2: "separately", 3: "split"})
    assert state.log[1].scored[0] == 2 + 1  # tacos and fruit salad; the soup scores 0
    assert money - state.money[0] == 1 + 2 + 1  # but all three are paid


def test_the_base_game_lets_a_dish_be_eaten_twice(game: CafeCarnage) -> None:
    state = game.new_game(4, seed=21)
    meal = ("tomato-soup", "masala-omelette", "coffee-espresso")
    order_round(game, state, {0: meal})
    vote(game, state, {0: "separately", 1: "separately", 2: "separately", 3: "split"})
    order_round(game, state, {0: meal})
    vote(game, state, {0: "separately", 1: "separately", 2: "separately", 3: "split"})
    assert state.log[1].scored[0] == 4


# ---------------------------------------------------------------------- decks


def test_decks_running_dry_reshuffle_the_eaten_dishes(game: CafeCarnage) -> None:
    """Ruling CC-4: with six players a course deck runs dry in round 4."""
    state = game.new_game(6, seed=22)
    for card in ("separately", "split", "separately"):
        order_round(game, state, {})
        vote(game, state, dict.fromkeys(range(6), card))
    assert state.round == 3
    assert all(len(menu) == 3 for menu in state.menus)
    assert not game.invariants(state)
    assert len(state.consumed[STARTER]) == 0  # 35 - 18 = 17 < 18: the eaten 18 came back


# ---------------------------------------------------------------------- hidden information


def test_votes_of_the_stayers_are_anonymous(game: CafeCarnage) -> None:
    state = game.new_game(4, seed=2)
    order_round(game, state, EXAMPLE_MEALS)
    vote(game, state, EXAMPLE_CARDS)
    spectator = game.view(state, None)["log"][0]
    assert spectator["votes"] == {"split": 1, "separately": 1}
    assert "your_card" not in spectator
    assert game.view(state, FRANCOIS)["log"][0]["your_card"] == "split"
    assert game.view(state, MEERA)["log"][0]["your_card"] == "separately"


def test_views_show_only_the_seats_own_menu_and_hand(game: CafeCarnage) -> None:
    state = game.new_game(4, seed=23)
    view = game.view(state, 1)
    assert len(view["you"]["menu"]) == 3
    assert "you" not in game.view(state, None)
    text = json.dumps(game.view(state, None))
    assert "menu" not in text
    assert "rng" not in text


def test_past_nights_in_views_are_shared_read_only_and_copies_are_plain(game: CafeCarnage) -> None:
    state = game.new_game(4, seed=23)
    while not state.log:
        for seat in state.acting:
            game.step(state, seat, game.legal_actions(state, seat)[0])
    first, again = game.view(state, 1), game.view(state, 1)
    assert first["log"][0] is again["log"][0]  # built once for the seat
    assert first["log"][0] is not game.view(state, 2)["log"][0]  # each seat its own
    with pytest.raises(TypeError, match="copy"):
        first["log"][0]["paid"].append(1)
    with pytest.raises(TypeError, match="copy"):
        first["log"][0]["meals"][0]["dishes"][0]["value"] = 0
    mine = copy.deepcopy(first)
    mine["log"][0]["paid"].append(1)
    mine["log"][0]["meals"][0]["dishes"][0]["value"] = 0
    assert mine != first
    assert game.view(state, 1) == first
    first["you"]["menu"][0]["value"] = 0  # the seat's own part of a view is its own
    assert game.view(state, 1)["you"]["menu"][0]["value"] != 0


# ---------------------------------------------------------------------- data


def test_a_users_dish_file_loads_through_the_same_schema(tmp_path: Path) -> None:
    lines = ["[table]", "budget = 40", ""]
    for course in ("starter", "main", "dessert"):
        for i in range(6):
            lines += [
                f"[[{course}]]",
                f'name = "{course.title()} {i}"',
                f"value = {i + 1}",
                "copies = 3",
                "",
            ]
    path = tmp_path / "my-dishes.toml"
    path.write_text("\n".join(lines))
    custom = potluck.load_game("cafe-carnage", data=path)
    state = custom.new_game(4, seed=1)
    assert state.money == [40] * 4
    assert custom.data_source == str(path)
    assert custom.record(state)["data"] == str(path)


def test_a_broken_dish_file_says_what_is_wrong(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[[starter]]\nname = "Soup"\nvalue = -1\ncopies = 30\n')
    with pytest.raises(potluck.DataError, match=r"starter\.0\.value"):
        potluck.load_game("cafe-carnage", data=path)
    path.write_text(
        '[[starter]]\nname = "Soup"\nvalue = 1\ncopies = 3\n'
        '[[main]]\nname = "Pie"\nvalue = 1\ncopies = 30\n'
        '[[dessert]]\nname = "Cake"\nvalue = 1\ncopies = 30\n'
    )
    with pytest.raises(potluck.DataError, match="starter deck has 3 cards"):
        potluck.load_game("cafe-carnage", data=path)
    with pytest.raises(potluck.DataError, match="does not exist"):
        potluck.load_game("cafe-carnage", data=tmp_path / "missing.toml")


def test_built_in_data_has_35_cards_per_course_and_the_menu_sheets_names(game: CafeCarnage) -> None:
    assert game.data.authored
    assert [len(deck) for deck in game.full_decks] == [35, 35, 35]
    counts = [sum(1 for c in game.course_of if c == course) for course in range(3)]
    assert counts == [10, 11, 10]
    assert "Soton Game Jam Burger" in game.dish_names
    values = {name: game.value_of[i] for i, name in enumerate(game.dish_names)}
    assert (
        values["Vegetable Samosas"] + values["Butternut Squash Pie"] + values["Sweet Plum Roulade"]
        == 7
    )
    starters = sorted(
        {game.value_of[i] for i in range(len(game.dish_names)) if game.course_of[i] == 0}
    )
    mains = sorted(
        {game.value_of[i] for i in range(len(game.dish_names)) if game.course_of[i] == 1}
    )
    desserts = sorted(
        {game.value_of[i] for i in range(len(game.dish_names)) if game.course_of[i] == 2}
    )
    possible = {s + m + d for s in starters for m in mains for d in desserts}
    assert {5, 6, 7, 8} <= possible


def test_every_player_runs_at_least_once(game: CafeCarnage) -> None:
    """Ruling CC-6: five cards for five rounds, so the Run! card must be played."""
    for seed in range(40):
        state = game.new_game(4 + seed % 3, seed=seed)
        play_out(game, state, seed)
        for seat in range(state.num_players):
            assert any(seat in record.runners for record in state.log)
            escapes = sum(seat in r.runners and seat not in r.caught for r in state.log)
            assert escapes <= 1
            assert state.fled[seat] == (escapes == 1)


def test_ballot_comes_after_all_three_courses(game: CafeCarnage) -> None:
    """Ruling CC-1: action cards are chosen in Step 2, after the orders, before the reveal."""
    state = game.new_game(4, seed=24)
    order_round(game, state, {})
    assert state.phase == BALLOT
    view = game.view(state, 1)
    assert view["log"] == []  # nothing is revealed before every card is down
    assert view["you"]["order"]["dessert"] is not None
    vote(game, state, dict.fromkeys(range(4), "separately"))
    assert len(game.view(state, 1)["log"][0]["meals"]) == 4  # Step 3 reveals every meal


def test_l15_four_to_six_star_seats_four_to_six_players() -> None:
    """Ruling CC-14: "4-6*" seats 4 to 6 players; the asterisk allows no other count."""
    import potluck
    from potluck.engine.errors import PotluckError

    game = potluck.load_game("cafe-carnage")
    for players in (4, 5, 6):
        assert game.new_game(players, seed=1).num_players == players
    for players in (3, 7):
        with pytest.raises(PotluckError, match="4 to 6 players"):
            game.new_game(players, seed=1)
