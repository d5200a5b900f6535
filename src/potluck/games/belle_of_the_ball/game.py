"""Belle of the Ball (Prototype N): rounds of a line of guests, invited into parties.

The ``Game`` class: the declaration, the options and the verbs. It inherits the per-game
tables built from the card data (``tables.BelleTables``), and each verb calls the
rulebook's chapter modules: ``setup`` (*Setup*, *Start of Round*), ``belles`` (*Option:
Belle*), ``invite`` (*Step 1: Invite*, and Belles invited from the line in the designer's
variant), ``groups`` (*Step 2: Group*), ``scoring`` (*Step 3: Score*, *End of Game*) and
``rounds`` (*End of Turn*, *End of Round*).

    >>> import potluck
    >>> g = potluck.load_game("belle-of-the-ball")
    >>> s = g.new_game(3, seed=7)
    >>> g.to_act(s), len(s.line), s.chips
    ((0,), 9, [5, 5, 5])
    >>> g.step(s, 0, "invite 1 to group 1")     # the first guest in line is free
    >>> g.to_act(s), len(s.line)
    ((1,), 8)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from potluck.engine.action import Action
from potluck.engine.bots import Bot, RandomBot
from potluck.engine.data import DataSource, load_data
from potluck.engine.encoding import Feature, ObservationEncoding, ObservationWriter
from potluck.engine.errors import IllegalActionError, InvalidActionError, NotYourTurnError
from potluck.engine.options import Option
from potluck.engine.outcome import Outcome
from potluck.games.belle_of_the_ball import rounds, scoring, setup
from potluck.games.belle_of_the_ball.actions import PLAY, BelleAction
from potluck.games.belle_of_the_ball.belles import belle_problem, hand_plays, play_belle
from potluck.games.belle_of_the_ball.bots import GreedyBot
from potluck.games.belle_of_the_ball.describe import describe
from potluck.games.belle_of_the_ball.encoding import encode, encode_state, features
from potluck.games.belle_of_the_ball.groups import placeable
from potluck.games.belle_of_the_ball.invariants import invariant_problems
from potluck.games.belle_of_the_ball.invite import (
    invitations,
    invite,
    invite_is_legal,
    invite_problem,
    skip_cost,
)
from potluck.games.belle_of_the_ball.schema import CardData
from potluck.games.belle_of_the_ball.seat_info import SeatInfo
from potluck.games.belle_of_the_ball.state import BelleState, state_from_json, state_to_json
from potluck.games.belle_of_the_ball.tables import GAME_ID, BelleTables
from potluck.games.belle_of_the_ball.view import (
    belle_json,
    build_seat_info,
    build_view,
    card_json,
    redeal_unseen,
)


@mypyc_attr(allow_interpreted_subclasses=True)
class BelleOfTheBall(BelleTables):
    """Belle of the Ball, Prototype N (Daniel Solis, 2012), for 2 to 5 players."""

    id: ClassVar[str] = GAME_ID
    title: ClassVar[str] = "Belle of the Ball"
    version: ClassVar[int] = 2
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    options: ClassVar[Mapping[str, Option]] = {
        "belles_in_guest_deck": Option(
            bool,
            False,
            "Designer's variant: every Belle is shuffled into the guest deck and invited "
            "from the line like a guest, to your hand; no Belle hands are dealt or drawn.",
        ),
    }
    summary: ClassVar[str] = resources.files(__package__).joinpath("summary.md").read_text("utf-8")
    notation: ClassVar[str] = (
        "Invite the 3rd guest in line into your group 2: 'invite 3 to group 2' (the first "
        "guest is free; each guest skipped costs a chip). A Belle in line (variant): "
        "'invite 3'. Play a Belle: 'belle heiress-henrietta', 'belle pickpocket-pippa on "
        "seat 2', 'belle scandalous-scarlett on seat 2 group 1', 'belle persuasive-prudence "
        "group 1 to 3'. Seats count from 0, positions and groups from 1."
    )

    def __init__(self, data: DataSource = None) -> None:
        super().__init__(load_data(CardData, data, package=__package__, default="data/cards.toml"))
        self.data_source = (
            None if data is None else str(data) if not isinstance(data, Mapping) else "custom"
        )

    # ------------------------------------------------------------------ setup and rounds

    def _new_game(self, num_players: int, seed: int, options: Mapping[str, Any]) -> BelleState:
        return setup.new_game(self, num_players, seed, options)

    def line_size(self, num_players: int) -> int:
        return setup.line_size(self, num_players)

    @staticmethod
    def next_start(chips: list[int], holder: int) -> int:
        """Who takes the Start Player token (``rounds.next_start``, ruling BB-6).

        >>> BelleOfTheBall.next_start([4, 2, 2, 9], holder=0)
        1
        """
        return rounds.next_start(chips, holder)

    # ------------------------------------------------------------------ legality

    def placeable(self, state: BelleState, seat: int) -> list[int]:
        """Step 2, Group: the groups a new guest may join, by slot (``groups.placeable``)."""
        return placeable(state, seat)

    def skip_cost(self, state: BelleState, pos: int) -> int:
        """Chips to invite the guest at ``pos`` (0-based): one on each guest skipped."""
        return skip_cost(state, pos)

    def describe_action(self, state: BelleState, seat: int, action: BelleAction) -> str:
        """The guest or Belle, its cost in chips and what it collects (see ``describe``)."""
        return describe(self, state, seat, action)

    def legal_actions(self, state: BelleState, seat: int) -> list[BelleAction]:
        """Belles first (only before inviting), then invitations by position and group."""
        if seat not in state.acting:
            return []
        if state.played_now == -1 and state.hands[seat]:
            legal = hand_plays(self, state, seat)
            legal += invitations(self, state, seat)
            return legal
        return invitations(self, state, seat)

    def _is_legal(self, state: BelleState, seat: int, action: Any) -> bool:
        return isinstance(action, BelleAction) and self._legal(state, seat, action)

    def _legal(self, state: BelleState, seat: int, action: BelleAction) -> bool:
        """``_is_legal`` for one of this game's actions (its fields read as typed)."""
        index = action.index
        actions = self.all_actions
        if not 0 <= index < len(actions):
            return False
        known = actions[index]
        if known is not action and known != action:
            return False  # another game's action (interned actions compare by identity)
        if self.action_kinds[index] == PLAY:
            return belle_problem(self, state, seat, known) is None
        return invite_is_legal(self, state, seat, index)

    def _why_illegal(self, state: BelleState, seat: int, action: BelleAction) -> str:
        return self._problem(state, seat, action) or "That action is legal."

    def _problem(self, state: BelleState, seat: int, action: BelleAction) -> str | None:
        """Why ``seat`` (who is to act) may not take ``action``, or ``None`` if it may."""
        if action.kind == PLAY:
            return belle_problem(self, state, seat, action)
        return invite_problem(self, state, seat, action)

    def _not_your_turn(self, state: BelleState, seat: int) -> str:
        if not 0 <= seat < state.num_players:
            return super()._not_your_turn(state, seat)
        return f"It is seat {state.turn}'s turn, not seat {seat}'s."

    # ------------------------------------------------------------------ change

    def step(self, state: BelleState, seat: int, action: BelleAction | str) -> None:
        # The engine's checks (``Game.step``), inlined: the hot path of every simulation.
        if not isinstance(action, Action):
            action = self.parse_action(state, seat, action)
        if seat not in state.acting:
            raise NotYourTurnError(
                "The game is over." if not state.acting else self._not_your_turn(state, seat)
            )
        if not (isinstance(action, BelleAction) and self._legal(state, seat, action)):
            raise IllegalActionError(self._why_illegal(state, seat, action))
        if self.action_kinds[action.index] == PLAY:
            play_belle(self, state, seat, action)
        else:
            invite(self, state, seat, action)
        state.history.append((seat, action))

    def _step(self, state: BelleState, seat: int, action: BelleAction) -> None:
        if self.action_kinds[action.index] == PLAY:
            play_belle(self, state, seat, action)
        else:
            invite(self, state, seat, action)

    # ------------------------------------------------------------------ the end

    def standings(self, state: BelleState) -> tuple[float, ...]:
        """Chips so far (groups still forming do not score)."""
        return tuple(float(c) for c in state.chips)

    def outcome(self, state: BelleState) -> Outcome:
        """End of Game: remaining groups do not score; most chips wins (ties share it)."""
        return scoring.outcome(state)

    def metrics(self, state: BelleState) -> dict[str, float | int | str]:
        """Numbers about a finished game (``scoring.metrics``)."""
        return scoring.metrics(self, state)

    def seat_metrics(self, state: BelleState, seat: int) -> dict[str, float | int]:
        """What ``seat`` did, for the lab's tables (``scoring.seat_metrics``)."""
        return scoring.seat_metrics(self, state, seat)

    # ------------------------------------------------------------------ text and numbers

    def parse_action(self, state: BelleState | None, seat: int, text: str) -> BelleAction:
        return self.action_table.from_text(text)

    def _action_from_text(self, text: str) -> BelleAction:
        return self.action_table.from_text(text)

    def max_steps(self, num_players: int) -> int:
        # Every card reaches a line at most once and leaves it by one invitation; each
        # turn has at least one invitation and at most one Belle before it.
        cards = len(self.guest_names) - self.setup_discard + len(self.belle_cards)
        return 2 * cards

    def num_distinct_actions(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> int:
        return len(self.all_actions)

    def action_from_index(self, state: BelleState | None, seat: int, index: object) -> BelleAction:
        size = len(self.all_actions)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < size:
            raise InvalidActionError(
                f"action index {index!r} is out of range: Belle of the Ball has {size} actions"
            )
        return self.all_actions[index]

    # ------------------------------------------------------------------ cards as data

    def card_json(self, card: int) -> dict[str, Any]:
        """A card as the table sees it: a guest with its interests, or a Belle."""
        return card_json(self, card)

    def belle_json(self, kind: int) -> dict[str, Any]:
        return belle_json(self, kind)

    # ------------------------------------------------------------------ views

    def _observation_features(self, num_players: int, options: Mapping[str, Any]) -> list[Feature]:
        return features(self, num_players, options)

    def _encode_view(self, view: Mapping[str, Any], out: ObservationWriter) -> None:
        encode(self, view, out)

    def _encode_state(
        self, state: BelleState, seat: int, encoding: ObservationEncoding
    ) -> list[float]:
        return encode_state(self, state, seat, encoding)

    def view(self, state: BelleState, seat: int | None) -> dict[str, Any]:
        return build_view(self, state, seat)

    def bot_view(self, state: BelleState, seat: int) -> SeatInfo:
        """What the greedy bot reads, as one typed object (``seat_info.SeatInfo``)."""
        return build_seat_info(self, state, seat)

    def bot_view_from_view(self, view: Mapping[str, Any], seat: int) -> SeatInfo:
        return SeatInfo.from_view(self, view, seat)

    def redeal(self, state: BelleState, seat: int, rng: random.Random) -> BelleState:
        return redeal_unseen(self, state, seat, rng)

    def invariants(self, state: BelleState) -> list[str]:
        """Cards and chips are conserved; groups and hands stay within the rules."""
        return invariant_problems(self, state)

    # ------------------------------------------------------------------ bots

    def bots(self) -> dict[str, Callable[[], Bot]]:
        return {"random": RandomBot, "greedy": GreedyBot}

    # ------------------------------------------------------------------ saving

    def _state_to_json(self, state: BelleState) -> dict[str, Any]:
        return state_to_json(state)

    def _state_from_json(
        self, data: Mapping[str, Any], num_players: int, seed: int, options: Mapping[str, Any]
    ) -> BelleState:
        return state_from_json(data, num_players, seed, options)
