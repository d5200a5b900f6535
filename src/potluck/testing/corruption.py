"""Hand-edited saves: a corrupted saved state is refused at load or is safe to play on.

``check_corrupted_saves`` takes a state's ``to_json``, damages it in many small
ways a person editing the file might (a number made negative or huge, text where a
number was, an unknown card name, an item removed from a list or duplicated, a
field removed, a seat out of range...) and loads each with ``from_json``. Each must
either be refused with a ``PotluckError`` (the engine turns it into a
``RecordError`` naming what is wrong) or load as a state on which ``legal_actions``,
``explain``, ``view``, ``step`` and ``to_json`` all work without crashing.

    >>> import random
    >>> import potluck
    >>> from potluck.testing.corruption import check_corrupted_saves
    >>> g = potluck.load_game("cafe-carnage")
    >>> check_corrupted_saves(g, g.new_game(4, seed=3), random.Random(0), samples=20)
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
from collections.abc import Iterator
from typing import Any

from potluck.engine.errors import PotluckError
from potluck.engine.state import State
from potluck.testing.checks import AnyGame, where

#: A place in the saved JSON: the keys and indexes leading to it.
Path = tuple[str | int, ...]


def _places(value: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _places(item, (*path, index))


def _replacements(value: Any, num_players: int) -> list[tuple[str, Any]]:
    """What a careless editor might put in place of ``value``."""
    if isinstance(value, bool):
        return [("flipped", not value), ("a number", 2), ("text", "yes")]
    if isinstance(value, int):
        return [
            ("negative", -1 - value),
            ("huge", 10**9),
            ("the seat past the last", num_players),
            ("a fraction", value + 0.5),
            ("text", str(value) + "x"),
            ("null", None),
            ("a list", [value]),
        ]
    if isinstance(value, float):
        return [("negative", -1.0 - value), ("text", "lots"), ("null", None)]
    if isinstance(value, str):
        return [
            ("an unknown name", "no-such-card"),
            ("empty text", ""),
            ("a number", 7),
            ("null", None),
        ]
    if isinstance(value, list):
        found: list[tuple[str, Any]] = [("emptied", []), ("an object", {})]
        if value:
            found.append(("its last item removed", value[:-1]))
            found.append(("its first item duplicated", [value[0], *value]))
            found.append(("reversed", list(reversed(value))))
        return found
    if isinstance(value, dict):
        found = [("emptied", {}), ("a list", [])]
        if value:
            key = sorted(value)[0]
            found.append(
                (f"its field {key!r} removed", {k: v for k, v in value.items() if k != key})
            )
        return found
    return [("a number", 0)]


def _set(data: Any, path: Path, new: Any) -> None:
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new


def damages(saved: dict[str, Any], num_players: int) -> list[tuple[Path, str, Any]]:
    """Every single-place damage to ``saved`` (its header left alone): where, what, new value."""
    found: list[tuple[Path, str, Any]] = []
    for path, value in _places(saved):
        if not path or path[0] in ("game", "version"):
            continue
        for label, new in _replacements(value, num_players):
            found.append((path, label, new))
    return found


def damaged(saved: dict[str, Any], path: Path, label: str, new: Any) -> tuple[str, dict[str, Any]]:
    """A copy of ``saved`` with ``new`` at ``path``, and a label saying what was done."""
    copied = copy.deepcopy(saved)
    _set(copied, path, new)
    where_at = "/".join(str(key) for key in path)
    return f"{where_at} {label} ({json.dumps(new)[:60]})", copied


def corruptions(saved: dict[str, Any], num_players: int) -> list[tuple[str, dict[str, Any]]]:
    """Every single-place damage to ``saved``, applied to a copy each, labelled."""
    return [damaged(saved, *damage) for damage in damages(saved, num_players)]


def check_corrupted_saves(
    game: AnyGame, state: State, rng: random.Random, samples: int = 60
) -> None:
    """``samples`` damaged saves of ``state`` (drawn with ``rng``) are each refused with a
    ``PotluckError`` at ``from_json`` or load as a state that can be played on."""
    saved = game.to_json(state)
    every = damages(saved, state.num_players)
    for damage in rng.sample(every, min(samples, len(every))):
        label, data = damaged(saved, *damage)
        try:
            loaded = game.from_json(data)
        except PotluckError:
            continue
        except Exception as error:
            raise AssertionError(
                f"from_json crashed on a save with {label} ({where(game, state)}): "
                f"{type(error).__name__}: {error}"
            ) from error
        try:
            _play_on(game, loaded, rng)
        except Exception as error:
            raise AssertionError(
                f"a save with {label} loads ({where(game, state)}) but then crashes: "
                f"{type(error).__name__}: {error}; the game's invariants should refuse it"
            ) from error


def _play_on(game: AnyGame, state: State, rng: random.Random) -> None:
    """Use every verb once on ``state``; any exception escapes."""
    game.view(state, None)
    game.to_json(state)
    if game.is_over(state):
        with contextlib.suppress(PotluckError):
            game.outcome(state)
    for seat in range(state.num_players):
        game.view(state, seat)
        legal = game.legal_actions(state, seat)
        for action in legal[:5]:
            if game.explain(state, seat, action) is not None:
                raise AssertionError(f"explain refuses its own legal action {action}")
        if legal:
            trial = state.clone()
            game.step(trial, seat, rng.choice(legal))
            game.view(trial, seat)
            if game.is_over(trial):
                game.outcome(trial)
