"""``ismcts:verify=N``: a move chosen over the greedy move is played only if fresh worlds,
played on by the greedy bot, confirm it."""

from __future__ import annotations

import random
from typing import Any

import pytest

import potluck
from potluck.agents import InformationSet, decide, make_agent
from potluck.engine.errors import PotluckError
from potluck.search.ismcts import ISMCTSBot
from potluck.sim import bot_rng

#: Belly Battle's default search, but guided by the plain greedy bot (the move the check
#: falls back to, below) and leaving its move on any advantage at all, so that its
#: comparison departs often and the check has departures to judge.
EAGER = (
    "ismcts:root=compare,sims=32,candidates=0,rollout=greedy,epsilon=0,depth=200,"
    "horizon=4,prior=greedy,reward=margin,scale=300,guide=greedy,guide_reserve=-1,confidence=0"
)


def _positions(deal: int, every: int, limit: int) -> list[tuple[Any, int]]:
    """Every ``every``-th decision with a choice of a greedy Belly Battle game."""
    game = potluck.load_game("belly-battle")
    greedy = make_agent(game, "greedy")
    state = game.new_game(4, deal)
    rngs = [bot_rng(deal, seat) for seat in range(4)]
    found: list[tuple[Any, int]] = []
    decisions = 0
    while not game.is_over(state) and len(found) < limit:
        seat = game.to_act(state)[0]
        if len(game.legal_actions(state, seat)) > 1:
            decisions += 1
            if decisions % every == 0:
                found.append((state.clone(), seat))
        game.step(state, seat, decide(greedy, game, state, seat, rngs[seat]))
    return found


def test_a_checked_search_plays_the_unchecked_choice_or_the_greedy_move() -> None:
    """The check runs after the comparison, on worlds drawn after it: the comparison's
    choice is the same with and without it, and the check either confirms that choice
    or falls back to the greedy move; where the two differ it has rejected a departure
    (with a 0-standard-error rule the comparison departs on any lead its few worlds
    show, and some of those leads do not hold on fresh worlds)."""
    game = potluck.load_game("belly-battle")
    greedy = make_agent(game, "greedy")
    plain = make_agent(game, EAGER)
    checked = make_agent(game, EAGER + ",verify=24")
    departures = rejected = 0
    for number, (state, seat) in enumerate(_positions(97950, every=3, limit=40)):
        unchecked = decide(plain, game, state, seat, random.Random(number))
        move = decide(checked, game, state, seat, random.Random(number))
        favourite = decide(greedy, game, state, seat, random.Random(0))
        assert move in (unchecked, favourite)
        if unchecked != favourite:
            departures += 1
            rejected += move == favourite
        else:
            assert move == favourite  # nothing to check
    assert departures >= 3
    assert 0 < rejected < departures


def test_a_check_cut_short_is_scored_by_the_games_win_chances() -> None:
    """With ``verify_horizon`` the checking playouts stop after that many turns and are
    scored by ``Game.win_chances``; the choice is reproducible from the generator and
    counts the check's playouts among its simulations."""
    game = potluck.load_game("belly-battle")
    bot = make_agent(game, EAGER + ",verify=16,verify_horizon=8")
    plain = make_agent(game, EAGER)
    assert isinstance(bot, ISMCTSBot)
    assert isinstance(plain, ISMCTSBot)
    assert (bot.verify, bot.verify_horizon) == (16, 8)
    checked_some = False
    for number, (state, seat) in enumerate(_positions(97951, every=2, limit=24)):
        info = InformationSet(game, state, seat)
        legal = game.legal_actions(state, seat)
        result = bot.analyse(game, info, legal, random.Random(number))
        again = bot.analyse(game, info, legal, random.Random(number))
        assert (result.best, result.simulations) == (again.best, again.simulations)
        unchecked = plain.analyse(game, info, legal, random.Random(number))
        assert result.estimates == unchecked.estimates  # the comparison's own figures
        if result.simulations > unchecked.simulations:
            checked_some = True
            assert result.simulations == unchecked.simulations + 2 * 16
    assert checked_some


def test_a_check_cut_short_needs_a_game_that_gives_win_chances() -> None:
    """Café Carnage gives no ``win_chances``: a check cut after some turns has nothing
    to score it by, and the search says so at its first decision instead of scoring it
    otherwise."""
    game = potluck.load_game("cafe-carnage")
    bot = make_agent(
        game,
        "ismcts:root=compare,sims=24,candidates=0,rollout=greedy,epsilon=0,depth=30,"
        "prior=greedy,confidence=0,verify=4,verify_horizon=2",
    )
    state = game.new_game(4, 97952)
    seat = game.to_act(state)[0]
    with pytest.raises(PotluckError, match="win chances"):
        decide(bot, game, state, seat, random.Random(1))


def test_the_check_is_off_by_default() -> None:
    for game_id in ("belly-battle", "food-advice"):
        bot = make_agent(potluck.load_game(game_id), "ismcts")
        assert isinstance(bot, ISMCTSBot)
        assert (bot.verify, bot.verify_horizon) == (0, 0)


def test_a_check_asking_for_an_impossible_lead_keeps_every_greedy_move() -> None:
    """``verify_confidence`` is the check's own rule: asked for a lead of 50 standard
    errors on its fresh worlds, no departure the comparison proposes is played."""
    game = potluck.load_game("belly-battle")
    greedy = make_agent(game, "greedy")
    plain = make_agent(game, EAGER)
    strict = make_agent(game, EAGER + ",verify=8,verify_confidence=50")
    proposed = 0
    for number, (state, seat) in enumerate(_positions(97953, every=3, limit=20)):
        favourite = decide(greedy, game, state, seat, random.Random(0))
        proposed += decide(plain, game, state, seat, random.Random(number)) != favourite
        assert decide(strict, game, state, seat, random.Random(number)) == favourite
    assert proposed >= 2
