"""Belly Battle, the rulebook's Spaces on the Board: each special space (Takeover Battle
to Tunnel) and its ruling (docs/games/belly-battle.md). Helpers: belly_battle_helpers.py.
"""

from __future__ import annotations

from belly_battle_helpers import (
    GAME,
    FixedDice,
    card,
    give,
    land,
    play,
    space,
    table,
)
from potluck.games.belly_battle import BellyBattle, tables, turn
from potluck.games.belly_battle.state import (
    CELEBRITY,
    CHEESY,
    HAUNTED,
    MONSTERCHEF,
    NOBODY,
    TUNNEL_CHOICE,
    WINDOW,
)

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


def test_space_kind_numbers_are_their_places_among_the_kinds() -> None:
    """The ``SP_*`` numbers (``Final`` constants, so compiled rules read them as numbers)
    name the kinds of ``SPACE_KINDS`` in the board data's order."""
    numbers = {
        "card": tables.SP_CARD,
        "start": tables.SP_START,
        "takeover": tables.SP_TAKEOVER,
        "swap": tables.SP_SWAP,
        "sneaky-eyes": tables.SP_SNEAKY,
        "golden-belly": tables.SP_GOLDEN,
        "munchtime": tables.SP_MUNCH,
        "bellyguard": tables.SP_GUARD,
        "yuck": tables.SP_YUCK,
        "celebrity": tables.SP_CELEBRITY,
        "bollywood": tables.SP_BOLLYWOOD,
        "haunted": tables.SP_HAUNTED,
        "monsterchef": tables.SP_MONSTER,
        "cheesy-scandal": tables.SP_CHEESY,
        "tunnel": tables.SP_TUNNEL,
    }
    assert {kind: tables.SPACE_KINDS.index(kind) for kind in tables.SPACE_KINDS} == numbers
