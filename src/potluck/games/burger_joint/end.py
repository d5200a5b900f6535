"""End Of The Game: the first to score 12 VP wins at once; the turn limit of simulations.

The rulebook's game ends only when a player's scoring marker reaches 12 VP
(``win_at_once``, right after ``scoring.score`` moves it). For simulations the option
``turn_limit`` stops a game nobody has won: the higher score wins and equal scores share
the win (ruling BJ-10). ``outcome`` and the lab's tallies read the finished game.

    >>> import potluck
    >>> game = potluck.load_game("burger-joint")
    >>> state = game.new_game(2, options={"turn_limit": 2})
    >>> turn_limit_reached(state), win_at_once(game, state, 0)
    (False, False)
"""

from __future__ import annotations

from potluck.engine.errors import PotluckError
from potluck.engine.outcome import Outcome
from potluck.games.burger_joint.state import NO_WINNER, OVER, BurgerState
from potluck.games.burger_joint.tables import BurgerTables


def win_at_once(tables: BurgerTables, state: BurgerState, seat: int) -> bool:
    """End the game if ``seat``'s scoring marker has reached the winning VP (12): then
    ``seat`` wins at once and nobody acts again. True if it did."""
    if state.score[seat] < tables.win:
        return False
    state.winner = seat
    state.phase = OVER
    state.acting = ()
    return True


def turn_limit_reached(state: BurgerState) -> bool:
    """Whether the turn now ending is the last one the option ``turn_limit`` allows."""
    limit = state.options["turn_limit"]
    return bool(limit) and state.turn >= limit


def outcome(tables: BurgerTables, state: BurgerState) -> Outcome:
    """Who won, and why: at 12 VP, or by the higher score at the turn limit."""
    if state.phase != OVER:
        raise PotluckError(f"the game is not over: it is turn {state.turn}")
    scores = (float(state.score[0]), float(state.score[1]))
    names = [side.name for side in tables.sides]
    if state.winner != NO_WINNER:
        w = state.winner
        keys: list[tuple[int, ...]] = [(1 if s == w else 0, state.score[s]) for s in (0, 1)]
        reason = f"Seat {w} scores {state.score[w]} VP and wins at once, as {names[w]}."
        return Outcome.from_keys(scores, keys, reason)
    keys = [(state.score[s],) for s in (0, 1)]
    result = Outcome.from_keys(scores, keys, "")
    if len(result.winners) > 1:
        reason = (
            f"Nobody reached {tables.win} VP in {state.turn} turns (the turn limit); "
            f"both have {state.score[0]} VP and share the win."
        )
    else:
        w = result.winners[0]
        reason = (
            f"Nobody reached {tables.win} VP in {state.turn} turns (the turn limit); seat {w} "
            f"wins with more VP ({state.score[w]}), as {names[w]}."
        )
    return Outcome(result.scores, result.winners, result.ranking, result.places, reason)


def metrics(tables: BurgerTables, state: BurgerState) -> dict[str, float | int | str]:
    """Turns played, and what the winner (or seat 0 on a shared win) built."""
    winners = outcome(tables, state).winners
    w = winners[0]
    nc, nb = tables.num_colours, tables.num_bistros
    side = tables.sides[w]
    result: dict[str, float | int | str] = {
        "turns": state.turn,
        "winner_side": side.name if len(winners) == 1 else "shared",
        "ended_by": "points" if state.winner != NO_WINNER else "turn_limit",
        # The same as a number, so that a simulation's mean is the share of games won
        # on points rather than stopped by the turn limit.
        "won_on_points": 1 if state.winner != NO_WINNER else 0,
        "burger_won": 1 if winners == (0,) else 0,
        "winner_publicity": state.publicity[w],
        "winner_basics": state.basics[w],
        "winner_diners": sum(state.diners[w * nc : w * nc + nc]),
        "winner_bistros": sum(state.bistros[w * nb : w * nb + nb]),
        "loser_score": min(state.score),
    }
    for k in range(nb):
        result[f"winner_bistro_{k + 1}"] = state.bistros[w * nb + k]
    return result


def seat_metrics(tables: BurgerTables, state: BurgerState, seat: int) -> dict[str, float | int]:
    """What ``seat``'s side built, for the lab's "what goes with winning" tables.

    ``diner:<colour>`` and ``bistro:<name>`` are 1 when built; ``basics``,
    ``publicity`` (steps on the track) and ``score`` are the final counts.
    """
    nc, nb = tables.num_colours, tables.num_bistros
    side = tables.sides[seat]
    found: dict[str, float | int] = {
        f"diner:{tables.colours[c]}": state.diners[seat * nc + c] for c in range(nc)
    }
    for k in range(nb):
        found[f"bistro:{side.bistro_names[k]}"] = state.bistros[seat * nb + k]
    found["basics"] = state.basics[seat]
    found["publicity"] = state.publicity[seat]
    found["score"] = state.score[seat]
    return found
