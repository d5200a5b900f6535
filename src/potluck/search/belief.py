"""Worlds a table of greedy bots could have made (``improve:belief=greedy``).

A seat's information set is drawn (``Game.redeal``) as if the other seats' moves
told nothing: every unseen card is dealt at random. Against the default greedy bots
that is a poor guess, since a greedy bot's moves follow from its cards: in
FoodAdvice a seat that has already kept its three ingredients (sealed, in seat
order) holds the three the greedy bot keeps of its six, not three drawn at random,
and a seat that passed in the exchange holds a hand on which the greedy bot passes.

This is a particle filter with the greedy bot as the model of the other seats:

1. At each of its decisions (forced ones too) the seat keeps ``particles`` worlds,
   drawn the way that decision drew its worlds, its own move played in them.
2. At its next decision each kept world is played on, by as many actions as the
   real game has had since (``InformationSet.moves``, a count every seat sees), with
   every other seat playing the greedy bot's move.
3. A world is kept only where the seat's own view at the end equals the view it
   really has (a greedy seat there made the moves the seat saw). The kept worlds
   are the decision's worlds, each with its future chance reseeded; where fewer
   than ``least`` survive (new cards dealt in the open, a move a greedy seat would
   not have made), the decision draws from the information set as before.

Only the seat's own views and worlds drawn from its information sets are read;
the true state's history (other seats' sealed choices) never is. What it cannot
do: a kept world's decks keep the order it was drawn with, so the chance a
decision's worlds differ by is partly the reseeded generator's only; and a seat
that is not a greedy bot makes most worlds fail, and the seat's decisions fall
back to the information set.

    >>> import random, potluck
    >>> from potluck.search.information import InformationSet
    >>> game = potluck.load_game("food-advice")
    >>> belief = GreedyBelief(game, particles=4)
    >>> state = game.new_game(4, seed=3)
    >>> info = belief.information(InformationSet(game, state, 0), "doc")
    >>> info.view() == game.view(state, 0)
    True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from potluck.engine.action import Action
from potluck.engine.bots import Bot, bot_input
from potluck.engine.game import Game
from potluck.engine.state import State
from potluck.search.information import InformationSet

__all__ = ["GreedyBelief", "ParticleInformation"]

#: The most actions kept worlds are played on between two decisions of the seat (a
#: longer gap is a new game, or a seat the bot was lent to once: the worlds are dropped).
_MOST_STEPS = 60


class ParticleInformation(InformationSet):
    """A seat's information set whose worlds are drawn from kept worlds (particles)
    that the seat cannot tell from the true state, instead of from ``Game.redeal``."""

    __slots__ = ("_next", "_particles")

    def __init__(self, info: InformationSet, particles: list[State]) -> None:
        # the same seat of the same game: its view and move count stay the real ones
        super().__init__(info._game, info._state, info.seat)
        self._particles = particles
        self._next = 0

    @property
    def particles(self) -> int:
        """How many distinct worlds this information set draws from."""
        return len(self._particles)

    def sample(self, rng: random.Random) -> State:
        """The next kept world in turn (each is drawn once before any is drawn again,
        so that the worlds a decision compares on are as many distinct ones as there
        are), its future chance reseeded from ``rng``."""
        kept = self._particles[self._next % len(self._particles)]
        self._next += 1
        world = kept.clone()
        world.seed_rng(rng.getrandbits(64))
        return world


@dataclass
class _Memory:
    """What one seat keeps between its decisions: the game's move count its kept worlds
    reached, and the worlds (its own move played in them)."""

    moves: int = -1
    worlds: list[State] = field(default_factory=list)


class GreedyBelief:
    """Per seat, the worlds kept at its last decision, filtered by what greedy other
    seats would have shown it since."""

    def __init__(
        self,
        game: Game[Any, Any],
        policy: Bot | str = "greedy",
        particles: int = 64,
        least: int = 8,
    ) -> None:
        from potluck.judge import policy_bot  # the judge imports the search package

        self.game = game
        self.policy: Bot = (
            policy_bot(game, policy, "the belief's policy") if isinstance(policy, str) else policy
        )
        self.particles = particles
        self.least = least
        self._memory: dict[int, _Memory] = {}
        #: Kept worlds played on and still consistent at the last decision, of how many.
        self.last_kept: tuple[int, int] = (0, 0)

    def information(self, info: InformationSet, seed: str) -> InformationSet:
        """The information set a decision draws its worlds from: the kept worlds that
        greedy play has brought to the seat's real view, if at least ``least`` did;
        else ``info`` itself."""
        memory = self._memory.get(info.seat)
        moves = info.moves
        self.last_kept = (0, 0)
        if memory is None or not memory.worlds:
            return info
        steps = moves - memory.moves
        if steps < 0 or steps > _MOST_STEPS:
            return info
        real = info.view()
        consistent: list[State] = []
        for number, kept in enumerate(memory.worlds):
            world = self._played_on(kept, info.seat, steps, f"{seed}:belief:{number}")
            if world is not None and self.game.view(world, info.seat) == real:
                consistent.append(world)
        self.last_kept = (len(consistent), len(memory.worlds))
        if len(consistent) < self.least:
            return info
        return ParticleInformation(info, consistent)

    def remember(self, info: InformationSet, move: Action, seed: str) -> None:
        """Keep ``particles`` worlds drawn from ``info`` (the decision's own information
        set, filtered or not) with ``move``, the seat's choice, played in them."""
        kept = info.samples_after(move, self.particles, f"{seed}:keep")
        self._memory[info.seat] = _Memory(moves=info.moves + 1, worlds=kept)

    def _played_on(self, kept: State, seat: int, steps: int, seed: str) -> State | None:
        """``kept`` played on by ``steps`` actions, every other seat greedy; ``None``
        where it is the seat's own turn (or the end) before then: the world went
        otherwise than the real game."""
        if steps == 0:
            return kept
        game, bot = self.game, self.policy
        world = kept.clone()
        rng = random.Random(seed)
        for _ in range(steps):
            acting = [s for s in world.acting if s != seat]
            if not acting:
                return None
            mover = acting[0]
            legal = game.legal_actions(world, mover)
            if len(legal) == 1:
                action = legal[0]
            else:
                action = bot.choose(game, bot_input(bot, game, world, mover), mover, legal, rng)
            game.step_legal(world, mover, action)
        return world
