"""Debts and Bankruptcy: paying what is owed, raising cash, and going bankrupt
(rulebook, Bankruptcy; rulings BB-12 and BB-19).

Every amount owed (fees, Yuck!, a lost Takeover Battle, Munchtime) waits on the
state's payment queue and is paid in order. A payer short of cash must raise it
(sell to the bank or offer cards to players) before anything else happens; a payer
who owns nothing left to sell is bankrupt, the creditor takes the last cash and the
game ends.

    >>> import potluck
    >>> g = potluck.load_game("belly-battle")
    >>> s = g.new_game(2, seed=1)
    >>> s.queue = [0, 1, 30]
    >>> pay_queue(s), s.cash
    (True, [970, 1030])
"""

from __future__ import annotations

from potluck.games.belly_battle.ownership import owns_anything
from potluck.games.belly_battle.state import ALONE, BANK, DEBT, OVER, ST_DEBTS, BellyState
from potluck.games.belly_battle.tables import DEBT_OFFERS


def pay_queue(state: BellyState) -> bool:
    """Make the queued payments in order; ``True`` once all are paid. A payer short of
    cash must raise it first (the phase becomes ``DEBT``), or is bankrupt when nothing
    is left to sell (the game is over); either way ``False``."""
    queue, cash = state.queue, state.cash
    if not queue:
        return True
    # The paid entries are dropped once, when the queue is left, rather than three at a
    # time from its front (each drop moved the rest of the list).
    paid, size = 0, len(queue)
    while paid < size:
        payer, payee, amount = queue[paid], queue[paid + 1], queue[paid + 2]
        if cash[payer] >= amount:
            cash[payer] -= amount
            if payee != BANK:
                cash[payee] += amount
            else:
                state.bank_net += amount
            paid += 3
            continue
        del queue[:paid]
        if not owns_anything(state, payer):
            go_bankrupt(state, payer, payee)
            return False
        if state.phase != DEBT:
            state.debt_offers = DEBT_OFFERS
            state.stats[ST_DEBTS] += 1
            state.say("Seat {} owes {} and must sell to pay.", payer, amount)
        state.phase = DEBT
        state.acting = ALONE[payer]
        return False
    queue.clear()
    return True


def go_bankrupt(state: BellyState, seat: int, payee: int) -> None:
    """Bankruptcy: the last cash goes to the creditor and the game ends."""
    if payee != BANK:
        state.cash[payee] += state.cash[seat]
    else:
        state.bank_net += state.cash[seat]
    state.cash[seat] = 0
    state.queue = []
    state.bankrupt = seat
    state.phase = OVER
    state.acting = ()
    state.say("Seat {} is bankrupt: the game ends.", seat)
