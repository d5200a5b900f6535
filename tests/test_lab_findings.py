"""The lab's answers a designer can trust: strategy arms, robustness across line-ups,
all-seat balance and a summary whose numbers are the detail sections' numbers."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from potluck.cli import app
from potluck.lab import analyse, console_summary, load_results, parse_study, run_study, write_html
from potluck.lab.study import StudyError

runner = CliRunner()


def _row(
    players: int, lineup: str, arm: str, index: int, agents: list[str], scores: list[float]
) -> dict[str, Any]:
    best = max(scores)
    winners = [s for s, x in enumerate(scores) if x == best]
    order = sorted(set(scores), reverse=True)
    return {
        "players": players,
        "lineup": lineup,
        "arm": arm,
        "index": index,
        "seed": index,
        "agents": agents,
        "scores": scores,
        "winners": winners,
        "places": [order.index(x) + 1 for x in scores],
        "length": 80,
        "metrics": "{}",
        "seat_metrics": "[]",
        "error": None,
    }


TWO_LINEUPS = {
    "game": "cafe-carnage",
    "players": 4,
    "games": 200,
    "seed": 0,
    "lineups": {"greedy-only": ["greedy"], "with-random": ["greedy", "random"]},
    "arms": {"variant": {"options": {"no_repeat_dishes": True}}},
}


def _synthetic(effect: dict[str, float], seat_bias: float = 0.0) -> list[dict[str, Any]]:
    """Rows where the variant moves every score by ``effect[lineup]``; seat 0 gets
    ``seat_bias`` extra points in every game."""
    rng = random.Random(5)
    rows = []
    for lineup, agents in TWO_LINEUPS["lineups"].items():  # type: ignore[attr-defined]
        table = [agents[s % len(agents)] for s in range(4)]
        for index in range(200):
            base = [rng.gauss(30, 5) + (seat_bias if s == 0 else 0) for s in range(4)]
            rows.append(_row(4, lineup, "baseline", index, table, base))
            noise = [x + effect[lineup] + rng.gauss(0, 0.5) for x in base]
            rows.append(_row(4, lineup, "variant", index, table, noise))
    return rows


def test_a_difference_that_flips_between_line_ups_is_flagged() -> None:
    study = parse_study(TWO_LINEUPS)
    found = analyse(study, _synthetic({"greedy-only": +2.0, "with-random": -2.0}))
    verdict = next(r for r in found.robustness if r["quantity"] == "mean score")
    assert verdict["verdict"] == "flips"
    assert verdict["flips_in"] in (["greedy-only"], ["with-random"])
    finding = next(f for f in found.summary if f.get("quantity") == "mean score")
    assert "FLIPS" in finding["text"]
    assert "FLIPS" in console_summary(found)


def test_a_difference_seen_only_with_random_bots_is_labelled() -> None:
    study = parse_study(TWO_LINEUPS)
    found = analyse(study, _synthetic({"greedy-only": 0.0, "with-random": 3.0}))
    verdict = next(r for r in found.robustness if r["quantity"] == "mean score")
    assert verdict["verdict"] == "mixed"
    assert verdict["random_only"] is True
    assert verdict["holds_for"] == ["with-random"]
    finding = next(f for f in found.summary if f.get("quantity") == "mean score")
    assert "ONLY WITH RANDOM BOTS" in finding["text"]


def test_a_difference_in_every_line_up_holds() -> None:
    study = parse_study(TWO_LINEUPS)
    found = analyse(study, _synthetic({"greedy-only": 2.0, "with-random": 2.0}))
    verdict = next(r for r in found.robustness if r["quantity"] == "mean score")
    assert (verdict["verdict"], verdict["random_only"]) == ("holds", False)
    assert verdict["holds_for"] == ["greedy-only", "with-random"]


def test_a_biased_seat_fails_the_all_seats_equal_test_and_leads_the_summary() -> None:
    study = parse_study(TWO_LINEUPS)
    found = analyse(study, _synthetic({"greedy-only": 0.0, "with-random": 0.0}, seat_bias=6.0))
    for table in found.tables:
        assert table["equal_seats"]["p_value"] < 1e-6
        assert table["seats"][0]["share"] > 0.5
    seats = [f for f in found.summary if f["kind"] == "seats"]
    assert seats
    assert "Seats are not equal at 4 players" in seats[0]["text"]
    fair = analyse(study, _synthetic({"greedy-only": 0.0, "with-random": 0.0}))
    assert any("Seats are balanced" in f["text"] for f in fair.summary)


def test_the_summary_numbers_are_the_detail_numbers() -> None:
    study = parse_study(TWO_LINEUPS)
    found = analyse(study, _synthetic({"greedy-only": 2.0, "with-random": 1.0}))
    assert 1 <= len(found.summary) <= 8
    for finding in (f for f in found.summary if f["kind"] == "comparison"):
        comparison = next(
            c
            for c in found.comparisons
            if c["arm"] == finding["arm"]
            and c["lineup"] == finding["lineup"]
            and c["players"] == finding["players"]
        )
        detail = next(d for d in comparison["differences"] if d["quantity"] == finding["quantity"])
        assert (finding["effect"], finding["low"], finding["high"], finding["p_value"]) == (
            detail["difference"],
            detail["low"],
            detail["high"],
            detail["p_value"],
        )


STRATEGY = {
    "game": "belle-of-the-ball",
    "players": 3,
    "games": 12,
    "seed": 4,
    "agents": ["greedy"],
    "arms": {
        "variant": {"options": {"belles_in_guest_deck": True}},
        "random-focal": {
            "options": {"belles_in_guest_deck": True},
            "agents": ["random"],
            "against": "variant",
        },
    },
}


def test_strategy_arms_seat_their_agents_and_keep_the_specs_as_written(tmp_path: Path) -> None:
    study = parse_study(STRATEGY)
    assert study.arm("random-focal").agents == ("random",)
    run_study(study, tmp_path, workers=1)
    _, rows = load_results(tmp_path)
    focal_rows = [r for r in rows if r["arm"] == "random-focal"]
    for row in focal_rows:
        assert sorted(row["agents"]) == ["greedy", "greedy", "random"]
        assert row["agents"][-row["index"] % 3] == "random"  # the focal position turns too
    found = analyse(study, rows)
    comparison = next(c for c in found.comparisons if c["arm"] == "random-focal")
    assert comparison["against"] == "variant"
    quantities = {d["quantity"] for d in comparison["differences"]}
    assert "focal seat's win share" in quantities
    assert "other seats' mean score" in quantities
    headline = found.summary[0]
    assert (headline["arm"], headline["quantity"]) == (
        "random-focal",
        "focal seat's win share",
    )
    html = write_html(found, rows, tmp_path / "r.html").read_text("utf-8")
    assert "focal agents random; compared with variant" in html


def test_strategy_arm_errors_name_the_field() -> None:
    bad = json.loads(json.dumps(STRATEGY))
    bad["arms"]["random-focal"]["against"] = "nowhere"
    with pytest.raises(StudyError, match=r"random-focal\.against': 'nowhere' is not"):
        parse_study(bad)
    bad = json.loads(json.dumps(STRATEGY))
    bad["arms"]["random-focal"]["agents"] = ["greedy:belle_value=lots"]
    with pytest.raises(StudyError, match=r"arms\.random-focal\.agents"):
        parse_study(bad)
    bad = json.loads(json.dumps(STRATEGY))
    bad["lineups"] = {"x": ["greedy"]}
    with pytest.raises(StudyError, match="not both"):
        parse_study(bad)


def test_games_option_overrides_the_study_for_a_quick_look(tmp_path: Path) -> None:
    study = tmp_path / "study.toml"
    study.write_text(
        'game = "cafe-carnage"\nplayers = 4\ngames = 5000\nseed = 1\nagents = ["greedy"]\n'
    )
    result = runner.invoke(
        app,
        ["lab", "run", str(study), "--out", str(tmp_path / "r"), "--workers", "1", "--games", "3"],
    )
    assert result.exit_code == 0, result.output
    assert "Played 3 games" in result.output


def test_the_study_file_example_in_the_docs_is_a_valid_study() -> None:
    import re
    import tomllib

    text = (Path(__file__).resolve().parent.parent / "docs" / "lab.md").read_text("utf-8")
    example = re.search(r"```toml\n(.*?)```", text, flags=re.DOTALL)
    assert example is not None
    study = parse_study(tomllib.loads(example.group(1)))
    assert study.lineup_names == ("all-greedy", "mixed")
    assert study.arm("chaser").agents == ("greedy:belle_value=12",)
    assert study.arm("chaser").against == "variant"


def test_every_worked_study_file_is_valid() -> None:
    from potluck.lab import load_study

    for path in sorted((Path(__file__).resolve().parent.parent / "studies").glob("*.toml")):
        assert load_study(path).total_games > 0, path


def _effect(
    quantity: str, unit: str, differences: tuple[float, float], half: float
) -> dict[str, Any]:
    lineups = [
        {
            "lineup": name,
            "difference": d,
            "low": d - half,
            "high": d + half,
            "p_value": 1e-6,
            "q_value": 1e-5,
            "significant": True,
            "random": name == "with-random",
        }
        for name, d in zip(("greedy-only", "with-random"), differences, strict=True)
    ]
    return {
        "players": 4,
        "arm": "variant",
        "against": "baseline",
        "quantity": quantity,
        "unit": unit,
        "by_construction": False,
        "minimum": 0.0,
        "lineups": lineups,
        "verdict": "holds",
        "random_only": False,
        "holds_for": ["greedy-only", "with-random"],
        "flips_in": [],
    }


def test_findings_put_win_shares_before_scores_before_other_quantities() -> None:
    # the game's own counts are far "clearer" (tiny intervals), yet a designer asks
    # about win shares and scores first; one arm fills the room the others leave
    from potluck.lab.findings import summarise

    effects = [
        _effect("metric meals", "", (-0.3, -0.1), 0.01),
        _effect("metric runs", "", (0.5, 0.4), 0.05),
        _effect("mean score", "points", (-1.6, -0.6), 0.1),
        _effect("greedy's win share", "%", (-3.0, -2.0), 1.0),
    ]
    found = summarise([], effects, parse_study(TWO_LINEUPS))
    assert [f["quantity"] for f in found] == [
        "greedy's win share",
        "mean score",
        "metric meals",
        "metric runs",
    ]
    # each line-up's own difference, named, so the headline's figure is one of them
    assert "by table size (greedy-only / with-random): 4p -1.6 / -0.60 (holds)" in found[1]["text"]


def test_a_bot_whose_win_share_mirrors_anothers_is_not_a_second_finding() -> None:
    from potluck.lab.findings import summarise

    effects = [
        _effect("greedy's win share", "%", (-3.0, -2.0), 1.0),
        _effect("random's win share", "%", (3.0, 2.0), 1.0),
        _effect("mean score", "points", (-1.6, -0.6), 0.1),
    ]
    found = summarise([], effects, parse_study(TWO_LINEUPS))
    assert [f["quantity"] for f in found] == ["greedy's win share", "mean score"]
