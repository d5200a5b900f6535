"""Checks of whose turn it is and of actions: text, codes, explain and apply."""

from __future__ import annotations

import random

from potluck.engine.action import Action
from potluck.engine.errors import (
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    PotluckError,
)
from potluck.engine.state import State
from potluck.testing.common import (
    _GARBAGE_TEXT,
    AnyGame,
    _seats_waiting,
    _some_action,
    snapshot,
    where,
)

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
