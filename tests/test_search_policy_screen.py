"""``examples/belly_policy_screen.py``: levers on the greedy bot's moves, screened by
paired whole games."""

from __future__ import annotations

from pathlib import Path

import pytest

import potluck
from exampletest import load_example
from potluck.agents import make_agent

SCREEN = load_example("belly_policy_screen")


def test_the_two_sale_levers_play_as_the_thrifty_bot() -> None:
    game = potluck.load_game("belly-battle")
    greedy = make_agent(game, "greedy")
    levers = SCREEN.LeverBot(game, ["sell-star", "strip"])
    thrifty = make_agent(game, "greedy-thrifty")
    for deal in range(6):
        assert SCREEN.one_game(game, deal, deal % 4, levers, greedy) == SCREEN.one_game(
            game, deal, deal % 4, thrifty, greedy
        )


def test_a_screen_pairs_each_deal_with_greedy_in_the_same_seat() -> None:
    result = SCREEN.screen(["no-buy"], 4, 0)
    assert result["games"] == 4
    assert result["paired_difference"] == pytest.approx(
        result["win_share"] - result["greedy_win_share"]
    )
    assert result["moves_changed"].get("no-buy", 0) > 0


def test_an_unknown_lever_is_refused() -> None:
    with pytest.raises(SystemExit):
        SCREEN.main(["--levers", "nonsense", "--games", "1"])


def test_the_lean_levers_change_moves_in_whole_games() -> None:
    result = SCREEN.screen(["worth-offer", "sell-star", "strip", "reserve-0"], 12, 0)
    assert result["games"] == 12
    assert result["moves_changed"].get("reserve-0", 0) > 0
    for name in ("triple-sale", "buy-reserve-0", "upgrade-reserve-0", "accept-reserve-0"):
        assert name in SCREEN.LEVERS


def test_two_runs_are_paired_deal_by_deal(tmp_path: Path) -> None:
    strength = load_example("ismcts_strength")
    files = {}
    for bot in ("greedy", "greedy-thrifty:reserve=0"):
        files[bot] = tmp_path / f"{bot}.jsonl"
        strength.play("belly-battle", 4, 6, bot, "greedy", 3, results=files[bot])
    both = strength.against([files["greedy-thrifty:reserve=0"]], [files["greedy"]])
    later = strength.against([files["greedy-thrifty:reserve=0"]], [files["greedy"]], first=2)
    assert both["against_games"] == 6
    assert later["against_games"] == later["games"] == 4
    assert both["lead_over_against"] == pytest.approx(
        both["win_share_on_those_games"] - both["against_win_share"]
    )
