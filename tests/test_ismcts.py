"""The generic search bot: information only, reproducible, budgets, sealed choices, every game."""

from __future__ import annotations

import json
import random
import time

import pytest
from typer.testing import CliRunner

import potluck
from exampletest import load_example
from potluck.agents import (
    GENERIC_BOTS,
    SEARCH_DEFAULTS,
    InformationSet,
    agent_factories,
    decide,
    effective_spec,
    make_agent,
    search_defaults,
)
from potluck.engine.botspec import BotSpecError
from potluck.engine.errors import PotluckError
from potluck.engine.state import State
from potluck.games.cafe_carnage.state import BALLOT
from potluck.games.food_advice.state import VOTING
from potluck.search import ISMCTSBot
from potluck.search.bench import bench_bot
from potluck.testing.search_checks import check_search_uses_information_only
from potluck.testing.suite import USUAL_TABLES, playout_positions

TINY = "ismcts:sims=6,depth=10"


def _positions(game_id: str, players: int, every: int) -> list[State]:
    return playout_positions(potluck.load_game(game_id), players, seed=5, every=every)


def test_ismcts_is_a_generic_bot_every_game_can_seat() -> None:
    for game_id in potluck.list_games():
        assert "ismcts" in agent_factories(potluck.load_game(game_id))
    assert GENERIC_BOTS["ismcts"] is ISMCTSBot


@pytest.mark.parametrize(("game_id", "players"), USUAL_TABLES)
def test_the_choice_is_the_same_in_a_state_redealt_for_the_seat(game_id: str, players: int) -> None:
    """The issue's invariance test: same view and same seed give the same choice."""
    game = potluck.load_game(game_id)
    rng = random.Random(3)
    states = _positions(game_id, players, every=7)
    for state in states[:12]:
        check_search_uses_information_only(game, state, rng, "ismcts:sims=40,depth=15")


@pytest.mark.parametrize(("game_id", "players"), USUAL_TABLES)
def test_every_game_plays_to_the_end_with_a_tiny_budget(game_id: str, players: int) -> None:
    game = potluck.load_game(game_id)
    bot = make_agent(game, TINY)
    state = game.new_game(players, seed=2)
    rng = random.Random(0)
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        game.step(state, seat, decide(bot, game, state, seat, rng))
    assert game.outcome(state).winners


def test_the_search_is_reproducible_from_the_bot_seed() -> None:
    game = potluck.load_game("cafe-carnage")
    state = game.new_game(4, seed=9)
    bot = make_agent(game, "ismcts:sims=80")
    assert isinstance(bot, ISMCTSBot)
    info = InformationSet(game, state, 0)
    legal = game.legal_actions(state, 0)
    first = bot.analyse(game, info, legal, random.Random(4))
    second = bot.analyse(game, info, legal, random.Random(4))
    assert first.estimates == second.estimates
    assert first.best == second.best


def test_the_simulation_budget_is_kept() -> None:
    game = potluck.load_game("belle-of-the-ball")
    state = game.new_game(4, seed=1)
    seat = game.to_act(state)[0]
    bot = ISMCTSBot(sims=37)
    result = bot.analyse(
        game, InformationSet(game, state, seat), game.legal_actions(state, seat), random.Random(0)
    )
    assert result.simulations == 37 == bot.simulations_run
    assert sum(e.visits for e in result.estimates) == 37
    assert 0.0 <= result.value <= 1.0


def test_the_time_budget_stops_the_search() -> None:
    game = potluck.load_game("burger-joint")
    state = game.new_game(2, seed=1)
    seat = game.to_act(state)[0]
    legal = game.legal_actions(state, seat)
    bot = make_agent(game, "ismcts:sims=0,time=0.05")
    assert isinstance(bot, ISMCTSBot)
    result = bot.analyse(game, InformationSet(game, state, seat), legal, random.Random(0))
    assert result.simulations >= 1
    assert result.seconds < 2.0  # a budget of 0.05 s: generous for a shared machine
    both = make_agent(game, "ismcts:sims=3,time=30")
    assert isinstance(both, ISMCTSBot)
    assert (
        both.analyse(game, InformationSet(game, state, seat), legal, random.Random(0)).simulations
        == 3
    )


def test_a_spec_without_any_budget_or_with_a_bad_parameter_is_refused() -> None:
    game = potluck.load_game("cafe-carnage")
    with pytest.raises(PotluckError, match="needs a budget"):
        make_agent(game, "ismcts:sims=0")
    with pytest.raises(BotSpecError, match="uct_c"):
        make_agent(game, "ismcts:exploration=2")
    with pytest.raises(BotSpecError, match="rollout"):
        make_agent(game, "ismcts:rollout=smart")
    with pytest.raises(BotSpecError, match="epsilon must be at most 1"):
        make_agent(game, "ismcts:epsilon=2")
    with pytest.raises(BotSpecError, match="prior is one of none, greedy"):
        make_agent(game, "ismcts:prior=oracle")


GUIDED = "ismcts:sims=10,depth=6,rollout=greedy,prior=greedy"


@pytest.mark.parametrize(("game_id", "players"), USUAL_TABLES)
def test_a_search_guided_by_the_greedy_bot_still_uses_information_only(
    game_id: str, players: int
) -> None:
    """Greedy rollouts and the greedy prior read views of *worlds*, never of the true state."""
    game = potluck.load_game(game_id)
    rng = random.Random(11)
    for state in _positions(game_id, players, every=11)[:5]:
        check_search_uses_information_only(game, state, rng, GUIDED)


def test_a_guided_search_is_reproducible_and_tries_the_greedy_move_first() -> None:
    game = potluck.load_game("belle-of-the-ball")
    state = game.new_game(4, seed=6)
    seat = game.to_act(state)[0]
    legal = game.legal_actions(state, seat)
    info = InformationSet(game, state, seat)
    bot = make_agent(game, GUIDED)
    assert isinstance(bot, ISMCTSBot)
    first = bot.analyse(game, info, legal, random.Random(2))
    again = bot.analyse(game, info, legal, random.Random(2))
    assert (first.best, first.estimates) == (again.best, again.estimates)
    greedy = make_agent(game, "greedy")
    favourite = greedy.choose(game, info.view(), seat, legal, random.Random(0))
    one = make_agent(game, "ismcts:sims=1,prior=greedy")
    assert isinstance(one, ISMCTSBot)
    assert one.analyse(game, info, legal, random.Random(2)).best == favourite


def test_asking_it_without_an_information_set_is_refused() -> None:
    game = potluck.load_game("cafe-carnage")
    state = game.new_game(4, seed=1)
    with pytest.raises(PotluckError, match="decide"):
        ISMCTSBot().choose(game, None, 0, game.legal_actions(state, 0), random.Random(0))


def test_another_seats_sealed_order_is_not_peeked_at() -> None:
    """Café Carnage: seat 1 ordered first; seat 0's choice is the same whatever seat 1 ordered."""
    game = potluck.load_game("cafe-carnage")
    state = game.new_game(4, seed=12)
    chosen = set()
    for dish in game.legal_actions(state, 1):
        after = game.apply(state, 1, dish)
        bot = make_agent(game, "ismcts:sims=60")
        chosen.add(str(decide(bot, game, after, 0, random.Random(8))))
    assert len(chosen) == 1


def test_another_seats_sealed_ballot_is_not_peeked_at() -> None:
    game = potluck.load_game("cafe-carnage")
    state = game.new_game(4, seed=3)
    rng = random.Random(1)
    while state.phase != BALLOT:
        seat = game.to_act(state)[0]
        game.step(state, seat, rng.choice(game.legal_actions(state, seat)))
    chosen = set()
    for card in game.legal_actions(state, 2):
        after = game.apply(state, 2, card)
        chosen.add(
            str(decide(make_agent(game, "ismcts:sims=60"), game, after, 0, random.Random(2)))
        )
    assert len(chosen) == 1


def test_another_seats_sealed_vote_is_not_peeked_at() -> None:
    game = potluck.load_game("food-advice")
    state = game.new_game(4, seed=2)
    rng = random.Random(0)
    while state.phase != VOTING:
        seat = game.to_act(state)[0]
        game.step(state, seat, rng.choice(game.legal_actions(state, seat)))
    chosen = set()
    for vote in game.legal_actions(state, 3):
        after = game.apply(state, 3, vote)
        chosen.add(
            str(decide(make_agent(game, "ismcts:sims=40"), game, after, 0, random.Random(5)))
        )
    assert len(chosen) == 1


def test_margin_rewards_and_greedy_rollouts_run() -> None:
    game = potluck.load_game("belly-battle")
    state = game.new_game(3, seed=4)
    seat = game.to_act(state)[0]
    for spec in ("ismcts:sims=10,reward=margin", "ismcts:sims=5,rollout=greedy,epsilon=0.5"):
        action = decide(make_agent(game, spec), game, state, seat, random.Random(0))
        assert action in game.legal_actions(state, seat)


def test_a_score_scale_grades_two_seat_leads() -> None:
    """At two seats the spread of the scores is the lead itself: without a scale a
    lead of one point and of ten both score as a full win; with one they differ."""
    from potluck.search.ismcts import ISMCTSBot
    from potluck.search.rewards import soft_shares as _soft_shares

    assert _soft_shares((8.0, 7.0)) == _soft_shares((18.0, 8.0))
    assert _soft_shares((8.0, 7.0), 4.0)[0] < _soft_shares((18.0, 8.0), 4.0)[0]
    game = potluck.load_game("burger-joint")
    unscaled = ISMCTSBot(reward="margin").tree(game, 0, random.Random(0))
    scaled = ISMCTSBot(reward="margin", scale=4).tree(game, 0, random.Random(0))
    assert unscaled.rewards((8.0, 7.0), (0,)) == [1.0, 0.0]
    small, large = scaled.rewards((8.0, 7.0), (0,)), scaled.rewards((18.0, 8.0), (0,))
    assert 0.5 < small[0] < large[0] < 1.0
    assert small[0] + small[1] == pytest.approx(1.0)


def test_bench_reports_decisions_and_simulations_per_second() -> None:
    game = potluck.load_game("cafe-carnage")
    result = bench_bot(game, 4, "ismcts:sims=20", seconds=0.3)
    data = result.to_json()
    assert data["decisions"] >= 1
    assert data["simulations"] == 20 * data["decisions"]
    assert data["simulations_per_second"] > 0
    assert "simulations" not in bench_bot(game, 4, "greedy", seconds=0.1).to_json()


def test_potluck_bench_bot_json() -> None:
    from potluck.cli.app import app

    result = CliRunner().invoke(
        app,
        [
            "bench",
            "cafe-carnage",
            "--players",
            "4",
            "--bot",
            "ismcts:sims=10",
            "--seconds",
            "0.2",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    row = json.loads(result.output)["cafe-carnage"]
    assert row["bot"] == "ismcts:sims=10"
    assert row["simulations_per_second"] > 0


def test_bench_reports_the_slowest_decision() -> None:
    game = potluck.load_game("burger-joint")
    data = bench_bot(game, 2, "ismcts:sims=0,time=0.02", seconds=0.2).to_json()
    assert 0 < data["slowest_decision_seconds"] < 2.0


def test_head_to_head_with_openspiel_plays_whole_games() -> None:
    pytest.importorskip("pyspiel")
    from potluck.search.openspiel import head_to_head, openspiel_speed

    duel = head_to_head("cafe-carnage", 4, "ismcts:sims=4", simulations=4, games=1)
    assert duel["games"] == 1
    assert 0.0 <= duel["win_share"] <= 1.0
    # the game's defaults filled in, the spec's own sims last
    assert duel["spec"] == str(effective_spec(potluck.load_game("cafe-carnage"), "ismcts:sims=4"))
    assert "sims=4" in duel["spec"]
    assert "cutoff=model" in duel["spec"]
    speed = openspiel_speed("cafe-carnage", 4, simulations=4, seconds=0.2)
    assert speed["openspiel_simulations_per_second"] > 0


def test_head_to_head_pairs_deals_and_seats_our_bot_in_several_seats() -> None:
    pytest.importorskip("pyspiel")
    from potluck.search.openspiel import head_to_head, placements

    assert placements(4, 2) == [(0, 2), (1, 3)]
    assert placements(3, 1) == [(0,), (1,), (2,)]
    with pytest.raises(ValueError, match="1 to 3 of 4 seats"):
        placements(4, 4)
    duel = head_to_head("cafe-carnage", 4, "ismcts:sims=2", simulations=2, games=2, seats=2)
    # One deal, played once with each placement: ours in seats 0 and 2, then 1 and 3.
    assert [(r["deal"], r["seats"]) for r in duel["results"]] == [(0, [0, 2]), (0, [1, 3])]
    assert duel["fair_share"] == 0.5
    assert duel["win_share"] == sum(r["share"] for r in duel["results"]) / 2
    low, high = duel["ci95"]
    assert low <= duel["win_share"] <= high


def test_head_to_head_at_equal_cpu_time_gives_openspiel_our_mean_seconds() -> None:
    pytest.importorskip("pyspiel")
    from potluck.search.openspiel import CpuLedger, duel, head_to_head

    ledger = CpuLedger()
    row = duel("cafe-carnage", 4, "ismcts:sims=3", 0, 0, seats=2, ledger=ledger)
    assert row["cpu_openspiel"]
    assert row["cpu_ours"]
    assert row["openspiel_simulations"] >= 2 * len(row["cpu_openspiel"])  # at least two each
    # OpenSpiel's budget is our running mean; it stops at the first world past it, so
    # its decisions take about as long as ours (a simulation is its slack).
    assert ledger.budget() == sum(ledger.ours) / len(ledger.ours)
    match = head_to_head("burger-joint", 2, "ismcts:sims=3", 0, games=2, equal_time=True)
    assert match["equal_time"]
    assert match["openspiel_simulations"] is None
    assert match["openspiel_simulations_per_decision"] >= 1


def test_speed_is_compared_on_the_same_positions() -> None:
    pytest.importorskip("pyspiel")
    from potluck.search.openspiel import compare_speed

    figures = compare_speed("cafe-carnage", 4, "ismcts:sims=3", simulations=3, positions=2)
    assert figures["positions"] == 2
    assert figures["speedup_vs_openspiel"] > 0


def test_ismcts_takes_the_games_tuned_defaults_and_a_spec_overrides_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = potluck.load_game("cafe-carnage")
    assert search_defaults(game) == SEARCH_DEFAULTS["cafe-carnage"]
    bot = make_agent(game, "ismcts")
    assert isinstance(bot, ISMCTSBot)
    assert bot.spec == "ismcts"  # as written; the defaults are the game's
    for key, text in SEARCH_DEFAULTS["cafe-carnage"].items():
        assert str(getattr(bot, key)) == text
    overridden = make_agent(game, "ismcts:prior=none,sims=7")
    assert isinstance(overridden, ISMCTSBot)
    assert (overridden.prior, overridden.sims) == ("none", 7)
    assert str(effective_spec(game, "greedy")) == "greedy"
    # A game that declares its own defaults wins over the table.
    monkeypatch.setattr(game, "search_defaults", lambda: {"sims": "9", "depth": "5"})
    own = make_agent(game, "ismcts:depth=6")
    assert isinstance(own, ISMCTSBot)
    assert (own.sims, own.depth, own.prior) == (9, 6, "none")


PAIRED = "ismcts:root=compare,sims=12,candidates=4,rollout=greedy,epsilon=0,depth=8,prior=greedy"


@pytest.mark.parametrize(("game_id", "players"), USUAL_TABLES)
def test_compare_root_mode_comparisons_use_information_only(game_id: str, players: int) -> None:
    """root=compare draws its common worlds from the information set, like the tree."""
    game = potluck.load_game(game_id)
    rng = random.Random(13)
    for state in _positions(game_id, players, every=17)[:3]:
        check_search_uses_information_only(game, state, rng, PAIRED)


def test_compare_root_mode_plays_every_candidate_on_the_same_worlds() -> None:
    game = potluck.load_game("food-advice")
    state = game.new_game(4, seed=2)
    seat = game.to_act(state)[0]
    legal = game.legal_actions(state, seat)
    info = InformationSet(game, state, seat)
    bot = make_agent(game, PAIRED)
    assert isinstance(bot, ISMCTSBot)
    result = bot.analyse(game, info, legal, random.Random(4))
    again = bot.analyse(game, info, legal, random.Random(4))
    assert (result.best, result.estimates) == (again.best, again.estimates)
    tried = [e for e in result.estimates if e.visits]
    assert 2 <= len(tried) <= 4  # at most `candidates` moves, the greedy one among them
    assert result.simulations == sum(e.visits for e in tried) <= 12
    greedy = make_agent(game, "greedy").choose(game, info.view(), seat, legal, random.Random(0))
    assert any(e.action == greedy for e in tried)
    # The survivors of every round share the first worlds: the most played moves tie.
    most = max(e.visits for e in tried)
    assert sum(1 for e in tried if e.visits == most) >= 2


def test_compare_root_mode_keeps_the_greedy_move_unless_another_is_clearly_better() -> None:
    from potluck.search.paired import compare_root

    def playout(world: int, move: str, rng: random.Random) -> float:
        luck = rng.random() * 0.4  # the same after every move on one world
        if move == "noisy":  # a little better on average, much worse or better by world
            return 0.52 + luck + (world % 2 - 0.5) * 0.4
        return {"greedy": 0.5, "close": 0.51, "far": 0.2}[move] + luck

    def pick(moves: list[str], confidence: float) -> str:
        worlds = iter(range(100))
        best, played = compare_root(
            lambda: next(worlds),
            lambda w: w,
            playout,
            moves,
            "greedy",
            budget=30,
            rng=random.Random(3),
            confidence=confidence,
        )
        assert all(len(r) >= 1 for _, r in played)
        return best

    # Common random numbers: the rollout noise is the same after every move, so even
    # a 0.01 advantage shows; asking for 3 standard errors of a noiseless gap still passes.
    assert pick(["far", "close", "greedy"], 0.0) == "close"
    assert pick(["far", "close", "greedy"], 3.0) == "close"
    # A move whose advantage is within the worlds' noise is played only without a margin.
    assert pick(["far", "noisy", "greedy"], 0.0) == "noisy"
    assert pick(["far", "noisy", "greedy"], 2.0) == "greedy"


def test_compare_root_mode_shares_its_time_between_rounds_and_keeps_worlds_paired(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from potluck.search import paired

    seconds = [0.0]  # a clock that moves one second a playout
    monkeypatch.setattr(time, "perf_counter", lambda: seconds[0])
    playouts: list[str] = []

    def playout(world: int, move: str, rng: random.Random) -> float:
        playouts.append(move)
        seconds[0] += 1
        return {"a": 0.1, "b": 0.9, "c": 0.5}[move]

    worlds = iter(range(100))
    best, played = paired.compare_root(
        lambda: next(worlds),
        lambda w: w,
        playout,
        ["a", "b", "c"],
        "a",
        budget=300,
        rng=random.Random(0),
        deadline=4.5,
    )
    # round 1 had half the time (one world after every move), then the worse half
    # went, the favourite kept; round 2's world reached the deadline before its last
    # playout and was dropped, so every move kept rewards from the same worlds
    assert playouts == ["a", "b", "c", "b", "c"]
    assert [len(rewards) for _, rewards in played] == [1, 1, 1]
    assert best == "b"


def test_compare_root_mode_plays_the_favourite_when_no_world_was_finished() -> None:
    from potluck.search.paired import compare_root

    worlds = iter(range(100))
    best, played = compare_root(
        lambda: next(worlds),
        lambda w: w,
        lambda w, m, r: {"a": 0.1, "b": 0.9}[m],
        ["b", "a"],
        "a",
        budget=100,
        rng=random.Random(0),
        deadline=0.0,
    )
    assert best == "a"
    assert all(not rewards for _, rewards in played)


def test_a_horizon_scores_every_root_move_at_the_same_turn() -> None:
    """With ``horizon=2`` a rollout stops once the game's clock (Belly Battle's
    ``progress``: turns started) has run two turns from the root, however many moves
    the root move and the deals after it took: every root move is scored after the
    same dice, not after the same number of moves."""
    game = potluck.load_game("belly-battle")
    state = game.new_game(4, seed=3)
    greedy = make_agent(game, "greedy")
    while True:  # on to an upgrade window with deals to choose from
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        if game.view(state, seat)["phase"] == "upgrade-window" and len(legal) > 3:
            break
        game.step(state, seat, decide(greedy, game, state, seat, random.Random(0)))
    start = game.progress(state)
    assert start is not None
    deal = next(a for a in legal if a != legal[0])
    after_deal = state.clone()
    game.step(after_deal, seat, deal)
    assert game.progress(after_deal) == start  # a deal is no turn
    bot = ISMCTSBot(rollout="greedy", epsilon=0, depth=500, horizon=2)
    ends = set()
    for move in legal[:4]:
        search = bot.tree(game, seat, random.Random(0))
        world = state.clone()
        assert search.playout(world, move, random.Random(5)) is not None
        ends.add(game.progress(world) if not game.is_over(world) else None)
    assert ends <= {start + 2, None}
    # A game without a clock ignores the horizon (depth alone cuts its rollouts).
    carnage = potluck.load_game("cafe-carnage")
    table = carnage.new_game(4, seed=1)
    action = decide(
        make_agent(carnage, "ismcts:sims=4,horizon=2"), carnage, table, 0, random.Random(0)
    )
    assert action in carnage.legal_actions(table, 0)


def test_openspiels_ismcts_takes_a_seat_and_reads_only_its_information_set() -> None:
    pytest.importorskip("pyspiel")
    game = potluck.load_game("cafe-carnage")
    bot = make_agent(game, "openspiel-ismcts:sims=6,time=0")
    state = game.new_game(4, seed=11)
    seat = state.acting[0]
    redealt = game.redeal(state, seat, random.Random(5))
    chosen = decide(bot, game, state, seat, random.Random(3))
    assert chosen in game.legal_actions(state, seat)
    # the same choice where everything the seat cannot see is different
    assert decide(bot, game, redealt, seat, random.Random(3)) == chosen
    from potluck.search.openspiel_bot import OpenSpielISMCTSBot

    assert isinstance(bot, OpenSpielISMCTSBot)
    assert bot.simulations_run >= 12
    with pytest.raises(PotluckError, match="needs a budget"):
        make_agent(game, "openspiel-ismcts:time=0")


def test_the_search_speed_example_times_a_fixed_budget() -> None:
    """examples/search_speed.py times every game at 9ef188b's search defaults, given in
    full (a later change of a game's defaults must not change what it times)."""
    speed = load_example("search_speed")
    assert set(speed.SPECS) == set(speed.TABLES) == set(potluck.list_games())
    for spec in speed.SPECS.values():
        ISMCTSBot(**spec)
    row = speed.search_speed("burger-joint", 0.05)
    assert row["decisions"] >= 1
    assert row["simulations"] == 400 * row["decisions"]
    assert row["simulations_per_second"] > 0


def test_the_policy_improvement_bot_plays_an_equal_time_duel_and_an_arena() -> None:
    # improve is the hard bot of Café Carnage and Belle of the Ball: the equal-time
    # head-to-head and the ladders (docs/bots.md, "Issue 32's equal-time runs and
    # ladders, second round") seat it on our side of a duel and as an arena rung.
    pytest.importorskip("pyspiel")
    from potluck.arena import run_arena
    from potluck.search.openspiel import CpuLedger, duel

    spec = "improve:time=0,worlds=2,min_worlds=1,candidates=2"
    ledger = CpuLedger()
    row = duel("cafe-carnage", 4, spec, 0, 0, seats=2, ledger=ledger)
    assert row["seats"] == [0, 2]
    assert row["cpu_ours"]
    assert row["cpu_openspiel"]
    assert 0.0 <= row["share"] <= 1.0
    ladder = run_arena(
        potluck.load_game("cafe-carnage"),
        4,
        ["random", "greedy", spec, "openspiel-ismcts:sims=2"],
        games=4,
        seed=3,
    )
    assert ladder.games == 4
    assert not ladder.errors
    assert {entry.spec for entry in ladder.entries} == {
        "random",
        "greedy",
        spec,
        "openspiel-ismcts:sims=2",
    }
