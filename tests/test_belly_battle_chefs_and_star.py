"""Belly Battle, the rulebook's Chefs and Star and Double your Munch Fees, with selling
to Mr. Munchwalla and to players (docs/games/belly-battle.md). Helpers:
belly_battle_helpers.py.
"""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

import potluck
from belly_battle_helpers import (
    GAME,
    card,
    give,
    play,
    table,
)
from potluck.engine.errors import DataError, IllegalActionError
from potluck.games.belly_battle import turn
from potluck.games.belly_battle.ownership import gain
from potluck.games.belly_battle.state import (
    BANK,
    CELEBRITY,
    CHEESY,
    HAUNTED,
    MONSTERCHEF,
    NOBODY,
    RESPOND,
    WINDOW,
)

# ---------------------------------------------------------------------- chefs, stars, selling


def test_chefs_and_star_max_2_chefs_and_a_star_that_needs_both() -> None:
    state = table(2)
    give(state, 0, "momo-mia")
    turn.open_window(state)
    texts = [str(a) for a in GAME.legal_actions(state, 0)]
    assert "chef momo-mia" in texts
    assert "star momo-mia" not in texts
    play(state, 0, "chef momo-mia")
    play(state, 0, "chef momo-mia")
    assert "chef momo-mia" not in [str(a) for a in GAME.legal_actions(state, 0)]
    play(state, 0, "star momo-mia")
    momo = card("momo-mia")
    assert (state.chefs[momo], state.star[momo]) == (2, 1)
    assert state.cash[0] == 1000 - 2 * GAME.chef_price[momo] - GAME.star_price[momo]


def test_l167_chefs_and_stars_cost_and_sell_back_at_the_original_cost_br_50() -> None:
    """ "Chefs and Stars can be sold back only to Mr. Munchwalla at the original cost
    (BR 50)": every card's chef and star cost 50, and sell back for 50 (ruling BB-1);
    the final wealth counts them 50 and 150, as End of Game says."""
    assert set(GAME.chef_price) == {50}
    assert set(GAME.star_price) == {50}
    state = table(2)
    give(state, 0, "taco-tornado", chefs=2, star=1)
    taco = card("taco-tornado")
    assert GAME.wealth(state, 0) == 1000 + GAME.price[taco] + 2 * 50 + 150
    turn.open_window(state)
    play(state, 0, "sell-star taco-tornado")
    play(state, 0, "sell-chef taco-tornado")
    assert state.cash[0] == 1100


def test_every_authored_amount_is_payable_in_whole_notes() -> None:
    """The smallest note is BR 10 (the setup's 140 x BR 10): prices, fees, token prices,
    the bank's amounts and every half price (the bank's buy-back) are whole notes."""
    amounts = [*GAME.price, *GAME.chef_price, *GAME.star_price]
    amounts += [fee for fees in GAME.fees for fee in fees]
    amounts += [price // 2 for price in GAME.price]
    assert all(amount % 10 == 0 for amount in amounts)
    assert all(price % 2 == 0 for price in GAME.price)
    data = tomllib.loads(
        (resources.files("potluck.games.belly_battle") / "data" / "board.toml").read_text("utf-8")
    )
    data["cafe"][0]["price"] = 150  # half of it, 75, cannot be paid in notes of 10
    with pytest.raises(DataError, match="half price is 75: not payable in notes of 10"):
        potluck.load_game("belly-battle", data=data)
    data["cafe"][0]["price"] = 160
    data["restaurant"][0]["chef_price"] = 75
    with pytest.raises(DataError, match="chef price is 75"):
        potluck.load_game("belly-battle", data=data)


def test_ruling_bb2_a_star_keeps_its_chefs_which_stay_until_the_star_is_sold() -> None:
    state = table(2)
    give(state, 0, "momo-mia", chefs=2, star=1)
    turn.open_window(state)
    reason = GAME.explain(state, 0, "sell-chef momo-mia")
    assert reason is not None
    assert "star first" in reason


def test_no_tokens_left_with_mr_munchwalla_means_no_upgrade() -> None:
    state = table(2)
    give(state, 0, "momo-mia")
    others = [c for c in range(GAME.num_restaurants) if c != card("momo-mia")][:12]
    for c in others:
        state.chefs[c] = 2
        gain(state, 1, c)
    turn.open_window(state)
    reason = GAME.explain(state, 0, "chef momo-mia")
    assert reason == "Mr. Munchwalla has no chef tokens left."


def test_ruling_bb8_selling_back_to_the_bank_is_half_the_printed_price_plus_tokens() -> None:
    state = table(2)
    give(state, 0, "taco-tornado", chefs=1)  # gained any way: same price
    turn.open_window(state)
    play(state, 0, "sell taco-tornado")
    taco = card("taco-tornado")
    assert state.cash[0] == 1000 + GAME.price[taco] // 2 + 50
    assert state.owner[taco] == BANK
    assert state.chefs[taco] == 0


def test_ruling_bb8_selling_to_another_player_by_offer_and_answer() -> None:
    state = table(2)
    give(state, 0, "momo-mia", chefs=1)
    momo = card("momo-mia")
    turn.open_window(state)
    price = GAME.price[momo] * 3 // 2
    play(state, 0, f"offer momo-mia to 1 for {price}")
    assert state.phase == RESPOND
    assert state.acting == (1,)
    assert GAME.view(state, 0)["offer"]["price"] == price
    play(state, 1, "accept")
    assert state.owner[momo] == 1
    assert state.chefs[momo] == 1
    assert state.cash == [1000 + price, 1000 - price]
    # Seat 0 has nothing left to deal with; the buyer's own window turn follows.
    assert state.acting == (1,)
    assert state.phase == WINDOW


def test_an_offer_the_buyer_cannot_pay_is_not_allowed() -> None:
    state = table(2)
    give(state, 0, "momo-mia")
    state.cash[1] = 10
    turn.open_window(state)
    with pytest.raises(IllegalActionError, match="has only 10"):
        play(state, 0, f"offer momo-mia to 1 for {GAME.price[card('momo-mia')]}")


def test_double_your_munch_fees_with_three_adjacent_restaurants() -> None:
    state = table(2)
    give(state, 0, "osteria-formaggio", "momo-mia", "pasta-la-vista")
    for name in ("osteria-formaggio", "momo-mia", "pasta-la-vista"):
        assert GAME.munch_fee(state, card(name), 1) == 2 * GAME.fees[card(name)][0]
    # Two in a row with a special space between them is no triple.
    state = table(2)
    give(state, 0, "pasta-la-vista", "little-pizza-cheeseburg", "momo-mia")
    assert GAME.munch_fee(state, card("momo-mia"), 1) == GAME.fees[card("momo-mia")][0]


def test_ruling_bb3_fee_modifiers_stack_in_one_order() -> None:
    state = table(2)
    give(state, 0, "osteria-formaggio", "pasta-la-vista")
    give(state, 0, "momo-mia", chefs=1)
    momo = card("momo-mia")
    state.golden = momo
    state.holders[MONSTERCHEF] = 0
    state.holders[CELEBRITY] = 0
    base = GAME.fees[momo][1]
    assert GAME.munch_fee(state, momo, 1) == base * 2 * 2 * 2 + 50
    state.holders[HAUNTED] = 0
    assert GAME.munch_fee(state, momo, 1) == 0
    state.holders[HAUNTED] = NOBODY
    state.holders[CHEESY] = 1
    assert GAME.munch_fee(state, momo, 1) == 0  # Momo Mia uses cheese
    # Mr. Munchwalla's basic fee is never modified.
    state.holders[CHEESY] = 1
    assert GAME.munch_fee(state, card("little-pizza-cheeseburg"), 1) == 20
