"""Spaces on the board: what landing on each space does, and the choices some of
them give (rulebook, Spaces on the Board and each special space's passage).

``land`` resolves the mover's space. A space that needs a choice (buy or pass,
Takeover Battle, Swap Swap, BellyGuard Insurance, Yuck!, Tunnel) sets the phase
and ``land`` returns ``True``; the choice is then made by one of the functions
below (``buy``, ``takeover_battle``, ``swap_swap``...). Money owed goes on the
state's payment queue, which the turn settles (``turn.settle``).

    >>> import potluck
    >>> g = potluck.load_game("belly-battle")
    >>> s = g.new_game(2, seed=1)
    >>> defender_rolls(1, 0), g.space_name(s.pos[s.turn]) != ""
    (2, True)
"""

from __future__ import annotations

from potluck.engine.chance import uniform
from potluck.games.belly_battle.bank_sales import bank_value
from potluck.games.belly_battle.munch_fees import fee_recipient, munch_fee
from potluck.games.belly_battle.ownership import gain, guard_supply, last_bought
from potluck.games.belly_battle.state import (
    ALONE,
    BANK,
    BUY_OR_PASS,
    INSURE_CHOICE,
    NOBODY,
    ROUND_CARD_NAMES,
    ST_BOUGHT,
    ST_MUNCH,
    ST_SWAPS,
    ST_TAKE_LOST,
    ST_TAKE_WON,
    ST_TUNNELS,
    SWAP_CHOICE,
    TAKEOVER_CHOICE,
    TUNNEL_CHOICE,
    YUCK_CHOICE,
    BellyState,
)
from potluck.games.belly_battle.tables import (
    ROUND_CARD_OF_SPACE,
    SP_BOLLYWOOD,
    SP_CARD,
    SP_GOLDEN,
    SP_GUARD,
    SP_MUNCH,
    SP_SNEAKY,
    SP_SWAP,
    SP_TAKEOVER,
    SP_TUNNEL,
    SP_YUCK,
    BellyTables,
)


def roll_die(state: BellyState) -> int:
    """One die from the state's generator."""
    return int(uniform(state.rng) * 6) + 1


def _decide(state: BellyState, phase: int) -> bool:
    state.phase = phase
    state.acting = ALONE[state.turn]
    return True


def land(game: BellyTables, state: BellyState) -> bool:
    """Resolve the space the mover landed on; ``True`` when the mover must now choose."""
    mover = state.turn
    space = state.pos[mover]
    kind = game.space_kind[space]
    names = game.names
    if kind == SP_CARD:
        card = game.space_card[space]
        owner = state.owner[card]
        if owner == BANK:
            # Short of cash, the mover may first sell to the bank (ruling BB-20).
            if state.cash[mover] + bank_value(game, state, mover) >= game.price[card]:
                return _decide(state, BUY_OR_PASS)
            fee = munch_fee(game, state, card, mover)
            state.queue += (mover, BANK, fee)
            state.say("Seat {} cannot buy {}; pays {} to the bank.", mover, names[card], fee)
        elif owner != mover:
            fee = munch_fee(game, state, card, mover)
            payee = fee_recipient(game, state, card, mover)
            if fee:
                state.queue += (mover, payee, fee)
            state.say("Seat {} owes {} to seat {} at {}.", mover, fee, payee, names[card])
    elif kind == SP_TAKEOVER:
        if takeover_targets(game, state, mover):
            return _decide(state, TAKEOVER_CHOICE)
        state.say("Nothing to take over.")
    elif kind == SP_SWAP:
        if can_swap(game, state, mover):
            return _decide(state, SWAP_CHOICE)
        state.say("Nothing to swap.")
    elif kind == SP_SNEAKY:
        for seat in range(state.num_players):
            if seat != mover:
                state.knows[mover] |= 1 << seat
        state.say("Seat {} peeks at every Munchtime card.", mover)
    elif kind == SP_GOLDEN:
        state.golden = last_bought(game, state, mover)
        state.cards_changed()
        if state.golden >= 0:
            state.say("The Golden Belly Award goes to {}.", names[state.golden])
        else:
            state.say("The Golden Belly Award returns to its space.")
    elif kind == SP_MUNCH:
        munchtime(game, state, mover)
    elif kind == SP_GUARD:
        if guard_supply(game, state) > 0 and any(
            state.owner[c] == mover and not state.insured[c] for c in range(game.num_restaurants)
        ):
            return _decide(state, INSURE_CHOICE)
        state.say("No BellyGuard card to take.")
    elif kind == SP_YUCK:
        return _decide(state, YUCK_CHOICE)
    elif kind in ROUND_CARD_OF_SPACE:
        slot = ROUND_CARD_OF_SPACE[kind]
        if state.holders[slot] == NOBODY:
            state.holders[slot] = mover
            state.cards_changed()
            state.say("Seat {} takes the {} card.", mover, ROUND_CARD_NAMES[slot])
        else:
            state.say("The {} card is already out.", ROUND_CARD_NAMES[slot])
    elif kind == SP_BOLLYWOOD:
        if any(state.owner[c] == mover for c in range(game.num_restaurants)):
            state.cash[mover] += game.bank.bollywood_bonus
            state.bank_net -= game.bank.bollywood_bonus
            state.say("Bollywood shoots at seat {}'s restaurant: +100.", mover)
    elif kind == SP_TUNNEL:
        if not state.tunnel_blocked:
            return _decide(state, TUNNEL_CHOICE)
        state.say("Seat {} went through the tunnel last turn and stays.", mover)
    return False


# ---------------------------------------------------------------- restaurants and cafes


def buy(game: BellyTables, state: BellyState, seat: int) -> None:
    """Buying restaurants / cafes: the lander pays the price to Mr. Munchwalla."""
    card = game.space_card[state.pos[seat]]
    state.cash[seat] -= game.price[card]
    state.bank_net += game.price[card]
    gain(state, seat, card)
    state.stats[ST_BOUGHT] += 1
    state.say("Seat {} buys {} for {}.", seat, game.names[card], game.price[card])


def pass_on_buying(game: BellyTables, state: BellyState, seat: int) -> None:
    """Not buying: the lander still owes the basic fee to Mr. Munchwalla."""
    card = game.space_card[state.pos[seat]]
    fee = munch_fee(game, state, card, seat)
    state.queue += (seat, BANK, fee)
    state.say("Seat {} passes on {}; pays {} to the bank.", seat, game.names[card], fee)


# ---------------------------------------------------------------- Takeover Battle


def takeover_targets(game: BellyTables, state: BellyState, seat: int) -> list[int]:
    """Other players' restaurants and cafes without a BellyGuard card."""
    owner, insured = state.owner, state.insured
    return [
        c for c in range(game.num_cards) if owner[c] != BANK and owner[c] != seat and not insured[c]
    ]


def defender_rolls(chefs: int, star: int) -> int:
    """Dice the owner rolls in a Takeover Battle: 1, 2 with a chef, 3 with two, 4 with a star.

    >>> defender_rolls(0, 0), defender_rolls(2, 0), defender_rolls(2, 1)
    (1, 3, 4)
    """
    return 4 if star else 1 + chefs


def takeover_battle(game: BellyTables, state: BellyState, challenger: int, card: int) -> None:
    """One die against the owner's best of 1-4; ties roll again. The winner of the
    card takes its tokens; a failed challenger owes the card's Munch Fee."""
    defender = state.owner[card]
    rolls = (
        defender_rolls(state.chefs[card], state.star[card]) if card < game.num_restaurants else 1
    )
    while True:
        attack = roll_die(state)
        defence = max(roll_die(state) for _ in range(rolls))
        if attack != defence:
            break
    name = game.names[card]
    if attack > defence:
        gain(state, challenger, card)
        state.stats[ST_TAKE_WON] += 1
        state.say(
            "Takeover: seat {} rolls {} to {} and wins {}.", challenger, attack, defence, name
        )
    else:
        fee = munch_fee(game, state, card, challenger)
        if fee:
            state.queue += (challenger, defender, fee)
        state.stats[ST_TAKE_LOST] += 1
        state.say(
            "Takeover: seat {} rolls {} to {}, fails at {} and owes {}.",
            challenger,
            attack,
            defence,
            name,
            fee,
        )


# ---------------------------------------------------------------- Swap Swap


def can_swap(game: BellyTables, state: BellyState, seat: int) -> bool:
    """``seat`` has an uninsured restaurant and another player has one too."""
    owner, insured = state.owner, state.insured
    r_count = game.num_restaurants
    mine = any(owner[c] == seat and not insured[c] for c in range(r_count))
    theirs = any(owner[c] not in (BANK, seat) and not insured[c] for c in range(r_count))
    return mine and theirs


def swap_swap(game: BellyTables, state: BellyState, seat: int, mine: int, theirs: int) -> None:
    """``seat`` gives ``mine`` for another player's ``theirs``; tokens go along."""
    other = state.owner[theirs]
    gain(state, other, mine)
    gain(state, seat, theirs)
    state.stats[ST_SWAPS] += 1
    state.say(
        "Swap Swap: seat {} gives {} to seat {} for {}.",
        seat,
        game.names[mine],
        other,
        game.names[theirs],
    )


# ---------------------------------------------------------------- Munchtime


def munchtime(game: BellyTables, state: BellyState, lander: int) -> None:
    """Every other player reveals their card and pays the lander the fee of each of the
    lander's restaurants of its two cuisines; the cards go back and new ones are drawn."""
    n = state.num_players
    state.stats[ST_MUNCH] += 1
    mine = [c for c in range(game.num_restaurants) if state.owner[c] == lander]
    for k in range(1, n):
        seat = (lander + k) % n
        card = state.munch[seat]
        first, second = game.munch_cards[card]
        owed = 0
        for r in mine:
            if game.cuisine_of[r] in (first, second):
                owed += munch_fee(game, state, r, seat)
        if owed:
            state.queue += (seat, lander, owed)
        state.say(
            "Seat {} shows {}+{}: owes {} to seat {}.",
            seat,
            game.cuisines[first],
            game.cuisines[second],
            owed,
            lander,
        )
        deck = state.deck
        deck.append(card)
        deck.sort()
        state.munch[seat] = deck.pop(int(uniform(state.rng) * len(deck)))
        mask = ~(1 << seat)
        for other in range(n):
            state.knows[other] &= mask


# ---------------------------------------------------------------- BellyGuard, Yuck!, Tunnel


def insure(game: BellyTables, state: BellyState, seat: int, card: int) -> None:
    """BellyGuard Insurance: the card by ``card`` protects it from takeovers and swaps."""
    state.insured[card] = True
    state.say("Seat {} insures {} with BellyGuard.", seat, game.names[card])


def yuck(game: BellyTables, state: BellyState, seat: int, victim: int) -> None:
    """Yuck! Cockroach in food: ``seat`` owes the compensation to ``victim``."""
    state.queue += (seat, victim, game.bank.yuck_fine)
    state.say("Yuck! Seat {} owes {} to seat {}.", seat, game.bank.yuck_fine, victim)


def go_through_tunnel(game: BellyTables, state: BellyState, seat: int) -> None:
    """The pawn moves to the tunnel's other end (not again on the next turn)."""
    state.pos[seat] = game.tunnel_exit[state.pos[seat]]
    state.tunnel_used[seat] = True
    state.stats[ST_TUNNELS] += 1
    state.say("Seat {} goes through the tunnel.", seat)
