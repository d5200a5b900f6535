"""Bot specs in every surface, `potluck bots`, and the `potluck arena` rating ladder."""

from __future__ import annotations

import json

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
