"""Munch Fees: what a visitor pays (rulebook, Paying Munch Fees, Double your Munch
Fees, Golden Belly Award, and the one-round cards that change fees).

The order in which the modifiers stack is ``munch_fee``'s (ruling BB-3); who
receives a fee paid next to the Golden Belly restaurant is ``fee_recipient``'s
(ruling BB-4).

    >>> import potluck
    >>> g = potluck.load_game("belly-battle")
    >>> s = g.new_game(2, seed=1)
    >>> card = s.owner.index(0)   # seat 0's dealt restaurant
    >>> munch_fee(g, s, card, 1) == g.fees[card][0]
    True
"""

from __future__ import annotations

from potluck.games.belly_battle.state import (
    BANK,
    CELEBRITY,
    CHEESY,
    HAUNTED,
    MONSTERCHEF,
    NOBODY,
    BellyState,
)
from potluck.games.belly_battle.tables import BellyTables


def in_triple(game: BellyTables, state: BellyState, card: int, owner: int) -> bool:
    """Double your Munch Fees: ``owner`` holds ``card`` and the two beside it in a run of
    three restaurants on three spaces in a row."""
    return holds_triple(game, state.owner, card, owner)


def holds_triple(game: BellyTables, owners: list[int], card: int, owner: int) -> bool:
    """``in_triple`` read from the cards' owners alone (``owners``: ``state.owner``)."""
    for a, b, c in game.triples[card]:
        if owners[a] == owner and owners[b] == owner and owners[c] == owner:
            return True
    return False


def munch_fee(game: BellyTables, state: BellyState, card: int, payer: int) -> int:
    """The Munch Fee ``payer`` owes for ``card``, every modifier applied (ruling BB-3).

    Mr. Munchwalla's cards charge the plain basic fee (a cafe its fixed fee). For a
    player's restaurant: Haunted or Cheesy Scandal make it 0; otherwise the fee of
    its level (basic, 1 chef, 2 chefs, star) is doubled for three in a row, again
    for the Golden Belly Award, again for MonsterChef, and then Celebrity Visit
    adds 50. Cafes are never modified. An owner pays nothing to themselves.
    """
    return fee_of(
        game, state.owner, state.chefs, state.star, state.holders, state.golden, card, payer
    )


def fee_of(
    game: BellyTables,
    owners: list[int],
    chefs: list[int],
    star: list[int],
    holders: list[int],
    golden: int,
    card: int,
    payer: int,
) -> int:
    """``munch_fee`` read from the public parts of the table it depends on alone (the
    state's ``owner``, ``chefs``, ``star``, ``holders`` and ``golden``), so that what a
    seat may know gives the same fee (``seat_info.SeatInfo.fees``)."""
    owner = owners[card]
    if owner == payer:
        return 0
    if card >= game.num_restaurants:
        return game.cafe_fee
    fees = game.fees[card]
    if owner == BANK:
        return fees[0]
    if holders[HAUNTED] == owner or (holders[CHEESY] != NOBODY and game.cheese[card]):
        return 0
    fee = fees[3] if star[card] else fees[chefs[card]]
    if game.triples[card] and holds_triple(game, owners, card, owner):
        fee *= 2
    if golden == card:
        fee *= 2
    if holders[MONSTERCHEF] == owner:
        fee *= 2
    if holders[CELEBRITY] == owner:
        fee += game.celebrity_bonus
    return fee


def listed_fee(
    game: BellyTables,
    owners: list[int],
    chefs: list[int],
    star: list[int],
    holders: list[int],
    golden: int,
    card: int,
) -> int:
    """The fee a card shows on the table (a view's ``fee``): what a visitor would pay,
    or Mr. Munchwalla's fee (``bank_fee``) for a card he holds (his fees are never
    modified, ruling BB-3: ``fee_of`` gives 0 there, as ``BANK`` is ``NOBODY``)."""
    if owners[card] == BANK:
        return game.bank_fee[card]
    return fee_of(game, owners, chefs, star, holders, golden, card, NOBODY)


def fee_recipient(game: BellyTables, state: BellyState, card: int, payer: int) -> int:
    """Who receives the fee paid on landing at ``card``: its owner, unless the card is
    next to the Golden Belly restaurant, whose owner then takes it (ruling BB-4)."""
    owner = state.owner[card]
    golden = state.golden
    if owner != BANK and golden >= 0 and card in game.neighbours[golden]:
        holder = state.owner[golden]
        if holder not in (BANK, owner, payer):
            return holder
    return owner
