"""``potluck lab tune``: a tiny search, its resumption after an interruption, its answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from potluck.cli import app
from potluck.lab import load_results, parse_study
from potluck.lab.tune import CONFIRM_OFFSET, TuneProgress, rungs, tune

optuna = pytest.importorskip("optuna")

TINY: dict[str, Any] = {
    "game": "cafe-carnage",
    "players": 4,
    "games": 9,
    "seed": 5,
    "agents": ["greedy"],
    "search": {
        "parameters": {"data:table.budget": [25, 45]},
        "metric": "iou_players",
        "target": 2.0,
        "trials": 6,
        "batch": 2,
        "min_games": 3,
        "confirm_games": 6,
    },
}


def test_rungs_grow_by_the_reduction_factor() -> None:
    assert rungs(270, None, 3) == [30, 90, 270]
    assert rungs(9, 3, 3) == [3, 9]
    assert rungs(5, None, 3) == [5]


def test_a_tiny_search_answers_with_its_confirmation_only(tmp_path: Path) -> None:
    study = parse_study(TINY)
    answer = tune(study, tmp_path, workers=1)
    assert set(answer["best"]) == {"data:table.budget"}
    assert 25 <= answer["best"]["data:table.budget"] <= 45
    assert isinstance(answer["best"]["data:table.budget"], int)  # ints stay ints
    confirmation = answer["confirmation"]
    assert set(confirmation) == {"metric", "value", "low", "high", "games"}
    assert confirmation["metric"] == "iou_players"
    assert confirmation["games"] == 6
    assert confirmation["low"] <= confirmation["value"] <= confirmation["high"]
    # the confirmation is a study of its own, on deals the search never played
    confirmed, rows = load_results(tmp_path / "confirmation")
    assert confirmed.seed == TINY["seed"] + CONFIRM_OFFSET
    best_rows = [r for r in rows if r["arm"] == "best"]
    assert len(best_rows) == 6
    assert min(r["seed"] for r in rows) >= TINY["seed"] + CONFIRM_OFFSET
    assert confirmed.arm("best").patch == {"table.budget": answer["best"]["data:table.budget"]}
    # the best trial's own figure is kept, and labelled as not the answer
    assert "not the answer" in answer["search"]["best_trial"]["note"]
    stored = optuna.load_study(
        study_name="potluck-lab-tune", storage=f"sqlite:///{tmp_path / 'optuna.db'}"
    )
    finished = [t for t in stored.trials if t.state.name in ("COMPLETE", "PRUNED")]
    assert len({t.params["data:table.budget"] for t in finished}) == 6  # distinct points
    assert answer["search"]["points"] == 6
    assert stored.trials[0].params == {"data:table.budget": 30}  # the game as it is, first
    assert json.loads((tmp_path / "answer.json").read_text())["best"] == answer["best"]


def test_every_trial_plays_the_same_deals(tmp_path: Path) -> None:
    tune(parse_study(TINY), tmp_path, workers=1)
    seeds: dict[str, set[int]] = {}
    import pyarrow.parquet as pq

    for part in (tmp_path / "games").glob("*.parquet"):
        for row in pq.read_table(part).to_pylist():
            seeds.setdefault(row["arm"], set()).add(row["seed"])
    firsts = [min(s) for s in seeds.values()]
    assert len(seeds) >= 2
    assert set(firsts) == {TINY["seed"]}  # game i of every point is dealt from seed + i


def test_a_search_resumes_after_an_interruption(tmp_path: Path) -> None:
    study = parse_study(TINY)
    calls = 0

    def interrupt(state: TuneProgress) -> None:
        nonlocal calls
        calls += 1
        if calls == 4:  # mid-way through the first batch
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tune(study, tmp_path, workers=1, progress=interrupt)
    stored = optuna.load_study(
        study_name="potluck-lab-tune", storage=f"sqlite:///{tmp_path / 'optuna.db'}"
    )
    running = [t for t in stored.trials if t.state.name == "RUNNING"]
    assert running, "the interruption left trials cut off mid-way"
    cut = {t.params["data:table.budget"] for t in running}
    answer = tune(study, tmp_path, workers=1)
    stored = optuna.load_study(
        study_name="potluck-lab-tune", storage=f"sqlite:///{tmp_path / 'optuna.db'}"
    )
    states = [t.state.name for t in stored.trials]
    finished = [t for t in stored.trials if t.state.name in ("COMPLETE", "PRUNED")]
    assert len({t.params["data:table.budget"] for t in finished}) == 6  # distinct points
    assert states.count("FAIL") == len(running)
    retried = {t.params["data:table.budget"] for t in stored.trials if t.state.name != "FAIL"}
    assert cut <= retried  # the cut-off points were tried again
    assert answer["search"]["trials"] == len(stored.trials)


def test_a_changed_search_is_not_mixed_into_an_old_folder(tmp_path: Path) -> None:
    tune(parse_study(TINY), tmp_path, workers=1, stop_after_batches=1)
    from potluck.lab import StudyError

    with pytest.raises(StudyError, match="different study"):
        tune(parse_study(TINY), tmp_path, workers=1, games=27)


def test_an_agent_search_tunes_the_focal_bot(tmp_path: Path) -> None:
    raw = {
        "game": "belle-of-the-ball",
        "players": 3,
        "games": 3,
        "seed": 1,
        "agents": ["greedy"],
        "search": {
            "parameters": {"agent:chip_value": [0.2, 2.0], "agent:belle_value": [0, 12]},
            "metric": "focal_win_share",
            "direction": "maximize",
            "trials": 3,
            "batch": 3,
            "confirm_games": 3,
        },
    }
    answer = tune(parse_study(raw), tmp_path, workers=1)
    chip = answer["best"]["agent:chip_value"]
    belle = answer["best"]["agent:belle_value"]
    assert isinstance(belle, int)
    assert answer["bots"]["best_agents"] == [f"greedy:chip_value={chip:g},belle_value={belle}"]


def test_the_command_prints_the_json_the_issue_gives(tmp_path: Path) -> None:
    path = tmp_path / "tiny.toml"
    path.write_text(
        'game = "cafe-carnage"\nplayers = 4\ngames = 6\nseed = 1\nagents = ["greedy"]\n'
        "[search]\n"
        'parameters = { "data:table.budget" = [28, 40] }\n'
        'metric = "iou_players"\ntarget = 2.0\n',
        "utf-8",
    )
    result = CliRunner().invoke(
        app,
        [
            "lab",
            "tune",
            str(path),
            "--out",
            str(tmp_path / "out"),
            "--trials",
            "3",
            "--games",
            "6",
            "--confirm-games",
            "4",
            "--workers",
            "1",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert set(answer["best"]) == {"data:table.budget"}
    assert set(answer["confirmation"]) == {"metric", "value", "low", "high", "games"}
    text = CliRunner().invoke(
        app,
        [
            "lab",
            "tune",
            str(path),
            "--out",
            str(tmp_path / "out"),
            "--trials",
            "3",
            "--games",
            "6",
            "--confirm-games",
            "4",
            "--workers",
            "1",
        ],
    )
    assert text.exit_code == 0, text.output
    assert "Confirmed on 4 fresh games" in text.output
    assert "is not the answer" in text.output


def test_a_study_without_a_search_is_refused(tmp_path: Path) -> None:
    from potluck.lab import StudyError

    raw = {k: v for k, v in TINY.items() if k != "search"}
    with pytest.raises(StudyError, match=r"no \[search\] table"):
        tune(parse_study(raw), tmp_path)


@pytest.mark.parametrize(
    ("search", "words"),
    [
        (
            {"parameters": {"data:table.budget": [20, 45]}, "metric": "iou_players"},
            ["direction", "target"],
        ),
        (
            {"parameters": {"data:table.budget": [45, 20]}, "metric": "iou_players", "target": 2.0},
            ["not below"],
        ),
        (
            {"parameters": {"data:table.budget": [-5, 20]}, "metric": "iou_players", "target": 2.0},
            ["at least 0"],
        ),
        (
            {
                "parameters": {"data:table.budget": [20, 40]},
                "metric": "iou",
                "direction": "maximize",
            },
            ["no metric 'iou'"],
        ),
        (
            {
                "parameters": {"option:no_repeat_dishes": ["yes", "no"]},
                "metric": "length",
                "direction": "maximize",
            },
            ["TOML boolean"],
        ),
    ],
)
def test_a_bad_search_is_refused_before_playing(search: dict[str, Any], words: list[str]) -> None:
    from potluck.lab import StudyError

    with pytest.raises(StudyError) as error:
        parse_study({**TINY, "search": search})
    for word in words:
        assert word in str(error.value)


def test_a_stronger_line_up_confirms_the_answer_with_its_own_games(tmp_path: Path) -> None:
    raw = {
        "game": "burger-joint",
        "players": 2,
        "games": 4,
        "seed": 3,
        "agents": ["greedy"],
        "search": {
            "parameters": {"data:sides.1.publicity_points.0": [0, 3]},
            "metric": "burger_win_share",
            "target": 50.0,
            "trials": 2,
            "batch": 2,
            "confirm_games": 4,
            "confirm_lineups": {"search": ["ismcts:sims=2"]},
            "confirm_lineup_games": 2,
        },
    }
    answer = tune(parse_study(raw), tmp_path, workers=1)
    cells = {cell["lineup"]: cell for cell in answer["cells"]}
    assert cells["default"]["searched"]
    assert not cells["search"]["searched"]
    assert cells["search"]["best"]["games"] == 2
    assert answer["confirmation"]["games"] == 4  # the answer is the searched line-ups'
    assert answer["unit"] == "%"


def test_rungs_that_are_not_whole_chunks_are_read_back_as_played(tmp_path: Path) -> None:
    raw = {
        **TINY,
        "games": 10,
        "search": {**TINY["search"], "min_games": 3, "trials": 3, "batch": 3, "confirm_games": 2},
    }
    answer = tune(parse_study(raw), tmp_path, workers=1, chunk_size=2)  # rungs [3, 9]
    assert answer["search"]["rungs"] == [3, 9]
    assert answer["confirmation"]["games"] == 2


def test_a_search_on_ray_finds_what_local_workers_find(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    raw = {**TINY, "search": {**TINY["search"], "trials": 3, "batch": 3, "confirm_games": 2}}
    local = tune(parse_study(raw), tmp_path / "local", workers=2)
    # address="local": always a fresh instance, never another session's cluster.
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = tune(parse_study(raw), tmp_path / "ray", backend="ray")
    finally:
        ray.shutdown()
    assert remote["best"] == local["best"]
    assert remote["confirmation"] == local["confirmation"]
