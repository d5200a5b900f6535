"""Burger Joint's, FoodAdvice's and Belly Battle's greedy weights as bot parameters: the
defaults play exactly as the plain ``greedy`` bot, every other value reaches the bot and
changes some decision, and a bad value or name is refused with the parameter list.
(Belly Battle's ``triple_markup``, which greedy-only play never reaches, has a scenario
of its own in test_belly_battle_greedy_params.py.)"""

from __future__ import annotations

from typing import Any

import pytest

import potluck
from potluck.engine.botspec import BotSpecError, bot_params
from potluck.sim import play_game

#: Per game: the usual table size, the seed whose game each weight's other value
#: changes, and each parameter with its default as written in a spec and a value far
#: enough from it to change play on that seed.
CASES: dict[str, tuple[int, int, dict[str, tuple[str, str]]]] = {
    "burger-joint": (
        2,
        0,
        {
            "capacity_value": ("0.9", "2"),
            "ability_weight": ("1", "0"),
            "basic_ready_value": ("0.35", "2"),
            "cube_cost": ("0.06", "0.3"),
            "steal_value": ("0.3", "0"),
            "plan_builds": ("2", "1"),
        },
    ),
    "food-advice": (
        4,
        0,
        {
            "extra_customer_value": ("25", "0"),
            "shop_base_value": ("0.5", "20"),
            "min_chip_value": ("1", "30"),
            "rival_weight": ("1", "0"),
            "price_weight": ("0", "20"),
        },
    ),
    "belly-battle": (
        4,
        1,
        {
            "reserve": ("120", "500"),
            "income_horizon": ("25", "2"),
            "triple_markup": ("1.5", "1"),
            "takeover_min_gain": ("0", "200"),
            "swap_min_gain": ("0", "300"),
        },
    ),
}

#: Weights that greedy-only play never reaches (tested through a scenario instead):
#: ``triple_markup`` matters only for an offer above the card's wealth, which greedy
#: bots never make.
NOT_IN_GREEDY_PLAY = {("belly-battle", "triple_markup")}


def _actions(game_id: str, spec: str, seed: int) -> list[Any]:
    """The whole game's actions, every seat played by ``spec``."""
    num_players, _, _ = CASES[game_id]
    game = potluck.load_game(game_id)
    record = play_game(game, num_players, [spec] * num_players, seed, keep_record=True).record
    assert record is not None
    actions: list[Any] = record["actions"]
    return actions


def _spelled_defaults(game_id: str) -> str:
    return "greedy:" + ",".join(f"{k}={d}" for k, (d, _) in CASES[game_id][2].items())


@pytest.mark.parametrize("game_id", sorted(CASES))
def test_the_greedy_bot_declares_its_weights_in_order(game_id: str) -> None:
    params = bot_params(type(potluck.load_game(game_id).make_bot("greedy")))
    assert [param.name for param in params] == list(CASES[game_id][2])
    # The defaults as written in the table above are the declared ones.
    for param in params:
        assert param.parse(CASES[game_id][2][param.name][0]) == param.default


@pytest.mark.parametrize("game_id", sorted(CASES))
def test_every_default_spelled_out_plays_the_same_games_as_plain_greedy(game_id: str) -> None:
    spelled = _spelled_defaults(game_id)
    for seed in range(3):
        plain = _actions(game_id, "greedy", seed)
        # A bot with other weights plays the same deal in between: Burger Joint's bots
        # share what they work out per game, and must not share it across weights.
        first_name, (_, other) = next(iter(CASES[game_id][2].items()))
        assert _actions(game_id, f"greedy:{first_name}={other}", seed) != plain
        assert _actions(game_id, spelled, seed) == plain
        assert _actions(game_id, "greedy", seed) == plain


@pytest.mark.parametrize(
    ("game_id", "name"),
    [
        (g, name)
        for g, (_, _, params) in CASES.items()
        for name in params
        if (g, name) not in NOT_IN_GREEDY_PLAY
    ],
)
def test_each_weight_reaches_the_bot_and_changes_some_decision(game_id: str, name: str) -> None:
    _, seed, params = CASES[game_id]
    spec = f"greedy:{name}={params[name][1]}"
    bot: Any = potluck.load_game(game_id).make_bot(spec)
    assert getattr(bot.weights, name) == float(params[name][1])
    assert _actions(game_id, spec, seed) != _actions(game_id, "greedy", seed)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("greedy:cube_cost=-1", "cube_cost must be at least 0, not -1"),
        ("greedy:plan_builds=1.5", "plan_builds is a whole number"),
        ("greedy:plan_builds=0", "plan_builds must be at least 1"),
        ("greedy:cube_value=1", r"capacity_value \(float, default 0\.9\)"),
    ],
)
def test_burger_joint_refuses_a_bad_weight_with_the_reason(spec: str, words: str) -> None:
    with pytest.raises(BotSpecError, match=words):
        potluck.load_game("burger-joint").make_bot(spec)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("greedy:rival_weight=lots", "rival_weight is a number"),
        ("greedy:min_chip_value=-2", "min_chip_value must be at least 0"),
        ("greedy:advert_value=3", r"extra_customer_value \(float, default 25\.0\)"),
    ],
)
def test_food_advice_refuses_a_bad_weight_with_the_reason(spec: str, words: str) -> None:
    with pytest.raises(BotSpecError, match=words):
        potluck.load_game("food-advice").make_bot(spec)


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
