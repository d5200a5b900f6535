"""Move analysis (`potluck analyse`) and continuing a recorded position (`play --from`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import potluck
from potluck.cli import app
from potluck.engine.errors import PotluckError
from potluck.review import review_record
from potluck.sim import play_game

runner = CliRunner()


@pytest.fixture(scope="module")
def cafe_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = potluck.load_game("cafe-carnage")
    record = play_game(game, 4, ["greedy", "random", "greedy", "random"], 6, keep_record=True)
    path = tmp_path_factory.mktemp("records") / "cafe.json"
    path.write_text(json.dumps(record.record), "utf-8")
    return path


def test_review_judges_each_of_the_seats_moves_from_its_information(cafe_record: Path) -> None:
    game = potluck.load_game("cafe-carnage")
    record = json.loads(cafe_record.read_text("utf-8"))
    reviews = review_record(game, record, seat=1, spec="ismcts:sims=12", limit=4, seed=2)
    assert len(reviews) == 4
    seat_moves = [k + 1 for k, (who, _) in enumerate(record["actions"]) if who == 1][:4]
    assert [r.number for r in reviews] == seat_moves
    for review in reviews:
        assert review.played == record["actions"][review.number - 1][1]
        assert 0.0 <= review.after <= review.before <= 1.0
        assert review.loss == pytest.approx(review.before - review.after)
        expected = (
            "blunder"
            if review.loss >= 0.2
            else "mistake"
            if review.loss >= 0.1
            else "inaccuracy"
            if review.loss >= 0.05
            else ""
        )
        assert review.verdict == expected
    again = review_record(game, record, seat=1, spec="ismcts:sims=12", limit=4, seed=2)
    assert again == reviews  # reproducible from the seed


def test_review_refuses_what_it_cannot_do(cafe_record: Path) -> None:
    game = potluck.load_game("cafe-carnage")
    record = json.loads(cafe_record.read_text("utf-8"))
    with pytest.raises(PotluckError, match="seat must be 0 to 3"):
        review_record(game, record, seat=7)
    with pytest.raises(PotluckError, match="gives no estimates"):
        review_record(game, record, seat=0, spec="greedy")
    with pytest.raises(PotluckError, match="must not decrease"):
        review_record(game, record, seat=0, thresholds=(0.3, 0.1, 0.2))


def test_analyse_command_prints_and_saves_json(cafe_record: Path, tmp_path: Path) -> None:
    out = tmp_path / "review.json"
    result = runner.invoke(
        app,
        ["analyse", str(cafe_record), "--as", "0", "--bot", "ismcts:sims=6", "--json", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert "inaccuracies" in result.output
    data = json.loads(out.read_text("utf-8"))
    assert data["seat"] == 0
    assert data["bot"] == "ismcts:sims=6"
    assert len(data["moves"]) == 20  # five rounds of three orders and one card
    assert {"played", "preferred", "before", "after", "loss", "verdict"} <= set(data["moves"][0])


def test_play_from_a_record_continues_its_position(cafe_record: Path, tmp_path: Path) -> None:
    save = tmp_path / "continued.json"
    result = runner.invoke(
        app,
        [
            "play",
            "cafe-carnage",
            "--from",
            str(cafe_record),
            "--at",
            "20",
            "--seats",
            "random,you,random,random",
            "--save",
            str(save),
            "--save-unfinished",
            "--seed",
            "1",
        ],
        input="quit\n",
    )
    assert result.exit_code == 0, result.output
    assert "continued after action 20" in result.output
    saved = json.loads(save.read_text("utf-8"))
    original = json.loads(cafe_record.read_text("utf-8"))
    assert saved["seed"] == original["seed"]
    assert saved["actions"][:20] == original["actions"][:20]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--at", "9999"], "has only"),
        (["--at", "10", "--seats", "you,random"], "has 4 seats"),
        (["--at", "10", "--seats", "random,random,random,random"], "no human seat"),
    ],
)
def test_play_from_refuses_bad_requests(cafe_record: Path, args: list[str], words: str) -> None:
    result = runner.invoke(app, ["play", "cafe-carnage", "--from", str(cafe_record), *args])
    assert result.exit_code == 2
    assert words in result.output + result.stderr
