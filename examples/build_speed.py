"""One build's speed figures for every game, timed by this process's CPU seconds.

Run it once per source tree (each loads its own ``build/native/``) back to back to
compare two builds or two commits on a shared machine, as the README's speed tables do:

    PYTHONPATH=OLD/src python examples/build_speed.py greedy 1.5 > old.json
    PYTHONPATH=NEW/src python examples/build_speed.py greedy 1.5 > new.json

``random`` gives random play's steps/s and OpenSpiel hearts' in the same process;
``greedy`` the greedy bot's games/s in every seat and the share of its decisions spent
on its input (the view or ``bot_view``); ``ismcts`` the default search bot's simulations
per CPU second in every seat over decisions with more than one legal move (games dealt
from seeds 0, 1, ...; the same decisions in every build, as the sims budget is fixed).
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import potluck
from potluck import native
from potluck.agents import decide, make_agent
from potluck.bench import bench_game, bench_hearts
from potluck.sim import bot_rng

#: Each game at its usual table size.
TABLES = {
    "belle-of-the-ball": 4,
    "belly-battle": 4,
    "burger-joint": 2,
    "cafe-carnage": 4,
    "food-advice": 4,
}


def search_speed(game_id: str, players: int, seconds: float) -> dict[str, Any]:
    """The default ``ismcts`` in every seat: simulations per CPU second of its thinking."""
    game = potluck.load_game(game_id)
    bot = make_agent(game, "ismcts")
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


def main(what: str, seconds: float) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    for game_id, players in TABLES.items():
        game = potluck.load_game(game_id)
        if what == "random":
            result = bench_game(game, players, seconds, 0, "random", "cpu")
            hearts = bench_hearts(seconds, 0, "cpu")
            rows[game_id] = {
                "steps_per_second": result.steps_per_second,
                "games_per_second": result.games_per_second,
                "openspiel_hearts_steps_per_second": hearts,
                "ratio": result.steps_per_second / hearts,
            }
        elif what == "greedy":
            data = bench_game(game, players, seconds, 0, "greedy", "cpu").to_json()
            rows[game_id] = {
                "games_per_second": data["games_per_second"],
                "view_share": data["view_share_of_thinking"],
            }
        else:
            rows[game_id] = search_speed(game_id, players, seconds)
        print(game_id, rows[game_id], file=sys.stderr, flush=True)
    return {"rules": native.status().line(), "what": what, "games": rows}


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("random", "greedy", "ismcts"):
        sys.exit("usage: python examples/build_speed.py random|greedy|ismcts SECONDS")
    print(json.dumps(main(sys.argv[1], float(sys.argv[2])), indent=1))
