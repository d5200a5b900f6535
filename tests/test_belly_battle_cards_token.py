"""Belly Battle's ``cards_token`` (issue 36): the rules make a new token at every change
of the public card state (``owner``, ``chefs``, ``star``, ``holders``, ``golden``), and
the greedy bot's ``seat_info.PublicCards`` is reused while the token is the same object.
So the property the reuse rests on is: the same token, the same cards. These tests play
random and greedy games (and clones of their positions, and positions saved and loaded)
and check it at every step, and that what the bot reads is always its view's."""

from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import potluck
from potluck.agents import decide, make_agent
from potluck.games.belly_battle import BellyBattle
from potluck.games.belly_battle.actions import BellyAction
from potluck.games.belly_battle.seat_info import PublicCards, SeatInfo
from potluck.games.belly_battle.state import BellyState
from potluck.sim import bot_rng

_LOADED = potluck.load_game("belly-battle")
assert isinstance(_LOADED, BellyBattle)
GAME: BellyBattle = _LOADED

Cards = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], int]


def _cards(state: BellyState) -> Cards:
    return (
        tuple(state.owner),
        tuple(state.chefs),
        tuple(state.star),
        tuple(state.holders),
        state.golden,
    )


class _Seen:
    """The card state first seen with each token (the tokens kept alive, so that no
    new object takes a freed one's identity)."""

    def __init__(self) -> None:
        self.by_token: dict[int, tuple[object, Cards]] = {}
        self.changes = 0

    def check(self, state: BellyState) -> None:
        token, cards = state.cards_token, _cards(state)
        kept = self.by_token.get(id(token))
        if kept is None:
            self.by_token[id(token)] = (token, cards)
            self.changes += 1
        else:
            assert kept[0] is token
            assert kept[1] == cards, "the cards changed but the token did not"


def _play(game: BellyBattle, players: int, seed: int, greedy_seats: int, steps: int) -> int:
    """Play from ``seed``; at every step check the token against the cards, sometimes on
    a clone (which must share the token while its cards are equal) or a reloaded copy
    (which must not), and the bot's input against the view. Returns the token changes."""
    seen = _Seen()
    state = game.new_game(players, seed=seed)
    bots = [
        make_agent(game, "greedy" if seat < greedy_seats else "random") for seat in range(players)
    ]
    rngs = [bot_rng(seed, seat) for seat in range(players)]
    order = random.Random(seed)
    for _ in range(steps):
        if not state.acting:
            break
        seen.check(state)
        watcher = order.randrange(players)
        cards = PublicCards.of(game, state)
        assert (cards.owner, cards.chefs, cards.star, cards.holders, cards.golden) == (
            state.owner,
            state.chefs,
            state.star,
            state.holders,
            state.golden,
        )
        info = game.bot_view(state, watcher)
        assert info == SeatInfo.from_view(game, game.view(state, watcher), watcher)
        roll = order.random()
        if roll < 0.05:
            twin = state.clone()
            assert twin.cards_token is state.cards_token
            state = twin
        elif roll < 0.07:
            loaded = game.from_json(game.to_json(state))
            assert loaded.cards_token is not state.cards_token
            state = loaded
        seat = state.acting[0]
        action = decide(bots[seat], game, state, seat, rngs[seat])
        assert isinstance(action, BellyAction)
        game.step(state, seat, action)
    return seen.changes


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 100_000),
    greedy_seats=st.integers(0, 6),
)
def test_the_same_token_means_the_same_cards_along_games(
    players: int, seed: int, greedy_seats: int
) -> None:
    _play(BellyBattle(), players, seed, greedy_seats, 400)


def test_whole_games_renew_the_token_at_card_changes() -> None:
    """Whole games at every table size, on one game object: the token changes often
    (cards bought, chefs hired, one-round cards taken and returned) and never lies."""
    game = BellyBattle()
    changes = 0
    for players in range(2, 7):
        changes += _play(game, players, 94600 + players, players // 2, 100_000)
    assert changes > 100


def test_a_pickled_state_and_game_share_no_token() -> None:
    """An unpickled state has a token of its own and the unpickled game's kept cards
    belong to no token, so neither is taken for the other's (the OpenSpiel round trip)."""
    state = GAME.new_game(4, seed=94610)
    GAME.bot_view(state, 0)
    game_copy, state_copy = pickle.loads(pickle.dumps((GAME, state)))
    assert state_copy.cards_token is not state.cards_token
    assert isinstance(game_copy.seat_memo, PublicCards)
    assert game_copy.seat_memo.token is None
    info = game_copy.bot_view(state_copy, 1)
    assert info == SeatInfo.from_view(game_copy, game_copy.view(state_copy, 1), 1)
