"""FoodAdvice: create a signature product, sell it in shops, promote it, and
become the richest food startup in three rounds.

Rules as implemented, notation and rulings: ``docs/games/food-advice.md``.
"""

from potluck.games.food_advice.actions import FoodAction
from potluck.games.food_advice.game import FoodAdvice
from potluck.games.food_advice.market import Buyer, Choice, Offer, choose, choose_extra, joker_buys
from potluck.games.food_advice.state import FoodState

__all__ = [
    "Buyer",
    "Choice",
    "FoodAction",
    "FoodAdvice",
    "FoodState",
    "Offer",
    "choose",
    "choose_extra",
    "joker_buys",
]
