"""Move analysis: how much each of one seat's moves in a recorded game cost its chance to win.

    >>> import potluck
    >>> from potluck.sim import play_game
    >>> game = potluck.load_game("burger-joint")
    >>> record = play_game(game, 2, ["greedy", "random"], seed=4, keep_record=True).record
    >>> reviews = review_record(game, record, seat=1, spec="playouts:worlds=8,time=0", limit=2)
    >>> len(reviews), all(r.seat == 1 for r in reviews)
    (2, True)
    >>> all(0.0 <= r.after <= r.before <= 1.0 for r in reviews)
    True

Each decision of the seat is judged (``potluck.judge``) from that seat's
information set at that moment: the judge sees the seat's cards and the moves it
could see, never the other seats' hidden cards or sealed choices
(``potluck.agents.InformationSet``). It plays worlds drawn from that information
on to the end after the move played and after the other moves it compares, every
seat then moved by the game's greedy bot, all moves on the same worlds. ``after``
is the share of those playouts the seat won after the move played, ``before``
the same after the best move compared (the position's worth), both chances of
winning; their difference, shrunk by its noise, is the *loss*, and beside it the
*points lost* (the seat's score less the others' mean, which still counts where
the win chance is gone). A move whose loss reaches a threshold
is an inaccuracy, a mistake or a blunder, as chess sites mark them, but only when
it reaches it by the judge's ``confidence`` standard errors: a loss within its
noise of a threshold gets the verdict below. A forced move
(the only legal one) is judged too: its win chance is the position's, its loss 0.

``review_record`` is the one entry point: the command line (``potluck analyse``)
and the server's bot pool call it, with a bound on the seconds per move and a
progress callback.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.judge import DEFAULT_JUDGE, make_judge
from potluck.judge_math import mean, stderr

__all__ = ["DEFAULT_THRESHOLDS", "MoveReview", "SeatSummary", "review_record", "summarise"]

#: Losses of win chance that make a move an inaccuracy, a mistake and a blunder.
DEFAULT_THRESHOLDS = (0.05, 0.10, 0.20)


@dataclass(frozen=True)
class MoveReview:
    """One decision of the analysed seat."""

    number: int  # the action's number in the record (1 = the first action)
    seat: int
    played: str
    preferred: str  # the best move compared (the played one if none was better)
    before: float  # win chance with the preferred move: the position's worth
    after: float  # win chance after the move played
    verdict: str  # "", "inaccuracy", "mistake" or "blunder"
    simulations: int  # playouts run for this decision
    worlds: int = 0  # worlds the played move was played on (each one playout)
    stderr: float = 0.0  # standard error of the loss (paired, world by world)
    forced: bool = False  # the only legal move
    seconds: float = 0.0  # time this decision took
    #: The best other move's win chance minus the played move's, not cut at 0 (its
    #: mean over many moves estimates a seat's mean loss without the noise that cut
    #: losses count; ``potluck.judge.Judgement.difference``).
    difference: float = 0.0
    #: The seat's points after the move played (its score minus the mean of the other
    #: seats', at the playouts' end, in the game's unit), the points the move cost
    #: against the best other move shrunk by their noise, and uncut with its standard
    #: error (``potluck.judge.Judgement``).
    points: float = 0.0
    point_loss: float = 0.0
    point_difference: float = 0.0
    point_stderr: float = 0.0
    #: The judge's policy's own choice here (the greedy bot's, from the seat's view),
    #: and, with the judge's ``versus_policy``, the win chance and points it would have
    #: kept over the move played, uncut, with standard errors (0 when the same move, or
    #: not measured; ``potluck.judge.Judgement.policy_difference``).
    policy_move: str = ""
    policy_difference: float = 0.0
    policy_stderr: float = 0.0
    policy_point_difference: float = 0.0
    policy_point_stderr: float = 0.0
    #: The win chance the move played gained over the mean compared move, uncut, with
    #: its standard error (``potluck.judge.Judgement.field_difference``); ``difference``
    #: plus it is the position's stakes, what a random move would have lost here.
    field_difference: float = 0.0
    field_stderr: float = 0.0
    #: ``difference`` and ``point_difference`` on the judging worlds every judgement
    #: plays before it may stop (``potluck.judge.Judgement.fixed_difference``): the
    #: judge stops sooner where the difference it saw ran low, so a mean of
    #: ``difference`` over many moves is biased low; a mean of these is not. ``None``
    #: in an analysis made before they were measured (``difference`` stands in).
    fixed_difference: float | None = None
    fixed_stderr: float | None = None
    fixed_point_difference: float | None = None
    fixed_point_stderr: float | None = None

    @property
    def unbiased_difference(self) -> float:
        """The loss of win chance a mean over many moves adds up (``fixed_difference``,
        or ``difference`` in an older analysis)."""
        return self.difference if self.fixed_difference is None else self.fixed_difference

    @property
    def unbiased_point_difference(self) -> float:
        """The points lost a mean over many moves adds up, as ``unbiased_difference``."""
        fixed = self.fixed_point_difference
        return self.point_difference if fixed is None else fixed

    @property
    def stakes(self) -> float:
        """The win chance a move drawn at random from those compared would have lost
        here against the best found (0 for a forced move), estimated uncut."""
        return self.unbiased_difference + self.field_difference

    @property
    def loss(self) -> float:
        """The win chance the move cost, shrunk by its noise
        (``potluck.judge.shrunk_loss``)."""
        return max(0.0, self.before - self.after)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "loss": self.loss, "stakes": self.stakes}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MoveReview:
        """The review ``to_json`` gave (fields it lacks, from an older analysis, at
        their defaults; ``loss`` and ``stakes``, which are worked out, ignored)."""
        return cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})


@dataclass(frozen=True)
class SeatSummary:
    """What a seat's reviewed moves add up to (``summarise``).

    ``mean_loss`` is the seat's mean loss of win chance a move: the mean *uncut*
    difference on the worlds played before the judge may stop
    (``MoveReview.unbiased_difference``) over the moves it had a choice in, with the
    standard error of that mean. It is an unbiased estimate where the mean of the shown
    losses is not (each shown loss is shrunk by its own noise, right for reading one
    move but biased as a term of an average), nor the mean of the differences over
    every judging world (the judge stops sooner where a loss ran low); forced moves,
    which tell nothing of how a seat plays, are left out; and summed over a game it is,
    in expectation, the win chance the seat's moves gave up against the best moves
    found. ``mean_points_lost``
    is the same in the game's points. ``share_lost`` is the sum of the losses over the
    sum of the positions' stakes (``MoveReview.stakes``): the share of what was at
    stake that the seat gave up, 0 for the best moves found, 1 on average for moves
    drawn at random; ``None`` while the stakes add up to nothing. It is in the JSON
    only: over 20 games a random seat's share, 1 in expectation, was measured between
    0.96 and 3.0 (docs/analysis.md, run 3), the noise of a ratio whose stakes sum small
    noisy terms (checked position by position, the random seat's moves stood at the
    mean legal move, truly and as judged).
    """

    moves: int
    choices: int  # moves with more than one legal option
    mean_loss: float
    loss_stderr: float
    mean_points_lost: float
    points_stderr: float
    mean_stakes: float
    share_lost: float | None
    inaccuracies: int
    mistakes: int
    blunders: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def summarise(reviews: Sequence[MoveReview]) -> SeatSummary:
    """A seat's figures over its reviewed moves (``SeatSummary`` says which).

    >>> one = MoveReview(1, 0, "a", "b", 0.5, 0.3, "blunder", 64, difference=0.2)
    >>> two = MoveReview(5, 0, "c", "c", 0.4, 0.4, "", 64, field_difference=0.1)
    >>> forced = MoveReview(9, 0, "d", "d", 0.4, 0.4, "", 32, forced=True)
    >>> summary = summarise([one, two, forced])
    >>> summary.choices, round(summary.mean_loss, 3), round(summary.share_lost or 0, 3)
    (2, 0.1, 0.667)
    """
    chose = [r for r in reviews if not r.forced]
    stakes = sum(r.stakes for r in chose)
    losses = [r.unbiased_difference for r in chose]
    points_lost = [r.unbiased_point_difference for r in chose]
    return SeatSummary(
        moves=len(reviews),
        choices=len(chose),
        mean_loss=mean(losses),
        loss_stderr=stderr(losses),
        mean_points_lost=mean(points_lost),
        points_stderr=stderr(points_lost),
        mean_stakes=mean([r.stakes for r in chose]),
        share_lost=sum(losses) / stakes if stakes > 0 else None,
        inaccuracies=sum(r.verdict == "inaccuracy" for r in reviews),
        mistakes=sum(r.verdict == "mistake" for r in reviews),
        blunders=sum(r.verdict == "blunder" for r in reviews),
    )


def review_record(
    game: Game[Any, Any],
    record: Mapping[str, Any],
    seat: int,
    spec: str = DEFAULT_JUDGE,
    thresholds: tuple[float, float, float] = DEFAULT_THRESHOLDS,
    seed: int = 0,
    limit: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    *,
    seconds_per_move: float | None = None,
    numbers: Collection[int] | None = None,
) -> list[MoveReview]:
    """Review every decision ``seat`` made in ``record`` (at most ``limit`` of them).

    ``spec`` names the judge (``playouts``, with parameters such as
    ``playouts:worlds=400,time=1``; ``potluck.judge``); ``seconds_per_move``, when
    given, bounds each decision's time instead of the spec's ``time`` (a decision
    stops between two playouts, and always plays its first world).
    ``numbers``, when given, picks the seat's moves to review by their number in the
    record (1 = the first action), before ``limit`` applies.
    ``progress(done, total)`` is called after each reviewed decision. With a time
    bound the figures depend on the machine's speed; with ``time=0`` they are
    reproducible from ``seed``.
    """
    if not thresholds[0] <= thresholds[1] <= thresholds[2]:
        raise PotluckError(f"the thresholds must not decrease: {thresholds}")
    if seconds_per_move is not None and seconds_per_move < 0:
        raise PotluckError(f"seconds_per_move must be at least 0, not {seconds_per_move}")
    state = game.replay(record, upto=0)
    num_players = state.num_players
    if not 0 <= seat < num_players:
        raise PotluckError(f"seat must be 0 to {num_players - 1} in this game, not {seat}")
    judge = make_judge(game, spec)
    game.replay(record)  # the whole record is checked before any playout
    redeals = game.redeal_of(record)  # a table dealt again part-way ("play from here")
    actions = [(int(who), str(text)) for who, text in record["actions"]]
    mine = [k for k, (who, _) in enumerate(actions) if who == seat]
    if numbers is not None:
        wrong = sorted(n for n in numbers if not 0 < n <= len(actions) or actions[n - 1][0] != seat)
        if wrong:
            raise PotluckError(f"action {wrong[0]} of this record is not a move of seat {seat}")
        mine = [k for k in mine if k + 1 in numbers]
    if limit is not None:
        mine = mine[:limit]
    wanted = set(mine)
    last = mine[-1] if mine else -1
    reviews: list[MoveReview] = []
    for k, (who, text) in enumerate(actions):
        if k > last:
            break
        if k in wanted:
            played = game.parse_action(state, seat, text)
            found = judge.judge(
                state, seat, played, thresholds, f"potluck-review:{seed}:{k}", seconds_per_move
            )
            reviews.append(
                MoveReview(
                    number=k + 1,
                    seat=seat,
                    played=text,
                    preferred=str(found.best),
                    before=found.before,
                    after=found.after,
                    verdict=found.verdict,
                    simulations=found.playouts,
                    worlds=found.worlds,
                    stderr=found.loss_stderr,
                    forced=found.forced,
                    seconds=found.seconds,
                    difference=found.difference,
                    points=found.points,
                    point_loss=found.point_loss,
                    point_difference=found.point_difference,
                    point_stderr=found.point_stderr,
                    policy_move=text if found.policy is None else str(found.policy),
                    policy_difference=found.policy_difference,
                    policy_stderr=found.policy_stderr,
                    policy_point_difference=found.policy_point_difference,
                    policy_point_stderr=found.policy_point_stderr,
                    field_difference=found.field_difference,
                    field_stderr=found.field_stderr,
                    fixed_difference=found.fixed_difference,
                    fixed_stderr=found.fixed_stderr,
                    fixed_point_difference=found.fixed_point_difference,
                    fixed_point_stderr=found.fixed_point_stderr,
                )
            )
            if progress is not None:
                progress(len(reviews), len(mine))
        game.step(state, who, text)
        state = game.redealt(state, redeals)
    return reviews
