"""``greedy-thrifty`` (Belly Battle's greedy bot with the sales it leaves out): it plays
the greedy bot's move except where that move gives a star or tokens away, and the
search can follow it."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import potluck
from potluck.agents import agent_factories, decide, make_agent
from potluck.engine.action import Action
from potluck.engine.errors import PotluckError
from potluck.games.belly_battle.actions import (
    DECLINE,
    OFFER,
    PASS,
    SELL,
    SELL_CHEF,
    SELL_STAR,
    SWAP,
    BellyAction,
)
from potluck.search.bot_names import THRIFTY_GAMES
from potluck.search.ismcts import ISMCTSBot
from potluck.search.thrifty import THRIFTY_BOTS, ThriftyGreedy, board_moves

GAME = potluck.load_game("belly-battle")


def _allowed(greedy: BellyAction, thrifty: Action, legal: list[Action]) -> bool:
    """Whether ``thrifty`` is what the module docstring says for greedy's ``greedy``."""
    assert isinstance(thrifty, BellyAction)
    sales = {a.kind for a in legal if isinstance(a, BellyAction) and a.card == greedy.card}
    if greedy.kind == SELL and SELL_STAR in sales:
        return thrifty.kind == SELL_STAR and thrifty.card == greedy.card
    if greedy.kind == SWAP and SELL_STAR in sales:
        return thrifty.kind == SELL_STAR and thrifty.card == greedy.card
    if greedy.kind == SWAP and SELL_CHEF in sales:
        return thrifty.kind == SELL_CHEF and thrifty.card == greedy.card
    return thrifty == greedy


def _walk(seed: int, steps: int, players: int) -> Any:
    """A state after ``steps`` moves of greedy bots (a few random ones, to reach odd
    states), from deal ``seed``."""
    state = GAME.new_game(players, seed)
    greedy = make_agent(GAME, "greedy")
    rng = random.Random(seed)
    for _ in range(steps):
        if GAME.is_over(state):
            break
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        move = rng.choice(legal) if rng.random() < 0.05 else decide(greedy, GAME, state, seat, rng)
        GAME.step(state, seat, move)
    return state


def _position(seed: int, steps: int, players: int) -> tuple[Any, int, list[Action]] | None:
    """``_walk``'s state with the seat to act and its legal moves (``None`` if it ended)."""
    state = _walk(seed, steps, players)
    if GAME.is_over(state):
        return None
    seat = GAME.to_act(state)[0]
    return state, seat, GAME.legal_actions(state, seat)


#: Random positions: a deal, greedy moves (a few random) and a table size.
POSITIONS = st.builds(_position, st.integers(0, 10**6), st.integers(0, 900), st.integers(2, 6))


@settings(max_examples=60, deadline=None)
@given(found=POSITIONS)
def test_it_plays_the_greedy_move_but_where_that_gives_tokens_away(
    found: tuple[Any, int, list[Action]] | None,
) -> None:
    if found is None:
        return
    state, seat, legal = found
    greedy = make_agent(GAME, "greedy")
    thrifty = make_agent(GAME, "greedy-thrifty")
    greedy_move = decide(greedy, GAME, state, seat, random.Random(0))
    thrifty_move = decide(thrifty, GAME, state, seat, random.Random(0))
    assert isinstance(greedy_move, BellyAction)
    assert thrifty_move in legal
    assert _allowed(greedy_move, thrifty_move, legal)


def test_both_departures_happen_in_greedy_games() -> None:
    """Whole games with one thrifty seat: it sells a star where greedy sells the card, and
    sells a token before a swap where greedy swaps the card with it."""
    seen: set[int] = set()
    greedy = make_agent(GAME, "greedy")
    thrifty = make_agent(GAME, "greedy-thrifty")
    for deal in range(40):
        state = GAME.new_game(4, deal)
        rng = random.Random(deal)
        while not GAME.is_over(state) and len(seen) < 2:
            seat = GAME.to_act(state)[0]
            move = decide(thrifty if seat == 0 else greedy, GAME, state, seat, rng)
            if seat == 0:
                plain = decide(greedy, GAME, state, seat, random.Random(0))
                assert isinstance(plain, BellyAction)
                if plain != move:
                    seen.add(plain.kind)
            GAME.step(state, seat, move)
        if len(seen) == 2:
            break
    assert seen == {SELL, SWAP}


def test_it_takes_the_greedy_bots_parameters_and_only_belly_battle_seats_it() -> None:
    bot = make_agent(GAME, "greedy-thrifty:reserve=200,income_horizon=9")
    assert isinstance(bot, ThriftyGreedy)
    assert bot.greedy.weights.reserve == 200
    assert bot.greedy.weights.income_horizon == 9
    for game_id in potluck.list_games():
        names = agent_factories(potluck.load_game(game_id))
        assert ("greedy-thrifty" in names) == (game_id in THRIFTY_BOTS)


def test_its_games_are_named_without_importing_them() -> None:
    # potluck.agents lists every game's bots; naming this one must not load Belly Battle.
    assert set(THRIFTY_BOTS) == THRIFTY_GAMES
    probe = (
        "import sys, potluck.agents; "
        "print(any(name.startswith('potluck.games.belly_battle') for name in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == "False"


def test_the_search_takes_it_as_its_guide_and_plays_legal_moves() -> None:
    bot = make_agent(GAME, "ismcts:guide=greedy-thrifty,sims=8")
    state = GAME.new_game(4, seed=2)
    rng = random.Random(3)
    for _ in range(60):
        seat = GAME.to_act(state)[0]
        move = decide(bot, GAME, state, seat, rng)
        assert move in GAME.legal_actions(state, seat)
        GAME.step(state, seat, move)


@settings(max_examples=60, deadline=None)
@given(found=POSITIONS)
def test_board_moves_keep_a_debts_moves_and_drop_other_sales_and_offers(
    found: tuple[Any, int, list[Action]] | None,
) -> None:
    if found is None:
        return
    state, seat, legal = found
    favourite = decide(make_agent(GAME, "greedy-thrifty"), GAME, state, seat, random.Random(0))
    kept = board_moves(legal, favourite)
    assert favourite in kept
    assert all(move in legal for move in kept)
    moves = [a for a in legal if isinstance(a, BellyAction)]
    if not {a.kind for a in moves} & {PASS, DECLINE}:  # a debt: every way to raise cash stays
        assert kept == legal
        return
    dealing = {SELL, SELL_CHEF, SELL_STAR, OFFER}
    assert [a for a in moves if a == favourite or a.kind not in dealing] == kept


def test_a_focused_search_plays_the_guides_move_where_nothing_else_is_compared() -> None:
    bot = make_agent(
        GAME, "ismcts:root=compare,guide=greedy-thrifty,prior=greedy,sims=16,focus=board"
    )
    thrifty = make_agent(GAME, "greedy-thrifty")
    state = GAME.new_game(4, seed=5)
    rng = random.Random(3)
    alone = 0
    for _ in range(80):
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        move = decide(bot, GAME, state, seat, rng)
        assert move in legal
        guide = decide(thrifty, GAME, state, seat, random.Random(0))
        if len(legal) > 1 and len(board_moves(legal, guide)) == 1:
            alone += 1
            assert move == guide
        GAME.step(state, seat, move)
    assert alone > 0


def test_the_guides_reserve_is_the_searching_seats_alone() -> None:
    bot = make_agent(GAME, "ismcts:guide=greedy-thrifty,guide_reserve=0,sims=8")
    assert isinstance(bot, ISMCTSBot)
    search = bot.tree(GAME, 0, random.Random(0))
    assert search.greedy.greedy.weights.reserve == 0
    assert search.others.weights.reserve == 120  # the other seats: the default greedy bot
    state = GAME.new_game(4, seed=2)
    seat = GAME.to_act(state)[0]
    assert decide(bot, GAME, state, seat, random.Random(1)) in GAME.legal_actions(state, seat)


def test_a_guide_weight_the_guide_lacks_is_refused() -> None:
    cafe = potluck.load_game("cafe-carnage")
    bot = make_agent(cafe, "ismcts:guide_reserve=10,sims=4,prior=greedy")
    state = cafe.new_game(4, seed=1)
    seat = cafe.to_act(state)[0]
    with pytest.raises(PotluckError, match="no weight 'reserve'"):
        decide(bot, cafe, state, seat, random.Random(1))
