"""The tree of one ``ismcts`` decision and the simulations that grow it (compiled).

``potluck.search.ismcts`` holds the bot (its parameters, budgets and reports); this
module is its hot loop, which mypyc compiles with the rules (``potluck.native`` lists
it): walking the tree on a drawn world, adding an edge, rolling out and scoring. It is
plain classes and functions so that it compiles: :class:`TreeSearch` is made from the
bot's settings (:class:`SearchSettings`) and never copied or subclassed.

The tree is the multiple-observer form of Cowling, Powley and Whitehouse (2012): a
decision of seat ``p`` is keyed by what ``p`` has observed since the root (a hash
chain of the moves it saw), one table of nodes a seat. A move made in a sealed
simultaneous step is seen by the other seats only as "seat q chose something".

    >>> import random, potluck
    >>> game = potluck.load_game("cafe-carnage")
    >>> state = game.new_game(4, seed=3)
    >>> from potluck.search.ismcts import ISMCTSBot
    >>> search = ISMCTSBot().tree(game, 0, random.Random(1))
    >>> for _ in range(20):
    ...     search.simulate(game.redeal(state, 0, random.Random(2)))
    >>> sum(visits for visits, total in search.root_statistics().values())
    20
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from potluck.engine.action import Action
from potluck.engine.bots import view_reader
from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.engine.state import State
from potluck.search.presets import guide_factory
from potluck.search.rewards import margin_rewards, soft_shares, win_rewards
from potluck.search.value import ValueModel, load_model

__all__ = ["Edge", "Node", "SearchSettings", "TreeSearch"]

#: How an observation token is built: a visible move is ``seat * SPAN + index``;
#: a sealed move another seat made is ``-1 - seat`` (who chose, not what).
SPAN = 1 << 32


class SearchSettings:
    """What the tree search reads of the bot's parameters: ``ISMCTSBot.tree`` passes its
    own, the one place their defaults are written."""

    def __init__(
        self,
        *,
        uct_c: float,
        rollout: str,
        epsilon: float,
        prior: str,
        guide: str,
        prior_weight: float,
        depth: int,
        horizon: int,
        cutoff: str,
        reward: str,
        widening: float,
        scale: float,
    ) -> None:
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


class Edge:
    """One move's statistics at a node: visits, the total reward of the seat that chose
    it, and availability (how often it was legal when its node was visited)."""

    def __init__(self, action: Action, index: int) -> None:
        self.action = action
        self.index = index
        self.visits = 0
        self.total = 0.0
        self.avail = 1


class Node:
    """A seat's decision as it observed the game: its edges by action index, its visits,
    and (with ``prior=greedy``) the prior's move there (-1 until asked)."""

    def __init__(self) -> None:
        self.edges: dict[int, Edge] = {}
        self.visits = 0
        self.favourite = -1


class TreeSearch:
    """The tree of one decision of ``seat`` and the simulations that grow it."""

    def __init__(
        self, settings: SearchSettings, game: Game[Any, Any], seat: int, rng: random.Random
    ) -> None:
        self.settings = settings
        self.game = game
        self.seat = seat
        self.rng = rng
        #: Per seat: hash of what it observed since the root -> its node.
        self.nodes: dict[int, dict[int, Node]] = {}
        self.uct_c = settings.uct_c
        self.widening = settings.widening
        self.prior_weight = settings.prior_weight
        self.epsilon = settings.epsilon
        self.greedy: Any = None
        self.others: Any = None
        self.read_greedy: Callable[[Any, int], Any] | None = None
        self.read_others: Callable[[Any, int], Any] | None = None
        if settings.rollout == "greedy" or settings.prior == "greedy":
            factory = guide_factory(game, settings.guide)
            if factory is None:
                # (the guide's name alone: its spec may carry a reserve the game's defaults set)
                name = settings.guide.partition(":")[0]
                raise PotluckError(f"{game.title} has no {name} bot to guide the search")
            self.greedy = factory()
            # The other seats are modelled as the game's own greedy bot plays, whichever
            # bot guides the searching seat's own moves.
            plain = game.bots().get("greedy")
            self.others = (
                plain() if settings.guide != "greedy" and plain is not None else self.greedy
            )
            self.read_greedy = view_reader(self.greedy, game)
            self.read_others = view_reader(self.others, game)
        self.greedy_rollouts = settings.rollout == "greedy"
        #: With prior=greedy, the greedy bot's move is asked at the root and at nodes
        #: reached a second time (in the first world that got there; worlds differ, the
        #: head start fades).
        self.use_prior = settings.prior == "greedy"
        self.scale = settings.scale
        self.margin = settings.reward == "margin"
        self.soft_cutoff = settings.cutoff == "soft" and settings.reward == "win"
        self.fitted_cutoff = settings.cutoff == "fitted"
        if self.fitted_cutoff and type(game).win_chances is Game.win_chances:
            raise PotluckError(f"cutoff=fitted: {game.title} gives no win chances to cut by")
        #: With cutoff=model: the game's value model (loaded with the first world's size).
        self.value_model: ValueModel | None = None
        self.model_cutoff = settings.cutoff == "model"
        # Cut rollouts short only where the game can score an unfinished world.
        scored = (
            type(game).standings is not Game.standings or self.fitted_cutoff or self.model_cutoff
        )
        self.depth = settings.depth if scored else 0
        self.no_rollout = settings.rollout == "none"
        if self.no_rollout and not scored:
            raise PotluckError(f"rollout=none: {game.title} cannot score an unfinished world")
        #: With a horizon: the game's clock at which rollouts stop (``mark_root``).
        self.until: int | None = None
        self.horizon = settings.horizon if self.depth and settings.horizon else 0

    def rewards(self, scores: tuple[float, ...], winners: tuple[int, ...]) -> list[float]:
        """Every seat's reward for final ``scores`` (the bot's ``reward``)."""
        if self.margin:
            return margin_rewards(scores, self.scale)
        return win_rewards(scores, winners)

    def root_statistics(self) -> dict[int, tuple[int, float]]:
        """The root's edges: action index -> (visits, total reward of the deciding seat)."""
        root = self.nodes.get(self.seat, {}).get(0)
        if root is None:
            return {}
        return {index: (edge.visits, edge.total) for index, edge in root.edges.items()}

    def simulate(self, world: State) -> None:
        """One simulation on ``world`` (a state the search may change in place)."""
        game, rng, nodes = self.game, self.rng, self.nodes
        uct_c, widening = self.uct_c, self.widening
        players = world.num_players
        seen = [0] * players  # per seat: hash of what it observed since the root
        movers: list[int] = []
        edges: list[Edge] = []
        expanded = False
        me = self.seat
        seat = me  # the deciding seat moves first, even among several to act
        self.mark_root(world)
        acting = world.acting
        while acting and not expanded:
            if seat not in acting:
                seat = acting[0]
            legal = game.legal_actions(world, seat)
            indices = [action.index for action in legal]
            table = nodes.get(seat)
            if table is None:
                table = nodes[seat] = {}
            key = seen[seat]
            node = table.get(key)
            if node is None:
                node = table[key] = Node()
            node.visits += 1
            visits = node.visits
            favourite = -1
            # The prior is asked at the root and at nodes reached a second time: most
            # nodes are leaves reached once, and the greedy bot can cost milliseconds.
            if self.use_prior and len(legal) > 1 and (visits > 1 or (seat == me and key == 0)):
                favourite = node.favourite
                if favourite < 0:
                    favourite = node.favourite = self.greedy_move(world, seat, legal, rng).index
            edge = self.select(node, legal, indices, visits, uct_c, widening, favourite)
            if edge is None:  # a new edge: add it, then roll out
                known = node.edges
                fresh = [i for i in range(len(legal)) if indices[i] not in known]
                chosen = -1
                for i in fresh:
                    if indices[i] == favourite:
                        chosen = i
                        break
                if chosen < 0:
                    chosen = fresh[int(rng.random() * len(fresh))]
                edge = known[indices[chosen]] = Edge(legal[chosen], indices[chosen])
                expanded = True
            movers.append(seat)
            edges.append(edge)
            sealed = len(acting) > 1
            game.step_legal(world, seat, edge.action)
            if sealed:
                masked = -1 - seat
                visible = seat * SPAN + edge.index
                for q in range(players):
                    seen[q] = hash((seen[q], visible if q == seat else masked))
            else:
                token = seat * SPAN + edge.index
                for q in range(players):
                    seen[q] = hash((seen[q], token))
            acting = world.acting
            if acting:
                seat = acting[0]
        if acting:
            self.rollout(world, rng)
        rewards = self.score(world)
        for i in range(len(edges)):
            edge = edges[i]
            edge.visits += 1
            edge.total += rewards[movers[i]]

    def select(
        self,
        node: Node,
        legal: list[Action],
        indices: list[int],
        visits: int,
        uct_c: float,
        widening: float,
        favourite: int,
    ) -> Edge | None:
        """The edge UCB prefers among the legal ones, or ``None`` to add a new one.

        ``favourite`` (an action index, or -1) is the prior's move: it is tried
        first and its score gets ``prior_weight / (visits + 1)`` on top."""
        table = node.edges
        known: list[Edge] = []
        for index in indices:
            found = table.get(index)
            if found is not None:
                found.avail += 1
                known.append(found)
        count = len(legal)
        if len(known) < count:
            allowed = float(count) if widening <= 0 else 2.0 * visits**widening
            if len(known) < allowed:
                return None
        if favourite >= 0 and favourite not in table and favourite in indices:
            return None  # the prior's move is added before any other
        best = known[0]
        best_score = -math.inf
        bias = self.prior_weight
        for edge in known:
            n = edge.visits
            if n == 0:
                return edge
            score = edge.total / n + uct_c * math.sqrt(math.log(edge.avail) / n)
            if edge.index == favourite:
                score += bias / (n + 1)
            if score > best_score:
                best = edge
                best_score = score
        return best

    def greedy_move(
        self, world: State, seat: int, legal: list[Action], rng: random.Random
    ) -> Action:
        """The game's greedy bot's move for ``seat`` in ``world`` (it reads the world's view)."""
        if seat == self.seat:
            bot, read = self.greedy, self.read_greedy
        else:
            bot, read = self.others, self.read_others
        view = None if read is None else read(world, seat)
        action: Action = bot.choose(self.game, view, seat, legal, rng)
        return action

    def playout(self, world: State, action: Action, rng: random.Random) -> float | None:
        """The deciding seat's reward for playing ``action`` in ``world`` and rolling out
        the rest with ``rng`` (``root=compare``; ``world`` is changed in place);
        ``None`` if the move is not legal in that world."""
        index = action.index
        mine: Action | None = None
        for candidate in self.game.legal_actions(world, self.seat):
            if candidate.index == index:
                mine = candidate
                break
        if mine is None:
            return None
        self.mark_root(world)
        self.game.step_legal(world, self.seat, mine)
        if world.acting:
            self.rollout(world, rng)
        return self.score(world)[self.seat]

    def score(self, world: State) -> list[float]:
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
            if self.soft_cutoff:
                return soft_shares(scores, self.scale)
            top = max(scores)
            winners = tuple([s for s in range(len(scores)) if scores[s] == top])
            return self.rewards(scores, winners)
        outcome = self.game.outcome(world)
        return self.rewards(outcome.scores, outcome.winners)

    def mark_root(self, world: State) -> None:
        """With a horizon, the game's clock at which rollouts stop (read once: every
        world of one decision is at the root's point of the game)."""
        if self.horizon and self.until is None:
            now = self.game.progress(world)
            self.until = None if now is None else now + self.horizon

    def rollout(self, world: State, rng: random.Random) -> None:
        """Play ``world`` on from a new leaf: random moves, or the greedy bots' (with
        chance ``epsilon`` a random one), until the end, ``depth`` moves or the horizon."""
        if self.no_rollout:
            return
        game = self.game
        left = self.depth if self.depth > 0 else -1
        until = self.until
        if until is not None and (game.progress(world) or 0) >= until:
            return
        acting = world.acting
        if self.greedy_rollouts:
            epsilon = self.epsilon
            while acting and left != 0:
                seat = acting[0]
                legal = game.legal_actions(world, seat)
                if len(legal) == 1:
                    action = legal[0]
                elif rng.random() < epsilon:
                    action = legal[int(rng.random() * len(legal))]
                else:
                    action = self.greedy_move(world, seat, legal, rng)
                game.step_legal(world, seat, action)
                acting = world.acting
                left -= 1
                if until is not None and (game.progress(world) or 0) >= until:
                    return
            return
        while acting and left != 0:
            seat = acting[0]
            legal = game.legal_actions(world, seat)
            game.step_legal(world, seat, legal[int(rng.random() * len(legal))])
            acting = world.acting
            left -= 1
            if until is not None and (game.progress(world) or 0) >= until:
                return
