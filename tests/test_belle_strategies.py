"""Belle of the Ball's greedy weights as bot parameters, and the seat metrics a designer
asks about in the variant (Belles invited, chips spent reaching them, played, kept)."""

from __future__ import annotations

import pytest

import potluck
from potluck.engine.botspec import BotSpecError
from potluck.sim import play_game

VARIANT = {"belles_in_guest_deck": True}


def test_belle_seat_metrics_add_up_to_the_game_metrics() -> None:
    game = potluck.load_game("belle-of-the-ball")
    for seed in range(4):
        result = play_game(game, 3, ["greedy", "random", "greedy"], seed, VARIANT)
        per_seat = result.seat_metrics
        assert sum(m["belles_invited"] for m in per_seat) == result.metrics["belles_invited"]
        assert sum(m["belles_played"] for m in per_seat) == result.metrics["belles_played"]
        for m in per_seat:
            assert 0 <= m["chips_spent_reaching_belles"] <= m["skip_chips"]
            # A Belle in hand at the end was invited and never played (no hands are dealt).
            assert m["belles_in_hand_at_end"] == m["belles_invited"] - m["belles_played"]


def test_the_belle_value_parameter_changes_how_often_belles_are_chased() -> None:
    game = potluck.load_game("belle-of-the-ball")
    invited: dict[str, float] = {}
    for spec in ("greedy:belle_value=0", "greedy:belle_value=12"):
        total = 0.0
        for seed in range(6):
            result = play_game(game, 3, [spec, "greedy", "greedy"], seed, VARIANT)
            total += result.seat_metrics[0]["belles_invited"]
        invited[spec] = total
    assert invited["greedy:belle_value=12"] > invited["greedy:belle_value=0"]


def test_default_parameters_play_exactly_as_the_plain_greedy_bot() -> None:
    game = potluck.load_game("belle-of-the-ball")
    plain = play_game(game, 4, ["greedy"] * 4, 9, VARIANT)
    spelled = play_game(game, 4, ["greedy:belle_value=3,play_margin=0.75"] * 4, 9, VARIANT)
    assert plain.outcome == spelled.outcome
    assert plain.steps == spelled.steps


def test_a_bad_weight_is_refused_with_the_parameter_list() -> None:
    game = potluck.load_game("belle-of-the-ball")
    with pytest.raises(BotSpecError, match="interest_share must be at most 1"):
        game.make_bot("greedy:interest_share=2")
    with pytest.raises(BotSpecError, match=r"belle_value \(float, default 3\.0\)"):
        game.make_bot("greedy:bel_value=2")
