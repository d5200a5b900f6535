"""Café Carnage's rules: the six steps of a round, five rounds, and the final tally.

Rulebook step names are used throughout: *Take Orders* (``_advance_course``),
*Secret Ballot*, *Dinner is Served*, *Check, Please!* (``_check_please``),
*Settle Up* (``_settle_up``), *IOUs* (``_pay``) and *Clear the Table*.

    >>> import potluck
    >>> g = potluck.load_game("cafe-carnage")
    >>> s = g.new_game(4, seed=7)
    >>> g.to_act(s), s.phase                     # everyone orders a starter at once
    ((0, 1, 2, 3), 0)
    >>> for seat in g.to_act(s):
    ...     g.step(s, seat, g.legal_actions(s, seat)[0])
    >>> g.view(s, 0)["phase"]
    'main'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any, ClassVar

from potluck.engine.bots import Bot, RandomBot
from potluck.engine.data import DataSource, load_data
from potluck.engine.encoding import Feature, ObservationEncoding, ObservationWriter
from potluck.engine.errors import (
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    PotluckError,
    RecordError,
)
from potluck.engine.game import Game
from potluck.engine.options import Option
from potluck.engine.outcome import Outcome
from potluck.engine.text import slugify
from potluck.games.cafe_carnage.actions import CafeAction
from potluck.games.cafe_carnage.bots import GreedyBot
from potluck.games.cafe_carnage.encoding import encode, encode_state, features
from potluck.games.cafe_carnage.invariants import invariant_problems
from potluck.games.cafe_carnage.schema import COURSES, DishData
from potluck.games.cafe_carnage.state import (
    BALLOT,
    CARD_TITLES,
    CARD_WORDS,
    DESSERT,
    NO_CARD,
    NO_DISH,
    OVER,
    RUN,
    SEPARATELY,
    SPLIT,
    STARTER,
    STARTING_HAND,
    CafeState,
    RoundRecord,
)
from potluck.games.cafe_carnage.view import build_view, redeal

_CARD_SYNONYMS = {
    "split": SPLIT,
    "split the bill": SPLIT,
    "split the bill evenly": SPLIT,
    "separately": SEPARATELY,
    "separate": SEPARATELY,
    "pay separately": SEPARATELY,
    "each pay separately": SEPARATELY,
    "run": RUN,
    "run!": RUN,
}


def caught_runners(runners: list[int], costs: list[int]) -> list[int]:
    """Which runners security catches (rulebook, Step 4 "Determine who successfully flees").

    One runner always escapes; if all runners' meals cost the same, all escape.
    Otherwise 2-4 runners lose their dearest-meal runner and 5-6 runners their two
    dearest; every runner tied with a caught one is caught too (ruling CC-3).

        >>> caught_runners([0, 1], [7, 6])
        [0]
        >>> caught_runners([0, 1, 2], [5, 5, 5])
        []
        >>> caught_runners([0, 1, 2, 3, 4], [9, 8, 8, 4, 3])
        [0, 1, 2]
    """
    if len(runners) < 2:
        return []
    meal = [costs[seat] for seat in runners]
    if min(meal) == max(meal):
        return []
    places = 1 if len(runners) <= 4 else 2
    # A runner is caught when fewer than `places` runners ate a strictly dearer meal.
    return [seat for seat in runners if sum(1 for c in meal if c > costs[seat]) < places]


#: What a seat may do now: the legal actions, and the same as a bit mask of indices.
Choices = tuple[tuple[CafeAction, ...], int]


class _Memo(dict[tuple[int, ...], Choices]):
    """A dict that computes a missing entry with ``function`` (a pure function of the key)."""

    def __init__(self, function: Callable[[tuple[int, ...]], Choices]) -> None:
        super().__init__()
        self.function = function

    def __missing__(self, key: tuple[int, ...]) -> Choices:
        value = self[key] = self.function(key)
        return value


class CafeCarnage(Game[CafeState, CafeAction]):
    """Café Carnage (2023 remaster), for 4 to 6 players."""

    id: ClassVar[str] = "cafe-carnage"
    title: ClassVar[str] = "Café Carnage"
    version: ClassVar[int] = 1
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 6
    options: ClassVar[Mapping[str, Option]] = {
        "no_repeat_dishes": Option(
            bool,
            False,
            "Advanced variant: no dish twice a week; a forced repeat is paid but scores 0.",
        ),
    }
    summary: ClassVar[str] = resources.files(__package__).joinpath("summary.md").read_text("utf-8")
    notation: ClassVar[str] = (
        "Order a dish by its name in lower case with dashes, e.g. 'vegetable-samosas' "
        "(the full name works too). Play an action card with 'split', 'separately' or 'run'."
    )

    def __init__(self, data: DataSource = None) -> None:
        self.data = load_data(DishData, data, package=__package__, default="data/dishes.toml")
        self.data_source = (
            None if data is None else str(data) if not isinstance(data, Mapping) else "custom"
        )
        table = self.data.table
        self.budget, self.rounds = table.budget, table.rounds
        self.menu_size, self.loan = table.menu_size, table.iou_loan
        names: list[str] = []
        slugs: list[str] = []
        course_of: list[int] = []
        value_of: list[int] = []
        full_decks: list[list[int]] = [[], [], []]
        for course, course_name in enumerate(COURSES):
            for spec in getattr(self.data, course_name):
                index = len(names)
                names.append(spec.name)
                slugs.append(slugify(spec.name))
                course_of.append(course)
                value_of.append(spec.value)
                full_decks[course].extend([index] * spec.copies)
        self.dish_names = tuple(names)
        self.dish_slugs = tuple(slugs)
        self.dish_index = {slug: i for i, slug in enumerate(slugs)}
        self.course_of = tuple(course_of)
        self.value_of = tuple(value_of)
        self.full_decks = tuple(tuple(deck) for deck in full_decks)
        self.dish_actions = tuple(
            CafeAction(i, slug, dish=i) for i, slug in enumerate(self.dish_slugs)
        )
        self.card_actions = tuple(
            CafeAction(len(names) + card, word, card=card) for card, word in enumerate(CARD_WORDS)
        )
        self._by_text: dict[str, CafeAction] = {}
        for i, action in enumerate(self.dish_actions):
            self._by_text[action.text] = action
            self._by_text[self.dish_names[i].lower()] = action
        for word, card in _CARD_SYNONYMS.items():
            self._by_text[word] = self.card_actions[card]
        # Memos of pure functions of a menu or a hand: dealing is the hot path.
        self._menu_cache = _Memo(self._menu_choices)
        self._hand_cache = _Memo(self._hand_choices)
        self._everyone = {n: tuple(range(n)) for n in range(self.max_players + 1)}

    # ------------------------------------------------------------------ setup

    def _new_game(self, num_players: int, seed: int, options: Mapping[str, Any]) -> CafeState:
        state = CafeState(num_players, seed, options)
        state.round = 0
        state.phase = STARTER
        state.decks = [list(deck) for deck in self.full_decks]
        state.discards = [[], [], []]
        state.consumed = [[], [], []]
        state.menus = [()] * num_players
        state.orders = [NO_DISH] * (3 * num_players)
        state.ballots = [NO_CARD] * num_players
        state.hands = list(STARTING_HAND) * num_players
        state.money = [self.budget] * num_players
        state.points = [0] * num_players
        state.iou = [False] * num_players
        state.fled = [False] * num_players
        state.eaten = [0] * num_players
        state.log = ()
        self._deal(state, STARTER)
        return state

    def guards(self, num_players: int) -> int:
        """Security Guard tokens on duty (ruling CC-2): 1 at four players, 2 at five or six."""
        return 1 if num_players <= 4 else 2

    def _deal(self, state: CafeState, course: int) -> None:
        """Take Orders (i): deal each player a menu of ``menu_size`` cards of ``course``."""
        deck = state.decks[course]
        n, size = state.num_players, self.menu_size
        count = n * size
        if len(deck) < count:
            # Ruling CC-4: eaten dishes are shuffled back when a deck runs dry.
            deck.extend(state.consumed[course])
            state.consumed[course].clear()
        # Drawing at random from an unordered deck is dealing from a shuffled one;
        # one comprehension of C calls per deal keeps this hot path cheap.
        pop, rnd, left = deck.pop, state.rng.random, len(deck)
        drawn = [pop(int(rnd() * k)) for k in range(left, left - count, -1)]
        state.menus = menus = list(zip(*[iter(drawn)] * size, strict=True))
        if state.options["no_repeat_dishes"]:
            eaten = state.eaten
            state.choices = [self._menu_choices(menu, eaten[s]) for s, menu in enumerate(menus)]
        else:
            state.choices = list(map(self._menu_cache.__getitem__, menus))
        state.acting = self._everyone[n]

    def _menu_choices(self, menu: tuple[int, ...], eaten: int = 0) -> Choices:
        """The dishes one may order from ``menu``: as actions, and as a bit mask of their indices.

        In the advanced variant a dish eaten earlier in the week (a bit of
        ``eaten``) may be ordered only when every dish on the menu was.
        """
        dishes = list(dict.fromkeys(menu))
        if eaten:
            fresh = [dish for dish in dishes if not eaten >> dish & 1]
            if fresh:
                dishes = fresh
        return tuple(self.dish_actions[d] for d in dishes), sum(1 << d for d in dishes)

    def _hand_choices(self, hand: tuple[int, ...]) -> Choices:
        """The action cards one may play from a hand of (split, separately, run) counts."""
        held = [card for card in range(3) if hand[card]]
        offset = len(self.dish_actions)
        return tuple(self.card_actions[c] for c in held), sum(1 << (offset + c) for c in held)

    def _start_ballot(self, state: CafeState) -> None:
        """Secret Ballot: everyone plays one action card from their hand."""
        state.phase = BALLOT
        state.menus = [()] * state.num_players
        self._derive_choices(state)
        state.acting = self._everyone[state.num_players]

    def _derive_choices(self, state: CafeState) -> None:
        """Recompute ``choices`` from the menus (orders) or the hands (ballot)."""
        n = state.num_players
        if state.phase < BALLOT:
            eaten = state.eaten if state.options["no_repeat_dishes"] else [0] * n
            state.choices = [
                self._menu_choices(menu, eaten[s]) for s, menu in enumerate(state.menus)
            ]
        elif state.phase == BALLOT:
            hands = state.hands
            lookup = self._hand_cache.__getitem__
            state.choices = [lookup(tuple(hands[i : i + 3])) for i in range(0, 3 * n, 3)]
        else:
            state.choices = [((), 0)] * n

    # ------------------------------------------------------------------ legality

    def _orderable(self, state: CafeState, seat: int) -> list[int]:
        """The distinct dishes ``seat`` may order from its menu now."""
        eaten = state.eaten[seat] if state.options["no_repeat_dishes"] else 0
        return [action.dish for action in self._menu_choices(state.menus[seat], eaten)[0]]

    def legal_actions(self, state: CafeState, seat: int) -> list[CafeAction]:
        if seat not in state.acting:
            return []
        return list(state.choices[seat][0])

    def _is_legal(self, state: CafeState, seat: int, action: Any) -> bool:
        return bool(state.choices[seat][1] >> action.index & 1)

    def _why_illegal(self, state: CafeState, seat: int, action: CafeAction) -> str:
        phase = state.phase
        if phase < BALLOT:
            course = COURSES[phase]
            if action.dish < 0:
                return f"Orders are being taken: choose a {course} from your menu first."
            name = self.dish_names[action.dish]
            dish_course = COURSES[self.course_of[action.dish]]
            if dish_course != course:
                return f"{name} is a {dish_course}; you are choosing a {course} now."
            menu = ", ".join(self.dish_names[d] for d in dict.fromkeys(state.menus[seat]))
            if action.dish not in state.menus[seat]:
                return f"{name} is not on your {course} menu ({menu})."
            return (
                f"You already ate {name} this week, and your menu has dishes you have not "
                "eaten yet (advanced variant: no dish twice a week)."
            )
        if action.card < 0:
            return "Orders are taken: now play an action card (split, separately or run)."
        title = CARD_TITLES[action.card]
        if action.card == RUN:
            if state.fled[seat]:
                fled_round = next(
                    r.number for r in state.log if seat in r.runners and seat not in r.caught
                )
                return (
                    f"You have no '{title}' card: you ran away in round {fled_round} and got away."
                )
            return f"You have no '{title}' card in your hand."
        return f"You have no '{title}' card left: you have played both of yours."

    def _not_your_turn(self, state: CafeState, seat: int) -> str:
        if not 0 <= seat < state.num_players:
            return super()._not_your_turn(state, seat)
        waiting = ", ".join(str(s) for s in state.acting)
        if state.phase < BALLOT:
            doing = f"has ordered a {COURSES[state.phase]}"
        else:
            doing = "has played an action card"
        return f"Seat {seat} {doing}; waiting for seat(s) {waiting}."

    def describe_action(self, state: CafeState, seat: int, action: CafeAction) -> str:
        """``Vegetable Samosas ($2)`` for an order, the card's title for a card."""
        if action.dish >= 0:
            return f"{self.dish_names[action.dish]} (${self.value_of[action.dish]})"
        return CARD_TITLES[action.card]

    # ------------------------------------------------------------------ change

    def step(self, state: CafeState, seat: int, action: CafeAction | str) -> None:
        # The engine's checks, inlined: this is the hot path of every simulation.
        if type(action) is not CafeAction and not isinstance(action, CafeAction):
            action = self.parse_action(state, seat, action)
        acting = state.acting
        if seat not in acting:
            raise NotYourTurnError(
                "The game is over." if not acting else self._not_your_turn(state, seat)
            )
        if not state.choices[seat][1] >> action.index & 1:
            raise IllegalActionError(self._why_illegal(state, seat, action))
        state.history.append((seat, action))
        self._step(state, seat, action)

    def _step(self, state: CafeState, seat: int, action: CafeAction) -> None:
        phase = state.phase
        if phase < BALLOT:
            state.orders[3 * seat + phase] = action.dish
        else:
            state.ballots[seat] = action.card
            state.hands[3 * seat + action.card] -= 1
        acting = state.acting
        if len(acting) > 1:
            i = acting.index(seat)
            state.acting = acting[:i] + acting[i + 1 :]
        elif phase < BALLOT:
            self._advance_course(state, phase)
        else:
            self._resolve_round(state)

    def _advance_course(self, state: CafeState, course: int) -> None:
        """Everyone has chosen: unchosen menu cards go face down to the discard pile."""
        pile = state.discards[course]
        for menu in state.menus:
            pile += menu
        for dish in state.orders[course::3]:
            pile.remove(dish)
        if course < DESSERT:
            state.phase = course + 1
            self._deal(state, course + 1)
        else:
            self._start_ballot(state)

    def _resolve_round(self, state: CafeState) -> None:
        n, value, orders = state.num_players, self.value_of, state.orders
        costs = [
            value[orders[3 * s]] + value[orders[3 * s + 1]] + value[orders[3 * s + 2]]
            for s in range(n)
        ]
        # Step 3, Dinner is Served: everyone scores their meal.
        scored = costs
        if state.options["no_repeat_dishes"]:
            scored = [
                sum(value[d] for d in orders[3 * s : 3 * s + 3] if not state.eaten[s] >> d & 1)
                for s in range(n)
            ]
        points = state.points
        for s in range(n):
            points[s] += scored[s]
        paid = [0] * n
        loans = [0] * n
        runners, caught, runners_bill = self._check_please(state, costs, paid, loans)
        split_votes, separately_votes, method = self._settle_up(
            state, costs, runners, caught, paid, loans
        )
        record = RoundRecord(
            number=state.round + 1,
            orders=tuple(orders),
            scored=tuple(scored),
            ballots=tuple(state.ballots),
            runners=tuple(runners),
            caught=tuple(caught),
            runners_bill=runners_bill,
            split_votes=split_votes,
            separately_votes=separately_votes,
            method=method,
            paid=tuple(paid),
            loans=tuple(loans),
        )
        self._clear_table(state)
        state.log = (*state.log, record)

    def _check_please(
        self, state: CafeState, costs: list[int], paid: list[int], loans: list[int]
    ) -> tuple[list[int], list[int], int]:
        """Step 4: runners reveal; security catches some; the caught pay all runners' meals."""
        runners = [s for s in range(state.num_players) if state.ballots[s] == RUN]
        caught = caught_runners(runners, costs)
        bill = 0
        if caught:
            bill = sum(costs[s] for s in runners)
            share = -(-bill // len(caught))  # rounded up: the surplus is the tip
            for s in caught:
                self._pay(state, s, share, paid, loans)
                state.hands[3 * s + RUN] += 1  # the caught take their Run! card back
        for s in runners:
            if s not in caught:
                state.fled[s] = True
        return runners, caught, bill

    def _settle_up(
        self,
        state: CafeState,
        costs: list[int],
        runners: list[int],
        caught: list[int],
        paid: list[int],
        loans: list[int],
    ) -> tuple[int, int, int]:
        """Step 5: the stayers' shuffled votes decide: share all that is unpaid, or pay own."""
        stayers = [s for s in range(state.num_players) if state.ballots[s] != RUN]
        if not stayers:
            return 0, 0, NO_CARD
        split_votes = sum(1 for s in stayers if state.ballots[s] == SPLIT)
        separately_votes = len(stayers) - split_votes
        if split_votes > separately_votes:
            unpaid = sum(costs[s] for s in stayers)
            if not caught:
                unpaid += sum(costs[s] for s in runners)  # escaped runners' meals too
            share = -(-unpaid // len(stayers))
            for s in stayers:
                self._pay(state, s, share, paid, loans)
            return split_votes, separately_votes, SPLIT
        for s in stayers:
            self._pay(state, s, costs[s], paid, loans)
        return split_votes, separately_votes, SEPARATELY

    def _pay(
        self, state: CafeState, seat: int, amount: int, paid: list[int], loans: list[int]
    ) -> None:
        """Pay into the supply; short of money, take $5 IOU loans at 5 points each."""
        short = amount - state.money[seat]
        if short > 0:
            taken = -(-short // self.loan)
            state.money[seat] += taken * self.loan
            state.points[seat] -= taken * self.loan
            state.iou[seat] = True
            loans[seat] += taken
        state.money[seat] -= amount
        paid[seat] += amount

    def _clear_table(self, state: CafeState) -> None:
        """Step 6: unchosen cards go back into the decks, eaten dishes leave the game."""
        n, orders, eaten = state.num_players, state.orders, state.eaten
        for course in range(3):
            state.decks[course] += state.discards[course]
            state.discards[course] = []
            state.consumed[course] += orders[course::3]
        for s in range(n):
            eaten[s] |= (1 << orders[3 * s]) | (1 << orders[3 * s + 1]) | (1 << orders[3 * s + 2])
        state.orders = [NO_DISH] * (3 * n)
        state.ballots = [NO_CARD] * n
        state.round += 1
        if state.round >= self.rounds:
            state.phase = OVER
            state.acting = ()
            self._derive_choices(state)
        else:
            state.phase = STARTER
            self._deal(state, STARTER)

    # ------------------------------------------------------------------ the end

    def final_scores(self, state: CafeState) -> list[int]:
        """Gourmet Points after the end bonus: +1 per dollar left, only without an IOU."""
        return [
            state.points[s] + (0 if state.iou[s] else state.money[s])
            for s in range(state.num_players)
        ]

    def standings(self, state: CafeState) -> tuple[float, ...]:
        """Gourmet Points with the end bonus for money, as if the game ended now."""
        return tuple(float(score) for score in self.final_scores(state))

    def outcome(self, state: CafeState) -> Outcome:
        if state.phase != OVER:
            raise PotluckError(
                f"the game is not over: it is round {state.round + 1} of {self.rounds}"
            )
        finals = self.final_scores(state)
        keys = [(finals[s], state.money[s]) for s in range(state.num_players)]
        outcome = Outcome.from_keys(tuple(finals), keys, "")
        best = finals[outcome.winners[0]]
        if len(outcome.winners) > 1:
            reason = (
                f"Seats {', '.join(map(str, outcome.winners))} share the win with {best} "
                "Gourmet Points and equal money left."
            )
        elif sum(1 for f in finals if f == best) > 1:
            reason = (
                f"Seat {outcome.winners[0]} wins the tie on {best} points with the most money left."
            )
        else:
            reason = f"Seat {outcome.winners[0]} wins with {best} Gourmet Points."
        return Outcome(outcome.scores, outcome.winners, outcome.ranking, outcome.places, reason)

    def metrics(self, state: CafeState) -> dict[str, float | int | str]:
        log = state.log
        runs = sum(len(r.runners) for r in log)
        caught = sum(len(r.caught) for r in log)
        meals = [self.value_of[r.orders[i]] for r in log for i in range(len(r.orders))]
        return {
            "runs": runs,
            "escapes": runs - caught,
            "caught": caught,
            "iou_players": sum(state.iou),
            "split_bills": sum(1 for r in log if r.method == SPLIT),
            "separate_bills": sum(1 for r in log if r.method == SEPARATELY),
            "mean_meal": round(3 * sum(meals) / len(meals), 3) if meals else 0.0,
        }

    def seat_metrics(self, state: CafeState, seat: int) -> dict[str, float | int]:
        """What ``seat`` ate and did, for the lab's "what goes with winning" tables.

        ``dish:<slug>`` counts the times the seat ate that dish; ``card:<word>``
        the action cards it played; ``runs``, ``escapes`` and ``caught`` its runs; ``iou`` 1 if
        it took an IOU token; ``money_left`` its dollars at the end.
        """
        found: dict[str, float | int] = {}
        runs = escapes = 0
        for record in state.log:
            for course in range(3):
                dish = record.orders[seat * 3 + course]
                if dish < 0:  # defensive: every seat orders all three courses each round
                    continue
                slug = self.dish_slugs[dish]
                found[f"dish:{slug}"] = found.get(f"dish:{slug}", 0) + 1
            card = record.ballots[seat]
            if card != NO_CARD:
                key = f"card:{CARD_WORDS[card]}"
                found[key] = found.get(key, 0) + 1
            if seat in record.runners:
                runs += 1
                escapes += seat not in record.caught
        found["runs"] = runs
        found["escapes"] = escapes
        found["caught"] = runs - escapes
        found["iou"] = int(state.iou[seat])
        found["money_left"] = state.money[seat]
        return found

    # ------------------------------------------------------------------ text and numbers

    def parse_action(self, state: CafeState | None, seat: int, text: str) -> CafeAction:
        return self._action_from_text(text)

    def _action_from_text(self, text: str) -> CafeAction:
        if not isinstance(text, str):
            raise InvalidActionError(f"an action is text, not {type(text).__name__}")
        key = " ".join(text.strip().lower().split())
        action = self._by_text.get(key) or self._by_text.get(slugify(key))
        if action is None:
            raise InvalidActionError(
                f"{text!r} is not a Café Carnage action: write a dish such as "
                f"{self.dish_slugs[0]!r} or an action card: 'split', 'separately' or 'run'."
            )
        return action

    def max_steps(self, num_players: int) -> int:
        # Per round each player orders three courses and plays one card.
        return self.rounds * 4 * num_players

    def num_distinct_actions(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> int:
        return len(self.dish_actions) + len(self.card_actions)

    def action_from_index(self, state: CafeState | None, seat: int, index: int) -> CafeAction:
        dishes = len(self.dish_actions)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < dishes + 3:
            raise InvalidActionError(
                f"action index {index!r} is out of range: Café Carnage has {dishes + 3} actions"
            )
        return self.dish_actions[index] if index < dishes else self.card_actions[index - dishes]

    # ------------------------------------------------------------------ views

    def dish_json(self, dish: int) -> dict[str, Any]:
        return {
            "dish": self.dish_slugs[dish],
            "name": self.dish_names[dish],
            "course": COURSES[self.course_of[dish]],
            "value": self.value_of[dish],
        }

    def _observation_features(self, num_players: int, options: Mapping[str, Any]) -> list[Feature]:
        return features(self, num_players, options)

    def _encode_view(self, view: Mapping[str, Any], out: ObservationWriter) -> None:
        encode(self, view, out)

    def _encode_state(
        self, state: CafeState, seat: int, encoding: ObservationEncoding
    ) -> list[float]:
        return encode_state(self, state, seat, encoding)

    def view(self, state: CafeState, seat: int | None) -> dict[str, Any]:
        return build_view(self, state, seat)

    def redeal(self, state: CafeState, seat: int, rng: random.Random) -> CafeState:
        return redeal(self, state, seat, rng)

    def invariants(self, state: CafeState) -> list[str]:
        """Cards are conserved; hands stay within the cards each player was given."""
        return invariant_problems(self, state)

    # ------------------------------------------------------------------ bots

    def bots(self) -> dict[str, Callable[[], Bot]]:
        return {"random": RandomBot, "greedy": GreedyBot}

    # ------------------------------------------------------------------ saving

    def _state_to_json(self, state: CafeState) -> dict[str, Any]:
        return {
            "round": state.round,
            "phase": state.phase,
            "decks": [list(d) for d in state.decks],
            "discards": [list(d) for d in state.discards],
            "consumed": [list(d) for d in state.consumed],
            "menus": [list(m) for m in state.menus],
            "orders": list(state.orders),
            "ballots": list(state.ballots),
            "hands": list(state.hands),
            "money": list(state.money),
            "points": list(state.points),
            "iou": list(state.iou),
            "fled": list(state.fled),
            "eaten": list(state.eaten),
            "log": [[list(f) if isinstance(f, tuple) else f for f in r] for r in state.log],
        }

    def _state_from_json(
        self, data: Mapping[str, Any], num_players: int, seed: int, options: Mapping[str, Any]
    ) -> CafeState:
        state = CafeState(num_players, seed, options)
        try:
            state.round = int(data["round"])
            state.phase = int(data["phase"])
            state.decks = [[int(d) for d in deck] for deck in data["decks"]]
            state.discards = [[int(d) for d in pile] for pile in data["discards"]]
            state.consumed = [[int(d) for d in pile] for pile in data["consumed"]]
            state.menus = [tuple(int(d) for d in menu) for menu in data["menus"]]
            state.orders = [int(d) for d in data["orders"]]
            state.ballots = [int(c) for c in data["ballots"]]
            state.hands = [int(c) for c in data["hands"]]
            state.money = [int(m) for m in data["money"]]
            state.points = [int(p) for p in data["points"]]
            state.iou = [bool(i) for i in data["iou"]]
            state.fled = [bool(f) for f in data["fled"]]
            state.eaten = [int(e) for e in data["eaten"]]
            state.log = tuple(
                RoundRecord._make(tuple(f) if isinstance(f, list) else f for f in r)
                for r in data["log"]
            )
        except (KeyError, TypeError, ValueError) as error:
            raise RecordError(f"the saved Café Carnage state is malformed: {error!r}") from None
        if len(state.money) != num_players or len(state.orders) != 3 * num_players:
            raise RecordError("the saved Café Carnage state does not match its number of players")
        self._derive_choices(state)
        return state
