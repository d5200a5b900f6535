"""Carrying out a decision: the chosen action changes the state, then the turn goes
on until someone must decide again (the rulebook's choices at each space, in the
upgrade window, in a debt, and in answer to an offer).

``play`` is the whole move: ``resolve`` the action, then ``run_turns`` over the
turns that need no decision. Legality is checked before (``choices.problem``).

    >>> import potluck
    >>> g = potluck.load_game("belly-battle")
    >>> s = g.new_game(2, seed=1)
    >>> seat = s.acting[0]
    >>> play(g, s, seat, g.legal_actions(s, seat)[0]); s.acting != ()
    True
"""

from __future__ import annotations

from potluck.games.belly_battle.actions import (
    ACCEPT,
    BUY,
    CHEF,
    INSURE,
    OFFER,
    PASS,
    SELL,
    SELL_CHEF,
    STAR,
    SWAP,
    TAKEOVER,
    TUNNEL,
    BellyAction,
)
from potluck.games.belly_battle.bank_sales import sell_card, sell_chef, sell_star
from potluck.games.belly_battle.chefs_and_star import add_star, hire_chef
from potluck.games.belly_battle.choices import SALES
from potluck.games.belly_battle.spaces import (
    buy,
    go_through_tunnel,
    insure,
    pass_on_buying,
    swap_swap,
    takeover_battle,
    yuck,
)
from potluck.games.belly_battle.state import (
    BUY_OR_PASS,
    DEBT,
    INSURE_CHOICE,
    NEXT_TURN,
    RESPOND,
    SWAP_CHOICE,
    TAKEOVER_CHOICE,
    TUNNEL_CHOICE,
    WINDOW,
    YUCK_CHOICE,
    BellyState,
)
from potluck.games.belly_battle.tables import BellyTables
from potluck.games.belly_battle.trades import answer_offer, make_offer
from potluck.games.belly_battle.turn import (
    after_window_deal,
    next_in_window,
    run_turns,
    settle,
)


def play(game: BellyTables, state: BellyState, seat: int, action: BellyAction) -> None:
    """``seat`` takes the legal ``action``; play goes on to the next decision."""
    resolve(game, state, seat, action)
    if state.phase == NEXT_TURN:
        run_turns(game, state)


def resolve(game: BellyTables, state: BellyState, seat: int, action: BellyAction) -> None:
    """Carry out ``action`` in the current phase, then settle what is owed."""
    phase, kind, card = state.phase, action.kind, action.card
    if phase in (WINDOW, DEBT):  # a deal (most decisions are)
        if kind == PASS:
            next_in_window(state)
        elif kind == OFFER:
            make_offer(game, state, seat, action, phase)
        else:
            deal(game, state, seat, kind, card)
            if phase == DEBT:
                settle(game, state)
            else:
                state.window_actions += 1
                after_window_deal(state, seat)
        return
    if kind in SALES:
        # A sale in the middle of a decision: the decision waits for the seller.
        deal(game, state, seat, kind, card)
        return
    if phase == RESPOND:
        seller = answer_offer(game, state, kind == ACCEPT)
        if state.phase != DEBT:
            after_window_deal(state, seller)
            return
    elif phase == BUY_OR_PASS:
        if kind == BUY:
            buy(game, state, seat)
        else:
            pass_on_buying(game, state, seat)
    elif phase == TAKEOVER_CHOICE:
        if kind == TAKEOVER:
            takeover_battle(game, state, seat, card)
    elif phase == SWAP_CHOICE:
        if kind == SWAP:
            swap_swap(game, state, seat, card, action.other)
    elif phase == INSURE_CHOICE:
        if kind == INSURE:
            insure(game, state, seat, card)
    elif phase == YUCK_CHOICE:
        yuck(game, state, seat, action.other)
    elif phase == TUNNEL_CHOICE and kind == TUNNEL:
        go_through_tunnel(game, state, seat)
    settle(game, state)


def deal(game: BellyTables, state: BellyState, seat: int, kind: int, card: int) -> None:
    """Buy a chef or star, or sell a card, chef or star to Mr. Munchwalla."""
    if kind == CHEF:
        hire_chef(game, state, seat, card)
    elif kind == STAR:
        add_star(game, state, seat, card)
    elif kind == SELL:
        sell_card(game, state, seat, card)
    elif kind == SELL_CHEF:
        sell_chef(game, state, seat, card)
    else:  # SELL_STAR
        sell_star(game, state, seat, card)
