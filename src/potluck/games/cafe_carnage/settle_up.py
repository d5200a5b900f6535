"""Step 5 of a round, *Settle Up*, with its *IOUs*: the stayers' votes decide who pays what.

The stayers' action cards are shuffled and revealed: a majority of *Split the
Bill Evenly* shares every unpaid meal among the stayers (the escaped runners'
meals too when nobody was caught); otherwise, and on a tie, each pays their own
meal. Shares are rounded up (the surplus is the tip). Short of money, a player
takes $5 loans at 5 Gourmet Points each and an IOU token.

    >>> import potluck
    >>> game = potluck.load_game("cafe-carnage")
    >>> state = game.new_game(4, seed=1)
    >>> state.money[0] = 3
    >>> paid, loans = [0] * 4, [0] * 4
    >>> pay(game, state, 0, 7, paid, loans)
    >>> state.money[0], state.points[0], state.iou[0], loans[0]
    (1, -5, True, 1)
"""

from __future__ import annotations

from potluck.games.cafe_carnage.state import NO_CARD, RUN, SEPARATELY, SPLIT, CafeState
from potluck.games.cafe_carnage.tables import CafeTables


def settle_up(
    game: CafeTables,
    state: CafeState,
    costs: list[int],
    runners: list[int],
    caught: list[int],
    paid: list[int],
    loans: list[int],
) -> tuple[int, int, int]:
    """The stayers' shuffled votes decide: share all that is unpaid, or pay own.

    Returns the split votes, the separately votes and the method (``NO_CARD``
    when nobody stayed at the table).
    """
    stayers = [s for s in range(state.num_players) if state.ballots[s] != RUN]
    if not stayers:
        return 0, 0, NO_CARD
    split_votes = sum(1 for s in stayers if state.ballots[s] == SPLIT)
    separately_votes = len(stayers) - split_votes
    if split_votes > separately_votes:
        unpaid = sum(costs[s] for s in stayers)
        if not caught:
            unpaid += sum(costs[s] for s in runners)  # escaped runners' meals too
        share = -(-unpaid // len(stayers))
        for s in stayers:
            pay(game, state, s, share, paid, loans)
        return split_votes, separately_votes, SPLIT
    for s in stayers:
        pay(game, state, s, costs[s], paid, loans)
    return split_votes, separately_votes, SEPARATELY


def pay(
    game: CafeTables, state: CafeState, seat: int, amount: int, paid: list[int], loans: list[int]
) -> None:
    """IOUs: pay into the supply; short of money, take $5 IOU loans at 5 points each."""
    short = amount - state.money[seat]
    if short > 0:
        taken = -(-short // game.loan)
        state.money[seat] += taken * game.loan
        state.points[seat] -= taken * game.loan
        state.iou[seat] = True
        loans[seat] += taken
    state.money[seat] -= amount
    paid[seat] += amount
