"""Burger Joint: two fast-food empires race to 12 victory points, cube by cube.

Rules as implemented, notation and rulings: ``docs/games/burger-joint.md``.
"""

from potluck.games.burger_joint.actions import BurgerAction
from potluck.games.burger_joint.game import BurgerJoint
from potluck.games.burger_joint.state import BurgerState

__all__ = ["BurgerAction", "BurgerJoint", "BurgerState"]
