"""The conformance suite over every registered game and player count, and over the toy game.

The toy game's deliberately broken variants check that the suite catches each kind
of breach it claims to catch.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given

import potluck
from potluck import Action, Outcome
from potluck.testing import (
    check_action_encoding,
    check_action_text_roundtrip,
    check_apply_pure,
    check_every_actor_has_a_legal_action,
    check_explain_matches_errors,
    check_invariants,
    check_json_roundtrip,
    check_not_your_turn,
    check_outcome,
    check_random_playouts,
    check_redeal_consistent,
    check_replay,
    check_sealed_choices_hidden,
    check_views_json_and_no_leaks,
    conformance_cases,
    first_difference,
    json_problem,
    random_playout,
    run_conformance,
)
from potluck.testing.strategies import conformance_settings, seeds
from toygame import BIDS, BidsState, LeakyBids, MutatingBids, PeekingBids, SecretBids

CASES = conformance_cases()


@pytest.mark.parametrize(("game_id", "num_players"), CASES)
def test_registered_game_conforms(game_id: str, num_players: int) -> None:
    game = potluck.load_game(game_id)

    @conformance_settings(max_examples=4)
    @given(seed=seeds())
    def playout(seed: int) -> None:
        run_conformance(game, num_players, seed)

    playout()


@pytest.mark.parametrize(("game_id", "num_players"), CASES)
def test_registered_game_random_playouts_end_soundly(game_id: str, num_players: int) -> None:
    check_random_playouts(potluck.load_game(game_id), num_players, seed=1000, games=10)


@pytest.mark.parametrize("num_players", [2, 3, 4])
@conformance_settings(max_examples=10)
@given(seed=seeds())
def test_toy_game_conforms(num_players: int, seed: int) -> None:
    run_conformance(SecretBids(), num_players, seed, sample_every=1)


def test_toy_game_random_playouts_end_soundly() -> None:
    check_random_playouts(SecretBids(), 4, seed=0, games=50)


def test_conformance_cases_cover_every_game_and_player_count() -> None:
    for game_id in potluck.list_games():
        game = potluck.load_game(game_id)
        counts = [n for gid, n in CASES if gid == game_id]
        assert counts == list(range(game.min_players, game.max_players + 1))


def test_a_playout_is_deterministic() -> None:
    one = random_playout(SecretBids(), 3, seed=9)
    two = random_playout(SecretBids(), 3, seed=9)
    assert one.actions == two.actions
    check_replay(SecretBids(), one)


# ------------------------------------------------------------------ the suite catches breaches


def _states(game: SecretBids, num_players: int = 3, seed: int = 4) -> list[BidsState]:
    """Every state of one random playout, final included."""
    states: list[BidsState] = []
    random_playout(game, num_players, seed, on_step=lambda s: states.append(s.clone()))  # type: ignore[arg-type]
    return states


def _fails_somewhere(check: Any, game: SecretBids, match: str) -> None:
    with pytest.raises(AssertionError, match=match):  # noqa: PT012
        for state in _states(game):
            check(game, state)


def test_leaky_view_is_caught() -> None:
    game = LeakyBids()
    state = game.new_game(3, seed=1)
    with pytest.raises(AssertionError, match="shows hidden information"):
        check_views_json_and_no_leaks(game, state, random.Random(0))
    with pytest.raises(AssertionError, match="neighbour_card"):
        run_conformance(game, 3, seed=1)


def test_mutating_apply_is_caught() -> None:
    game = MutatingBids()
    state = game.new_game(3, seed=1)
    with pytest.raises(AssertionError, match=r"apply.*changed its input"):
        check_apply_pure(game, state, 0, BIDS[0])


def test_peeking_at_sealed_bids_is_caught() -> None:
    game = PeekingBids()
    state = game.new_game(3, seed=1)
    with pytest.raises(AssertionError, match="can tell whether seat"):
        check_sealed_choices_hidden(game, state, random.Random(0))
    with pytest.raises(AssertionError, match="bids"):
        run_conformance(game, 3, seed=1)


class RngInView(SecretBids):
    def view(self, state: BidsState, seat: int | None) -> dict[str, Any]:
        return {**super().view(state, seat), "noise": list(state.rng.getstate()[1][:3])}


class SeedInView(SecretBids):
    def view(self, state: BidsState, seat: int | None) -> dict[str, Any]:
        return {**super().view(state, seat), "table": f"game #{state.seed}"}


class TupleKeysInView(SecretBids):
    def view(self, state: BidsState, seat: int | None) -> dict[str, Any]:
        return {**super().view(state, seat), "by_seat": {0: "a"}}


def test_rng_and_seed_in_views_are_caught() -> None:
    with pytest.raises(AssertionError, match=r"depends on the RNG|holds the seed or RNG"):
        check_views_json_and_no_leaks(RngInView(), RngInView().new_game(2, 5), random.Random(0))
    game = SeedInView()
    with pytest.raises(AssertionError, match="holds the seed"):
        check_views_json_and_no_leaks(game, game.new_game(2, 123456789), random.Random(0))


def test_views_that_json_cannot_carry_are_caught() -> None:
    game = TupleKeysInView()
    with pytest.raises(AssertionError, match="non-string key 0"):
        check_views_json_and_no_leaks(game, game.new_game(2, 5), random.Random(0))


class BadText(SecretBids):
    def parse_action(self, state: BidsState, seat: int, text: str) -> Action:
        if text == "garbage" or "not an action" in text:
            return BIDS[0]
        return BIDS[(super().parse_action(state, seat, text).index + 1) % 3]


def test_text_that_does_not_round_trip_is_caught() -> None:
    game = BadText()
    with pytest.raises(AssertionError, match="parse_action"):
        check_action_text_roundtrip(game, game.new_game(2, 5))


class BadCodes(SecretBids):
    def action_from_index(self, state: BidsState, seat: int, index: int) -> Action:
        return BIDS[index % 3]


def test_codes_that_do_not_round_trip_are_caught() -> None:
    game = BadCodes()
    with pytest.raises(AssertionError, match="action_from_index"):
        check_action_encoding(game, game.new_game(2, 5))


class VagueExplain(SecretBids):
    def _why_illegal(self, state: BidsState, seat: int, action: Action) -> str:
        return f"Not now ({state.rng.random()})."  # a different sentence each time


def test_explain_that_differs_from_the_error_is_caught() -> None:
    _fails_somewhere(
        lambda g, s: check_explain_matches_errors(g, s, random.Random(0)),
        VagueExplain(),
        "explain says",
    )


class LaxTurns(SecretBids):
    def step(self, state: BidsState, seat: int, action: Action | str) -> None:
        if seat not in state.acting:
            return  # silently ignores a seat that need not act
        super().step(state, seat, action)


def test_out_of_turn_steps_that_pass_are_caught() -> None:
    _fails_somewhere(check_not_your_turn, LaxTurns(), "out of turn")


class ForgetfulJson(SecretBids):
    def _state_to_json(self, state: BidsState) -> dict[str, Any]:
        data = super()._state_to_json(state)
        data["won"] = [[] for _ in data["won"]]
        return data


def test_to_json_that_loses_data_is_caught() -> None:
    _fails_somewhere(check_json_roundtrip, ForgetfulJson(), "view differs after a JSON round-trip")


class Endless(SecretBids):
    def max_steps(self, num_players: int) -> int:
        return 2


def test_playouts_longer_than_the_bound_are_caught() -> None:
    with pytest.raises(AssertionError, match="max_steps = 2"):
        check_random_playouts(Endless(), 3, seed=0, games=1)


class Inflation(SecretBids):
    def invariants(self, state: BidsState) -> list[str]:
        return ["a chip appeared"] if state.round == 1 else []


def test_broken_invariants_are_caught() -> None:
    _fails_somewhere(check_invariants, Inflation(), "a chip appeared")


class NoWinner(SecretBids):
    def outcome(self, state: BidsState) -> Outcome:
        sound = super().outcome(state)
        return Outcome(sound.scores, (), sound.ranking, sound.places, sound.reason)


def test_an_outcome_without_winners_is_caught() -> None:
    game = NoWinner()
    with pytest.raises(AssertionError, match="no winner"):
        check_outcome(game, random_playout(game, 2, seed=3).final)


class StuckSeat(SecretBids):
    def legal_actions(self, state: BidsState, seat: int) -> list[Action]:
        return [] if seat == 1 else super().legal_actions(state, seat)


def test_a_seat_to_act_without_legal_actions_is_caught() -> None:
    game = StuckSeat()
    with pytest.raises(AssertionError, match="seat 1 must act but has no legal action"):
        check_every_actor_has_a_legal_action(game, game.new_game(2, 0))


class CarelessRedeal(SecretBids):
    def redeal(self, state: BidsState, seat: int, rng: random.Random) -> BidsState:
        twin = super().redeal(state, seat, rng)
        twin.chips = ((),) * state.num_players
        return twin


def test_a_redeal_the_seat_can_tell_apart_is_caught() -> None:
    game = CarelessRedeal()
    with pytest.raises(AssertionError, match=r"legal actions|view changes"):
        check_redeal_consistent(game, game.new_game(2, 0), random.Random(0))


class BrokenReplay(SecretBids):
    def _new_game(self, num_players: int, seed: int, options: Mapping[str, Any]) -> BidsState:
        return super()._new_game(num_players, seed + 1, options)


def test_a_replay_that_differs_is_caught() -> None:
    game = BrokenReplay()
    playout = random_playout(game, 2, seed=0)
    playout.final.rng = random.Random(99)  # as if the game drew from elsewhere
    with pytest.raises(AssertionError, match="replaying the record"):
        check_replay(game, playout)


# ------------------------------------------------------------------ helpers


def test_first_difference_names_the_path() -> None:
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}) == "[a][1][b]: 2 != 3"
    assert first_difference({"a": 1}, {"a": 1}) is None
    assert first_difference([1, 2], [1]) == ": length 2 != 1"
    assert first_difference({"a": 1}, {}) == "[a]: only in the first"


def test_json_problem_finds_what_json_cannot_carry() -> None:
    assert json_problem({"a": [1, 2.5, None, "x", True]}) is None
    assert json_problem({"a": float("inf")}) == "[a] is inf"
    assert json_problem({"a": {1, 2}}) == "[a] is a set: {1, 2}"
    assert json.dumps(SecretBids().view(SecretBids().new_game(2, 0), None))
