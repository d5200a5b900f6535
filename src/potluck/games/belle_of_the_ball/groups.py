"""Step 2, Group: each new guest joins one of your groups, at most four groups of five.

``parties[seat * SLOTS + slot]`` holds a group; an empty list is no group. A new group
opens in the lowest empty slot; the fifth slot opens only for Grand Dame Gwendolyn.

    >>> import potluck
    >>> game = potluck.load_game("belle-of-the-ball")
    >>> state = game.new_game(2, seed=1)
    >>> placeable(state, 0)          # no group yet: a new one, in slot 0
    [0]
"""

from __future__ import annotations

from typing import Final

from potluck.games.belle_of_the_ball.state import FIFTH_GROUP, FULL, MAX_GROUPS, SLOTS, BelleState


def placeable(state: BelleState, seat: int) -> list[int]:
    """Step 2, Group: the groups a new guest may join, by slot.

    Any group that is not full, or a new group in the lowest empty slot while the
    player has fewer than four groups (five with Grand Dame Gwendolyn this turn).
    """
    fifth = bool(state.effects & FIFTH_GROUP) and seat == state.turn
    return list(places_for(state.parties, seat * SLOTS, fifth))


def places_for(parties: list[list[int]], base: int, fifth: bool) -> tuple[int, ...]:
    """``placeable`` for the party whose slots start at ``parties[base]``, as a tuple
    shared by every party of the same shape (the sizes of its groups and ``fifth``)."""
    return MASK_SLOTS[place_mask(parties, base, fifth)]


def place_mask(parties: list[list[int]], base: int, fifth: bool) -> int:
    """``places_for`` as bits (bit ``slot`` set: a new guest may join group ``slot``):
    legality asks this on every step, so after its first time for a shape it is one
    look-up in a list, at a whole number that packs the five sizes (``_places_by_sizes``
    is the rule)."""
    a = len(parties[base])
    b = len(parties[base + 1])
    c = len(parties[base + 2])
    d = len(parties[base + 3])
    e = len(parties[base + 4])
    if (a | b | c | d | e) >= 8:  # pragma: no cover - a group holds at most FULL
        return _places_by_sizes((a, b, c, d, e), fifth)
    shape = (a << 12 | b << 9 | c << 6 | d << 3 | e) | (_FIFTH if fifth else 0)
    mask = _MASKS[shape]
    if mask < 0:
        mask = _MASKS[shape] = _places_by_sizes((a, b, c, d, e), fifth)
    return mask


def may_join(parties: list[list[int]], base: int, slot: int, fifth: bool) -> bool:
    """Whether a new guest may join group ``slot`` of the party starting at
    ``parties[base]``: ``slot in places_for(parties, base, fifth)``."""
    return 0 <= slot < SLOTS and bool(place_mask(parties, base, fifth) >> slot & 1)


def _places_by_sizes(sizes: tuple[int, int, int, int, int], fifth: bool) -> int:
    """The rule: any group that is not full, or a new group in the lowest empty slot
    while the party has fewer than four groups (five with Grand Dame Gwendolyn); as
    bits by slot."""
    used = sum(1 for size in sizes if size)
    limit = MAX_GROUPS + (1 if fifth else 0)
    mask = 0
    new_slot = -1
    for slot, size in enumerate(sizes):
        if size:
            if size < FULL:
                mask |= 1 << slot
        elif new_slot < 0 and used < limit:
            new_slot = slot
            mask |= 1 << slot
    return mask


#: The slots of each mask of ``place_mask``, in order: ``MASK_SLOTS[0b101] == (0, 2)``.
MASK_SLOTS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(slot for slot in range(SLOTS) if mask >> slot & 1) for mask in range(1 << SLOTS)
)
#: How many slots each mask of ``place_mask`` holds.
MASK_WIDTHS: Final[tuple[int, ...]] = tuple(len(slots) for slots in MASK_SLOTS)
#: ``place_mask`` by the sizes of a party's groups, three bits a group, and a bit for
#: Grand Dame Gwendolyn's fifth group (-1: not worked out yet).
_FIFTH: Final = 1 << 15
_MASKS: Final[list[int]] = [-1] * (2 * _FIFTH)


def group_problem(state: BelleState, seat: int, slot: int) -> str | None:
    """Why the new guest may not join group ``slot``, or ``None`` if it may."""
    places = placeable(state, seat)
    if slot in places:
        return None
    group = state.parties[seat * SLOTS + slot]
    if group:
        return f"Step 2, Group: group {slot + 1} is full (five guests)."
    used = sum(1 for g in state.parties[seat * SLOTS : seat * SLOTS + SLOTS] if g)
    if used >= MAX_GROUPS + (1 if state.effects & FIFTH_GROUP else 0):
        return (
            f"Step 2, Group: you already have {used} groups, the most you may have; "
            "the guest must join one of them."
        )
    new = next(s for s in places if not state.parties[seat * SLOTS + s])
    return f"Step 2, Group: start a new group as group {new + 1}, the first free one."
