"""Where a run's figures come from (provenance) and how long it has left (the ETA)."""

from __future__ import annotations

import json
from pathlib import Path

import potluck
from potluck.lab import parse_study, run_study
from potluck.lab.eta import Eta
from potluck.lab.provenance import git_commit, provenance, resolved_spec
from potluck.lab.worker import Chunk

STUDY = {
    "game": "belle-of-the-ball",
    "players": 3,
    "games": 2,
    "seed": 1,
    "agents": ["greedy", "ismcts:sims=2"],
    "arms": {"chaser": {"agents": ["greedy:belle_value=12"]}},
}


def test_every_bot_spec_is_resolved_with_all_its_defaults() -> None:
    game = potluck.load_game("belle-of-the-ball")
    greedy = resolved_spec(game, "greedy:belle_value=12")
    assert greedy.startswith("greedy:")
    assert "belle_value=12" in greedy
    assert "chip_value=" in greedy  # a default, written out
    search = resolved_spec(game, "ismcts:sims=2")
    assert "sims=2" in search
    assert "prior=greedy" in search  # the game's search default, written out


def test_study_json_records_version_commit_bots_and_libraries(tmp_path: Path) -> None:
    study = parse_study(STUDY)
    run_study(study, tmp_path, workers=1)
    header = json.loads((tmp_path / "study.json").read_text("utf-8"))
    record = header["provenance"]
    assert record["version"] == "0.1.0"
    commit, _dirty = git_commit()
    assert record["commit"] == commit
    if commit is not None:  # run from a git checkout
        assert len(commit) == 40
    assert set(record["bots"]) == {"greedy", "ismcts:sims=2", "greedy:belle_value=12"}
    assert "chip_value=" in record["bots"]["greedy"]
    assert {"pyarrow", "scipy", "pydantic"} <= set(record["libraries"])
    assert record == provenance(study)


def test_a_resumed_run_by_other_code_adds_its_record(tmp_path: Path) -> None:
    study = parse_study(STUDY)
    run_study(study, tmp_path, workers=1, max_chunks=1)
    path = tmp_path / "study.json"
    header = json.loads(path.read_text("utf-8"))
    header["provenance"]["commit"] = "0" * 40  # as if the first part ran on older code
    path.write_text(json.dumps(header), "utf-8")
    run_study(study, tmp_path, workers=1)
    resumed = json.loads(path.read_text("utf-8"))["resumed"]
    assert resumed == [provenance(study)]


def _chunk(arm: str, first: int) -> Chunk:
    return Chunk("g", None, {}, 4, arm, first, first + 9, 0, ("greedy",))


def test_the_eta_weighs_each_arm_by_its_own_time_a_game() -> None:
    chunks = [_chunk(arm, first) for first in (0, 10, 20) for arm in ("fast", "slow")]
    eta = Eta(chunks, start=0.0)
    assert eta.remaining(now=0.0) is None
    eta.finished(_chunk("fast", 0), 1.0, now=1.0)
    eta.finished(_chunk("slow", 0), 20.0, now=21.0)
    # left: two fast chunks (1 s each) and two slow ones (20 s each) at 1 CPU second a second
    left = eta.remaining(now=21.0)
    assert left is not None
    assert abs(left - 42.0) < 1e-6
    # the estimate counts down between chunks
    later = eta.remaining(now=31.0)
    assert later is not None
    assert abs(later - 32.0) < 1e-6


def test_an_unmeasured_arm_borrows_the_time_of_its_line_up() -> None:
    eta = Eta([_chunk("a", 0), _chunk("b", 0), _chunk("b", 10)], start=0.0)
    eta.finished(_chunk("a", 0), 5.0, now=5.0)
    left = eta.remaining(now=5.0)
    assert left is not None
    assert abs(left - 10.0) < 1e-6
