"""OpenSpiel's ISMCTS bot in one seat of a Potluck game, against Potluck's greedy bots.

    python examples/openspiel_ismcts.py                     # a few quick games of each
    python examples/openspiel_ismcts.py --game cafe-carnage --players 5 --games 20

The ISMCTS bot is OpenSpiel's own (``open_spiel.python.algorithms.ismcts``; the
C++ ``pyspiel.ISMCTSBot`` crashes on Python games), searching over worlds
redealt by ``resample_from_infostate``. It sits in seat 0; the other seats are
played by a Potluck bot (``--opponents``), which sees only its own view. Each
leaf is valued by one rollout to the end of the game: with ``--rollouts
native`` (the default) the rollout runs on the engine state directly, about
twice as fast as ``--rollouts openspiel`` (OpenSpiel's
``RandomRolloutEvaluator``, through the adapter). Prints the ISMCTS bot's share
of the wins next to the fair share.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from potluck.engine.registry import load_game
from potluck.interop.openspiel import PotluckState, game_name
from potluck.sim import bot_rng


class NativeRolloutEvaluator(mcts.Evaluator):
    """Values a state by uniformly random play to the end, on the engine state itself."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def evaluate(self, state: PotluckState) -> Any:
        table, engine_state = state.table, state.engine_state.clone()
        game, rng = table.game, self.rng
        while engine_state.acting:
            seat = engine_state.acting[0]
            legal = game.legal_actions(engine_state, seat)
            game.step(engine_state, seat, legal[int(rng.random() * len(legal))])
        return np.array(table.rewards(engine_state))

    def prior(self, state: PotluckState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


def seeded_resampler(seed: int) -> Callable[[PotluckState, int], PotluckState]:
    """An ISMCTS resampler drawing its worlds from ``seed``."""
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    return lambda state, player: state.resample_from_infostate(player, sampler)


def play(
    game_id: str,
    players: int,
    games: int,
    simulations: int,
    opponents: str,
    seed: int,
    rollouts: str = "native",
) -> float:
    """The ISMCTS bot's mean win share over ``games`` games."""
    spiel_game = pyspiel.load_game(game_name(game_id), {"players": players, "seed": seed})
    table = spiel_game.table
    total = 0.0
    for number in range(games):
        evaluator: Any
        if rollouts == "native":
            evaluator = NativeRolloutEvaluator(random.Random(seed + number))
        else:
            evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + number))
        searcher = ismcts.ISMCTSBot(
            spiel_game, evaluator, 2.0, simulations, random_state=np.random.RandomState(number)
        )
        # ISMCTS's own resampler draws from an unseeded sampler: seed it for repeatable runs.
        searcher.set_resampler(seeded_resampler(seed + number))
        state = spiel_game.new_initial_state()
        rngs = {seat: bot_rng(seed + number, seat) for seat in range(1, players)}
        bots: dict[str, object] = {}
        while not state.is_terminal():
            seat = state.current_player()
            if seat == 0:
                state.apply_action(searcher.step(state))
            else:
                action = table.bot_action(opponents, state.engine_state, seat, rngs[seat], bots)
                state.apply_action(action.index)
        total += state.returns()[0]
    return total / games


#: What runs without arguments: (game, players, simulations a move), a few seconds each.
#: Burger Joint's games are long (a random rollout is some 350 moves), so it searches less.
QUICK = [
    ("cafe-carnage", 4, 20),
    ("belle-of-the-ball", 3, 20),
    ("food-advice", 4, 20),
    ("belly-battle", 2, 20),
    ("burger-joint", 2, 5),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", help="one game id (default: a quick round of every game)")
    parser.add_argument("--players", type=int, help="table size (default: each game's quick one)")
    parser.add_argument("--games", type=int, default=2, help="games a table")
    parser.add_argument("--simulations", type=int, help="simulations a move (default 20)")
    parser.add_argument("--opponents", default="greedy", help="Potluck bot in the other seats")
    parser.add_argument("--rollouts", choices=["native", "openspiel"], default="native")
    parser.add_argument("--seed", type=int, default=random.randrange(1000))
    args = parser.parse_args()
    if args.game is None:
        tables = [(g, args.players or n, args.simulations or k) for g, n, k in QUICK]
    else:
        players = args.players or load_game(args.game).min_players
        tables = [(args.game, players, args.simulations or 20)]
    print(f"seed {args.seed}")
    for game_id, players, simulations in tables:
        start = time.perf_counter()
        share = play(
            game_id,
            players,
            args.games,
            simulations,
            args.opponents,
            args.seed,
            args.rollouts,
        )
        print(
            f"{game_id:18} {players}p: ISMCTS ({simulations} simulations a move) vs "
            f"{players - 1} {args.opponents}: win share {share:.3f} over {args.games} games "
            f"(fair share {1 / players:.3f}); {time.perf_counter() - start:.1f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
