"""End of Game: wealth, the ranking and the game's reports (rulebook, End of Game;
rulings BB-12 and BB-15).

Wealth counts cards at their printed price, chefs 50, stars 150, plus cash. The
bankrupt player is last with 0; most wealth wins, a tie goes to more cash, then the
win is shared.

    >>> import potluck
    >>> g = potluck.load_game("belly-battle")
    >>> s = g.new_game(2, seed=1)
    >>> wealth(g, s, 0) >= 1000
    True
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from potluck.engine.errors import PotluckError
from potluck.engine.outcome import Outcome
from potluck.games.belly_battle.actions import (
    ACCEPT,
    BUY,
    CHEF,
    DECLINE,
    OFFER,
    SELL,
    SELL_CHEF,
    SELL_STAR,
    STAR,
    SWAP,
    TAKEOVER,
    YUCK,
    BellyAction,
)
from potluck.games.belly_battle.munch_fees import in_triple
from potluck.games.belly_battle.ownership import owned
from potluck.games.belly_battle.state import BANK, NOBODY, OVER, STAT_NAMES, BellyState
from potluck.games.belly_battle.tables import BellyTables

#: Seat metrics that count a seat's moves of some kinds (see ``seat_metrics``).
_CHOICE_METRICS = {
    "restaurants_bought": {BUY},
    "takeovers": {TAKEOVER},
    "upgrades": {CHEF, STAR},
    "sales_to_bank": {SELL, SELL_CHEF, SELL_STAR},
    "offers_made": {OFFER},
    "offers_accepted": {ACCEPT},
    "offers_declined": {DECLINE},
    "swaps": {SWAP},
    "yucks": {YUCK},
}


def wealth(game: BellyTables, state: BellyState, seat: int) -> int:
    """Cards at their price, chefs 50, stars 150, and cash (rulebook, End of Game)."""
    total = state.cash[seat]
    bank = game.bank
    for card, owner in enumerate(state.owner):
        if owner == seat:
            total += (
                game.price[card]
                + bank.chef_wealth * state.chefs[card]
                + bank.star_wealth * state.star[card]
            )
    return total


def holdings_worth(
    game: BellyTables, owners: list[int], chefs: list[int], star: list[int], seats: int
) -> list[int]:
    """Each of ``seats`` seats' cards, chefs and stars counted as ``wealth`` counts them
    (its wealth less its cash), from the cards' public state alone (the state's
    ``owner``, ``chefs`` and ``star``): what a view shows (``view``, ``seat_info``).

        >>> import potluck
        >>> g = potluck.load_game("belly-battle")
        >>> s = g.new_game(2, seed=1)
        >>> worth = holdings_worth(g, s.owner, s.chefs, s.star, 2)
        >>> [s.cash[seat] + worth[seat] for seat in range(2)] == [wealth(g, s, 0), wealth(g, s, 1)]
        True
    """
    worth = [0] * seats
    prices, bank = game.price, game.bank
    chef_wealth, star_wealth = bank.chef_wealth, bank.star_wealth
    for card, owner in enumerate(owners):
        if owner != BANK:
            worth[owner] += prices[card] + chef_wealth * chefs[card] + star_wealth * star[card]
    return worth


#: Rounds of Munch Fees an unfinished game credits each card with (``standings``):
#: a game between greedy bots lasts about nine rounds, most of it already played
#: by the time a search looks ahead, so a few rounds of income is a fair guess.
FEE_ROUNDS: Final = 3


def expected_fees(game: BellyTables, state: BellyState, seat: int, rounds: float) -> float:
    """The Munch Fees ``seat``'s cards may expect over ``rounds`` more rounds as they
    stand: each rival lands on a given space about once in ``board_size`` turns, and
    passes a corner cafe about once in ``board_size / 7`` (two dice average 7).

        >>> import potluck
        >>> g = potluck.load_game("belly-battle")
        >>> s = g.new_game(4, seed=1)
        >>> expected_fees(g, s, 0, 0.0), expected_fees(g, s, 0, 3.0) > 0
        (0.0, True)
    """
    rivals = state.num_players - 1
    if rounds <= 0 or rivals <= 0:
        return 0.0
    total = 0.0
    restaurants = game.num_restaurants
    for card, owner in enumerate(state.owner):
        if owner != seat:
            continue
        if card >= restaurants:
            total += game.bank.cafe_fee * 7.0
            continue
        fees = game.fees[card]
        fee = fees[3] if state.star[card] else fees[state.chefs[card]]
        if game.triples[card] and in_triple(game, state, card, seat):
            fee *= 2
        total += fee
    return total * rivals * rounds / game.board_size


def standings(game: BellyTables, state: BellyState) -> tuple[float, ...]:
    """Wealth so far plus the Munch Fees the seat's cards may expect over the next
    ``FEE_ROUNDS`` rounds (fewer near the round limit), so a restaurant, a chef or a
    star counts for the income it brings, not only its wealth; a bankrupt seat has
    none. Once the game is over it is the outcome's scores (wealth)."""
    over = state.phase == OVER
    rounds = 0.0 if over else min(FEE_ROUNDS, state.options["max_rounds"] - state.round)
    return tuple(
        0.0
        if s == state.bankrupt
        else float(wealth(game, state, s)) + expected_fees(game, state, s, rounds)
        for s in range(state.num_players)
    )


def outcome(game: BellyTables, state: BellyState) -> Outcome:
    """The ranking of a finished game, with its reason in words."""
    if state.phase != OVER:
        raise PotluckError(
            f"the game is not over: it is round {state.round + 1}, seat {state.turn}'s turn"
        )
    n = state.num_players
    scores = tuple(0 if s == state.bankrupt else wealth(game, state, s) for s in range(n))
    keys = [(0 if s == state.bankrupt else 1, scores[s], state.cash[s]) for s in range(n)]
    result = Outcome.from_keys(scores, keys, "")
    winners = result.winners
    best = scores[winners[0]]
    if state.bankrupt != NOBODY:
        why = f"Seat {state.bankrupt} went bankrupt"
    else:
        why = f"The {state.options['max_rounds']}-round limit was reached"
    if len(winners) > 1:
        reason = f"{why}; seats {', '.join(map(str, winners))} share the win on {best} wealth."
    else:
        reason = f"{why}; seat {winners[0]} is richest with {best} Brupees of wealth."
    return Outcome(result.scores, result.winners, result.ranking, result.places, reason)


def metrics(game: BellyTables, state: BellyState) -> dict[str, float | int | str]:
    """The game's counters, how it ended, and what its winner held."""
    rounds = state.round + (1 if state.bankrupt != NOBODY else 0)
    out: dict[str, float | int | str] = {
        "rounds": rounds,
        "bankruptcy": 1 if state.bankrupt != NOBODY else 0,
        "ended_by": "bankruptcy" if state.bankrupt != NOBODY else "max_rounds",
    }
    for name, value in zip(STAT_NAMES, state.stats, strict=True):
        out[name] = value
    if state.phase == OVER:
        winner = outcome(game, state).winners[0]
        mine = owned(state, winner)
        out["winner_cards"] = len(mine)
        out["winner_chefs"] = sum(state.chefs[c] for c in mine)
        out["winner_stars"] = sum(state.star[c] for c in mine)
        out["winner_cash"] = state.cash[winner]
        out["winner_in_triple"] = int(
            any(c < game.num_restaurants and in_triple(game, state, c, winner) for c in mine)
        )
    return out


def seat_metrics(game: BellyTables, state: BellyState, seat: int) -> dict[str, float | int]:
    """What ``seat`` held at the end, for the lab's "what goes with winning" tables.

    ``restaurant:<slug>`` (or a cafe's slug) is 1 for each card it owns;
    ``cuisine:<name>`` counts its restaurants of that cuisine; ``chefs``,
    ``stars`` and ``insured`` count what sits on its cards; ``cash`` and
    ``bankrupt`` are its final standing. Its choices over the game:
    ``restaurants_bought``, ``takeovers``, ``upgrades`` (chefs and stars bought),
    ``sales_to_bank``, ``offers_made``, ``offers_accepted``, ``offers_declined``,
    ``swaps`` and ``yucks``.
    """
    found: dict[str, float | int] = {}
    chefs = stars = insured = 0
    for card in owned(state, seat):
        found[f"restaurant:{game.slugs[card]}"] = 1
        if card < game.num_restaurants:
            key = f"cuisine:{game.cuisines[game.cuisine_of[card]]}"
            found[key] = found.get(key, 0) + 1
        chefs += state.chefs[card]
        stars += state.star[card]
        insured += int(state.insured[card])
    found["chefs"] = chefs
    found["stars"] = stars
    found["insured"] = insured
    found["cash"] = state.cash[seat]
    found["bankrupt"] = int(state.bankrupt == seat)
    # The choices a designer asks about: how often the seat bought, upgraded, sold
    # back to the bank and traded, counted from its moves.
    made = Counter(a.kind for who, a in state.history if who == seat and isinstance(a, BellyAction))
    for key, counted in _CHOICE_METRICS.items():
        found[key] = sum(made[kind] for kind in counted)
    return found
