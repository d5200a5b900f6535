"""Checks of saved states, invariants, outcomes and the observation encoding."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

from potluck.engine.action import Action
from potluck.engine.errors import (
    PotluckError,
)
from potluck.engine.state import State
from potluck.testing.common import (
    AnyGame,
    _view_difference,
    _views,
    _who,
    dump,
    first_difference,
    snapshot,
    where,
)

# ---------------------------------------------------------------------- saving


def check_json_roundtrip(
    game: AnyGame, state: State, future: Sequence[tuple[int, Action]] = ()
) -> None:
    """``to_json`` is JSON text that ``from_json`` restores exactly, and the restored game
    goes on like the original: the same ``future`` actions give the same states."""
    text = dump(game.to_json(state), f"to_json of the state ({where(game, state)})")
    restored = game.from_json(json.loads(text))
    again = dump(game.to_json(restored), f"to_json of a restored state ({where(game, state)})")
    if again != text:
        raise AssertionError(
            f"from_json(to_json(s)) differs from s ({where(game, state)}): "
            f"{first_difference(json.loads(text), json.loads(again))}"
        )
    for seat, view in _views(game, state).items():
        found = _view_difference(view, game.view(restored, seat))
        if found is not None:
            raise AssertionError(
                f"{_who(seat)}'s view differs after a JSON round-trip "
                f"({where(game, state)}): {found}"
            )
    _check_same_legal_actions(game, state, restored, where(game, state))
    original = state.clone()
    for number, (seat, action) in enumerate(future, 1):
        game.step(original, seat, action)
        try:
            game.step(restored, seat, action)
        except PotluckError as error:
            raise AssertionError(
                f"a state restored from JSON refuses action {number} of the future, seat {seat} "
                f"{str(action)!r}: {error} ({where(game, state)})"
            ) from None
    if future:
        expected, got = snapshot(game, original), snapshot(game, restored)
        if got != expected:
            raise AssertionError(
                f"a state restored from JSON plays on differently from the original "
                f"({where(game, state)}, {len(future)} actions later): "
                f"{expected.difference(got)}"
            )


def _check_same_legal_actions(game: AnyGame, state: State, restored: State, what: str) -> None:
    """Every seat has the same legal actions in ``state`` and in its JSON copy ``restored``
    (which catches legal-action caches that a change to the state left stale)."""
    for seat in range(state.num_players):
        mine, theirs = game.legal_actions(state, seat), game.legal_actions(restored, seat)
        if mine != theirs:
            raise AssertionError(
                f"seat {seat} has other legal actions after a JSON round-trip of {what}: "
                f"{[str(a) for a in mine][:8]} before, {[str(a) for a in theirs][:8]} after"
            )


# ---------------------------------------------------------------------- invariants and end


def check_invariants(game: AnyGame, state: State, what: str = "the state") -> None:
    """The game's own invariants, if it declares ``invariants(state) -> list[str]``."""
    invariants = getattr(game, "invariants", None)
    if invariants is None:
        return
    problems = invariants(state)
    if not isinstance(problems, list):
        raise AssertionError(f"invariants returned {problems!r}, not a list")
    if problems:
        raise AssertionError(
            f"{what} breaks the game's invariants ({where(game, state)}): {'; '.join(problems)}"
        )


def check_outcome(game: AnyGame, state: State) -> None:
    """A finished game has a sound ``Outcome``; an unfinished one refuses to give one."""
    if not game.is_over(state):
        try:
            game.outcome(state)
        except PotluckError:
            return
        raise AssertionError(f"outcome() answers before the game is over ({where(game, state)})")
    n = state.num_players
    if game.to_act(state) != ():
        raise AssertionError(f"the game is over but to_act is {game.to_act(state)}")
    outcome = game.outcome(state)
    at = where(game, state)
    if len(outcome.scores) != n:
        raise AssertionError(f"{len(outcome.scores)} scores for {n} seats ({at})")
    if not all(isinstance(score, int | float) and math.isfinite(score) for score in outcome.scores):
        raise AssertionError(f"scores {outcome.scores} are not all finite numbers ({at})")
    if sorted(outcome.ranking) != list(range(n)):
        raise AssertionError(f"ranking {outcome.ranking} is not an order of the seats ({at})")
    if not outcome.winners:
        raise AssertionError(f"the outcome has no winner ({at})")
    if len(outcome.places) != n:
        raise AssertionError(f"{len(outcome.places)} places for {n} seats ({at})")
    if set(outcome.winners) != {seat for seat in range(n) if outcome.places[seat] == 1}:
        raise AssertionError(
            f"winners {outcome.winners} are not the seats in place 1: "
            f"places {outcome.places} ({at})"
        )
    ranked = [outcome.places[seat] for seat in outcome.ranking]
    if not (ranked == sorted(ranked) and ranked[0] == 1):
        raise AssertionError(
            f"places {outcome.places} do not follow the ranking {outcome.ranking} ({at})"
        )
    for seat, place in enumerate(outcome.places):
        ahead = sum(1 for other in outcome.places if other < place)
        if place != ahead + 1:
            raise AssertionError(
                f"seat {seat} has place {place} but {ahead} seats are ahead of it ({at})"
            )
    if not (isinstance(outcome.reason, str) and outcome.reason.strip()):
        raise AssertionError(f"the outcome gives no reason ({at})")
    dump(outcome.to_json(), f"the outcome ({at})")
    dump(game.metrics(state), f"the metrics ({at})")


def check_observation_encoding(game: AnyGame, state: State) -> None:
    """Each seat's observation vector has the declared size, keeps within its ranges and
    equals the one built from its view (a game's fast path from the state included).

    Games without an encoding (``NotImplementedError``) are skipped. The vector is
    built from the view, so the view checks already cover hidden information.
    """
    try:
        encoding = game.observation_encoding(state.num_players, state.options)
    except NotImplementedError:
        return
    for seat in range(state.num_players):
        vector = game.encode_observation(state, seat, encoding)
        from_view = game.encode_view(game.view(state, seat), encoding)
        if vector != from_view:
            wrong = [i for i, (a, b) in enumerate(zip(vector, from_view, strict=False)) if a != b]
            raise AssertionError(
                f"seat {seat}'s observation vector ({where(game, state)}) differs from the one "
                f"its view gives, at offsets {wrong[:5]}: a fast path must show what the view shows"
            )
        problems = encoding.problems(vector)
        if problems:
            raise AssertionError(
                f"seat {seat}'s observation vector ({where(game, state)}): "
                + "; ".join(problems[:5])
            )
