"""Screen: two bots' choices at the same FoodAdvice positions, judged on the true hidden cards.

``examples/decision_screen.py`` judges moves on worlds drawn from the seat's
information set: every card the seat cannot see is dealt at random, as the bots
themselves deal it. A lever that changes *how* the bot guesses the hidden cards
(``improve:belief=greedy``) is judged there by the very guess it means to correct.
This screen judges on the truth instead: each judging world is the true state with
only the future drawn anew (the decks' unseen cards reshuffled, the world's generator
reseeded), so the other seats' true hands, their sealed discards and held event cards
stay as they are; each move is played to the very end with the greedy bot in every
seat and the same dice, scored by the seat's win share. The judge may look at the
truth; the bots never do (they decide through ``potluck.agents.decide``).

It plays as ``examples/ismcts_strength.py`` does (game ``i`` dealt from ``seed + i``,
``--bot`` in seat ``i % players``, the others greedy, the same generators), so the
positions are those the current bot reaches. At each of the seat's decisions the
``--versus`` bot is asked too, from a copy of the seat's generator (forced moves
included, so that a bot that keeps worlds between decisions keeps them here); only
where the two choose otherwise are the two moves judged, on ``--worlds`` common
worlds. A game's lead is the sum of the versus move's judged gains over the bot's;
the summary is its mean and standard error over games. Each judged position and each
game (its lead and the versus bot's CPU seconds a decision) is printed to standard
error as a JSON line as it ends, so a screen stopped early can still be summed.

    nice -n 12 python examples/truth_screen.py --games 40 --seed 87500 \\
        --bot improve:depth=40,cutoff=model \\
        --versus improve:depth=40,cutoff=model,belief=greedy --worlds 100 --json

``--versus-model FILE`` scores the versus bot's cut playouts by another value-model
file (``python -m potluck.search.training ... --out DIR``), the bot's by the shipped
one: a retrained model screened at the positions of the current one.

What it cannot tell: a game's outcome (one decision at a time, greedy play after
it); where the versus bot keeps worlds from its own last choice and the game went on
by the bot's other choice, its kept worlds fail and it draws as the bot does, so a
lever that acts over several decisions is understated after the first that differs.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import potluck
from potluck.agents import decide, make_agent
from potluck.engine.chance import shuffle
from potluck.games.food_advice.state import FoodState
from potluck.games.food_advice.view import _seen_shops
from potluck.sim import bot_rng

sys.path.insert(0, str(Path(__file__).resolve().parent))
from decision_screen import judge
from improve_model_dev import with_model


class TrueWorlds:
    """Draws worlds that keep every hidden card where it truly is and redraw the future:
    the unseen part of each deck reshuffled (sorted first, so only ``rng`` orders it),
    the world's generator reseeded."""

    def __init__(self, game: Any, state: FoodState) -> None:
        self.game, self.state = game, state

    def sample(self, rng: random.Random) -> FoodState:
        world = self.state.clone()
        returned = len(world.ing_returned)
        unseen = sorted(world.ing_deck[returned:])
        shuffle(rng, unseen)
        world.ing_deck[returned:] = unseen
        for deck in (world.event_deck, world.shape_deck, world.cust_deck):
            deck.sort()
            shuffle(rng, deck)
        seen = len(_seen_shops(self.game, self.state))
        shops = sorted(world.shop_deck[seen:])
        shuffle(rng, shops)
        world.shop_deck[seen:] = shops
        world.seed_rng(rng.getrandbits(64))
        return world


def _mean_se(values: list[float]) -> tuple[float, float]:
    n = len(values)
    if n < 2:
        return (values[0] if values else 0.0), 0.0
    return statistics.fmean(values), statistics.stdev(values) / math.sqrt(n)


def screen(
    games: int, bot: str, versus: str, seed: int, worlds: int, versus_model: Path | None = None
) -> dict[str, Any]:
    """The versus bot's choices at ``bot``'s decisions, judged against ``bot``'s on the
    true hidden cards where the two differ; four players, the others greedy. With
    ``versus_model`` (a value-model file) the versus bot's cut playouts are scored by it
    instead of the shipped model."""
    game = potluck.load_game("food-advice")
    players = 4
    tested, other, greedy = (
        make_agent(game, bot),
        with_model(make_agent(game, versus), game, players, versus_model),
        make_agent(game, "greedy"),
    )
    leads: list[float] = []
    cpu: list[float] = []
    decisions = differ = 0
    for i in range(games):
        deal = seed + i
        state = game.new_game(players, deal)
        hero = i % players
        rngs = [bot_rng(deal, s) for s in range(players)]
        lead = 0.0
        game_cpu: list[float] = []  # printed with the game, so a screen stopped early keeps it
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            if seat != hero:
                game.step(state, seat, decide(greedy, game, state, seat, rngs[seat]))
                continue
            choice = len(game.legal_actions(state, seat)) > 1
            twin = random.Random()
            twin.setstate(rngs[seat].getstate())
            began = time.process_time()
            alt = decide(other, game, state, seat, twin)
            if choice:
                game_cpu.append(time.process_time() - began)
                decisions += 1
            action = decide(tested, game, state, seat, rngs[seat])
            if alt != action:
                differ += 1
                truth = TrueWorlds(game, state)
                judged = random.Random(f"truth:{deal}:{decisions}")
                got, used = judge(game, truth, seat, [action, alt], worlds, judged)  # type: ignore[arg-type]
                lead += got[1]
                row = {"seed": deal, "phase": state.phase, "bot": str(action), "versus": str(alt)}
                print(
                    json.dumps({**row, "gain": got[1], "worlds": used}), file=sys.stderr, flush=True
                )
            game.step(state, seat, action)
        leads.append(lead)
        cpu.extend(game_cpu)
        record = {"game": deal, "lead": lead, "versus_cpu": game_cpu}
        print(json.dumps(record), file=sys.stderr, flush=True)
    mean, se = _mean_se(leads)
    return {
        "bot": bot,
        "versus": versus,
        **({"versus_model": str(versus_model)} if versus_model is not None else {}),
        "games": games,
        "seed": seed,
        "worlds": worlds,
        "decisions": decisions,
        "differ": differ,
        "versus_lead_a_game": [mean, se],
        "versus_cpu_median": statistics.median(cpu) if cpu else 0.0,
        "versus_cpu_slowest": max(cpu, default=0.0),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--bot", required=True)
    parser.add_argument("--versus", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument(
        "--versus-model",
        type=Path,
        help="a value-model file scoring the versus bot's cut playouts (an improve bot)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = screen(args.games, args.bot, args.versus, args.seed, args.worlds, args.versus_model)
    if args.json:
        print(json.dumps(result))
    else:
        lead, se = result["versus_lead_a_game"]
        print(
            f"{args.versus} differs {result['differ']} times in {result['decisions']} "
            f"decisions and leads {args.bot} by {lead:+.4f} +- {se:.4f} judged a game"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
