"""Belle of the Ball (Prototype N): invite guests, group shared interests, score full groups.

Rules as implemented, notation and rulings: ``docs/games/belle-of-the-ball.md``.
"""

from potluck.games.belle_of_the_ball.actions import BelleAction
from potluck.games.belle_of_the_ball.game import BelleOfTheBall
from potluck.games.belle_of_the_ball.scoring import score_group
from potluck.games.belle_of_the_ball.state import BelleState

__all__ = ["BelleAction", "BelleOfTheBall", "BelleState", "score_group"]
