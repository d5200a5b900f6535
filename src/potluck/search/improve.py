"""A bot that improves on the greedy bot by rollouts: the move judge's best move, played.

At each decision the bot asks the move judge (``potluck.judge.PlayoutJudge.assess``,
the very code that ``potluck analyse`` judges moves with) about the move its
*policy* (the game's greedy bot, or its tuned one) would play: the judge draws
worlds from the seat's information set, plays every candidate move on the same
worlds with the policy playing on for every seat (common random numbers; cut and
scored by the value model where the game's defaults say so), narrows the
candidates by successive halving, then plays the best one found against the
policy's move on *fresh* worlds. The bot plays the best move only where that
fresh comparison's difference, shrunk by its noise (``shrunk_loss``), says it wins
more than the policy's move; otherwise it plays the policy's move.

This is one step of policy iteration by Monte-Carlo rollouts (Tesauro and Galperin
1997; Bertsekas' rollout algorithm): the improved policy is at least as good as
its base policy wherever the rollouts estimate truly, and it needs no training.
Its model of the other seats is the default greedy bot (``others``), which is
what it was measured against; against players unlike it the playouts are a
guess.

It decides from what ``potluck.agents.decide`` gives a search bot (the seat's
``InformationSet`` and its legal moves) and draws every world and rollout from a
seed taken from the ``rng`` it is given, so with ``time=0`` (worlds alone bound
it) the same seed gives the same move; with a time budget the number of worlds,
and so the move, depend on the machine's speed.

    >>> import random, potluck
    >>> from potluck.agents import decide, make_agent
    >>> game = potluck.load_game("burger-joint")
    >>> bot = make_agent(game, "improve:time=0,worlds=16")
    >>> state = game.new_game(2, seed=4)
    >>> move = decide(bot, game, state, 0, random.Random(1))
    >>> move == decide(bot, game, state, 0, random.Random(1))
    True
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from potluck.engine.action import Action
from potluck.engine.botspec import BotParam
from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.judge import JUDGE_DEFAULTS, Judgement, PlayoutJudge
from potluck.judge_params import MOST_MOVES
from potluck.search.belief import GreedyBelief
from potluck.search.information import DecidesFromInformationSets, InformationSet
from potluck.search.opponents import OpponentModel

__all__ = ["IMPROVE_DEFAULTS", "IMPROVE_NAME", "PolicyImprovementBot"]

#: The bot's name in specs.
IMPROVE_NAME = "improve"

#: The bot's parameters per game where they differ from its own defaults (spec text; a
#: spec's own parameters override them): the move judge's per-game playouts (Café
#: Carnage's cut after 24 moves and scored by the value model, Belly Battle's after 16
#: turns by its fitted win chances: docs/bots.md, "Move analysis"), which is how the
#: judge's best move was measured to beat greedy bots.
IMPROVE_DEFAULTS: dict[str, dict[str, str]] = {
    game_id: dict(params) for game_id, params in JUDGE_DEFAULTS.items()
}

#: The loss bands the judge settles a comparison by: it stops early once the best
#: move's advantage over the policy's is known to lie in one band (move analysis's
#: inaccuracy, mistake and blunder thresholds, ``potluck.review.DEFAULT_THRESHOLDS``).
SETTLE_BANDS = (0.05, 0.10, 0.20)

#: ``others``'s value for the model learned from how the other seats play.
ADAPTIVE = "adaptive"
#: With ``others=adaptive``, the bot the model checks the other seats' moves against,
#: and that plays them in the playouts where the model says they play it.
ADAPTIVE_POLICY = "greedy"

#: ``belief``'s value for worlds filtered by what greedy other seats would have shown.
GREEDY_BELIEF = "greedy"

#: With ``settle=auto``, the other seats' mean greedy share below which a decision
#: uses its whole time.
AUTO_FULL_BELOW = 0.8


class PolicyImprovementBot(DecidesFromInformationSets):
    """Plays the greedy bot's move unless rollouts on common worlds show a better one."""

    name = IMPROVE_NAME
    needs_view = False
    #: The spec it was built from, as written (``make_agent`` sets it).
    spec = IMPROVE_NAME
    params: ClassVar[tuple[BotParam, ...]] = (
        BotParam(
            "time",
            float,
            0.25,
            "seconds of this process's CPU a decision may take (0: worlds alone); "
            "checked between two playouts, the first world always played",
            low=0,
        ),
        BotParam(
            "wall",
            float,
            0.0,
            "seconds of the wall clock a decision may take as well (0: none; the web's "
            "hard seats set it, so that a busy server keeps a person's wait bounded)",
            low=0,
        ),
        BotParam("worlds", int, 1000, "the most worlds a decision plays", low=1),
        BotParam(
            "min_worlds",
            int,
            32,
            "worlds the best move found is set against the policy's move on before the "
            "comparison may stop early",
            low=1,
        ),
        BotParam(
            "policy",
            str,
            "greedy",
            "the bot improved on: it names the seat's base move and plays the seat's own "
            "moves in the playouts (greedy, or greedy-tuned where the game has one)",
            choices=("greedy", "greedy-tuned"),
        ),
        BotParam(
            "others",
            str,
            "greedy",
            "its model of the other seats in the playouts: a plain bot, or adaptive (each "
            "other seat plays the greedy bot's move with the share of its decisions on which "
            "it was seen to, learned from the seat's own views, else a random move)",
            choices=("greedy", "greedy-tuned", "random", "adaptive"),
        ),
        BotParam(
            "model_worlds",
            int,
            6,
            "with others=adaptive: worlds kept at each decision to learn the other seats "
            "from at the next",
            low=1,
        ),
        BotParam(
            "model_prior",
            float,
            8.0,
            "with others=adaptive: votes' worth of greedy play each other seat is credited "
            "with before any is seen (its greedy-vote rate starts at a greedy seat's)",
            low=0.5,
        ),
        BotParam(
            "settle",
            str,
            "early",
            "when the comparison may stop before its time: early (once the difference is "
            "known to one loss band), full (never: the whole time), or auto (full where the "
            "adaptive model finds the other seats less than 80% greedy, else early)",
            choices=("early", "full", "auto"),
        ),
        BotParam(
            "candidates",
            int,
            0,
            f"the most moves compared: the policy's and others drawn at random (0: every "
            f"legal move, or {MOST_MOVES} of them if there are more)",
            low=0,
        ),
        BotParam(
            "confidence",
            float,
            2.5,
            "standard errors of the paired difference within one loss band before the "
            "comparison stops early",
            low=0,
        ),
        BotParam(
            "precision",
            float,
            0.04,
            "the standard error of the policy move's win chance to wait for (0: none)",
            low=0,
        ),
        BotParam(
            "leave",
            float,
            1.0,
            "paired standard errors by which the best move found must lead the policy's "
            "on the fresh worlds, in win chance or in points, before the bot plays it (1: "
            "where the lead shrunk by its noise is above 0, the judge's own rule; 0: any "
            "lead)",
            low=0,
        ),
        BotParam(
            "belief",
            str,
            "uniform",
            "where a decision's worlds come from: uniform (drawn from the information set, "
            "every unseen card at random) or greedy (worlds kept from the seat's last "
            "decision, played on with greedy other seats and kept where they show the seat "
            "its real view; the information set where too few do)",
            choices=("uniform", GREEDY_BELIEF),
        ),
        BotParam(
            "particles",
            int,
            64,
            "with belief=greedy: worlds kept at each decision for the next",
            low=1,
        ),
        BotParam(
            "depth",
            int,
            0,
            "playout moves before a world is scored by win chances (the cutoff's) "
            "instead of played to the end (0: to the end)",
            low=0,
        ),
        BotParam(
            "horizon",
            int,
            0,
            "cut a playout once the game's clock (Game.progress) has run this far "
            "(0: by depth alone)",
            low=0,
        ),
        BotParam(
            "cutoff",
            str,
            "fitted",
            "what scores a cut playout: fitted (the game's Game.win_chances) or model "
            "(the learned value model; a table size without one is played to the end)",
            choices=("fitted", "model"),
        ),
    )

    def __init__(
        self,
        time: float = 0.25,
        wall: float = 0.0,
        worlds: int = 1000,
        min_worlds: int = 32,
        policy: str = "greedy",
        others: str = "greedy",
        candidates: int = 0,
        confidence: float = 2.5,
        precision: float = 0.04,
        depth: int = 0,
        horizon: int = 0,
        cutoff: str = "fitted",
        model_worlds: int = 6,
        model_prior: float = 8.0,
        settle: str = "early",
        leave: float = 1.0,
        belief: str = "uniform",
        particles: int = 64,
    ) -> None:
        self.time = time
        self.wall = wall
        self.worlds = worlds
        self.min_worlds = min_worlds
        self.policy = policy
        self.others = others
        self.candidates = candidates
        self.confidence = confidence
        self.precision = precision
        self.depth = depth
        self.horizon = horizon
        self.cutoff = cutoff
        self.model_worlds = model_worlds
        self.model_prior = model_prior
        self.settle = settle
        self.leave = leave
        self.belief = belief
        self.particles = particles
        #: The greedy table's worlds (belief=greedy), per game, built at the first decision.
        self._belief: GreedyBelief | None = None
        #: The model of the other seats (others=adaptive), per game, built at the first
        #: decision.
        self._model: OpponentModel | None = None
        #: The other seats' greedy shares at the last decision (others=adaptive).
        self.last_shares: tuple[float, ...] = ()
        #: The judge bound to the game last played (built at the first decision).
        self._judge: tuple[Game[Any, Any], PlayoutJudge] | None = None
        #: What the last decision found (benchmarks and tests read it).
        self.last: Judgement | None = None

    def __repr__(self) -> str:
        return (
            f"PolicyImprovementBot(time={self.time}, wall={self.wall}, worlds={self.worlds}, "
            f"min_worlds={self.min_worlds}, policy={self.policy!r}, others={self.others!r}, "
            f"candidates={self.candidates}, confidence={self.confidence}, "
            f"precision={self.precision}, depth={self.depth}, horizon={self.horizon}, "
            f"cutoff={self.cutoff!r}, model_worlds={self.model_worlds}, "
            f"model_prior={self.model_prior}, settle={self.settle!r}, leave={self.leave}, "
            f"belief={self.belief!r}, particles={self.particles})"
        )

    def judge(self, game: Game[Any, Any]) -> PlayoutJudge:
        """The move judge this bot decides with, bound to ``game`` (built once a game)."""
        if self._judge is not None and self._judge[0] is game:
            return self._judge[1]
        judge = PlayoutJudge(
            worlds=self.worlds,
            min_worlds=self.min_worlds,
            time=self.time,
            policy=self.policy,
            candidates=self.candidates,
            confidence=self.confidence,
            depth=self.depth,
            horizon=self.horizon,
            cutoff=self.cutoff,
            precision=self.precision,
        ).bind(game, others=ADAPTIVE_POLICY if self.others == ADAPTIVE else self.others)
        self._judge = (game, judge)
        return judge

    def search(
        self, game: Game[Any, Any], info: InformationSet, legal: list[Action], rng: random.Random
    ) -> Action:
        """The policy's move, or the best move found where it is shown to win more."""
        if not legal:
            raise PotluckError(f"{IMPROVE_NAME} was asked to choose with no legal action")
        model = self.model(game) if self.others == ADAPTIVE else None
        belief = self.belief_of(game) if self.belief == GREEDY_BELIEF else None
        if len(legal) == 1:
            seed = f"{IMPROVE_NAME}:forced:{info.moves}"
            if model is not None:  # the seat's forced move, seen by the model's worlds too
                self.last_shares = model.shares(info, seed)
                model.remember(info, legal[0], seed)
            if belief is not None:  # the kept worlds follow the game through it too
                belief.remember(belief.information(info, seed), legal[0], seed)
            return legal[0]
        judge = self.judge(game)
        seed = f"{IMPROVE_NAME}:{rng.getrandbits(64)}"
        if belief is not None:
            info = belief.information(info, seed)
        shares = None
        if model is not None:
            shares = self.last_shares = model.shares(info, seed)
        full = self.settle == "full" or (
            self.settle == "auto"
            and shares is not None
            and _mean_other(shares, info.seat) < AUTO_FULL_BELOW
        )
        judge.min_worlds = judge.worlds if full else min(self.min_worlds, self.worlds)
        base = judge.policy_move(info, legal, seed, random.Random(f"{seed}:moves"))
        found = judge.assess(
            info, legal, base, SETTLE_BANDS, seed, wall_limit=self.wall, others_shares=shares
        )
        self.last = found
        chosen = _candidate(found) if leaves(found, self.leave) else base
        if model is not None:
            model.remember(info, chosen, seed)
        if belief is not None:
            belief.remember(info, chosen, seed)
        return chosen

    def belief_of(self, game: Game[Any, Any]) -> GreedyBelief:
        """The worlds a greedy table could have made (``belief=greedy``), one a game."""
        if self._belief is None or self._belief.game is not game:
            self._belief = GreedyBelief(game, ADAPTIVE_POLICY, particles=self.particles)
        return self._belief

    def model(self, game: Game[Any, Any]) -> OpponentModel:
        """The model of the other seats (``others=adaptive``), one a game."""
        if self._model is None or self._model.game is not game:
            self._model = OpponentModel(
                game, ADAPTIVE_POLICY, worlds=self.model_worlds, prior=self.model_prior
            )
        return self._model


def leaves(found: Judgement, leave: float) -> bool:
    """Whether the bot plays the judge's best move rather than its policy's: the best
    move's lead on the fresh worlds is above ``leave`` paired standard errors, in win
    chance or in points. With ``leave=1`` this is the judge's own rule (a lead shrunk by
    its noise, ``shrunk_loss``, is above 0 exactly where it exceeds one standard error),
    so the judge's best move is played unchanged.

    >>> from potluck.engine.action import Action
    >>> a, b = Action(0, "a"), Action(1, "b")
    >>> found = Judgement(a, b, 0.5, 0.4, 0.04, 0.1, 0.05, 40, 80, 0.2, (), False, "")
    >>> leaves(found, 1.0), leaves(found, 2.0), leaves(found, 3.0)
    (True, True, False)
    """
    if _candidate(found) == found.played:
        return False
    by_win = found.difference > leave * found.loss_stderr
    by_points = found.point_difference > leave * found.point_stderr
    return by_win or by_points


def _candidate(found: Judgement) -> Action:
    """The best move the judge's race found: the one it judged against the policy's,
    played or not by the judge's own rule."""
    return found.best if found.raced is None else found.raced


def _mean_other(shares: tuple[float, ...], seat: int) -> float:
    others = [share for other, share in enumerate(shares) if other != seat]
    return sum(others) / len(others) if others else 1.0
