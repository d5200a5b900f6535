"""Study files that change a few numbers: data patches, sweeps, strict keys and option types."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import potluck
import potluck.games.cafe_carnage
from potluck.lab import StudyError, load_results, load_study, parse_study, run_study
from potluck.lab.metrics import MetricError, check_metric, measure, metric_names
from potluck.lab.patches import PatchError, game_data, patched_game

BASE: dict[str, Any] = {
    "game": "cafe-carnage",
    "players": 4,
    "games": 4,
    "seed": 1,
    "agents": ["greedy"],
}


def data(game: Any) -> Any:
    """The game's data model (typed loosely: each game has its own schema)."""
    return game_data(game)


def study(**changes: Any) -> dict[str, Any]:
    return {**BASE, **changes}


def refused(raw: dict[str, Any]) -> str:
    with pytest.raises(StudyError) as error:
        parse_study(raw)
    return str(error.value)


# ------------------------------------------------------------------ data patches


def test_a_patch_changes_only_the_fields_it_names() -> None:
    game = patched_game("cafe-carnage", None, {"table.budget": 35, "main.3.value": 7})
    base = potluck.load_game("cafe-carnage")
    assert data(game).table.budget == 35
    assert data(game).main[3].value == 7
    assert data(game).main[2] == data(base).main[2]
    assert data(game).table.rounds == data(base).table.rounds
    assert data(base).table.budget == 30  # the built-in game is untouched


def test_a_patch_goes_over_a_data_file(tmp_path: Path) -> None:
    built_in = Path(potluck.games.cafe_carnage.__file__).parent / "data" / "dishes.toml"
    path = tmp_path / "dishes.toml"
    path.write_text(built_in.read_text("utf-8").replace("budget = 30", "budget = 50"), "utf-8")
    game = patched_game("cafe-carnage", str(path), {"table.rounds": 4})
    assert (data(game).table.budget, data(game).table.rounds) == (50, 4)


def test_an_unquoted_dotted_key_patches_one_field_and_keeps_the_others(tmp_path: Path) -> None:
    # TOML reads `{ table.rounds = 4 }` as a nested table: it must not reset the
    # other fields of `table` (here the file's budget of 50) to their defaults
    built_in = Path(potluck.games.cafe_carnage.__file__).parent / "data" / "dishes.toml"
    path = tmp_path / "dishes.toml"
    path.write_text(built_in.read_text("utf-8").replace("budget = 30", "budget = 50"), "utf-8")
    game = patched_game("cafe-carnage", str(path), {"table": {"rounds": 4}})
    assert (data(game).table.budget, data(game).table.rounds) == (50, 4)
    study_file = tmp_path / "study.toml"
    study_file.write_text(
        'game = "cafe-carnage"\nplayers = 4\ngames = 2\nagents = ["greedy"]\n'
        "[arms.rich]\ndata_patch = { table.budget = 35 }\n",
        "utf-8",
    )
    assert load_study(study_file).arm("rich").patch == {"table.budget": 35}
    message = refused(study(arms={"x": {"data_patch": {"table": {"budgt": 35}}}}))
    assert "'table.budgt': 'table' has no field 'budgt'" in message


@pytest.mark.parametrize(
    ("patch", "words"),
    [
        ({"table.budgt": 35}, ["'table.budgt'", "no field 'budgt'", "budget, rounds"]),
        ({"main.99.value": 3}, ["'main.99.value'", "indices 0 to"]),
        ({"main.x.value": 3}, ["'main' is a list", "index"]),
        ({"table.budget.x": 3}, ["'table.budget' is a value"]),
        ({"table.budget": "35"}, ["'table.budget'", "whole number from 0 to 10000", "not text"]),
        ({"table.budget": 35.5}, ["whole number", "(now 30)"]),
        ({"table.budget": -5}, ["'table.budget' = -5", "at least 0"]),
        ({"main.0.copies": 0}, ["'main.0.copies' = 0", "at least 1", "from 1 to 99"]),
        ({"starter.0.name": "split"}, ["starter.0.name", "action card"]),
        ({"": 1}, ["not a dotted path"]),
    ],
)
def test_a_bad_patch_is_refused_naming_the_path_and_what_it_may_be(
    patch: dict[str, Any], words: list[str]
) -> None:
    with pytest.raises(PatchError) as error:
        patched_game("cafe-carnage", None, patch)
    for word in words:
        assert word in str(error.value)


def test_a_study_refuses_a_bad_patch_before_playing(tmp_path: Path) -> None:
    message = refused(study(arms={"rich": {"data_patch": {"table.budgett": 35}}}))
    assert "arms.rich.data_patch" in message
    assert "'table.budgett'" in message
    assert not (tmp_path / "parts").exists()


def test_a_patched_arm_plays_the_patched_game(tmp_path: Path) -> None:
    parsed = parse_study(
        study(games=6, arms={"poor": {"data_patch": {"table.budget": 10}}}),
    )
    assert parsed.arm("poor").patch == {"table.budget": 10}
    run_study(parsed, tmp_path, workers=1)
    loaded, rows = load_results(tmp_path)
    assert loaded == parsed
    poor = measure([r for r in rows if r["arm"] == "poor"], "iou_players")
    base = measure([r for r in rows if r["arm"] == "baseline"], "iou_players")
    assert poor.value == 4
    assert base.value < 4.01


# ------------------------------------------------------------------ strict keys and option types


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (study(arms={"x": {"option": {}}}), ["'arms.x.option'", "unknown field", "data_patch"]),
        (study(agentz=["greedy"]), ["'agentz'", "unknown field", "lineups"]),
        (
            study(
                sweep={"parameter": "data:table.budget", "values": [1], "metric": "length", "x": 1}
            ),
            ["'sweep.x'", "unknown field", "parameter"],
        ),
        (
            study(
                search={
                    "parameters": {"data:table.budget": [20, 40]},
                    "metric": "length",
                    "direction": "maximize",
                    "trails": 3,
                }
            ),
            ["'search.trails'", "unknown field", "trials"],
        ),
        (study(games="5"), ["'games'"]),
    ],
)
def test_unknown_keys_and_wrong_types_are_refused_by_name(
    raw: dict[str, Any], words: list[str]
) -> None:
    message = refused(raw)
    for word in words:
        assert word in message


@pytest.mark.parametrize("value", ["yes", "false", 0, 1])
def test_a_true_false_option_takes_toml_booleans_only(value: Any) -> None:
    message = refused(study(arms={"x": {"options": {"no_repeat_dishes": value}}}))
    assert "no_repeat_dishes" in message
    assert "TOML boolean" in message


@pytest.mark.parametrize(
    ("section", "field"),
    [
        (
            {
                "sweep": {
                    "parameter": "option:no_repeat_dishes",
                    "values": ["yes"],
                    "metric": "length",
                }
            },
            "sweep.values",
        ),
        (
            {
                "search": {
                    "parameters": {"option:no_repeat_dishes": [True, 1]},
                    "metric": "length",
                    "direction": "maximize",
                }
            },
            "search.parameters",
        ),
    ],
)
def test_a_swept_or_searched_true_false_option_takes_toml_booleans_only(
    section: dict[str, Any], field: str
) -> None:
    message = refused(study(**section))
    assert f"field '{field}' (option:no_repeat_dishes = " in message
    assert "): option 'no_repeat_dishes' takes a TOML boolean" in message


def test_toml_booleans_are_taken() -> None:
    parsed = parse_study(study(arms={"x": {"options": {"no_repeat_dishes": True}}}))
    assert parsed.arm("x").options == {"no_repeat_dishes": True}


# ------------------------------------------------------------------ sweeps


def test_a_sweep_makes_one_arm_per_value_compared_with_its_base() -> None:
    parsed = parse_study(
        study(
            arms={"variant": {"options": {"no_repeat_dishes": True}}},
            sweep={
                "parameter": "data:table.budget",
                "range": [20, 40],
                "steps": 5,
                "metric": "iou_players",
                "target": 2.0,
                "arm": "variant",
            },
        )
    )
    assert parsed.sweep is not None
    assert parsed.sweep.values == (20, 25, 30, 35, 40)
    assert parsed.sweep.arms == ("budget-20", "budget-25", "budget-30", "budget-35", "budget-40")
    arm = parsed.arm("budget-35")
    assert arm.patch == {"table.budget": 35}
    assert arm.against == "variant"
    assert arm.options == {"no_repeat_dishes": True}
    assert parse_study(parsed.to_json()) == parsed  # the generated arms are not written twice


def test_an_agent_sweep_changes_the_focal_bot() -> None:
    parsed = parse_study(
        study(
            game="belle-of-the-ball",
            players=3,
            sweep={"parameter": "agent:belle_value", "values": [0, 6], "metric": "focal_win_share"},
        )
    )
    assert parsed.arm("belle_value-6").agents == ("greedy:belle_value=6",)


def test_an_option_sweep_checks_each_value() -> None:
    sweep = {"parameter": "option:no_repeat_dishes", "values": [True, "no"], "metric": "length"}
    assert "TOML boolean" in refused(study(sweep=sweep))


@pytest.mark.parametrize(
    ("sweep", "words"),
    [
        ({"parameter": "table.budget", "values": [1], "metric": "length"}, ["data:PATH"]),
        ({"parameter": "data:table.budget", "values": [-1], "metric": "length"}, ["at least 0"]),
        ({"parameter": "data:table.budget", "range": [20, 30], "metric": "length"}, ["steps"]),
        (
            {"parameter": "data:table.budget", "values": [20], "metric": "iou_playrs"},
            ["no metric 'iou_playrs'", "iou_players"],
        ),
        (
            {"parameter": "agent:belle_value", "values": [2], "metric": "length"},
            ["no parameter 'belle_value'"],
        ),
        ({"parameter": "option:fast", "values": [True], "metric": "length"}, ["no option 'fast'"]),
        (
            {"parameter": "data:table.budget", "values": [20], "metric": "length", "arm": "nope"},
            ["'nope' is not an arm"],
        ),
    ],
)
def test_a_bad_sweep_is_refused(sweep: dict[str, Any], words: list[str]) -> None:
    message = refused(study(sweep=sweep))
    assert "field 'sweep" in message
    for word in words:
        assert word in message


# ------------------------------------------------------------------ metrics by name


def test_balance_metrics_exist_by_name() -> None:
    names = metric_names(potluck.load_game("burger-joint"), 2)
    for name in (
        "seat0_win_share",
        "seat1_win_share",
        "seat_win_share_spread",
        "focal_win_share",
        "burger_win_share",
        "pizza_win_share",
    ):
        assert name in names
    with pytest.raises(MetricError, match="its metrics are"):
        check_metric(potluck.load_game("cafe-carnage"), "spread", 4)


def _row(index: int, winners: list[int]) -> dict[str, Any]:
    return {
        "players": 2,
        "lineup": "default",
        "arm": "baseline",
        "index": index,
        "winners": winners,
        "scores": [0.0, 0.0],
        "length": 10,
        "metrics": "{}",
        "seat_metrics": "[]",
        "error": None,
    }


def test_side_and_spread_metrics_count_shared_wins_as_halves() -> None:
    rows = [_row(i, [0] if i % 4 else [0, 1]) for i in range(40)]  # seat 0 wins 3/4, shares 1/4
    burger = measure(rows, "burger_win_share", ("Burger", "Pizza"))
    assert burger.value == pytest.approx(87.5)
    spread = measure(rows, "seat_win_share_spread")
    assert spread.value == pytest.approx(75.0)
    assert spread.low <= 75.0 <= spread.high
    focal = measure(rows, "focal_win_share")  # the focal seat turns: seat 0 on even games
    assert focal.value == pytest.approx(100 * (10 * 0.5 + 10 * 1 + 20 * 0) / 40)
