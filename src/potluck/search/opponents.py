"""How greedily the other seats play, learned from what one seat sees (``improve:others=adaptive``).

The policy-improvement bot's playouts need a model of the other seats. Assuming
they are the greedy bot is right at a table of greedy bots and wrong against a
random seat or another search. This model learns, per other seat, the share of
its decisions on which it plays the greedy bot's move, from the seat's own
information alone:

1. At each of its decisions the seat keeps a few worlds drawn from its
   information set, with its own chosen move played in them.
2. At its next decision it plays each kept world on to the same number of moves
   as the real game has now, once with every other seat playing the greedy bot's
   move (the *greedy* line) and, for each other seat ``p``, once with ``p``
   playing a random non-greedy move instead (``p``'s *deviant* line); both lines
   share the world and the greedy bot's generator (common random numbers).
3. It compares the seat's own view at the end of each line with the view it
   really has now (the leaves of the two JSON views, counted equal or not). Where
   ``p``'s two lines end in different views, ``p``'s choice showed; if the greedy
   line matches the real view better, that is a vote that ``p`` played greedily,
   if the deviant line does, a vote that it did not.
4. Seat ``p``'s greedy share is ``(prior + greedy votes) / (prior + all votes)``
   (``prior`` votes for greedy to start with, so at a table of greedy bots the
   model stays near the greedy bot, and a few unlucky worlds do not move it far).

In the playouts, seat ``p`` then plays the greedy bot's move with that
probability and a uniformly random legal move otherwise.

Only the seat's views and worlds drawn from its information sets are read (the
true state's history, which holds other seats' sealed choices, is never read;
``InformationSet.moves`` gives only how many actions the game has had). The
votes are noisy: a kept world's hidden cards are a guess, so the greedy bot in a
world may choose otherwise than the real greedy seat would; a real greedy seat
therefore collects some "not greedy" votes too, which the prior outweighs only
for a while (docs/bots.md, "A model of the other seats").

    >>> import random, potluck
    >>> from potluck.search.information import InformationSet
    >>> game = potluck.load_game("burger-joint")
    >>> model = OpponentModel(game, "greedy", worlds=2, prior=8)
    >>> state = game.new_game(2, seed=4)
    >>> model.shares(InformationSet(game, state, 0), "doc")
    (1.0, 1.0)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from potluck.engine.action import Action
from potluck.engine.bots import Bot, bot_input
from potluck.engine.game import Game
from potluck.engine.state import State
from potluck.search.information import InformationSet

__all__ = ["OpponentModel", "SeatMemory", "view_leaves"]

#: The most actions a kept world is played on between two decisions of the seat (a
#: longer gap is a new game or a seat the bot was lent to once: the worlds are dropped).
_MOST_STEPS = 200

#: The least gap between a greedy seat's and a random seat's greedy-vote rates for
#: the votes to say anything (below it the model keeps the seat greedy).
_LEAST_GAP = 0.1


@dataclass
class SeatMemory:
    """What one seat keeps between its decisions: the worlds it drew (its own move
    played in them), the game's move count they reached, and each seat's votes."""

    moves: int = -1
    worlds: list[State] = field(default_factory=list)
    #: Per other seat: the votes of the real game, and those a greedy seat and a random
    #: one would have drawn (other kept worlds taken as the real game), per world.
    observed: dict[int, Votes] = field(default_factory=dict)
    if_greedy: dict[int, Votes] = field(default_factory=dict)
    if_random: dict[int, Votes] = field(default_factory=dict)


@dataclass
class Votes:
    """Votes that a seat played greedily (``greedy``) or not (``other``)."""

    greedy: float = 0.0
    other: float = 0.0

    def add(self, vote: int) -> None:
        if vote > 0:
            self.greedy += 1
        elif vote < 0:
            self.other += 1

    def merge(self, votes: Votes) -> None:
        self.greedy += votes.greedy
        self.other += votes.other

    def normalised(self) -> Votes:
        """These votes scaled to one a world (pairs of worlds count ``worlds - 1`` each)."""
        total = self.greedy + self.other
        return Votes() if total == 0 else Votes(self.greedy / total, self.other / total)

    def rate(self, prior: float = 0.0, prior_rate: float = 0.5) -> float:
        """The share of greedy votes, with ``prior`` votes at ``prior_rate`` added."""
        total = self.greedy + self.other + prior
        return prior_rate if total == 0 else (self.greedy + prior * prior_rate) / total


class OpponentModel:
    """Per other seat, the share of its decisions on which it plays ``policy``'s move.

    One model serves every seat a bot plays (its memories are per seat); a game
    whose move count goes back, or a different game, starts the seat afresh.
    """

    def __init__(
        self, game: Game[Any, Any], policy: Bot | str, worlds: int = 6, prior: float = 8.0
    ) -> None:
        from potluck.judge import policy_bot  # the judge imports this module

        self.game = game
        self.policy: Bot = (
            policy_bot(game, policy, "the model's policy") if isinstance(policy, str) else policy
        )
        self.worlds = worlds
        self.prior = prior
        self._memory: dict[int, SeatMemory] = {}

    def shares(self, info: InformationSet, seed: str) -> tuple[float, ...]:
        """Every seat's greedy share as the seat ``info`` is for sees it now (its own
        is 1.0), after counting the votes of the worlds it kept at its last decision."""
        memory = self._memory.get(info.seat)
        moves = info.moves
        if memory is None or moves < memory.moves or moves - memory.moves > _MOST_STEPS:
            memory = self._memory[info.seat] = SeatMemory(moves=moves)
        elif memory.worlds and moves > memory.moves:
            self._vote(memory, info, moves, seed)
        memory.worlds = []
        return tuple(
            1.0 if seat == info.seat else self.share(memory, seat)
            for seat in range(info.num_players)
        )

    def share(self, memory: SeatMemory, seat: int) -> float:
        """Seat ``seat``'s greedy share: where its observed greedy-vote rate lies between
        a random seat's and a greedy seat's (each estimated from the kept worlds), the
        observed rate starting at the greedy seat's with ``prior`` votes."""
        if seat not in memory.observed:
            return 1.0
        greedy = memory.if_greedy[seat].rate()
        random_ = memory.if_random[seat].rate()
        observed = memory.observed[seat].rate(self.prior, greedy)
        if greedy - random_ < _LEAST_GAP:
            return 1.0  # the worlds cannot tell a greedy seat from a random one yet
        return min(1.0, max(0.0, (observed - random_) / (greedy - random_)))

    def remember(self, info: InformationSet, move: Action, seed: str) -> None:
        """Keep worlds of the seat's information set with ``move`` (its choice) played."""
        memory = self._memory.setdefault(info.seat, SeatMemory(moves=info.moves))
        memory.worlds = info.samples_after(move, self.worlds, f"{seed}:kept")
        memory.moves = info.moves + 1

    # ------------------------------------------------------------------ voting

    def _vote(self, memory: SeatMemory, info: InformationSet, moves: int, seed: str) -> None:
        real = dict(view_leaves(info.view()))
        steps = moves - memory.moves
        greedy_lines: list[dict[str, Any]] = []
        deviant_lines: list[dict[int, dict[str, Any]]] = []
        for number, world in enumerate(memory.worlds):
            line_seed = f"{seed}:line:{number}"
            greedy_end, deciders = self._line(world, info.seat, steps, line_seed, None)
            greedy_lines.append(greedy_end)
            deviant_lines.append(
                {
                    seat: self._line(world, info.seat, steps, line_seed, seat)[0]
                    for seat in sorted(deciders)
                }
            )
        for seat in range(info.num_players):
            if seat == info.seat:
                continue
            observed = Votes()
            if_greedy = Votes()
            if_random = Votes()
            for i, greedy_end in enumerate(greedy_lines):
                deviant_end = deviant_lines[i].get(seat)
                if deviant_end is None or deviant_end == greedy_end:
                    continue  # the seat had no choice here, or its choice did not show
                observed.add(_vote(real, greedy_end, deviant_end))
                # what a greedy seat, and a random one, would have shown: another kept
                # world's two lines taken as the real game (the worlds are draws from
                # the same information set as the real game is)
                for j, other_greedy in enumerate(greedy_lines):
                    other_deviant = deviant_lines[j].get(seat)
                    if j == i or other_deviant is None:
                        continue
                    if_greedy.add(_vote(other_greedy, greedy_end, deviant_end))
                    if_random.add(_vote(other_deviant, greedy_end, deviant_end))
            memory.observed.setdefault(seat, Votes()).merge(observed)
            memory.if_greedy.setdefault(seat, Votes()).merge(if_greedy.normalised())
            memory.if_random.setdefault(seat, Votes()).merge(if_random.normalised())

    def _line(
        self, kept: State, seat: int, steps: int, seed: str, deviant: int | None
    ) -> tuple[dict[str, Any], set[int]]:
        """The seat's view (as leaves) after ``kept`` is played on ``steps`` actions with
        every other seat greedy but ``deviant`` (a random non-greedy move at each of its
        choices), and the seats that had a choice on the way."""
        game, bot = self.game, self.policy
        world = kept.clone()
        rng = random.Random(seed)
        deviate = random.Random(f"{seed}:deviate")
        deciders: set[int] = set()
        for _ in range(steps):
            acting = [s for s in world.acting if s != seat]
            if not acting:
                break  # the game is over, or it is the seat's turn again in this world
            mover = acting[0]
            legal = game.legal_actions(world, mover)
            if len(legal) == 1:
                action = legal[0]
            else:
                deciders.add(mover)
                action = bot.choose(game, bot_input(bot, game, world, mover), mover, legal, rng)
                if mover == deviant:
                    others = [a for a in legal if a != action]
                    action = others[int(deviate.random() * len(others))]
            game.step_legal(world, mover, action)
        return dict(view_leaves(game.view(world, seat))), deciders


def _vote(real: Mapping[str, Any], greedy: Mapping[str, Any], deviant: Mapping[str, Any]) -> int:
    """+1 if ``greedy``'s leaves match ``real``'s better than ``deviant``'s do, -1 if
    worse, 0 if as well."""
    difference = _matches(real, greedy) - _matches(real, deviant)
    return (difference > 0) - (difference < 0)


def _matches(real: Mapping[str, Any], leaves: Mapping[str, Any]) -> int:
    """How many of ``real``'s leaves ``leaves`` has, equal."""
    return sum(1 for path, value in leaves.items() if real.get(path, _MISSING) == value)


_MISSING = object()


def view_leaves(view: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """A JSON view's leaves with their paths.

    >>> sorted(view_leaves({"a": [1, {"b": 2}], "c": 3}))
    [('/a/0', 1), ('/a/1/b', 2), ('/c', 3)]
    """
    if isinstance(view, Mapping):
        for key, value in view.items():
            yield from view_leaves(value, f"{path}/{key}")
    elif isinstance(view, list | tuple):
        for index, value in enumerate(view):
            yield from view_leaves(value, f"{path}/{index}")
    else:
        yield path, view
