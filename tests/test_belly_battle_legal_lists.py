"""Belly Battle's legal lists (the hot path of random play, issue 36) against the rule.

``choices.legal_actions`` builds each phase's list straight from the state, the cards a
seat owns read from ``state.holdings`` (the owners' list as bits per seat, kept by
``ownership.gain`` and ``to_bank``); the rule with its reasons is ``choices.problem``
(what ``Game.explain`` asks). Here both are asked about states of random games whose
cards, tokens and cash hypothesis then changes at will, through ``gain`` and ``to_bank``
as the rules change owners: the holdings must stay the owners' list read per seat, and
the list must be every action the rule allows, in its documented order (a window's or a
debt's deals in index order; elsewhere the phase's own choices, then sales, each in
index order).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from potluck.games.belly_battle.choices import SALES, legal_actions, problem
from potluck.games.belly_battle.game import BellyBattle
from potluck.games.belly_battle.ownership import gain, holdings_of, owned, to_bank
from potluck.games.belly_battle.state import BANK, DEBT, WINDOW, BellyState
from potluck.games.belly_battle.tables import OFFER_HALVES, offers_within
from potluck.testing.suite import random_position

GAME = BellyBattle()
CARDS, RESTAURANTS = GAME.num_cards, GAME.num_restaurants


def _retoken(state: BellyState, tokens: list[int]) -> None:
    """Chefs and stars as ``tokens`` says (0-3: none, one chef, two, two and a star) on
    the restaurants a player owns, none on the bank's."""
    for card in range(RESTAURANTS):
        level = tokens[card] if state.owner[card] != BANK else 0
        state.chefs[card] = min(level, 2)
        state.star[card] = 1 if level == 3 else 0


@settings(max_examples=300, deadline=None)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 400),
    owners=st.none() | st.lists(st.integers(-1, 5), min_size=CARDS, max_size=CARDS),
    tokens=st.none() | st.lists(st.integers(0, 3), min_size=RESTAURANTS, max_size=RESTAURANTS),
    cash=st.none() | st.lists(st.integers(0, 2_000), min_size=6, max_size=6),
)
def test_legal_list_is_every_action_the_rule_allows_in_its_order(
    players: int,
    seed: int,
    steps: int,
    owners: list[int] | None,
    tokens: list[int] | None,
    cash: list[int] | None,
) -> None:
    state = random_position(GAME, GAME.new_game(players, seed), seed, steps)
    if owners is not None:
        for card, seat in enumerate(owners):
            if seat == BANK or seat >= players:
                to_bank(state, card)
            else:
                gain(state, seat, card)
    if tokens is not None:
        _retoken(state, tokens)
    if cash is not None:
        state.cash = cash[:players]
    for seat in range(players):
        assert state.holdings[seat] == holdings_of(state.owner, seat)
        assert owned(state, seat) == [c for c in range(CARDS) if state.owner[c] == seat]
    seat = state.acting[0]
    legal = legal_actions(GAME, state, seat)
    accepted = [a for a in GAME.actions if problem(GAME, state, seat, a) is None]
    if state.phase in (WINDOW, DEBT):
        assert legal == accepted
    else:
        own = [a for a in accepted if a.kind not in SALES]
        sales = [a for a in accepted if a.kind in SALES]
        assert legal == own + sales
    for other in range(players):
        if other != seat:
            assert legal_actions(GAME, state, other) == []


def test_holdings_follow_every_change_of_owner_along_whole_games() -> None:
    """Along random games (the rules' own changes of owner: buys, takeovers, swaps,
    trades, sales, bankruptcy) each seat's holdings are the owners' list read per seat."""
    for seed in range(20):
        state = GAME.new_game(2 + seed % 5, seed)
        rng = random.Random(seed)
        while state.acting:
            for seat in range(state.num_players):
                assert state.holdings[seat] == holdings_of(state.owner, seat)
            seat = state.acting[0]
            legal = GAME.legal_actions(state, seat)
            GAME.step(state, seat, legal[rng.randrange(len(legal))])
        restored = GAME.from_json(GAME.to_json(state))
        assert restored.holdings == state.holdings


def test_offers_within_counts_the_offer_prices_a_purse_pays() -> None:
    """``tables.offers_within`` (the window's offers a buyer can pay) against the offer
    actions' own amounts, for every card and every purse up to past the dearest."""
    top = max(GAME.price) * 2 + 20
    for card in range(CARDS):
        amounts = [offer.amount for offer in GAME.offers(card, 1)]
        for purse in range(-5, top):
            assert offers_within(GAME.price[card], purse) == sum(a <= purse for a in amounts)
    for purse in (-1, 0, 7):  # a card priced 0 (a custom board may have one)
        assert offers_within(0, purse) == (0 if purse < 0 else len(OFFER_HALVES))
