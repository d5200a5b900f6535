"""Root moves compared on common worlds (``ismcts:root=compare``).

The tree search credits each root move with rollouts from worlds of its own, so
two moves' values differ by the luck of their worlds as much as by the moves.
Here every sampled world (hidden cards, deck order, future chance) is played out
once after *each* root move still in the running, each playout with its own copy
of the world and a rollout generator seeded alike: the moves are compared on
common random numbers, and a difference between them is the moves' doing far
more than the worlds'. Moves are narrowed by successive halving (Karnin, Koren
and Somekh 2013): the budget is split into rounds, and after each round the
worse half of the moves is dropped, but never the prior's move (the greedy
bot's), against which the winner is finally tested: the search leaves the prior's
move only when the winner's mean paired advantage over it exceeds ``confidence``
standard errors.

    >>> import random
    >>> worlds = iter(range(1000))
    >>> def playout(world: int, move: str, rng: random.Random) -> float:
    ...     return {"a": 0.2, "b": 0.6, "c": 0.4}[move] + rng.random() * 0.1
    >>> best, stats = compare_root(
    ...     lambda: next(worlds), lambda w: w, playout, ["a", "b", "c"], "a",
    ...     budget=30, rng=random.Random(1),
    ... )
    >>> best
    'b'
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from potluck.engine.chance import seeded

W = TypeVar("W")
M = TypeVar("M")


def compare_root(
    sample: Callable[[], W],
    copy: Callable[[W], W],
    playout: Callable[[W, M, random.Random], float | None],
    moves: Sequence[M],
    favourite: M | None,
    *,
    budget: int,
    rng: random.Random,
    deadline: float = math.inf,
    confidence: float = 0.0,
) -> tuple[M, list[tuple[M, list[float]]]]:
    """The move to play, and each move's rewards (one per world it was played on).

    ``sample()`` draws a world (a new one each time), ``copy`` copies one,
    ``playout(world, move, rng)`` plays ``move`` in (a copy of) the world and on to a
    reward in 0..1, or gives ``None`` when the move is not legal in that world. ``budget``
    counts playouts; ``deadline`` (a ``time.perf_counter`` time) is shared out
    between the rounds like the playouts, and stops the search between two
    playouts: a world not played after every move still in the
    running is then dropped, so rewards stay paired (if none is left, the
    favourite is played). The worlds played in a round are played after every move
    still in the running, so the survivors' rewards stay paired world by world.
    """
    # per move: world number -> reward
    rewards: dict[int, dict[int, float]] = {i: {} for i in range(len(moves))}
    alive = list(range(len(moves)))
    keep = next((i for i, m in enumerate(moves) if m == favourite), -1)
    rounds = max(1, math.ceil(math.log2(len(moves)))) if len(moves) > 1 else 1
    spent = 0
    clock = time.perf_counter
    for round_ in range(rounds):
        share = (budget - spent) // (rounds - round_)
        worlds = max(1, share // len(alive))
        # a time budget is split between the rounds as the playouts are, so a
        # budget that ends first still narrows the moves down
        now = clock()
        round_end = now + (deadline - now) / (rounds - round_)
        for _ in range(worlds):
            if spent + len(alive) > budget and spent > 0:
                break
            world = sample()
            seed = rng.getrandbits(64)
            played: dict[int, float] = {}
            last = alive[-1]
            for i in alive:
                # a world left half played would pair some moves and not others: the
                # deadline drops it whole (with budgets of whole-game playouts, waiting
                # for the world to finish overran a 1.5 s budget by a third)
                if clock() >= deadline:
                    played = {}
                    break
                # the last move plays the world itself: nothing reads it afterwards
                reward = playout(world if i == last else copy(world), moves[i], seeded(seed))
                if reward is not None:
                    played[i] = reward
            for i, reward in played.items():
                rewards[i][spent] = reward
            spent += len(alive)
            if clock() >= round_end:
                break
        if clock() >= deadline or len(alive) <= 1:
            break
        if round_ < rounds - 1:
            ranked = sorted(alive, key=lambda i: -_mean(rewards[i]))
            survivors = ranked[: max(1, math.ceil(len(alive) / 2))]
            if keep >= 0 and keep in alive and keep not in survivors:
                survivors.append(keep)
            alive = survivors
    best = max(alive, key=lambda i: (_mean(rewards[i]), i == keep))
    if keep >= 0 and best != keep and not _clearly_better(rewards[best], rewards[keep], confidence):
        best = keep
    return moves[best], [(moves[i], list(rewards[i].values())) for i in range(len(moves))]


def _mean(values: dict[int, float]) -> float:
    return sum(values.values()) / len(values) if values else -math.inf


def _clearly_better(
    winner: dict[int, float], baseline: dict[int, float], confidence: float
) -> bool:
    """Whether ``winner``'s mean paired advantage over ``baseline`` (on the worlds
    both were played on) exceeds ``confidence`` standard errors (any advantage at
    all when ``confidence`` is 0).

        >>> _clearly_better({0: 0.6, 1: 0.7, 2: 0.5}, {0: 0.4, 1: 0.5, 2: 0.4}, 2.0)
        True
        >>> _clearly_better({0: 0.6, 1: 0.2, 2: 0.5}, {0: 0.4, 1: 0.5, 2: 0.4}, 2.0)
        False
    """
    diffs = [w - baseline[k] for k, w in winner.items() if k in baseline]
    if not diffs:
        return False
    mean = sum(diffs) / len(diffs)
    if confidence <= 0:
        return mean > 0
    if len(diffs) < 2:
        return False
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return mean > confidence * math.sqrt(var / len(diffs))
