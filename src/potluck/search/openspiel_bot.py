"""OpenSpiel's ISMCTS as a Potluck bot, and the CPU-timed form of it that the ladders
and the equal-time head-to-heads use.

``openspiel-ismcts`` (``potluck arena ... --agents ismcts,openspiel-ismcts:time=0.2``)
is OpenSpiel's reference ISMCTS (``open_spiel.python.algorithms.ismcts``: UCT with
``uct_c`` 2, one random rollout to the end of the game per leaf) searching a
``potluck_<id>`` OpenSpiel game. It decides, like every search bot, from its
seat's information set only: it searches from a world drawn from it (the game's
``redeal`` is canonical, so every world OpenSpiel's resampler draws from there is
one the seat cannot tell from the true state). Its budget is ``time`` CPU seconds
a decision (``time.process_time``), or ``sims`` simulations. Needs the ``rl``
extra; this module never imports ``potluck.agents``.

    >>> import random, potluck
    >>> from potluck.search.information import DecidesFromInformationSets, InformationSet
    >>> game = potluck.load_game("burger-joint")
    >>> state = game.new_game(2, seed=1)
    >>> seat = state.acting[0]
    >>> bot = OpenSpielISMCTSBot(time=0.0, sims=3)
    >>> legal = game.legal_actions(state, seat)
    >>> bot.search(game, InformationSet(game, state, seat), legal, random.Random(0)) in legal
    True
"""

from __future__ import annotations

import random
import time
from typing import Any, ClassVar

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from potluck.engine.action import Action
from potluck.engine.botspec import BotParam
from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.interop.openspiel import PotluckState, game_name
from potluck.search.information import DecidesFromInformationSets, InformationSet


class _EngineRollouts(mcts.Evaluator):  # type: ignore[misc]
    """Values a state by uniformly random play to the end, on the engine state (with
    the same unchecked ``step_legal`` our rollouts use, so the speed comparison is even)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def evaluate(self, state: PotluckState) -> Any:
        table, world = state.table, state.engine_state.clone()
        game, rand = table.game, self.rng.random
        while world.acting:
            seat = world.acting[0]
            legal = game.legal_actions(world, seat)
            game.step_legal(world, seat, legal[int(rand() * len(legal))])
        return np.array(table.rewards(world))

    def prior(self, state: PotluckState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


class _BudgetSpentError(Exception):
    """Raised inside OpenSpiel's search loop when its CPU budget is spent."""


class TimedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTS bot with a budget of CPU seconds a decision (``seconds``,
    set before each ``step``) instead of a number of simulations.

    OpenSpiel's loop runs a fixed number of simulations; this bot stops it, once the
    budget is spent, where the next world would be drawn (never inside a
    simulation), and then chooses by OpenSpiel's own final policy over the tree it
    has. At least two simulations always run (OpenSpiel's first only
    expands the root)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seconds = 0.0
        self.simulations = 0
        self._deadline = 0.0
        self._ran = 0

    def sample_root_state(self, state: Any) -> Any:
        if self._ran >= 2 and time.process_time() >= self._deadline:
            raise _BudgetSpentError
        self._ran += 1
        return super().sample_root_state(state)

    def run_search(self, state: Any) -> Any:
        self._deadline = time.process_time() + self.seconds
        self._ran = 0
        try:
            return super().run_search(state)
        except _BudgetSpentError:
            node = self._root_node
            if self._allow_inconsistent_action_sets:
                node = self.filter_illegals(node, state.legal_actions())
            return self.get_final_policy(state, node)
        finally:
            self.simulations += self._ran


class OpenSpielISMCTSBot(DecidesFromInformationSets):
    """OpenSpiel's ISMCTS (random rollouts, UCT) as a seat-taking search bot."""

    name = "openspiel-ismcts"
    needs_view = False
    spec = "openspiel-ismcts"
    params: ClassVar[tuple[BotParam, ...]] = (
        BotParam("time", float, 0.25, "CPU seconds a decision (0: only the simulations)", low=0),
        BotParam("sims", int, 0, "simulations a decision (0: only the time)", low=0),
        BotParam("uct_c", float, 2.0, "UCT exploration constant (OpenSpiel's default)", low=0),
    )

    def __init__(self, time: float = 0.25, sims: int = 0, uct_c: float = 2.0) -> None:
        if time <= 0 and sims <= 0:
            raise PotluckError("openspiel-ismcts needs a budget: time or sims above 0")
        self.time = time
        self.sims = sims
        self.uct_c = uct_c
        self._games: dict[tuple[str, int], Any] = {}
        #: Simulations run over the bot's life.
        self.simulations_run = 0

    def search(
        self, game: Game[Any, Any], info: InformationSet, legal: list[Action], rng: random.Random
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        world = info.sample(rng)
        if not world.acting or world.acting[0] != info.seat:
            raise PotluckError(
                f"openspiel-ismcts plays a seat when it is first to act (seat {info.seat})"
            )
        key = (game.id, world.num_players)
        spiel_game = self._games.get(key)
        if spiel_game is None:
            spiel_game = self._games[key] = pyspiel.load_game(
                game_name(game.id), {"players": world.num_players}
            )
        seed = rng.getrandbits(63)
        searcher = TimedISMCTS(
            spiel_game,
            _EngineRollouts(random.Random(seed)),
            self.uct_c,
            self.sims if self.sims > 0 else 1 << 30,
            random_state=np.random.RandomState(seed % 2**32),
        )
        searcher.seconds = self.time if self.time > 0 else float("inf")
        sampler = pyspiel.UniformProbabilitySampler(seed % 2**31, 0.0, 1.0)
        searcher.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
        index = int(searcher.step(PotluckState(spiel_game, world)))
        self.simulations_run += searcher.simulations
        found = next((a for a in legal if a.index == index), None)
        if found is None:
            raise PotluckError(f"openspiel-ismcts chose action {index}, which is not legal")
        return found
