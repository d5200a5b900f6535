"""Checks of what seats see: views are JSON and leak nothing; redeals and sealed choices."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from typing import Any

from potluck.engine.state import State
from potluck.testing.common import (
    _NUMBER,
    _RNG_WORD_FLOOR,
    FORBIDDEN_VIEW_KEYS,
    AnyGame,
    _view_difference,
    _views,
    _who,
    dump,
    first_difference,
    json_problem,
    snapshot,
    where,
)
from potluck.testing.state_checks import _check_same_legal_actions, check_invariants

# ---------------------------------------------------------------------- views


def _rng_words(state: State) -> set[int]:
    words = {word for word in state.rng.getstate()[1] if word >= _RNG_WORD_FLOOR}
    if state.seed >= _RNG_WORD_FLOOR:
        words.add(state.seed)
    return words


def _forbidden_key(value: Any) -> str | None:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in FORBIDDEN_VIEW_KEYS:
                return str(key)
            found = _forbidden_key(item)
            if found:
                return found
    elif isinstance(value, list | tuple):
        for item in value:
            found = _forbidden_key(item)
            if found:
                return found
    return None


def check_views_json_and_no_leaks(
    game: AnyGame, state: State, rng: random.Random, seats: Iterable[int] | None = None
) -> None:
    """Views are JSON-ready, deterministic, free of the RNG, and leak nothing hidden.

    For every seat ``p`` (or those in ``seats``) and the spectator:

    - ``view`` is JSON-ready (string keys, finite numbers), equal on a second call,
      and does not change the state;
    - no view holds the seed or the RNG state (a key named like it, or one of the
      RNG's large internal numbers);
    - views do not change when only the RNG state changes;
    - ``view(redeal(s, p, rng), p) == view(s, p)`` and the spectator's view is the
      same after a redeal by any seat.
    """
    before = snapshot(game, state)
    views = _views(game, state)
    secret = _rng_words(state)
    for seat, view in views.items():
        who = f"{_who(seat)}'s view ({where(game, state)})"
        if not isinstance(view, dict):
            raise AssertionError(f"{who} is a {type(view).__name__}, not a dict")
        problem = json_problem(view)
        if problem is not None:
            raise AssertionError(f"{who} is not JSON-ready: {problem}")
        text = dump(view, who)
        if game.view(state, seat) != view:
            raise AssertionError(f"{who} changes from one call to the next")
        key = _forbidden_key(view)
        if key is not None:
            raise AssertionError(f"{who} has a key {key!r}: views never hold the RNG or seed")
        leaked = secret.intersection(int(number) for number in _NUMBER.findall(text))
        if leaked:
            raise AssertionError(f"{who} holds the seed or RNG state (the number {min(leaked)})")
    if snapshot(game, state) != before:
        raise AssertionError(f"view changed the state ({where(game, state)})")

    reseeded = state.clone()
    reseeded.rng = random.Random(rng.getrandbits(64))
    for seat, view in _views(game, reseeded).items():
        found = _view_difference(views[seat], view)
        if found is not None:
            raise AssertionError(
                f"{_who(seat)}'s view depends on the RNG state ({where(game, state)}): {found}"
            )

    for seat in range(state.num_players) if seats is None else seats:
        other = game.redeal(state, seat, random.Random(rng.getrandbits(64)))
        if snapshot(game, state) != before:
            raise AssertionError(f"redeal changed its input ({where(game, state)})")
        found = _view_difference(views[seat], game.view(other, seat))
        if found is not None:
            raise AssertionError(
                f"seat {seat}'s view changes when what it cannot see is redealt, so it shows "
                f"hidden information ({where(game, state)}): {found}"
            )
        found = _view_difference(views[None], game.view(other, None))
        if found is not None:
            raise AssertionError(
                f"the spectator's view changes when seat {seat} redeals, so it shows hidden "
                f"information ({where(game, state)}): {found}"
            )


def check_redeal_consistent(game: AnyGame, state: State, rng: random.Random) -> None:
    """A redealt state is a sound state the seat cannot tell apart from the real one.

    It has the same seats to act, the same legal actions for that seat, holds the
    game's invariants, round-trips through JSON, can be played on, and is the same
    for the same ``rng`` seed (redeal draws from ``rng``, not from hidden state).
    """
    for seat in range(state.num_players):
        seed = rng.getrandbits(64)
        other = game.redeal(state, seat, random.Random(seed))
        at = where(game, state, seat)
        if other is state:
            raise AssertionError(f"redeal returned its input state ({at})")
        if type(other) is not type(state):
            raise AssertionError(f"redeal returned a {type(other).__name__} ({at})")
        if snapshot(game, game.redeal(state, seat, random.Random(seed))) != snapshot(game, other):
            raise AssertionError(f"redeal with equal generators gives different states ({at})")
        if game.to_act(other) != game.to_act(state):
            raise AssertionError(
                f"after redeal to_act is {game.to_act(other)}, not {game.to_act(state)} ({at})"
            )
        if game.legal_actions(other, seat) != game.legal_actions(state, seat):
            raise AssertionError(f"redeal changes the seat's own legal actions ({at})")
        if other.history != state.history:
            raise AssertionError(f"redeal changes the history ({at})")
        check_invariants(game, other, "a redealt state")
        text = dump(game.to_json(other), f"to_json of a redealt state ({at})")
        restored = game.from_json(json.loads(text))
        again = dump(game.to_json(restored))
        if again != text:
            raise AssertionError(
                f"a redealt state does not round-trip through JSON ({at}): "
                f"{first_difference(json.loads(text), json.loads(again))}"
            )
        _check_same_legal_actions(game, other, restored, f"a redealt state ({at})")
        for actor in game.to_act(other):
            legal = game.legal_actions(other, actor)
            action = legal[rng.randrange(len(legal))]
            try:
                game.apply(other, actor, action)
            except Exception as error:
                raise AssertionError(
                    f"seat {actor} cannot play {str(action)!r} in a state redealt for seat "
                    f"{seat}: {type(error).__name__}: {error} ({at})"
                ) from error


def check_sealed_choices_hidden(game: AnyGame, state: State, rng: random.Random) -> None:
    """A sealed simultaneous choice stays sealed: while other seats still have to choose,
    no other seat and no spectator can tell which legal action a seat took."""
    to_act = game.to_act(state)
    if len(to_act) < 2:
        return
    seat = to_act[rng.randrange(len(to_act))]
    legal = game.legal_actions(state, seat)
    if len(legal) < 2:
        return
    first, second = rng.sample(legal, 2)
    one, two = game.apply(state, seat, first), game.apply(state, seat, second)
    pending = tuple(p for p in to_act if p != seat)
    if game.to_act(one) != pending or game.to_act(two) != pending:
        return  # the choice was not sealed among others after all
    observers: list[int | None] = [p for p in range(state.num_players) if p != seat]
    for observer in [*observers, None]:
        found = _view_difference(game.view(one, observer), game.view(two, observer))
        if found is not None:
            raise AssertionError(
                f"{_who(observer)} can tell whether seat {seat} chose {str(first)!r} or "
                f"{str(second)!r} while seats {pending} still choose "
                f"({where(game, state)}): {found}"
            )


def check_bot_view_is_part_of_view(game: AnyGame, state: State) -> None:
    """``Game.bot_view`` is a part of the view (or a function of it), and the greedy bot
    reads nothing else.

    For every seat: each entry of ``bot_view`` is an entry of ``view`` and equal to it,
    or, where ``bot_view`` is a typed information object, ``bot_view_from_view`` builds
    an equal object from the view alone (so the compact input shows nothing the view
    hides: the view's own leak checks cover it). For every seat to act, the game's
    greedy bot chooses the same action from ``bot_view`` as from the whole view, with
    the same random draws (seeded from the state's seed and step: the check draws
    nothing from the suite's generator).
    """
    for seat in range(state.num_players):
        part, view = game.bot_view(state, seat), game.view(state, seat)
        if not isinstance(part, Mapping):
            # A typed information object: it must be what the seat's view alone gives.
            rebuilt = game.bot_view_from_view(view, seat)
            if rebuilt is None or rebuilt != part:
                raise AssertionError(
                    f"bot_view({_who(seat)}) is {part!r}, but its view gives "
                    f"{rebuilt!r} ({where(game, state, seat)})"
                )
            continue
        for key, value in part.items():
            if key not in view:
                raise AssertionError(
                    f"bot_view({_who(seat)}) has {key!r}, which the view has not "
                    f"({where(game, state, seat)})"
                )
            found = first_difference(value, view[key], f"[{key}]")
            if found:
                raise AssertionError(
                    f"bot_view({_who(seat)}) differs from the view at {found} "
                    f"({where(game, state, seat)})"
                )
    if "greedy" not in game.bots():
        return
    draw = f"bot-view-{state.seed}-{len(state.history)}"
    for seat in game.to_act(state):
        legal = game.legal_actions(state, seat)
        compact, whole = game.make_bot("greedy"), game.make_bot("greedy")
        if not getattr(compact, "compact_view", False):
            continue
        chose = compact.choose(game, game.bot_view(state, seat), seat, legal, random.Random(draw))
        wanted = whole.choose(game, game.view(state, seat), seat, legal, random.Random(draw))
        if chose != wanted:
            raise AssertionError(
                f"the greedy bot chose {chose} from bot_view but {wanted} from the view "
                f"({where(game, state, seat)})"
            )
