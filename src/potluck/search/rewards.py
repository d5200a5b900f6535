"""How the search scores a world: every seat's reward in 0..1 from its scores.

``win_rewards`` gives 1 shared among the winners; ``margin_rewards`` the seat's lead
over the best other seat, squashed into 0..1 (0.5 is level); ``soft_shares`` a
win-chance estimate for unfinished standings.

    >>> win_rewards((3.0, 5.0, 5.0), (1, 2))
    [0.0, 0.5, 0.5]
    >>> [round(r, 3) for r in margin_rewards((300.0, 0.0), 300.0)]
    [0.881, 0.119]
"""

from __future__ import annotations

import math


def win_rewards(scores: tuple[float, ...], winners: tuple[int, ...]) -> list[float]:
    """1 shared among ``winners``, 0 for the others."""
    share = 1.0 / len(winners)
    rewards = [0.0] * len(scores)
    for seat in winners:
        rewards[seat] = share
    return rewards


def margin_rewards(scores: tuple[float, ...], scale: float = 0.0) -> list[float]:
    """0.5 plus half the seat's lead over the best other seat, over the score spread;
    with a ``scale``, ``0.5 + 0.5 * tanh(lead / scale)`` (at two seats the spread
    is the lead itself, so without a scale every lead scores 1 and every deficit 0)."""
    rewards = []
    if scale > 0:
        tanh = math.tanh
        for seat, score in enumerate(scores):
            best_other = max(s for q, s in enumerate(scores) if q != seat)
            rewards.append(0.5 + 0.5 * tanh((score - best_other) / scale))
        return rewards
    spread = max(scores) - min(scores) or 1.0
    for seat, score in enumerate(scores):
        best_other = max(s for q, s in enumerate(scores) if q != seat)
        rewards.append(0.5 + 0.5 * (score - best_other) / spread)
    return rewards


def soft_shares(scores: tuple[float, ...], scale: float = 0.0) -> list[float]:
    """A win-chance estimate from unfinished standings: each seat's weight is
    ``exp(-2 * gap to the leader / spread)``, normalised to sum to 1, so the leader
    gets most, a close second a good part and a distant last little. The spread is
    ``scale`` when given, else that of the scores (at two seats that gives the
    leader 0.88 whatever its lead; a fixed scale makes a small lead worth less).

        >>> [round(x, 2) for x in soft_shares((8.0, 5.0), scale=6.0)]
        [0.73, 0.27]
    """
    top = max(scores)
    spread = scale if scale > 0 else top - min(scores)
    if spread <= 0:
        return [1.0 / len(scores)] * len(scores)
    weights = [math.exp(-2.0 * (top - score) / spread) for score in scores]
    total = sum(weights)
    return [w / total for w in weights]
