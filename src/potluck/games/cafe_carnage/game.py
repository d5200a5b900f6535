"""The ``CafeCarnage`` game: its declaration, options and verbs, calling the chapter modules.

It inherits the per-game tables built from the dish data (``tables.CafeTables``). The
rules live in modules named after the rulebook's chapters: ``setup``,
``round`` (the six steps of a round) with ``orders`` (*Take Orders*), ``ballot``
(*Secret Ballot*), ``dinner`` (*Dinner is Served*), ``check_please`` (*Check,
Please!*), ``settle_up`` (*Settle Up* and *IOUs*) and ``clear_table`` (*Clear
the Table*), and ``end`` (*End of the Game*).

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

from mypy_extensions import mypyc_attr

from potluck.engine.bots import Bot, RandomBot
from potluck.engine.data import DataSource, load_data
from potluck.engine.encoding import Feature, ObservationEncoding, ObservationWriter
from potluck.engine.errors import (
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    RecordError,
)
from potluck.engine.options import Option
from potluck.engine.outcome import Outcome
from potluck.engine.text import seats_text, slugify
from potluck.games.cafe_carnage import end, setup
from potluck.games.cafe_carnage.actions import CafeAction
from potluck.games.cafe_carnage.ballot import why_no_card
from potluck.games.cafe_carnage.bots import GreedyBot
from potluck.games.cafe_carnage.describe import describe
from potluck.games.cafe_carnage.encoding import encode, encode_state, features
from potluck.games.cafe_carnage.invariants import invariant_problems
from potluck.games.cafe_carnage.orders import why_not_ordered
from potluck.games.cafe_carnage.round import derive_choices, play
from potluck.games.cafe_carnage.schema import COURSES, MAX_PLAYERS, DishData
from potluck.games.cafe_carnage.seat_info import SeatInfo
from potluck.games.cafe_carnage.state import (
    BALLOT,
    CafeState,
    RoundRecord,
)
from potluck.games.cafe_carnage.tables import GAME_ID, CafeTables
from potluck.games.cafe_carnage.view import build_seat_info, build_view, redeal


@mypyc_attr(allow_interpreted_subclasses=True)
class CafeCarnage(CafeTables):
    """Café Carnage (2023 remaster), for 4 to 6 players."""

    id: ClassVar[str] = GAME_ID
    title: ClassVar[str] = "Café Carnage"
    version: ClassVar[int] = 1
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = MAX_PLAYERS
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
        super().__init__(load_data(DishData, data, package=__package__, default="data/dishes.toml"))
        self.data_source = (
            None if data is None else str(data) if not isinstance(data, Mapping) else "custom"
        )

    # ------------------------------------------------------------------ setup

    def _new_game(self, num_players: int, seed: int, options: Mapping[str, Any]) -> CafeState:
        return setup.new_table(self, num_players, seed, options)

    def guards(self, num_players: int) -> int:
        """Security Guard tokens on duty (ruling CC-2): 1 at four players, 2 at five or six."""
        return setup.guards(num_players)

    # ------------------------------------------------------------------ legality

    def legal_actions(self, state: CafeState, seat: int) -> list[CafeAction]:
        if seat not in state.acting:
            return []
        return list(state.choices[seat][0])

    def _is_legal(self, state: CafeState, seat: int, action: Any) -> bool:
        return bool(state.choices[seat][1] >> action.index & 1)

    def _why_illegal(self, state: CafeState, seat: int, action: CafeAction) -> str:
        if state.phase < BALLOT:
            return why_not_ordered(self, state, seat, action)
        return why_no_card(state, seat, action)

    def _not_your_turn(self, state: CafeState, seat: int) -> str:
        if not 0 <= seat < state.num_players:
            return super()._not_your_turn(state, seat)
        waiting = seats_text(state.acting)
        if state.phase < BALLOT:
            doing = f"has ordered a {COURSES[state.phase]}"
        else:
            doing = "has played an action card"
        return f"Seat {seat} {doing}; waiting for {waiting}."

    def describe_action(self, state: CafeState, seat: int, action: CafeAction) -> str:
        """``Vegetable Samosas ($2)`` for an order, the card's title for a card."""
        return describe(self, state, seat, action)

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
        state.history.append(self.moves[seat][action.index])
        play(self, state, seat, action)

    def _step(self, state: CafeState, seat: int, action: CafeAction) -> None:
        play(self, state, seat, action)

    # ------------------------------------------------------------------ the end

    def final_scores(self, state: CafeState) -> list[int]:
        """Gourmet Points after the end bonus: +1 per dollar left, only without an IOU."""
        return end.final_scores(state)

    def standings(self, state: CafeState) -> tuple[float, ...]:
        """Gourmet Points with the end bonus for money, as if the game ended now."""
        return tuple(float(score) for score in end.final_scores(state))

    def outcome(self, state: CafeState) -> Outcome:
        return end.outcome(self, state)

    def metrics(self, state: CafeState) -> dict[str, float | int | str]:
        return end.metrics(self, state)

    def seat_metrics(self, state: CafeState, seat: int) -> dict[str, float | int]:
        """What ``seat`` ate and did (``end.seat_metrics``), for the lab's tables."""
        return end.seat_metrics(self, state, seat)

    # ------------------------------------------------------------------ text and numbers

    def parse_action(self, state: CafeState | None, seat: int, text: str) -> CafeAction:
        return self._action_from_text(text)

    def _action_from_text(self, text: str) -> CafeAction:
        if not isinstance(text, str):
            raise InvalidActionError(f"an action is text, not {type(text).__name__}")
        key = " ".join(text.strip().lower().split())
        action = self.by_text.get(key) or self.by_text.get(slugify(key))
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

    def action_from_index(self, state: CafeState | None, seat: int, index: object) -> CafeAction:
        dishes = len(self.dish_actions)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < dishes + 3:
            raise InvalidActionError(
                f"action index {index!r} is out of range: Café Carnage has {dishes + 3} actions"
            )
        return self.dish_actions[index] if index < dishes else self.card_actions[index - dishes]

    # ------------------------------------------------------------------ views

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

    def bot_view(self, state: CafeState, seat: int) -> SeatInfo:
        """What the greedy bot reads, as one typed object (``seat_info.SeatInfo``)."""
        return build_seat_info(self, state, seat)

    def bot_view_from_view(self, view: Mapping[str, Any], seat: int) -> SeatInfo:
        return SeatInfo.from_view(self, view, seat)

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
        derive_choices(self, state)
        return state
