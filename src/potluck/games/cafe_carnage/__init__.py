"""Café Carnage: eat well for five nights on $30, vote on the bill, or run.

Rules as implemented, notation and rulings: ``docs/games/cafe-carnage.md``.
"""

from potluck.games.cafe_carnage.actions import CafeAction
from potluck.games.cafe_carnage.check_please import caught_runners
from potluck.games.cafe_carnage.game import CafeCarnage
from potluck.games.cafe_carnage.state import CafeState, RoundRecord

__all__ = ["CafeAction", "CafeCarnage", "CafeState", "RoundRecord", "caught_runners"]
