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

from potluck.games.belly_battle.state import BANK, BellyState
from potluck.games.belly_battle.tables import BellyTables


def gain(state: BellyState, seat: int, card: int) -> None:
    """``seat`` becomes the owner of ``card``; its tokens go along (ruling BB-8)."""
    state.owner[card] = seat
    state.stamp += 1
    state.acquired[card] = state.stamp


def to_bank(state: BellyState, card: int) -> None:
    """Mr. Munchwalla takes ``card`` back: its tokens return to their supplies."""
    state.owner[card] = BANK
    state.chefs[card] = 0
    state.star[card] = 0
    state.insured[card] = False
    state.acquired[card] = 0
    if state.golden == card:
        state.golden = -1


def owns_anything(owners: list[int], seat: int) -> bool:
    """Whether ``seat`` owns a card (``owners``: ``state.owner``): ``seat in owners`` as a
    loop of whole numbers, which compiled code runs without Python's comparisons."""
    return any(owner == seat for owner in owners)


def owned(state: BellyState, seat: int) -> list[int]:
    """The cards ``seat`` owns, restaurants first."""
    owner = state.owner
    count = owner.count(seat)  # list scans in C: faster than a loop over every card
    if count <= 1:
        return [owner.index(seat)] if count else []
    found: list[int] = []
    card = -1
    for _ in range(count):
        card = owner.index(seat, card + 1)
        found.append(card)
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
