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
from typing import Any

from potluck.engine.chance import shuffle
from potluck.games.belle_of_the_ball.belles import hand_plays
from potluck.games.belle_of_the_ball.scoring import outcome
from potluck.games.belle_of_the_ball.seat_info import EFFECT_WORDS, SeatInfo
from potluck.games.belle_of_the_ball.setup import line_size
from potluck.games.belle_of_the_ball.state import BELLE_BASE, SLOTS, BelleState
from potluck.games.belle_of_the_ball.tables import GAME_ID, BelleTables

__all__ = [
    "EFFECT_WORDS",
    "belle_json",
    "build_seat_info",
    "build_view",
    "card_json",
    "redeal_unseen",
]


def card_json(game: BelleTables, card: int) -> dict[str, Any]:
    """A card as the table sees it: a guest with its interests, or a Belle."""
    if card >= BELLE_BASE:
        return belle_json(game, card - BELLE_BASE)
    return {
        "guest": game.guest_slugs[card],
        "name": game.guest_names[card],
        "interests": list(game.guest_interest_names[card]),
    }


def belle_json(game: BelleTables, kind: int) -> dict[str, Any]:
    """A Belle card as the table sees it: name, family, effect and text."""
    return {
        "belle": game.belle_slugs[kind],
        "name": game.belle_names[kind],
        "family": game.belle_families[kind],
        "effect": game.belle_effects[kind],
        "text": game.belle_texts[kind],
    }


def build_view(game: BelleTables, state: BelleState, seat: int | None) -> dict[str, Any]:
    n = state.num_players
    over = not state.acting
    players = []
    # card_json for the guests in parties, inlined: a view has up to a hundred of them.
    slugs, names, shows = game.guest_slugs, game.guest_names, game.guest_interest_names
    parties = state.parties
    for s in range(n):
        base = s * SLOTS
        players.append(
            {
                "seat": s,
                "chips": state.chips[s],
                "hand_size": len(state.hands[s]),
                "groups": [
                    [
                        {"guest": slugs[g], "name": names[g], "interests": list(shows[g])}
                        for g in parties[slot]
                    ]
                    for slot in range(base, base + SLOTS)
                ],
                "full_groups_scored": state.groups_scored[s],
                "chips_from_groups": state.group_chips[s],
                "chips_spent_skipping": state.skip_chips[s],
            }
        )
        if state.variant:
            # In the variant every Belle in a hand was invited from the face-up line, in
            # front of everyone (ruling BB-20): whose hand holds which is public.
            players[-1]["belles_taken_openly"] = [game.belle_slugs[k] for k in state.hands[s]]
    line_chips = state.line_chips
    line = [
        {
            "position": i + 1,
            "chips": line_chips[i],
            "guest": slugs[card],
            "name": names[card],
            "interests": list(shows[card]),
        }
        if card < BELLE_BASE
        else {"position": i + 1, "chips": line_chips[i], **belle_json(game, card - BELLE_BASE)}
        for i, card in enumerate(state.line)
    ]
    view: dict[str, Any] = {
        "game": GAME_ID,
        "seat": seat,
        "num_players": n,
        "round": state.round,
        "rounds_left_after_this": len(state.deck) // line_size(game, n),
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
        view["you"] = {"hand": [belle_json(game, k) for k in state.hands[seat]]}
    if over:
        result = outcome(state)
        view["final_scores"] = list(result.scores)
        view["winners"] = list(result.winners)
        view["result"] = result.reason
    return view


def build_seat_info(game: BelleTables, state: BelleState, seat: int) -> SeatInfo:
    """What the greedy bot reads (``Game.bot_view``): the entries of ``seat``'s view that
    ``SeatInfo.from_view`` reads, taken from the state as ``build_view`` takes them.

    Valid until the state changes: the seats' chips, the parties (the container and each
    party's list, its size its length) and the seat's hand are the state's own lists,
    read live, not copied; every caller decides before it steps the state (issue 36:
    copying them into tuples and packing the parties' sizes, then freeing them, was
    about a fourteenth of a greedy game). The line and the chips on it are copied: the
    greedy bot's planner keeps them from one decision to the next (``greedy_plan``'s
    kept terms, compared by identity first). The bot only reads the lists; a party's
    list only ever grows in place (``BelleState.parties``), so its planner counts on
    from a list it counted before."""
    over = not state.acting
    may_play = state.played_now == -1 and not over
    hand = state.hands[seat]
    # (the Belle plays of the legal list, when it has some: ``Game.legal_actions``)
    plays = hand_plays(game, state, seat) if may_play and hand and seat in state.acting else None
    return SeatInfo(
        seat,
        len(state.deck) // line_size(game, state.num_players),
        bool(state.variant),
        tuple(state.line),
        tuple(state.line_chips),
        state.chips,
        state.parties,
        state.effects,
        0 if over else state.invites_left,
        may_play,
        hand,
        plays,
    )


def redeal_unseen(
    game: BelleTables, state: BelleState, seat: int, rng: random.Random
) -> BelleState:
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
    others = [] if state.variant else [s for s in range(n) if s != seat]
    guests = [c for c in twin.deck if c < BELLE_BASE] + twin.boxed
    belles = [c - BELLE_BASE for c in twin.deck if c >= BELLE_BASE] + twin.belle_deck
    for s in others:
        belles += twin.hands[s]
    # Sorted first, so the draw depends only on what the seat knows, not the true order.
    guests.sort()
    belles.sort()
    shuffle(rng, guests)
    shuffle(rng, belles)
    boxed = len(twin.boxed)
    twin.boxed = sorted(guests[:boxed])
    guests = guests[boxed:]
    for s in others:
        size = len(twin.hands[s])
        twin.hands[s] = sorted(belles[:size])
        belles = belles[size:]
    if state.variant:
        twin.deck = guests + [BELLE_BASE + k for k in belles]
        shuffle(rng, twin.deck)
    else:
        twin.deck = guests
        shuffle(rng, twin.deck)
        twin.belle_deck = belles
    twin.seed_rng(rng.getrandbits(64))
    return twin
