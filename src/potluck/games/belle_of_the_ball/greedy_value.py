"""Belle of the Ball's greedy bot's weights and the rule it values a group by
(``group_value``): what the planner (``greedy_plan.Planner``) computes from a group's
counts, the same floats (``greedy_counts.estimate``; ``tests/test_rules_written_once.py``
and ``tests/test_belle_greedy_planner.py`` hold the two equal).

The bot reads its weights once a game and the rule is the planner's reference, so this
module is left as Python (``potluck.native`` compiles the planner and the bot).

    >>> group_value([(0, 1), (1, 2)], 12)
    4.7
    >>> group_value([(0, 1), (1, 2)], 2)  # three more guests needed, two invitations left
    0.0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from potluck.games.belle_of_the_ball.greedy_counts import GROUP_SIZE
from potluck.games.belle_of_the_ball.scoring import score_group

#: Chance that a given interest is on a random guest (3 interests of 10 in the built-in data).
SHARE: Final = 0.3
#: What one more guest needed costs a group: finishing sooner is worth something.
NEED_COST: Final = 0.6
#: What a Belle in hand is worth (the variant's reason to invite one).
BELLE_WORTH: Final = 3.0
#: How much better a Belle must make this turn before the bot plays her, in the
#: variant, where a played Belle is gone for good. In the base game the hand is
#: drawn back up to three every round, so a Belle kept is a draw lost: the bot
#: plays its best Belle every turn (measured: 64% against 33% for the bot that
#: waited for a 0.75-chip gain, 240 three-player games).
PLAY_MARGIN: Final = 0.75
#: Weight of a rival's loss (a chip taken from a rival is worth less than one gained).
RIVAL_WEIGHT: Final = 0.5


@dataclass(frozen=True)
class Weights:
    """The greedy bot's hand-set weights; each is a bot parameter (``greedy:belle_value=8``)."""

    belle_value: float = BELLE_WORTH
    chip_value: float = 1.0
    need_cost: float = NEED_COST
    interest_share: float = SHARE
    play_margin: float = PLAY_MARGIN
    rival_weight: float = RIVAL_WEIGHT


DEFAULT_WEIGHTS = Weights()

Group = Sequence[Sequence[int]]


def group_value(
    group: Group,
    future: int,
    full: int = GROUP_SIZE,
    singles: bool = False,
    weights: Weights = DEFAULT_WEIGHTS,
) -> float:
    """What a group (per guest, the interests it shows) is worth: its score when full,
    else its matches so far plus what the guests it still needs are likely to add, if
    the bot can still finish it (``future``: the invitations it expects after this one).

    The rule the bot's plans are held to: ``estimate``, from a group's counts, gives
    the same floats (``tests/test_rules_written_once.py``)."""
    if not group:
        return 0.0
    if len(group) >= full:
        return float(score_group(group, singles))
    need = GROUP_SIZE - len(group)
    if need > future:
        return 0.0  # it cannot be finished before the game ends: it will not score
    counts: dict[int, int] = {}
    for shown in group:
        for i in shown:
            counts[i] = counts.get(i, 0) + 1
    matched = sum(c for c in counts.values() if c >= 2)
    # A further guest adds 2 for an interest shown once, 1 for one already shared.
    per_guest = weights.interest_share * sum(2 if c == 1 else 1 for c in counts.values())
    return matched + need * (per_guest - weights.need_cost)
