"""OpenSpiel's ISMCTS bot in one seat of a Potluck game, against Potluck's greedy bots.

    python examples/openspiel_ismcts.py --game cafe-carnage --players 4 --games 10

The ISMCTS bot is OpenSpiel's own (``open_spiel.python.algorithms.ismcts``),
searching over worlds redealt by ``resample_from_infostate``, with random
rollouts to the end of the game. It sits in seat 0; the other seats are played
by Potluck's bot (``--opponents``), which sees only its own view. Prints the
ISMCTS bot's share of the wins next to the fair share.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import potluck.interop.openspiel
from potluck.sim import bot_rng


def play(
    game_id: str, players: int, games: int, simulations: int, opponents: str, seed: int
) -> float:
    """The ISMCTS bot's mean win share over ``games`` games."""
    spiel_game = pyspiel.load_game(
        potluck.interop.openspiel.game_name(game_id), {"players": players, "seed": seed}
    )
    table = spiel_game.table
    total = 0.0
    for number in range(games):
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + number))
        searcher = ismcts.ISMCTSBot(
            spiel_game, evaluator, 2.0, simulations, random_state=np.random.RandomState(number)
        )
        state = spiel_game.new_initial_state()
        rngs = {seat: bot_rng(number, seat) for seat in range(1, players)}
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="cafe-carnage")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=100, help="simulations a move")
    parser.add_argument("--opponents", default="greedy")
    parser.add_argument("--seed", type=int, default=random.randrange(1000))
    args = parser.parse_args()
    start = time.perf_counter()
    share = play(args.game, args.players, args.games, args.simulations, args.opponents, args.seed)
    opponents = f"{args.players - 1} {args.opponents} bots"
    print(
        f"ISMCTS ({args.simulations} simulations a move) vs {opponents} in {args.game}: "
        f"win share {share:.3f} over {args.games} games (fair share {1 / args.players:.3f}); "
        f"{time.perf_counter() - start:.1f} s"
    )


if __name__ == "__main__":
    main()
