"""The conformance suite: checks of the engine contract that every game passes.

Use it from any game's tests, unchanged::

    import pytest
    from hypothesis import given
    from potluck import load_game
    from potluck.testing import conformance_cases, run_conformance
    from potluck.testing.strategies import conformance_settings, seeds

    @pytest.mark.parametrize(("game_id", "num_players"), conformance_cases())
    def test_conformance(game_id: str, num_players: int) -> None:
        game = load_game(game_id)

        @conformance_settings(max_examples=5)
        @given(seed=seeds())
        def playout(seed: int) -> None:
            run_conformance(game, num_players, seed)

        playout()

Every ``check_*`` function raises ``AssertionError`` with a message naming the
game, players, seed, step and seat. State checks take ``(game, state, ...)`` and
can be run on any state, such as one from a scenario test; ``run_conformance``
runs them all along one random playout; ``check_random_playouts`` runs many
cheap playouts. A game may declare extra invariants as a method
``invariants(state) -> list[str]`` (the problems found; empty when all is well),
which the suite calls at every step. The hypothesis helpers live in
:mod:`potluck.testing.strategies` so that this package needs no test dependency.
"""

from potluck.testing.checks import (
    check_action_encoding,
    check_action_text_roundtrip,
    check_apply_pure,
    check_bot_view_is_part_of_view,
    check_every_actor_has_a_legal_action,
    check_explain_matches_errors,
    check_invariants,
    check_json_roundtrip,
    check_not_your_turn,
    check_outcome,
    check_redeal_consistent,
    check_sealed_choices_hidden,
    check_views_json_and_no_leaks,
    first_difference,
    json_problem,
    snapshot,
)
from potluck.testing.suite import (
    USUAL_TABLES,
    Playout,
    check_random_playouts,
    check_replay,
    conformance_cases,
    playout_positions,
    random_playout,
    run_conformance,
    table_cases,
)

__all__ = [
    "USUAL_TABLES",
    "Playout",
    "check_action_encoding",
    "check_action_text_roundtrip",
    "check_apply_pure",
    "check_bot_view_is_part_of_view",
    "check_every_actor_has_a_legal_action",
    "check_explain_matches_errors",
    "check_invariants",
    "check_json_roundtrip",
    "check_not_your_turn",
    "check_outcome",
    "check_random_playouts",
    "check_redeal_consistent",
    "check_replay",
    "check_sealed_choices_hidden",
    "check_views_json_and_no_leaks",
    "conformance_cases",
    "first_difference",
    "json_problem",
    "playout_positions",
    "random_playout",
    "run_conformance",
    "snapshot",
    "table_cases",
]
