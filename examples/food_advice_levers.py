"""Benchmark: levers on FoodAdvice's hard bot (`improve`) that no bot spec names, played
as ``examples/ismcts_strength.py`` plays a spec.

Each lever is `improve` (``--bot``, the hard bot's spec by default) changed in one way:

- ``oracle``: its worlds keep every hidden card where it truly is (the other seats'
  hands, their sealed discards and held event cards) and draw only the future anew
  (``truth_screen.TrueWorlds``). A bot that cheats, so **a bound**, never a player:
  what any better guess of the hidden cards could give the bot at most.
- ``whole-keep``: the three cards the seat keeps are chosen as a whole at its first
  discard of a round: every keep (20 of six cards) raced on common worlds with greedy
  play after it, the worse half dropped every ``--batch`` worlds until two are left,
  then the best against the greedy bot's keep on ``--fresh`` fresh worlds, played only
  where it leads by more than one paired standard error (in win share or in points),
  as `improve` leaves a greedy move; the next two discards follow it. `improve` itself
  chooses the keep one discard at a time, greedy play finishing it in each playout.
- ``point-weight=W``: the race ranks a move on a world by its win share plus ``W``
  times its points (its foodcoins less the others' mean) instead of by win share
  with points only breaking ties (``potluck.judge_math.rank``). It replaces the
  judge's ranking function for this process.

The run, its results file (``--results``) and its report are ``ismcts_strength``'s
(game ``i`` dealt from ``seed + i``, the bot in seat ``i % 4``, three default greedy
bots), so a lever is paired with another run on the same deals by
``ismcts_strength.py --merge LEVER.jsonl --against OTHER.jsonl``:

    nice -n 5 python examples/food_advice_levers.py --lever oracle --games 300 \\
        --seed 152100 --results lever-oracle.jsonl --json
    python examples/ismcts_strength.py --merge lever-oracle.jsonl --against improve.jsonl

This is a benchmark for development deals: expect minutes.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from itertools import combinations
from pathlib import Path
from typing import Any

import potluck
import potluck.judge
from potluck.agents import make_agent
from potluck.engine.action import Action
from potluck.engine.bots import bot_input
from potluck.engine.game import Game
from potluck.games.food_advice.actions import DISCARD
from potluck.judge_math import halve, mean, points, rank, stderr
from potluck.search.improve import PolicyImprovementBot
from potluck.search.information import InformationSet

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ismcts_strength import play
from truth_screen import TrueWorlds

#: The levers ``--lever`` names (``point-weight`` takes ``=W``).
LEVERS = ("oracle", "whole-keep", "point-weight")


class TrueInformation:
    """A seat's information set whose worlds keep the true hidden cards (the oracle)."""

    def __init__(self, game: Game[Any, Any], info: InformationSet) -> None:
        self.info, self.seat = info, info.seat
        # (the true state, which a player's information set keeps private)
        truth: Any = info._state
        self.worlds = TrueWorlds(game, truth)

    @property
    def num_players(self) -> int:
        return self.info.num_players

    @property
    def moves(self) -> int:
        return self.info.moves

    def view(self) -> dict[str, Any]:
        return self.info.view()

    def sample(self, rng: random.Random) -> Any:
        return self.worlds.sample(rng)


class OracleImprove(PolicyImprovementBot):
    """`improve` on worlds that keep the true hidden cards (a bound, not a player)."""

    def search(
        self, game: Game[Any, Any], info: InformationSet, legal: list[Action], rng: random.Random
    ) -> Action:
        truth: Any = TrueInformation(game, info)
        return super().search(game, truth, legal, rng)


class WholeKeepImprove(PolicyImprovementBot):
    """`improve` whose keep is chosen as a whole at the round's first discard."""

    def __init__(self, batch: int = 8, fresh: int = 32, **params: Any) -> None:
        super().__init__(**params)
        self.batch, self.fresh = batch, fresh
        self.plan: list[int] = []  # the action indices of the keep's discards still to play

    def search(
        self, game: Game[Any, Any], info: InformationSet, legal: list[Action], rng: random.Random
    ) -> Action:
        if not legal or any(getattr(a, "kind", None) != DISCARD for a in legal):
            return super().search(game, info, legal, rng)
        indices = {a.index for a in legal}
        if not (self.plan and set(self.plan) <= indices):
            kept: int = game.kept  # type: ignore[attr-defined]
            if len(legal) - kept < 2:
                return super().search(game, info, legal, rng)
            seed = f"whole-keep:{rng.getrandbits(64)}"
            chosen = whole_keep(game, info, legal, kept, seed, self.batch, self.fresh)
            self.plan = [a.index for a in chosen]
        index = self.plan.pop(0)
        return next(a for a in legal if a.index == index)


def keep_playout(
    game: Game[Any, Any], bot: Any, world: Any, seat: int, discards: tuple[Action, ...], seed: int
) -> tuple[float, float] | None:
    """The seat's win share and points in ``world`` (changed) once it has made
    ``discards`` (at its next decisions) and the greedy bot plays every other move;
    ``None`` where a discard is not legal in that world."""
    rng = random.Random(seed)
    left = [a.index for a in discards]
    while world.acting:
        mover = seat if left and seat in world.acting else world.acting[0]
        legal = game.legal_actions(world, mover)
        if mover == seat and left:
            index = left.pop(0)
            action = next((a for a in legal if a.index == index), None)
            if action is None:
                return None
        elif len(legal) == 1:
            action = legal[0]
        else:
            action = bot.choose(game, bot_input(bot, game, world, mover), mover, legal, rng)
        game.step_legal(world, mover, action)
    outcome = game.outcome(world)
    return outcome.win_shares()[seat], points(outcome.scores, seat)


def whole_keep(
    game: Game[Any, Any],
    info: InformationSet,
    legal: list[Action],
    kept: int,
    seed: str,
    batch: int,
    fresh: int,
) -> tuple[Action, ...]:
    """The discards of the keep chosen as a whole (the module's docstring says how)."""
    bot = game.make_bot("greedy")
    seat = info.seat
    plans = list(combinations(legal, len(legal) - kept))
    greedy = _greedy_discards(game, bot, info, seat, len(legal) - kept, seed)
    policy = next(i for i, p in enumerate(plans) if {a.index for a in p} == greedy)
    # each plan's rank on each world: its win share, then its points (as the judge ranks)
    ranks: list[list[float]] = [[] for _ in plans]
    drawn = 0

    def world() -> tuple[Any, int]:
        nonlocal drawn
        rng = random.Random(f"{seed}:{drawn}")
        drawn += 1
        return info.sample(rng), rng.getrandbits(64)

    alive = list(range(len(plans)))
    while len(alive) > 2:
        for _ in range(batch):
            state, dice = world()
            got = [keep_playout(game, bot, state.clone(), seat, plans[i], dice) for i in alive]
            for i, result in zip(alive, got, strict=True):
                if result is not None and all(g is not None for g in got):
                    ranks[i].append(rank(*result))
        alive = halve(alive, ranks, {policy})
    best = max(alive, key=lambda i: (mean(ranks[i]), i == policy))
    if best == policy:
        return plans[policy]
    lead: list[float] = []
    lead_points: list[float] = []
    for _ in range(fresh):
        state, dice = world()
        mine = keep_playout(game, bot, state.clone(), seat, plans[best], dice)
        theirs = keep_playout(game, bot, state.clone(), seat, plans[policy], dice)
        if mine is not None and theirs is not None:
            lead.append(mine[0] - theirs[0])
            lead_points.append(mine[1] - theirs[1])
    by_win = mean(lead) > stderr(lead)  # (no world: 0 > 0, the greedy keep)
    by_points = mean(lead_points) > stderr(lead_points)
    return plans[best] if by_win or by_points else plans[policy]


def _greedy_discards(
    game: Game[Any, Any], bot: Any, info: InformationSet, seat: int, count: int, seed: str
) -> set[int]:
    """The action indices of the discards the greedy bot would make (it reads only the
    seat's own hand and the table, which every world shows alike)."""
    state = info.sample(random.Random(f"{seed}:greedy"))
    rng = random.Random(0)
    made: set[int] = set()
    for _ in range(count):
        legal = game.legal_actions(state, seat)
        action = bot.choose(game, bot_input(bot, game, state, seat), seat, legal, rng)
        made.add(action.index)
        game.step_legal(state, seat, action)
    return made


def lever_bot(lever: str, spec: str, batch: int = 8, fresh: int = 32) -> Any:
    """The bot ``lever`` plays: ``spec`` (an `improve` spec) changed by the lever."""
    game = potluck.load_game("food-advice")
    base = make_agent(game, spec)
    if not isinstance(base, PolicyImprovementBot):
        raise SystemExit(f"--bot must be an improve spec, not {spec!r}")
    params = {p.name: getattr(base, p.name) for p in base.params}
    name, _, value = lever.partition("=")
    if name == "oracle":
        return OracleImprove(**params)
    if name == "whole-keep":
        return WholeKeepImprove(batch=batch, fresh=fresh, **params)
    if name == "point-weight" and value:
        weight = float(value)

        def ranking(win: float, score: float) -> float:
            return win + weight * score

        potluck.judge._rank = ranking  # type: ignore[attr-defined]
        return base
    raise SystemExit(f"unknown lever {lever!r}: one of {', '.join(LEVERS)} (point-weight=W)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lever", required=True, help="oracle, whole-keep or point-weight=W")
    parser.add_argument("--bot", default="improve:wall=0.4", help="the improve spec changed")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--from-game", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=8, help="whole-keep: worlds a halving")
    parser.add_argument("--fresh", type=int, default=32, help="whole-keep: fresh worlds")
    parser.add_argument("--results", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    bot = lever_bot(args.lever, args.bot, args.batch, args.fresh)
    label = f"{args.bot}+{args.lever}"
    if args.lever == "whole-keep":
        label += f":batch={args.batch},fresh={args.fresh}"
    result = play(
        "food-advice",
        4,
        args.games,
        label,
        "greedy",
        args.seed,
        results=args.results,
        first=args.from_game,
        tested_agent=bot,
    )
    print(json.dumps(result) if args.json else f"{label}: {result['win_share']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
