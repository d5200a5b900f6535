"""``improve:others=adaptive``: the model of the other seats learned from the seat's own
views (``potluck.search.opponents``). Legal in every game, reproducible, blind to what
the seat cannot see, its specs checked."""

from __future__ import annotations

import random

import pytest

import potluck
from potluck.agents import InformationSet, decide, make_agent
from potluck.engine.botspec import BotSpecError
from potluck.search.improve import PolicyImprovementBot
from potluck.search.opponents import OpponentModel
from potluck.sim import play_game
from potluck.testing import USUAL_TABLES

#: Reproducible and quick: worlds alone bound it.
ADAPTIVE = (
    "improve:others=adaptive,settle=auto,time=0,worlds=2,min_worlds=1,candidates=3,model_worlds=2"
)


def _spec(game_id: str) -> str:
    return ADAPTIVE + (",depth=8" if game_id == "cafe-carnage" else "")


@pytest.mark.parametrize(("game_id", "players"), USUAL_TABLES)
def test_it_plays_legal_moves_to_the_end_of_a_game(game_id: str, players: int) -> None:
    game = potluck.load_game(game_id)
    others = ["random", *["greedy"] * (players - 2)]
    result = play_game(game, players, [_spec(game_id), *others], seed=11)
    assert result.outcome.winners


def test_a_whole_game_is_the_same_from_the_same_seeds() -> None:
    game = potluck.load_game("belle-of-the-ball")
    seats = [_spec("belle-of-the-ball"), "random", "greedy", "greedy"]
    first = play_game(game, 4, seats, seed=5, keep_record=True)
    second = play_game(game, 4, seats, seed=5, keep_record=True)
    assert first.record is not None
    assert first.record == second.record


def test_another_seats_sealed_order_is_not_peeked_at_by_the_model() -> None:
    """Café Carnage: seat 0 orders its starter; seat 1 seals one starter or another;
    at seat 0's next decision (its main course, seat 1's starter still sealed) the
    bot, its model having kept worlds since, chooses alike and sees alike."""
    game = potluck.load_game("cafe-carnage")
    spec = "improve:others=adaptive,time=0,worlds=8,depth=8,model_worlds=3"
    start = game.new_game(4, seed=12)
    seen = set()
    for dish in game.legal_actions(start, 1)[:3]:
        bot = make_agent(game, spec)  # a fresh bot each time, no copy of a compiled state
        assert isinstance(bot, PolicyImprovementBot)
        state = game.new_game(4, seed=12)
        game.step(state, 0, decide(bot, game, state, 0, random.Random(1)))
        game.step(state, 1, dish)
        for seat in (2, 3):
            game.step(state, seat, game.legal_actions(state, seat)[0])
        assert 0 in game.to_act(state)
        move = decide(bot, game, state, 0, random.Random(2))
        seen.add((str(move), bot.last_shares))
    assert len(seen) == 1


def test_the_model_starts_greedy_and_learns_a_random_seat() -> None:
    """Belle of the Ball: with no votes every seat is greedy; after a game's worth of a
    seat's decisions, random seats are seen as less greedy than greedy ones."""
    game = potluck.load_game("belle-of-the-ball")
    state = game.new_game(4, seed=3)
    model = OpponentModel(game, "greedy", worlds=4, prior=4)
    greedy = make_agent(game, "greedy")
    random_bot = make_agent(game, "random")
    rng = random.Random(0)
    shares: tuple[float, ...] = ()
    first = True
    while game.to_act(state):
        seat = game.to_act(state)[0]
        if seat == 0:
            info = InformationSet(game, state, 0)
            shares = model.shares(info, f"test:{info.moves}")
            if first:
                assert shares == (1.0, 1.0, 1.0, 1.0)
                first = False
            move = decide(greedy, game, state, 0, rng)
            model.remember(info, move, f"test:{info.moves}")
        else:
            move = decide(greedy if seat == 1 else random_bot, game, state, seat, rng)
        game.step(state, seat, move)
    assert shares[0] == 1.0
    assert shares[1] > max(shares[2], shares[3])


def test_bad_specs_are_refused_clearly() -> None:
    game = potluck.load_game("cafe-carnage")
    with pytest.raises(BotSpecError, match="others"):
        make_agent(game, "improve:others=openspiel")
    with pytest.raises(BotSpecError, match="model_worlds"):
        make_agent(game, "improve:others=adaptive,model_worlds=0")
    with pytest.raises(BotSpecError, match="settle"):
        make_agent(game, "improve:settle=never")
    with pytest.raises(BotSpecError, match="model_prior"):
        make_agent(game, "improve:model_prior=0")


def test_the_judge_plays_as_before_where_every_seat_is_greedy() -> None:
    """Shares of 1.0 (a table the model finds greedy) draw nothing more: the judgement is
    the one without a model, world for world; shares below 1.0 change the playouts."""
    game = potluck.load_game("belle-of-the-ball")
    state = game.new_game(4, seed=7)
    seat = game.to_act(state)[0]
    legal = game.legal_actions(state, seat)
    bands = (0.05, 0.10, 0.20)

    def judge(shares: tuple[float, ...] | None) -> tuple[object, ...]:
        bot = make_agent(game, "improve:time=0,worlds=6,min_worlds=2,candidates=3")
        assert isinstance(bot, PolicyImprovementBot)
        playouts = bot.judge(game)
        info = InformationSet(game, state, seat)
        base = playouts.policy_move(info, legal, "same", random.Random(0))
        found = playouts.assess(info, legal, base, bands, "same", others_shares=shares)
        return found.compared, found.before, found.after

    assert judge(None) == judge((1.0, 1.0, 1.0, 1.0))
    assert judge(None) != judge((1.0, 0.0, 0.0, 0.0))
