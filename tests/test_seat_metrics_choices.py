"""Seat metrics that answer designers' questions about choices: runners in Café Carnage,
trades and upgrades in Belly Battle, promotions and shops in FoodAdvice."""

from __future__ import annotations

import potluck
from potluck.sim import play_game


def test_cafe_counts_runs_as_escapes_plus_catches() -> None:
    game = potluck.load_game("cafe-carnage")
    result = play_game(game, 4, ["greedy", "random", "random", "random"], seed=3)
    for found in result.seat_metrics:
        assert found["runs"] == found["escapes"] + found["caught"]
        assert found["runs"] == found.get("card:run", 0)


def test_belly_battle_counts_each_seats_buys_upgrades_sales_and_trades() -> None:
    game = potluck.load_game("belly-battle")
    result = play_game(game, 3, ["greedy", "random", "greedy"], seed=5, keep_record=True)
    assert result.record is not None
    moves = result.record["actions"]
    for seat, found in enumerate(result.seat_metrics):
        mine = [text for who, text in moves if who == seat]
        assert found["restaurants_bought"] == sum(1 for t in mine if t.startswith("buy"))
        assert found["offers_accepted"] == mine.count("accept")
        assert found["offers_declined"] == mine.count("decline")
        for key in ("upgrades", "sales_to_bank", "offers_made", "takeovers", "swaps", "yucks"):
            assert found[key] >= 0
    assert sum(f["restaurants_bought"] for f in result.seat_metrics) > 0


def test_food_advice_counts_promotions_shops_and_exchange() -> None:
    game = potluck.load_game("food-advice")
    result = play_game(game, 4, ["greedy", "random", "random", "random"], seed=2)
    for found in result.seat_metrics:
        channels = sum(v for k, v in found.items() if k.startswith("channel:"))
        shops = sum(v for k, v in found.items() if k.startswith("shop:"))
        assert found["promotions"] + found["investments"] == channels  # Mabius is a channel
        assert found["shops_chosen"] == shops
        assert found["offers_made"] >= 0
        assert found["cards_given"] >= 0
