"""FoodAdvice, the ``Game`` class: the declaration, options and the verbs, each
calling the rulebook's chapters.

The rules live in modules named after the rulebook's chapters: setup.py
(*Getting ready for the game*), product.py (*Creating a signature product*: the
deal, keeping three, naming), exchange.py (the ingredient exchange),
presentation.py (*Product presentation*: voting), placing.py (*Placing products
in shops* and *Product promotion*), events.py (*Playing events*), selling.py
(*Selling products*) with market.py (*How customers choose products*), and
scoring.py (*Determining the winner*); characters.py holds the decks the
characters keep, tables.py the per-game tables.

    >>> import potluck
    >>> g = potluck.load_game("food-advice")
    >>> s = g.new_game(4, seed=7)
    >>> g.view(s, None)["phase"], g.to_act(s)      # the exchange window, in seat order
    ('exchange', (0,))
    >>> str(g.legal_actions(s, 0)[0])
    'pass'
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from potluck.engine.bots import Bot, RandomBot
from potluck.engine.encoding import Feature, ObservationEncoding, ObservationWriter
from potluck.engine.errors import InvalidActionError, PotluckError, RecordError
from potluck.engine.options import Option, resolve_options
from potluck.engine.outcome import Outcome
from potluck.engine.text import numbers_as_written, slugify, written_text_problem
from potluck.games.food_advice import estimate, scoring
from potluck.games.food_advice.actions import (
    DECLINE,
    DISCARD,
    DONE,
    GIVE,
    INVEST,
    NAME,
    OFFER,
    PASS,
    PROMOTE,
    REMOVE,
    SHOP,
    TARGET,
    VOTE,
    FoodAction,
)
from potluck.games.food_advice.bots import GreedyBot
from potluck.games.food_advice.describe import describe
from potluck.games.food_advice.encoding import encode, encode_state, features
from potluck.games.food_advice.events import event_allows, event_choices, resolve_choice
from potluck.games.food_advice.exchange import (
    answer_actions,
    answer_allows,
    exchange_actions,
    exchange_allows,
    exchange_step,
)
from potluck.games.food_advice.illegal import why_illegal
from potluck.games.food_advice.invariants import invariant_problems
from potluck.games.food_advice.placing import place, placing_actions, placing_allows
from potluck.games.food_advice.presentation import vote, vote_actions
from potluck.games.food_advice.product import discard, keep_actions, name_product
from potluck.games.food_advice.seat_info import SeatInfo
from potluck.games.food_advice.setup import new_state
from potluck.games.food_advice.state import (
    ALL_SLOTS,
    EVENTS,
    EXCHANGE,
    INT_SLOTS,
    INTS,
    KEEP,
    NAMING,
    NESTED_SLOTS,
    PLACING,
    RESPOND,
    SHARED,
    STR_SLOTS,
    VOTING,
    FoodState,
    holds,
    is_acting,
)
from potluck.games.food_advice.tables import (
    MAX_CHANNELS,
    MAX_OFFER_CARDS,
    MAX_OFFERS,
    MAX_SHOPS,
    FoodTables,
)
from potluck.games.food_advice.view import build_seat_info, build_view, redeal

_NAME_TEXT = re.compile(r'^name\s+"([^"\n]{1,60})"\s*/\s*"([^"\n]{0,80})"$', re.IGNORECASE)


@mypyc_attr(allow_interpreted_subclasses=True)
class FoodAdvice(FoodTables):
    """FoodAdvice (foodsovet), for 4 to 6 players, or 2 to 3 with ``small_table``.

    Its tables (card data as tuples, interned actions) come from ``FoodTables``.
    """

    id: ClassVar[str] = "food-advice"
    title: ClassVar[str] = "FoodAdvice"
    version: ClassVar[int] = 2
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 6
    options: ClassVar[Mapping[str, Option]] = {
        "small_table": Option(
            bool,
            False,
            "Allow 2 or 3 players, as the box says (each still gets one role; the engine "
            "does the duties of the roles nobody holds).",
        ),
    }
    summary: ClassVar[str] = resources.files(__package__).joinpath("summary.md").read_text("utf-8")
    notation: ClassVar[str] = (
        "pass | offer INGREDIENT to SEAT | give INGREDIENT | decline | discard INGREDIENT | "
        'name "NAME" / "TAGLINE" | vote SEAT | shop SHOP | promote CHANNEL | invest SEAT | '
        "done | target SEAT | remove INGREDIENT. Cards are written in lower case with "
        "dashes, e.g. 'offer oat-flakes to 2', 'shop sparget', 'promote black-friday'."
    )

    # ------------------------------------------------------------------ setup

    def new_game(
        self, num_players: object, seed: object = 0, options: Mapping[str, Any] | None = None
    ) -> FoodState:
        """As ``Game.new_game``; 2 or 3 players need the option ``small_table`` (ruling FA-1)."""
        if (
            isinstance(num_players, int)
            and not isinstance(num_players, bool)
            and 2 <= num_players < self.min_players
        ):
            resolved = resolve_options(self.id, self.options, options)
            if not resolved["small_table"]:
                raise PotluckError(
                    f"{self.title} is for 4 to 6 players; for {num_players} set the option "
                    "small_table=true (the box says 2 to 6)"
                )
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise PotluckError(f"seed must be a whole number, not {seed!r}")
            return self._new_game(num_players, seed, resolved)
        return super().new_game(num_players, seed, options)

    def _new_game(self, num_players: int, seed: int, options: Mapping[str, Any]) -> FoodState:
        return new_state(self, num_players, seed, options)

    # ------------------------------------------------------------------ legality

    def legal_actions(self, state: FoodState, seat: int) -> list[FoodAction]:
        if not is_acting(state.acting, seat):
            return []
        phase = state.phase
        if phase == EXCHANGE:
            return exchange_actions(self, state, seat)
        if phase == RESPOND:
            return answer_actions(self, state, seat)
        if phase == KEEP:
            return keep_actions(self, state, seat)
        if phase == NAMING:
            return [self.generated_name(state, seat)]
        if phase == VOTING:
            return vote_actions(self, state, seat)
        if phase == PLACING:
            return placing_actions(self, state, seat)
        if phase == EVENTS:
            return event_choices(self, state, seat)
        return []

    def _is_legal(self, state: FoodState, seat: int, action: Any) -> bool:
        # ``seat`` is to act: both callers (``Game.step`` and ``Game.explain``) checked.
        # ``action in legal_actions(...)`` by value, without building the list: every
        # action but a name is interned, one per index, so an action equals a legal
        # one when it is a FoodAction with that index's text; each chapter then says
        # whether the interned action is in its list. (Read through a FoodAction-typed
        # name once its type is known: compiled code then reads its fields directly.)
        if type(action) is not FoodAction:
            return action in self.legal_actions(state, seat)
        mine: FoodAction = action
        if mine.kind == NAME:
            return bool(state.phase == NAMING)
        index = mine.index
        if not 0 <= index < self.size:
            return action in self.legal_actions(state, seat)
        canonical: FoodAction = self.actions[index]
        if mine is not canonical and mine.text != canonical.text:
            return False
        phase = state.phase
        if phase == EXCHANGE:
            return exchange_allows(state, seat, canonical)
        if phase == RESPOND:
            return answer_allows(state, seat, canonical)
        if phase == KEEP:
            return canonical.kind == DISCARD and holds(state.hands[seat], canonical.thing)
        if phase == VOTING:
            return (
                canonical.kind == VOTE
                and canonical.seat != seat
                and canonical.seat < state.num_players
            )
        if phase == PLACING:
            return placing_allows(self, state, seat, canonical)
        if phase == EVENTS:
            return event_allows(self, state, seat, canonical)
        return False

    def _why_illegal(self, state: FoodState, seat: int, action: FoodAction) -> str:
        return why_illegal(self, state, seat, action)

    # ------------------------------------------------------------------ change

    def _step(self, state: FoodState, seat: int, action: FoodAction) -> None:
        kind = action.kind
        if kind in (PASS, OFFER, GIVE, DECLINE) or (kind == DONE and state.phase == EXCHANGE):
            exchange_step(self, state, seat, action)
        elif kind == DISCARD:
            discard(self, state, seat, action.thing)
        elif kind == NAME:
            name_product(state, seat, action)
        elif kind == VOTE:
            vote(self, state, seat, action.seat)
        elif kind in (SHOP, PROMOTE, INVEST, DONE):
            place(self, state, seat, action)
        elif kind in (TARGET, REMOVE):
            resolve_choice(self, state, seat, action)

    def describe_action(self, state: FoodState, seat: int, action: FoodAction) -> str:
        """The card, its price and hashtag, and what the move does (see ``describe``)."""
        return describe(self, state, seat, action)

    # ------------------------------------------------------------------ the end

    def standings(self, state: FoodState) -> tuple[float, ...]:
        """Foodcoins so far plus the expected takings of the sellings still to come
        (``estimate.standings``); the final foodcoins once the game is over."""
        return estimate.standings(self, state)

    def outcome(self, state: FoodState) -> Outcome:
        return scoring.outcome(self, state)

    def metrics(self, state: FoodState) -> dict[str, float | int | str]:
        """Sales, leavers, trades, and which channels and shapes go with winning."""
        return scoring.metrics(self, state)

    def seat_metrics(self, state: FoodState, seat: int) -> dict[str, float | int]:
        """What ``seat`` made and chose (``scoring.seat_metrics``)."""
        return scoring.seat_metrics(self, state, seat)

    # ------------------------------------------------------------------ text and numbers

    def parse_action(self, state: FoodState | None, seat: int, text: str) -> FoodAction:
        return self._action_from_text(text)

    def _action_from_text(self, text: str) -> FoodAction:
        if not isinstance(text, str):
            raise InvalidActionError(f"an action is text, not {type(text).__name__}")
        key = " ".join(text.strip().split())
        match = _NAME_TEXT.match(key)
        if match:
            for written, what in (
                (match.group(1), "A product's name"),
                (match.group(2), "A tagline"),
            ):
                problem = written_text_problem(written, what)
                if problem is not None:
                    raise InvalidActionError(problem)
            return self.name_action(match.group(1), match.group(2))
        action = self._by_text.get(key.lower())
        words = key.lower().split()
        if action is None and len(words) >= 2 and numbers_as_written(words):
            if words[0] == "offer" and len(words) >= 4 and words[-2] == "to":
                candidate = f"offer {slugify(' '.join(words[1:-2]))} to {words[-1]}"
            else:
                candidate = f"{words[0]} {slugify(' '.join(words[1:]))}"
            action = self._by_text.get(candidate)
        if action is None:
            raise InvalidActionError(
                f"{text!r} is not a FoodAdvice action: write e.g. 'pass', "
                f"'offer {self.ing_slugs[0]} to 1', 'discard {self.ing_slugs[0]}', "
                "'name \"Yogurt Rocket\" / \"Fly me to the moon\"', 'vote 2', "
                f"'shop {self.shop_slugs[0]}', 'promote {self.channel_slugs[0]}', 'invest 1', "
                "'done', 'target 1' or 'remove <ingredient>'."
            )
        return action

    def max_steps(self, num_players: int) -> int:
        # Per round and player: two offers of up to three cards, each sent and answered
        # card by card, a pass, the discards, a name, a vote, at most five chips and
        # 'done', one event choice.
        exchange = MAX_OFFERS * (2 * MAX_OFFER_CARDS + 1) + 1
        per_player = exchange + (self.dealt - self.kept) + 1 + 1 + MAX_SHOPS + MAX_CHANNELS + 1 + 1
        return self.rounds * per_player * num_players

    def num_distinct_actions(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> int:
        return self.size

    def action_from_index(self, state: FoodState | None, seat: int, index: object) -> FoodAction:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < self.size:
            raise InvalidActionError(
                f"action index {index!r} is out of range: FoodAdvice has {self.size} actions"
            )
        if index == self.base[NAME]:
            if state is None:
                return self.name_action("Product", "")
            return self.generated_name(state, seat)
        return self.actions[index]

    # ------------------------------------------------------------------ views and bots

    def _observation_features(self, num_players: int, options: Mapping[str, Any]) -> list[Feature]:
        return features(self, num_players, options)

    def _encode_view(self, view: Mapping[str, Any], out: ObservationWriter) -> None:
        encode(self, view, out)

    def _encode_state(
        self, state: FoodState, seat: int, encoding: ObservationEncoding
    ) -> list[float]:
        return encode_state(self, state, seat, encoding)

    def view(self, state: FoodState, seat: int | None) -> dict[str, Any]:
        return build_view(self, state, seat)

    def bot_view(self, state: FoodState, seat: int) -> SeatInfo:
        """What the greedy bot reads, as one typed object (``seat_info.SeatInfo``)."""
        return build_seat_info(self, state, seat)

    def bot_view_from_view(self, view: Mapping[str, Any], seat: int) -> SeatInfo:
        return SeatInfo.from_view(self, view, seat)

    def redeal(self, state: FoodState, seat: int, rng: random.Random) -> FoodState:
        return redeal(self, state, seat, rng)

    def invariants(self, state: FoodState) -> list[str]:
        """Every card is in exactly one place; money never falls below zero."""
        return invariant_problems(self, state)

    def bots(self) -> dict[str, Callable[[], Bot]]:
        return {"random": RandomBot, "greedy": GreedyBot}

    # ------------------------------------------------------------------ saving

    def _state_to_json(self, state: FoodState) -> dict[str, Any]:
        data: dict[str, Any] = {name: getattr(state, name) for name in INTS}
        for name in INT_SLOTS + STR_SLOTS:
            data[name] = list(getattr(state, name))
        for name in NESTED_SLOTS:
            data[name] = [list(inner) for inner in getattr(state, name)]
        data["log"] = state.log
        data["trades"], data["sales"] = state.trades, state.sales
        data["events_played"], data["tiebreak"] = state.events_played, state.tiebreak
        return data

    def _state_from_json(
        self, data: Mapping[str, Any], num_players: int, seed: int, options: Mapping[str, Any]
    ) -> FoodState:
        state = FoodState(num_players, seed, options)
        try:
            for name in INTS:
                setattr(state, name, int(data[name]))
            # (tuples where the state holds tuples: ``state.SHARED``)
            for name in INT_SLOTS:
                ints = [int(x) for x in data[name]]
                setattr(state, name, tuple(ints) if name in SHARED else ints)
            for name in STR_SLOTS:
                strs = [str(x) for x in data[name]]
                setattr(state, name, tuple(strs) if name in SHARED else strs)
            for name in NESTED_SLOTS:
                nested = [[int(x) for x in inner] for inner in data[name]]
                shared = name in SHARED
                setattr(state, name, tuple(map(tuple, nested)) if shared else nested)
            for name in ("log", "trades", "sales", "events_played", "tiebreak"):
                setattr(state, name, data[name])
        except (KeyError, TypeError, ValueError) as error:
            raise RecordError(f"the saved FoodAdvice state is malformed: {error!r}") from None
        if len(state.money) != num_players or set(ALL_SLOTS) - set(data):
            raise RecordError("the saved FoodAdvice state does not match its number of players")
        return state


__all__ = ["FoodAdvice"]
