"""``ismcts`` simulations per CPU second in every game, at a fixed budget, for comparing trees.

The search bot in every seat with the search defaults each game had at commit 9ef188b
(the "before" of issue 36's speed round), written out in full here so that a later
change of a game's defaults does not change what is timed: the same budget in every
tree. Games are dealt from seeds 0, 1, ...; only decisions with more than one legal move
count; the clock is this process's CPU time. Run it once per source tree (each loads its
own ``build/native/``), back to back, as the README's search-speed table does::

    PYTHONPATH=OLD/src python examples/search_speed.py 4 > old.json
    PYTHONPATH=NEW/src python examples/search_speed.py 4 > new.json
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import potluck
from potluck import native
from potluck.agents import decide
from potluck.search.ismcts import ISMCTSBot
from potluck.sim import bot_rng

#: Each game at its usual table size.
TABLES = {
    "belle-of-the-ball": 4,
    "belly-battle": 4,
    "burger-joint": 2,
    "cafe-carnage": 4,
    "food-advice": 4,
}

#: ``potluck.agents.SEARCH_DEFAULTS`` as at 9ef188b (unchanged on main up to 7966642).
SPECS: dict[str, dict[str, Any]] = {
    "cafe-carnage": {
        "sims": 600,
        "prior": "greedy",
        "guide": "greedy-tuned",
        "cutoff": "model",
        "rollout": "none",
    },
    "belle-of-the-ball": {"prior": "greedy", "reward": "margin"},
    "burger-joint": {"sims": 400, "prior": "greedy", "cutoff": "model", "rollout": "none"},
    "belly-battle": {
        "root": "compare",
        "sims": 64,
        "candidates": 0,
        "rollout": "greedy",
        "epsilon": 0.0,
        "depth": 200,
        "horizon": 4,
        "prior": "greedy",
        "reward": "margin",
        "scale": 300.0,
        "confidence": 1.5,
    },
    "food-advice": {
        "root": "compare",
        "sims": 64,
        "rollout": "greedy",
        "epsilon": 0.0,
        "depth": 0,
        "prior": "greedy",
        "reward": "margin",
        "scale": 50.0,
    },
}


def search_speed(game_id: str, seconds: float) -> dict[str, Any]:
    """Simulations per CPU second of the search's decisions, over about ``seconds``."""
    players = TABLES[game_id]
    game = potluck.load_game(game_id)
    bot = ISMCTSBot(**SPECS[game_id])
    simulations, thinking, number, decisions = 0, 0.0, 0, 0
    while thinking < seconds:
        state = game.new_game(players, seed=number)
        rngs = [bot_rng(number, seat) for seat in range(players)]
        while state.acting and thinking < seconds:
            seat = state.acting[0]
            legal = game.legal_actions(state, seat)
            if len(legal) == 1:
                game.step(state, seat, legal[0])
                continue
            before, started = bot.simulations_run, time.process_time()
            action = decide(bot, game, state, seat, rngs[seat])
            thinking += time.process_time() - started
            decisions += 1
            simulations += bot.simulations_run - before
            game.step(state, seat, action)
        number += 1
    return {
        "simulations_per_second": simulations / thinking,
        "decisions": decisions,
        "simulations": simulations,
        "cpu_seconds": thinking,
    }


def main(seconds: float, games: list[str]) -> dict[str, Any]:
    rows = {}
    for game_id in games:
        rows[game_id] = search_speed(game_id, seconds)
        print(game_id, rows[game_id], file=sys.stderr, flush=True)
    return {"rules": native.status().line(), "games": rows}


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: python examples/search_speed.py SECONDS [GAME,GAME...]")
    chosen = sys.argv[2].split(",") if len(sys.argv) == 3 else list(TABLES)
    print(json.dumps(main(float(sys.argv[1]), chosen), indent=1))
