"""Tables, memos and one-pass forms of a rule that the hot paths read (issue 36), held
equal to the rule they come from, over every case or random ones.

- Café Carnage: the cards playable from a hand by which cards it holds
  (``CafeTables.hand_table``, read by ``ballot.ballot_choices``) against
  ``CafeTables.hand_choices``; the dishes orderable from a menu (``orders.menu_choices``,
  one pass over the menu's mask) against the rule as the rulebook reads it (each
  distinct dish once, in menu order; in the advanced variant the dishes not eaten yet,
  when there are any).
- The engine: the options of a new game without given options, kept per game
  (``options.resolve_options``), against the options resolved afresh.
- Belly Battle: the kinds allowed in each phase as bit masks (``choices._KIND_MASKS``)
  against ``KINDS_OF_PHASE``; ``bank_sales.bank_value`` against the sum of
  ``sale_value`` over ``owned``, along random games.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from potluck.engine.options import resolve_options
from potluck.games.belly_battle import choices as belly_choices
from potluck.games.belly_battle.bank_sales import bank_value, sale_value
from potluck.games.belly_battle.game import BellyBattle
from potluck.games.belly_battle.ownership import owned
from potluck.games.cafe_carnage.ballot import ballot_choices
from potluck.games.cafe_carnage.game import CafeCarnage
from potluck.games.cafe_carnage.orders import menu_choices
from potluck.games.cafe_carnage.tables import Choices

CAFE = CafeCarnage()
BELLY = BellyBattle()


def test_cafe_hand_table_is_hand_choices_for_every_hand() -> None:
    state = CAFE.new_game(4, seed=3)
    for split in range(3):
        for separately in range(3):
            for run in range(2):
                state.hands = [split, separately, run] * 4
                want = CAFE.hand_choices((split, separately, run))
                assert ballot_choices(CAFE, state) == [want] * 4


def _menu_rule(menu: tuple[int, ...], eaten: int) -> Choices:
    """The dishes one may order, as the rulebook reads: each distinct dish once in menu
    order; with the advanced variant's ``eaten`` dishes, only those not eaten yet when
    the menu has any."""
    dishes = list(dict.fromkeys(menu))
    fresh = [dish for dish in dishes if not eaten >> dish & 1]
    if eaten and fresh:
        dishes = fresh
    return CAFE.dish_choices(dishes)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.integers(0, len(CAFE.dish_actions) - 1), min_size=1, max_size=5),
    st.integers(0, (1 << len(CAFE.dish_actions)) - 1) | st.just(0),
)
def test_cafe_menu_choices_are_the_menus_dishes_by_the_rule(menu: list[int], eaten: int) -> None:
    assert menu_choices(CAFE, tuple(menu), eaten) == _menu_rule(tuple(menu), eaten)


def test_belly_kind_masks_are_the_kinds_of_each_phase() -> None:
    for phase, kinds in belly_choices.KINDS_OF_PHASE.items():
        assert {k for k in range(32) if belly_choices._KIND_MASKS[phase] >> k & 1} == kinds


def test_belly_bank_value_is_the_sale_values_of_what_the_seat_owns() -> None:
    rng = random.Random(5)
    for seed in range(6):
        state = BELLY.new_game(4, seed=seed)
        while state.acting:
            for seat in range(4):
                want = sum(sale_value(BELLY, state, card) for card in owned(state, seat))
                assert bank_value(BELLY, state, seat) == want
            seat = state.acting[0]
            legal = BELLY.legal_actions(state, seat)
            BELLY.step(state, seat, legal[int(rng.random() * len(legal))])


def test_default_options_kept_per_game_are_the_defaults_resolved_afresh() -> None:
    for game in (CAFE, BELLY):
        first = resolve_options(game.id, game.options, None)
        first["changed"] = True  # a caller's change stays in its own copy
        again = resolve_options(game.id, game.options, {})
        assert again == {name: option.default for name, option in game.options.items()}
        assert list(again) == list(game.options)
        assert again is not first
        assert "changed" not in again
