"""The simulation lab: study files, paired arms, streaming, resuming, backends, reports.

Café Carnage is the real game under study; the toy game Secret Bids (``toygame``)
stands in for a game that crashes on some seeds.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from scipy import stats as scipy_stats
from typer.testing import CliRunner

import potluck
from potluck.cli import app
from potluck.lab import (
    BASELINE,
    StudyError,
    analyse,
    console_summary,
    load_results,
    load_study,
    parse_study,
    plan_chunks,
    run_study,
    write_html,
)
from potluck.lab.runner import PARTS
from potluck.lab.stats import (
    binned_rates,
    equal_seats_test,
    format_p,
    paired_difference,
    pairwise_ratings,
    proportion_test,
    wilson_interval,
)
from potluck.sim import play_game
from toygame import BidsState, SecretBids

CAFE: dict[str, Any] = {
    "game": "cafe-carnage",
    "players": [4, 5],
    "games": 12,
    "seed": 3,
    "agents": ["greedy", "random"],
    "arms": {"no-repeats": {"options": {"no_repeat_dishes": True}}},
}


def study_of(**changes: Any) -> dict[str, Any]:
    return {**CAFE, **changes}


# ------------------------------------------------------------------ study files


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"gmaes": 3}, "field 'gmaes': unknown field"),
        ({"games": 0}, "field 'games'"),
        ({"games": "many"}, "field 'games'"),
        ({"game": "cafe-karnage"}, "field 'game': unknown game 'cafe-karnage'"),
        ({"players": 3}, "field 'players': Café Carnage is for 4 to 6 players, not 3"),
        ({"players": [4, 4]}, "field 'players': [4, 4] repeats a count"),
        ({"players": []}, "field 'players': give at least one player count"),
        ({"agents": []}, "field 'agents'"),
        ({"agents": ["random"] * 5}, "field 'agents': 5 agents do not fit a table of 4"),
        ({"agents": ["greedy", "clever"]}, "field 'agents': Café Carnage has no bot 'clever'"),
        ({"arms": {"x": {"options": {"speed": 1}}}}, "field 'arms.x.options'"),
        ({"arms": {"x": {"optoins": {}}}}, "field 'arms.x.optoins': unknown field"),
        ({"arms": {"x": {"data": "nowhere.toml"}}}, "field 'arms.x.data'"),
        ({"arms": {"baseline": {}}}, "field 'arms.baseline'"),
        ({"arms": {"a b": {}}}, "field 'arms.a b'"),
    ],
)
def test_bad_study_files_name_the_field(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(StudyError) as caught:
        parse_study(study_of(**changes), name="my-study.toml")
    assert message in str(caught.value)
    assert str(caught.value).startswith("my-study.toml: ")


def test_a_missing_field_is_named() -> None:
    raw = study_of()
    del raw["agents"]
    with pytest.raises(StudyError, match=r"give either 'agents' .* or '\[lineups\]'"):
        parse_study(raw)


def test_study_files_load_with_data_relative_to_them(tmp_path: Path) -> None:
    dishes = Path(potluck.__file__).parent / "games" / "cafe_carnage" / "data" / "dishes.toml"
    (tmp_path / "mine.toml").write_text(dishes.read_text("utf-8"), "utf-8")
    (tmp_path / "study.toml").write_text(
        'game = "cafe-carnage"\nplayers = 4\ngames = 2\nagents = ["random"]\n'
        '[arms.mine]\ndata = "mine.toml"\n',
        "utf-8",
    )
    study = load_study(tmp_path / "study.toml")
    assert study.players == (4,)
    assert study.arm("mine").data == str((tmp_path / "mine.toml").resolve())
    assert study.arm_names == (BASELINE, "mine")


def test_unreadable_study_files_say_so(tmp_path: Path) -> None:
    with pytest.raises(StudyError, match="does not exist"):
        load_study(tmp_path / "none.toml")
    (tmp_path / "bad.toml").write_text("game = ", "utf-8")
    with pytest.raises(StudyError, match="is not valid TOML"):
        load_study(tmp_path / "bad.toml")


def test_the_worked_study_files_are_valid() -> None:
    studies = Path(__file__).parent.parent / "studies"
    cafe = load_study(studies / "cafe-player-counts.toml")
    assert cafe.players == (4, 5, 6)
    for name, game in (
        ("belle-variant.toml", "belle-of-the-ball"),
        ("burger-sides.toml", "burger-joint"),
    ):
        # Their games are merged later: until then only the game field may fail.
        if game in potluck.list_games():
            assert load_study(studies / name).game == game
        else:
            with pytest.raises(StudyError, match="field 'game': unknown game"):
                load_study(studies / name)


# ------------------------------------------------------------------ pairing


def test_arms_are_paired_same_seeds_and_seats() -> None:
    study = parse_study(study_of(games=7))
    chunks = plan_chunks(study, chunk_size=3)
    assert sum(c.size for c in chunks) == study.total_games == 7 * 2 * 2
    by_arm: dict[str, list[tuple[int, int, int]]] = {}
    for c in chunks:
        by_arm.setdefault(c.arm, []).append((c.players, c.first, c.last))
    assert by_arm[BASELINE] == by_arm["no-repeats"]
    # The line-up turns one seat per game, so every seat hosts every position equally often.
    assert study.seats_of(4, "default", BASELINE, 0) == ("greedy", "random", "greedy", "random")
    assert study.seats_of(4, "default", BASELINE, 1) == ("random", "greedy", "random", "greedy")
    # At an odd table every game has the same line-up (3 greedy, 2 random).
    for index in range(10):
        assert sorted(study.seats_of(5, "default", BASELINE, index)).count("greedy") == 3
    assert [study.seats_of(5, "default", BASELINE, i)[0] for i in range(5)] == [
        "greedy",
        "random",
        "greedy",
        "random",
        "greedy",
    ]
    assert study.seed_of(5) == 3 + 5


def test_paired_rows_share_seed_and_seats(tmp_path: Path) -> None:
    study = parse_study(study_of(players=4, games=6))
    run_study(study, tmp_path / "r", workers=1, chunk_size=4)
    _, rows = load_results(tmp_path / "r")
    base = [(r["index"], r["seed"], r["agents"]) for r in rows if r["arm"] == BASELINE]
    arm = [(r["index"], r["seed"], r["agents"]) for r in rows if r["arm"] == "no-repeats"]
    assert base == arm
    assert len(base) == 6


# ------------------------------------------------------------------ running, streaming, resuming


def test_rows_match_the_simulation_library(tmp_path: Path) -> None:
    study = parse_study(study_of(players=4, games=3, arms={}))
    run_study(study, tmp_path / "r", workers=1)
    _, rows = load_results(tmp_path / "r")
    game = potluck.load_game("cafe-carnage")
    for row in rows:
        result = play_game(game, 4, row["agents"], row["seed"])
        assert row["scores"] == [float(s) for s in result.outcome.scores]
        assert row["winners"] == list(result.outcome.winners)
        assert row["length"] == result.steps
        assert json.loads(row["metrics"]) == dict(result.metrics)
        assert json.loads(row["seat_metrics"]) == [dict(m) for m in result.seat_metrics]
        assert row["error"] is None


def test_an_interrupted_study_resumes_where_it_stopped(tmp_path: Path) -> None:
    study = parse_study(study_of(players=4, games=10))
    whole = tmp_path / "whole"
    run_study(study, whole, workers=1, chunk_size=3)
    part = tmp_path / "part"
    assert run_study(study, part, workers=1, chunk_size=3, max_chunks=3) == 9
    (part / PARTS / "4p-baseline-0000099-0000099.tmp").write_text("half a file", "utf-8")
    seen: list[tuple[int, int]] = []
    played = run_study(
        study, part, workers=1, chunk_size=3, progress=lambda d, t: seen.append((d, t))
    )
    assert played == 20 - 9
    assert seen[0] == (9, 20)
    assert seen[-1] == (20, 20)
    assert not list((part / PARTS).glob("*.tmp"))
    assert load_results(part)[1] == load_results(whole)[1]
    assert run_study(study, part, workers=1, chunk_size=3) == 0  # nothing left to do


def test_a_results_folder_belongs_to_one_study(tmp_path: Path) -> None:
    run_study(parse_study(study_of(players=4, games=2)), tmp_path, workers=1)
    with pytest.raises(StudyError, match="different study"):
        run_study(parse_study(study_of(players=4, games=2, seed=4)), tmp_path, workers=1)


def test_two_processes_give_the_same_rows_as_one(tmp_path: Path) -> None:
    study = parse_study(study_of(players=4, games=10))
    run_study(study, tmp_path / "one", workers=1, chunk_size=3)
    run_study(study, tmp_path / "two", workers=2, chunk_size=3)
    assert load_results(tmp_path / "one")[1] == load_results(tmp_path / "two")[1]


class FlakyBids(SecretBids):
    """Secret Bids that crashes while dealing every game whose seed ends in 3."""

    id = "flaky-bids"

    def _new_game(self, num_players: int, seed: int, options: Mapping[str, Any]) -> BidsState:
        if seed % 10 == 3:
            raise ZeroDivisionError("the dealer dropped the deck")
        return super()._new_game(num_players, seed, options)


@pytest.fixture
def flaky() -> Iterator[str]:
    potluck.register("flaky-bids", FlakyBids)
    yield "flaky-bids"
    potluck.unregister("flaky-bids")


def test_a_crashed_game_records_its_seed_and_the_study_goes_on(tmp_path: Path, flaky: str) -> None:
    study = parse_study(
        {"game": flaky, "players": [2, 3], "games": 25, "seed": 0, "agents": ["random"]}
    )
    run_study(study, tmp_path, workers=1, chunk_size=10)
    _, rows = load_results(tmp_path)
    crashed = [r for r in rows if r["error"] is not None]
    assert len(rows) == 50
    assert sorted({r["seed"] for r in crashed}) == [3, 13, 23]
    assert all("ZeroDivisionError: the dealer dropped the deck" in r["error"] for r in crashed)
    found = analyse(study, rows)
    assert len(found.errors) == 6
    assert found.tables[0]["games"] == 22
    assert found.tables[0]["errors"] == 3
    assert "6 games crashed; first: seed 3" in console_summary(found)
    html = write_html(found, rows, tmp_path / "report.html").read_text("utf-8")
    assert "Crashed games (6)" in html
    # A game without seat metrics gets no "what goes with winning" section.
    assert all(not w["items"] for w in found.winning)


def test_an_unknown_backend_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StudyError, match="unknown backend 'spark'"):
        run_study(parse_study(study_of(players=4, games=1)), tmp_path, backend="spark")


def test_ray_gives_the_same_results_as_local_processes(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    study = parse_study(study_of(players=[4, 6], games=6))
    run_study(study, tmp_path / "local", workers=2, chunk_size=4)
    # address="local": always a fresh instance, never another session's cluster.
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        assert run_study(study, tmp_path / "ray", backend="ray", chunk_size=4) == 24
    finally:
        ray.shutdown()
    assert load_results(tmp_path / "ray")[1] == load_results(tmp_path / "local")[1]


# ------------------------------------------------------------------ the report


@pytest.fixture(scope="module")
def cafe_results(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, list[dict[str, Any]]]:
    out = tmp_path_factory.mktemp("cafe")
    study = parse_study(study_of(players=4, games=60))
    run_study(study, out, workers=1)
    return load_results(out)


def test_report_figures(cafe_results: tuple[Any, list[dict[str, Any]]]) -> None:
    study, rows = cafe_results
    found = analyse(study, rows)
    base = found.tables[0]
    assert (base["players"], base["arm"], base["games"]) == (4, BASELINE, 60)
    assert math.isclose(sum(s["share"] for s in base["seats"]), 1.0)
    for seat in base["seats"]:
        assert seat["low"] <= seat["share"] <= seat["high"]
        assert math.isclose(seat["against_fair"], seat["share"] - 0.25)
    assert 0 <= base["equal_seats"]["p_value"] <= 1
    assert base["length"]["mean"] == 80  # 5 rounds x 4 actions x 4 players
    comparison = found.comparisons[0]
    assert comparison["pairs"] == 60
    quantities = {d["quantity"]: d for d in comparison["differences"]}
    assert quantities["length"]["difference"] == 0
    assert quantities["length"]["p_value"] == 1.0
    assert quantities["length"]["unit"] == "steps"
    assert "metric escapes" in quantities
    assert quantities["greedy's win share"]["unit"] == "%"
    # Greedy is the stronger bot, and finishes ahead of random far more than half the time.
    baseline_ratings = found.ratings[0]
    assert list(baseline_ratings["elo"]) == ["greedy", "random"]
    assert baseline_ratings["skill"][0]["stronger"] == "greedy"
    assert baseline_ratings["skill"][0]["low"] > 0.5
    dishes = [i["item"] for i in found.winning[0]["items"]]
    assert any(item.startswith("dish:") for item in dishes)


def test_report_console_and_html(
    cafe_results: tuple[Any, list[dict[str, Any]]], tmp_path: Path
) -> None:
    study, rows = cafe_results
    found = analyse(study, rows)
    text = console_summary(found, full=True)
    assert text.index("Win share of the focal seat") < text.index("Findings")
    assert text.index("Findings") < text.index("win share by seat")
    assert "all seats equal: chi-square" in text
    assert "no-repeats - baseline (60 paired games)" in text
    assert "Ratings, arm baseline (Elo, Bradley-Terry fitted by choix): greedy" in text
    html = write_html(found, rows, tmp_path / "sub" / "r.html").read_text("utf-8")
    for heading in (
        "Findings",
        "All seats equal",
        "no-repeats against baseline",
        "What goes with winning",
        "Stronger ahead",
        "Elo",
    ):
        assert heading in html
    # plots for the findings only: one small multiple each
    plotted = [f for f in found.summary if f["kind"] == "comparison"]
    assert html.count("data:image/png;base64,") >= len(plotted)
    assert html.count("data:image/png;base64,") <= len(found.summary)
    # Self-contained: nothing is fetched when the report is opened.
    assert "http://" not in html
    assert "https://" not in html


# ------------------------------------------------------------------ statistics


def test_wilson_interval_known_values() -> None:
    low, high = wilson_interval(0, 10)
    assert low == 0
    assert math.isclose(high, 0.2775, abs_tol=1e-4)
    low, high = wilson_interval(81, 263)
    assert math.isclose(low, 0.2553, abs_tol=1e-4)
    assert math.isclose(high, 0.3662, abs_tol=1e-4)


def test_proportion_test_is_two_sided() -> None:
    assert math.isclose(proportion_test(40, 100, 0.5), proportion_test(60, 100, 0.5))
    assert proportion_test(50, 100, 0.5) == 1.0


def test_paired_difference_matches_scipy() -> None:
    rng = random.Random(1)
    a = [rng.gauss(1, 1) for _ in range(50)]
    b = [x - 0.3 + rng.gauss(0, 0.5) for x in a]
    d = paired_difference(a, b)
    expected = scipy_stats.ttest_rel(a, b)
    assert math.isclose(d.p_value, float(expected.pvalue), rel_tol=1e-9)
    assert d.low < d.mean < d.high
    assert d.n == 50
    with pytest.raises(ValueError, match="differ in length"):
        paired_difference([1.0], [])


def test_pairwise_ratings_recover_strengths() -> None:
    # True strengths 4 : 2 : 1, so a beats b 2/3, b beats c 2/3, a beats c 4/5.
    pairs = (
        [("a", "b")] * 2000
        + [("b", "a")] * 1000
        + [("b", "c")] * 2000
        + [("c", "b")] * 1000
        + [("a", "c")] * 2400
        + [("c", "a")] * 600
    )
    elo = pairwise_ratings(pairs)
    assert math.isclose(elo["a"] - elo["b"], 400 * math.log10(2), rel_tol=0.03)
    assert math.isclose(elo["a"] - elo["c"], 400 * math.log10(4), rel_tol=0.03)
    assert math.isclose(sum(elo.values()) / 3, 1500)
    assert pairwise_ratings([]) == {}


def test_equal_seats_test_catches_a_biased_seat() -> None:
    # A toy case with a known bias: seat 0 wins 40% of 4-player games instead of 25%.
    statistic, p = equal_seats_test([400, 200, 200, 200])
    assert p < 1e-6
    assert math.isclose(statistic, 120.0)
    assert equal_seats_test([250, 250, 250, 250])[1] == 1.0


def test_binned_rates_and_p_values_as_written() -> None:
    bins = binned_rates(list(range(100)), [1.0 if v >= 50 else 0.0 for v in range(100)])
    assert [b["share"] for b in bins] == [0.0, 0.0, 1.0, 1.0]
    assert all(b["low"] <= b["share"] <= b["high"] for b in bins)
    assert format_p(0.0001) == "p < 0.001"
    assert format_p(0.03) == "p = 0.030"
    assert format_p(0.41) == "p = 0.41"


# ------------------------------------------------------------------ the engine hook


def test_cafe_seat_metrics_count_dishes_and_cards() -> None:
    game = potluck.load_game("cafe-carnage")
    rounds = game.max_steps(4) // (4 * 4)  # per round each seat orders 3 dishes, plays 1 card
    result = play_game(game, 4, ["greedy", "random", "random", "random"], seed=11)
    for seat, found in enumerate(result.seat_metrics):
        dishes = sum(v for k, v in found.items() if k.startswith("dish:"))
        cards = sum(v for k, v in found.items() if k.startswith("card:"))
        assert dishes == 3 * rounds
        assert cards == rounds
        assert found["escapes"] + found["caught"] <= found.get("card:run", 0)
        assert found["iou"] in (0, 1)
        assert found["money_left"] >= 0
        assert seat in range(4)


def test_seat_metrics_default_to_nothing() -> None:
    game = SecretBids()
    state = game.new_game(2, seed=0)
    assert game.seat_metrics(state, 0) == {}


# ------------------------------------------------------------------ the command line

runner = CliRunner()


def test_lab_run_and_report_commands(tmp_path: Path) -> None:
    study = tmp_path / "study.toml"
    study.write_text(
        'game = "cafe-carnage"\nplayers = 4\ngames = 8\nseed = 1\nagents = ["greedy", "random"]\n',
        "utf-8",
    )
    result = runner.invoke(
        app, ["lab", "run", str(study), "--out", str(tmp_path / "r"), "--workers", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "Played 8 games" in result.output
    again = runner.invoke(app, ["lab", "run", str(study), "--out", str(tmp_path / "r")])
    assert "Played 0 games (8 already there)" in again.output
    report, figures = tmp_path / "report.html", tmp_path / "figures.json"
    result = runner.invoke(
        app,
        ["lab", "report", str(tmp_path / "r"), "--html", str(report), "--json", str(figures)],
    )
    assert result.exit_code == 0, result.output
    assert "Win share of the focal seat" in result.output
    assert "Made with potluck" in result.output
    full = runner.invoke(app, ["lab", "report", str(tmp_path / "r"), "--full"])
    assert "4 players, line-up default, arm baseline: 8 games" in full.output
    assert f"HTML report written to {report.resolve()}" in result.output
    assert report.read_text("utf-8").startswith("<!doctype html>")
    data = json.loads(figures.read_text("utf-8"))
    assert data["tables"][0]["games"] == 8
    assert set(data["ratings"][0]["elo"]) == {"greedy", "random"}
    assert data["summary"], "the report opens with findings"


def test_lab_commands_report_bad_input_in_one_line(tmp_path: Path) -> None:
    study = tmp_path / "study.toml"
    study.write_text('game = "cafe-carnage"\nplayers = 4\ngames = 8\nagentz = ["greedy"]\n')
    result = runner.invoke(app, ["lab", "run", str(study), "--out", str(tmp_path / "r")])
    assert result.exit_code == 2
    assert "field 'agentz': unknown field" in result.stderr
    result = runner.invoke(app, ["lab", "report", str(tmp_path / "nothing")])
    assert result.exit_code == 2
    assert "is not a results folder" in result.stderr
