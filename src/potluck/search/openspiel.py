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
from potluck.bench import clock_named
from potluck.engine.registry import load_game
from potluck.interop.openspiel import PotluckState, game_name
from potluck.sim import bot_rng


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


def compare_speed(
    game_id: str,
    players: int,
    spec: str,
    simulations: int,
    positions: int = 12,
    seed: int = 0,
    clock: str = "wall",
) -> dict[str, float]:
    """Both searches on the same positions, one after the other on each: simulations per
    second of ours (``spec``) and of OpenSpiel's (``simulations`` a decision).

    The positions are decisions with a choice, spread over games between greedy bots
    dealt from ``seed`` on. Timing the two alternately on the same positions keeps
    a shared machine's changing load, and how far into a game the positions are
    (rollouts are shorter late), out of the ratio. ``clock="cpu"`` times both by this
    process's CPU seconds (``potluck.bench.CLOCKS``), so time spent waiting for a
    busy machine's cores counts for neither: the steadier ratio on a shared machine.
    """
    game = load_game(game_id)
    ours = make_agent(game, spec)
    greedy = make_agent(game, "greedy")
    spiel_game = pyspiel.load_game(game_name(game_id), {"players": players, "seed": seed})
    found: list[Any] = []
    number = 0
    while len(found) < positions:
        state = game.new_game(players, seed + number)
        candidates = []
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            if len(game.legal_actions(state, seat)) > 1:
                candidates.append(state.clone())
            game.step(state, seat, decide(greedy, game, state, seat, bot_rng(number, seat)))
        stride = max(1, len(candidates) // positions)
        found.extend(candidates[::stride][: positions - len(found)])
        number += 1
    before = getattr(ours, "simulations_run", 0)
    mine = theirs = 0.0
    now = clock_named(clock)
    for k, state in enumerate(found):
        seat = game.to_act(state)[0]
        start = now()
        decide(ours, game, state, seat, random.Random(seed + k))
        mine += now() - start
        searcher = openspiel_searcher(spiel_game, simulations, seed + k)
        wrapped = PotluckState(spiel_game, state.clone())
        start = now()
        searcher.step(wrapped)
        theirs += now() - start
    ran = getattr(ours, "simulations_run", before) - before
    ours_rate = ran / mine if mine > 0 else 0.0
    their_rate = len(found) * simulations / theirs if theirs > 0 else 0.0
    return {
        "positions": float(len(found)),
        "simulations_per_second_same_positions": ours_rate,
        "openspiel_simulations_per_second": their_rate,
        "speedup_vs_openspiel": ours_rate / their_rate if their_rate > 0 else 0.0,
    }


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
