"""Belly Battle's fitted win-chance model: the engine hook, the weights file's
checks, the fitting script, and the search's ``cutoff=fitted``."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import potluck
from exampletest import load_example
from potluck.agents import decide, make_agent
from potluck.engine.errors import DataError, PotluckError
from potluck.games.belly_battle.game import BellyBattle
from potluck.games.belly_battle.state import OVER, BellyState
from potluck.games.belly_battle.win_model import (
    FEATURES,
    load_win_model,
    seat_features,
)


def _play_out(game: Any, state: Any, seed: int = 0) -> None:
    greedy = make_agent(game, "greedy")
    rng = random.Random(seed)
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        game.step(state, seat, decide(greedy, game, state, seat, rng))


def _weights_table() -> dict[str, Any]:
    model = load_win_model()
    return model.data.model_dump()


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_win_chances_are_a_distribution_over_the_seats(players: int) -> None:
    game = potluck.load_game("belly-battle")
    state = game.new_game(players, seed=5)
    greedy = make_agent(game, "greedy")
    rng = random.Random(1)
    for _ in range(60):  # into the game, where seats differ
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        game.step(state, seat, decide(greedy, game, state, seat, rng))
        chances = game.win_chances(state)
        assert chances is not None
        assert len(chances) == players
        assert math.isclose(sum(chances), 1.0)
        assert all(0.0 <= c <= 1.0 for c in chances)


def test_a_richer_seat_has_the_better_chance_and_a_finished_game_its_win_shares() -> None:
    game = potluck.load_game("belly-battle")
    state = game.new_game(4, seed=2)
    state.cash[2] += 500
    chances = game.win_chances(state)
    assert chances is not None
    assert chances[2] == max(chances)
    assert chances[2] > 0.4
    _play_out(game, state)
    assert state.phase == OVER
    winners = game.outcome(state).winners
    assert game.win_chances(state) == tuple(
        1.0 / len(winners) if s in winners else 0.0 for s in range(4)
    )


def test_games_without_a_model_give_no_win_chances() -> None:
    game = potluck.load_game("cafe-carnage")
    assert game.win_chances(game.new_game(4, seed=1)) is None


def test_seat_features_name_what_the_model_weighs() -> None:
    game = BellyBattle()
    state = game.new_game(3, seed=1)
    rows = seat_features(game, state)
    assert len(rows) == 3
    assert all(len(row) == len(FEATURES) for row in rows)
    assert rows[0][FEATURES.index("cash")] == state.cash[0] / 1000.0


def test_the_shipped_weights_say_how_they_were_fitted() -> None:
    fitted = load_win_model().data.fitted
    assert fitted.command.startswith("python examples/belly_win_model.py")
    start = int(fitted.seeds.split("-")[0])
    assert start >= 100000  # no strength run's seeds
    assert fitted.held_out_log_loss < math.log(fitted.players)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t["weights"].pop("cash"), "missing: cash"),
        (lambda t: t["weights"].update(luck=[1.0, 0.0]), "unknown: luck"),
        (lambda t: t["weights"].update(cash=[1.0]), "weight 'cash' must be two finite"),
        (lambda t: t["weights"].update(cash=[math.inf, 0.0]), "weight 'cash' must be two finite"),
        (lambda t: t.pop("fitted"), "fitted: Field required"),
        (lambda t: t["fitted"].update(held_out_accuracy=2.0), "held_out_accuracy"),
    ],
)
def test_a_broken_weights_table_is_refused_saying_why(change: Any, message: str) -> None:
    table = _weights_table()
    change(table)
    with pytest.raises(DataError, match="not valid WinModelData data") as error:
        load_win_model(table)
    assert message in str(error.value)


def test_a_broken_weights_file_is_refused_with_its_name(tmp_path: Path) -> None:
    path = tmp_path / "weights.toml"
    path.write_text("[weights]\nwealth = [1.0, 0.0\n", "utf-8")
    with pytest.raises(DataError, match=r"weights\.toml is not valid TOML"):
        load_win_model(path)
    with pytest.raises(DataError, match="does not exist"):
        load_win_model(tmp_path / "none.toml")


def test_the_fitting_script_writes_a_file_the_game_accepts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_example("belly_win_model")
    out = tmp_path / "model.toml"
    assert (
        script.main(["--games", "10", "--seed", "100000", "--held-out", "3", "--write", str(out)])
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 10
    assert report["held_out_games"] == 3
    model = load_win_model(out)
    assert model.data.fitted.seeds == "100000-100009"
    assert model.data.fitted.command.endswith(f"--write {out}")
    assert model.data.fitted.positions == report["positions"]


def test_the_fit_recovers_known_weights() -> None:
    # Positions drawn from a conditional logit with known weights: the fit finds them.
    script = load_example("belly_win_model")
    rng = np.random.default_rng(0)
    truth = np.array([1.5, -0.5])
    x = rng.normal(size=(20000, 4, 2))
    z = x @ truth
    p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    winners = np.array([rng.choice(4, p=row) for row in p])
    y = np.eye(4)[winners]
    w = script.fit(x, y)
    assert np.allclose(w, truth, atol=0.1)
    assert script.log_loss(w, x, y) < script.log_loss(np.zeros(2), x, y)


def test_a_fitted_cutoff_scores_cut_worlds_by_the_games_win_chances() -> None:
    asked: list[int] = []

    class Counted(BellyBattle):
        # A subclass, not an attribute set on the game: the compiled search calls a
        # compiled game's method directly, past anything set on the instance.
        def win_chances(self, state: BellyState) -> tuple[float, ...]:
            asked.append(1)
            chances = super().win_chances(state)
            assert chances is not None
            return chances

    game = Counted()
    state = game.new_game(4, seed=3)
    seat = game.to_act(state)[0]
    bot = make_agent(game, "ismcts:reward=win,cutoff=fitted,sims=8")
    action = decide(bot, game, state, seat, random.Random(0))
    assert action in game.legal_actions(state, seat)
    assert asked  # the horizon cut the playouts, and the model scored them
    tree = make_agent(game, "ismcts:root=tree,reward=win,cutoff=fitted,sims=8,horizon=0,depth=10")
    assert decide(tree, game, state, seat, random.Random(0)) in game.legal_actions(state, seat)


def test_a_fitted_cutoff_needs_a_win_reward_and_a_game_that_gives_chances() -> None:
    belly = potluck.load_game("belly-battle")
    with pytest.raises(PotluckError, match="needs reward=win"):
        make_agent(belly, "ismcts:cutoff=fitted,reward=margin")
    cafe = potluck.load_game("cafe-carnage")
    state = cafe.new_game(4, seed=1)
    seat = cafe.to_act(state)[0]
    bot = make_agent(cafe, "ismcts:cutoff=fitted,sims=4")
    with pytest.raises(PotluckError, match="gives no win chances"):
        decide(bot, cafe, state, seat, random.Random(0))


def test_the_conformance_check_catches_chances_that_are_not_a_distribution(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from potluck.testing.search_checks import check_win_chances

    game = potluck.load_game("belly-battle")
    state = game.new_game(4, seed=1)
    check_win_chances(game, state)
    monkeypatch.setattr(game, "win_chances", lambda state: (0.5, 0.5, 0.5, 0.5))
    with pytest.raises(AssertionError, match="do not sum to 1"):
        check_win_chances(game, state)
    _play_out(game, state)
    monkeypatch.setattr(game, "win_chances", lambda state: (0.25, 0.25, 0.25, 0.25))
    with pytest.raises(AssertionError, match="not its win shares"):
        check_win_chances(game, state)
