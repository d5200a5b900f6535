"""The report's rules: the answer first and short, no finding true by construction,
corrections for many tests said, every verdict word defined, units everywhere."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from potluck.cli import app
from potluck.lab import analyse, console_summary, parse_study, run_study, write_html
from potluck.lab.findings import LEGEND, MAX_FINDINGS

ONE_LINEUP: dict[str, Any] = {
    "game": "cafe-carnage",
    "players": [4, 5],
    "games": 300,
    "seed": 0,
    "agents": ["greedy"],
    "arms": {
        "variant": {"options": {"no_repeat_dishes": True}},
        "tiny": {"options": {"no_repeat_dishes": True}},
    },
}


def _row(players: int, arm: str, index: int, scores: list[float], **extra: Any) -> dict[str, Any]:
    best = max(scores)
    order = sorted(set(scores), reverse=True)
    return {
        "players": players,
        "lineup": "default",
        "arm": arm,
        "index": index,
        "seed": index,
        "agents": ["greedy"] * players,
        "scores": scores,
        "winners": [s for s, x in enumerate(scores) if x == best],
        "places": [order.index(x) + 1 for x in scores],
        "length": extra.get("length", 80),
        "metrics": json.dumps(extra.get("metrics", {})),
        "seat_metrics": "[]",
        "error": None,
    }


def _rows() -> list[dict[str, Any]]:
    """The variant adds 2 points a seat and a Belle-like count that the baseline never has;
    'tiny' adds 0.05 points (significant with little noise, but below the minimum)."""
    rng = random.Random(3)
    rows = []
    for players in (4, 5):
        for index in range(300):
            base = [rng.gauss(30, 5) for _ in range(players)]
            rows.append(_row(players, "baseline", index, base, metrics={"belles": 0}))
            rows.append(
                _row(
                    players,
                    "variant",
                    index,
                    [x + 2 + rng.gauss(0, 0.5) for x in base],
                    metrics={"belles": rng.randint(20, 28)},
                )
            )
            rows.append(
                _row(
                    players,
                    "tiny",
                    index,
                    [x + 0.05 for x in base],
                    length=81,
                    metrics={"belles": 0},
                )
            )
    return rows


def test_no_finding_is_true_by_construction_or_below_the_minimum() -> None:
    found = analyse(parse_study(ONE_LINEUP), _rows())
    texts = " ".join(f["text"] for f in found.summary)
    assert "metric belles" not in texts  # 0 in every baseline game: true by construction
    belles = next(
        d
        for c in found.comparisons
        if c["arm"] == "variant"
        for d in c["differences"]
        if d["quantity"] == "metric belles"
    )
    assert belles["by_construction"]
    assert not any(
        f.get("arm") == "tiny" for f in found.summary
    )  # +0.05 points, +1 step: too small
    assert any(f.get("quantity") == "mean score" and f["arm"] == "variant" for f in found.summary)
    assert len(found.summary) <= MAX_FINDINGS


def test_p_values_are_corrected_and_the_report_says_how() -> None:
    found = analyse(parse_study(ONE_LINEUP), _rows())
    tested = [d for c in found.comparisons for d in c["differences"] if not d["by_construction"]]
    assert all(d["q_value"] >= d["p_value"] for d in tested if d["p_value"] == d["p_value"])
    assert found.rules["tests"] == len([d for d in tested if d["p_value"] == d["p_value"]]) + len(
        found.tables
    )
    text = console_summary(found)
    assert "Benjamini-Hochberg" in text
    assert f"adjusted for the {found.rules['tests']} tests" in text


def test_one_line_up_never_says_holds_and_every_verdict_word_is_defined() -> None:
    found = analyse(parse_study(ONE_LINEUP), _rows())
    verdicts = {r["verdict"] for r in found.robustness}
    assert "holds" not in verdicts
    assert "significant, single line-up" in verdicts
    text = console_summary(found)
    for word in LEGEND:
        assert f"'{word}' =" in text
    assert "holds" not in " ".join(f["text"] for f in found.summary)


def test_every_seat_finding_names_its_arm() -> None:
    found = analyse(parse_study(ONE_LINEUP), _rows())
    seats = [f for f in found.summary if f["kind"] == "seats"]
    assert seats
    assert all("arm" in f["text"] for f in seats)


def test_the_short_report_fits_a_screen_and_full_shows_everything(tmp_path: Path) -> None:
    found = analyse(parse_study(ONE_LINEUP), _rows())
    short = console_summary(found)
    assert len(short.splitlines()) <= 60
    assert short.index("Win share of the focal seat") < short.index("Findings")
    full = console_summary(found, full=True)
    assert len(full.splitlines()) > len(short.splitlines())
    assert "all seats equal: chi-square" in full
    # units go with each number: a win share in %, its difference in pts
    assert "win share (pts)" not in full
    assert any(
        "win share: " in line and "% ->" in line and " pts [" in line for line in full.splitlines()
    )


def test_filters_keep_only_the_arms_and_quantities_named() -> None:
    found = analyse(parse_study(ONE_LINEUP), _rows())
    text = console_summary(found, full=True, arms=["tiny"], metrics=["length"])
    assert "variant - baseline" not in text
    assert "tiny - baseline" in text
    assert "  length:" in text
    assert "  mean score:" not in text


def test_the_html_has_plots_for_the_findings_only_and_stays_small(tmp_path: Path) -> None:
    found = analyse(parse_study(ONE_LINEUP), _rows())
    page = write_html(found, None, tmp_path / "r.html").read_text("utf-8")
    plotted = [f for f in found.summary if f["kind"] == "comparison"]
    assert 1 <= page.count("data:image/png;base64,") <= len(found.summary)
    assert len(plotted) <= page.count("data:image/png;base64,")
    assert len(page.encode()) < 1_000_000
    assert page.index("Win shares") < page.index("Findings") < page.index("Details")
    for word in LEGEND:
        assert word in page


def test_a_sweep_reports_its_crossing(tmp_path: Path) -> None:
    study = parse_study(
        {
            "game": "cafe-carnage",
            "players": 4,
            "games": 24,
            "seed": 1,
            "agents": ["greedy"],
            "sweep": {
                "parameter": "data:table.budget",
                "values": [30, 36, 42],
                "metric": "iou_players",
                "target": 2.0,
            },
        }
    )
    run_study(study, tmp_path, workers=1)
    result = CliRunner().invoke(
        app, ["lab", "report", str(tmp_path), "--html", str(tmp_path / "r.html")]
    )
    assert result.exit_code == 0, result.output
    assert "Sweep of data:table.budget" in result.output
    assert "iou_players reaches 2 at" in result.output
    page = (tmp_path / "r.html").read_text("utf-8")
    assert "Sweep of data:table.budget" in page
    assert len(result.output.splitlines()) <= 62
    bad = CliRunner().invoke(app, ["lab", "report", str(tmp_path), "--arms", "nope"])
    assert bad.exit_code == 2
    assert "no arm 'nope'" in bad.stderr
