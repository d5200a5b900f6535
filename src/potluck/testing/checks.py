"""Checks of the engine contract on one state of a game.

Each check takes the game and a state (and sometimes a ``random.Random`` for the
samples it draws) and raises ``AssertionError`` saying what is wrong, naming the
game, the step and the seat. None of them changes the state it is given unless
the game breaks the contract (which the check then reports).

    >>> import random
    >>> import potluck
    >>> from potluck.testing import check_action_text_roundtrip, check_views_json_and_no_leaks
    >>> g = potluck.load_game("cafe-carnage")
    >>> s = g.new_game(4, seed=7)
    >>> check_action_text_roundtrip(g, s)
    >>> check_views_json_and_no_leaks(g, s, random.Random(0))
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from potluck.engine.action import Action
from potluck.engine.errors import (
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
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


# ---------------------------------------------------------------------- turn


def check_every_actor_has_a_legal_action(game: AnyGame, state: State) -> None:
    """Every seat in ``to_act`` has legal actions (distinct ``Action`` objects); the rest none.

    Also: ``to_act`` is a tuple of distinct seats, and ``is_over`` is true exactly when
    it is empty.
    """
    to_act = game.to_act(state)
    if not isinstance(to_act, tuple):
        raise AssertionError(f"to_act is a {type(to_act).__name__}, not a tuple")
    if len(set(to_act)) != len(to_act):
        raise AssertionError(f"to_act {to_act} repeats a seat ({where(game, state)})")
    if not all(isinstance(seat, int) and 0 <= seat < state.num_players for seat in to_act):
        raise AssertionError(
            f"to_act {to_act} holds something that is not a seat ({where(game, state)})"
        )
    if game.is_over(state) != (not to_act):
        raise AssertionError(
            f"is_over is {game.is_over(state)} while to_act is {to_act} ({where(game, state)})"
        )
    for seat in range(state.num_players):
        legal = game.legal_actions(state, seat)
        if seat in to_act:
            if not legal:
                raise AssertionError(
                    f"seat {seat} must act but has no legal action ({where(game, state)})"
                )
            if not all(isinstance(action, Action) for action in legal):
                raise AssertionError(
                    f"legal_actions holds non-Action values {legal!r:.200} "
                    f"({where(game, state, seat)})"
                )
            if len(set(legal)) != len(legal):
                raise AssertionError(
                    f"legal_actions repeats an action: {[str(a) for a in legal]} "
                    f"({where(game, state, seat)})"
                )
        else:
            if legal != []:
                raise AssertionError(
                    f"seat {seat} is not in to_act {to_act} but has legal actions "
                    f"{[str(a) for a in legal][:5]} ({where(game, state)})"
                )


def check_not_your_turn(game: AnyGame, state: State) -> None:
    """A seat outside ``to_act`` that steps gets ``NotYourTurnError`` (with ``explain``'s
    sentence as its reason) and the state does not change."""
    waiting = _seats_waiting(game, state)
    if not waiting:
        return
    before = snapshot(game, state)
    for seat in waiting:
        action = _some_action(game, state, seat)
        if action is None:
            continue
        reason = game.explain(state, seat, action)
        if not (isinstance(reason, str) and reason.strip()):
            raise AssertionError(
                f"explain gives {reason!r} for seat {seat}, who need not act ({where(game, state)})"
            )
        try:
            game.step(state, seat, action)
        except NotYourTurnError as error:
            if error.reason != reason:
                raise AssertionError(
                    f"NotYourTurnError says {error.reason!r} but explain says {reason!r} "
                    f"({where(game, state, seat)})"
                ) from None
        else:
            raise AssertionError(
                f"seat {seat} stepped {str(action)!r} out of turn and no NotYourTurnError "
                f"was raised ({where(game, state)})"
            )
        if snapshot(game, state) != before:
            raise AssertionError(
                f"a refused out-of-turn step changed the state ({where(game, state, seat)})"
            )


# ---------------------------------------------------------------------- actions


def check_action_text_roundtrip(game: AnyGame, state: State) -> None:
    """``parse_action(s, seat, str(a)) == a`` for every legal ``a``; garbage text is invalid."""
    for seat in game.to_act(state):
        for action in game.legal_actions(state, seat):
            text = str(action)
            if not (text and text == text.strip() and "\n" not in text):
                raise AssertionError(
                    f"action text {text!r} is empty or has stray whitespace "
                    f"({where(game, state, seat)})"
                )
            try:
                parsed = game.parse_action(state, seat, text)
            except PotluckError as error:
                raise AssertionError(
                    f"parse_action refuses the legal action's own text {text!r}: {error} "
                    f"({where(game, state, seat)})"
                ) from None
            if not (parsed == action and str(parsed) == text):
                raise AssertionError(
                    f"parse_action({text!r}) gives {parsed!r}, not {action!r} "
                    f"({where(game, state, seat)})"
                )
        try:
            parsed = game.parse_action(state, seat, _GARBAGE_TEXT)
        except InvalidActionError:
            pass
        else:
            raise AssertionError(
                f"parse_action({_GARBAGE_TEXT!r}) gives {parsed!r} instead of raising "
                f"InvalidActionError ({where(game, state, seat)})"
            )


def check_action_encoding(game: AnyGame, state: State) -> None:
    """Integer codes round-trip, lie in ``range(num_distinct_actions)``, and are distinct."""
    size = game.num_distinct_actions(state.num_players, state.options)
    if not (isinstance(size, int) and size > 0):
        raise AssertionError(f"num_distinct_actions is {size!r}")
    for seat in game.to_act(state):
        codes: dict[int, Action] = {}
        for action in game.legal_actions(state, seat):
            code = game.action_index(state, seat, action)
            if not (isinstance(code, int) and 0 <= code < size):
                raise AssertionError(
                    f"action {str(action)!r} has code {code!r}, outside 0..{size - 1} "
                    f"({where(game, state, seat)})"
                )
            if code in codes:
                raise AssertionError(
                    f"actions {str(codes[code])!r} and {str(action)!r} share code {code} "
                    f"({where(game, state, seat)})"
                )
            codes[code] = action
            if game.action_index(state, seat, str(action)) != code:
                raise AssertionError(
                    f"action_index of the text {str(action)!r} is not {code} "
                    f"({where(game, state, seat)})"
                )
            back = game.action_from_index(state, seat, code)
            if back != action:
                raise AssertionError(
                    f"action_from_index({code}) gives {back!r}, not {action!r} "
                    f"({where(game, state, seat)})"
                )
        for code in (-1, size):
            try:
                game.action_from_index(state, seat, code)
            except InvalidActionError:
                continue
            raise AssertionError(
                f"action_from_index({code}) does not raise InvalidActionError though the "
                f"codes are 0..{size - 1} ({where(game, state, seat)})"
            )


def check_explain_matches_errors(
    game: AnyGame, state: State, rng: random.Random, samples: int = 3
) -> None:
    """``explain`` is ``None`` for legal actions; for illegal ones it gives a sentence, and
    ``step`` raises ``IllegalActionError`` with that sentence and leaves the state alone.

    The illegal actions are up to ``samples`` codes per seat, drawn with ``rng`` from
    the codes of the action space that no legal action has.
    """
    size = game.num_distinct_actions(state.num_players, state.options)
    for seat in game.to_act(state):
        legal = game.legal_actions(state, seat)
        for action in legal:
            reason = game.explain(state, seat, action)
            if reason is not None:
                raise AssertionError(
                    f"explain says {reason!r} for the legal action {str(action)!r} "
                    f"({where(game, state, seat)})"
                )
        used = {game.action_index(state, seat, action) for action in legal}
        unused = [code for code in range(size) if code not in used]
        for code in rng.sample(unused, min(samples, len(unused))):
            try:
                action = game.action_from_index(state, seat, code)
            except InvalidActionError:
                continue  # a code with no action in this state
            if action in legal:
                raise AssertionError(
                    f"action_from_index({code}) gives the legal {str(action)!r}, whose own code is "
                    f"{game.action_index(state, seat, action)} ({where(game, state, seat)})"
                )
            _check_refused(game, state, seat, action)


def _check_refused(game: AnyGame, state: State, seat: int, action: Action) -> None:
    reason = game.explain(state, seat, action)
    if not (isinstance(reason, str) and reason.strip()):
        raise AssertionError(
            f"explain gives {reason!r} for the illegal action {str(action)!r} "
            f"({where(game, state, seat)})"
        )
    before = snapshot(game, state)
    try:
        game.step(state, seat, action)
    except NotYourTurnError:
        raise AssertionError(
            f"step raised NotYourTurnError for seat {seat}, who is to act "
            f"({where(game, state, seat)})"
        ) from None
    except IllegalActionError as error:
        if error.reason != reason:
            raise AssertionError(
                f"step refuses {str(action)!r} with {error.reason!r} but explain says {reason!r} "
                f"({where(game, state, seat)})"
            ) from None
    else:
        raise AssertionError(
            f"step accepted {str(action)!r}, which explain calls illegal: {reason!r} "
            f"({where(game, state, seat)})"
        )
    if snapshot(game, state) != before:
        raise AssertionError(
            f"a refused step of {str(action)!r} changed the state ({where(game, state, seat)})"
        )


def check_apply_pure(game: AnyGame, state: State, seat: int, action: Action) -> None:
    """``apply`` leaves its input alone and agrees with ``clone`` + ``step``; clones are
    independent both ways."""
    at = where(game, state, seat)
    before = snapshot(game, state)
    after = game.apply(state, seat, action)
    if snapshot(game, state) != before:
        raise AssertionError(
            f"apply({str(action)!r}) changed its input state ({at}): "
            f"{before.difference(snapshot(game, state))}"
        )
    if after is state:
        raise AssertionError(f"apply returned its input state ({where(game, state, seat)})")
    twin = state.clone()
    if twin is state:
        raise AssertionError(f"clone returned the state itself ({where(game, state)})")
    if snapshot(game, twin) != before:
        raise AssertionError(
            f"a clone differs from its original ({where(game, state)}): "
            f"{before.difference(snapshot(game, twin))}"
        )
    copy = twin.clone()
    game.step(twin, seat, action)
    expected = snapshot(game, after)
    if snapshot(game, twin) != expected:
        raise AssertionError(
            f"apply and clone + step disagree on {str(action)!r} ({where(game, state, seat)}): "
            f"{expected.difference(snapshot(game, twin))}"
        )
    if snapshot(game, state) != before:
        raise AssertionError(
            f"stepping a clone changed its original ({where(game, state, seat)}): "
            f"{before.difference(snapshot(game, state))}"
        )
    if snapshot(game, copy) != before:
        raise AssertionError(
            f"stepping a state changed its clone ({where(game, state, seat)}): "
            f"{before.difference(snapshot(game, copy))}"
        )


# ---------------------------------------------------------------------- views


def _views(game: AnyGame, state: State) -> dict[int | None, dict[str, Any]]:
    seats: list[int | None] = [*range(state.num_players), None]
    return {seat: game.view(state, seat) for seat in seats}


def _view_difference(left: dict[str, Any], right: dict[str, Any]) -> str | None:
    return None if left == right else first_difference(left, right) or "unequal views"


def _who(seat: int | None) -> str:
    return "the spectator" if seat is None else f"seat {seat}"


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
