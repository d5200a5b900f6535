"""Move analysis: how much each of one seat's moves in a recorded game cost its chance to win.

    >>> import potluck
    >>> from potluck.sim import play_game
    >>> game = potluck.load_game("burger-joint")
    >>> record = play_game(game, 2, ["greedy", "random"], seed=4, keep_record=True).record
    >>> reviews = review_record(game, record, seat=1, spec="ismcts:sims=8", limit=2)
    >>> len(reviews), all(r.seat == 1 for r in reviews)
    (2, True)
    >>> all(0.0 <= r.before <= 1.0 for r in reviews)
    True

For each decision of the seat, a search bot (``ismcts`` by default) is asked
from that seat's information set at that moment, exactly as it would be asked
during play: it sees the seat's cards and the moves it could see, never the
other seats' hidden cards or sealed choices (``potluck.agents.InformationSet``).
The search estimates the seat's win chance after each legal move; ``before`` is
the estimate of the move the search preferred (the position's worth under good
play), ``after`` the estimate of the move played, and their difference the
*loss*. A move whose loss reaches a threshold is marked an inaccuracy, a mistake
or a blunder, as chess sites do. Estimates are Monte Carlo: at a small budget a
few points of win chance are noise, so keep the thresholds above that.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from potluck.agents import InformationSet, make_agent
from potluck.engine.errors import PotluckError
from potluck.engine.game import Game

__all__ = ["DEFAULT_THRESHOLDS", "MoveReview", "review_record"]

#: Losses of win chance that make a move an inaccuracy, a mistake and a blunder.
DEFAULT_THRESHOLDS = (0.05, 0.10, 0.20)
#: Fewer visits than this and the played move's estimate is searched on its own.
_MIN_VISITS = 10


@dataclass(frozen=True)
class MoveReview:
    """One decision of the analysed seat."""

    number: int  # the action's number in the record (1 = the first action)
    seat: int
    played: str
    preferred: str
    before: float  # estimated win chance with the preferred move
    after: float  # estimated win chance after the move played
    verdict: str  # "", "inaccuracy", "mistake" or "blunder"
    simulations: int

    @property
    def loss(self) -> float:
        return max(0.0, self.before - self.after)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "loss": self.loss}


def _verdict(loss: float, thresholds: tuple[float, float, float]) -> str:
    inaccuracy, mistake, blunder = thresholds
    if loss >= blunder:
        return "blunder"
    if loss >= mistake:
        return "mistake"
    if loss >= inaccuracy:
        return "inaccuracy"
    return ""


def review_record(
    game: Game[Any, Any],
    record: Mapping[str, Any],
    seat: int,
    spec: str = "ismcts",
    thresholds: tuple[float, float, float] = DEFAULT_THRESHOLDS,
    seed: int = 0,
    limit: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[MoveReview]:
    """Review every decision ``seat`` made in ``record`` (at most ``limit`` of them).

    ``spec`` names the search bot (it must offer ``analyse``, as ``ismcts`` does);
    ``progress(done, total)`` is called after each reviewed decision. The review is
    reproducible from ``seed``.
    """
    if not thresholds[0] <= thresholds[1] <= thresholds[2]:
        raise PotluckError(f"the thresholds must not decrease: {thresholds}")
    state = game.replay(record, upto=0)
    num_players = state.num_players
    if not 0 <= seat < num_players:
        raise PotluckError(f"seat must be 0 to {num_players - 1} in this game, not {seat}")
    bot = make_agent(game, spec)
    analyse = getattr(bot, "analyse", None)
    if analyse is None:
        raise PotluckError(f"bot {spec!r} gives no estimates; use a search bot such as ismcts")
    game.replay(record)  # the whole record is checked before any search
    actions = [(int(who), str(text)) for who, text in record["actions"]]
    mine = [k for k, (who, _) in enumerate(actions) if who == seat]
    if limit is not None:
        mine = mine[:limit]
    reviews: list[MoveReview] = []
    done = 0
    for k, (who, text) in enumerate(actions):
        if k > (mine[-1] if mine else -1):
            break
        if who == seat and k in mine:
            rng = random.Random(seed * 1_000_003 + k)
            info = InformationSet(game, state, seat)
            legal = game.legal_actions(state, seat)
            played = game.parse_action(state, seat, text)
            result = analyse(game, info, legal, rng)
            best = max(result.estimates, key=lambda e: (e.visits, e.value))
            estimate = result.estimate(played)
            simulations = result.simulations
            if estimate is None or estimate.visits < _MIN_VISITS:
                alone = analyse(game, info, [played], random.Random(rng.random()))
                after = alone.value
                simulations += alone.simulations
            else:
                after = estimate.value
            before = max(best.value, after) if played != best.action else after
            loss = max(0.0, before - after)
            reviews.append(
                MoveReview(
                    number=k + 1,
                    seat=seat,
                    played=text,
                    preferred=str(best.action),
                    before=before,
                    after=after,
                    verdict=_verdict(loss, thresholds),
                    simulations=simulations,
                )
            )
            done += 1
            if progress is not None:
                progress(done, len(mine))
        game.step(state, who, text)
    return reviews
