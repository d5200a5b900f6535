"""Belly Battle: one test per rulebook passage and per ruling (docs/games/belly-battle.md).

Scenario tests set a table up by hand (owners, cash, positions) and then land a
seat on a space with ``land``; dice are fixed with ``FixedDice``.
"""

from __future__ import annotations

import json
import random
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import potluck
from potluck.agents import decide, make_agent
from potluck.engine.errors import DataError, IllegalActionError, OptionError
from potluck.games.belly_battle import BellyAction, BellyBattle, BellyState, spaces, turn
from potluck.games.belly_battle import game as game_module
from potluck.games.belly_battle.bots import win_chance
from potluck.games.belly_battle.choices import problem
from potluck.games.belly_battle.ownership import gain, to_bank
from potluck.games.belly_battle.state import (
    AFTER_WINDOW,
    BANK,
    BUY_OR_PASS,
    CELEBRITY,
    CHEESY,
    DEBT,
    HAUNTED,
    MONSTERCHEF,
    NOBODY,
    OVER,
    RESPOND,
    TUNNEL_CHOICE,
    WINDOW,
)

_LOADED = potluck.load_game("belly-battle")
assert isinstance(_LOADED, BellyBattle)
REAL: BellyBattle = _LOADED


class PausedBellyBattle(BellyBattle):
    """Stops when the turn (and its upgrade window) is over, so that a scenario sees
    only what it set up and not the next player's roll."""

    def _end_turn(self, state: BellyState) -> None:
        state.phase = OVER
        state.acting = ()


GAME = PausedBellyBattle()


class FixedDice(random.Random):
    """A generator whose dice show the given faces, in order."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def random(self) -> float:
        if self.faces:
            return (self.faces.pop(0) - 1) / 6 + 0.01
        return 0.5


def card(name: str) -> int:
    return GAME.slugs.index(name)


def space(kind_or_card: str, nth: int = 0) -> int:
    """The board space of a card (by notation) or the ``nth`` special space of a kind."""
    if kind_or_card in GAME.slugs:
        return GAME.space_of[card(kind_or_card)]
    spaces = [i for i in range(GAME.board_size) if GAME.space_name(i) == kind_or_card]
    return spaces[nth]


def table(num_players: int = 3, seed: int = 0) -> BellyState:
    """A fresh game with every card back at the bank, at seat 0's turn, before landing."""
    state = GAME.new_game(num_players, seed=seed)
    for c in range(GAME.num_cards):
        to_bank(state, c)
    state.cash = [1000] * num_players
    state.queue = []
    state.turn = 0
    state.pos = [0] * num_players
    state.holders = [NOBODY] * 4
    state.bank_net = 0
    return state


def give(state: BellyState, seat: int, *names: str, chefs: int = 0, star: int = 0) -> None:
    for name in names:
        c = card(name)
        gain(state, seat, c)
        state.chefs[c] = chefs
        state.star[c] = star


def land(state: BellyState, seat: int, where: int) -> None:
    """Put ``seat`` on ``where`` as the mover and resolve the space."""
    state.turn = seat
    state.pos[seat] = where
    state.after = AFTER_WINDOW
    state.phase = WINDOW
    state.acting = (seat,)
    if not spaces.land(GAME, state):
        turn.settle(GAME, state)


def play(state: BellyState, seat: int, text: str) -> None:
    GAME.step(state, seat, text)


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


# ---------------------------------------------------------------------- special spaces


def test_takeover_battle_the_challenger_wins_with_the_higher_die() -> None:
    state = table(2)
    give(state, 1, "momo-mia", chefs=1)
    land(state, 0, space("takeover"))
    state.rng = FixedDice([6, 5, 2])  # challenger 6; defender rolls twice (1 chef): 5, 2
    play(state, 0, "takeover momo-mia")
    assert state.owner[card("momo-mia")] == 0
    assert state.chefs[card("momo-mia")] == 1  # the chef comes along


def test_ruling_bb10_takeover_ties_roll_again_and_a_failed_challenger_pays_the_fee() -> None:
    state = table(2)
    give(state, 1, "momo-mia")
    land(state, 0, space("takeover"))
    state.rng = FixedDice([4, 4, 2, 5])  # tie 4-4, then 2 against 5
    play(state, 0, "takeover momo-mia")
    fee = GAME.fees[card("momo-mia")][0]
    assert state.owner[card("momo-mia")] == 1
    assert state.cash == [1000 - fee, 1000 + fee]


def test_ruling_bb2_defender_rolls_one_chef_2_two_chefs_3_star_4() -> None:
    assert [BellyBattle.defender_rolls(c, s) for c, s in ((0, 0), (1, 0), (2, 0), (2, 1))] == [
        1,
        2,
        3,
        4,
    ]
    state = table(2)
    give(state, 1, "momo-mia", chefs=2, star=1)
    land(state, 0, space("takeover"))
    state.rng = FixedDice([5, 1, 1, 1, 6])  # the defender's fourth roll saves it
    play(state, 0, "takeover momo-mia")
    assert state.owner[card("momo-mia")] == 1


def test_ruling_bb9_takeover_covers_cafes_but_not_insured_restaurants() -> None:
    state = table(2)
    give(state, 1, "momo-mia", "chai-point-cafe", "osteria-formaggio")
    state.insured[card("osteria-formaggio")] = True
    land(state, 0, space("takeover"))
    texts = [str(a) for a in GAME.legal_actions(state, 0)]
    assert texts == ["pass", "takeover momo-mia", "takeover chai-point-cafe"]
    reason = GAME.explain(state, 0, "takeover osteria-formaggio")
    assert reason is not None
    assert "BellyGuard" in reason


def test_swap_swap_trades_restaurants_with_their_chefs_and_star() -> None:
    state = table(2)
    give(state, 0, "lassi-lane")
    give(state, 1, "momo-mia", chefs=2, star=1)
    land(state, 0, space("swap"))
    play(state, 0, "swap lassi-lane for momo-mia")
    assert state.owner[card("momo-mia")] == 0
    assert state.owner[card("lassi-lane")] == 1
    assert state.star[card("momo-mia")] == 1
    assert state.chefs[card("momo-mia")] == 2


def test_swap_swap_is_optional_and_excludes_cafes_and_insured_restaurants() -> None:
    state = table(2)
    give(state, 0, "lassi-lane", "chai-point-cafe")
    give(state, 1, "momo-mia", "taco-tornado")
    state.insured[card("taco-tornado")] = True
    land(state, 0, space("swap"))
    assert [str(a) for a in GAME.legal_actions(state, 0) if not str(a).startswith("sell")] == [
        "pass",
        "swap lassi-lane for momo-mia",
    ]
    play(state, 0, "pass")
    assert state.owner[card("momo-mia")] == 1


def test_ruling_bb16_sneaky_eyes_shows_every_munchtime_card_to_the_lander_only() -> None:
    state = table(3)
    land(state, 0, space("sneaky-eyes"))
    seen = GAME.view(state, 0)["you"]["seen"]
    assert set(seen) == {"1", "2"}
    assert GAME.view(state, 1)["you"]["seen"] == {}
    assert "you" not in GAME.view(state, None)
    # Once a card is replaced (at a Munchtime), the peek is stale and forgotten;
    # the lander of that Munchtime (seat 1) keeps its card, which seat 0 still knows.
    land(state, 1, space("munchtime"))
    assert set(GAME.view(state, 0)["you"]["seen"]) == {"1"}


def test_ruling_bb4_golden_belly_doubles_its_restaurant_and_takes_the_neighbours_fee() -> None:
    state = table(3)
    give(state, 0, "lassi-lane")
    give(state, 0, "momo-mia")  # bought last
    give(state, 2, "pasta-la-vista")
    land(state, 0, space("golden-belly"))
    assert state.golden == card("momo-mia")
    momo, pasta = card("momo-mia"), card("pasta-la-vista")
    land(state, 1, space("momo-mia"))
    assert state.cash[1] == 1000 - 2 * GAME.fees[momo][0]
    assert GAME.neighbours[momo] == (card("osteria-formaggio"), pasta)
    before = list(state.cash)
    land(state, 1, space("pasta-la-vista"))  # next to the award: seat 0 takes the fee
    fee = GAME.fees[pasta][0]
    assert state.cash[0] == before[0] + fee
    assert state.cash[2] == before[2]
    # The holder pays the owner as usual when it lands next to its own award.
    before = list(state.cash)
    land(state, 0, space("pasta-la-vista"))
    assert state.cash[2] == before[2] + fee


def test_ruling_bb4_golden_belly_without_a_restaurant_and_when_sold() -> None:
    state = table(2)
    give(state, 0, "momo-mia")
    land(state, 0, space("golden-belly"))
    land(state, 1, space("golden-belly"))  # seat 1 owns none: the award goes back
    assert state.golden == -1
    land(state, 0, space("golden-belly"))
    turn.open_window(state)
    play(state, 0, "sell momo-mia")
    assert state.golden == -1


def test_ruling_bb5_munchtime_others_pay_the_lander_for_its_restaurants_of_their_cuisines() -> None:
    state = table(3)
    give(state, 0, "momo-mia", "pasta-la-vista", "patiala-dhaba")  # italian x2, punjabi
    give(state, 2, "osteria-formaggio")  # italian, but not the lander's
    italian = GAME.cuisines.index("italian")
    punjabi = GAME.cuisines.index("punjabi")
    cards_of = {pair: i for i, pair in reversed(list(enumerate(GAME.munch_cards)))}
    pair_it = next(p for p in cards_of if italian in p and punjabi not in p)
    pair_none = next(p for p in cards_of if italian not in p and punjabi not in p)
    deck = sorted(state.munch + state.deck)
    state.munch = [deck[0], cards_of[pair_it], cards_of[pair_none]]
    state.deck = [c for c in deck if c not in state.munch]
    own_card = state.munch[0]
    land(state, 0, space("munchtime"))
    owed = GAME.fees[card("momo-mia")][0] + GAME.fees[card("pasta-la-vista")][0]
    assert state.cash == [1000 + owed, 1000 - owed, 1000]
    assert state.munch[0] == own_card  # the lander's own card is not replaced
    assert not GAME.invariants(state)


def test_bellyguard_insurance_protects_one_restaurant_three_cards_in_all() -> None:
    state = table(2)
    give(state, 0, "momo-mia", "lassi-lane")
    for c in ("taco-tornado", "el-mexico", "nacho-nation"):
        give(state, 1, c)
        state.insured[card(c)] = True
    land(state, 0, space("bellyguard"))
    assert state.phase == WINDOW  # none left to take
    state.insured[card("nacho-nation")] = False
    land(state, 0, space("bellyguard"))
    assert [str(a) for a in GAME.legal_actions(state, 0) if not str(a).startswith("sell")] == [
        "pass",
        "insure lassi-lane",
        "insure momo-mia",
    ]
    play(state, 0, "insure momo-mia")
    assert state.insured[card("momo-mia")]
    assert GAME.guard_supply(state) == 0


def test_ruling_bb17_yuck_pays_50_to_a_player_of_your_choice() -> None:
    state = table(3)
    land(state, 0, space("yuck"))
    assert [str(a) for a in GAME.legal_actions(state, 0)] == ["yuck 1", "yuck 2"]
    play(state, 0, "yuck 2")
    assert state.cash == [950, 1000, 1050]


def test_celebrity_visit_adds_50_to_every_fee_for_one_round() -> None:
    state = table(2)
    give(state, 0, "momo-mia")
    land(state, 0, space("celebrity"))
    assert state.holders[CELEBRITY] == 0
    land(state, 1, space("momo-mia"))
    assert state.cash[1] == 1000 - GAME.fees[card("momo-mia")][0] - 50


def test_ruling_bb11_bollywood_shooting_pays_100_only_to_a_restaurant_owner() -> None:
    state = table(2)
    give(state, 0, "momo-mia")
    land(state, 0, space("bollywood"))
    land(state, 1, space("bollywood"))
    assert state.cash == [1100, 1000]


def test_haunted_forgoes_all_your_fees_for_one_round() -> None:
    state = table(2)
    give(state, 0, "momo-mia", chefs=2)
    land(state, 0, space("haunted"))
    assert state.holders[HAUNTED] == 0
    land(state, 1, space("momo-mia"))
    assert state.cash == [1000, 1000]


def test_monsterchef_doubles_your_fees_for_one_round() -> None:
    state = table(2)
    give(state, 0, "momo-mia", chefs=1)
    land(state, 0, space("monsterchef"))
    assert state.holders[MONSTERCHEF] == 0
    land(state, 1, space("momo-mia"))
    assert state.cash[1] == 1000 - 2 * GAME.fees[card("momo-mia")][1]


def test_cheesy_scandal_zeroes_cheese_restaurants_whoever_lands() -> None:
    state = table(2)
    give(state, 0, "momo-mia", "lassi-lane")
    assert GAME.cheese[card("momo-mia")]
    assert not GAME.cheese[card("lassi-lane")]
    land(state, 1, space("cheesy-scandal"))  # seat 1 lands; seat 0's cheese stops charging
    assert state.holders[CHEESY] == 1
    land(state, 1, space("momo-mia"))
    assert state.cash[1] == 1000
    land(state, 1, space("lassi-lane"))
    assert state.cash[1] == 1000 - GAME.fees[card("lassi-lane")][0]


def test_ruling_bb6_one_round_cards_return_at_the_start_of_the_holders_next_turn() -> None:
    state = table(2)
    state.holders = [0, 0, 1, 1]
    state.rng = FixedDice([1, 1])
    state.turn = 0
    turn.start_turn(GAME, state)
    assert state.holders == [NOBODY, NOBODY, 1, 1]
    # A card that is out does nothing for a new lander.
    land(state, 0, space("monsterchef"))
    assert state.holders[MONSTERCHEF] == 1


def test_ruling_bb14_tunnel_is_optional_and_not_two_turns_in_a_row() -> None:
    state = table(2)
    state.rng = FixedDice([3, 3])
    turn.start_turn(GAME, state)  # 0 -> 6, a tunnel end
    assert state.phase == TUNNEL_CHOICE
    assert [str(a) for a in GAME.legal_actions(state, 0)] == ["pass", "tunnel"]
    play(state, 0, "tunnel")
    assert state.pos[0] == space("tunnel", 1)
    assert state.tunnel_used[0]
    # The next turn lands on a tunnel again: no second trip in a row.
    state.turn, state.pos[0], state.phase = 0, 0, WINDOW
    state.rng = FixedDice([3, 3])
    turn.start_turn(GAME, state)
    assert state.pos[0] == space("tunnel")
    assert state.phase != TUNNEL_CHOICE
    assert not state.tunnel_used[0]  # so the turn after may use it again


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
        state.owner[c] = 1
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
    text = (Path(game_module.__file__).parent / "data" / "board.toml").read_text()
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
    assert "Owned cards" in result.output  # the Belly Battle renderer drew the screen
    record = json.loads(save.read_text())
    assert REAL.is_over(REAL.replay(record))


def test_every_test_named_in_the_rulings_table_exists() -> None:
    import re

    doc = Path(__file__).resolve().parent.parent / "docs" / "games" / "belly-battle.md"
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", doc.read_text("utf-8")))
    assert len(named) >= 20
    missing = sorted(name for name in named if name not in globals())
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
    state.cash[0] -= 50
    after = GAME.view(state, 0)
    assert after["cards"][momo]["chefs"] == 1
    assert after["players"][0]["cash"] == 950
    assert after["players"][0]["wealth"] == before["players"][0]["wealth"]
    assert before["cards"][momo]["chefs"] == 0
    assert before["players"][0]["cash"] == 1000
    assert json.loads(json.dumps(after)) == after
