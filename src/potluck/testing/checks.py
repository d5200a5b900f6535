"""Checks of the engine contract on one state of a game.

Each check takes the game and a state (and sometimes a ``random.Random`` for the
samples it draws) and raises ``AssertionError`` saying what is wrong, naming the
game, the step and the seat. None of them changes the state it is given unless
the game breaks the contract (which the check then reports).

    >>> import random
    >>> import potluck
    >>> from potluck.testing import check_action_text_roundtrip, check_views_json_and_no_leaks
    >>> g = potluck.load_game("cafe-carnage")
    >>> s = g.new_game(4, seed=7)
    >>> check_action_text_roundtrip(g, s)
    >>> check_views_json_and_no_leaks(g, s, random.Random(0))

The checks live by responsibility in ``turn_checks`` (whose turn, actions),
``view_checks`` (views, redeals, sealed choices) and ``state_checks`` (saving,
invariants, outcome, encoding), with their shared helpers in ``common``; this
module gathers them under their historical names.
"""

from potluck.testing.common import (
    FORBIDDEN_VIEW_KEYS,
    AnyGame,
    Snapshot,
    dump,
    first_difference,
    json_problem,
    snapshot,
    where,
)
from potluck.testing.state_checks import (
    check_invariants,
    check_json_roundtrip,
    check_observation_encoding,
    check_outcome,
)
from potluck.testing.turn_checks import (
    check_action_encoding,
    check_action_text_roundtrip,
    check_apply_pure,
    check_every_actor_has_a_legal_action,
    check_explain_matches_errors,
    check_not_your_turn,
)
from potluck.testing.view_checks import (
    check_bot_view_is_part_of_view,
    check_redeal_consistent,
    check_sealed_choices_hidden,
    check_views_json_and_no_leaks,
)

__all__ = [
    "FORBIDDEN_VIEW_KEYS",
    "AnyGame",
    "Snapshot",
    "check_action_encoding",
    "check_action_text_roundtrip",
    "check_apply_pure",
    "check_bot_view_is_part_of_view",
    "check_every_actor_has_a_legal_action",
    "check_explain_matches_errors",
    "check_invariants",
    "check_json_roundtrip",
    "check_not_your_turn",
    "check_observation_encoding",
    "check_outcome",
    "check_redeal_consistent",
    "check_sealed_choices_hidden",
    "check_views_json_and_no_leaks",
    "dump",
    "first_difference",
    "json_problem",
    "snapshot",
    "where",
]
