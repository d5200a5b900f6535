"""Step 1, Invite: take the first guest in line, or one further back by placing a chip on
each guest skipped; collect the chips on the guest you invite.

In the designer's variant (the rulebook's NOTES) a Belle in the line is invited the same
way, to your hand. Positions are 0-based here, 1-based in text.

    >>> import potluck
    >>> game = potluck.load_game("belle-of-the-ball")
    >>> state = game.new_game(2, seed=1)
    >>> [str(a) for a in invitations(game, state, 0)][:3]   # 5 chips: positions 1 to 6
    ['invite 1 to group 1', 'invite 2 to group 1', 'invite 3 to group 1']
"""

from __future__ import annotations

from potluck.games.belle_of_the_ball.actions import INVITE, TAKE_BELLE, BelleAction
from potluck.games.belle_of_the_ball.groups import MASK_WIDTHS, group_problem, may_join, place_mask
from potluck.games.belle_of_the_ball.rounds import end_turn
from potluck.games.belle_of_the_ball.state import (
    BELLE_BASE,
    FIFTH_GROUP,
    FREE_SKIPS,
    SLOTS,
    BelleState,
)
from potluck.games.belle_of_the_ball.tables import BelleTables


def ordinal(n: int) -> str:
    """``1 -> '1st'``, ``2 -> '2nd'``, ``11 -> '11th'``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def skip_cost(state: BelleState, pos: int) -> int:
    """Chips to invite the guest at ``pos`` (0-based): one on each guest skipped (none
    with Wallflower Winifred). The one place the rule is written: the legal list, the
    legality check, the reason and the move itself all ask it."""
    return 0 if state.effects & FREE_SKIPS else pos


def paid_reach(state: BelleState, seat: int) -> int:
    """How many positions from the front of the line ``seat`` can pay for: the positions
    whose ``skip_cost`` is at most its chips form a prefix of the line (the cost never
    falls further along it), all of it with Wallflower Winifred, else the first
    ``chips + 1``. (``skip_cost`` read once, not at each position from the back: the
    legal list asks at every step; ``tests/test_belle_of_the_ball_fast_paths.py`` holds
    it equal to counting the prefix with ``skip_cost`` over random states.)"""
    size = len(state.line)
    chips = state.chips[seat]
    if skip_cost(state, size - 1) <= chips:
        return size
    return chips + 1 if chips >= 0 else 0


def invitations(game: BelleTables, state: BelleState, seat: int) -> list[BelleAction]:
    """The invitations ``seat`` can pay for: by position, each guest to each group it may
    join (Step 2, Group), a Belle in line (variant) to hand.

    The positions it can pay for are the first ``chips + 1`` (all with Wallflower
    Winifred), so in the base game, where the line holds only guests, the answer is
    the start of one precomputed row of invitations (``BelleTables.invite_rows_by_mask``); a
    save with a Belle in line without the variant is refused (``invariants``)."""
    mask = place_mask(
        state.parties, seat * SLOTS, bool(state.effects & FIFTH_GROUP) and seat == state.turn
    )
    line = state.line
    reach = paid_reach(state, seat)
    row = game.invite_rows_by_mask[mask]
    width = MASK_WIDTHS[mask]
    if not state.variant:
        return row[: reach * width]
    legal: list[BelleAction] = []
    take = game.take_actions
    for pos in range(reach):
        if line[pos] >= BELLE_BASE:
            legal.append(take[pos])
        else:
            legal += row[pos * width : pos * width + width]
    return legal


def invite_is_legal(game: BelleTables, state: BelleState, seat: int, index: int) -> bool:
    """Whether ``seat`` may make the invitation ``game.all_actions[index]``:
    ``invite_problem`` is None."""
    line = state.line
    pos = game.action_positions[index]
    if pos >= len(line):
        return False
    take = game.action_kinds[index] == TAKE_BELLE
    if (line[pos] >= BELLE_BASE) != take:
        return False
    if skip_cost(state, pos) > state.chips[seat]:
        return False
    if take:
        return True
    fifth = bool(state.effects & FIFTH_GROUP) and seat == state.turn
    return may_join(state.parties, seat * SLOTS, game.action_groups[index], fifth)


def invite_problem(
    game: BelleTables, state: BelleState, seat: int, action: BelleAction
) -> str | None:
    """Why ``seat`` may not make the invitation ``action``, or ``None`` if it may."""
    line = state.line
    pos = action.pos
    if pos >= len(line):
        cards = "card" if len(line) == 1 else "cards"
        return f"The line has only {len(line)} {cards}; there is nobody at position {pos + 1}."
    card = line[pos]
    if action.kind == TAKE_BELLE and card < BELLE_BASE:
        return (
            f"The {ordinal(pos + 1)} in line is the guest {game.guest_names[card]}: say "
            f"which group, e.g. 'invite {pos + 1} to group 1' (Step 2: Group)."
        )
    if action.kind == INVITE and card >= BELLE_BASE:
        return (
            f"The {ordinal(pos + 1)} in line is the Belle "
            f"{game.belle_names[card - BELLE_BASE]}: she goes to your hand, "
            f"'invite {pos + 1}'."
        )
    cost = skip_cost(state, pos)
    if cost > state.chips[seat]:
        return (
            f"Step 1, Invite: skipping {cost} {'card' if cost == 1 else 'cards'} costs one chip "
            f"on each, {cost} {'chip' if cost == 1 else 'chips'}, and you have {state.chips[seat]}."
        )
    if action.kind == INVITE:
        return group_problem(state, seat, action.group)
    return None


def invite(game: BelleTables, state: BelleState, seat: int, action: BelleAction) -> None:
    """Step 1, Invite (pay a chip onto each skipped card, collect the invited card's
    chips) and Step 2, Group (or, for a Belle in the variant, to hand)."""
    index = action.index
    pos = game.action_positions[index]
    line_chips = state.line_chips
    chips = state.chips
    cost = skip_cost(state, pos)
    # ``xs[i] = xs[i] + n`` rather than ``xs[i] += n`` on these lists of ints: compiled,
    # the augmented form adds through the generic number protocol, this one as ints.
    if cost:
        for skipped in range(pos):  # a chip on each card skipped
            line_chips[skipped] = line_chips[skipped] + 1
        chips[seat] = chips[seat] - cost
        skip_chips = state.skip_chips
        skip_chips[seat] = skip_chips[seat] + cost
    card = state.line.pop(pos)
    chips[seat] = chips[seat] + line_chips.pop(pos)
    if game.action_kinds[index] == TAKE_BELLE:
        state.hands[seat].append(card - BELLE_BASE)
        state.hands[seat].sort()
        state.belles_invited[seat] = state.belles_invited[seat] + 1
        state.belle_skip_chips[seat] = state.belle_skip_chips[seat] + cost
    else:
        state.parties[seat * SLOTS + game.action_groups[index]].append(card)
    if state.played_now == -1:
        state.played_now = -2
    state.invites_left -= 1
    if state.invites_left > 0 and state.line:
        return  # Double-Booked Dorothea: the same seat invites again
    end_turn(game, state, seat)
