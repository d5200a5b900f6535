"""Step 3, Score and End of Game: full groups earn chips; the most chips wins.

A full group (five guests; four with Chaperone Clementine) earns one chip for each guest
showing an interest another guest of the group shows too (ruling BB-1), every interest
with Romantic Rosalind. *End of Game*: remaining groups do not score; most chips wins.
"""

from __future__ import annotations

from collections.abc import Sequence

from potluck.engine.errors import PotluckError
from potluck.engine.outcome import Outcome
from potluck.games.belle_of_the_ball.actions import TAKE_BELLE, BelleAction
from potluck.games.belle_of_the_ball.state import (
    FOUR_IS_FULL,
    FULL,
    SINGLES_SCORE,
    SLOTS,
    BelleState,
)
from potluck.games.belle_of_the_ball.tables import BelleTables


def score_group(interests: Sequence[Sequence[int]], singles: bool = False) -> int:
    """Step 3, Score: one chip for each guest showing an interest that another guest of
    the group shows too (ruling BB-1); with ``singles`` every interest shown scores.

    ``interests`` holds, per guest, the interests it shows (as small ints).

        >>> score_group([(0, 1, 2), (0, 1, 3), (1, 4, 5), (1, 6, 7), (1, 8, 9)])  # 2 + 5
        7
        >>> score_group([(0, 1, 2)], singles=True)
        3
    """
    # Bit ``i`` of ``seen``: interest ``i`` shown so far; of ``twice``: shown at least
    # twice. A shown interest then scores when its bit is in ``twice`` (interests are
    # small whole numbers, at most twenty, so the bits stay one machine word).
    seen = twice = 0
    shown_in_all = 0
    for shown in interests:
        for interest in shown:
            bit = 1 << interest
            twice |= seen & bit
            seen |= bit
            shown_in_all += 1
    if singles:
        return shown_in_all
    gain = 0
    for shown in interests:
        for interest in shown:
            if twice >> interest & 1:
                gain += 1
    return gain


def score_full_groups(game: BelleTables, state: BelleState, seat: int) -> None:
    """Step 3, Score every full group of ``seat``; End of Turn: discard them."""
    full = FULL - 1 if state.effects & FOUR_IS_FULL else FULL
    parties = state.parties
    base = seat * SLOTS
    for slot in range(base, base + SLOTS):
        if len(parties[slot]) >= full:
            break
    else:
        return  # most turns: no group is full
    singles = bool(state.effects & SINGLES_SCORE)
    for slot in range(base, base + SLOTS):
        group = parties[slot]
        if len(group) >= full:
            gain = score_group([game.guest_interests[g] for g in group], singles)
            state.chips[seat] = state.chips[seat] + gain
            state.minted += gain
            state.groups_scored[seat] = state.groups_scored[seat] + 1
            state.group_chips[seat] = state.group_chips[seat] + gain
            state.guest_discard.extend(group)
            parties[slot] = []


def outcome(state: BelleState) -> Outcome:
    """End of Game: remaining groups do not score; most chips wins (ties share it)."""
    if state.acting:
        raise PotluckError(
            f"the game is not over: it is round {state.round}, seat {state.turn}'s turn"
        )
    scores = tuple(float(c) for c in state.chips)
    result = Outcome.from_keys(scores, [(c,) for c in state.chips], "")
    best = state.chips[result.winners[0]]
    if len(result.winners) > 1:
        reason = (
            f"Seats {', '.join(map(str, result.winners))} share the win with {best} chips "
            f"after {state.round} rounds."
        )
    else:
        reason = f"Seat {result.winners[0]} wins with {best} chips after {state.round} rounds."
    return Outcome(result.scores, result.winners, result.ranking, result.places, reason)


def metrics(game: BelleTables, state: BelleState) -> dict[str, float | int | str]:
    """Numbers about a finished game: rounds, groups, skipping, Belles (and the winners')."""
    n, kinds = state.num_players, game.kinds
    result_of = outcome(state)
    groups = sum(state.groups_scored)
    played = sum(state.belles_played)
    winners_played = sum(
        state.belles_played[w * kinds + k] for w in result_of.winners for k in range(kinds)
    )
    invited = sum(
        1 for _, a in state.history if isinstance(a, BelleAction) and a.kind == TAKE_BELLE
    )
    ranked = sorted(state.chips, reverse=True)
    result: dict[str, float | int | str] = {
        "rounds": state.round,
        "full_groups": groups,
        "mean_group_chips": round(sum(state.group_chips) / groups, 3) if groups else 0.0,
        "skip_chips": sum(state.skip_chips),
        "belles_played": played,
        "belles_played_by_winners": winners_played,
        "belles_invited": invited,
        "winning_chips": ranked[0],
        "margin": ranked[0] - ranked[1] if n > 1 else 0,
        "groups_left_unscored": sum(1 for g in state.parties if g),
        # What goes with winning: the winners' own groups, skips and favourite Belle.
        "winner_full_groups": sum(state.groups_scored[w] for w in result_of.winners)
        / len(result_of.winners),
        "winner_skip_chips": sum(state.skip_chips[w] for w in result_of.winners)
        / len(result_of.winners),
    }
    by_kind = [
        sum(state.belles_played[w * kinds + k] for w in result_of.winners) for k in range(kinds)
    ]
    if max(by_kind) > 0:
        # A text metric: the lab tallies it; ties go to the Belle first in the data.
        result["winners_top_belle"] = game.belle_slugs[by_kind.index(max(by_kind))]
    return result


def seat_metrics(game: BelleTables, state: BelleState, seat: int) -> dict[str, float | int]:
    """What ``seat`` did, for the lab's "what goes with winning" tables.

    ``belle:<slug>`` counts the Belles it played; ``groups_scored``,
    ``group_chips`` (chips its full groups earned), ``skip_chips`` (chips it
    paid to skip guests) and ``chips`` (its final chips) are totals. For the
    designer's Belle questions: ``belles_invited`` (Belles it took from the line,
    in the variant), ``chips_spent_reaching_belles`` (the skip chips it paid on
    those invitations), ``belles_played`` and ``belles_in_hand_at_end``.
    """
    kinds = game.kinds
    found: dict[str, float | int] = {}
    for kind in range(kinds):
        played = state.belles_played[seat * kinds + kind]
        if played:
            found[f"belle:{game.belle_slugs[kind]}"] = played
    found["groups_scored"] = state.groups_scored[seat]
    found["group_chips"] = state.group_chips[seat]
    found["skip_chips"] = state.skip_chips[seat]
    found["chips"] = state.chips[seat]
    found["belles_invited"] = state.belles_invited[seat]
    found["chips_spent_reaching_belles"] = state.belle_skip_chips[seat]
    found["belles_played"] = sum(state.belles_played[seat * kinds : (seat + 1) * kinds])
    found["belles_in_hand_at_end"] = len(state.hands[seat])
    return found
