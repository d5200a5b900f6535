"""Café Carnage's greedy bot's model of the night: what its seat believes about the
table tonight (the rivals' meal costs, their chances of running and voting to split) and
the odds of a run against them. Read by ``bots.GreedyBot``; a pure function of the seat's
information, so tables are kept and shared by key.

    >>> NightTable.__mro__[1] is NightOdds
    True
"""

from __future__ import annotations

from typing import Final

from potluck.games.cafe_carnage.seat_info import SeatInfo

#: Share of a night's meal planned for each course (a main costs about as
#: much as a starter and a dessert together in the built-in data).
COURSE_SHARE: Final = {"starter": 0.27, "main": 0.46, "dessert": 0.27}

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
PRIOR_WEIGHT: Final = 12.0

#: Chance that someone still holding a RUN! card plays it tonight, by the
#: number of cards in their hand (a diner with one card left must play it).
_RUN_CHANCE: Final = {1: 1.0, 2: 0.5, 3: 0.4}
RUN_CHANCE_MANY: Final = 1.0 / 3.0

#: Chance that another stayer votes to split the bill.
SPLIT_CHANCE: Final = 0.5

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
TABLES_KEPT: Final = 16
#: The vote chances (``NightTable._votes``) by the rivals' chances of running tonight and
#: the split chance, shared by every table: a pure function of its key, read, never
#: changed. Bounded, as ``TABLES_KEPT`` is, for the garbage collector's sake.
_VOTES: dict[tuple[tuple[float, ...], float], VoteChances] = {}
_VOTES_KEPT: Final = 64
#: The odds of the prior's meals alone (a table's before any meal is seen) by the
#: prior's weight, shared by those tables so that what one works out serves the next
#: (every game's first night). Bounded, as ``TABLES_KEPT`` is.
_PRIOR_ODDS: dict[float, NightOdds] = {}
#: The prior's meals counted as ``prior_weight`` meals (a table's counts before it adds
#: the meals it saw), by the weight: read by each table. Bounded, as ``TABLES_KEPT`` is.
_PRIOR_COUNTS: dict[float, _Counts] = {}
#: Best runs an ``NightOdds`` remembers (``NightOdds.best_run``) before it forgets them all.
_BEST_KEPT: Final = 4096


class VoteChances:
    """The chances of the rivals' votes tonight (``NightTable._votes``), entry by entry in
    the order they were worked out: how many run (capped at 2), how many stay, how many
    of those vote split, and the chance of that. Plain lists of numbers, read by index.

    ``stay_value`` reads only the entries where the bill is split, which depends on the
    seat's own vote: ``split_if_split`` (it votes split) and ``split_if_not`` (it does not)
    list those entries' chances, stayers and divisors as floats, so that compiled code
    adds and divides them as machine numbers (``float(stay) * mean`` is what Python's
    ``stay * mean`` computes for a whole-number ``stay``, and ``pool / float(stay + 1)``
    what ``pool / (stay + 1)`` does)."""

    def __init__(self, dist: dict[tuple[int, int, int], float]) -> None:
        self.runs: list[int] = []
        self.stays: list[int] = []
        self.yeses: list[int] = []
        self.chances: list[float] = []
        # (two fields, not a pair: compiled code would build a pair read by index anew)
        self.split_if_not = _SplitEntries()
        self.split_if_split = _SplitEntries()
        for (run, stay, yes), w in dist.items():
            self.runs.append(run)
            self.stays.append(stay)
            self.yeses.append(yes)
            self.chances.append(w)
            if 2 * yes > stay + 1:
                self.split_if_not.add(w, stay, run == 1)
            if 2 * (yes + 1) > stay + 1:
                self.split_if_split.add(w, stay, run == 1)


class _SplitEntries:
    """The vote outcomes where the bill is split (``VoteChances.split_if_split`` and
    ``split_if_not``), as parallel lists of floats in the order worked out."""

    def __init__(self) -> None:
        self.chances: list[float] = []
        #: Rivals staying, as a float.
        self.stays: list[float] = []
        #: Whether one rival ran (whose meal the stayers then share): 1.0 or 0.0 of the mean.
        self.runners: list[bool] = []
        #: The diners sharing the bill: the stayers and the seat, as a float.
        self.sharers: list[float] = []

    def add(self, chance: float, stay: int, one_runner: bool) -> None:
        self.chances.append(chance)
        self.stays.append(float(stay))
        self.runners.append(one_runner)
        self.sharers.append(float(stay + 1))


class NightOdds:
    """The rivals' meal costs, and the odds of a run against them: all of a ``NightTable``
    that ``best_run_plain`` needs (a compiled class cannot be made without its ``__init__``).

    The meals are two parallel lists, costs ascending and each cost's chance, read and
    never changed (a list of floats and small whole numbers, not a tuple of pairs: a table
    is made for every seat each night, and its pairs were most of what it made and freed,
    issue 36); ``meals`` gives them as pairs."""

    def __init__(self, costs: list[int], chances: list[float]) -> None:
        self.costs = costs
        self.chances = chances
        #: ``best_run``'s answers by (the rivals' chances, the lowest meal, the highest + 1);
        #: made when first asked (only the odds shared by first nights' tables are asked).
        self._best: dict[tuple[tuple[float, ...], int, int], tuple[float, int]] | None = None

    @staticmethod
    def of_meals(meals: tuple[tuple[int, float], ...]) -> NightOdds:
        """The odds of ``meals``, (cost, chance) pairs with the costs ascending."""
        return NightOdds([v for v, _ in meals], [p for _, p in meals])

    @property
    def meals(self) -> tuple[tuple[int, float], ...]:
        """The meals as (cost, chance) pairs, costs ascending."""
        costs, chances = self.costs, self.chances
        return tuple([(costs[i], chances[i]) for i in range(len(costs))])

    def best_run(self, chances: list[float], low: int, high: int) -> tuple[float, int]:
        """The best expected gain of running with a meal in ``range(low, high)``, and the
        meal cost that gets it (of two alike, the dearer); remembered (a pure function
        of the meals and the arguments; bounded, as ``TABLES_KEPT``)."""
        best = self._best
        if best is None:
            best = self._best = {}
        key = (tuple(chances), low, high)
        found = best.get(key)
        if found is None:
            if len(best) >= _BEST_KEPT:
                best.clear()
            found = self.best_run_plain(chances, low, high)
            best[key] = found
        return found

    def best_run_plain(self, chances: list[float], low: int, high: int) -> tuple[float, int]:
        """``best_run`` worked out, not remembered: the greatest (value, meal), as ``max``
        of the pairs ``(run_value(chances, m), m)`` picks it (meals ascending, so of two
        alike values the later, dearer meal).

        One pass over the meals for the whole range: ``below(m)`` of each whole ``m`` is
        a running sum over the costs up to ``m``, so the sums of one ``m`` are the first
        part of the next one's, added in the same order (``tests/test_cafe_bots.py`` holds
        the answer to ``run_value`` of each meal)."""
        if low < 0:
            # (never asked by the bot: ``below`` of a negative meal is ``below_plain``'s)
            best_value, best_meal = 0.0, low
            for m in range(low, high):
                value = self.run_value(chances, float(m))
                if m == low or value >= best_value:
                    best_value, best_meal = value, m
            return best_value, best_meal
        costs, probs = self.costs, self.chances
        index, count = 0, len(costs)
        le = acc = 0.0
        best_value, best_meal = 0.0, low
        for m in range(high):
            eq = 0.0
            while index < count:
                v = costs[index]
                if v > m:
                    break
                p = probs[index]
                le += p
                acc += float(v) * p
                if v == m:
                    eq += p
                index += 1
            if m >= low:
                value = _run_value(chances, float(m), le, eq, acc / le if le > 0 else 0.0)
                if m == low or value >= best_value:
                    best_value, best_meal = value, m
        return best_value, best_meal

    def below(self, m: float) -> tuple[float, float, float]:
        """P(rival meal <= m), P(rival meal == m) and the mean of meals <= m (``below_plain``),
        for a whole-number ``m`` as running sums over the costs up to ``m`` (the sums
        ``best_run_plain`` takes for a range of meals)."""
        k = int(m)
        if not (k == m and k >= 0):
            return self.below_plain(m)
        costs, probs = self.costs, self.chances
        le = eq = acc = 0.0
        for index in range(len(costs)):
            v = costs[index]
            if v > k:
                break
            p = probs[index]
            le += p
            acc += float(v) * p
            if v == k:
                eq += p
        return le, eq, (acc / le if le > 0 else 0.0)

    def below_plain(self, m: float) -> tuple[float, float, float]:
        """P(rival meal <= m), P(rival meal == m) and the mean of meals <= m: the
        definition that ``below`` and ``best_run_plain`` sum as they go."""
        le = eq = acc = 0.0
        for v, p in self.meals:
            if v <= m:
                le += p
                acc += v * p
                if v == m:
                    eq += p
        return (le, eq, (acc / le if le > 0 else 0.0))

    def run_value(self, chances: list[float], m: float) -> float:
        """Expected gain of running with a meal costing ``m``; rivals run with ``chances``."""
        if not chances:
            return m
        le, eq, mean_le = self.below(m)
        return _run_value(chances, m, le, eq, mean_le)


def _run_value(chances: list[float], m: float, le: float, eq: float, mean_le: float) -> float:
    """Expected gain of running with a meal costing ``m`` against rivals who run with
    ``chances``, from ``below(m)``'s three sums (``NightOdds.run_value``)."""
    if not chances:
        return m
    all_le = all_eq = none = 1.0
    count = 0.0
    for p in chances:
        stay_or_le = 1.0 - p + p * le
        all_le *= stay_or_le
        all_eq *= 1.0 - p + p * eq
        none *= 1.0 - p
        if stay_or_le > 0:
            count += p * le / stay_or_le
    # (``max(0.0, x)`` and ``max(1.0, x)`` written out: the first argument unless
    # the second is greater, with no call of the built-in)
    caught = all_le - all_eq
    if not caught > 0.0:
        return m
    at_least_one = 1.0 - none / all_le if all_le > 0 else 1.0
    others = count / at_least_one if at_least_one > 0 else 1.0
    bill = (others if others > 1.0 else 1.0) * mean_le + 0.5
    return (1.0 - caught) * m - caught * bill


class _Counts:
    """The prior's meals counted as ``prior_weight`` meals, as lists indexed by meal cost:
    what a table adds the meals it saw to (``meals_seen``).

    A table's counts were a dict from meal cost to weight: the prior's entries in the
    prior's order, then each cost first seen in a past night, in the order seen; each meal
    seen added 1.0 to its cost's weight. ``meals_seen`` keeps that order (``order``) for
    the total, so every weight, the total and each meal's chance are the same floats as
    the dict's, and lists the costs ascending as ``sorted`` of its items did."""

    def __init__(self, prior_weight: float) -> None:
        #: Weight per meal cost (0.0 where the prior has none) and the prior's costs in order.
        self.weights: list[float] = [0.0] * (max(_PRIOR_MEAL) + 1)
        self.order: list[int] = []
        for v, p in _PRIOR_MEAL.items():
            self.weights[v] = p * prior_weight
            self.order.append(v)
        #: The prior's costs as bits (a cost is an entry even when its weight is 0.0).
        self.present = 0
        for v in self.order:
            self.present |= 1 << v

    def meals_seen(
        self, meal_costs: tuple[tuple[int, ...], ...], seat: int
    ) -> tuple[list[int], list[float], float]:
        """The meals, costs ascending, and their mean: the prior's counts and every
        rival's meal of ``meal_costs`` (the meals of ``seat`` left out), each a count of 1.
        As the costs, their chances and the sum of cost times chance in that order.

        The meals seen are counted as whole numbers, and each cost's weight is its
        prior's with 1.0 added once per meal (``weight``): the floats that adding 1.0 at
        each meal made, with no float made per meal."""
        counts = [0] * len(self.weights)
        present = self.present
        new_costs: list[int] = []  # costs the prior has none of, in the order seen
        for night in meal_costs:
            for s in range(len(night)):
                if s == seat:
                    continue
                cost = night[s]
                if cost >= len(counts):
                    counts.extend([0] * (cost + 1 - len(counts)))
                if not present >> cost & 1:
                    present |= 1 << cost
                    new_costs.append(cost)
                counts[cost] += 1
        total = 0.0
        for v in self.order:
            total += self.weight(v, counts[v])
        for v in new_costs:
            total += self.weight(v, counts[v])
        costs: list[int] = []
        chances: list[float] = []
        mean = 0.0
        for v in range(len(counts)):
            if present >> v & 1:
                p = self.weight(v, counts[v]) / total
                costs.append(v)
                chances.append(p)
                mean += float(v) * p
        return costs, chances, mean

    def weight(self, cost: int, seen: int) -> float:
        """The weight of ``cost`` after ``seen`` meals of it: the prior's, 1.0 added a meal."""
        weights = self.weights
        weight = weights[cost] if cost < len(weights) else 0.0
        for _ in range(seen):
            weight += 1.0
        return weight


class Rivals:
    """Each rival's chance of running tonight and on each later night, as a seat sees the
    table: a pure function of the seat, the nights left, every seat's hand size and RUN!
    card, and ``run_chance_many`` (``_rivals_of`` keeps them by that key, so the tables
    of many nights and games share one; nobody changes its lists)."""

    def __init__(
        self,
        seat: int,
        nights_left: int,
        hand_sizes: tuple[int, ...],
        run_cards: tuple[bool, ...],
        run_chance_many: float,
    ) -> None:
        self.run_now: list[float] = []
        self.run_later: list[list[float]] = [[] for _ in range(nights_left - 1)]
        for player, hand in enumerate(hand_sizes):
            if player == seat:
                continue
            if not run_cards[player] or hand <= 0:
                self.run_now.append(0.0)
                for night_chances in self.run_later:
                    night_chances.append(0.0)
                continue
            still = 1.0
            chances = []
            for j in range(nights_left):
                q = _RUN_CHANCE.get(hand - j, run_chance_many) if hand - j > 0 else 0.0
                chances.append(still * q)
                still *= 1.0 - q
            self.run_now.append(chances[0])
            for j, night_chances in enumerate(self.run_later):
                night_chances.append(chances[j + 1])
        self.runners_now = [p for p in self.run_now if p > 0]
        self.runners_later = [[p for p in night if p > 0] for night in self.run_later]
        #: The vote chances of ``run_now`` (``NightTable._votes``) and the split chance they
        #: were worked out with, kept here once asked: the tables that share these rivals
        #: read them without hashing the chances again for ``_VOTES``.
        self.votes: VoteChances | None = None
        self.votes_split_chance = 0.0


#: The rivals' chances (``Rivals``) by their key; bounded, as ``TABLES_KEPT`` is (a few
#: hundred keys are met in a long run of games: hand sizes and RUN! cards vary little).
_RIVALS: dict[tuple[int, int, tuple[int, ...], tuple[bool, ...], float], Rivals] = {}
_RIVALS_KEPT: Final = 512


def _rivals_of(info: SeatInfo, run_chance_many: float) -> Rivals:
    """The rivals' chances for ``info``'s seat (``Rivals``), worked out once per key."""
    key = (info.seat, info.nights_left, info.hand_sizes, info.run_cards, run_chance_many)
    rivals = _RIVALS.get(key)
    if rivals is None:
        if len(_RIVALS) >= _RIVALS_KEPT:
            _RIVALS.clear()
        rivals = _RIVALS[key] = Rivals(*key)
    return rivals


class NightTable(NightOdds):
    """What the bot believes about the table tonight, from its seat's information."""

    def __init__(
        self,
        info: SeatInfo,
        prior_weight: float = PRIOR_WEIGHT,
        run_chance_many: float = RUN_CHANCE_MANY,
        split_chance: float = SPLIT_CHANCE,
    ) -> None:
        seat = info.seat
        self.seat = seat
        self.split_chance = split_chance
        self.nights_left = info.nights_left
        prior = _PRIOR_COUNTS.get(prior_weight)
        if prior is None:
            if len(_PRIOR_COUNTS) >= TABLES_KEPT:
                _PRIOR_COUNTS.clear()
            prior = _PRIOR_COUNTS[prior_weight] = _Counts(prior_weight)
        costs, chances, mean = prior.meals_seen(info.meal_costs, seat)
        super().__init__(costs, chances)
        #: The odds shared by every table with the prior's meals alone (no meal seen yet),
        #: whose ``best_run`` such a table asks; None: the table asks its own. (Never
        #: the table itself: a table that refers to itself is freed only by the cyclic
        #: garbage collector, which then runs far more often.)
        self.shared: NightOdds | None = None
        if not info.meal_costs:
            shared = _PRIOR_ODDS.get(prior_weight)
            if shared is None or shared.costs != costs or shared.chances != chances:
                if len(_PRIOR_ODDS) >= TABLES_KEPT:
                    _PRIOR_ODDS.clear()
                shared = _PRIOR_ODDS[prior_weight] = NightOdds(costs, chances)
            self.shared = shared
        # (the sum of cost times chance in the meals' order from 0, as ``sum`` of them was)
        self.mean = mean
        self._future: float | None = None
        self._planned = self._aimed = False
        self._plan_now = 0.0
        self._aim_now = 0
        self._typical_split_known = self._typical_apart_known = False
        self._typical_split = self._typical_apart = 0.0
        self._stay_at: dict[int, float] = {}
        self._run_at: dict[int, float] = {}
        self._dist: VoteChances | None = None
        rivals = _rivals_of(info, run_chance_many)
        self._rivals = rivals
        # Each rival's chance of running tonight and on each later night (shared, read only).
        self.run_now: list[float] = rivals.run_now
        self.run_later: list[list[float]] = rivals.run_later
        # Rivals who cannot run do not change a runner's odds.
        self.runners_now: list[float] = rivals.runners_now
        self.runners_later: list[list[float]] = rivals.runners_later

    def best_run_between(self, chances: list[float], low: int, high: int) -> tuple[float, int]:
        """The best expected gain of running with a meal in ``range(low, high)``, and the
        meal cost that gets it (``NightOdds.best_run`` of the table's meals, remembered by the
        odds shared by the tables that have the same: every first night's; a table of its
        own asks each night's once, so it works them out without a memo)."""
        odds = self.shared
        if odds is None:
            return self.best_run_plain(chances, low, high)
        return odds.best_run(chances, low, high)

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
            found = self._stay_at[key] = self.stay_value(float(meal), split)
        return found

    def run_at(self, meal: int) -> float:
        """``run_value`` against tonight's runners of a meal costing ``meal``, kept."""
        found = self._run_at.get(meal)
        if found is None:
            found = self._run_at[meal] = self.run_value(self.runners_now, float(meal))
        return found

    def _votes(self) -> VoteChances:
        """Chances of (rivals running (capped at 2), rivals staying, their split votes)."""
        if self._dist is not None:
            return self._dist
        # A pure function of ``run_now`` and the split chance: kept by the shared rivals
        # whose ``run_now`` this table reads, and by those chances in ``_VOTES``.
        # (only while the table reads the rivals' own ``run_now``: one given another
        # list, as a test may give it, works its chances out from that list)
        rivals = self._rivals
        shared = rivals.run_now is self.run_now
        kept = rivals.votes
        if shared and kept is not None and rivals.votes_split_chance == self.split_chance:
            self._dist = kept
            return kept
        # Tables of other seats, nights and games often have the same rivals' chances.
        chances = (tuple(self.run_now), self.split_chance)
        known = _VOTES.get(chances)
        if known is not None:
            self._dist = known
            if shared:
                rivals.votes, rivals.votes_split_chance = known, self.split_chance
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
        votes = _VOTES[chances] = self._dist = VoteChances(dist)
        if shared:
            rivals.votes, rivals.votes_split_chance = votes, self.split_chance
        return votes

    def stay_value(self, m: float, split: bool) -> float:
        """Expected gain of staying with a meal costing ``m`` and voting split or not."""
        # (not kept here: ``stay_at`` and ``typical_stay`` keep what they ask)
        # The outcomes where the bill is split, by the seat's vote (``VoteChances``):
        # ``m - pool / (stay + 1) - 0.5`` of each, weighed by its chance, in order.
        votes = self._votes()
        wins = votes.split_if_split if split else votes.split_if_not
        chances, stays, runners, sharers = wins.chances, wins.stays, wins.runners, wins.sharers
        mean = self.mean
        value = 0.0
        for k in range(len(chances)):
            pool = m + stays[k] * mean + (mean if runners[k] else 0.0)
            value += chances[k] * (m - pool / sharers[k] - 0.5)
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
