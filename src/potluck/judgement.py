"""What the move judge (``potluck.judge``) finds about one decision, as values: each
compared move's win chance (``MoveValue``) and the verdict on the move played
(``Judgement``), read by the move analysis (``potluck.review``) and the improving bot
(``potluck.search.improve``).

    >>> from potluck.engine.action import Action
    >>> move = MoveValue(Action(0, "pass"), worlds=8, value=0.5)
    >>> move.worlds, move.value
    (8, 0.5)
"""

from __future__ import annotations

from dataclasses import dataclass

from potluck.engine.action import Action

__all__ = ["Judgement", "MoveValue"]


@dataclass(frozen=True)
class MoveValue:
    """One compared move: its win chance over the worlds it was played on."""

    action: Action
    worlds: int
    value: float


@dataclass(frozen=True)
class Judgement:
    """What the judge found about one decision."""

    played: Action
    best: Action  # the compared move with the highest win chance (the played one on a tie)
    before: float  # win chance with ``best``
    after: float  # win chance with the move played
    loss_stderr: float  # standard error of ``before - after`` (paired, world by world)
    #: The best move found's mean win chance minus the played move's on the judging
    #: worlds, not shrunk (0 when the played move ranked first, or was the only one):
    #: ``loss`` is it shrunk by its noise (``shrunk_loss``), which a table wants; a mean
    #: over many moves uses this, which counts no noise as loss.
    difference: float
    value_stderr: float  # standard error of ``after``
    worlds: int  # worlds the played move was played on
    playouts: int  # playouts run, dropped ones included
    seconds: float
    compared: tuple[MoveValue, ...]
    forced: bool  # the played move was the only legal one
    #: "", "inaccuracy", "mistake" or "blunder": the highest threshold the loss reached
    #: by ``confidence`` standard errors (a loss within its noise of a threshold is
    #: given the verdict below it).
    verdict: str
    #: The seat's points after the move played: its score minus the mean of the other
    #: seats' at the end of the playouts (``points``), in the game's own unit. Unlike a
    #: win chance it does not saturate: a seat far behind still loses points.
    points: float = 0.0
    #: The points the move cost against the best other move, shrunk by their noise
    #: (``shrunk_loss``); the uncut paired difference and its standard error.
    point_loss: float = 0.0
    point_difference: float = 0.0
    point_stderr: float = 0.0
    #: The policy's own choice here (the greedy bot's, asked with the seat's view; the
    #: played move if the same, or the only one). With ``versus_policy`` it is played on
    #: the judging worlds too, and these are its win chance and points less the played
    #: move's there, uncut, with standard errors: what the move cost against the policy's
    #: (0 when they are the same move; without ``versus_policy``, measured only where the
    #: policy's move was the best found, else 0). Summed over a game they can be checked
    #: against whole games: a seat that plays as the policy does against one that does
    #: not (``examples/analysis_truth.py``).
    policy: Action | None = None
    policy_difference: float = 0.0
    policy_stderr: float = 0.0
    policy_point_difference: float = 0.0
    policy_point_stderr: float = 0.0
    #: The played move's win chance less the mean of every compared move's, on the
    #: worlds all of them were played on (the race's first), uncut, with its standard
    #: error: what the move gained over a move drawn at random from those compared (0
    #: for a forced move). ``difference`` plus it is the position's *stakes*, what a
    #: random move would have lost there (``potluck.judge_math.stakes``).
    field_difference: float = 0.0
    field_stderr: float = 0.0
    #: ``difference`` and ``point_difference`` on the first ``min_worlds`` judging
    #: worlds alone, with standard errors: the worlds every judgement plays before it
    #: may stop (unless its time is up first). The judge stops once the difference it has
    #: seen settles a verdict, which happens sooner when that difference ran low, so the
    #: mean over all judging worlds is biased low on small losses (optional stopping);
    #: the mean over a number of worlds fixed in advance is not. A mean over many moves
    #: uses these (``potluck.review.summarise``).
    fixed_difference: float = 0.0
    fixed_stderr: float = 0.0
    fixed_point_difference: float = 0.0
    fixed_point_stderr: float = 0.0
    #: The best move the race found and judged against the played one (``best`` is it
    #: only where its lead, shrunk by its noise, is above 0 in win chance or in points;
    #: ``difference`` and ``point_difference`` are its lead either way): the improving
    #: bot's ``leave`` may play it on a smaller lead.
    raced: Action | None = None

    @property
    def loss(self) -> float:
        """The win chance the move cost, shrunk by its noise (``shrunk_loss``)."""
        return max(0.0, self.before - self.after)
