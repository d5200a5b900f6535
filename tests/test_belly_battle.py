"""Belly Battle: one test per rulebook passage and per ruling (docs/games/belly-battle.md).

This file: Setup, On Your Turn, Corner Cafes, the upgrade window, Bankruptcy and End of
Game, data, views, bots and the terminal. Spaces on the Board (special spaces) are in
test_belly_battle_spaces.py; Chefs and Star, selling and Double your Munch Fees in
test_belly_battle_chefs_and_star.py; shared helpers in belly_battle_helpers.py.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import potluck
import potluck.games.belly_battle as belly_package
from belly_battle_helpers import (
    GAME,
    REAL,
    FixedDice,
    card,
    give,
    land,
    play,
    space,
    table,
)
from potluck.agents import decide, make_agent
from potluck.engine.errors import DataError, OptionError
from potluck.games.belly_battle import BellyAction, turn
from potluck.games.belly_battle.bots import win_chance
from potluck.games.belly_battle.choices import problem
from potluck.games.belly_battle.ownership import gain
from potluck.games.belly_battle.state import (
    BANK,
    BUY_OR_PASS,
    DEBT,
    HAUNTED,
    NOBODY,
    OVER,
    WINDOW,
)

# ---------------------------------------------------------------------- setup and the turn


def test_setup_1000_brupees_one_restaurant_and_one_munchtime_card_each() -> None:
    state = GAME.new_game(6, seed=5)
    owned = [GAME.owned(state, s) for s in range(6)]
    assert all(len(cards) == 1 and cards[0] < GAME.num_restaurants for cards in owned)
    assert len(state.munch) == 6
    assert len(state.deck) == 14
    assert state.cash[1:] == [1000] * 5  # the first mover has rolled and may owe a fee
    assert GAME.bank.start_money == 1000
    assert GAME.chef_supply(state) == 24
    assert GAME.star_supply(state) == 12
    assert GAME.guard_supply(state) == 3
    assert not GAME.invariants(state)


def test_the_board_has_24_restaurants_4_per_cuisine_2_cafes_and_13_special_spaces() -> None:
    assert GAME.num_restaurants == 24
    assert GAME.num_cards == 26
    assert len(GAME.cuisines) == 6
    for cuisine in range(6):
        assert GAME.cuisine_of.count(cuisine) == 4
    kinds = {GAME.space_name(i) for i in range(GAME.board_size) if GAME.space_card[i] < 0}
    assert len(kinds - {"start"}) == 13
    assert len(GAME.munch_cards) == 20
    assert GAME.data.authored


def test_on_your_turn_roll_two_dice_and_move_in_the_direction_of_the_arrow() -> None:
    state = table(2)
    state.rng = FixedDice([3, 4])
    state.turn = 0
    turn.start_turn(GAME, state)
    assert state.pos[0] == 7
    assert state.dice == (3, 4)
    assert GAME.space_name(7) == "Chola Bhavan"
    assert state.phase == BUY_OR_PASS
    assert state.acting == (0,)


def test_buying_restaurants_from_mr_munchwalla() -> None:
    state = table(2)
    land(state, 0, space("momo-mia"))
    play(state, 0, "buy")
    assert state.owner[card("momo-mia")] == 0
    assert state.cash[0] == 1000 - GAME.price[card("momo-mia")]


def test_not_buying_pays_the_basic_munch_fee_to_mr_munchwalla() -> None:
    state = table(2)
    land(state, 0, space("momo-mia"))
    play(state, 0, "pass")
    assert state.owner[card("momo-mia")] == BANK
    assert state.cash[0] == 1000 - GAME.fees[card("momo-mia")][0]


def test_ruling_bb20_a_player_who_cannot_afford_the_price_just_pays_the_basic_fee() -> None:
    state = table(2)
    state.cash[0] = 50
    land(state, 0, space("momo-mia"))
    assert state.cash[0] == 50 - GAME.fees[card("momo-mia")][0]
    assert state.phase != BUY_OR_PASS


def test_l167_sell_back_at_any_time_even_to_buy_the_restaurant_you_landed_on() -> None:
    """ "You can sell it back to Mr. Munchwalla at any time for one-half the price"
    (ruling BB-13): in the middle of your own turn too, here to raise the price of the
    restaurant you landed on (ruling BB-20)."""
    state = table(2)
    give(state, 0, "lassi-lane", chefs=1)  # the bank pays 60 + 50 for it
    momo, lassi = card("momo-mia"), card("lassi-lane")
    state.cash[0] = 100
    land(state, 0, space("momo-mia"))
    assert state.phase == BUY_OR_PASS  # 100 in cash, 110 more by selling: 180 reachable
    assert "costs 180 and you have 100" in (GAME.explain(state, 0, "buy") or "")
    play(state, 0, "sell-chef lassi-lane")
    play(state, 0, "sell lassi-lane")
    assert (state.phase, state.acting, state.cash[0]) == (BUY_OR_PASS, (0,), 210)
    play(state, 0, "buy")
    assert (state.owner[momo], state.owner[lassi], state.cash[0]) == (0, BANK, 30)


def test_ruling_bb13_a_sale_to_the_bank_waits_at_any_decision() -> None:
    state = table(3)
    give(state, 0, "momo-mia")
    land(state, 0, space("yuck"))
    assert "sell momo-mia" in [str(a) for a in GAME.legal_actions(state, 0)]
    play(state, 0, "sell momo-mia")
    assert state.acting == (0,)  # still to choose who gets the compensation
    assert "sell momo-mia" not in [str(a) for a in GAME.legal_actions(state, 0)]
    play(state, 0, "yuck 1")
    assert state.cash[1] == 1000 + 50


def test_ruling_bb13_the_greedy_bot_still_sells_only_to_raise_cash() -> None:
    state = table(2)
    give(state, 0, "lassi-lane")
    land(state, 0, space("momo-mia"))
    choice = decide(make_agent(GAME, "greedy"), GAME, state, 0, random.Random(0))
    assert str(choice) in ("buy", "pass")


def test_ruling_bb23_golden_belly_takes_no_fee_paid_to_the_bank() -> None:
    """A restaurant next to the award that Mr. Munchwalla still owns: the lander who passes
    pays its basic fee to the bank, and the award's holder takes nothing."""
    state = table(3)
    give(state, 0, "momo-mia")
    land(state, 0, space("golden-belly"))
    osteria = card("osteria-formaggio")
    assert osteria in GAME.neighbours[card("momo-mia")]
    before = list(state.cash)
    land(state, 1, space("osteria-formaggio"))
    play(state, 1, "pass")
    assert state.cash[0] == before[0]
    assert state.cash[1] == before[1] - GAME.fees[osteria][0]


def test_ruling_bb24_the_cards_revealed_at_munchtime_are_seen_by_everyone() -> None:
    state = table(3)
    give(state, 0, "momo-mia")
    shown = [GAME.munch_cards[state.munch[s]] for s in (1, 2)]
    land(state, 0, space("munchtime"))
    log = "\n".join(GAME.view(state, 2)["log"])
    for seat, (first, second) in zip((1, 2), shown, strict=True):
        assert f"Seat {seat} shows {GAME.cuisines[first]}+{GAME.cuisines[second]}" in log


def test_ruling_bb25_a_returned_munchtime_card_may_be_drawn_again() -> None:
    state = table(2)
    give(state, 0, "momo-mia")
    returned = state.munch[1]
    state.deck = []  # every other card is out: the returned card is the only one to draw
    state.munch[0] = next(c for c in range(len(GAME.munch_cards)) if c != returned)
    land(state, 0, space("munchtime"))
    assert state.munch[1] == returned


def test_ruling_bb26_cafes_are_not_restaurants_for_the_special_cards() -> None:
    state = table(2)
    give(state, 0, "chai-point-cafe")
    cafe = card("chai-point-cafe")
    land(state, 0, space("bollywood"))
    assert state.cash[0] == 1000  # "at any one of your restaurants": a cafe is not one
    land(state, 0, space("golden-belly"))
    assert state.golden == -1  # the award goes on a restaurant
    state.holders[HAUNTED] = 0
    state.cards_changed()
    assert GAME.munch_fee(state, cafe, 1) == GAME.bank.cafe_fee  # a cafe's fee is fixed
    assert cafe in GAME.takeover_targets(state, 1)  # but a Takeover Battle may take it


def test_ruling_bb27_seat_0_starts() -> None:
    """ "The player who has the largest belly goes first": the table seats that player
    first, so seat 0 starts."""
    for n in (2, 4, 6):
        state = GAME.new_game(n, seed=n)
        assert GAME.to_act(state) == (0,)


def test_paying_munch_fees_by_chefs_and_star() -> None:
    momo = card("momo-mia")
    for chefs, star, level in ((0, 0, 0), (1, 0, 1), (2, 0, 2), (2, 1, 3)):
        state = table(2)
        give(state, 1, "momo-mia", chefs=chefs, star=star)
        land(state, 0, space("momo-mia"))
        assert state.cash == [1000 - GAME.fees[momo][level], 1000 + GAME.fees[momo][level]]


def test_corner_cafe_charges_30_when_passed_or_landed_on() -> None:
    state = table(2)
    cafe = card("chai-point-cafe")
    gain(state, 1, cafe)
    state.rng = FixedDice([4, 4])
    state.pos[0] = space("chola-bhavan")  # 7 -> 15 passes the cafe at 11
    turn.start_turn(GAME, state)
    assert state.cash[1] == 1030
    state = table(2)
    gain(state, 1, cafe)
    land(state, 0, space("chai-point-cafe"))
    assert state.cash == [970, 1030]


def test_ruling_bb18_passing_your_own_cafe_is_free_and_the_bank_charges_for_its_own() -> None:
    state = table(2)
    gain(state, 0, card("chai-point-cafe"))
    state.rng = FixedDice([4, 4])
    state.pos[0] = space("chola-bhavan")
    turn.start_turn(GAME, state)
    assert state.cash[0] == 1000
    state = table(2)
    state.rng = FixedDice([4, 4])
    state.pos[0] = space("chola-bhavan")
    turn.start_turn(GAME, state)
    assert state.cash[0] == 970


def test_corner_cafes_cannot_be_upgraded() -> None:
    state = table(2)
    gain(state, 0, card("chai-point-cafe"))
    turn.open_window(state)
    texts = {str(a) for a in GAME.legal_actions(state, 0)}
    assert "sell chai-point-cafe" in texts
    with pytest.raises(Exception):  # noqa: B017, PT011 - no such action exists at all
        GAME.parse_action(state, 0, "chef chai-point-cafe")


# ---------------------------------------------------------------------- window, debts, end


def test_ruling_bb13_upgrade_window_in_turn_order_skipping_players_without_cards() -> None:
    state = table(3)
    give(state, 0, "momo-mia")
    give(state, 2, "lassi-lane")
    state.turn = 1
    turn.open_window(state)
    assert state.acting == (2,)  # seat 1 owns nothing: skipped
    play(state, 2, "pass")
    assert state.acting == (0,)
    for _ in range(3):
        play(state, 0, "sell-chef momo-mia" if state.chefs[card("momo-mia")] else "chef momo-mia")
    assert state.acting != (0,) or state.phase != WINDOW  # 3 deals, then the window moves on


def test_ruling_bb19_a_player_short_of_cash_must_sell_until_they_can_pay() -> None:
    state = table(2)
    give(state, 1, "momo-mia", chefs=2)
    give(state, 0, "lassi-lane", chefs=1)
    state.cash[0] = 10
    land(state, 0, space("momo-mia"))
    assert state.phase == DEBT
    assert state.acting == (0,)
    texts = [str(a) for a in GAME.legal_actions(state, 0)]
    assert "pass" not in texts
    assert "chef lassi-lane" not in texts
    assert GAME.view(state, 0)["debt"]["amount"] == GAME.fees[card("momo-mia")][2]
    play(state, 0, "sell lassi-lane")
    assert state.phase != DEBT
    assert state.cash[0] == 10 + 60 + 50 - GAME.fees[card("momo-mia")][2]


def test_ruling_bb12_bankruptcy_ends_the_game_and_the_rest_rank_by_wealth() -> None:
    state = table(3)
    give(state, 1, "momo-mia", chefs=2, star=1)
    give(state, 2, "taco-tornado")
    state.cash[0] = 30
    land(state, 0, space("momo-mia"))
    assert state.phase == OVER
    assert state.bankrupt == 0
    assert state.cash[1] == 1030
    outcome = GAME.outcome(state)
    assert outcome.ranking[-1] == 0
    assert outcome.scores[0] == 0
    assert outcome.winners == (1,)
    assert outcome.scores[1] == GAME.wealth(state, 1)
    assert "bankrupt" in outcome.reason


def test_ruling_bb15_max_rounds_ends_the_game_and_ranks_by_wealth() -> None:
    assert REAL.options["max_rounds"].default == 60
    state = REAL.new_game(2, seed=3, options={"max_rounds": 1})
    rng = random.Random(0)
    while not REAL.is_over(state):
        seat = REAL.to_act(state)[0]
        legal = REAL.legal_actions(state, seat)
        passes = [a for a in legal if str(a) == "pass"]
        REAL.step(state, seat, passes[0] if passes else rng.choice(legal))
    assert state.round == 1 or state.bankrupt != NOBODY
    assert REAL.metrics(state)["rounds"] == 1
    assert "1-round limit" in REAL.outcome(state).reason
    with pytest.raises(OptionError):
        REAL.new_game(2, options={"max_rounds": 0})


def test_standings_add_expected_fees_to_wealth_and_equal_the_outcome_at_the_end() -> None:
    """The search's estimate of an unfinished game: wealth plus a few rounds of fees."""
    from potluck.games.belly_battle.scoring import FEE_ROUNDS

    state = table(3)
    give(state, 1, "momo-mia", chefs=2)
    give(state, 2, "taco-tornado")
    standings = GAME.standings(state)
    assert standings[0] == GAME.wealth(state, 0)  # no cards, no fees to expect
    fee = GAME.fees[card("momo-mia")][2]  # two chefs
    expected = fee * 2 * FEE_ROUNDS / GAME.board_size  # two rivals
    assert standings[1] == pytest.approx(GAME.wealth(state, 1) + expected)
    before = GAME.standings(state)
    state.chefs[card("taco-tornado")] = 1  # an upgrade raises the income counted
    state.cards_changed()
    assert GAME.standings(state)[2] > before[2]
    state.cash[0] = 30
    land(state, 0, space("momo-mia"))  # seat 0 goes bankrupt: the game is over
    assert GAME.standings(state) == tuple(float(x) for x in GAME.outcome(state).scores)


def test_ruling_bb7_the_dealt_restaurant_is_free_and_there_is_no_start_income() -> None:
    state = GAME.new_game(2, seed=11)
    assert state.round == 0
    assert state.turn == 0
    state = table(2)
    state.rng = FixedDice([6, 6])
    state.pos[0] = 40  # 40 + 12 wraps past Start to 8
    turn.start_turn(GAME, state)
    assert state.pos[0] == 8
    assert state.cash[0] == 1000  # passing Start pays nothing


# ---------------------------------------------------------------------- data, views, notation


def test_a_users_own_board_file_loads_through_the_same_schema(tmp_path: Path) -> None:
    # The package's folder: a compiled game.py lives in build/native/ (docs/engine.md).
    text = (Path(belly_package.__file__).parent / "data" / "board.toml").read_text()
    mine = tmp_path / "board.toml"
    mine.write_text(text.replace("start_money = 1000", "start_money = 1500"))
    game = potluck.load_game("belly-battle", data=mine)
    assert game.new_game(2).cash == [1500, 1500]
    broken = tmp_path / "broken.toml"
    broken.write_text(text.replace('"Momo Mia",\n', "", 1))
    with pytest.raises(DataError, match="not on the board: Momo Mia"):
        potluck.load_game("belly-battle", data=broken)


def test_views_hide_other_munchtime_cards_and_the_deck() -> None:
    state = REAL.new_game(4, seed=2)
    view = REAL.view(state, 1)
    json.dumps(view)
    assert view["you"]["seen"] == {}
    assert "deck" not in view
    assert view["supply"]["munchtime_cards"] == 16
    other = REAL.redeal(state, 1, random.Random(5))
    assert REAL.view(other, 1) == view


def test_notation_round_trips_and_accepts_full_names() -> None:
    state = REAL.new_game(2)
    for action in REAL.actions[:: len(REAL.actions) // 50]:
        assert REAL.parse_action(state, 0, str(action)) is action
    assert str(REAL.parse_action(state, 0, "Chef Momo Mia")) == "chef momo-mia"
    assert str(REAL.parse_action(state, 0, "swap Lassi Lane for Momo Mia")) == (
        "swap lassi-lane for momo-mia"
    )


def test_invariants_hold_along_greedy_games() -> None:
    bots: dict[str, Any] = {"greedy": REAL.make_bot("greedy")}
    for seed in range(5):
        state = REAL.new_game(4, seed=seed)
        rng = random.Random(seed)
        while not REAL.is_over(state):
            seat = REAL.to_act(state)[0]
            legal = REAL.legal_actions(state, seat)
            action = bots["greedy"].choose(GAME, REAL.view(state, seat), seat, legal, rng)
            assert action in legal
            REAL.step(state, seat, action)
            assert not REAL.invariants(state)


# ---------------------------------------------------------------------- bots


def test_win_chance_of_a_takeover() -> None:
    assert win_chance(1) == pytest.approx(0.5)
    assert win_chance(4) < win_chance(3) < win_chance(2) < win_chance(1)


def test_greedy_beats_random() -> None:
    from potluck.sim import play_game

    games, wins = 60, 0.0
    for i in range(games):
        agents = ["random"] * 3
        agents[i % 3] = "greedy"
        outcome = play_game(REAL, 3, agents, seed=500 + i).outcome
        if i % 3 in outcome.winners:
            wins += 1 / len(outcome.winners)
    assert wins / games > 0.8


# ---------------------------------------------------------------------- the terminal


def test_a_whole_game_at_the_terminal_then_replay(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from potluck.cli import app

    save = tmp_path / "belly.json"
    runner = CliRunner()
    args = ["play", "belly-battle", "--seats", "you,greedy", "--seed", "3", "--save", str(save)]
    result = runner.invoke(app, args, input="1\n" * 400)
    assert result.exit_code == 0, result.output
    assert "Result" in result.output
    assert "Owned restaurants" in result.output  # the Belly Battle renderer drew the screen
    record = json.loads(save.read_text())
    assert REAL.is_over(REAL.replay(record))


def test_every_test_named_in_the_rulings_table_exists() -> None:
    import re

    doc = Path(__file__).resolve().parent.parent / "docs" / "games" / "belly-battle.md"
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", doc.read_text("utf-8")))
    assert len(named) >= 20
    # The tests are split by rulebook chapter over tests/test_belly_battle*.py.
    files = Path(__file__).resolve().parent.glob("test_belly_battle*.py")
    defined = {n for f in files for n in re.findall(r"^def (test_\w+)", f.read_text("utf-8"), re.M)}
    missing = sorted(name for name in named if name not in defined)
    assert not missing


def test_l153_the_board_view_shows_everything_printed_on_a_space() -> None:
    """Cheesy Scandal hits "all restaurants using Cheese (mentioned on every restaurant
    space)": the board in every view carries the cheese mark, chef and star prices and the
    fee at each level; a cafe its fixed fee."""
    board = GAME.view(table(2), None)["board"]
    momo = next(s for s in board if s["card"] == "momo-mia")
    c = card("momo-mia")
    assert momo["cheese"] == GAME.cheese[c]
    assert (momo["chef_price"], momo["star_price"]) == (50, 50)
    assert momo["fees"] == list(GAME.fees[c])
    cafe = next(s for s in board if s["card"] == "chai-point-cafe")
    assert cafe["cafe_fee"] == GAME.bank.cafe_fee
    assert sum(1 for s in board if s["cheese"]) == sum(GAME.cheese)


def test_legal_actions_are_exactly_the_actions_the_rules_accept() -> None:
    """``legal_actions`` is built straight from the state (for speed); along a random
    and a greedy game it lists every action ``problem`` accepts, and no other."""
    for spec, seed in (("random", 3), ("greedy", 4)):
        agent = make_agent(GAME, spec)
        state = GAME.new_game(3, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while state.acting:
            seat = state.acting[0]
            legal = GAME.legal_actions(state, seat)
            if steps % 3 == 0:
                accepted = [a for a in GAME.actions if problem(GAME, state, seat, a) is None]
                assert sorted(legal, key=lambda a: a.index) == accepted, (steps, state.phase)
            action = decide(agent, GAME, state, seat, rng)
            assert isinstance(action, BellyAction)
            GAME.step(state, seat, action)
            steps += 1


def test_a_view_kept_between_decisions_follows_every_change_and_never_changes_after() -> None:
    """The view reuses its card and player entries while nothing they show changes; a
    change (a chef hired, cash paid) shows in the next view, and an earlier view keeps
    what it showed."""
    state = table(3)
    give(state, 0, "momo-mia")
    momo = card("momo-mia")
    before = GAME.view(state, 0)
    again = GAME.view(state, 1)
    assert again["cards"] == before["cards"]
    assert again["players"] == before["players"]
    state.chefs[momo] = 1
    state.cards_changed()
    state.cash[0] -= 50
    after = GAME.view(state, 0)
    assert after["cards"][momo]["chefs"] == 1
    assert after["players"][0]["cash"] == 950
    assert after["players"][0]["wealth"] == before["players"][0]["wealth"]
    assert before["cards"][momo]["chefs"] == 0
    assert before["players"][0]["cash"] == 1000
    assert json.loads(json.dumps(after)) == after
