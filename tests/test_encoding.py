"""Observation vectors: fixed size, within range, and enough to know one's options."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import potluck
from potluck.engine.encoding import Feature, ObservationEncoding
from potluck.engine.errors import PotluckError
from potluck.games.cafe_carnage.game import CafeCarnage
from potluck.games.cafe_carnage.state import CafeState
from potluck.testing import table_cases
from potluck.testing.checks import check_observation_encoding

DOCS = Path(__file__).resolve().parent.parent / "docs" / "games"


def _encoded_games() -> list[tuple[str, int, dict[str, Any]]]:
    """Every table a game with an encoding seats, incl. sizes only an option allows."""
    cases = []
    for game_id, n, options in table_cases():
        try:
            potluck.load_game(game_id).observation_encoding(n, options)
        except NotImplementedError:
            continue
        cases.append((game_id, n, options))
    return cases


@pytest.mark.parametrize(("game_id", "num_players", "options"), _encoded_games())
def test_equal_observations_mean_equal_legal_actions(
    game_id: str, num_players: int, options: dict[str, Any]
) -> None:
    """A seat whose vector is the same in two states has the same legal actions in both.

    Otherwise the vector would leave out something the seat needs to choose, and an
    agent could not learn its action mask from its observation.
    """
    game = potluck.load_game(game_id)
    encoding = game.observation_encoding(num_players, options)
    seen: dict[tuple[float, ...], tuple[str, ...]] = {}
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_game(num_players, seed=seed, options=options)
        while not game.is_over(state) and len(state.history) < 400:
            for seat in game.to_act(state):
                vector = tuple(game.encode_observation(state, seat, encoding))
                assert len(vector) == encoding.size
                legal = tuple(sorted(str(a) for a in game.legal_actions(state, seat)))
                assert seen.setdefault(vector, legal) == legal, (
                    f"seat {seat}: two states with one observation vector offer "
                    f"{seen[vector]} and {legal}"
                )
            seat = rng.choice(game.to_act(state))
            game.step(state, seat, rng.choice(game.legal_actions(state, seat)))


@pytest.mark.parametrize(("game_id", "num_players", "options"), _encoded_games())
def test_the_game_doc_shows_the_encoding(
    game_id: str, num_players: int, options: dict[str, Any]
) -> None:
    """docs/games/<id>.md carries the layout table, at its smallest usual table size."""
    game = potluck.load_game(game_id)
    if num_players != game.min_players or options:
        pytest.skip("the doc shows the smallest table")
    text = (DOCS / f"{game_id}.md").read_text(encoding="utf-8")
    table = game.observation_encoding(num_players).markdown()
    assert table in text, f"docs/games/{game_id}.md lacks the current encoding table:\n{table}"


def test_a_layout_refuses_a_repeated_name_and_an_empty_block() -> None:
    with pytest.raises(PotluckError, match="twice"):
        ObservationEncoding("toy", [Feature("a", 1, ""), Feature("a", 2, "")])
    with pytest.raises(PotluckError, match="positive size"):
        Feature("a", 0, "")


def test_a_writer_refuses_values_outside_its_block() -> None:
    out = ObservationEncoding("toy", [Feature("a", 2, "")]).writer()
    with pytest.raises(PotluckError, match="outside feature 'a'"):
        out.set("a", 1.0, 2)
    with pytest.raises(PotluckError, match="do not fit"):
        out.put("a", [1, 2, 3])
    with pytest.raises(PotluckError, match="no feature 'b'"):
        out.one_hot("b", 0)


def test_problems_name_the_value_out_of_range() -> None:
    layout = ObservationEncoding("toy", [Feature("hp", 2, "", high=9)])
    assert layout.problems([1.0, 10.0]) == ["hp[1] = 10.0 is outside [0.0, 9]"]
    assert layout.problems([1.0]) == ["the vector has 1 values, the layout 2"]
    assert re.search(r"\| 0 \| `hp` \| 2 \| 0\.\.9 \|", layout.markdown())


class PeekingCafe(CafeCarnage):
    """A fast path that also writes the next seat's menu into the vector."""

    def _encode_state(
        self, state: CafeState, seat: int, encoding: ObservationEncoding
    ) -> list[float]:
        vector = super()._encode_state(state, seat, encoding)
        start = encoding.slice("my_menu").start
        for dish in state.menus[(seat + 1) % state.num_players]:
            vector[start + dish] += 1.0
        return vector


def test_a_fast_path_that_shows_more_than_the_view_is_caught() -> None:
    game = PeekingCafe()
    state = game.new_game(4, seed=3)
    with pytest.raises(AssertionError, match="differs from the one its view gives"):
        check_observation_encoding(game, state)


@pytest.mark.parametrize(
    ("game_id", "num_players"),
    [
        ("cafe-carnage", 5),
        ("burger-joint", 2),
        ("belle-of-the-ball", 3),
        ("belly-battle", 4),
        ("food-advice", 5),
    ],
)
def test_the_fast_path_gives_the_views_vector(game_id: str, num_players: int) -> None:
    """Games with a fast path from the state give the view's vector at every step."""
    game = potluck.load_game(game_id)
    encoding = game.observation_encoding(num_players)
    for seed in range(3):
        state = game.new_game(num_players, seed=seed)
        assert game._encode_state(state, 0, encoding) is not None
        rng = random.Random(seed)
        while not game.is_over(state):
            for seat in range(num_players):
                from_view = game.encode_view(game.view(state, seat), encoding)
                assert game.encode_observation(state, seat, encoding) == from_view
            seat = rng.choice(game.to_act(state))
            game.step(state, seat, rng.choice(game.legal_actions(state, seat)))
        for seat in range(num_players):
            from_view = game.encode_view(game.view(state, seat), encoding)
            assert game.encode_observation(state, seat, encoding) == from_view
