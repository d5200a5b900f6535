"""A hand-edited, inconsistent saved state is refused by from_json with what is wrong."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import potluck
from potluck.engine.errors import RecordError
from potluck.sim import lineup, play_game

TABLES = [
    ("cafe-carnage", 4),
    ("belly-battle", 4),
    ("belle-of-the-ball", 3),
    ("burger-joint", 2),
    ("food-advice", 4),
]


def _mid_game(game_id: str, players: int) -> dict[str, Any]:
    game = potluck.load_game(game_id)
    record = play_game(game, players, list(lineup(["random"], players)), 3, keep_record=True).record
    assert record is not None
    state = game.replay(record, upto=len(record["actions"]) // 2)
    return game.to_json(state)


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_a_saved_state_round_trips_and_a_seat_outside_the_table_is_refused(
    game_id: str, players: int
) -> None:
    game = potluck.load_game(game_id)
    saved = _mid_game(game_id, players)
    assert game.to_json(game.from_json(saved)) == saved
    broken = copy.deepcopy(saved)
    broken["acting"] = [players + 3]
    with pytest.raises(RecordError, match="is to act, but the table has seats"):
        game.from_json(broken)


def test_cafe_carnage_refuses_a_card_conjured_into_a_deck() -> None:
    game = potluck.load_game("cafe-carnage")
    saved = _mid_game("cafe-carnage", 4)
    broken = copy.deepcopy(saved)
    broken["state"]["decks"][0].append(broken["state"]["decks"][0][0])  # a card twice
    with pytest.raises(RecordError, match="inconsistent"):
        game.from_json(broken)


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_a_wrongly_typed_field_is_a_record_error_not_a_crash(game_id: str, players: int) -> None:
    game = potluck.load_game(game_id)
    saved = _mid_game(game_id, players)
    for key in list(saved["state"])[:8]:
        broken = copy.deepcopy(saved)
        broken["state"][key] = "not a number"
        try:
            game.from_json(broken)
        except RecordError:
            continue
