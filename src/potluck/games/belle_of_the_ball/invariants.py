"""What every Belle of the Ball state keeps true: every card in exactly one place, chips
conserved, groups and hands within the rules (``Game.invariants``; a hand-edited save
that breaks them is refused by ``from_json``).
"""

from __future__ import annotations

from collections import Counter

from potluck.games.belle_of_the_ball.state import BELLE_BASE, FULL, SLOTS, BelleState
from potluck.games.belle_of_the_ball.tables import BelleTables


def _turn_problems(game: BelleTables, state: BelleState) -> list[str]:
    """Sizes of the per-seat lists, and whose turn, which round, which Belle this turn."""
    n = state.num_players
    problems = [
        f"{name} has {len(getattr(state, name))} entries, not {size}"
        for name, size in (
            ("chips", n),
            ("hands", n),
            ("parties", n * SLOTS),
            ("groups_scored", n),
            ("group_chips", n),
            ("skip_chips", n),
            ("belles_invited", n),
            ("belle_skip_chips", n),
            ("belles_played", n * game.kinds),
        )
        if len(getattr(state, name)) != size
    ]
    if not 0 <= state.start < n:
        problems.append(f"the Start Player token is with seat {state.start}, not 0 to {n - 1}")
    if not 0 <= state.turn < n:
        problems.append(f"it is seat {state.turn}'s turn: there are seats 0 to {n - 1}")
    if state.round < 1:
        problems.append(f"round {state.round}: rounds count from 1")
    kinds = len(game.belle_names)
    if not -2 <= state.played_now < kinds:
        problems.append(f"the Belle played this turn is {state.played_now}, not -2 to {kinds - 1}")
    if not 0 <= state.invites_left <= 2:
        problems.append(f"{state.invites_left} invitations left this turn (0 to 2)")
    if not 0 <= state.effects < 16:
        problems.append(f"the rules bent this turn ({state.effects}) are not a set of four")
    if state.acting and state.acting != (state.turn,):
        problems.append(f"seat(s) {list(state.acting)} act on seat {state.turn}'s turn")
    stats = (
        state.groups_scored
        + state.group_chips
        + state.skip_chips
        + state.belles_invited
        + state.belle_skip_chips
        + state.belles_played
    )
    if stats and min(stats) < 0:
        problems.append("a negative count among the seats' statistics")
    return problems


def invariant_problems(game: BelleTables, state: BelleState) -> list[str]:
    """Every card is in exactly one place; chips are conserved; groups and hands are sound."""
    problems = _turn_problems(game, state)
    if problems:
        return problems  # the cards below would be read with a wrong seat or size
    n = state.num_players
    cards = state.deck + state.boxed + state.line + state.guest_discard
    for group in state.parties:
        cards += group
    belles = [c - BELLE_BASE for c in cards if c >= BELLE_BASE] + state.belle_deck
    belles += state.belle_discard
    for hand in state.hands:
        belles += hand
    guests = sorted(c for c in cards if c < BELLE_BASE)
    if guests != list(range(len(game.guest_names))):
        problems.append("guest cards are not conserved")
    if Counter(belles) != Counter(game.belle_cards):
        problems.append("Belle cards are not conserved")
    if any(c >= BELLE_BASE for g in state.parties for c in g):
        problems.append("a Belle sits in a party")
    if not state.variant and any(c >= BELLE_BASE for c in state.deck + state.line):
        # Only the designer's variant shuffles Belles into the guest deck (and the legal
        # invitations of the base game never look for one in the line).
        problems.append("a Belle in the guest deck or line without the variant")
    if sum(state.chips) + sum(state.line_chips) != n * game.starting_chips + state.minted:
        problems.append("chips are not conserved")
    if min(state.chips) < 0 or (state.line_chips and min(state.line_chips) < 0):
        problems.append("a negative pile of chips")
    if len(state.line_chips) != len(state.line):
        problems.append("the line and its chips differ in length")
    for s in range(n):
        groups = state.parties[s * SLOTS : s * SLOTS + SLOTS]
        if any(len(g) > FULL for g in groups):
            problems.append(f"seat {s} has a group of more than five")
        if state.acting and s != state.turn and any(len(g) >= FULL for g in groups):
            problems.append(f"seat {s} kept a full group after its turn")
        if state.hands[s] != sorted(state.hands[s]):
            problems.append(f"seat {s}'s hand is not sorted")
    return problems
