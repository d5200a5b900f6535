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
    shared by every party of the same shape (the sizes of its groups and ``fifth``):
    legality asks this on every step, so it is a look-up after its first time, by a
    whole number that packs the five sizes (no tuple to build and hash)."""
    a = len(parties[base])
    b = len(parties[base + 1])
    c = len(parties[base + 2])
    d = len(parties[base + 3])
    e = len(parties[base + 4])
    shape = ((((a << 6 | b) << 6 | c) << 6 | d) << 6) | e  # a group holds at most FULL
    known = _PLACES_FIFTH if fifth else _PLACES
    places = known.get(shape)
    if places is None:
        places = known[shape] = _places_by_sizes((a, b, c, d, e), fifth)
    return places


def may_join(parties: list[list[int]], base: int, slot: int, fifth: bool) -> bool:
    """Whether a new guest may join group ``slot`` of the party starting at
    ``parties[base]``: ``slot in places_for(parties, base, fifth)``, asked directly."""
    group = parties[base + slot]
    if group:
        return len(group) < FULL
    if not all(parties[base : base + slot]):
        return False  # a new group opens in the lowest empty slot only
    used = SLOTS - parties[base : base + SLOTS].count([])
    return used < MAX_GROUPS + (1 if fifth else 0)


def _places_by_sizes(sizes: tuple[int, ...], fifth: bool) -> tuple[int, ...]:
    used = sum(1 for size in sizes if size)
    limit = MAX_GROUPS + (1 if fifth else 0)
    slots = []
    new_slot = -1
    for slot, size in enumerate(sizes):
        if size:
            if size < FULL:
                slots.append(slot)
        elif new_slot < 0 and used < limit:
            new_slot = slot
            slots.append(slot)
    return tuple(slots)


#: ``places_for`` by the sizes of a party's groups, packed six bits a group (at most
#: 6**5 entries, a few hundred in practice), without and with Grand Dame Gwendolyn's
#: fifth group.
_PLACES: dict[int, tuple[int, ...]] = {}
_PLACES_FIFTH: dict[int, tuple[int, ...]] = {}


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
