"""The learned value models (``potluck.search.value``): they load, read only a seat's own
observation, give chances, refuse a broken file, and guide the search without peeking."""

from __future__ import annotations

import json
import math
import random
from importlib import resources
from typing import Any

import pytest

import potluck
import potluck.agents
from potluck.engine.errors import DataError, PotluckError
from potluck.search.information import InformationSet
from potluck.search.value import ValueModel, has_model, load_model, win_chances
from potluck.testing.search_checks import check_search_uses_information_only
from potluck.testing.suite import USUAL_TABLES, playout_positions, random_playout

SHIPPED = [table for table in USUAL_TABLES if has_model(potluck.load_game(table[0]), table[1])]


def _positions(game_id: str, players: int, every: int = 9) -> list[Any]:
    return playout_positions(potluck.load_game(game_id), players, seed=11, every=every)


def test_models_are_shipped_for_the_search_defaults_that_use_them() -> None:
    from potluck.agents import search_defaults

    assert ("cafe-carnage", 4) in SHIPPED
    for game_id, players in USUAL_TABLES:
        game = potluck.load_game(game_id)
        if search_defaults(game).get("cutoff") == "model":
            assert (game_id, players) in SHIPPED


@pytest.mark.parametrize(("game_id", "players"), SHIPPED)
def test_the_model_reads_only_the_seats_own_observation(game_id: str, players: int) -> None:
    """A world redealt for a seat (same view, other hidden cards and future) gives that
    seat the same inputs and score: the model cannot see what the seat does not know."""
    game = potluck.load_game(game_id)
    model = load_model(game, players)
    rng = random.Random(3)
    for state in _positions(game_id, players)[:12]:
        for seat in range(players):
            lookalike = game.redeal(state, seat, random.Random(rng.getrandbits(32)))
            assert model.inputs(state, seat) == model.inputs(lookalike, seat)
            encoded = game.encode_view(game.view(state, seat), model.encoding)
            assert model.inputs(state, seat)[: len(encoded)] == encoded


@pytest.mark.parametrize(("game_id", "players"), SHIPPED)
def test_chances_are_a_distribution_and_a_finished_game_scores_its_winners(
    game_id: str, players: int
) -> None:
    game = potluck.load_game(game_id)
    model = load_model(game, players)
    for state in _positions(game_id, players)[:6]:
        chances = model.world_chances(state)
        assert len(chances) == players
        assert all(0 <= c <= 1 for c in chances)
        assert math.isclose(sum(chances), 1.0)
    finished = random_playout(game, players, seed=2).final
    assert model.world_chances(finished) == list(game.outcome(finished).win_shares())


def test_win_chances_from_a_seat_depend_on_its_information_only() -> None:
    game = potluck.load_game("cafe-carnage")
    state = _positions("cafe-carnage", 4)[3]
    lookalike = game.redeal(state, 1, random.Random(8))
    mine = win_chances(game, InformationSet(game, state, 1), random.Random(5), worlds=6)
    again = win_chances(game, InformationSet(game, lookalike, 1), random.Random(5), worlds=6)
    assert mine == pytest.approx(again)
    assert math.isclose(sum(mine), 1.0)


@pytest.mark.parametrize(("game_id", "players"), SHIPPED)
def test_a_search_scored_by_the_model_uses_information_only(game_id: str, players: int) -> None:
    game = potluck.load_game(game_id)
    rng = random.Random(4)
    spec = "ismcts:sims=10,cutoff=model,rollout=none,reward=win,root=tree"
    for state in _positions(game_id, players, every=15)[:4]:
        check_search_uses_information_only(game, state, rng, spec)


def test_a_broken_or_stale_model_file_is_refused() -> None:
    game = potluck.load_game("cafe-carnage")
    good = json.loads(
        (resources.files("potluck.search.models") / "cafe-carnage-4p.json").read_text()
    )
    with pytest.raises(DataError, match="reads 3 inputs"):
        ValueModel(game, 4, {**good, "inputs": 3})
    with pytest.raises(DataError, match="not cafe-carnage at 4"):
        ValueModel(game, 4, {**good, "players": 3})
    with pytest.raises(DataError, match="kind"):
        ValueModel(game, 4, {**good, "kind": "net"})
    with pytest.raises(DataError, match="format"):
        ValueModel(game, 4, {**good, "format": 99})
    with pytest.raises(PotluckError, match="no value model"):
        load_model(game, 3)


def test_the_model_cutoff_needs_a_win_reward_and_rollout_none_a_scorer() -> None:
    game = potluck.load_game("cafe-carnage")
    with pytest.raises(PotluckError, match="needs reward=win"):
        potluck.agents.make_agent(game, "ismcts:cutoff=model,reward=margin")


def test_training_writes_a_model_that_loads_and_plays(tmp_path: Any) -> None:
    """The training command on a few games (the shipped models used thousands):
    reproducible from its seed, and its file is one the play path reads."""
    pytest.importorskip("lightgbm")
    pytest.importorskip("sklearn")
    from potluck.search import training

    argv = ["burger-joint", "--players", "2", "--games", "24", "--held-out", "6"]
    argv += ["--keep", "0.3", "--trees", "5", "--out", str(tmp_path), "--write"]
    assert training.main(argv) == 0
    first = (tmp_path / "burger-joint-2p.json").read_text()
    assert training.main(argv) == 0
    assert (tmp_path / "burger-joint-2p.json").read_text() == first
    data = json.loads(first)
    game = potluck.load_game("burger-joint")
    model = ValueModel(game, 2, data)
    state = game.new_game(2, seed=1)
    assert math.isclose(sum(model.world_chances(state)), 1.0)
    assert data["fit"]["seeds"] == [10_000_000, 10_000_023]


def test_training_with_a_switch_keeps_rows_only_after_it() -> None:
    """``--switch-by``: random moves only before a switch move drawn per game, rows only
    from it on (labels from the greedy bot's play alone); off, the rows are the old ones."""
    from potluck.search import training

    game = potluck.load_game("burger-joint")
    plain = training.play_positions(game, 2, 3, 10_000_000, 0.1, 1.0)
    again = training.play_positions(game, 2, 3, 10_000_000, 0.1, 1.0, switch_by=0)
    assert list(plain.labels) == list(again.labels)
    assert list(plain.data) == list(again.data)
    switched = training.play_positions(game, 2, 3, 10_000_000, 0.1, 1.0, switch_by=40)
    assert 0 < len(switched) < len(plain)
    assert len(switched) % 2 == 0
    assert len(switched.labels) == len(switched)


def test_the_model_dev_script_plays_a_deal_with_a_model_file(tmp_path: Any) -> None:
    """``examples/improve_model_dev.py`` scores the tested bot's cut playouts by its own
    model file and plays the tested bot, the baseline and greedy on each deal."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parent.parent / "examples" / "improve_model_dev.py"
    spec = importlib.util.spec_from_file_location("improve_model_dev", path)
    assert spec is not None
    assert spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    model = resources.files("potluck.search.models").joinpath("burger-joint-2p.json")
    (tmp_path / "m.json").write_text(model.read_text())
    bot = "improve:time=0,worlds=4,min_worlds=2,depth=6,cutoff=model"
    results = tmp_path / "r.jsonl"
    argv = ["burger-joint", "--players", "2", "--games", "1", "--seed", "5", "--bot", bot]
    argv += ["--bot-model", str(tmp_path / "m.json"), "--baseline", bot]
    argv += ["--results", str(results)]
    assert script.main(argv) == 0
    record = json.loads(results.read_text().splitlines()[1])
    assert {"bot", "baseline", "greedy", "cpu"} <= set(record)
    assert record["bot"] == record["baseline"]  # the same model, the same seeds: the same game


def test_training_stops_early_on_watched_games_and_reuses_its_rows(tmp_path: Any) -> None:
    """``--valid`` games are watched, not trained on, by ``--stop-after``: the trees
    after the best are left out. ``--rows`` keeps the self-play rows, so a second fit
    reads them instead of playing again (the same file follows), and rows made by
    other settings are refused."""
    pytest.importorskip("lightgbm")
    pytest.importorskip("sklearn")
    from potluck.search import training

    rows = tmp_path / "rows.npz"
    argv = ["burger-joint", "--players", "2", "--games", "30", "--held-out", "6"]
    argv += ["--valid", "6", "--stop-after", "3", "--trees", "400", "--learning-rate", "0.3"]
    argv += ["--min-leaf", "20", "--keep", "0.3", "--kind", "trees", "--rows", str(rows)]
    argv += ["--out", str(tmp_path), "--write"]
    assert training.main(argv) == 0
    assert rows.exists()
    first = (tmp_path / "burger-joint-2p.json").read_text()
    data = json.loads(first)
    assert data["fit"]["valid_games"] == 6
    # the command recorded is what made the fit: the rows' file and the output left out
    assert "--rows" not in data["fit"]["command"]
    assert str(tmp_path) not in data["fit"]["command"]
    assert "--stop-after 3" in data["fit"]["command"]
    assert len(data["trees"]) == data["fit"]["trees"] < 400
    assert training.main(argv) == 0
    assert (tmp_path / "burger-joint-2p.json").read_text() == first
    other = [arg if arg != "0.3" else "0.5" for arg in argv]
    with pytest.raises(ValueError, match="holds rows made by"):
        training.main(other)
