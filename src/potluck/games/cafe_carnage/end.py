"""*End of the Game*: +$1 a point for those without an IOU; most points wins.

Tie-breaker: the most money left; still tied, the winners share. Also the
game's tallies for the lab (``metrics``, ``seat_metrics``).

    >>> import potluck
    >>> game = potluck.load_game("cafe-carnage")
    >>> state = game.new_game(4, seed=7)
    >>> state.points, state.iou[1] = [20, 21, 5, 0], True
    >>> final_scores(state)
    [50, 21, 35, 30]
"""

from __future__ import annotations

from potluck.engine.errors import PotluckError
from potluck.engine.outcome import Outcome
from potluck.games.cafe_carnage.state import CARD_WORDS, NO_CARD, OVER, SEPARATELY, SPLIT, CafeState
from potluck.games.cafe_carnage.tables import CafeTables


def final_scores(state: CafeState) -> list[int]:
    """Gourmet Points after the end bonus: +1 per dollar left, only without an IOU."""
    return [
        state.points[s] + (0 if state.iou[s] else state.money[s]) for s in range(state.num_players)
    ]


def outcome(game: CafeTables, state: CafeState) -> Outcome:
    """Who won, by final scores then money left, with the reason in a sentence."""
    if state.phase != OVER:
        raise PotluckError(f"the game is not over: it is round {state.round + 1} of {game.rounds}")
    finals = final_scores(state)
    keys = [(finals[s], state.money[s]) for s in range(state.num_players)]
    ranked = Outcome.from_keys(tuple(finals), keys, "")
    best = finals[ranked.winners[0]]
    if len(ranked.winners) > 1:
        reason = (
            f"Seats {', '.join(map(str, ranked.winners))} share the win with {best} "
            "Gourmet Points and equal money left."
        )
    elif sum(1 for f in finals if f == best) > 1:
        reason = f"Seat {ranked.winners[0]} wins the tie on {best} points with the most money left."
    else:
        reason = f"Seat {ranked.winners[0]} wins with {best} Gourmet Points."
    return Outcome(ranked.scores, ranked.winners, ranked.ranking, ranked.places, reason)


def metrics(game: CafeTables, state: CafeState) -> dict[str, float | int | str]:
    """Runs, escapes, IOUs, how bills were paid and the mean meal of a game."""
    log = state.log
    runs = sum(len(r.runners) for r in log)
    caught = sum(len(r.caught) for r in log)
    meals = [game.value_of[r.orders[i]] for r in log for i in range(len(r.orders))]
    return {
        "runs": runs,
        "escapes": runs - caught,
        "caught": caught,
        "iou_players": sum(state.iou),
        "split_bills": sum(1 for r in log if r.method == SPLIT),
        "separate_bills": sum(1 for r in log if r.method == SEPARATELY),
        "mean_meal": round(3 * sum(meals) / len(meals), 3) if meals else 0.0,
    }


def seat_metrics(game: CafeTables, state: CafeState, seat: int) -> dict[str, float | int]:
    """What ``seat`` ate and did, for the lab's "what goes with winning" tables.

    ``dish:<slug>`` counts the times the seat ate that dish; ``card:<word>``
    the action cards it played; ``runs``, ``escapes`` and ``caught`` its runs; ``iou`` 1 if
    it took an IOU token; ``money_left`` its dollars at the end.
    """
    found: dict[str, float | int] = {}
    runs = escapes = 0
    for record in state.log:
        for course in range(3):
            dish = record.orders[seat * 3 + course]
            if dish < 0:  # defensive: every seat orders all three courses each round
                continue
            slug = game.dish_slugs[dish]
            found[f"dish:{slug}"] = found.get(f"dish:{slug}", 0) + 1
        card = record.ballots[seat]
        if card != NO_CARD:
            key = f"card:{CARD_WORDS[card]}"
            found[key] = found.get(key, 0) + 1
        if seat in record.runners:
            runs += 1
            escapes += seat not in record.caught
    found["runs"] = runs
    found["escapes"] = escapes
    found["caught"] = runs - escapes
    found["iou"] = int(state.iou[seat])
    found["money_left"] = state.money[seat]
    return found
