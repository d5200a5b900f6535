"""Belle of the Ball's observation vector: one seat's view as fixed-size numbers.

Per-player blocks list the observing seat first, then clockwise. Guests are
encoded by their interests (what the rules look at), not by name; Belles by
kind, in data order (``BelleOfTheBall.belle_slugs``); interests in data order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from potluck.engine.encoding import Feature, ObservationEncoding, ObservationWriter, seats_from
from potluck.games.belle_of_the_ball.belles import HEIRESS_CHIPS
from potluck.games.belle_of_the_ball.scoring import outcome
from potluck.games.belle_of_the_ball.setup import line_size
from potluck.games.belle_of_the_ball.state import BELLE_BASE, FULL, SLOTS, BelleState
from potluck.games.belle_of_the_ball.tables import BelleTables
from potluck.games.belle_of_the_ball.view import EFFECT_WORDS


def features(game: BelleTables, num_players: int, options: Mapping[str, Any]) -> list[Feature]:
    n = num_players
    line = line_size(game, n)
    interests = len(game.interest_names)
    kinds = game.kinds
    guests = len(game.guest_names)
    belles = len(game.belle_cards)
    slot = 2 + interests + kinds
    # A guest shows three interests and scores at most once, so groups mint at most
    # 3 chips a guest; Heiresses mint the rest. Skips cost a chip a guest passed over.
    most_chips = game.starting_chips * n + 3 * guests + HEIRESS_CHIPS * belles
    most_skips = guests * line
    return [
        Feature("round", 1, "the round number", high=guests),
        Feature("rounds_left", 1, "rounds left after this one", high=guests),
        Feature("turn", n, "one-hot: whose turn it is, me first"),
        Feature("start_player", n, "one-hot: who started this round, me first"),
        Feature("belles_in_guest_deck", 1, "1 if the designer's variant is on"),
        Feature(
            "line",
            line * slot,
            f"per line position ({line}): present, chips on it, its guest's interests "
            f"({interests}), one-hot Belle kind if a Belle stands there ({kinds})",
            high=most_chips,
        ),
        Feature("belle_played", kinds, "one-hot: the Belle played this turn"),
        Feature("may_play_belle", 1, "1 if a Belle may still be played this turn"),
        Feature("invites_left", 1, "invitations left this turn", high=3),
        Feature("rules_bent", len(EFFECT_WORDS), "1 per rule a Belle bends this turn"),
        Feature(
            "decks",
            3,
            "cards in the guest deck, the Belle deck, set aside at setup",
            high=guests + belles,
        ),
        Feature("belle_discard", kinds, "Belles of each kind in the discard", high=belles),
        Feature("guest_discard", interests, "discarded guests having each interest", high=guests),
        Feature("chips", n, "each player's chips, me first", high=most_chips),
        Feature("hand_size", n, "cards in each player's hand, me first", high=belles),
        Feature(
            "groups",
            n * SLOTS * (1 + interests),
            f"per player (me first) and group slot ({SLOTS}): guests in it, then how many "
            "of them share each interest",
            high=FULL,
        ),
        Feature("full_groups_scored", n, "full groups scored, me first", high=guests),
        Feature("chips_from_groups", n, "chips won from groups, me first", high=3 * guests),
        Feature("chips_spent_skipping", n, "chips spent skipping, me first", high=most_skips),
        Feature("my_hand", kinds, "Belles of each kind in my hand", high=belles),
        Feature("winners", n, "at the end: 1 for each winner, me first"),
    ]


def encode(game: BelleTables, view: Mapping[str, Any], out: ObservationWriter) -> None:
    n, me = view["num_players"], view["seat"]
    order = seats_from(me, n)
    slot_of = {seat: slot for slot, seat in enumerate(order)}
    interest = game.interest_index
    belle = game.belle_index
    interests, kinds = len(game.interest_names), game.kinds
    width = 2 + interests + kinds
    out.set("round", view["round"])
    out.set("rounds_left", view["rounds_left_after_this"])
    if view["turn"] is not None:
        out.one_hot("turn", slot_of[view["turn"]])
    out.one_hot("start_player", slot_of[view["start_player"]])
    out.set("belles_in_guest_deck", view["options"].get("belles_in_guest_deck", False))
    for position, card in enumerate(view["line"]):
        base = position * width
        out.set("line", 1.0, base)
        out.set("line", card["chips"], base + 1)
        if "belle" in card:
            out.set("line", 1.0, base + 2 + interests + belle[card["belle"]])
        else:
            for name in card["interests"]:
                out.set("line", 1.0, base + 2 + interest[name])
    this_turn = view["this_turn"]
    if this_turn["belle_played"] is not None:
        out.one_hot("belle_played", game.belle_name_index[this_turn["belle_played"]])
    out.set("may_play_belle", this_turn["may_play_belle"])
    out.set("invites_left", this_turn["invites_left"])
    words = [word for _, word in EFFECT_WORDS]
    out.many_hot("rules_bent", (words.index(word) for word in this_turn["rules_bent"]))
    decks = view["decks"]
    out.put("decks", [decks["guest_deck"], decks["belle_deck"], decks["discarded_at_setup"]])
    out.many_hot("belle_discard", (belle[slug] for slug in view["belle_discard"]))
    out.many_hot(
        "guest_discard",
        (i for slug in view["guest_discard"] for i in game.guest_interests[game.guest_index[slug]]),
    )
    per_group = 1 + interests
    for slot, seat in enumerate(order):
        player = view["players"][seat]
        out.set("chips", player["chips"], slot)
        out.set("hand_size", player["hand_size"], slot)
        out.set("full_groups_scored", player["full_groups_scored"], slot)
        out.set("chips_from_groups", player["chips_from_groups"], slot)
        out.set("chips_spent_skipping", player["chips_spent_skipping"], slot)
        for group_slot, group in enumerate(player["groups"]):
            base = (slot * SLOTS + group_slot) * per_group
            out.set("groups", len(group), base)
            for guest in group:
                for name in guest.get("interests", ()):
                    out.values[out.encoding.slice("groups").start + base + 1 + interest[name]] += 1
        if seat in view.get("winners", ()):
            out.set("winners", 1.0, slot)
    if "you" in view:
        out.many_hot("my_hand", (belle[card["belle"]] for card in view["you"]["hand"]))


def encode_state(
    game: BelleTables, state: BelleState, seat: int, encoding: ObservationEncoding
) -> list[float]:
    """The same vector as ``encode(view(state, seat))``, written straight from the state;
    the conformance suite checks along its playouts that the two agree."""
    n = state.num_players
    over = not state.acting
    at = encoding.starts
    v = [0.0] * encoding.size
    interests, kinds = len(game.interest_names), game.kinds
    width = 2 + interests + kinds
    v[at["round"]] = state.round
    v[at["rounds_left"]] = len(state.deck) // line_size(game, n)
    if not over:
        v[at["turn"] + (state.turn - seat) % n] = 1.0
    v[at["start_player"] + (state.start - seat) % n] = 1.0
    v[at["belles_in_guest_deck"]] = 1.0 if state.options.get("belles_in_guest_deck") else 0.0
    line = at["line"]
    for position, card in enumerate(state.line):
        base = line + position * width
        v[base] = 1.0
        v[base + 1] = state.line_chips[position]
        if card >= BELLE_BASE:
            v[base + 2 + interests + card - BELLE_BASE] = 1.0
        else:
            for i in game.guest_interests[card]:
                v[base + 2 + i] = 1.0
    if state.played_now >= 0 and not over:
        v[at["belle_played"] + state.played_now] = 1.0
    v[at["may_play_belle"]] = 1.0 if state.played_now == -1 and not over else 0.0
    v[at["invites_left"]] = 0 if over else state.invites_left
    for index, (bit, _) in enumerate(EFFECT_WORDS):
        if state.effects & bit:
            v[at["rules_bent"] + index] = 1.0
    v[at["decks"]] = len(state.deck)
    v[at["decks"] + 1] = len(state.belle_deck)
    v[at["decks"] + 2] = len(state.boxed)
    for kind in state.belle_discard:
        v[at["belle_discard"] + kind] += 1.0
    for guest in state.guest_discard:
        for i in game.guest_interests[guest]:
            v[at["guest_discard"] + i] += 1.0
    per_group = 1 + interests
    winners = outcome(state).winners if over else ()
    for slot in range(n):
        s = (seat + slot) % n
        v[at["chips"] + slot] = state.chips[s]
        v[at["hand_size"] + slot] = len(state.hands[s])
        v[at["full_groups_scored"] + slot] = state.groups_scored[s]
        v[at["chips_from_groups"] + slot] = state.group_chips[s]
        v[at["chips_spent_skipping"] + slot] = state.skip_chips[s]
        for group_slot in range(SLOTS):
            group = state.parties[s * SLOTS + group_slot]
            base = at["groups"] + (slot * SLOTS + group_slot) * per_group
            v[base] = len(group)
            for card in group:
                if card < BELLE_BASE:
                    for i in game.guest_interests[card]:
                        v[base + 1 + i] += 1.0
        if s in winners:
            v[at["winners"] + slot] = 1.0
    for kind in state.hands[seat]:
        v[at["my_hand"] + kind] += 1.0
    return v
