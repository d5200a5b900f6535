"""Belly Battle: buy restaurants in St. Cheeseburg, upgrade them, take them over.

Rules as implemented, notation and rulings: ``docs/games/belly-battle.md``.
"""

from potluck.games.belly_battle.actions import BellyAction
from potluck.games.belly_battle.game import BellyBattle
from potluck.games.belly_battle.state import BellyState

__all__ = ["BellyAction", "BellyBattle", "BellyState"]
