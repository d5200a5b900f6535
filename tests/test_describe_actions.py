"""Buttons and menus say in words what an action does (``Game.describe_action``)."""

from __future__ import annotations

import random

import potluck
from potluck.games.belly_battle.game import BellyBattle


def _every_action_in_words(
    game_id: str,
    num_players: int,
    options: dict[str, object],
    seeds: tuple[int, int] = (3, 3),
    limit: int = 0,
) -> int:
    """Describe every legal action along a random game (up to ``limit`` descriptions, 0 for
    the whole game): each in words, never its notation. ``seeds`` deal the game and pick
    the moves. How many were described."""
    game = potluck.load_game(game_id)
    state = game.new_game(num_players, seed=seeds[0], options=options)
    rng = random.Random(seeds[1])
    seen = 0
    while (acting := game.to_act(state)) and (not limit or seen < limit):
        seat = acting[0]
        legal = game.legal_actions(state, seat)
        for action in legal:
            words = game.describe_action(state, seat, action)
            assert words != str(action), f"{action} is described by its notation"
            assert words[0].isupper(), words
            seen += 1
        game.step(state, seat, rng.choice(legal))
    return seen


def test_belly_battle_describes_every_action_in_words_not_notation() -> None:
    assert _every_action_in_words("belly-battle", 4, {}, seeds=(5, 2), limit=3000) > 100


def test_belly_battle_buy_names_the_restaurant_and_its_price() -> None:
    game = potluck.load_game("belly-battle")
    assert isinstance(game, BellyBattle)
    state = game.new_game(2, seed=1)
    while (acting := game.to_act(state)) and "buy" not in map(
        str, game.legal_actions(state, acting[0])
    ):
        game.step(state, acting[0], game.legal_actions(state, acting[0])[-1])
    seat = acting[0]
    buy = game.parse_action(state, seat, "buy")
    card = game.space_card[state.pos[seat]]
    assert (
        game.describe_action(state, seat, buy) == f"Buy {game.names[card]} for {game.price[card]}"
    )


def test_belle_of_the_ball_describes_every_action_in_words() -> None:
    assert _every_action_in_words("belle-of-the-ball", 3, {}) > 100
    assert _every_action_in_words("belle-of-the-ball", 3, {"belles_in_guest_deck": True}) > 100


def test_food_advice_describes_every_action_in_words() -> None:
    assert _every_action_in_words("food-advice", 4, {}) > 100


def test_burger_joint_describes_every_action_in_words() -> None:
    assert _every_action_in_words("burger-joint", 2, {}) > 100
