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
from dataclasses import dataclass
from typing import Any, ClassVar

from potluck.engine.action import Action
from potluck.engine.botspec import BotParam
from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.engine.state import State
from potluck.search.information import DecidesFromInformationSets, InformationSet
from potluck.search.paired import compare_root
from potluck.search.presets import board_filter
from potluck.search.tree import SearchSettings, TreeSearch
from potluck.search.value import has_model


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


class ISMCTSBot(DecidesFromInformationSets):
    """Information-set MCTS: a generic search bot for every game.

    Budget: ``sims`` simulations per decision, ``time`` wall-clock seconds per decision, or
    both (it stops at whichever comes first; ``sims=0`` leaves only the time).
    """

    name = "ismcts"
    needs_view = False
    #: The spec it was built from, as written (``make_agent`` sets it).
    spec = "ismcts"
    params: ClassVar[tuple[BotParam, ...]] = (
        BotParam("sims", int, 300, "simulations per decision (0: only the time budget)", low=0),
        BotParam("time", float, 0.0, "wall-clock seconds a decision (0: sims only)", low=0),
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
            "greedy rollouts: greedy (the game's hand-set weights), greedy-tuned (its "
            "tuned weights) or greedy-thrifty (Belly Battle: greedy with the sales it "
            "leaves out); the other seats are always modelled by greedy",
            choices=("greedy", "greedy-tuned", "greedy-thrifty"),
        ),
        BotParam(
            "guide_reserve",
            int,
            -1,
            "the guide's cash reserve (its reserve weight, in a game whose greedy bot has "
            "one: Belly Battle), for the searching seat's prior move and rollout moves only "
            "(-1: the guide's own)",
            low=-1,
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
        BotParam(
            "focus",
            str,
            "all",
            "with root=compare, which root moves are compared: all, or board (Belly "
            "Battle: outside a debt, no sale to the bank or offer but the guide's own; a "
            "decision left with the guide's move alone is not searched)",
            choices=("all", "board"),
        ),
        BotParam(
            "verify",
            int,
            0,
            "with root=compare and prior=greedy, fresh worlds on which a move chosen over "
            "the greedy move is played again beside it before it is played, every seat "
            "then played by the greedy bot and scored by the win share: it is played "
            "only if it still leads there by verify_confidence standard errors (0: no check)",
            low=0,
        ),
        BotParam(
            "verify_horizon",
            int,
            0,
            "with verify, the turns (Game.progress) the checking playouts run before the "
            "game's own win chances (Game.win_chances) score them (0: to the end)",
            low=0,
        ),
        BotParam(
            "verify_confidence",
            float,
            0.0,
            "with verify, the standard errors by which the checked move must still lead "
            "the greedy move on the fresh worlds (0: any lead)",
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
        guide_reserve: int = -1,
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
        focus: str = "all",
        verify: int = 0,
        verify_horizon: int = 0,
        verify_confidence: float = 0.0,
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
        self.guide_reserve = guide_reserve
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
        self.focus = focus
        self.verify = verify
        self.verify_horizon = verify_horizon
        self.verify_confidence = verify_confidence
        #: Simulations run over the bot's life (benchmarks read it).
        self.simulations_run = 0
        self._fallback: ISMCTSBot | None = None

    def __repr__(self) -> str:
        return (
            f"ISMCTSBot(sims={self.sims}, time={self.time}, uct_c={self.uct_c}, "
            f"rollout={self.rollout!r}, epsilon={self.epsilon}, prior={self.prior!r}, "
            f"guide={self.guide!r}, guide_reserve={self.guide_reserve}, "
            f"prior_weight={self.prior_weight}, depth={self.depth}, horizon={self.horizon}, "
            f"cutoff={self.cutoff!r}, "
            f"reward={self.reward!r}, widening={self.widening}, scale={self.scale}, "
            f"root={self.root!r}, candidates={self.candidates}, confidence={self.confidence}, "
            f"focus={self.focus!r}, "
            f"verify={self.verify}, verify_horizon={self.verify_horizon}, "
            f"verify_confidence={self.verify_confidence})"
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
        search = self.tree(game, info.seat, rng)
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
        root = search.root_statistics()
        estimates = []
        for action in legal:
            edge = root.get(action.index)
            if edge is None:
                estimates.append(ActionEstimate(action, 0, 0.0))
            else:
                visits, total = edge
                estimates.append(ActionEstimate(action, visits, total / visits))
        best = max(estimates, key=lambda e: (e.visits, e.value)).action
        return SearchResult(best, tuple(estimates), done, clock() - start)

    def tree(self, game: Game[Any, Any], seat: int, rng: random.Random) -> TreeSearch:
        """A new tree for one decision of ``seat``, searched with this bot's settings."""
        settings = SearchSettings(
            uct_c=self.uct_c,
            rollout=self.rollout,
            epsilon=self.epsilon,
            prior=self.prior,
            guide=self.guide_spec(),
            prior_weight=self.prior_weight,
            depth=self.depth,
            horizon=self.horizon,
            cutoff=self.cutoff,
            reward=self.reward,
            widening=self.widening,
            scale=self.scale,
        )
        return TreeSearch(settings, game, seat, rng)

    def guide_spec(self) -> str:
        """The guide as the search builds it: its name, with its reserve where
        ``guide_reserve`` sets one (``presets.guide_factory`` reads the spec).

            >>> ISMCTSBot(guide="greedy-thrifty", guide_reserve=0).guide_spec()
            'greedy-thrifty:reserve=0'
        """
        if self.guide_reserve < 0:
            return self.guide
        return f"{self.guide}:reserve={self.guide_reserve}"

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
        search: TreeSearch,
        info: InformationSet,
        legal: list[Action],
        rng: random.Random,
        start: float,
        deadline: float,
    ) -> SearchResult:
        """``root=compare``: root moves compared on common worlds (``search.paired``)."""
        game = search.game
        if self.verify and self.verify_horizon and type(game).win_chances is Game.win_chances:
            # refused at every decision, not only at the first departure to check
            raise PotluckError(
                f"verify_horizon: {game.title} gives no win chances to score a check cut short"
            )
        first = info.sample(rng)
        favourite = None
        if search.use_prior:  # the greedy bot reads the first world's view: the seat's
            favourite = search.greedy_move(
                first, info.seat, legal, random.Random(rng.getrandbits(64))
            )
        moves = list(legal)
        if self.focus == "board":
            keep = board_filter(game)
            if keep is None:
                raise PotluckError(f"focus=board: {game.title} has no filter of its root moves")
            moves = keep(moves, favourite)
            if len(moves) == 1:  # the guide's move alone: nothing to compare
                only = ActionEstimate(moves[0], 0, 0.0)
                return SearchResult(moves[0], (only,), 0, time.perf_counter() - start)
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
        checked = 0
        if self.verify and favourite is not None and best != favourite:
            best, checked = self._verified(search, info, best, favourite, rng, deadline)
        estimates = []
        done = checked
        found = {id(action): rewards for action, rewards in played}
        for action in legal:
            rewards = found.get(id(action), [])
            done += len(rewards)
            value = sum(rewards) / len(rewards) if rewards else 0.0
            estimates.append(ActionEstimate(action, len(rewards), value))
        self.simulations_run += done
        return SearchResult(best, tuple(estimates), done, time.perf_counter() - start)

    def _verified(
        self,
        search: TreeSearch,
        info: InformationSet,
        best: Action,
        favourite: Action,
        rng: random.Random,
        deadline: float,
    ) -> tuple[Action, int]:
        """``verify``: the move the comparison chose over the greedy move, or the greedy
        move if fresh worlds do not confirm it, and the playouts that took.

        The comparison picks its best of many moves on the worlds that also measured
        them, so its lead over the greedy move is biased upwards (the winner's curse,
        worse the more moves and the fewer worlds); worlds it never saw are not. They
        are played as the game goes on under greedy play and scored by the win share
        (or the game's win chances after ``verify_horizon`` turns), not by the
        comparison's own reward, so a move that only looked better by what a short
        playout is scored by is kept out too."""
        settings = SearchSettings(
            uct_c=self.uct_c,
            rollout="greedy",
            epsilon=0.0,
            prior="none",
            guide=self.guide_spec(),
            prior_weight=self.prior_weight,
            depth=self.depth if self.verify_horizon else 0,
            horizon=self.verify_horizon,
            cutoff="fitted" if self.verify_horizon else "leader",
            reward="win",
            widening=self.widening,
            scale=self.scale,
        )
        judge = TreeSearch(settings, search.game, info.seat, rng)
        checked, played = compare_root(
            lambda: info.sample(rng),
            lambda world: world.clone(),
            judge.playout,
            [favourite, best],
            favourite,
            budget=2 * self.verify,
            rng=rng,
            deadline=deadline,
            confidence=self.verify_confidence,
        )
        return checked, sum(len(rewards) for _, rewards in played)
