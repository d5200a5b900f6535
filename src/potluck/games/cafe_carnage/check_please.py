"""Step 4 of a round, *Check, Please!*: runners reveal; security catches some.

*Determine who successfully flees*: one runner always escapes; the Security
Guards on duty (one at four players, two at five or six: ruling CC-2) catch the
runners with the dearest meals, who pay all the runners' meals and take their
RUN! card back. Runners who get away discard it for good.

    >>> caught_runners([0, 1], [7, 6])
    [0]
"""

from __future__ import annotations

from potluck.games.cafe_carnage.settle_up import pay
from potluck.games.cafe_carnage.state import RUN, CafeState
from potluck.games.cafe_carnage.tables import CafeTables


def caught_runners(runners: list[int], costs: list[int]) -> list[int]:
    """Which runners security catches (rulebook, Step 4 "Determine who successfully flees").

    One runner always escapes; if all runners' meals cost the same, all escape.
    Otherwise 2-4 runners lose their dearest-meal runner and 5-6 runners their two
    dearest; every runner tied with a caught one is caught too (ruling CC-3).

        >>> caught_runners([0, 1], [7, 6])
        [0]
        >>> caught_runners([0, 1, 2], [5, 5, 5])
        []
        >>> caught_runners([0, 1, 2, 3, 4], [9, 8, 8, 4, 3])
        [0, 1, 2]
    """
    if len(runners) < 2:
        return []
    meal = [costs[seat] for seat in runners]
    if min(meal) == max(meal):
        return []
    places = 1 if len(runners) <= 4 else 2
    # A runner is caught when fewer than `places` runners ate a strictly dearer meal.
    return [seat for seat in runners if sum(1 for c in meal if c > costs[seat]) < places]


def check_please(
    game: CafeTables, state: CafeState, costs: list[int], paid: list[int], loans: list[int]
) -> tuple[list[int], list[int], int]:
    """Runners reveal; the caught pay all runners' meals (rounded up shares).

    Returns the runners, the caught runners and the runners' bill (0 when
    nobody was caught).
    """
    runners = [s for s in range(state.num_players) if state.ballots[s] == RUN]
    caught = caught_runners(runners, costs)
    bill = 0
    if caught:
        bill = sum(costs[s] for s in runners)
        share = -(-bill // len(caught))  # rounded up: the surplus is the tip
        for s in caught:
            pay(game, state, s, share, paid, loans)
            state.hands[3 * s + RUN] += 1  # the caught take their Run! card back
    for s in runners:
        if s not in caught:
            state.fled[s] = True
    return runners, caught, bill
