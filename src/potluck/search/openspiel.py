"""OpenSpiel's ISMCTS next to ours: its speed, and games between the two.

OpenSpiel's reference ISMCTS (``open_spiel.python.algorithms.ismcts``; the C++
``pyspiel.ISMCTSBot`` crashes on Python games) plays through our ``potluck_<id>``
OpenSpiel games with UCT (``uct_c`` 2), worlds from ``resample_from_infostate``
(the game's ``redeal``) and one random rollout per leaf. The rollout runs on
the engine state directly, about twice as fast as OpenSpiel's own
``RandomRolloutEvaluator`` through the adapter, so the speed compared is the
faster of the two ways OpenSpiel's search can run here. Needs the ``rl`` extra.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from potluck.agents import decide, make_agent
from potluck.engine.registry import load_game
from potluck.interop.openspiel import PotluckState, game_name
from potluck.sim import bot_rng


class _EngineRollouts(mcts.Evaluator):  # type: ignore[misc]
    """Values a state by uniformly random play to the end, on the engine state."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def evaluate(self, state: PotluckState) -> Any:
        table, world = state.table, state.engine_state.clone()
        game, rand = table.game, self.rng.random
        while world.acting:
            seat = world.acting[0]
            legal = game.legal_actions(world, seat)
            game.step(world, seat, legal[int(rand() * len(legal))])
        return np.array(table.rewards(world))

    def prior(self, state: PotluckState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


def openspiel_searcher(spiel_game: Any, simulations: int, seed: int) -> Any:
    """OpenSpiel's ISMCTS bot, every draw seeded from ``seed``."""
    searcher = ismcts.ISMCTSBot(
        spiel_game,
        _EngineRollouts(random.Random(seed)),
        2.0,
        simulations,
        random_state=np.random.RandomState(seed % 2**32),
    )
    sampler = pyspiel.UniformProbabilitySampler(seed % 2**31, 0.0, 1.0)
    searcher.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    return searcher


def openspiel_speed(
    game_id: str, players: int, simulations: int, seconds: float = 2.0, seed: int = 0
) -> dict[str, float]:
    """OpenSpiel's ISMCTS in every seat for about ``seconds`` of its thinking."""
    spiel_game = pyspiel.load_game(game_name(game_id), {"players": players, "seed": seed})
    thinking, searches, number = 0.0, 0, 0
    while thinking < seconds:
        searcher = openspiel_searcher(spiel_game, simulations, seed + number)
        state = spiel_game.new_initial_state()
        while not state.is_terminal() and thinking < seconds:
            if len(state.legal_actions()) == 1:
                state.apply_action(state.legal_actions()[0])
                continue
            start = time.perf_counter()
            action = searcher.step(state)
            thinking += time.perf_counter() - start
            searches += 1
            state.apply_action(action)
        number += 1
    return {
        "openspiel_decisions": searches,
        "openspiel_seconds": thinking,
        "openspiel_simulations_per_second": searches * simulations / thinking,
    }


def head_to_head(
    game_id: str, players: int, spec: str, simulations: int, games: int, seed: int = 0
) -> dict[str, Any]:
    """Our bot ``spec`` in one seat (seat ``i % players`` in game ``i``), OpenSpiel's
    ISMCTS with ``simulations`` in every other; our win share with its 95% interval."""
    game = load_game(game_id)
    ours = make_agent(game, spec)
    spiel_game = pyspiel.load_game(game_name(game_id), {"players": players, "seed": seed})
    shares = []
    for number in range(games):
        hero = number % players
        searcher = openspiel_searcher(spiel_game, simulations, seed + number)
        state = spiel_game.new_initial_state()
        rng = bot_rng(seed + number, hero)
        while not state.is_terminal():
            seat = state.current_player()
            if seat == hero:
                action = decide(ours, game, state.engine_state, seat, rng)
                state.apply_action(action.index)
            else:
                state.apply_action(searcher.step(state))
        shares.append(float(state.returns()[hero]))
    mean = sum(shares) / len(shares)
    var = sum((x - mean) ** 2 for x in shares) / max(1, len(shares) - 1)
    half = 1.96 * math.sqrt(var / len(shares))
    return {
        "games": games,
        "win_share": mean,
        "ci95": [max(0.0, mean - half), min(1.0, mean + half)],
        "fair_share": 1.0 / players,
        "openspiel_simulations": simulations,
    }
