"""What each seat may know in Belle of the Ball, and re-dealing what it may not.

Public: the line (cards and the chips on them), every party's groups, every
player's chips and number of Belles in hand, the Start Player token, whose turn
it is and which Belle they played this turn, the Belle discard pile, the
discarded guests (scored groups and guests sent away), and how many cards are
left in each deck. Private to a seat: its own Belle hand. Never shown: other
hands, the order and contents of the decks, the twelve guests discarded unseen
at setup, and the RNG.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from potluck.games.belle_of_the_ball.state import (
    BELLE_BASE,
    FIFTH_GROUP,
    FOUR_IS_FULL,
    FREE_SKIPS,
    FULL,
    SINGLES_SCORE,
    SLOTS,
    BelleState,
)

if TYPE_CHECKING:
    from potluck.games.belle_of_the_ball.rules import BelleOfTheBall

EFFECT_WORDS = (
    (FREE_SKIPS, "free_skips"),
    (FOUR_IS_FULL, "four_is_full"),
    (SINGLES_SCORE, "singles_score"),
    (FIFTH_GROUP, "fifth_group"),
)


def build_view(game: BelleOfTheBall, state: BelleState, seat: int | None) -> dict[str, Any]:
    n = state.num_players
    over = not state.acting
    players = []
    for s in range(n):
        base = s * SLOTS
        players.append(
            {
                "seat": s,
                "chips": state.chips[s],
                "hand_size": len(state.hands[s]),
                "groups": [
                    [game.card_json(g) for g in state.parties[base + slot]] for slot in range(SLOTS)
                ],
                "full_groups_scored": state.groups_scored[s],
                "chips_from_groups": state.group_chips[s],
                "chips_spent_skipping": state.skip_chips[s],
            }
        )
        if state.options["belles_in_guest_deck"]:
            # In the variant every Belle in a hand was invited from the face-up line, in
            # front of everyone (ruling BB-20): whose hand holds which is public.
            players[-1]["belles_taken_openly"] = [game.belle_slugs[k] for k in state.hands[s]]
    line = [
        {"position": i + 1, "chips": state.line_chips[i], **game.card_json(card)}
        for i, card in enumerate(state.line)
    ]
    view: dict[str, Any] = {
        "game": game.id,
        "seat": seat,
        "num_players": n,
        "round": state.round,
        "rounds_left_after_this": len(state.deck) // game.line_size(n),
        "to_act": list(state.acting),
        "turn": None if over else state.turn,
        "start_player": state.start,
        "options": dict(state.options),
        "interests": list(game.interest_names),
        "line": line,
        "this_turn": {
            "belle_played": (
                game.belle_names[state.played_now] if state.played_now >= 0 and not over else None
            ),
            "may_play_belle": state.played_now == -1 and not over,
            "invites_left": 0 if over else state.invites_left,
            "rules_bent": [word for bit, word in EFFECT_WORDS if state.effects & bit],
        },
        "decks": {
            "guest_deck": len(state.deck),
            "belle_deck": len(state.belle_deck),
            "discarded_at_setup": len(state.boxed),
        },
        "belle_discard": [game.belle_slugs[k] for k in state.belle_discard],
        "guest_discard": [game.guest_slugs[g] for g in state.guest_discard],
        "players": players,
    }
    if seat is not None:
        view["you"] = {"hand": [game.belle_json(k) for k in state.hands[seat]]}
    if over:
        outcome = game.outcome(state)
        view["final_scores"] = list(outcome.scores)
        view["winners"] = list(outcome.winners)
        view["result"] = outcome.reason
    return view


def redeal(game: BelleOfTheBall, state: BelleState, seat: int, rng: random.Random) -> BelleState:
    """Redraw what ``seat`` cannot see: the deck's order and contents, the guests
    discarded at setup, the other seats' Belle hands and the Belle deck. In the
    designer's variant the hands are known (every Belle in one was invited from the
    face-up line) and stay as they are.

    Unseen guests (deck and setup discard) are shuffled together; unseen Belles
    (deck, Belle deck, other hands) likewise. The setup discard gets guests back,
    the other hands and the Belle deck get Belles back (same sizes), and the deck
    the rest, shuffled. Returns a new state with a fresh RNG.
    """
    twin = state.clone()
    n = state.num_players
    # In the variant the hands were taken face up from the line: everyone knows them.
    others = [] if state.options["belles_in_guest_deck"] else [s for s in range(n) if s != seat]
    guests = [c for c in twin.deck if c < BELLE_BASE] + twin.boxed
    belles = [c - BELLE_BASE for c in twin.deck if c >= BELLE_BASE] + twin.belle_deck
    for s in others:
        belles += twin.hands[s]
    # Sorted first, so the draw depends only on what the seat knows, not the true order.
    guests.sort()
    belles.sort()
    rng.shuffle(guests)
    rng.shuffle(belles)
    boxed = len(twin.boxed)
    twin.boxed = sorted(guests[:boxed])
    guests = guests[boxed:]
    for s in others:
        size = len(twin.hands[s])
        twin.hands[s] = sorted(belles[:size])
        belles = belles[size:]
    if state.options["belles_in_guest_deck"]:
        twin.deck = guests + [BELLE_BASE + k for k in belles]
        rng.shuffle(twin.deck)
    else:
        twin.deck = guests
        rng.shuffle(twin.deck)
        twin.belle_deck = belles
    twin.rng = random.Random(rng.getrandbits(64))
    return twin


def _turn_problems(game: BelleOfTheBall, state: BelleState) -> list[str]:
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


def invariant_problems(game: BelleOfTheBall, state: BelleState) -> list[str]:
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
