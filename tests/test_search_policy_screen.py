"""``examples/belly_policy_screen.py``: levers on the greedy bot's moves, screened by
paired whole games."""

from __future__ import annotations

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
