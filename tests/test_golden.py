"""Golden playthroughs: fixed games whose every state is pinned, as OpenSpiel does.

Each file in tests/golden/ holds a record (seed, options, actions) played by
bots and the JSON of the state after every action. Replaying it must give the
same states byte for byte, on any machine: a change to the rules, the data or
the RNG use shows up here. After a deliberate change, bump the game's
``version`` and regenerate with ``python tests/test_golden.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import potluck
from potluck.sim import play_game

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES: dict[str, tuple[str, int, int, dict[str, object], tuple[str, ...]]] = {
    "cafe-carnage-4p-seed11.json": ("cafe-carnage", 4, 11, {}, ("greedy", "random")),
    "cafe-carnage-6p-variant-seed12.json": (
        "cafe-carnage",
        6,
        12,
        {"no_repeat_dishes": True},
        ("greedy", "random", "random"),
    ),
}


def playthrough(
    game_id: str, players: int, seed: int, options: dict[str, object], agents: tuple[str, ...]
) -> dict[str, object]:
    game = potluck.load_game(game_id)
    lineup = [agents[seat % len(agents)] for seat in range(players)]
    record = play_game(game, players, lineup, seed, options, keep_record=True).record
    assert record is not None
    states = [
        game.to_json(game.replay(record, upto=k))["state"]
        for k in range(0, len(record["actions"]) + 1, 7)
    ]
    return {"record": record, "every_7th_state": states}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str) -> None:
    expected = json.loads((GOLDEN / name).read_text("utf-8"))
    game = potluck.load_game(expected["record"]["game"])
    record = expected["record"]
    for index, k in enumerate(range(0, len(record["actions"]) + 1, 7)):
        state = game.to_json(game.replay(record, upto=k))["state"]
        assert state == expected["every_7th_state"][index], (
            f"{name}: state after {k} actions differs"
        )
    assert game.record(game.replay(record)) == record


if __name__ == "__main__":
    for name, case in CASES.items():
        (GOLDEN / name).write_text(
            json.dumps(playthrough(*case), indent=None, sort_keys=True) + "\n"
        )
        print("wrote", GOLDEN / name, file=sys.stderr)
