"""Belly Battle's greedy weights as bot parameters: the defaults play exactly as the
plain ``greedy`` bot, every other value reaches the bot and changes some decision,
and a bad value or name is refused with the parameter list (the pattern of
test_greedy_weight_params.py). Helpers: belly_battle_helpers.py."""

from __future__ import annotations

import random
from typing import Any

import pytest

import potluck
from belly_battle_helpers import GAME, REAL, card, give, play, table
from potluck.engine.botspec import BotSpecError, bot_params
from potluck.games.belly_battle import turn
from potluck.games.belly_battle.state import RESPOND
from potluck.sim import play_game

#: Each parameter with its default as written in a spec and a value far enough from it
#: to change the play of four greedy bots on seed 1 (``triple_markup`` only matters for
#: an offer above the card's wealth, which greedy bots never make: see its own test).
PARAMS: dict[str, tuple[str, str]] = {
    "reserve": ("120", "500"),
    "income_horizon": ("25", "2"),
    "triple_markup": ("1.5", "1"),
    "takeover_min_gain": ("0", "200"),
    "swap_min_gain": ("0", "300"),
}


def _actions(spec: str, seed: int) -> list[Any]:
    """The whole four-player game's actions, every seat played by ``spec``."""
    game = potluck.load_game("belly-battle")
    record = play_game(game, 4, [spec] * 4, seed, keep_record=True).record
    assert record is not None
    actions: list[Any] = record["actions"]
    return actions


def test_the_greedy_bot_declares_its_weights_in_order() -> None:
    params = bot_params(type(potluck.load_game("belly-battle").make_bot("greedy")))
    assert [param.name for param in params] == list(PARAMS)
    # The defaults as written in the table above are the declared ones.
    for param in params:
        assert param.parse(PARAMS[param.name][0]) == param.default


def test_every_default_spelled_out_plays_the_same_games_as_plain_greedy() -> None:
    spelled = "greedy:" + ",".join(f"{k}={d}" for k, (d, _) in PARAMS.items())
    for seed in range(3):
        plain = _actions("greedy", seed)
        assert _actions(spelled, seed) == plain
        assert _actions("greedy:reserve=500", seed) != plain


@pytest.mark.parametrize("name", [name for name in PARAMS if name != "triple_markup"])
def test_each_weight_reaches_the_bot_and_changes_some_decision(name: str) -> None:
    _, value = PARAMS[name]
    spec = f"greedy:{name}={value}"
    bot: Any = potluck.load_game("belly-battle").make_bot(spec)
    assert getattr(bot.weights, name) == float(value)
    assert _actions(spec, 1) != _actions("greedy", 1)


@pytest.mark.parametrize(
    ("percent", "spec", "answer"),
    [
        (150, "greedy", "accept"),
        (150, "greedy:triple_markup=1", "decline"),
        (200, "greedy", "decline"),
        (200, "greedy:triple_markup=2", "accept"),
    ],
)
def test_triple_markup_is_what_it_pays_for_a_card_completing_three_in_a_row(
    percent: int, spec: str, answer: str
) -> None:
    # Seat 1 owns both neighbours of Momo Mia: buying it makes three in a row.
    state = table(2)
    give(state, 0, "momo-mia")
    give(state, 1, "osteria-formaggio", "pasta-la-vista")
    turn.open_window(state)
    play(state, 0, f"offer momo-mia to 1 for {GAME.price[card('momo-mia')] * percent // 100}")
    assert state.phase == RESPOND
    bot = REAL.make_bot(spec)
    legal = GAME.legal_actions(state, 1)
    chosen = bot.choose(GAME, GAME.view(state, 1), 1, legal, random.Random(0))
    assert str(chosen) == answer


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("greedy:reserve=-1", "reserve must be at least 0, not -1"),
        ("greedy:income_horizon=2.5", "income_horizon is a whole number"),
        ("greedy:income_horizon=0", "income_horizon must be at least 1"),
        ("greedy:triple_markup=0.5", "triple_markup must be at least 1"),
        ("greedy:swap_min_gain=many", "swap_min_gain is a number"),
        ("greedy:cash_reserve=100", r"reserve \(int, default 120\)"),
    ],
)
def test_belly_battle_refuses_a_bad_weight_with_the_reason(spec: str, words: str) -> None:
    with pytest.raises(BotSpecError, match=words):
        potluck.load_game("belly-battle").make_bot(spec)
