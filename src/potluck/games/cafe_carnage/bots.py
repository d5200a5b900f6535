"""Café Carnage bots. They decide from what their seat knows only (``seat_info.SeatInfo``,
built from the state or from the seat's view)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from potluck.engine.action import Action
from potluck.engine.botspec import BotParam
from potluck.games.cafe_carnage.schema import COURSES
from potluck.games.cafe_carnage.seat_info import SeatInfo
from potluck.games.cafe_carnage.state import BALLOT, DESSERT, NO_DISH, RUN, SPLIT
from potluck.games.cafe_carnage.tables import CafeTables

#: Share of a night's meal planned for each course (a main costs about as
#: much as a starter and a dessert together in the built-in data).
_COURSE_SHARE: Final = {"starter": 0.27, "main": 0.46, "dessert": 0.27}

#: What a meal picked at random from three menus costs with the built-in decks
#: (starter + main + dessert). The table's own past meals are mixed in as they
#: are revealed, so other decks and other kinds of diners are learnt.
_PRIOR_MEAL: Final = {
    4: 0.032,
    5: 0.127,
    6: 0.226,
    7: 0.25,
    8: 0.189,
    9: 0.108,
    10: 0.049,
    11: 0.016,
    12: 0.003,
}
_PRIOR_WEIGHT: Final = 12.0

#: Chance that someone still holding a RUN! card plays it tonight, by the
#: number of cards in their hand (a diner with one card left must play it).
_RUN_CHANCE: Final = {1: 1.0, 2: 0.5, 3: 0.4}
_RUN_CHANCE_MANY: Final = 1.0 / 3.0

#: Chance that another stayer votes to split the bill.
_SPLIT_CHANCE: Final = 0.5

#: Meals a plan may aim at on a future night (a menu of three per course):
#: ``range(_PLAN_LOW, _PLAN_HIGH)``.
_PLAN_LOW: Final = 5
_PLAN_HIGH: Final = 10

#: Meals a plan to run tonight may aim at: ``range(_AIM_LOW, _AIM_HIGH)``.
_AIM_LOW: Final = 3
_AIM_HIGH: Final = 14

#: Tables a bot keeps (``GreedyBot._table``) before it forgets them all: a few nights'
#: worth. A table is met again almost only within its night (a game's first nights meet
#: the same tables too, but rebuilding those is cheap), and a thousand tables kept alive
#: made Python's cyclic garbage collector a fifth of a compiled greedy game's time
#: (``gc.callbacks`` timing, issue 36): each kept table is a few dicts and lists that it
#: traverses again and again. Forgetting sooner changes no move: a table is a pure
#: function of its key.
_TABLES_KEPT: Final = 16
#: The vote chances (``_Table._votes``) by the rivals' chances of running tonight and
#: the split chance, shared by every table: a pure function of its key, read, never
#: changed. Bounded, as ``_TABLES_KEPT`` is, for the garbage collector's sake.
_VOTES: dict[tuple[tuple[float, ...], float], _Votes] = {}
_VOTES_KEPT: Final = 64
#: The odds of the prior's meals alone (a table's before any meal is seen) by the
#: prior's weight, shared by those tables so that what one works out serves the next
#: (every game's first night). Bounded, as ``_TABLES_KEPT`` is.
_PRIOR_ODDS: dict[float, _Odds] = {}
#: Best runs an ``_Odds`` remembers (``_Odds.best_run``) before it forgets them all.
_BEST_KEPT: Final = 4096


class _Votes:
    """The chances of the rivals' votes tonight (``_Table._votes``), entry by entry in
    the order they were worked out: how many run (capped at 2), how many stay, how many
    of those vote split, and the chance of that. Plain lists of numbers, read by index."""

    def __init__(self, dist: dict[tuple[int, int, int], float]) -> None:
        self.runs: list[int] = []
        self.stays: list[int] = []
        self.yeses: list[int] = []
        self.chances: list[float] = []
        for (run, stay, yes), w in dist.items():
            self.runs.append(run)
            self.stays.append(stay)
            self.yeses.append(yes)
            self.chances.append(w)


class _Odds:
    """The rivals' meal costs, and the odds of a run against them: all of a ``_Table``
    that ``_best_run`` needs (a compiled class cannot be made without its ``__init__``)."""

    def __init__(self, meals: tuple[tuple[int, float], ...]) -> None:
        self.meals = meals
        self._below: dict[float, tuple[float, float, float]] = {}
        #: ``best_run``'s answers by (the rivals' chances, the lowest meal, the highest + 1).
        self._best: dict[tuple[tuple[float, ...], int, int], tuple[float, int]] = {}

    def best_run(self, chances: tuple[float, ...], low: int, high: int) -> tuple[float, int]:
        """The best expected gain of running with a meal in ``range(low, high)``, and the
        meal cost that gets it (of two alike, the dearer); remembered (a pure function
        of the meals and the arguments; bounded, as ``_TABLES_KEPT``)."""
        key = (chances, low, high)
        found = self._best.get(key)
        if found is None:
            if len(self._best) >= _BEST_KEPT:
                self._best.clear()
            found = self.best_run_plain(chances, low, high)
            self._best[key] = found
        return found

    def best_run_plain(self, chances: Sequence[float], low: int, high: int) -> tuple[float, int]:
        """``best_run`` worked out, not remembered: the greatest (value, meal), as ``max``
        of the pairs picks it, by a plain loop (meals ascending, so of two alike values
        the later, dearer meal)."""
        best_value, best_meal = 0.0, low
        for m in range(low, high):
            value = self.run_value(chances, m)
            if m == low or value >= best_value:
                best_value, best_meal = value, m
        return best_value, best_meal

    def below(self, m: float) -> tuple[float, float, float]:
        """P(rival meal <= m), P(rival meal == m) and the mean of meals <= m."""
        cached = self._below.get(m)
        if cached is not None:
            return cached
        le = eq = acc = 0.0
        for v, p in self.meals:
            if v <= m:
                le += p
                acc += v * p
                if v == m:
                    eq += p
        result = (le, eq, (acc / le if le > 0 else 0.0))
        self._below[m] = result
        return result

    def run_value(self, chances: Sequence[float], m: float) -> float:
        """Expected gain of running with a meal costing ``m``; rivals run with ``chances``."""
        if not chances:
            return m
        le, eq, mean_le = self.below(m)
        all_le = all_eq = none = 1.0
        count = 0.0
        for p in chances:
            stay_or_le = 1.0 - p + p * le
            all_le *= stay_or_le
            all_eq *= 1.0 - p + p * eq
            none *= 1.0 - p
            if stay_or_le > 0:
                count += p * le / stay_or_le
        caught = max(0.0, all_le - all_eq)
        if caught <= 0:
            return m
        at_least_one = 1.0 - none / all_le if all_le > 0 else 1.0
        others = count / at_least_one if at_least_one > 0 else 1.0
        bill = max(1.0, others) * mean_le + 0.5
        return (1.0 - caught) * m - caught * bill


class _Table(_Odds):
    """What the bot believes about the table tonight, from its seat's information."""

    def __init__(
        self,
        info: SeatInfo,
        prior_weight: float = _PRIOR_WEIGHT,
        run_chance_many: float = _RUN_CHANCE_MANY,
        split_chance: float = _SPLIT_CHANCE,
    ) -> None:
        seat = info.seat
        self.seat = seat
        self.split_chance = split_chance
        self.nights_left = info.nights_left
        counts: dict[int, float] = {v: p * prior_weight for v, p in _PRIOR_MEAL.items()}
        for night in info.meal_costs:
            for s, cost in enumerate(night):
                if s != seat:
                    counts[cost] = counts.get(cost, 0.0) + 1.0
        total = sum(counts.values())
        super().__init__(tuple(sorted((v, w / total) for v, w in counts.items())))
        #: The odds shared by every table with the prior's meals alone (no meal seen yet),
        #: whose ``best_run`` such a table asks; None: the table asks its own. (Never
        #: the table itself: a table that refers to itself is freed only by the cyclic
        #: garbage collector, which then runs far more often.)
        self.shared: _Odds | None = None
        if not info.meal_costs:
            shared = _PRIOR_ODDS.get(prior_weight)
            if shared is None or shared.meals != self.meals:
                if len(_PRIOR_ODDS) >= _TABLES_KEPT:
                    _PRIOR_ODDS.clear()
                shared = _PRIOR_ODDS[prior_weight] = _Odds(self.meals)
            self.shared = shared
        self.mean = sum(v * p for v, p in self.meals)
        self._future: float | None = None
        self._planned = self._aimed = False
        self._plan_now = 0.0
        self._aim_now = 0
        self._typical_split_known = self._typical_apart_known = False
        self._typical_split = self._typical_apart = 0.0
        self._stay_at: dict[int, float] = {}
        self._run_at: dict[int, float] = {}
        self._dist: _Votes | None = None
        # Each rival's chance of running tonight and on each later night.
        self.run_now: list[float] = []
        self.run_later: list[list[float]] = [[] for _ in range(self.nights_left - 1)]
        for player, hand in enumerate(info.hand_sizes):
            if player == seat:
                continue
            if not info.run_cards[player] or hand <= 0:
                self.run_now.append(0.0)
                for night_chances in self.run_later:
                    night_chances.append(0.0)
                continue
            still = 1.0
            chances = []
            for j in range(self.nights_left):
                q = _RUN_CHANCE.get(hand - j, run_chance_many) if hand - j > 0 else 0.0
                chances.append(still * q)
                still *= 1.0 - q
            self.run_now.append(chances[0])
            for j, night_chances in enumerate(self.run_later):
                night_chances.append(chances[j + 1])
        # Rivals who cannot run do not change a runner's odds.
        self.runners_now = [p for p in self.run_now if p > 0]
        self.runners_later = [[p for p in night if p > 0] for night in self.run_later]

    def best_run_between(self, chances: Sequence[float], low: int, high: int) -> tuple[float, int]:
        """The best expected gain of running with a meal in ``range(low, high)``, and the
        meal cost that gets it (``_Odds.best_run`` of the table's meals, remembered by the
        odds shared by the tables that have the same: every first night's; a table of its
        own asks each night's once, so it works them out without a memo)."""
        odds = self.shared
        if odds is None:
            return self.best_run_plain(chances, low, high)
        return odds.best_run(tuple(chances), low, high)

    def plan_now(self) -> float:
        """The best expected gain of running tonight, the meal in ``_PLAN_LOW`` to
        ``_PLAN_HIGH``; kept."""
        if not self._planned:
            self._plan_now = self.best_run_between(self.runners_now, _PLAN_LOW, _PLAN_HIGH)[0]
            self._planned = True
        return self._plan_now

    def aim_now(self) -> int:
        """The meal cost (``_AIM_LOW`` to ``_AIM_HIGH``) that running tonight gains
        most with; kept."""
        if not self._aimed:
            self._aim_now = self.best_run_between(self.runners_now, _AIM_LOW, _AIM_HIGH)[1]
            self._aimed = True
        return self._aim_now

    def typical_stay(self, split: bool) -> float:
        """``stay_value`` of a typical meal (two dollars above the mean), kept."""
        if split:
            if not self._typical_split_known:
                self._typical_split = self.stay_value(self.mean + 2.0, True)
                self._typical_split_known = True
            return self._typical_split
        if not self._typical_apart_known:
            self._typical_apart = self.stay_value(self.mean + 2.0, False)
            self._typical_apart_known = True
        return self._typical_apart

    def stay_at(self, meal: int, split: bool) -> float:
        """``stay_value`` of a meal costing a whole ``meal``, kept by a whole-number key."""
        key = 2 * meal + (1 if split else 0)
        found = self._stay_at.get(key)
        if found is None:
            found = self._stay_at[key] = self.stay_value(meal, split)
        return found

    def run_at(self, meal: int) -> float:
        """``run_value`` against tonight's runners of a meal costing ``meal``, kept."""
        found = self._run_at.get(meal)
        if found is None:
            found = self._run_at[meal] = self.run_value(self.runners_now, meal)
        return found

    def _votes(self) -> _Votes:
        """Chances of (rivals running (capped at 2), rivals staying, their split votes)."""
        if self._dist is not None:
            return self._dist
        # Tables of other seats, nights and games often have the same rivals' chances.
        chances = (tuple(self.run_now), self.split_chance)
        known = _VOTES.get(chances)
        if known is not None:
            self._dist = known
            return known
        dist: dict[tuple[int, int, int], float] = {(0, 0, 0): 1.0}
        for p in self.run_now:
            nxt: dict[tuple[int, int, int], float] = {}
            for (run, stay, yes), w in dist.items():
                for key, q in (
                    ((min(run + 1, 2), stay, yes), p),
                    ((run, stay + 1, yes + 1), (1.0 - p) * self.split_chance),
                    ((run, stay + 1, yes), (1.0 - p) * (1.0 - self.split_chance)),
                ):
                    if q > 0:
                        nxt[key] = nxt.get(key, 0.0) + w * q
            dist = nxt
        if len(_VOTES) >= _VOTES_KEPT:
            _VOTES.clear()
        votes = _VOTES[chances] = self._dist = _Votes(dist)
        return votes

    def stay_value(self, m: float, split: bool) -> float:
        """Expected gain of staying with a meal costing ``m`` and voting split or not."""
        # (not kept here: ``stay_at`` and ``typical_stay`` keep what they ask)
        votes = self._votes()
        runs, stays, yeses, chances = votes.runs, votes.stays, votes.yeses, votes.chances
        mine = 1 if split else 0
        mean = self.mean
        value = 0.0
        for k in range(len(chances)):
            stay = stays[k]
            if 2 * (yeses[k] + mine) > stay + 1:
                pool = m + stay * mean + (mean if runs[k] == 1 else 0.0)
                value += chances[k] * (m - pool / (stay + 1) - 0.5)
        return value

    def future_run(self) -> float:
        """The best expected gain of running on a later night."""
        future = self._future
        if future is None:
            # (``max`` of the nights' values, by a plain loop: the first of the greatest)
            future = float("-inf")
            for k, night in enumerate(self.runners_later):
                value = self.best_run_between(night, _PLAN_LOW, _PLAN_HIGH)[0]
                if k == 0 or value > future:
                    future = value
            self._future = future
        return future


class _Kept:
    """A seat's last table and the inputs it was built from (``GreedyBot._table``), as
    typed fields: compared at every decision."""

    def __init__(self, info: SeatInfo, table: _Table) -> None:
        self.nights_left = info.nights_left
        self.meal_costs = info.meal_costs
        self.hand_sizes = info.hand_sizes
        self.run_cards = info.run_cards
        self.table = table


class GreedyBot:
    """A diner who counts: score is Gourmet Points plus money left, so paying for
    its own meal is free; only other people's money matters.

    - Models the table: rivals' meals follow the cost of past meals (mixed with a
      prior for random picks); a rival holding a RUN! card runs tonight with a
      chance set by its hand size (certainly with one card left).
    - Running: escaping gains the whole meal, being caught costs the other
      runners' meals. For tonight and each later night it estimates the best
      expected gain of running (choosing the meal cost to sit under the rivals'
      likely runners), and runs on the night that is best. On the night it runs
      it orders towards that best meal cost.
    - Staying: it eats as well as it can (a split bill then makes the others
      subsidise it; paying separately costs nothing) and votes split when its
      expected gain from a split bill is positive, saving a Split card for a
      better night when it has fewer Split cards than nights to stay.
    """

    name = "greedy"
    #: The spec that built this bot (``build_bot`` and ``make_agent`` set it): declared,
    #: because a compiled class takes no attribute it does not declare.
    spec = "greedy"
    needs_view = True
    #: Reads the seat's ``SeatInfo`` (``Game.bot_view``), or builds it from a whole view.
    compact_view = True
    params: ClassVar[tuple[BotParam, ...]] = (
        BotParam(
            "prior_weight",
            float,
            _PRIOR_WEIGHT,
            "how many past meals the prior for rivals' meal costs is worth",
            low=0.5,
        ),
        BotParam(
            "run_chance_many",
            float,
            _RUN_CHANCE_MANY,
            "chance a rival holding RUN! and four or more cards runs tonight",
            low=0,
            high=1,
        ),
        BotParam(
            "split_chance", float, _SPLIT_CHANCE, "chance another stayer votes split", low=0, high=1
        ),
        BotParam(
            "main_share",
            float,
            _COURSE_SHARE["main"],
            "share of a planned meal aimed at the main course (the rest split evenly)",
            low=0.01,
            high=0.98,
        ),
    )

    def __init__(
        self,
        prior_weight: float = _PRIOR_WEIGHT,
        run_chance_many: float = _RUN_CHANCE_MANY,
        split_chance: float = _SPLIT_CHANCE,
        main_share: float = _COURSE_SHARE["main"],
    ) -> None:
        self.prior_weight = prior_weight
        self._tables: dict[tuple[Any, ...], _Table] = {}
        # Per seat, the last table it read and what that was built from (``_table``).
        self._last: list[_Kept | None] = []
        self.run_chance_many = run_chance_many
        self.split_chance = split_chance
        side = (1.0 - main_share) / 2
        self.course_share = {"starter": side, "main": main_share, "dessert": side}
        if main_share == _COURSE_SHARE["main"]:
            self.course_share = dict(_COURSE_SHARE)  # the defaults play exactly as before

    def choose(
        self,
        game: CafeTables,
        view: Mapping[str, Any] | SeatInfo | None,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        assert view is not None
        if len(legal) == 1:
            return legal[0]
        info = view if isinstance(view, SeatInfo) else SeatInfo.from_view(game, view, seat)
        table = self._table(info)
        if info.phase == BALLOT:
            return self._ballot(game, info, table, legal)
        return self._order(game, info, table, legal)

    def _table(self, info: SeatInfo) -> _Table:
        """The bot's model of the table, kept while what it is built from stays the same.

        A ``_Table`` is a pure function of the seat, the nights left, the rivals'
        past meal costs (in the log's order) and their hands, and it remembers
        what it has worked out (run and stay values). Those inputs change only
        when a night ends, so a seat's four decisions of a night share one table,
        and so do seats and games that met the same table (every first night) while
        it is kept (``_TABLES_KEPT``).
        """
        # Every meal and hand, the seat's own too: they are the same all night, so the key
        # is as good as one without them, and cheaper to build.
        seat = info.seat
        last = self._last
        while len(last) <= seat:
            last.append(None)
        kept = last[seat]
        if (
            kept is not None
            and kept.nights_left == info.nights_left
            and kept.meal_costs is info.meal_costs
            and kept.hand_sizes == info.hand_sizes
            and kept.run_cards == info.run_cards
        ):
            # The seat's last table: its key is unchanged (most of a night's decisions).
            return kept.table
        key = (seat, info.nights_left, info.meal_costs, info.hand_sizes, info.run_cards)
        table = self._tables.get(key)
        if table is None:
            if len(self._tables) >= _TABLES_KEPT:
                self._tables.clear()
            table = _Table(info, self.prior_weight, self.run_chance_many, self.split_chance)
            self._tables[key] = table
        last[seat] = _Kept(info, table)
        return table

    # ------------------------------------------------------------------ planning

    def _must_run(self, info: SeatInfo, table: _Table) -> bool:
        """Whether the hand forces the RUN! card out by the last night."""
        split, separately, run = info.hand
        cards = split + separately + run
        if info.phase == BALLOT and info.has_card:
            cards += 1
        return bool(run) and cards <= table.nights_left

    def _typical_stay(self, table: _Table) -> float:
        return table.typical_stay(True)

    def _plan_run(self, info: SeatInfo, table: _Table) -> bool:
        if not info.hand[RUN]:
            return False
        now = table.plan_now()
        if self._must_run(info, table):
            return now >= table.future_run()
        return now > self._typical_stay(table)

    # ------------------------------------------------------------------ orders

    def _order(
        self, game: CafeTables, info: SeatInfo, table: _Table, legal: Sequence[Action]
    ) -> Action:
        value_of = game.value_of
        # An order's action has the dish's index (``CafeTables.dish_actions``).
        eaten = info.eaten if info.no_repeat else 0
        if eaten and all(eaten >> a.index & 1 for a in legal):
            # A forced repeat scores nothing: pay as little as possible (the first of
            # the cheapest).
            cheapest = legal[0]
            for action in legal:
                if value_of[action.index] < value_of[cheapest.index]:
                    cheapest = action
            return cheapest
        spent = _spent(game, info)
        course = COURSES[info.phase]
        if self._plan_run(info, table):
            target = table.aim_now()
            share = self.course_share
            order = info.order
            planned = 0.0  # (summed in course order, as ``sum`` of them was)
            for c in range(3):
                if order[c] == NO_DISH:
                    planned += share[COURSES[c]]
            aim = (target - spent) * share[course] / planned
            # The first dish nearest the aim, of two as near the cheaper (``min`` of
            # (distance, value), by a plain loop).
            nearest = legal[0]
            near_value = value_of[nearest.index]
            near_distance = abs(near_value - aim)
            for action in legal:
                value = value_of[action.index]
                distance = abs(value - aim)
                if distance < near_distance or (distance == near_distance and value < near_value):
                    nearest, near_value, near_distance = action, value, distance
            return nearest
        money = info.money
        last_pay = table.nights_left == 1 or (
            table.nights_left == 2 and self._must_run(info, table)
        )
        if info.phase == DESSERT and last_pay:
            # The last bill this week: leave no dollar of a loan unspent.
            iou = info.iou

            def waste(value: int) -> int:
                cost = spent + value
                return (money - cost) % 5 if iou or cost > money else 0

            options = [(value_of[a.index], a) for a in legal]
            return min(options, key=lambda o: (waste(o[0]), -o[0]))[1]
        # The first of the dearest.
        dearest = legal[0]
        for action in legal:
            if value_of[action.index] > value_of[dearest.index]:
                dearest = action
        return dearest

    # ------------------------------------------------------------------ ballot

    def _ballot(
        self, game: CafeTables, info: SeatInfo, table: _Table, legal: Sequence[Action]
    ) -> Action:
        meal = _spent(game, info)
        # The legal cards by their words (``str(a)``, read as a field).
        split_card: Action | None = None
        separately_card: Action | None = None
        run_card: Action | None = None
        for action in legal:
            text = action.text
            if text == "split":
                split_card = action
            elif text == "separately":
                separately_card = action
            elif text == "run":
                run_card = action
        split = table.stay_at(meal, True)
        separately = table.stay_at(meal, False)
        stay = max(split, separately) if split_card is not None else separately
        if run_card is not None:
            run = table.run_at(meal)
            if self._must_run(info, table):
                if run - stay >= table.future_run() - self._typical_stay(table):
                    return run_card
            elif run > stay:
                return run_card
        stays_left = table.nights_left - (1 if self._must_run(info, table) else 0)
        if split_card is not None and separately_card is not None:
            gain = split - separately
            if info.hand[SPLIT] >= stays_left:
                bar = 0.0
            else:
                bar = table.typical_stay(True) - table.typical_stay(False)
            return split_card if gain > bar else separately_card
        if split_card is not None:
            return split_card
        if separately_card is not None:
            return separately_card
        assert run_card is not None, "a ballot offers a card"
        return run_card


def _spent(game: CafeTables, info: SeatInfo) -> int:
    """What the seat's meal costs so far tonight."""
    value_of, spent = game.value_of, 0
    for dish in info.order:
        if dish != NO_DISH:
            spent += value_of[dish]
    return spent
