"""Bot specs in every surface, `potluck bots`, and the `potluck arena` rating ladder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import potluck
from potluck.arena import plan_lineups, run_arena
from potluck.cli import app
from potluck.engine.errors import PotluckError

runner = CliRunner()


def test_arena_json_rates_every_spec_with_paired_rotated_deals() -> None:
    result = runner.invoke(
        app,
        [
            "arena",
            "cafe-carnage",
            "--players",
            "4",
            "--agents",
            "greedy,random,ismcts:sims=8,rollout=greedy",
            "--games",
            "8",
            "--seed",
            "3",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 8
    assert data["fair_share"] == 0.25
    specs = {entry["spec"] for entry in data["ladder"]}
    assert specs == {"greedy", "random", "ismcts:sims=8,rollout=greedy"}
    for entry in data["ladder"]:
        assert entry["rating_low"] < entry["mu"] < entry["rating_high"]
        assert entry["win_share_low"] <= entry["win_share"] <= entry["win_share_high"]
    assert sum(e["seat_games"] for e in data["ladder"]) == 8 * 4
    ordinals = [e["ordinal"] for e in data["ladder"]]
    assert ordinals == sorted(ordinals, reverse=True)


def test_arena_is_reproducible_from_its_seed() -> None:
    game = potluck.load_game("burger-joint")
    first = run_arena(game, 2, ["greedy", "random"], games=4, seed=9)
    again = run_arena(game, 2, ["greedy", "random"], games=4, seed=9)
    assert first.to_json() == again.to_json()


def test_every_block_turns_one_lineup_through_every_seat() -> None:
    lineups = plan_lineups(["a", "b", "c", "d", "e"], 3, 50, seed=1)
    assert all(len(set(table)) == 3 for table in lineups)  # no repeats while specs suffice
    assert {spec for table in lineups for spec in table} == {"a", "b", "c", "d", "e"}
    short = plan_lineups(["a", "b"], 4, 10, seed=1)
    assert all(set(table) == {"a", "b"} for table in short)


@pytest.mark.parametrize(
    ("agents", "words"),
    [
        ("greedy", "at least two"),
        ("greedy,greedy", "repeat"),
        ("greedy,clever", "no bot 'clever'"),
        ("greedy,ismcts:simz=3", "no parameter 'simz'"),
    ],
)
def test_arena_refuses_bad_specs_in_one_line(agents: str, words: str) -> None:
    result = runner.invoke(app, ["arena", "cafe-carnage", "--agents", agents, "--games", "4"])
    assert result.exit_code == 2
    assert words in result.output + result.stderr
    assert "Traceback" not in result.output


def test_run_arena_checks_its_arguments() -> None:
    game = potluck.load_game("cafe-carnage")
    with pytest.raises(PotluckError, match="at least one game"):
        run_arena(game, 4, ["greedy", "random"], games=0)


def test_bots_lists_each_bots_parameters() -> None:
    result = runner.invoke(app, ["bots", "belle-of-the-ball"])
    assert result.exit_code == 0, result.output
    for words in ("greedy", "belle_value (float, default 3.0)", "ismcts", "sims (int", "random"):
        assert words in result.output


def test_simulate_groups_key_value_items_with_the_spec_before() -> None:
    result = runner.invoke(
        app,
        [
            "simulate",
            "cafe-carnage",
            "-n",
            "2",
            "--players",
            "4",
            "--agents",
            "ismcts:sims=5,rollout=greedy,greedy",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data["win_rate_by_agent"]) == {"ismcts:sims=5,rollout=greedy", "greedy"}


def test_simulate_and_play_report_bad_specs_cleanly() -> None:
    result = runner.invoke(
        app, ["simulate", "cafe-carnage", "--players", "4", "--agents", "greedy:weight=x"]
    )
    assert result.exit_code == 2
    assert "takes no parameters" in result.output + result.stderr or "no parameter" in (
        result.output + result.stderr
    )
    result = runner.invoke(app, ["play", "cafe-carnage", "--seats", "you,greedy,ismcts:sims=0"])
    assert result.exit_code == 2
    assert "seat 3" in result.output + result.stderr  # the third entry: seats count from 1


def test_gymnasium_opponents_take_specs() -> None:
    pytest.importorskip("gymnasium")
    from potluck.interop.gymnasium import PotluckEnv

    env = PotluckEnv("cafe-carnage", 4, opponents="ismcts:sims=4")
    observation, _ = env.reset(seed=1)
    assert observation is not None
    with pytest.raises(PotluckError, match="no parameter 'bogus'"):
        PotluckEnv("cafe-carnage", 4, opponents="ismcts:bogus=1")


def test_lineup_shares_example_counts_each_place_of_a_turned_line_up() -> None:
    from exampletest import load_example

    result = load_example("lineup_shares").lineup_shares(
        "cafe-carnage", ["greedy", "random", "random", "greedy"], 2, 1
    )
    assert result["games"] == 8
    # every game has winners, so the places' shares add up to one
    assert sum(place["win_share"] for place in result["places"]) == pytest.approx(1.0)
    # the same spec twice is counted per place, not merged
    assert [place["spec"] for place in result["places"]] == ["greedy", "random", "random", "greedy"]


def _arena(path: object, *extra: str, games: int = 8, seed: int = 5) -> Any:
    """``potluck arena`` of three Café Carnage bots, kept in the results file ``path``."""
    args = ["arena", "cafe-carnage", "--players", "4", "--agents", "greedy,random,greedy-tuned"]
    return runner.invoke(
        app, [*args, "--games", str(games), "--seed", str(seed), "--results", str(path), *extra]
    )


def test_arena_results_keep_every_game_and_a_cut_run_goes_on_to_the_same_ladder(
    tmp_path: Path,
) -> None:
    whole = tmp_path / "whole.jsonl"
    first = _arena(whole, "--json")
    assert first.exit_code == 0, first.output
    lines = whole.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + 8
    assert json.loads(lines[0])["arena"]["agents"] == ["greedy", "random", "greedy-tuned"]
    # a run stopped after three games, the fourth cut mid-line by the crash
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:4]) + "\n" + lines[4][:17], encoding="utf-8")
    again = _arena(cut, "--json")
    assert again.exit_code == 0, again.output
    assert json.loads(again.output) == json.loads(first.output)
    assert cut.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")


def test_arena_results_grow_a_kept_ladder_with_more_games(tmp_path: Path) -> None:
    grown, whole = tmp_path / "grown.jsonl", tmp_path / "whole.jsonl"
    assert _arena(grown).exit_code == 0
    runs = [_arena(path, "--json", games=16) for path in (grown, whole)]
    told = _arena(grown, games=16)
    assert "16 of the games were kept" in told.output
    assert [run.exit_code for run in runs] == [0, 0]
    assert json.loads(runs[0].output) == json.loads(runs[1].output)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda lines: lines, "another arena"),  # the same file, another seed (below)
        (lambda lines: [*lines[:2], '{"deal": 5, "seats": "greedy"}', *lines[3:]], "line 3"),
        (lambda lines: [*lines[:2], "{not json", *lines[3:]], "line 3 is not JSON"),
        (lambda lines: ['{"games": []}', *lines[1:]], "does not name an arena"),
    ],
)
def test_arena_results_of_another_arena_or_broken_are_refused_and_left_alone(
    tmp_path: Path, change: Any, words: str
) -> None:
    path = tmp_path / "ladder.jsonl"
    assert _arena(path).exit_code == 0
    path.write_text("\n".join(change(path.read_text().splitlines())) + "\n", encoding="utf-8")
    before = path.read_bytes()
    result = _arena(path, seed=6 if words == "another arena" else 5)
    assert result.exit_code == 2
    assert words in result.output + result.stderr
    assert "Traceback" not in result.output
    assert path.read_bytes() == before


def test_kept_games_of_other_deals_or_seats_are_refused(tmp_path: Path) -> None:
    from potluck.arena import ArenaGame

    game = potluck.load_game("burger-joint")
    kept: list[ArenaGame] = []
    run_arena(game, 2, ["greedy", "random"], games=4, seed=9, on_game=kept.append)
    assert len(kept) == 4
    swapped = ArenaGame(kept[1].deal, kept[1].seats[::-1], (1, 2), (1.0, 0.0), (0.0, 0.0))
    with pytest.raises(PotluckError, match="kept game 2 was dealt"):
        run_arena(game, 2, ["greedy", "random"], games=4, seed=9, played=[kept[0], swapped])
    with pytest.raises(PotluckError, match="5 games were kept"):
        run_arena(game, 2, ["greedy", "random"], games=4, seed=9, played=kept + kept[:1])


def test_an_arena_refused_before_its_first_game_leaves_no_results_file(tmp_path: Path) -> None:
    path = tmp_path / "ladder.jsonl"
    result = runner.invoke(
        app, ["arena", "cafe-carnage", "--agents", "greedy,clever", "--results", str(path)]
    )
    assert result.exit_code == 2
    assert not path.exists()
