"""What the conformance checks share: where a check failed, canonical JSON, snapshots
of a state and the first difference between two JSON values."""

from __future__ import annotations

import json
import math
import re
from typing import Any, NamedTuple

from potluck.engine.action import Action
from potluck.engine.errors import (
    PotluckError,
)
from potluck.engine.game import Game
from potluck.engine.state import State

AnyGame = Game[Any, Any]

#: Keys that a view must never hold: they name the source of all chance.
FORBIDDEN_VIEW_KEYS = frozenset({"rng", "seed", "rng_state", "random_state"})
#: Numbers at least this large that also occur in the RNG state mark a leak of it.
_RNG_WORD_FLOOR = 1 << 20
_NUMBER = re.compile(r"\d+")
_GARBAGE_TEXT = "\u00bf?\u00a1 not an action !\u00bf"


# ---------------------------------------------------------------------- helpers


def where(game: AnyGame, state: State, seat: int | None = None) -> str:
    """Where a check failed: game, players, seed, step and seat, for the message."""
    at = f"{game.id}, {state.num_players} players, seed {state.seed}, step {len(state.history)}"
    return at if seat is None else f"{at}, seat {seat}"


def dump(data: Any, what: str = "data") -> str:
    """Canonical JSON text of ``data``; ``AssertionError`` if it is not JSON-ready."""
    try:
        return json.dumps(data, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise AssertionError(f"{what} is not JSON-serialisable: {error}") from None


class Snapshot(NamedTuple):
    """A state's full data, to compare states: ``to_json`` as canonical text, without
    the RNG, which is kept as its (cheaply compared) internal state."""

    text: str
    rng: Any

    def difference(self, other: Snapshot) -> str | None:
        """Where the two states first differ, or ``None``."""
        if self.rng != other.rng:
            return "the RNG states differ"
        return first_difference(json.loads(self.text), json.loads(other.text))


def snapshot(game: AnyGame, state: State) -> Snapshot:
    """The state as data to compare: equal snapshots, equal states."""
    data = game.to_json(state)
    data.pop("rng", None)
    return Snapshot(
        dump(data, f"to_json of the state ({where(game, state)})"), state.rng.getstate()
    )


def json_problem(value: Any, path: str = "") -> str | None:
    """The first part of ``value`` that JSON cannot carry faithfully, or ``None``.

    Allowed: dicts with string keys, lists, tuples, strings, bools, ints, finite
    floats and ``None``.

        >>> json_problem({"a": [1, 2.5, None]}) is None
        True
        >>> json_problem({"a": {1: float("nan")}})
        '[a] has a non-string key 1 (int)'
    """
    if value is None or isinstance(value, bool | int | str):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{path or 'the value'} is {value}"
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{path or 'the value'} has a non-string key {key!r} ({type(key).__name__})"
            problem = json_problem(item, f"{path}[{key}]")
            if problem:
                return problem
        return None
    if isinstance(value, list | tuple):
        for number, item in enumerate(value):
            problem = json_problem(item, f"{path}[{number}]")
            if problem:
                return problem
        return None
    return f"{path or 'the value'} is a {type(value).__name__}: {value!r}"


def first_difference(left: Any, right: Any, path: str = "") -> str | None:
    """Where two JSON-like values first differ, as ``path: left != right``; ``None`` if equal.

    >>> first_difference({"a": [1, 2]}, {"a": [1, 3]})
    '[a][1]: 2 != 3'
    """
    if isinstance(left, dict) and isinstance(right, dict):
        for key in sorted(set(left) | set(right), key=str):
            if key not in left or key not in right:
                side = "the first" if key in left else "the second"
                return f"{path}[{key}]: only in {side}"
            found = first_difference(left[key], right[key], f"{path}[{key}]")
            if found:
                return found
        return None
    if isinstance(left, list | tuple) and isinstance(right, list | tuple):
        for number, (a, b) in enumerate(zip(left, right, strict=False)):
            found = first_difference(a, b, f"{path}[{number}]")
            if found:
                return found
        if len(left) != len(right):
            return f"{path}: length {len(left)} != {len(right)}"
        return None
    if left != right:
        return f"{path or 'value'}: {left!r:.80} != {right!r:.80}"
    return None


def _seats_waiting(game: AnyGame, state: State) -> list[int]:
    acting = set(game.to_act(state))
    return [seat for seat in range(state.num_players) if seat not in acting]


def _some_action(game: AnyGame, state: State, seat: int) -> Action | None:
    """Any action object for ``seat`` to try: another seat's legal one, or code 0."""
    for other in game.to_act(state):
        legal = game.legal_actions(state, other)
        if legal:
            return legal[0]  # type: ignore[no-any-return]
    try:
        return game.action_from_index(state, seat, 0)  # type: ignore[no-any-return]
    except PotluckError:
        return None


def _views(game: AnyGame, state: State) -> dict[int | None, dict[str, Any]]:
    seats: list[int | None] = [*range(state.num_players), None]
    return {seat: game.view(state, seat) for seat in seats}


def _view_difference(left: dict[str, Any], right: dict[str, Any]) -> str | None:
    return None if left == right else first_difference(left, right) or "unequal views"


def _who(seat: int | None) -> str:
    return "the spectator" if seat is None else f"seat {seat}"
