"""Random playouts and the whole conformance suite over them.

    >>> import potluck
    >>> from potluck.testing import run_conformance
    >>> playout = run_conformance(potluck.load_game("cafe-carnage"), num_players=4, seed=1)
    >>> playout.final.phase == 4
    True

``run_conformance`` plays one random game (uniform among the legal actions of a
seat drawn uniformly from ``to_act``, from a generator seeded by ``seed``; the game
itself is seeded with ``seed`` too) and runs every check of
:mod:`potluck.testing.checks` along it: the cheap ones at every step, the costly
ones (views and redeals, JSON round-trips, replays) on about one step in
``sample_every``, on the first and on the final state.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from potluck.engine.action import Action
from potluck.engine.errors import PotluckError
from potluck.engine.registry import list_games, load_game
from potluck.engine.state import State
from potluck.testing.checks import (
    AnyGame,
    Snapshot,
    check_action_encoding,
    check_action_text_roundtrip,
    check_apply_pure,
    check_bot_view_is_part_of_view,
    check_every_actor_has_a_legal_action,
    check_explain_matches_errors,
    check_invariants,
    check_json_roundtrip,
    check_not_your_turn,
    check_observation_encoding,
    check_outcome,
    check_redeal_consistent,
    check_sealed_choices_hidden,
    check_views_json_and_no_leaks,
    dump,
    snapshot,
    where,
)
from potluck.testing.redeal_checks import check_redeal_canonical
from potluck.testing.search_checks import check_search_uses_information_only, check_win_chances

#: Called with the state before each step (its step number is ``len(state.history)``)
#: and once with the final state.
StepHook = Callable[[State], None]

#: How many sampled states of a playout also get the costly future-play check.
_FUTURE_CHECKS = 3


@dataclass
class Playout:
    """One random game: how it was set up, the actions taken, and the final state."""

    game: AnyGame
    num_players: int
    seed: int
    options: Mapping[str, Any]
    final: State
    actions: list[tuple[int, Action]] = field(default_factory=list)


def chooser(seed: int) -> random.Random:
    """The generator a playout with ``seed`` chooses seats and actions with.

    It differs from the game's own ``random.Random(seed)``, so that the choices are
    not the same numbers as the game's chance.
    """
    return random.Random(f"potluck-playout-{seed}")


def random_playout(
    game: AnyGame,
    num_players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    on_step: StepHook | None = None,
) -> Playout:
    """Play a game to its end with uniformly random choices; check it ends within
    ``game.max_steps`` and that every chosen seat has a legal action.

    ``on_step`` sees every state before its step, and the final state.
    """
    state = game.new_game(num_players, seed, options)
    rng = chooser(seed)
    bound = game.max_steps(num_players)
    actions: list[tuple[int, Action]] = []
    while True:
        if on_step is not None:
            on_step(state)
        to_act = game.to_act(state)
        if not to_act:
            break
        if len(actions) >= bound:
            raise AssertionError(
                f"the game has not ended after max_steps = {bound} steps ({where(game, state)})"
            )
        seat = to_act[rng.randrange(len(to_act))]
        legal = game.legal_actions(state, seat)
        if not legal:
            raise AssertionError(
                f"seat {seat} must act but has no legal action ({where(game, state)})"
            )
        action = legal[rng.randrange(len(legal))]
        game.step(state, seat, action)
        actions.append((seat, action))
    return Playout(game, num_players, seed, dict(state.options), state, actions)


_S = TypeVar("_S", bound=State)


def random_position(game: AnyGame, state: _S, seed: int, steps: int) -> _S:
    """``state`` after ``steps`` uniformly random moves of its first seat to act (a
    generator seeded by ``seed``), or its last position with a seat to act if the game
    ends sooner: positions for property tests that then change a state at will.

        >>> import potluck
        >>> game = potluck.load_game("burger-joint")
        >>> len(random_position(game, game.new_game(2, 3), seed=3, steps=7).history)
        7
    """
    rng = random.Random(seed)
    for _ in range(steps):
        seat = state.acting[0]
        legal = game.legal_actions(state, seat)
        successor = state.clone()
        game.step(successor, seat, legal[rng.randrange(len(legal))])
        if not successor.acting:
            break
        state = successor
    return state


def playout_positions(game: AnyGame, num_players: int, seed: int, every: int) -> list[State]:
    """Copies of the states of one ``random_playout`` with a seat to act, one every
    ``every`` moves of its history: positions from early to late in a game.

        >>> import potluck
        >>> states = playout_positions(potluck.load_game("burger-joint"), 2, seed=5, every=9)
        >>> bool(states) and all(len(s.history) % 9 == 0 for s in states)
        True
    """
    states: list[State] = []

    def keep(state: State) -> None:
        if len(state.history) % every == 0 and game.to_act(state):
            states.append(state.clone())

    random_playout(game, num_players, seed, on_step=keep)
    return states


def check_random_playouts(
    game: AnyGame,
    num_players: int,
    seed: int,
    games: int = 10,
    options: Mapping[str, Any] | None = None,
) -> None:
    """Play ``games`` random games (seeds ``seed``, ``seed + 1``, ...) with the cheap checks
    at every step: each ends within the bound, every seat to act has a legal action,
    the invariants hold, and the outcome is sound."""

    def cheap(state: State) -> None:
        check_every_actor_has_a_legal_action(game, state)
        check_invariants(game, state)

    for number in range(games):
        playout = random_playout(game, num_players, seed + number, options, on_step=cheap)
        check_outcome(game, playout.final)


def check_replay(
    game: AnyGame, playout: Playout, upto: Mapping[int, Snapshot] | None = None
) -> None:
    """The record of a playout is JSON, and replaying it rebuilds the final state;
    ``upto`` maps step numbers to the ``snapshot`` expected after that many actions."""
    record = game.record(playout.final)
    text = dump(record, f"the record ({where(game, playout.final)})")
    if len(record["actions"]) != len(playout.actions):
        raise AssertionError(
            f"the record holds {len(record['actions'])} actions, "
            f"the game took {len(playout.actions)}"
        )
    replayed = game.replay(json.loads(text))
    expected = snapshot(game, playout.final)
    got = snapshot(game, replayed)
    if got != expected:
        raise AssertionError(
            f"replaying the record does not rebuild the state ({where(game, playout.final)}): "
            f"{expected.difference(got)}"
        )
    for step, wanted in sorted((upto or {}).items()):
        got = snapshot(game, game.replay(record, upto=step))
        if got != wanted:
            raise AssertionError(
                f"replaying the first {step} actions does not rebuild the state after step {step} "
                f"({game.id}, {playout.num_players} players, seed {playout.seed}): "
                f"{wanted.difference(got)}"
            )


def run_conformance(
    game: AnyGame,
    num_players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    sample_every: int = 5,
) -> Playout:
    """Run every conformance check over one random playout; ``AssertionError`` on a breach.

    Every step: turn, not-your-turn, action text and encoding, ``apply`` purity and
    the game's invariants. On about one step in ``sample_every`` (drawn from ``seed``,
    so that the sample does not fall in step with the game's rounds), the first and
    the final:
    also views and leaks, redeals, sealed choices, ``explain`` against the errors,
    JSON round-trips (for a few of them with the rest of the game played on) and
    replays up to that step. Returns the playout for further checks.
    """
    checks = random.Random(f"potluck-checks-{seed}")
    sampled: dict[int, State] = {}

    def every_step(state: State) -> None:
        step = len(state.history)
        check_every_actor_has_a_legal_action(game, state)
        check_not_your_turn(game, state)
        check_action_text_roundtrip(game, state)
        check_action_encoding(game, state)
        check_invariants(game, state)
        to_act = game.to_act(state)
        if to_act:
            seat = to_act[checks.randrange(len(to_act))]
            legal = game.legal_actions(state, seat)
            check_apply_pure(game, state, seat, legal[checks.randrange(len(legal))])
        if step == 0:
            check_outcome(game, state)
        if step == 0 or not to_act or checks.randrange(sample_every) == 0:
            check_views_json_and_no_leaks(game, state, checks)
            check_bot_view_is_part_of_view(game, state)
            check_redeal_consistent(game, state, checks)
            check_sealed_choices_hidden(game, state, checks)
            check_redeal_canonical(game, state, checks)
            if step % 3 == 0:  # the search is the costliest check: on a third of them
                check_search_uses_information_only(game, state, checks)
            check_explain_matches_errors(game, state, checks)
            check_observation_encoding(game, state)
            check_win_chances(game, state)
            sampled[step] = state.clone()

    playout = random_playout(game, num_players, seed, options, on_step=every_step)
    check_outcome(game, playout.final)
    check_win_chances(game, playout.final)
    check_replay(game, playout, {step: snapshot(game, state) for step, state in sampled.items()})
    steps = sorted(sampled)
    with_future = set(checks.sample(steps, min(_FUTURE_CHECKS, len(steps))))
    for step in steps:
        future = playout.actions[step:] if step in with_future else []
        check_json_roundtrip(game, sampled[step], future)
    return playout


#: Every game once, at the table its search and bot tests seat (four players; Burger
#: Joint, a two-player game, two), for ``parametrize``.
USUAL_TABLES: tuple[tuple[str, int], ...] = (
    ("belle-of-the-ball", 4),
    ("belly-battle", 4),
    ("burger-joint", 2),
    ("cafe-carnage", 4),
    ("food-advice", 4),
)


def table_cases(games: list[str] | None = None) -> list[tuple[str, int, dict[str, Any]]]:
    """Every table a game seats, as ``(game id, players, options)``: the usual sizes with
    default options, then smaller ones that only an option allows (FoodAdvice's
    ``small_table``), with the true-or-false options that allow them switched on.

    >>> ("food-advice", 2, {"small_table": True}) in table_cases()
    True
    """
    cases: list[tuple[str, int, dict[str, Any]]] = []
    for game_id in list_games() if games is None else games:
        game = load_game(game_id)
        switches = {name: True for name, option in game.options.items() if option.type is bool}
        for n in range(1, game.min_players):
            try:
                game.new_game(n, 0, switches)
            except PotluckError:
                continue
            cases.append((game_id, n, switches))
        cases.extend((game_id, n, {}) for n in range(game.min_players, game.max_players + 1))
    return cases


def conformance_cases(games: list[str] | None = None) -> list[tuple[str, int]]:
    """Every ``(game id, number of players)`` the suite should cover, for ``parametrize``.

    >>> ("cafe-carnage", 4) in conformance_cases()
    True
    """
    cases: list[tuple[str, int]] = []
    for game_id in list_games() if games is None else games:
        game = load_game(game_id)
        cases.extend((game_id, n) for n in range(game.min_players, game.max_players + 1))
    return cases
