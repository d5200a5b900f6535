"""Café Carnage bots: the greedy bot plays legally and beats random diners."""

from __future__ import annotations

import random
from typing import Any

import pytest

import potluck
from potluck.sim import play_game
from potluck.testing.bots import win_share

GAME = potluck.load_game("cafe-carnage")


def _play(num_players: int, seed: int, agents: list[str], options: dict[str, Any] | None) -> Any:
    """A whole game; ``Game.step`` refuses any illegal choice, so this checks legality too."""
    return play_game(GAME, num_players, agents, seed, options).outcome


@pytest.mark.parametrize(
    ("num_players", "options"),
    [(4, None), (5, None), (6, None), (4, {"no_repeat_dishes": True})],
)
def test_greedy_plays_legal_moves(num_players: int, options: dict[str, Any] | None) -> None:
    for seed in range(40):
        agents = ["greedy"] * (1 + seed % 3) + ["random"] * (num_players - 1 - seed % 3)
        _play(num_players, seed, agents, options)


def test_greedy_is_deterministic() -> None:
    bot = GAME.make_bot("greedy")
    state = GAME.new_game(4, seed=3)
    view = GAME.view(state, 0)
    legal = GAME.legal_actions(state, 0)
    picks = {bot.choose(GAME, view, 0, legal, random.Random(k)) for k in range(5)}
    assert len(picks) == 1


def test_greedy_tables_kept_across_decisions_and_games_change_no_choice() -> None:
    """The greedy bot keeps its model of the table while its inputs stay the same
    (``GreedyBot._table``); one bot reused by every seat over many games must choose
    as a fresh bot does at every decision."""
    kept = GAME.make_bot("greedy")
    for seed in range(12):
        n = 4 + seed % 3
        state = GAME.new_game(n, seed, {"no_repeat_dishes": seed % 2 == 1})
        while state.acting:
            seat = state.acting[0]
            view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
            pick = kept.choose(GAME, view, seat, legal, random.Random(seed))
            fresh = GAME.make_bot("greedy").choose(GAME, view, seat, legal, random.Random(seed))
            assert pick is fresh, (seed, state.round, seat)
            GAME.step(state, seat, pick)


def test_greedy_beats_random_diners() -> None:
    assert win_share(GAME, "greedy", 4, games=400, seed=10_000) > 0.33


def test_greedy_weights_are_bot_parameters_with_the_old_defaults() -> None:
    import random as _random

    from potluck.agents import decide

    game = potluck.load_game("cafe-carnage")
    names = [param.name for param in game.make_bot("greedy").params]  # type: ignore[attr-defined]
    assert names == ["prior_weight", "run_chance_many", "split_chance", "main_share"]
    default = game.make_bot("greedy")
    spelled = game.make_bot(
        "greedy:prior_weight=12,run_chance_many=0.3333333333333333,split_chance=0.5,main_share=0.46"
    )
    other = game.make_bot("greedy:split_chance=1,prior_weight=1")
    differs = False
    for seed in range(6):
        state = game.new_game(4, seed=seed)
        while game.to_act(state):
            seat = game.to_act(state)[0]
            a = decide(default, game, state, seat, _random.Random(seed))
            assert decide(spelled, game, state, seat, _random.Random(seed)) == a
            differs |= decide(other, game, state, seat, _random.Random(seed)) != a
            game.step(state, seat, a)
    assert differs
    with pytest.raises(potluck.PotluckError, match="split_chance"):
        game.make_bot("greedy:split_chance=2")


def test_greedy_kept_values_equal_the_values_worked_out_afresh() -> None:
    """What a table keeps (``plan_now``, ``aim_now``, ``typical_stay``, ``stay_at``,
    ``run_at``, and ``NightOdds.best_run``, shared by the tables of the prior's meals alone)
    equals the same value worked out plainly, on tables met in real games."""
    from potluck.games.cafe_carnage.night_model import NightOdds, NightTable

    def plain_best(
        table: NightTable, chances: list[float], low: int, high: int
    ) -> tuple[float, int]:
        odds = NightOdds.of_meals(table.meals)
        return max((odds.run_value(chances, m), m) for m in range(low, high))

    bot = GAME.make_bot("greedy")
    rng = random.Random(5)
    for seed in range(8):
        state = GAME.new_game(4 + seed % 3, seed)
        while state.acting:
            seat = state.acting[0]
            info = GAME.bot_view(state, seat)
            for weights in ((12.0, 1.0 / 3.0, 0.5), (3.0, 0.7, 0.9)):
                table, fresh = NightTable(info, *weights), NightTable(info, *weights)
                assert table.plan_now() == plain_best(table, table.runners_now, 5, 10)[0]
                assert table.aim_now() == plain_best(table, table.runners_now, 3, 14)[1]
                for night in table.runners_later:
                    assert table.best_run_between(night, 5, 10) == plain_best(table, night, 5, 10)
                for split in (True, False):
                    typical = fresh.stay_value(fresh.mean + 2.0, split)
                    assert table.typical_stay(split) == typical
                    for meal in (3, 7, 12):
                        assert table.stay_at(meal, split) == fresh.stay_value(meal, split)
                for meal in (3, 7, 12):
                    assert table.run_at(meal) == fresh.run_value(fresh.runners_now, meal)
            legal = GAME.legal_actions(state, seat)
            GAME.step(state, seat, bot.choose(GAME, info, seat, legal, rng))


def test_greedy_stay_value_equals_the_vote_chances_summed_plainly() -> None:
    """``NightTable.stay_value`` reads the vote chances as flat lists (``VoteChances``, issue 36):
    it equals the sum written plainly over the chances as a dict of (runners, stayers,
    split votes), entry by entry in the order worked out, float for float, on tables
    met in real games and on random rivals' chances (hypothesis)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from potluck.games.cafe_carnage.night_model import NightTable

    def plain_stay(table: NightTable, m: float, split: bool) -> float:
        dist: dict[tuple[int, int, int], float] = {(0, 0, 0): 1.0}
        for p in table.run_now:
            nxt: dict[tuple[int, int, int], float] = {}
            for (run, stay, yes), w in dist.items():
                for key, q in (
                    ((min(run + 1, 2), stay, yes), p),
                    ((run, stay + 1, yes + 1), (1.0 - p) * table.split_chance),
                    ((run, stay + 1, yes), (1.0 - p) * (1.0 - table.split_chance)),
                ):
                    if q > 0:
                        nxt[key] = nxt.get(key, 0.0) + w * q
            dist = nxt
        mine = 1 if split else 0
        value = 0.0
        for (run, stay, yes), w in dist.items():
            if 2 * (yes + mine) > stay + 1:
                pool = m + stay * table.mean + (table.mean if run == 1 else 0.0)
                value += w * (m - pool / (stay + 1) - 0.5)
        return value

    tables: list[NightTable] = []
    rng = random.Random(11)
    bot = GAME.make_bot("greedy")
    for seed in range(6):
        state = GAME.new_game(4 + seed % 3, seed)
        while state.acting:
            seat = state.acting[0]
            info = GAME.bot_view(state, seat)
            tables.append(NightTable(info, 3.0, 0.7, 0.9))
            legal = GAME.legal_actions(state, seat)
            GAME.step(state, seat, bot.choose(GAME, info, seat, legal, rng))
    for table in tables[::7]:
        for m in (3, 7.5, 12, table.mean + 2.0):
            for split in (True, False):
                assert table.stay_value(m, split) == plain_stay(table, m, split)

    @settings(max_examples=150, deadline=None)
    @given(
        index=st.integers(0, len(tables) - 1),
        run_now=st.lists(st.sampled_from([0.0, 0.2, 1.0 / 3.0, 0.4, 0.5, 1.0]), max_size=5),
        split_chance=st.floats(0.0, 1.0),
        m=st.integers(0, 20),
        split=st.booleans(),
    )
    def check(index: int, run_now: list[float], split_chance: float, m: int, split: bool) -> None:
        info = GAME.bot_view(GAME.new_game(4, seed=index), 0)
        table = NightTable(info, 12.0, 1.0 / 3.0, split_chance)
        table.run_now = run_now
        assert table.stay_value(m, split) == plain_stay(table, m, split)

    check()


def test_greedy_below_summed_as_it_goes_equals_the_plain_sums() -> None:
    """``NightOdds.below`` sums whole-number meals as it goes over the sorted costs
    (issue 36): float for float what ``below_plain`` adds up, on random meal odds
    (hypothesis), for meals below, among, between and above the table's costs."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from potluck.games.cafe_carnage.night_model import NightOdds

    @settings(max_examples=300, deadline=None)
    @given(
        weights=st.dictionaries(
            st.integers(0, 30), st.floats(0.0, 50.0, allow_subnormal=False), max_size=14
        ),
        asked=st.lists(st.integers(-3, 40) | st.floats(-3.0, 40.0), min_size=1, max_size=12),
    )
    def check(weights: dict[int, float], asked: list[float]) -> None:
        total = sum(weights.values())
        meals = tuple(sorted((v, w / total if total > 0 else 0.0) for v, w in weights.items()))
        odds = NightOdds.of_meals(meals)
        for m in asked:
            assert odds.below(m) == odds.below_plain(m), (meals, m)

    check()


def test_greedy_best_run_summed_as_it_goes_equals_the_best_of_each_meal() -> None:
    """``NightOdds.best_run_plain`` takes ``below``'s sums for a whole range of meals in
    one pass (issue 36): float for float the greatest (value, meal) of ``run_value`` with
    ``below_plain``'s sums for each meal, on random meal odds, rivals' chances and ranges
    (hypothesis), and ``run_value`` is the same with ``below`` as with ``below_plain``."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from potluck.games.cafe_carnage import night_model
    from potluck.games.cafe_carnage.night_model import NightOdds

    def plain_value(odds: NightOdds, chances: list[float], m: float) -> float:
        if not chances:
            return m
        return night_model._run_value(chances, m, *odds.below_plain(m))

    @settings(max_examples=300, deadline=None)
    @given(
        weights=st.dictionaries(
            st.integers(0, 30), st.floats(0.0, 50.0, allow_subnormal=False), max_size=14
        ),
        chances=st.lists(st.sampled_from([0.0, 0.2, 1.0 / 3.0, 0.4, 0.5, 1.0]), max_size=5),
        low=st.integers(-3, 20),
        width=st.integers(0, 15),
    )
    def check(weights: dict[int, float], chances: list[float], low: int, width: int) -> None:
        total = sum(weights.values())
        meals = tuple(sorted((v, w / total if total > 0 else 0.0) for v, w in weights.items()))
        odds = NightOdds.of_meals(meals)
        high = low + width
        values = [(plain_value(odds, chances, float(m)), m) for m in range(low, high)]
        assert odds.best_run_plain(chances, low, high) == (max(values) if values else (0.0, low))
        for m in range(low, high):
            assert odds.run_value(chances, float(m)) == plain_value(odds, chances, float(m))

    check()


def test_greedy_rivals_shared_by_key_equal_their_chances_worked_out_afresh() -> None:
    """The rivals' chances a table reads are kept by their key and shared by many tables
    (``night_model._rivals_of``): after whole games under several weights, each kept
    entry still equals its chances worked out afresh (no table changed a shared list)."""
    from potluck.games.cafe_carnage import night_model

    bots = [GAME.make_bot(spec) for spec in ("greedy", "greedy:run_chance_many=0.7")]
    for seed in range(10):
        n = 4 + seed % 3
        state = GAME.new_game(n, seed)
        rng = random.Random(seed)
        while state.acting:
            seat = state.acting[0]
            legal = GAME.legal_actions(state, seat)
            pick = bots[seed % 2].choose(GAME, GAME.bot_view(state, seat), seat, legal, rng)
            GAME.step(state, seat, pick)
    assert night_model._RIVALS
    for key, kept in night_model._RIVALS.items():
        fresh = night_model.Rivals(*key)
        assert (kept.run_now, kept.run_later) == (fresh.run_now, fresh.run_later), key
        assert (kept.runners_now, kept.runners_later) == (fresh.runners_now, fresh.runners_later)


def test_greedy_table_meals_equal_the_counts_of_a_dict() -> None:
    """A table's meals are counted in lists by meal cost (``night_model._Counts``, issue
    36; each cost's meals as a whole number, its weight the prior's with 1.0 added per
    meal): float for float what the prior's dict with each rival's meal added (1.0 each,
    new costs after the prior's, in the order seen), summed in the dict's order and
    sorted by cost makes, on random nights of meals (hypothesis), the seat's own left out;
    and the mean is the same sum of the products."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from potluck.games.cafe_carnage import night_model

    def plain_meals(
        weight: float, nights: tuple[tuple[int, ...], ...], seat: int
    ) -> tuple[tuple[int, float], ...]:
        counts = {v: p * weight for v, p in night_model._PRIOR_MEAL.items()}
        for night in nights:
            for s, cost in enumerate(night):
                if s != seat:
                    counts[cost] = counts.get(cost, 0.0) + 1.0
        total = sum(counts.values())
        return tuple(sorted((v, w / total) for v, w in counts.items()))

    @settings(max_examples=300, deadline=None)
    @given(
        weight=st.sampled_from([0.5, 3.0, 12.0]) | st.floats(0.5, 40.0),
        nights=st.lists(
            st.lists(st.integers(0, 25), min_size=4, max_size=6).map(tuple), max_size=5
        ).map(tuple),
        seat=st.integers(0, 5),
    )
    def check(weight: float, nights: tuple[tuple[int, ...], ...], seat: int) -> None:
        costs, chances, mean = night_model._Counts(weight).meals_seen(nights, seat)
        meals = tuple(zip(costs, chances, strict=True))
        assert meals == plain_meals(weight, nights, seat)
        assert mean == sum(v * p for v, p in meals)

    check()
