"""Who owns what: cards changing hands, Mr. Munchwalla taking them back, and the
token supplies he keeps (rulebook, Setup 5 and Chefs and Star).

A card's chefs, star and BellyGuard card go along with it when it changes player
owner (ruling BB-8) and return to the supplies when the bank takes it back.

    >>> import potluck
    >>> g = potluck.load_game("belly-battle")
    >>> s = g.new_game(2, seed=1)
    >>> len(owned(s, 0)), chef_supply(g, s)
    (1, 24)
"""

from __future__ import annotations

from typing import Final

from potluck.games.belly_battle.state import BANK, BellyState
from potluck.games.belly_battle.tables import BellyTables


def gain(state: BellyState, seat: int, card: int) -> None:
    """``seat`` becomes the owner of ``card``; its tokens go along (ruling BB-8)."""
    owner, holdings = state.owner, state.holdings
    before = owner[card]
    if before != BANK:
        holdings[before] &= ~(1 << card)
    holdings[seat] |= 1 << card
    owner[card] = seat
    state.cards_changed()
    state.stamp += 1
    state.acquired[card] = state.stamp


def to_bank(state: BellyState, card: int) -> None:
    """Mr. Munchwalla takes ``card`` back: its tokens return to their supplies."""
    before = state.owner[card]
    if before != BANK:
        state.holdings[before] &= ~(1 << card)
    state.owner[card] = BANK
    state.cards_changed()
    state.chefs[card] = 0
    state.star[card] = 0
    state.insured[card] = False
    state.acquired[card] = 0
    if state.golden == card:
        state.golden = -1


def owns_anything(state: BellyState, seat: int) -> bool:
    """Whether ``seat`` owns a card (``seat in state.owner``, read from its bits: a pass
    over every card at most steps was 6% of a random step, issue 36)."""
    return state.holdings[seat] != 0


def holdings_of(owners: list[int], seat: int) -> int:
    """The cards ``seat`` owns in ``owners`` (``state.owner``) as bits: what
    ``state.holdings[seat]`` keeps (set up and checked from the owners by this)."""
    bits = 0
    for card in range(len(owners)):
        if owners[card] == seat:
            bits |= 1 << card
    return bits


def owned(state: BellyState, seat: int) -> list[int]:
    """The cards ``seat`` owns, restaurants first (in card order: ``cards_of`` its bits)."""
    return cards_of(state.holdings[seat])


#: The bits set in each byte, lowest first: ``_BITS_OF_BYTE[byte]``.
_BITS_OF_BYTE: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(bit for bit in range(8) if byte >> bit & 1) for byte in range(256)
)


def cards_of(bits: int) -> list[int]:
    """The cards whose bits are set, in card order (``1 << card`` for each).

    Read a byte at a time (a seat owns a few of some thirty cards: read bit by bit, it
    was 9.7 M instructions of 100 random games, byte by byte 5.2 M; issue 36).

        >>> cards_of(0), cards_of(0b1011), cards_of(1 << 40 | 1 << 8)
        ([], [0, 1, 3], [8, 40])
    """
    found: list[int] = []
    base = 0
    while bits:
        byte = bits & 255
        if byte:
            for bit in _BITS_OF_BYTE[byte]:
                found.append(base + bit)
        bits >>= 8
        base += 8
    return found


def last_bought(game: BellyTables, state: BellyState, seat: int) -> int:
    """The restaurant ``seat`` acquired most recently and still owns, or -1 (Golden Belly)."""
    best, when = -1, 0
    for card in range(game.num_restaurants):
        if state.owner[card] == seat and state.acquired[card] > when:
            best, when = card, state.acquired[card]
    return best


def chef_supply(game: BellyTables, state: BellyState) -> int:
    """Chef tokens Mr. Munchwalla still has."""
    used = 0
    for chefs in state.chefs:
        used += chefs
    return game.chef_tokens - used


def star_supply(game: BellyTables, state: BellyState) -> int:
    """Star tokens Mr. Munchwalla still has."""
    used = 0
    for star in state.star:
        used += star
    return game.star_tokens - used


def guard_supply(game: BellyTables, state: BellyState) -> int:
    """BellyGuard Insurance cards left on their space."""
    return game.bank.bellyguards - sum(state.insured)
