"""The policy-improvement bot (``improve``, ``potluck.search.improve``): the move judge's
best move, played. Every game, information only, reproducible, its time bound, its specs."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from typer.testing import CliRunner

import potluck
import potluck.judge
from potluck.agents import (
    GENERIC_BOTS,
    InformationSet,
    agent_factories,
    decide,
    effective_spec,
    make_agent,
)
from potluck.cli import app
from potluck.engine.botspec import BotSpecError
from potluck.engine.errors import PotluckError
from potluck.engine.state import State
from potluck.games.cafe_carnage.state import BALLOT
from potluck.review import DEFAULT_THRESHOLDS
from potluck.search.improve import IMPROVE_DEFAULTS, SETTLE_BANDS, PolicyImprovementBot, leaves
from potluck.sim import play_game
from potluck.testing.search_checks import check_search_uses_information_only
from potluck.testing.suite import USUAL_TABLES, playout_positions

#: Reproducible and quick: worlds alone bound it.
SMALL = "improve:time=0,worlds=8,min_worlds=4,candidates=4"


def _positions(game_id: str, players: int, every: int) -> list[State]:
    return playout_positions(potluck.load_game(game_id), players, seed=6, every=every)


def test_every_game_can_seat_it() -> None:
    for game_id in potluck.list_games():
        assert "improve" in agent_factories(potluck.load_game(game_id))
    assert GENERIC_BOTS["improve"] is PolicyImprovementBot


@pytest.mark.parametrize(("game_id", "players"), USUAL_TABLES)
def test_it_plays_legal_moves_to_the_end_of_a_game(game_id: str, players: int) -> None:
    """A whole game through the simulation harness (it asks through ``decide``)."""
    game = potluck.load_game(game_id)
    spec = "improve:time=0,worlds=2,min_worlds=1,candidates=3"
    if game_id == "cafe-carnage":
        spec += ",depth=8"
    result = play_game(game, players, [spec, *["greedy"] * (players - 1)], seed=11)
    assert result.outcome.winners


@pytest.mark.parametrize(("game_id", "players"), USUAL_TABLES)
def test_its_choice_is_the_same_in_a_state_redealt_for_the_seat(game_id: str, players: int) -> None:
    """Same view and same seed, other hidden cards, sealed choices and future chance:
    the same move (the conformance suite's check)."""
    game = potluck.load_game(game_id)
    rng = random.Random(4)
    for state in _positions(game_id, players, every=9)[:5]:
        check_search_uses_information_only(game, state, rng, SMALL)


def test_it_is_reproducible_from_its_seed_and_reads_its_information_set_only() -> None:
    game = potluck.load_game("burger-joint")
    state = game.new_game(2, seed=9)
    bot = make_agent(game, "improve:time=0,worlds=24")
    assert isinstance(bot, PolicyImprovementBot)
    seat = game.to_act(state)[0]
    legal = game.legal_actions(state, seat)
    first = bot.search(game, InformationSet(game, state, seat), legal, random.Random(3))
    found = bot.last
    second = bot.search(game, InformationSet(game, state, seat), legal, random.Random(3))
    assert first == second
    assert found is not None
    assert bot.last is not None
    assert found.compared == bot.last.compared
    assert found.worlds == bot.last.worlds
    with pytest.raises(PotluckError, match="decide"):
        bot.choose(game, None, seat, legal, random.Random(0))


def test_another_seats_sealed_ballot_is_not_peeked_at() -> None:
    """Café Carnage: seat 2 has cast its sealed ballot card; seat 0's choice is the same
    whichever card it cast."""
    game = potluck.load_game("cafe-carnage")
    state = game.new_game(4, seed=3)
    rng = random.Random(1)
    while state.phase != BALLOT:
        seat = game.to_act(state)[0]
        game.step(state, seat, rng.choice(game.legal_actions(state, seat)))
    chosen = set()
    for card in game.legal_actions(state, 2):
        after = game.apply(state, 2, card)
        bot = make_agent(game, "improve:time=0,worlds=16,depth=12")
        chosen.add(str(decide(bot, game, after, 0, random.Random(2))))
    assert len(chosen) == 1


def test_another_seats_sealed_order_is_not_peeked_at() -> None:
    game = potluck.load_game("cafe-carnage")
    state = game.new_game(4, seed=12)
    chosen = set()
    for dish in game.legal_actions(state, 1):
        after = game.apply(state, 1, dish)
        bot = make_agent(game, "improve:time=0,worlds=16,depth=12")
        chosen.add(str(decide(bot, game, after, 0, random.Random(8))))
    assert len(chosen) == 1


def test_it_plays_the_greedy_move_unless_a_better_one_is_shown() -> None:
    """With one world to judge on no comparison can show a gain beyond its noise: the
    policy's move is played; the judgement it acted on is kept for benchmarks."""
    game = potluck.load_game("belle-of-the-ball")
    state = game.new_game(4, seed=5)
    greedy = make_agent(game, "greedy")
    bot = make_agent(game, "improve:time=0,worlds=1,min_worlds=1")
    assert isinstance(bot, PolicyImprovementBot)
    for _ in range(6):
        seat = game.to_act(state)[0]
        move = decide(bot, game, state, seat, random.Random(1))
        if bot.last is not None:
            assert move == bot.last.played
            assert move == decide(greedy, game, state, seat, random.Random(0))
        game.step(state, seat, move)


def test_the_time_bound_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake CPU clock that moves 10 ms at each look: a decision stops at its bound,
    having played at least one world; ``wall`` bounds the wall clock alike."""
    now = [0.0]

    def clock() -> float:
        now[0] += 0.01
        return now[0]

    monkeypatch.setattr(potluck.judge, "_now", clock)
    game = potluck.load_game("cafe-carnage")
    state = game.new_game(4, seed=2)
    bot = make_agent(game, "improve:time=0.3,worlds=100000")
    assert isinstance(bot, PolicyImprovementBot)
    seat = game.to_act(state)[0]
    decide(bot, game, state, seat, random.Random(0))
    assert bot.last is not None
    assert bot.last.worlds >= 1
    assert bot.last.seconds <= 0.3 + 0.02
    monkeypatch.setattr(potluck.judge, "_wall", clock)
    walled = make_agent(game, "improve:time=0,wall=0.2,worlds=100000")
    assert isinstance(walled, PolicyImprovementBot)
    decide(walled, game, state, seat, random.Random(0))
    assert walled.last is not None
    assert 1 <= walled.last.worlds < 100000


def test_it_takes_the_judges_playouts_per_game_and_a_spec_overrides_them() -> None:
    game = potluck.load_game("cafe-carnage")
    assert str(effective_spec(game, "improve")) == "improve:cutoff=model,depth=24"
    assert str(effective_spec(game, "improve:depth=8")) == "improve:cutoff=model,depth=8"
    bot = make_agent(game, "improve:policy=greedy-tuned")
    assert isinstance(bot, PolicyImprovementBot)
    assert (bot.depth, bot.cutoff, bot.policy, bot.others) == (
        24,
        "model",
        "greedy-tuned",
        "greedy",
    )
    assert bot.spec == "improve:policy=greedy-tuned"
    assert IMPROVE_DEFAULTS["belly-battle"] == {"horizon": "16"}
    assert SETTLE_BANDS == DEFAULT_THRESHOLDS


def test_bad_specs_are_refused_clearly() -> None:
    game = potluck.load_game("cafe-carnage")
    with pytest.raises(BotSpecError, match="time"):
        make_agent(game, "improve:time=-1")
    with pytest.raises(BotSpecError, match="policy"):
        make_agent(game, "improve:policy=ismcts")
    with pytest.raises(BotSpecError, match="sims"):
        make_agent(game, "improve:sims=5")
    belle = potluck.load_game("belle-of-the-ball")
    state = belle.new_game(4, seed=1)
    untuned = make_agent(belle, "improve:policy=greedy-tuned")
    with pytest.raises(PotluckError, match="plain bot of Belle of the Ball"):
        decide(untuned, belle, state, belle.to_act(state)[0], random.Random(0))
    cut = make_agent(belle, "improve:depth=10")
    with pytest.raises(PotluckError, match="no fitted win chances"):
        decide(cut, belle, state, belle.to_act(state)[0], random.Random(0))


def test_potluck_bots_lists_it_with_its_defaults() -> None:
    result = CliRunner().invoke(app, ["bots", "cafe-carnage"])
    assert result.exit_code == 0, result.output
    assert "improve" in result.output
    assert "its defaults are cutoff=model,depth=24" in result.output


def test_the_servers_bot_worker_seats_it_as_the_hard_level_of_its_games() -> None:
    from potluck.server.botpool import HARD_BY_GAME, Thought, hard_spec, think

    game = potluck.load_game("cafe-carnage")
    assert hard_spec(game) == HARD_BY_GAME["cafe-carnage"] == "improve:wall=0.4"
    state = game.new_game(4, seed=3)
    thought = Thought("cafe-carnage", None, game.to_json(state), 1, "improve:time=0,worlds=4", 7, 0)
    text = think(thought)
    assert game.explain(state, 1, text) is None  # a legal move
    assert think(thought) == text  # reproducible from the seed it is sent


def test_leave_plays_the_judges_best_move_only_on_a_lead_of_that_many_standard_errors() -> None:
    """``leave=1`` (the default) is the judge's own rule; a stricter ``leave`` keeps the
    policy's move where the same judgement's lead is within ``leave`` standard errors (in
    win chance and in points), a very strict one always keeps it, and ``leave=0`` plays
    the move the race found on any lead."""
    game = potluck.load_game("cafe-carnage")
    spec = "improve:time=0,worlds=24,min_worlds=8,candidates=6"
    bots = [make_agent(game, f"{spec},leave={leave}") for leave in (1, 2, 1000, 0)]
    assert [bot.leave for bot in bots if isinstance(bot, PolicyImprovementBot)] == [1, 2, 1000, 0]
    assert make_agent(game, spec).leave == 1.0  # type: ignore[attr-defined]
    with pytest.raises(BotSpecError, match="leave"):
        make_agent(game, f"{spec},leave=-1")
    left = 0
    for state in _positions("cafe-carnage", 4, every=7)[:12]:
        seat = game.to_act(state)[0]
        if len(game.legal_actions(state, seat)) < 2:
            continue
        moves = [decide(bot, game, state, seat, random.Random(3)) for bot in bots]
        found = [bot.last for bot in bots if isinstance(bot, PolicyImprovementBot) and bot.last]
        assert len(found) == 4
        # the same judgement (all but its CPU seconds), read by another rule
        assert len({replace(f, seconds=0.0) for f in found}) == 1
        judged = found[0]
        assert moves[0] == judged.best
        assert moves[2] == judged.played
        strict = judged.best != judged.played and (
            judged.difference > 2 * judged.loss_stderr
            or judged.point_difference > 2 * judged.point_stderr
        )
        assert moves[1] == (judged.best if strict else judged.played)
        raced = judged.raced
        assert raced is not None
        assert judged.best in (judged.played, raced)
        led = judged.difference > 0 or judged.point_difference > 0
        assert moves[3] == (raced if led else judged.played)  # leave=0: any lead
        assert leaves(judged, 1.0) == (judged.best != judged.played)
        left += moves[0] != judged.played
    assert left > 0  # the positions test something
