"""Information-set Monte Carlo tree search (ISMCTS) for any Potluck game.

The bot plans on *worlds*: whole game states drawn from its seat's information
set by the game's ``redeal`` (hidden cards, other seats' sealed choices and all
future chance drawn anew). Each simulation draws a world, walks down the search
tree playing the world forward with the engine's in-place ``step``, adds one new
edge, finishes the game with a rollout and credits every seat that chose on the
way with its reward. It uses nothing but the engine's public contract, so it
plays every game.

The tree is the multiple-observer form of Cowling, Powley and Whitehouse (2012):
a decision of seat ``p`` is keyed by what ``p`` has observed since the root, not
by the true sequence of moves. A move made in a sealed simultaneous step (while
several seats are to act) is seen by the other seats only as "seat q chose
something", so a seat that chooses after another one in the same sealed step
cannot tell, in the tree, what that one chose: the search never lets a seat see
or assume another seat's pending sealed choice. Chance outcomes are not part of
the key (each world carries its own generator), which merges situations a seat
could tell apart; that costs precision, never secrecy.

    >>> import random, potluck
    >>> from potluck.agents import decide, make_agent
    >>> game = potluck.load_game("cafe-carnage")
    >>> state = game.new_game(4, seed=3)
    >>> bot = make_agent(game, "ismcts:sims=50")
    >>> action = decide(bot, game, state, 0, random.Random(1))
    >>> action == decide(bot, game, state, 0, random.Random(1))  # reproducible from the seed
    True
"""

from __future__ import annotations

import copy
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from potluck.engine.action import Action
from potluck.engine.bots import bot_input
from potluck.engine.botspec import BotParam
from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.engine.state import State
from potluck.search.information import InformationSet
from potluck.search.paired import compare_root
from potluck.search.presets import guide_factory
from potluck.search.rewards import margin_rewards, soft_shares, win_rewards
from potluck.search.value import ValueModel, has_model, load_model

#: Edge statistics, kept in a small list for speed: visits, total reward of the
#: seat that chose it, availability (how often it was legal when its node was
#: visited), and the action itself.
_VISITS, _TOTAL, _AVAIL, _ACTION = range(4)

#: How an observation token is built: a visible move is ``seat * _SPAN + index``;
#: a sealed move another seat made is ``-1 - seat`` (who chose, not what).
_SPAN = 1 << 32


@dataclass(frozen=True)
class ActionEstimate:
    """What the search learnt about one legal action at the root."""

    action: Action
    visits: int
    #: The deciding seat's mean reward after this action (win share by default).
    value: float


@dataclass(frozen=True)
class SearchResult:
    """The outcome of one search: the chosen action and every root action's estimate.

    ``value`` is the deciding seat's expected reward at the root (with the
    default reward, its chance of winning, ties split), the visit-weighted mean
    over the root's actions.
    """

    best: Action
    estimates: tuple[ActionEstimate, ...]
    simulations: int
    seconds: float

    @property
    def value(self) -> float:
        visits = sum(e.visits for e in self.estimates)
        if not visits:
            return 0.0
        return sum(e.value * e.visits for e in self.estimates) / visits

    def estimate(self, action: Action) -> ActionEstimate | None:
        return next((e for e in self.estimates if e.action == action), None)


class ISMCTSBot:
    """Information-set MCTS: a generic search bot for every game.

    Budget: ``sims`` simulations per decision, ``time`` seconds per decision, or
    both (it stops at whichever comes first; ``sims=0`` leaves only the time).
    """

    name = "ismcts"
    needs_view = False
    #: The spec it was built from, as written (``make_agent`` sets it).
    spec = "ismcts"
    params: ClassVar[tuple[BotParam, ...]] = (
        BotParam("sims", int, 300, "simulations per decision (0: only the time budget)", low=0),
        BotParam("time", float, 0.0, "seconds per decision (0: only the simulations)", low=0),
        BotParam("uct_c", float, 0.7, "exploration constant of the UCB rule", low=0),
        BotParam(
            "rollout",
            str,
            "random",
            "how rollouts play: random moves, or the game's greedy bot for every seat "
            "(a random move with chance epsilon), or none (the new leaf is scored at once "
            "by the cutoff; needs a game that scores unfinished worlds)",
            choices=("random", "greedy", "none"),
        ),
        BotParam(
            "epsilon",
            float,
            0.1,
            "with rollout=greedy, the chance that a rollout move is random instead",
            low=0,
            high=1,
        ),
        BotParam(
            "prior",
            str,
            "none",
            "greedy: the game's greedy bot's move gets a head start at every node "
            "(progressive bias prior_weight/(visits+1)); none: no prior",
            choices=("none", "greedy"),
        ),
        BotParam(
            "guide",
            str,
            "greedy",
            "the bot that names the searching seat's prior move and plays its moves in "
            "greedy rollouts: greedy (the game's hand-set weights) or greedy-tuned (its "
            "tuned weights); the other seats are always modelled by greedy",
            choices=("greedy", "greedy-tuned"),
        ),
        BotParam(
            "prior_weight",
            float,
            1.0,
            "with prior=greedy, the size of the greedy move's head start",
            low=0,
        ),
        BotParam(
            "depth",
            int,
            40,
            "rollout moves before a rollout is cut short and scored by the game's "
            "standings (0: always play to the end; games without standings always do)",
            low=0,
        ),
        BotParam(
            "horizon",
            int,
            0,
            "cut rollouts once the game's clock (Game.progress, e.g. turns) has run this "
            "far from the root, so every root move is scored at the same point of the "
            "game; depth still caps the moves (0: depth alone)",
            low=0,
        ),
        BotParam(
            "cutoff",
            str,
            "leader",
            "how a rollout cut short is scored with reward=win: soft (a share for each "
            "seat that falls off with its gap to the leader), leader (the leaders win), "
            "fitted (the game's own win-chance estimate, Game.win_chances) or model (the "
            "learned value model shipped for the game, each seat scored on its own "
            "observation; potluck.search.value; at a table size with no model, leader "
            "with random rollouts where rollout=none)",
            choices=("soft", "leader", "fitted", "model"),
        ),
        BotParam(
            "reward",
            str,
            "win",
            "win: 1 shared among the winners; margin: score lead over the best other seat",
            choices=("win", "margin"),
        ),
        BotParam(
            "scale",
            float,
            0.0,
            "the score gap that counts as a clear lead, for reward=margin and "
            "cutoff=soft (0: the spread of the scores, which at two seats makes any "
            "lead a full win)",
            low=0,
        ),
        BotParam(
            "widening",
            float,
            0.5,
            "progressive widening exponent: a node visited N times tries at most "
            "2*(N+1)^widening of its actions (0: try every action)",
            low=0,
            high=1,
        ),
        BotParam(
            "root",
            str,
            "tree",
            "tree: the root's moves are searched by the tree; compare: each sampled "
            "world is played out after every root move in the running (common random "
            "numbers), the moves narrowed by successive halving, sims counting playouts",
            choices=("tree", "compare"),
        ),
        BotParam(
            "candidates",
            int,
            8,
            "with root=compare, the most root moves compared (the prior's move and others "
            "drawn at random; 0: every legal move)",
            low=0,
        ),
        BotParam(
            "confidence",
            float,
            1.0,
            "with root=compare and prior=greedy, how many standard errors the best move's "
            "mean paired advantage over the greedy move must exceed for it to be played "
            "instead (0: any advantage)",
            low=0,
        ),
    )

    def __init__(
        self,
        sims: int = 300,
        time: float = 0.0,
        uct_c: float = 0.7,
        rollout: str = "random",
        epsilon: float = 0.1,
        prior: str = "none",
        guide: str = "greedy",
        prior_weight: float = 1.0,
        depth: int = 40,
        horizon: int = 0,
        cutoff: str = "leader",
        reward: str = "win",
        widening: float = 0.5,
        scale: float = 0.0,
        root: str = "tree",
        candidates: int = 8,
        confidence: float = 1.0,
    ) -> None:
        if sims <= 0 and time <= 0:
            raise PotluckError("ismcts needs a budget: sims or time (or both) above 0")
        if cutoff in ("fitted", "model") and reward != "win":
            raise PotluckError(f"cutoff={cutoff} scores worlds by win chances: it needs reward=win")
        self.sims = sims
        self.time = time
        self.uct_c = uct_c
        self.rollout = rollout
        self.epsilon = epsilon
        self.prior = prior
        self.guide = guide
        self.prior_weight = prior_weight
        self.depth = depth
        self.horizon = horizon
        self.cutoff = cutoff
        self.reward = reward
        self.widening = widening
        self.scale = scale
        self.root = root
        self.candidates = candidates
        self.confidence = confidence
        #: Simulations run over the bot's life (benchmarks read it).
        self.simulations_run = 0
        self._fallback: ISMCTSBot | None = None

    def __repr__(self) -> str:
        return (
            f"ISMCTSBot(sims={self.sims}, time={self.time}, uct_c={self.uct_c}, "
            f"rollout={self.rollout!r}, epsilon={self.epsilon}, prior={self.prior!r}, "
            f"guide={self.guide!r}, "
            f"prior_weight={self.prior_weight}, depth={self.depth}, horizon={self.horizon}, "
            f"cutoff={self.cutoff!r}, "
            f"reward={self.reward!r}, widening={self.widening}, scale={self.scale}, "
            f"root={self.root!r}, candidates={self.candidates}, confidence={self.confidence})"
        )

    def choose(
        self,
        game: Game[Any, Any],
        view: Mapping[str, Any] | None,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        raise PotluckError(
            "ismcts plans on worlds drawn from its seat's information set: ask it through "
            "potluck.agents.decide, which hands it one"
        )

    def search(
        self, game: Game[Any, Any], info: InformationSet, legal: list[Action], rng: random.Random
    ) -> Action:
        """The action to take: the root action simulated most often."""
        return self.analyse(game, info, legal, rng).best

    def analyse(
        self, game: Game[Any, Any], info: InformationSet, legal: list[Action], rng: random.Random
    ) -> SearchResult:
        """Search and report every root action's visits and value for the seat."""
        if not legal:
            raise PotluckError("ismcts was asked to choose with no legal action")
        start = time.perf_counter()
        if len(legal) == 1:
            only = ActionEstimate(legal[0], 0, 0.0)
            return SearchResult(legal[0], (only,), 0, time.perf_counter() - start)
        if self.cutoff == "model" and not has_model(game, info.num_players):
            return self.without_model().analyse(game, info, legal, rng)
        search = _Search(self, game, info.seat, rng)
        deadline = start + self.time if self.time > 0 else math.inf
        if self.root == "compare":
            return self._paired(search, info, legal, rng, start, deadline)
        limit = self.sims if self.sims > 0 else math.inf
        done = 0
        clock = time.perf_counter
        while done < limit:
            search.simulate(info.sample(rng))
            done += 1
            self.simulations_run += 1
            if deadline != math.inf and clock() >= deadline:
                break
        root = search.nodes.get((info.seat, 0), {})
        estimates = []
        for action in legal:
            edge = root.get(action.index)
            if edge is None:
                estimates.append(ActionEstimate(action, 0, 0.0))
            else:
                estimates.append(
                    ActionEstimate(action, int(edge[_VISITS]), edge[_TOTAL] / edge[_VISITS])
                )
        best = max(estimates, key=lambda e: (e.visits, e.value)).action
        return SearchResult(best, tuple(estimates), done, clock() - start)

    def without_model(self) -> ISMCTSBot:
        """The search that stands in where ``cutoff=model`` finds no model for the table's
        size: the same parameters with the leader cutoff, and random rollouts where
        ``rollout=none`` (a leaf needs a score the standings alone give poorly).

            >>> bot = ISMCTSBot(cutoff="model", rollout="none", sims=50)
            >>> fallback = bot.without_model()
            >>> (fallback.cutoff, fallback.rollout, fallback.sims)
            ('leader', 'random', 50)
        """
        if self._fallback is None:
            fallback = copy.copy(self)  # every parameter kept, the spec's text too
            fallback.cutoff = "leader"
            if self.rollout == "none":
                fallback.rollout = "random"
            fallback._fallback = None
            self._fallback = fallback
        return self._fallback

    def _paired(
        self,
        search: _Search,
        info: InformationSet,
        legal: list[Action],
        rng: random.Random,
        start: float,
        deadline: float,
    ) -> SearchResult:
        """``root=compare``: root moves compared on common worlds (``search.paired``)."""
        first = info.sample(rng)
        favourite = None
        if search.priors is not None:  # the greedy bot reads the first world's view: the seat's
            favourite = search.greedy_move(
                first, info.seat, legal, random.Random(rng.getrandbits(64))
            )
        moves = list(legal)
        if 0 < self.candidates < len(moves):
            others = [a for a in moves if a != favourite]
            rng.shuffle(others)
            picked = others[: self.candidates - (favourite is not None)]
            moves = [a for a in legal if a == favourite or a in picked]
        pending = [first]  # the first world drawn is the first one played

        def sample() -> State:
            return pending.pop() if pending else info.sample(rng)

        best, played = compare_root(
            sample,
            lambda world: world.clone(),
            search.playout,
            moves,
            favourite,
            budget=self.sims if self.sims > 0 else 1 << 30,
            rng=rng,
            deadline=deadline,
            confidence=self.confidence,
        )
        estimates = []
        done = 0
        found = {id(action): rewards for action, rewards in played}
        for action in legal:
            rewards = found.get(id(action), [])
            done += len(rewards)
            value = sum(rewards) / len(rewards) if rewards else 0.0
            estimates.append(ActionEstimate(action, len(rewards), value))
        self.simulations_run += done
        return SearchResult(best, tuple(estimates), done, time.perf_counter() - start)


class _Search:
    """The tree of one decision and the simulations that grow it."""

    def __init__(self, bot: ISMCTSBot, game: Game[Any, Any], seat: int, rng: random.Random):
        self.bot = bot
        self.game = game
        self.seat = seat
        self.rng = rng
        #: (seat, hash of what it observed since the root) -> {action index: edge}
        self.nodes: dict[tuple[int, int], dict[int, list[Any]]] = {}
        self.node_visits: dict[tuple[int, int], int] = {}
        self.greedy: Any = None
        self.others: Any = None
        if bot.rollout == "greedy" or bot.prior == "greedy":
            factory = guide_factory(game, bot.guide)
            if factory is None:
                raise PotluckError(f"{game.title} has no {bot.guide} bot to guide the search")
            self.greedy = factory()
            # The other seats are modelled as the game's own greedy bot plays, whichever
            # bot guides the searching seat's own moves.
            plain = game.bots().get("greedy")
            self.others = plain() if bot.guide != "greedy" and plain is not None else self.greedy
        self.greedy_rollouts = bot.rollout == "greedy"
        #: With prior=greedy: node -> the index of the greedy bot's move there (in
        #: the first world that reached the node; worlds differ, the head start fades).
        self.priors: dict[tuple[int, int], int] | None = {} if bot.prior == "greedy" else None
        self.scale = bot.scale
        self.rewards: Callable[[tuple[float, ...], tuple[int, ...]], list[float]] = (
            (lambda scores, winners: margin_rewards(scores, self.scale))
            if bot.reward == "margin"
            else win_rewards
        )
        self.soft_cutoff = bot.cutoff == "soft" and bot.reward == "win"
        self.fitted_cutoff = bot.cutoff == "fitted"
        if self.fitted_cutoff and type(game).win_chances is Game.win_chances:
            raise PotluckError(f"cutoff=fitted: {game.title} gives no win chances to cut by")
        #: With cutoff=model: the game's value model (loaded with the first world's size).
        self.value_model: ValueModel | None = None
        self.model_cutoff = bot.cutoff == "model"
        # Cut rollouts short only where the game can score an unfinished world.
        scored = (
            type(game).standings is not Game.standings or self.fitted_cutoff or self.model_cutoff
        )
        self.depth = bot.depth if scored else 0
        self.no_rollout = bot.rollout == "none"
        if self.no_rollout and not scored:
            raise PotluckError(f"rollout=none: {game.title} cannot score an unfinished world")
        #: With a horizon: the game's clock at which rollouts stop (``_mark_root``).
        self.until: int | None = None
        self.horizon = bot.horizon if self.depth and bot.horizon else 0

    def simulate(self, world: State) -> None:
        """One simulation on ``world`` (a state the search may change in place)."""
        game, rng, nodes = self.game, self.rng, self.nodes
        step, legal_actions = game.step, game.legal_actions
        uct_c, widening = self.bot.uct_c, self.bot.widening
        players = world.num_players
        seen = [0] * players  # per seat: hash of what it observed since the root
        path: list[tuple[int, list[Any]]] = []
        expanded = False
        seat = self.seat  # the deciding seat moves first, even among several to act
        root = (seat, 0)
        self._mark_root(world)
        acting = world.acting
        while acting and not expanded:
            if seat not in acting:
                seat = acting[0]
            legal = legal_actions(world, seat)
            key = (seat, seen[seat])
            node = nodes.get(key)
            if node is None:
                node = nodes[key] = {}
            visits = self.node_visits.get(key, 0) + 1
            self.node_visits[key] = visits
            favourite = -1
            # The prior is asked at the root and at nodes reached a second time: most
            # nodes are leaves reached once, and the greedy bot can cost milliseconds.
            if self.priors is not None and len(legal) > 1 and (visits > 1 or key == root):
                favourite = self.priors.get(key, -1)
                if favourite < 0:
                    favourite = self.priors[key] = self.greedy_move(world, seat, legal).index
            edge = self._select(node, legal, visits, uct_c, widening, favourite)
            if edge is None:  # a new edge: add it, then roll out
                fresh = self._unvisited(node, legal)
                known = [a for a in fresh if a.index == favourite]
                action = known[0] if known else fresh[int(rng.random() * len(fresh))]
                edge = node[action.index] = [0, 0.0, 1, action]
                expanded = True
            action = edge[_ACTION]
            path.append((seat, edge))
            sealed = len(acting) > 1
            step(world, seat, action)
            if sealed:
                masked = -1 - seat
                visible = seat * _SPAN + action.index
                for q in range(players):
                    seen[q] = hash((seen[q], visible if q == seat else masked))
            else:
                token = seat * _SPAN + action.index
                for q in range(players):
                    seen[q] = hash((seen[q], token))
            acting = world.acting
            seat = acting[0] if acting else seat
        if acting:
            self._rollout(world)
        rewards = self._score(world)
        for mover, edge in path:
            edge[_VISITS] += 1
            edge[_TOTAL] += rewards[mover]

    def _select(
        self,
        node: dict[int, list[Any]],
        legal: list[Action],
        visits: int,
        uct_c: float,
        widening: float,
        favourite: int = -1,
    ) -> list[Any] | None:
        """The edge UCB prefers among the legal ones, or ``None`` to add a new one.

        ``favourite`` (an action index, or -1) is the prior's move: it is tried
        first and its score gets ``prior_weight / (visits + 1)`` on top."""
        known = []
        for action in legal:
            edge = node.get(action.index)
            if edge is not None:
                edge[_AVAIL] += 1
                known.append(edge)
        if len(known) < len(legal):
            allowed = len(legal) if widening <= 0 else 2.0 * visits**widening
            if len(known) < allowed:
                return None
        if favourite >= 0 and favourite not in node and any(a.index == favourite for a in legal):
            return None  # the prior's move is added before any other
        best, best_score = known[0], -math.inf
        log = math.log
        bias = self.bot.prior_weight
        for edge in known:
            n = edge[_VISITS]
            if n == 0:
                return edge
            score = edge[_TOTAL] / n + uct_c * math.sqrt(log(edge[_AVAIL]) / n)
            if edge[_ACTION].index == favourite:
                score += bias / (n + 1)
            if score > best_score:
                best, best_score = edge, score
        return best

    @staticmethod
    def _unvisited(node: dict[int, list[Any]], legal: list[Action]) -> list[Action]:
        return [action for action in legal if action.index not in node]

    def greedy_move(
        self, world: State, seat: int, legal: list[Action], rng: random.Random | None = None
    ) -> Action:
        """The game's greedy bot's move for ``seat`` in ``world`` (it reads the world's view)."""
        bot = self.greedy if seat == self.seat else self.others
        view = bot_input(bot, self.game, world, seat)
        action: Action = bot.choose(self.game, view, seat, legal, rng or self.rng)
        return action

    def playout(self, world: State, action: Action, rng: random.Random) -> float | None:
        """The deciding seat's reward for playing ``action`` in ``world`` and rolling out
        the rest with ``rng`` (``root=compare``; ``world`` is changed in place);
        ``None`` if the move is not legal in that world."""
        index = action.index
        mine = next(
            (a for a in self.game.legal_actions(world, self.seat) if a.index == index), None
        )
        if mine is None:
            return None
        self._mark_root(world)
        self.game.step_legal(world, self.seat, mine)
        if world.acting:
            self._rollout(world, rng)
        return self._score(world)[self.seat]

    def _score(self, world: State) -> list[float]:
        """Every seat's reward in a world played to its end or cut short."""
        if world.acting and self.model_cutoff:  # cut short: the learned value model
            model = self.value_model
            if model is None:
                model = self.value_model = load_model(self.game, world.num_players)
            return model.world_chances(world)
        if world.acting and self.fitted_cutoff:  # cut short: the game's win chances
            return list(self.game.win_chances(world) or ())
        if world.acting:  # cut short: scored by the game's standings
            scores = self.game.standings(world)
            assert scores is not None
            top = max(scores)
            winners = tuple(s for s, score in enumerate(scores) if score == top)
            if self.soft_cutoff:
                return soft_shares(scores, self.scale)
            return self.rewards(scores, winners)
        outcome = self.game.outcome(world)
        return self.rewards(outcome.scores, outcome.winners)

    def _mark_root(self, world: State) -> None:
        """With a horizon, the game's clock at which rollouts stop (read once: every
        world of one decision is at the root's point of the game)."""
        if self.horizon and self.until is None:
            now = self.game.progress(world)
            self.until = None if now is None else now + self.horizon

    def _rollout(self, world: State, rng: random.Random | None = None) -> None:
        if self.no_rollout:
            return
        rng = rng or self.rng
        game, rand = self.game, rng.random
        step, legal_actions = game.step_legal, game.legal_actions
        left = self.depth if self.depth > 0 else -1
        until, progress = self.until, game.progress
        if until is not None and (progress(world) or 0) >= until:
            return
        acting = world.acting
        if self.greedy_rollouts:
            epsilon = self.bot.epsilon
            while acting and left != 0:
                seat = acting[0]
                legal = legal_actions(world, seat)
                if len(legal) == 1:
                    action = legal[0]
                elif rand() < epsilon:
                    action = legal[int(rand() * len(legal))]
                else:
                    action = self.greedy_move(world, seat, legal, rng)
                step(world, seat, action)
                acting = world.acting
                left -= 1
                if until is not None and (progress(world) or 0) >= until:
                    return
            return
        while acting and left != 0:
            seat = acting[0]
            legal = legal_actions(world, seat)
            step(world, seat, legal[int(rand() * len(legal))])
            acting = world.acting
            left -= 1
            if until is not None and (progress(world) or 0) >= until:
                return
