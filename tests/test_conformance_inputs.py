"""Conformance of every game under bad input: hand-edited saves and mistyped action text.

A game whose engineer has not yet tightened its invariants or parser is marked
xfail (not strict) with the game's name, so the suite shows it without failing.
"""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import potluck
from potluck.engine.state import State
from potluck.testing.checks import AnyGame
from potluck.testing.corruption import check_corrupted_saves, damages
from potluck.testing.parsing import (
    check_number_typos_refused,
    check_parsed_text_is_an_alias,
    number_tokens,
    number_typos,
)
from potluck.testing.strategies import conformance_settings

#: Games whose fixes (their own engineers' work, issue 18) had not landed when these
#: checks were added; each case runs and reports XPASS once the game is fixed.
_SAVES_PENDING: dict[str, str] = {}
_PARSER_PENDING: dict[str, str] = {}


def _cases(pending: dict[str, str]) -> list[object]:
    return [
        pytest.param(
            game_id,
            marks=pytest.mark.xfail(reason=pending[game_id], strict=False)
            if game_id in pending
            else (),
        )
        for game_id in potluck.list_games()
    ]


@functools.cache
def _positions(game_id: str) -> tuple[tuple[AnyGame, State], ...]:
    """A few states of random games at the most seats: the start, mid-game and the end."""
    game = potluck.load_game(game_id)
    found: list[tuple[AnyGame, State]] = []
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_game(game.max_players, seed=seed)
        stop = rng.randrange(1, 80) if seed else 0
        while not game.is_over(state) and len(state.history) < stop:
            seat = rng.choice(game.to_act(state))
            game.step(state, seat, rng.choice(game.legal_actions(state, seat)))
        found.append((game, state))
    return tuple(found)


@pytest.mark.parametrize("game_id", _cases(_SAVES_PENDING))
def test_a_hand_edited_save_is_refused_or_playable(game_id: str) -> None:
    for number, (game, state) in enumerate(_positions(game_id)):
        check_corrupted_saves(game, state, random.Random(number), samples=80)


def test_every_kind_of_damage_is_tried() -> None:
    game = potluck.load_game("cafe-carnage")
    state = game.new_game(4)
    game.step(state, 0, game.legal_actions(state, 0)[0])
    labels = " ".join(label for _, label, _ in damages(game.to_json(state), 4))
    for kind in ("negative", "the seat past the last", "an unknown name", "removed", "duplicated"):
        assert kind in labels


@pytest.mark.parametrize("game_id", _cases(_PARSER_PENDING))
def test_numbers_written_with_signs_or_punctuation_never_become_a_move(game_id: str) -> None:
    for game, state in _positions(game_id):
        check_number_typos_refused(game, state)


_TYPING = st.text(alphabet="abcdeoprstvy 0123456789-+!().,#'&\"/", max_size=24)


@pytest.mark.parametrize("game_id", _cases(_PARSER_PENDING))
def test_text_that_is_no_action_nor_alias_is_refused(game_id: str) -> None:
    """Property: whatever is typed, a parse keeps every number exactly as written."""
    positions = _positions(game_id)

    @conformance_settings(max_examples=60)
    @given(data=st.data())
    def typed(data: st.DataObject) -> None:
        game, state = data.draw(st.sampled_from(positions))
        seats = game.to_act(state) or (0,)
        seat = data.draw(st.sampled_from(seats))
        legal = [str(action) for action in game.legal_actions(state, seat)] or ["pass"]
        canonical = data.draw(st.sampled_from(legal))
        edits = [canonical.upper(), f"  {canonical} ", *number_typos(canonical)]
        text = data.draw(
            st.one_of(
                st.sampled_from(edits),
                _TYPING,
                st.builds(lambda a, b: a + canonical + b, _TYPING, _TYPING),
            )
        )
        check_parsed_text_is_an_alias(game, state, seat, text)

    typed()


def test_the_number_rule_is_about_numbers_only() -> None:
    assert number_tokens("Vote (1)") == ["(1)"]
    assert number_typos("vote 1") == [
        "vote -1", "vote +1", "vote 1!", "vote (1)", "vote 1.0",
        "vote 1,", "vote #1", "vote 1?", "vote 1-", "vote 01",
    ]  # fmt: skip
