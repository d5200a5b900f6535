"""Golden playthroughs: fixed games whose every state is pinned, as OpenSpiel does.

Each file in tests/golden/ holds a record (seed, options, actions) played by
bots and the JSON of the state after every action. Replaying it must give the
same states byte for byte, on any machine: a change to the rules, the data or
the RNG use shows up here. After a deliberate change, bump the game's
``version`` and regenerate with ``python tests/test_golden.py``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

import potluck
from potluck.sim import play_game

GOLDEN = Path(__file__).resolve().parent / "golden"
#: SHA-256 of the actions of fixed games of every game, by "game/lineup": random play
#: pins the rules and their use of chance, greedy play also the greedy bots' decisions.
#: Speed work (a compiled build, a cheaper input for bots) must leave them all equal;
#: after a deliberate change to the rules or a bot's decisions, regenerate them with
#: ``python tests/test_golden.py`` and say so in the commit.
PLAY_HASHES = GOLDEN / "play-hashes.json"
#: (game, players, seeds, lineup) of each pinned hash.
PLAYS: dict[str, tuple[str, int, range, tuple[str, ...]]] = {
    f"{game}/{lineup[0]}": (game, players, seeds, lineup)
    for game, players in (
        ("belle-of-the-ball", 4),
        ("belly-battle", 4),
        ("burger-joint", 2),
        ("cafe-carnage", 4),
        ("food-advice", 4),
    )
    for lineup, seeds in ((("random",), range(20)), (("greedy",), range(4)))
}
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


def play_hash(game_id: str, players: int, seeds: range, lineup: tuple[str, ...]) -> str:
    """SHA-256 of every action of the games dealt from ``seeds`` with ``lineup`` seated
    round the table (``potluck.sim.play_game``: each bot draws from its seat's generator)."""
    game = potluck.load_game(game_id)
    digest = hashlib.sha256()
    for seed in seeds:
        seated = [lineup[seat % len(lineup)] for seat in range(players)]
        record = play_game(game, players, seated, seed, keep_record=True).record
        assert record is not None
        digest.update(json.dumps(record["actions"]).encode())
    return digest.hexdigest()


@pytest.mark.parametrize("name", sorted(PLAYS))
def test_play_hashes(name: str) -> None:
    expected = json.loads(PLAY_HASHES.read_text("utf-8"))
    assert play_hash(*PLAYS[name]) == expected[name], (
        f"{name} plays other moves for the same seeds than when its hash was pinned: a "
        "change of the rules or of a bot's decisions (regenerate with "
        "`python tests/test_golden.py` only if that change was meant)"
    )


if __name__ == "__main__":
    hashes = {name: play_hash(*case) for name, case in sorted(PLAYS.items())}
    PLAY_HASHES.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n")
    print("wrote", PLAY_HASHES, file=sys.stderr)
    for name, case in CASES.items():
        (GOLDEN / name).write_text(
            json.dumps(playthrough(*case), indent=None, sort_keys=True) + "\n"
        )
        print("wrote", GOLDEN / name, file=sys.stderr)
