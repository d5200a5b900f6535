"""Option: Belle. At the start of your turn you may play one Belle and follow her
instructions: each bends one rule for this turn (``effects`` bits), pays or takes chips,
or moves cards. Her ``effect`` (in the card data) names what she does.

    >>> import potluck
    >>> game = potluck.load_game("belle-of-the-ball")
    >>> state = game.new_game(2, seed=1)
    >>> [str(a) for a in belle_plays(game, state, 0, state.hands[0][0])]
    ['belle wallflower-winifred']
"""

from __future__ import annotations

from typing import Final

from potluck.games.belle_of_the_ball.actions import BelleAction
from potluck.games.belle_of_the_ball.state import (
    FIFTH_GROUP,
    FOUR_IS_FULL,
    FREE_SKIPS,
    FULL,
    SINGLES_SCORE,
    SLOTS,
    BelleState,
    play_key,
)
from potluck.games.belle_of_the_ball.tables import (
    EFFECT_BANK_CHIPS,
    EFFECT_FIFTH_GROUP,
    EFFECT_FOUR_IS_FULL,
    EFFECT_FREE_SKIPS,
    EFFECT_GOSSIP,
    EFFECT_INVITE_TWICE,
    EFFECT_LATE_ARRIVAL,
    EFFECT_MOVE_GUEST,
    EFFECT_PICKPOCKET,
    EFFECT_REVERSE_LINE,
    EFFECT_SCANDAL,
    EFFECT_SINGLES_SCORE,
    BelleTables,
)

#: Chips Heiress Henrietta takes from the bank; chips Pickpocket Pippa takes.
HEIRESS_CHIPS: Final = 3
PICKPOCKET_CHIPS: Final = 2

#: The effects that bend a rule for the rest of the turn, as bits of ``effects``.
_BENT: Final = {
    EFFECT_FREE_SKIPS: FREE_SKIPS,
    EFFECT_FOUR_IS_FULL: FOUR_IS_FULL,
    EFFECT_SINGLES_SCORE: SINGLES_SCORE,
    EFFECT_FIFTH_GROUP: FIFTH_GROUP,
}


def hand_plays(game: BelleTables, state: BelleState, seat: int) -> list[BelleAction]:
    """Every Belle ``seat`` may play now from its hand (kinds in hand order, each once);
    the caller checks that a Belle may still be played this turn."""
    legal: list[BelleAction] = []
    single_plays = game.single_plays
    last = -1
    for kind in state.hands[seat]:  # sorted: copies of a kind are neighbours
        if kind != last:
            last = kind
            single = single_plays[kind]
            if single is not None:
                legal.append(single)
            else:
                add_belle_plays(game, state, seat, kind, legal)
    return legal


def belle_plays(game: BelleTables, state: BelleState, seat: int, kind: int) -> list[BelleAction]:
    """Every way ``seat`` may play a Belle of ``kind``: on each rival she can work on,
    each pair of its groups for Persuasive Prudence, else the one play."""
    legal: list[BelleAction] = []
    add_belle_plays(game, state, seat, kind, legal)
    return legal


def add_belle_plays(
    game: BelleTables, state: BelleState, seat: int, kind: int, legal: list[BelleAction]
) -> None:
    """``belle_plays``, appended to ``legal`` (the legal list's path: no list of its own)."""
    plays = game.play_lists[kind]
    target = game.belle_effect_codes[kind]
    n = state.num_players
    play: BelleAction | None
    if target == EFFECT_PICKPOCKET:
        chips = state.chips
        for s in range(n):
            if s != seat and chips[s] > 0:
                play = plays[play_key(s, -1, -1)]
                assert play is not None
                legal.append(play)
    elif target == EFFECT_SCANDAL:
        parties = state.parties
        for s in range(n):
            if s != seat:
                for g in range(SLOTS):
                    if parties[s * SLOTS + g]:
                        play = plays[play_key(s, g, -1)]
                        assert play is not None
                        legal.append(play)
    elif target == EFFECT_MOVE_GUEST:
        parties = state.parties
        base = seat * SLOTS
        for a in range(SLOTS):
            if parties[base + a]:
                for b in range(SLOTS):
                    if b != a and 0 < len(parties[base + b]) < FULL:
                        play = plays[play_key(-1, a, b)]
                        assert play is not None
                        legal.append(play)
    else:
        play = plays[play_key(-1, -1, -1)]
        assert play is not None
        legal.append(play)


def belle_problem(
    game: BelleTables, state: BelleState, seat: int, action: BelleAction
) -> str | None:
    """Why ``seat`` may not play the Belle ``action``, or ``None`` if it may."""
    name = game.belle_names[action.belle]
    if state.played_now >= 0:
        return (
            f"You have already played {game.belle_names[state.played_now]} this turn: "
            "one Belle per turn."
        )
    if state.played_now == -2:
        return "A Belle is played at the start of your turn, before you invite."
    if action.belle not in state.hands[seat]:
        return f"You hold no {name}."
    effect = game.belle_effect_codes[action.belle]
    n = state.num_players
    if effect in (EFFECT_PICKPOCKET, EFFECT_SCANDAL):
        target = action.seat
        if target == seat:
            return f"{name} works on a rival, not on yourself."
        if target >= n:
            return f"There is no seat {target} at this table (seats 0 to {n - 1})."
        if effect == EFFECT_PICKPOCKET and state.chips[target] == 0:
            return f"Seat {target} has no chips for {name} to take."
        if effect == EFFECT_SCANDAL and not state.parties[target * SLOTS + action.group]:
            return f"Seat {target} has no group {action.group + 1} for {name} to upset."
        return None
    if effect == EFFECT_MOVE_GUEST:
        mine = state.parties[seat * SLOTS : seat * SLOTS + SLOTS]
        if not mine[action.group]:
            return f"You have no group {action.group + 1} to move a guest from."
        if not mine[action.dest]:
            return (
                f"You have no group {action.dest + 1}: {name} moves a guest into another "
                "of your groups."
            )
        if len(mine[action.dest]) >= FULL:
            return f"Group {action.dest + 1} is full (five guests)."
    return None


def play_belle(game: BelleTables, state: BelleState, seat: int, action: BelleAction) -> None:
    """Option: Belle. Play her at the start of the turn and follow her instructions."""
    kind = action.belle
    state.hands[seat].remove(kind)
    state.belle_discard.append(kind)
    state.played_now = kind
    played = state.belles_played
    played[seat * game.kinds + kind] = played[seat * game.kinds + kind] + 1
    effect = game.belle_effect_codes[kind]
    bent = _BENT.get(effect)
    if bent is not None:
        state.effects |= bent
    elif effect == EFFECT_INVITE_TWICE:
        state.invites_left = 2
    elif effect == EFFECT_BANK_CHIPS:
        state.chips[seat] = state.chips[seat] + HEIRESS_CHIPS
        state.minted += HEIRESS_CHIPS
    elif effect == EFFECT_REVERSE_LINE:
        state.line.reverse()
        state.line_chips.reverse()
    elif effect == EFFECT_LATE_ARRIVAL:
        state.line.append(state.line.pop(0))
        state.line_chips.append(state.line_chips.pop(0))
    elif effect == EFFECT_MOVE_GUEST:
        # (the group left behind is a new list: a party's list only grows in place,
        # ``BelleState.parties``)
        base = seat * SLOTS
        source = state.parties[base + action.group]
        state.parties[base + action.group] = source[:-1]
        state.parties[base + action.dest].append(source[-1])
    elif effect == EFFECT_SCANDAL:
        party = action.seat * SLOTS + action.group
        source = state.parties[party]
        state.parties[party] = source[:-1]
        state.guest_discard.append(source[-1])
    elif effect == EFFECT_PICKPOCKET:
        taken = min(PICKPOCKET_CHIPS, state.chips[action.seat])
        state.chips[action.seat] = state.chips[action.seat] - taken
        state.chips[seat] = state.chips[seat] + taken
    elif effect == EFFECT_GOSSIP:
        n = state.num_players
        for step in range(1, n):
            rival = (seat + step) % n
            if state.chips[rival] > 0:
                state.chips[rival] = state.chips[rival] - 1
                state.line_chips[0] = state.line_chips[0] + 1
