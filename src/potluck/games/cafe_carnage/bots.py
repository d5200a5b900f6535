"""Café Carnage bots. They decide from what their seat knows only (``seat_info.SeatInfo``,
built from the state or from the seat's view)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from potluck.engine.action import Action
from potluck.engine.botspec import BotParam
from potluck.games.cafe_carnage.night_model import (
    COURSE_SHARE,
    PRIOR_WEIGHT,
    RUN_CHANCE_MANY,
    SPLIT_CHANCE,
    TABLES_KEPT,
    NightTable,
)
from potluck.games.cafe_carnage.schema import COURSES
from potluck.games.cafe_carnage.seat_info import SeatInfo
from potluck.games.cafe_carnage.state import BALLOT, DESSERT, NO_DISH, RUN, SPLIT
from potluck.games.cafe_carnage.tables import CafeTables


class _Kept:
    """A seat's last table and the inputs it was built from (``GreedyBot._table``), as
    typed fields: compared at every decision."""

    def __init__(self, info: SeatInfo, table: NightTable) -> None:
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
            PRIOR_WEIGHT,
            "how many past meals the prior for rivals' meal costs is worth",
            low=0.5,
        ),
        BotParam(
            "run_chance_many",
            float,
            RUN_CHANCE_MANY,
            "chance a rival holding RUN! and four or more cards runs tonight",
            low=0,
            high=1,
        ),
        BotParam(
            "split_chance", float, SPLIT_CHANCE, "chance another stayer votes split", low=0, high=1
        ),
        BotParam(
            "main_share",
            float,
            COURSE_SHARE["main"],
            "share of a planned meal aimed at the main course (the rest split evenly)",
            low=0.01,
            high=0.98,
        ),
    )

    def __init__(
        self,
        prior_weight: float = PRIOR_WEIGHT,
        run_chance_many: float = RUN_CHANCE_MANY,
        split_chance: float = SPLIT_CHANCE,
        main_share: float = COURSE_SHARE["main"],
    ) -> None:
        self.prior_weight = prior_weight
        self._tables: dict[tuple[Any, ...], NightTable] = {}
        # The first nights' tables, kept apart and longer: every game meets the same ones
        # (no meal seen yet, every hand full), but a game's later tables would push them
        # out of ``_tables`` before the next game asks again.
        self._first_nights: dict[tuple[Any, ...], NightTable] = {}
        # Per seat, the last table it read and what that was built from (``_table``).
        self._last: list[_Kept | None] = []
        self.run_chance_many = run_chance_many
        self.split_chance = split_chance
        side = (1.0 - main_share) / 2
        self.course_share = {"starter": side, "main": main_share, "dessert": side}
        if main_share == COURSE_SHARE["main"]:
            self.course_share = dict(COURSE_SHARE)  # the defaults play exactly as before
        # The same shares by course index (a list read in compiled code, not a dict of text).
        self._share_by_course = [self.course_share[course] for course in COURSES]

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

    def _table(self, info: SeatInfo) -> NightTable:
        """The bot's model of the table, kept while what it is built from stays the same.

        A ``NightTable`` is a pure function of the seat, the nights left, the rivals'
        past meal costs (in the log's order) and their hands, and it remembers
        what it has worked out (run and stay values). Those inputs change only
        when a night ends, so a seat's four decisions of a night share one table,
        and so do seats and games that met the same table (every first night) while
        it is kept (``TABLES_KEPT``; the first nights' tables in a store of their own).
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
            # (the same tuples while the game keeps them, ``view.public_cards``: compared
            # by identity first, element by element only when they are new tuples)
            and (kept.hand_sizes is info.hand_sizes or kept.hand_sizes == info.hand_sizes)
            and (kept.run_cards is info.run_cards or kept.run_cards == info.run_cards)
        ):
            # The seat's last table: its key is unchanged (most of a night's decisions).
            return kept.table
        key = (seat, info.nights_left, info.meal_costs, info.hand_sizes, info.run_cards)
        tables = self._tables if info.meal_costs else self._first_nights
        table = tables.get(key)
        if table is None:
            if len(tables) >= TABLES_KEPT:
                tables.clear()
            table = NightTable(info, self.prior_weight, self.run_chance_many, self.split_chance)
            tables[key] = table
        last[seat] = _Kept(info, table)
        return table

    # ------------------------------------------------------------------ planning

    def _must_run(self, info: SeatInfo, table: NightTable) -> bool:
        """Whether the hand forces the RUN! card out by the last night."""
        split, separately, run = info.hand
        cards = split + separately + run
        if info.phase == BALLOT and info.has_card:
            cards += 1
        return bool(run) and cards <= table.nights_left

    def _typical_stay(self, table: NightTable) -> float:
        return table.typical_stay(True)

    def _plan_run(self, info: SeatInfo, table: NightTable) -> bool:
        if not info.hand[RUN]:
            return False
        now = table.plan_now()
        if self._must_run(info, table):
            return now >= table.future_run()
        return now > self._typical_stay(table)

    # ------------------------------------------------------------------ orders

    def _order(
        self, game: CafeTables, info: SeatInfo, table: NightTable, legal: Sequence[Action]
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
        if self._plan_run(info, table):
            target = table.aim_now()
            share = self._share_by_course
            starter, main, dessert = info.order
            planned = 0.0  # (summed in course order, as ``sum`` of them was)
            if starter == NO_DISH:
                planned += share[0]
            if main == NO_DISH:
                planned += share[1]
            if dessert == NO_DISH:
                planned += share[2]
            # (whole numbers made floats before they meet a float, as Python's mixed
            # arithmetic makes them: compiled, the same sums as machine numbers)
            aim = float(target - spent) * share[info.phase] / planned
            # The first dish nearest the aim, of two as near the cheaper (``min`` of
            # (distance, value), by a plain loop; ``abs`` written out).
            nearest = legal[0]
            near_value = value_of[nearest.index]
            near_distance = float(near_value) - aim
            if near_distance < 0.0:
                near_distance = -near_distance
            for action in legal:
                value = value_of[action.index]
                distance = float(value) - aim
                if distance < 0.0:
                    distance = -distance
                if distance < near_distance or (distance == near_distance and value < near_value):
                    nearest, near_value, near_distance = action, value, distance
            return nearest
        money = info.money
        last_pay = table.nights_left == 1 or (
            table.nights_left == 2 and self._must_run(info, table)
        )
        if info.phase == DESSERT and last_pay:
            # The last bill this week: leave no dollar of a loan unspent. The first dish
            # of the least (waste, -value), as ``min`` of those keys picks it. (A plain
            # loop and a module function: a nested function made its closure at every
            # order, not only at this one.)
            iou = info.iou
            chosen = legal[0]
            chosen_value = value_of[chosen.index]
            chosen_waste = _waste(money, iou, spent + chosen_value)
            for action in legal:
                value = value_of[action.index]
                waste = _waste(money, iou, spent + value)
                if waste < chosen_waste or (waste == chosen_waste and value > chosen_value):
                    chosen, chosen_value, chosen_waste = action, value, waste
            return chosen
        # The first of the dearest.
        dearest = legal[0]
        for action in legal:
            if value_of[action.index] > value_of[dearest.index]:
                dearest = action
        return dearest

    # ------------------------------------------------------------------ ballot

    def _ballot(
        self, game: CafeTables, info: SeatInfo, table: NightTable, legal: Sequence[Action]
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


def _waste(money: int, iou: bool, cost: int) -> int:
    """The dollars of a loan that a meal costing ``cost`` leaves unspent (a loan is $5)."""
    return (money - cost) % 5 if iou or cost > money else 0


def _spent(game: CafeTables, info: SeatInfo) -> int:
    """What the seat's meal costs so far tonight."""
    value_of, spent = game.value_of, 0
    # (the three courses unpacked: a loop over the typed tuple would build it as an object)
    starter, main, dessert = info.order
    if starter != NO_DISH:
        spent += value_of[starter]
    if main != NO_DISH:
        spent += value_of[main]
    if dessert != NO_DISH:
        spent += value_of[dessert]
    return spent
