"""The move judge: each move's chance of winning, measured by playouts on common worlds.

Move analysis (``potluck.review``) asks the judge about one decision of one seat.
The judge draws *worlds* from that seat's information set
(``InformationSet.sample``: what the seat could not see drawn anew), plays each
world on after each move it compares, every seat then moved by the game's
greedy bot (the ``policy``) to the end of the game, and counts who won. A move's
**win chance** is the share of those playouts the seat won (a shared win
counts its share): a probability, the chance of winning if every seat plays on
as the policy does, not a score.

A win chance has ``prior`` worlds' worth of the fair share added (``win_chance``),
so a finite sample never says 0%; each playout also gives the seat's **points**
(``points``: its score less the other seats' mean), which do not saturate where
the win chance is gone.

Every compared move is played on the *same* worlds with the same rollout
generator (common random numbers), so the difference between two moves is
measured world by world and is the moves' doing far more than the worlds'. The
moves compared are the one played, the policy's own choice and others up to
``candidates``. They race by successive halving (ranked by win chance, then
points); if the played move ranks first it loses nothing, else the best one is
played against it on fresh worlds: the loss is the best one's win chance minus
the played move's there, shrunk by its noise (``shrunk_loss``), and the points
lost likewise. The judge stops as soon as the loss is known to lie in one verdict
band (within ``confidence`` standard errors) and the played move's win chance to
within ``precision``, or at ``worlds`` worlds, or when its ``time`` is up. A move that
is the only legal one is still played out: it carries the position's win
chance, with a loss of 0.

    >>> import potluck
    >>> game = potluck.load_game("burger-joint")
    >>> state = game.new_game(2, seed=4)
    >>> judge = make_judge(game, "playouts:worlds=16,time=0")
    >>> played = game.legal_actions(state, 0)[0]
    >>> verdict = judge.judge(state, 0, played, (0.05, 0.10, 0.20), seed="doc")
    >>> 0.0 <= verdict.after <= verdict.before <= 1.0, verdict.worlds <= 16
    (True, True)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from potluck.engine.action import Action
from potluck.engine.bots import Bot, bot_input
from potluck.engine.botspec import BotParam, BotSpec, BotSpecError, build_bot
from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.engine.state import State
from potluck.judge_math import halve as _halve
from potluck.judge_math import mean as _mean
from potluck.judge_math import points, shrunk_loss, verdict, win_chance
from potluck.judge_math import rank as _rank
from potluck.judge_math import stderr as _stderr
from potluck.judge_params import JUDGE_PARAMS, MOST_MOVES
from potluck.judgement import Judgement, MoveValue
from potluck.search.information import InformationSet
from potluck.search.presets import TUNED_NAME, tuned_greedy
from potluck.search.value import has_model, load_model

__all__ = [
    "DEFAULT_JUDGE",
    "JUDGE_DEFAULTS",
    "Judgement",
    "MoveValue",
    "PlayoutJudge",
    "make_judge",
    "points",
    "policy_bot",
    "shrunk_loss",
    "verdict",
    "win_chance",
]

#: The judge a move analysis uses unless told otherwise.
DEFAULT_JUDGE = "playouts"

#: The judge's parameters per game where they differ from its own defaults (spec
#: text; a spec's own parameters override them). Belly Battle's playouts stop after
#: sixteen turns (four rounds at four seats) and are scored by its fitted win chances:
#: as true as whole games on the moves checked, at a third of the noise and of the
#: cost; after four turns the fit's errors showed in the losses. Café Carnage's stop
#: after 24 moves and are scored by the learned value model (at four players; other
#: table sizes have none and play to the end): a ninth of whole games' noise for the
#: cost, within about 2 points of them (docs/analysis.md).
JUDGE_DEFAULTS: dict[str, dict[str, str]] = {
    "belly-battle": {"horizon": "16"},
    "cafe-carnage": {"cutoff": "model", "depth": "24"},
}

#: Worlds played between two looks at the figures (dropping moves, stopping).
_BATCH = 8
#: Worlds the last choice of the best move rests on (a race that dropped moves from
#: the 8th world on was seen to drop the best one).
_CHOOSE_WORLDS = 24
#: While more moves than this are compared, the worse half is dropped every
#: ``_BATCH`` worlds.
_FEW = 4
#: The most moves compared when every legal move is asked for.
_MOST_MOVES = MOST_MOVES


class PlayoutJudge:
    """Judges moves by playouts on common worlds (the module's docstring says how).

    Built from a spec by :func:`make_judge`, e.g. ``playouts:worlds=400,time=1``.
    """

    name = "playouts"
    spec = "playouts"
    params: ClassVar[tuple[BotParam, ...]] = JUDGE_PARAMS

    def __init__(
        self,
        worlds: int = 1000,
        min_worlds: int = 32,
        time: float = 2.0,
        policy: str = "greedy",
        candidates: int = 0,
        confidence: float = 2.5,
        depth: int = 0,
        horizon: int = 0,
        cutoff: str = "fitted",
        precision: float = 0.04,
        prior: float = 2.0,
        versus_policy: bool = False,
    ) -> None:
        self.worlds = worlds
        self.min_worlds = min(min_worlds, worlds)
        self.time = time
        self.policy = policy
        self.candidates = candidates
        self.confidence = confidence
        self.depth = depth
        self.horizon = horizon
        self.cutoff = cutoff
        self.precision = precision
        self.prior = prior
        self.versus_policy = versus_policy
        self._game: Game[Any, Any] | None = None
        self._bot: Any = None
        self._others: Any = None
        #: Every seat's chance of winning a world cut short, and whether playouts are
        #: cut (set for each decision: a model is per table size).
        self._chances: Callable[[State], Sequence[float] | None] = lambda world: None
        self._cut = False
        #: Per seat, the chance that a playout lets it play the other seats' policy
        #: rather than a uniformly random move (set for each decision; None: always
        #: the policy, as the judge itself plays).
        self._shares: Sequence[float] | None = None

    def __repr__(self) -> str:
        return (
            f"PlayoutJudge(worlds={self.worlds}, min_worlds={self.min_worlds}, "
            f"time={self.time}, policy={self.policy!r}, candidates={self.candidates}, "
            f"confidence={self.confidence}, depth={self.depth}, horizon={self.horizon}, "
            f"cutoff={self.cutoff!r}, "
            f"precision={self.precision}, prior={self.prior}, "
            f"versus_policy={self.versus_policy})"
        )

    def bind(self, game: Game[Any, Any], others: str | None = None) -> PlayoutJudge:
        """Ready the judge for ``game`` (its policy bot is built here). ``others`` names
        the plain bot that plays the *other* seats in the playouts (default: the policy,
        which then plays every seat): a seat that improves on the tuned greedy bot
        (``potluck.search.improve``) models its opponents as the default greedy bot."""
        bot = policy_bot(game, self.policy, "the judge's policy")
        other = (
            bot
            if others is None or others == self.policy
            else policy_bot(game, others, "the other seats' policy")
        )
        cut = self.depth > 0 or self.horizon > 0
        fitted = self.cutoff == "fitted"
        if cut and fitted and type(game).win_chances is Game.win_chances:
            raise PotluckError(
                f"{game.title} gives no fitted win chances to score a cut playout by: "
                "use cutoff=model, or depth=0 and horizon=0 (play to the end)"
            )
        if self.horizon > 0 and type(game).progress is Game.progress:
            raise PotluckError(f"{game.title} has no clock (Game.progress) for a horizon")
        self._game, self._bot, self._others = game, bot, other
        return self

    def ready(self, players: int) -> None:
        """Choose what scores a cut playout at this table size (``judge`` does it before
        each decision; call it before calling ``playout`` yourself)."""
        game = self._need_game()
        self._cut = self.depth > 0 or self.horizon > 0
        if not self._cut:
            return
        if self.cutoff == "fitted":
            self._chances = game.win_chances
        elif has_model(game, players):
            self._chances = load_model(game, players).world_chances
        else:  # no model at this table size: whole games
            self._cut = False

    # ------------------------------------------------------------------ one decision

    def judge(
        self,
        state: State,
        seat: int,
        played: Action,
        thresholds: tuple[float, float, float],
        seed: str,
        time_limit: float | None = None,
    ) -> Judgement:
        """Judge ``seat``'s move ``played`` in ``state`` (the true state: the judge reads
        only the seat's information from it). ``seed`` names the worlds; ``time_limit``
        replaces the judge's ``time`` for this decision."""
        game = self._need_game()
        legal = game.legal_actions(state, seat)
        info = InformationSet(game, state, seat)
        return self.assess(info, legal, played, thresholds, seed, time_limit)

    def assess(
        self,
        info: InformationSet,
        legal: list[Action],
        played: Action,
        thresholds: tuple[float, float, float],
        seed: str,
        time_limit: float | None = None,
        wall_limit: float = 0.0,
        others_shares: Sequence[float] | None = None,
    ) -> Judgement:
        """:meth:`judge` from what the seat knows alone: its information set and its
        legal moves (what ``potluck.agents.decide`` gives a search bot). The judge and
        the policy-improving bot (``potluck.search.improve``) both decide here.
        ``wall_limit`` (seconds, 0: none) bounds the wall clock's time as well as the
        CPU's (a busy server's bot keeps a person's wait bounded). ``others_shares``
        (per seat, the improving bot's model of the other seats,
        ``potluck.search.opponents``) makes each other seat play its policy's move in
        the playouts with that chance and a uniformly random legal move otherwise
        (``None``: always its policy's)."""
        start = _now()
        self._shares = (
            None
            if others_shares is None or all(share >= 1.0 for share in others_shares)
            else tuple(others_shares)
        )
        limit = self.time if time_limit is None else time_limit
        deadline = start + limit if limit > 0 else math.inf
        clock = _now
        wall_start = time.perf_counter()
        wall_deadline = wall_start + wall_limit if wall_limit > 0 else math.inf
        wall_half = wall_start + wall_limit / 2 if wall_limit > 0 else math.inf
        seat = info.seat
        self.ready(info.num_players)
        if played not in legal:
            raise PotluckError(f"{played} is not a legal move for seat {seat} here")
        rng = random.Random(f"{seed}:moves")
        policy = self.policy_move(info, legal, seed, rng)
        moves = self._moves(legal, played, policy, rng)
        favourite = policy != played
        worlds = _Worlds(self, info, seat, seed, deadline, wall_deadline)
        # 1. Choose: every compared move on common worlds, the worse half dropped after
        # 8, 16, 24... worlds (successive halving) until the played move and one
        # other are left; never the played move, nor the policy's while many are left,
        # and the last choice only after _CHOOSE_WORLDS worlds. Moves are ranked by win
        # chance, then points (``_rank``): where no move wins a world, points decide.
        chosen: list[list[float]] = [[] for _ in moves]
        played_points: list[float] = []  # the played move's points on every world
        ranks: list[list[float]] = [[] for _ in moves]
        alive = list(range(len(moves)))
        keep = {0, 1} if favourite else {0}
        choose_until = start + limit / 2 if limit > 0 else math.inf
        while (len(alive) > 2 or (len(alive) == 2 and worlds.count < _CHOOSE_WORLDS)) and (
            worlds.count < self.worlds // 2
        ):
            if worlds.count and (clock() >= choose_until or _wall() >= wall_half):
                break
            got = worlds.play([moves[i] for i in alive])
            if got is None:
                break
            for i, (win, score) in zip(alive, got, strict=True):
                chosen[i].append(win)
                ranks[i].append(_rank(win, score))
            played_points.append(got[0][1])
            count = worlds.count
            if count % _BATCH == 0:
                if len(alive) > _FEW:
                    alive = _halve(alive, ranks, keep)
                elif count >= _CHOOSE_WORLDS:
                    alive = _halve(alive, ranks, {0}, most=2)
        # The played move against the mean compared move, on the worlds every one of them
        # was played on: no move is chosen by these figures, so no luck is counted.
        common = min(len(values) for values in chosen)
        field = [chosen[0][w] - _mean([values[w] for values in chosen]) for w in range(common)]
        # The best move found: the played one unless another ranked above it (then its
        # loss is 0 and only its win chance is measured further).
        best = max(alive, key=lambda i: (_mean(ranks[i]), i == 0))
        # 2. Judge: the played move against the best other one on fresh worlds, so that
        # the luck that made it look best does not count in the loss (and, asked for,
        # the policy's choice beside them: the third move if neither).
        pair = [moves[0]] if best == 0 else [moves[0], moves[best]]
        if self.versus_policy and favourite and best != 1:
            pair.append(moves[1])
        at_best = 0 if best == 0 else 1
        at_policy = pair.index(policy) if policy in pair else 0
        judged: tuple[list[float], list[float]] = ([], [])
        judged_points: tuple[list[float], list[float]] = ([], [])
        versus: tuple[list[float], list[float]] = ([], [])  # the policy's less the played's
        while worlds.count < self.worlds:
            if worlds.count and (clock() >= deadline or _wall() >= wall_deadline):
                break
            got = worlds.play(pair)
            if got is None:
                break
            judged[0].append(got[0][0])
            judged[1].append(got[at_best][0])
            judged_points[0].append(got[0][1])
            played_points.append(got[0][1])
            judged_points[1].append(got[at_best][1])
            versus[0].append(got[at_policy][0] - got[0][0])
            versus[1].append(got[at_policy][1] - got[0][1])
            enough = len(judged[0]) >= self.min_worlds and len(judged[0]) % _BATCH == 0
            if enough and self._settled(judged[0], judged[1], thresholds):
                break
        diffs = [b - a for a, b in zip(*judged, strict=True)]
        point_diffs = [b - a for a, b in zip(*judged_points, strict=True)]
        # The worlds played before the judge may stop: their number does not depend on
        # what they showed, so their mean is unbiased where the stop's is not.
        fixed = min(len(diffs), self.min_worlds)
        values = chosen[0] + judged[0]
        after = win_chance(sum(values), len(values), info.num_players, self.prior)
        difference, loss_stderr = _mean(diffs), _stderr(diffs)
        loss = shrunk_loss(difference, loss_stderr)
        point_difference, point_stderr = _mean(point_diffs), _stderr(point_diffs)
        point_loss = shrunk_loss(point_difference, point_stderr)
        raced = moves[best]
        if loss <= 0 and point_loss <= 0:
            best = 0
        sure = max(0.0, difference - self.confidence * loss_stderr)
        return Judgement(
            played=played,
            best=moves[best],
            before=min(1.0, after + loss),
            after=after,
            loss_stderr=loss_stderr,
            difference=difference,
            value_stderr=_stderr(values),
            worlds=len(values),
            playouts=worlds.playouts,
            seconds=clock() - start,
            compared=tuple(
                MoveValue(move, len(chosen[i]), _mean(chosen[i])) for i, move in enumerate(moves)
            ),
            forced=len(legal) == 1,
            verdict=verdict(sure, thresholds),
            points=_mean(played_points),
            point_loss=point_loss,
            point_difference=point_difference,
            point_stderr=point_stderr,
            policy=policy,
            policy_difference=_mean(versus[0]) if at_policy else 0.0,
            policy_stderr=_stderr(versus[0]) if at_policy else 0.0,
            policy_point_difference=_mean(versus[1]) if at_policy else 0.0,
            policy_point_stderr=_stderr(versus[1]) if at_policy else 0.0,
            field_difference=_mean(field),
            field_stderr=_stderr(field),
            fixed_difference=_mean(diffs[:fixed]),
            fixed_stderr=_stderr(diffs[:fixed]),
            fixed_point_difference=_mean(point_diffs[:fixed]),
            fixed_point_stderr=_stderr(point_diffs[:fixed]),
            raced=raced,
        )

    def policy_move(
        self, info: InformationSet, legal: list[Action], seed: str, rng: random.Random
    ) -> Action:
        """The policy's own choice for the seat, drawing from ``rng`` (the greedy bot's,
        reading the seat's view: any world drawn from the seat's information set, here
        one named by ``seed``, shows the seat what the true state shows it)."""
        game = self._need_game()
        if len(legal) == 1:
            return legal[0]
        seen = bot_input(self._bot, game, info.sample(random.Random(f"{seed}:view")), info.seat)
        choice: Action = self._bot.choose(game, seen, info.seat, legal, rng)
        return choice

    def _moves(
        self, legal: list[Action], played: Action, policy: Action, rng: random.Random
    ) -> list[Action]:
        """The moves to compare: the played one first, the policy's choice second when it
        differs, then others drawn with ``rng`` up to ``candidates`` (in legal order)."""
        moves = [played] if policy == played else [played, policy]
        others = [a for a in legal if a not in moves]
        most = self.candidates if self.candidates > 0 else _MOST_MOVES
        room = max(0, most - len(moves))
        if room < len(others):
            rng.shuffle(others)
            others = sorted(others[:room], key=legal.index)
        return moves + others

    def playout(self, world: State, seat: int, move: Action, seed: int) -> float | None:
        """The seat's win share after ``move`` in ``world`` and the policy's play to the end
        (``world`` is changed); ``None`` if the move is not legal in that world."""
        got = self.play_out(world, seat, move, seed)
        return None if got is None else got[0]

    def play_out(
        self, world: State, seat: int, move: Action, seed: int
    ) -> tuple[float, float] | None:
        """The seat's win share and its points after ``move`` in ``world`` (changed) and
        the policy's play on; ``None`` if the move is not legal in that world.

        Its points are its score minus the mean of the other seats' (``points``): the
        final scores, or where the playout is cut the game's ``standings`` there. A
        cut playout's win share is the cutoff's chance of winning."""
        game, bot, others = self._need_game(), self._bot, self._others
        rng = random.Random(seed)
        index = move.index
        mine = next((a for a in game.legal_actions(world, seat) if a.index == index), None)
        if mine is None:
            return None
        step, legal_actions = game.step_legal, game.legal_actions
        # what the policy reads: nothing, the game's compact bot_view, or the whole view
        choose = bot.choose
        shares = self._shares
        until = None
        if self._cut and self.horizon > 0:
            now = game.progress(world)
            until = None if now is None else now + self.horizon
        left = self.depth if self._cut and self.depth > 0 else -1
        step(world, seat, mine)
        acting = world.acting
        while acting:
            if left == 0 or (until is not None and (game.progress(world) or 0) >= until):
                chances = self._chances(world)
                assert chances is not None
                standings = game.standings(world)
                return chances[seat], 0.0 if standings is None else points(standings, seat)
            left -= 1
            mover = acting[0]
            legal = legal_actions(world, mover)
            if len(legal) == 1:
                action = legal[0]
            elif (
                shares is not None
                and mover != seat
                and shares[mover] < 1.0
                and rng.random() >= shares[mover]
            ):
                action = legal[int(rng.random() * len(legal))]
            elif mover == seat or others is bot:
                action = choose(game, bot_input(bot, game, world, mover), mover, legal, rng)
            else:
                read = bot_input(others, game, world, mover)
                action = others.choose(game, read, mover, legal, rng)
            step(world, mover, action)
            acting = world.acting
        outcome = game.outcome(world)
        winners = outcome.winners
        share = 1.0 / len(winners) if seat in winners else 0.0
        return share, points(outcome.scores, seat)

    def _settled(
        self, played: list[float], best: list[float], thresholds: tuple[float, float, float]
    ) -> bool:
        """Whether the verdict is known: the loss's lowest and highest plausible values
        (``confidence`` paired standard errors) get the same verdict, and the played
        move's win chance is known to within ``precision``."""
        if self.precision > 0 and _stderr(played) > self.precision:
            return False
        diffs = [b - a for a, b in zip(played, best, strict=True)]
        mean, err = _mean(diffs), self.confidence * _stderr(diffs)
        return verdict(max(0.0, mean - err), thresholds) == verdict(mean + err, thresholds)

    def _need_game(self) -> Game[Any, Any]:
        if self._game is None:
            raise PotluckError("the judge is not bound to a game: build it with make_judge")
        return self._game


def make_judge(game: Game[Any, Any], spec: str | BotSpec = DEFAULT_JUDGE) -> PlayoutJudge:
    """The judge ``spec`` names for ``game`` (``playouts`` or ``playouts:key=value,...``).

    >>> import potluck
    >>> make_judge(potluck.load_game("cafe-carnage"), "playouts:worlds=64").worlds
    64
    """
    parsed = spec if isinstance(spec, BotSpec) else BotSpec.parse(spec)
    if parsed.name != PlayoutJudge.name:
        hint = ""
        if parsed.name == "ismcts":
            hint = (
                " (the search bot's estimates are its rewards, a score margin in some games, "
                "not win chances)"
            )
        raise BotSpecError(
            f"moves are judged by {PlayoutJudge.name!r} "
            f"(e.g. {PlayoutJudge.name}:worlds=400,time=1), not {parsed.name!r}{hint}"
        )
    merged = BotSpec(
        parsed.name, tuple({**JUDGE_DEFAULTS.get(game.id, {}), **dict(parsed.params)}.items())
    )
    judge: PlayoutJudge = build_bot({PlayoutJudge.name: PlayoutJudge}, merged, "The move judge")
    judge.spec = str(spec).strip()
    return judge.bind(game)


def policy_bot(game: Game[Any, Any], spec: str, role: str = "the policy") -> Bot:
    """The plain bot ``spec`` names among ``game``'s own bots and its tuned greedy bot
    (a playout's policy must decide from a view: a search bot inside every playout
    would cost its whole search a move).

        >>> import potluck
        >>> policy_bot(potluck.load_game("cafe-carnage"), "greedy-tuned").name
        'greedy-tuned'
    """
    factories: dict[str, Any] = dict(game.bots())
    tuned = tuned_greedy(game)
    if tuned is not None:
        factories[TUNED_NAME] = tuned
    parsed = BotSpec.parse(spec)
    if parsed.name not in factories:
        raise PotluckError(
            f"{role} must be a plain bot of {game.title} ({', '.join(sorted(factories))}), "
            f"not {spec!r}"
        )
    bot: Bot = build_bot(factories, parsed, game.title)
    return bot


def _wall() -> float:
    """The wall clock, for a bound on what a person waits (``assess``'s ``wall_limit``)."""
    return time.perf_counter()


def _now() -> float:
    """The clock the time bound reads: this process's CPU time, so that a bound buys
    the same work on a busy machine as on an idle one, where it is the wall clock's
    time too (tests replace it)."""
    return time.process_time()


class _Worlds:
    """The worlds of one decision, drawn in turn, each played out after given moves."""

    def __init__(
        self,
        judge: PlayoutJudge,
        info: InformationSet,
        seat: int,
        seed: str,
        deadline: float,
        wall_deadline: float = math.inf,
    ) -> None:
        self.judge, self.info, self.seat, self.seed = judge, info, seat, seed
        self.deadline = deadline  # by the CPU clock (``_now``)
        self.wall_deadline = wall_deadline  # by the wall clock (``_wall``)
        self.count = 0  # worlds played after every move asked
        self.drawn = 0  # worlds drawn, skipped ones included
        self.playouts = 0

    def play(self, moves: Sequence[Action]) -> list[tuple[float, float]] | None:
        """The seat's win share and points after each of ``moves`` on the next world (the
        same world and rollout generator for each), or ``None`` once time is up. A world in which
        one of the moves is not legal is skipped (the seat could not have known it)."""
        clock = _now
        while True:
            rng = random.Random(f"{self.seed}:{self.drawn}")
            self.drawn += 1
            world = self.info.sample(rng)
            rollout_seed = rng.getrandbits(64)
            rewards: list[tuple[float, float]] = []
            for move in moves:
                # a world half played would pair some moves and not others: drop it whole
                if self.count and (clock() >= self.deadline or _wall() >= self.wall_deadline):
                    return None
                reward = self.judge.play_out(world.clone(), self.seat, move, rollout_seed)
                self.playouts += 1
                if reward is None:
                    break
                rewards.append(reward)
            if len(rewards) == len(moves):
                self.count += 1
                return rewards
            if self.drawn > 4 * self.judge.worlds + 16:
                raise PotluckError(
                    f"the moves compared are seldom legal in seat {self.seat}'s worlds"
                )
