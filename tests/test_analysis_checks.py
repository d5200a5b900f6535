"""The move analysis's checks (issue 32), as the example scripts compute them:
``examples/analysis_benchmark.py`` (random against greedy, verdicts under another
seed, forced moves, time) and ``examples/analysis_calibration.py`` (Brier score and
reliability). The long runs are in docs/analysis.md; these tests run a tiny judge."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from exampletest import load_example
from potluck.judge import shrunk_loss

TINY = "playouts:worlds=8,min_worlds=8,time=0"


def _move(loss: float, verdict: str = "", forced: bool = False) -> dict[str, Any]:
    return {
        "loss": loss,
        "after": 0.5 - loss,
        "before": 0.5,
        "verdict": verdict,
        "forced": forced,
        "seconds": 0.1,
        "worlds": 8,
        "difference": loss,
    }


def _game(random_losses: list[float], greedy_losses: list[float]) -> dict[str, Any]:
    def runs(losses: list[float]) -> list[dict[str, Any]]:
        first = [_move(x, "blunder" if x >= 0.2 else "") for x in losses]
        second = [_move(x, "blunder" if x >= 0.25 else "") for x in losses]
        return [{"seed": 0, "moves": first}, {"seed": 1, "moves": second}]

    return {
        "win_shares": [0.0, 1.0],
        "seats": {
            "random": {"seat": 0, "runs": runs(random_losses)},
            "greedy": {"seat": 1, "runs": runs(greedy_losses)},
        },
    }


def test_the_benchmark_summary_compares_seats_and_seeds() -> None:
    bench = load_example("analysis_benchmark")
    results = [_game([0.3, 0.1], [0.02, 0.0]), _game([0.2, 0.0], [0.02, 0.0])]
    summary = bench.summarise(results)
    assert summary["moves"] == {"random": 4, "greedy": 4}
    assert summary["mean_loss"]["random"] == pytest.approx(0.15)
    assert summary["mean_loss"]["greedy"] == pytest.approx(0.01)
    assert summary["ratio"] == pytest.approx(15.0)
    assert summary["mean_difference"]["random"] == pytest.approx(0.15)
    assert summary["difference_ratio"] == pytest.approx(15.0)
    assert summary["difference_gap"] == pytest.approx(0.14)
    low, high = summary["difference_gap_95"]
    assert low <= 0.14 <= high
    low, high = summary["ratio_95"]
    assert low <= summary["ratio"] <= high
    # the 0.2 loss is a blunder in the first run only: one of 8 verdicts changed,
    # one of the two moves flagged in either run kept its verdict
    assert summary["verdicts_kept"] == pytest.approx(7 / 8)
    assert (summary["flagged"], summary["flagged_kept"]) == (2, 0.5)
    assert summary["verdicts"]["random"]["blunder"] == 2
    assert summary["forced_moves"] == 0
    json.dumps(summary, allow_nan=False)  # strict JSON


def test_a_ratio_without_greedy_losses_has_no_upper_bound() -> None:
    bench = load_example("analysis_benchmark")
    summary = bench.summarise([_game([0.3], [0.0])])
    assert summary["ratio"] is None
    assert summary["ratio_95"] == [None, None]
    assert summary["difference_ratio"] is None
    json.dumps(summary, allow_nan=False)


def test_the_benchmark_analyses_every_kth_decision_of_both_seats_twice() -> None:
    bench = load_example("analysis_benchmark")
    result = bench.analyse_game("burger-joint", 1, 830000, 0, TINY, None, every=40)
    assert result["agents"] == ["greedy", "random"]
    for label, seat in (("random", 1), ("greedy", 0)):
        data = result["seats"][label]
        assert data["seat"] == seat
        first, second = (run["moves"] for run in data["runs"])
        assert [m["number"] for m in first] == [m["number"] for m in second]
        assert 1 <= len(first) <= 3  # every 40th of about 70 decisions
        for move in first:
            assert move["seat"] == seat
            assert move["worlds"] >= 8  # a forced move too is played out
            # the loss shown is the paired difference shrunk by its noise
            if move["before"] < 1.0:
                shrunk = shrunk_loss(move["difference"], move["stderr"])
                assert move["loss"] == pytest.approx(shrunk)
            if move["forced"]:
                assert move["difference"] == 0.0
    assert bench.summarise([result])["forced_unplayed"] == 0


def test_calibration_scores_win_chances_against_outcomes(tmp_path: Path) -> None:
    calibration = load_example("analysis_calibration")
    results = calibration.load_or_run("burger-joint", 2, 840000, TINY, tmp_path, every=40)
    assert [r["seat"] for r in results] == [0, 1]
    assert sorted(p.name for p in (tmp_path / "burger-joint").iterdir()) == [
        "840000-every40.json",
        "840001-every40.json",
    ]
    summary = calibration.summarise("burger-joint", results)
    moves = sum(len(r["moves"]) for r in results)
    assert summary["moves"] == moves
    expected = sum((m["after"] - r["outcome"]) ** 2 for r in results for m in r["moves"]) / moves
    assert summary["brier"] == pytest.approx(expected)
    assert summary["brier_fair_share"] == pytest.approx(0.25)
    assert sum(b["moves"] for b in summary["reliability"]) == moves
    calibration.plot([summary], tmp_path / "reliability.png")
    assert (tmp_path / "reliability.png").stat().st_size > 1000


def test_the_benchmark_summary_reads_points_and_games_judged_once() -> None:
    bench = load_example("analysis_benchmark")
    twice = _game([0.3, 0.1], [0.02, 0.0])
    once = _game([0.2, 0.0], [0.0, 0.0])
    for game in (twice, once):
        for seat in game["seats"].values():
            for move in seat["runs"][0]["moves"]:
                move["point_loss"] = 10 * move["loss"]
                move["point_difference"] = 10 * move["loss"]
    for seat in once["seats"].values():
        del seat["runs"][1]  # the second seed on the first game only
    summary = bench.summarise([twice, once])
    assert summary["moves"] == {"random": 4, "greedy": 4}
    assert summary["moves_judged_twice"] == 4
    assert summary["verdicts_kept"] == 1.0  # 0.3 is a blunder under both seeds
    assert summary["mean_point_loss"]["random"] == pytest.approx(1.5)
    assert summary["point_ratio"] == pytest.approx(30.0)
    assert summary["point_difference_ratio"] == pytest.approx(30.0)
    low, high = summary["point_difference_gap_95"]
    assert low <= 1.45 <= high
    json.dumps(summary, allow_nan=False)


def test_the_truth_run_pairs_a_random_seat_with_a_greedy_one_on_each_deal() -> None:
    truth = load_example("analysis_truth")
    summary = truth.paired("burger-joint", 4, 870000, "random", "greedy")
    assert summary["deals"] == 4
    assert summary["deal_seeds"] == [870000, 870003]
    assert summary["share_gap"] == pytest.approx(summary["base_share"] - summary["bot_share"])
    low, high = summary["share_gap_95"]
    assert low <= summary["share_gap"] <= high
    same = truth.paired("burger-joint", 2, 870000, "greedy", "greedy")
    assert same["share_gap"] == 0.0
    assert same["points_gap"] == 0.0


def test_the_improvement_check_sets_the_judges_claim_beside_the_real_gain(
    tmp_path: Path,
) -> None:
    check = load_example("judge_improvement")
    out = tmp_path / "improve.jsonl"
    assert (
        check.main(["--game", "cafe-carnage", "--deals", "1", "--judge", TINY, "--out", str(out)])
        == 0
    )
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 1
    assert rows[0]["decisions"] == 20
    # no move changed: no claim; a changed move claims its measured advantage
    assert (rows[0]["changed"] == 0) == (rows[0]["claimed"] == 0.0)
    # and is measured again on worlds of its own (the claim chose the move)
    if rows[0]["changed"] == 0:
        assert rows[0]["rechecked"] == 0.0
    summary = check.summarise(rows)
    assert summary["share_real_gain"] == rows[0]["share"] - rows[0]["base_share"]
    assert summary["share_rechecked_claimed_gain"] == rows[0]["rechecked"]
    # a rerun reads the games back instead of playing them again
    assert check.main(["--game", "cafe-carnage", "--deals", "1", "--out", str(out)]) == 0
    assert len(out.read_text().splitlines()) == 1


def test_every_measure_of_a_seats_loss_is_set_side_by_side(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``examples/analysis_measures.py`` reads a run's saved games and gives each measure
    of loss per seat, the ratio and the gap with 95% intervals; forced moves are left
    out of the uncut means, and the share of the stakes lost needs measured stakes."""
    measures = load_example("analysis_measures")
    games = [_game([0.3, 0.1], [0.02, 0.0]), _game([0.2, 0.0], [0.02, 0.0])]
    games[0]["seats"]["random"]["runs"][0]["moves"].append(_move(0.0, forced=True))
    for game in games:
        for seat in game["seats"].values():
            for move in seat["runs"][0]["moves"]:
                move["field_difference"] = 0.0 if move["forced"] else 0.05
    folder = tmp_path / "burger-joint"
    folder.mkdir()
    for k, game in enumerate(games):
        (folder / f"{k}.json").write_text(json.dumps(game), "utf-8")
    found = {name: measures.measure(games, term) for name, term in measures.MEASURES.items()}
    assert found["win chance, uncut"]["random"] == pytest.approx(0.15)
    assert found["win chance, uncut, every move"]["random"] == pytest.approx(0.12)
    assert found["win chance, uncut"]["ratio"] == pytest.approx(15.0)
    assert found["share of the stakes lost"]["random"] == pytest.approx(0.6 / 0.8)
    low, high = found["win chance, uncut"]["gap_95"]
    assert low <= 0.14 <= high
    assert measures.main([str(folder)]) == 0
    assert "share of the stakes lost" in capsys.readouterr().out
    assert measures.main([str(folder), "--json"]) == 0
    json.loads(capsys.readouterr().out)


def test_the_fixed_difference_is_the_measure_and_the_stopped_one_is_set_beside_it() -> None:
    """A move's loss before the judge may stop (``fixed_difference``) is what the measures
    average; the difference over every judging world is set beside it, and an older
    analysis without the fixed one is read with its ``difference``."""
    measures = load_example("analysis_measures")
    games = [_game([0.3, 0.1], [0.02, 0.0])]
    for seat in games[0]["seats"].values():
        for move in seat["runs"][0]["moves"]:
            move["fixed_difference"] = move["difference"] + 0.01
    found = {name: measures.measure(games, term) for name, term in measures.MEASURES.items()}
    assert found["win chance, uncut"]["random"] == pytest.approx(0.21)
    assert found["win chance, uncut, stopped"]["random"] == pytest.approx(0.2)
    old = [_game([0.3, 0.1], [0.02, 0.0])]
    assert measures.measure(old, measures.MEASURES["win chance, uncut"])["random"] == 0.2


def test_every_legal_move_is_played_beside_the_judges_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``examples/judge_positions.py`` plays every legal move of the sampled positions on
    common worlds and saves the judge's figures beside them; ``--summary`` sets the
    seats' means side by side."""
    positions = load_example("judge_positions")
    out = tmp_path / "positions.jsonl"
    argv = ["--game", "burger-joint", "--games", "1", "--every", "25", "--worlds", "6"]
    assert positions.main([*argv, "--judge", TINY, "--seconds", "0", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert {row["label"] for row in rows} == {"random", "greedy"}
    for row in rows:
        assert len(row["values"]) == len(row["legal"]) > 1
        assert row["worlds"] == 6
        assert 0.0 <= row["split_best"] <= 1.0  # a share won, on half the worlds
        if row["label"] == "greedy":
            assert row["played"] == row["policy"]  # the greedy seat plays the policy's move
        assert row["judge"]["raced"] in row["legal"]
    found = positions.summary(rows)["burger-joint"]
    assert found["random"]["positions"] + found["greedy"]["positions"] == len(rows)
    assert found["greedy"]["true loss against the policy's move"][0] == 0.0
    assert positions.main(["--summary", str(out)]) == 0
    assert "raced move short of the best" in capsys.readouterr().out
