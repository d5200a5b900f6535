"""*Gameplay*: the six steps of a round, five rounds a game.

1. *Take Orders* (orders.py), 2. *Secret Ballot* (ballot.py), then, once every
card is down, 3. *Dinner is Served* (dinner.py), 4. *Check, Please!*
(check_please.py), 5. *Settle Up* (settle_up.py) and 6. *Clear the Table*
(clear_table.py), kept as a ``RoundRecord`` in ``state.log``.

    >>> import potluck
    >>> game = potluck.load_game("cafe-carnage")
    >>> state = game.new_game(4, seed=7)
    >>> while state.phase != 4:                   # play to the end, first choice each time
    ...     for seat in state.acting:
    ...         play(game, state, seat, state.choices[seat][0][0])
    >>> len(state.log), state.round
    (5, 5)
"""

from __future__ import annotations

from potluck.games.cafe_carnage.actions import CafeAction
from potluck.games.cafe_carnage.ballot import ballot_choices
from potluck.games.cafe_carnage.check_please import check_please
from potluck.games.cafe_carnage.clear_table import clear_table
from potluck.games.cafe_carnage.dinner import meal_costs, serve
from potluck.games.cafe_carnage.orders import advance_course, order_choices
from potluck.games.cafe_carnage.settle_up import settle_up
from potluck.games.cafe_carnage.state import BALLOT, CafeState, RoundRecord
from potluck.games.cafe_carnage.tables import CafeTables


def play(game: CafeTables, state: CafeState, seat: int, action: CafeAction) -> None:
    """``seat`` orders a dish or plays a card (already checked legal); the last one to
    choose moves the round on."""
    phase = state.phase
    if phase < BALLOT:
        state.orders[3 * seat + phase] = action.dish
    else:  # Secret Ballot: the card goes face down in front of the seat
        state.ballots[seat] = action.card
        state.hands[3 * seat + action.card] -= 1
    acting = state.acting
    if len(acting) > 1:
        still = 0  # the other seats to act, as bits
        for other in acting:
            if other != seat:
                still |= 1 << other
        state.acting = game.seats_of_mask[still]
    elif phase < BALLOT:
        advance_course(game, state, phase)
    else:
        resolve_round(game, state)


def resolve_round(game: CafeTables, state: CafeState) -> None:
    """Steps 3 to 6, once every card is down; the round is kept in ``state.log``."""
    n = state.num_players
    costs = meal_costs(game, state)
    orders = state.orders
    scored = serve(game, state, costs)
    paid = [0] * n
    loans = [0] * n
    runners, caught, runners_bill = check_please(game, state, costs, paid, loans)
    split_votes, separately_votes, method = settle_up(
        game, state, costs, runners, caught, paid, loans
    )
    # RoundRecord(number=..., ..., loans=...), its fields in order, made without the
    # NamedTuple's Python-level ``__new__`` (a call through Python from compiled code).
    record: RoundRecord = tuple.__new__(
        RoundRecord,
        (
            state.round + 1,  # number
            tuple(orders),
            tuple(scored),
            tuple(state.ballots),
            tuple(runners),
            tuple(caught),
            runners_bill,
            split_votes,
            separately_votes,
            method,
            tuple(paid),
            tuple(loans),
        ),
    )
    clear_table(game, state)
    state.log = (*state.log, record)


def derive_choices(game: CafeTables, state: CafeState) -> None:
    """Recompute ``state.choices`` from the menus (orders) or the hands (ballot)."""
    if state.phase < BALLOT:
        state.choices = order_choices(game, state)
    elif state.phase == BALLOT:
        state.choices = ballot_choices(game, state)
    else:
        state.choices = [((), 0)] * state.num_players
