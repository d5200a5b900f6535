"""Burger Joint's ``Game`` class: the declaration, the options and the engine's verbs.

The rules live in the chapter modules, named after the rulebook's own chapters:
``preparation``, ``production`` (1), ``trading`` (2, Trading & Special
Abilities), ``building`` (3), ``scoring`` (4, Calculate Current Score),
``discard`` (5, Discard Excess Cubes), ``turn`` (Play Of A Turn: which chapter an
action belongs to) and ``end``. This class assembles them with the
board tables (``tables``), the views (``view``, ``encoding``, ``describe``),
the invariants and the bots. Seat 0 plays Burger and starts.

    >>> import potluck
    >>> g = potluck.load_game("burger-joint")
    >>> s = g.new_game(2, seed=7)
    >>> g.to_act(s), g.view(s, 0)["phase"]      # Burger picks a production cube first
    ((0,), 'production')
    >>> sum(s.pool)                             # two diners each: 2 + 2 cubes drawn
    4
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
from potluck.games.burger_joint import encoding, end, preparation, turn
from potluck.games.burger_joint.actions import BurgerAction
from potluck.games.burger_joint.bots import GreedyBot
from potluck.games.burger_joint.describe import describe
from potluck.games.burger_joint.invariants import invariant_problems
from potluck.games.burger_joint.schema import DEFAULT_TURN_LIMIT, MAX_TURN_LIMIT, BoardData
from potluck.games.burger_joint.seat_info import SeatInfo
from potluck.games.burger_joint.state import BurgerState
from potluck.games.burger_joint.tables import GAME_ID, BurgerTables
from potluck.games.burger_joint.view import build_seat_info, build_view


@mypyc_attr(allow_interpreted_subclasses=True)
class BurgerJoint(BurgerTables):
    """Burger Joint (Rio Grande Games 2009, Joseph Huber), for 2 players."""

    id: ClassVar[str] = GAME_ID
    title: ClassVar[str] = "Burger Joint"
    version: ClassVar[int] = 2
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options: ClassVar[Mapping[str, Option]] = {
        "first_pick": Option(
            str,
            "english",
            "Which text's first-pick exception applies: 'english' (any available cube) "
            "or 'german' (a cube from the opponent's area).",
        ),
        "turn_limit": Option(
            int,
            DEFAULT_TURN_LIMIT,
            f"Turns after which a game nobody has won stops and the higher score wins "
            f"(ruling BJ-10): a safety valve for simulations, not a rule; 0 means no limit, "
            f"otherwise 2 to {MAX_TURN_LIMIT}. Tables with a human seat play without it.",
        ),
    }
    human_table_options: ClassVar[Mapping[str, Any]] = {"turn_limit": 0}
    summary: ClassVar[str] = resources.files(__package__).joinpath("summary.md").read_text("utf-8")
    notation: ClassVar[str] = (
        "Colours: white black yellow green brown red. Production: 'take red'. "
        "Trading: 'trade white for red' (3-for-1), 'redraw' then 'put white' for each cube "
        "and 'draw', "
        "'swap-two white black for red', 'extra', 'swap-one white for red', 'pick red'. "
        "Building: 'publicity steal red and advance' (first buy of a turn), "
        "'publicity steal red' or 'publicity advance' (later buys), 'basic', 'diner white', "
        "'bistro 2 from black' (bistro slot 1-6 built from the black diner). "
        "'end' ends the turn; 'discard red' discards down to seven."
    )

    def __init__(self, data: DataSource = None) -> None:
        super().__init__(
            load_data(BoardData, data, package=__package__, default="data/boards.toml")
        )
        self.data_source = (
            None if data is None else str(data) if not isinstance(data, Mapping) else "custom"
        )

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled as the data it was built from (an OpenSpiel state is serialized with
        # its game): a compiled ``Side`` cannot be rebuilt from its attributes, and the
        # tables are all worked out again from the data alike.
        source = self.data.model_dump(by_alias=True) if self.data_source == "custom" else None
        return (type(self), (self.data_source if source is None else source,))

    def _new_game(self, num_players: int, seed: int, options: Mapping[str, Any]) -> BurgerState:
        preparation.check_options(options)
        return preparation.prepare(self, num_players, seed, options)

    # ------------------------------------------------------------------ legality

    def legal_actions(self, state: BurgerState, seat: int) -> list[BurgerAction]:
        return turn.legal_actions(self, state, seat)

    def _is_legal(self, state: BurgerState, seat: int, action: Any) -> bool:
        if not isinstance(action, BurgerAction) or not 0 <= action.index < len(self.actions):
            return False
        if self.actions[action.index] != action:
            return False
        return turn.why_not(self, state, seat, action) is None

    def _why_illegal(self, state: BurgerState, seat: int, action: BurgerAction) -> str:
        return turn.why_not(self, state, seat, action) or "That action is legal."

    def describe_action(self, state: BurgerState, seat: int, action: BurgerAction) -> str:
        """What ``action`` does, in words: its cost and what it brings (see ``describe``)."""
        return describe(self, state, seat, action)

    # ------------------------------------------------------------------ change

    def step(self, state: BurgerState, seat: int, action: BurgerAction | str) -> None:
        # The engine's checks, inlined: this is the hot path of every simulation.
        if not isinstance(action, BurgerAction):
            action = self.parse_action(state, seat, action)
        if seat not in state.acting:
            raise NotYourTurnError(
                "The game is over." if not state.acting else self._not_your_turn(state, seat)
            )
        reason = turn.why_not(self, state, seat, action)
        if reason is not None:
            raise IllegalActionError(reason)
        # The table's shared ``(seat, action)`` when the action is the table's own (a
        # tuple made at every step was a tenth of ``step``'s own instructions).
        index, moves = action.index, self.moves[seat]
        if 0 <= index < len(moves) and moves[index][1] is action:
            state.history.append(moves[index])
        else:
            state.history.append((seat, action))
        turn.apply(self, state, seat, action)

    def _step(self, state: BurgerState, seat: int, action: BurgerAction) -> None:
        turn.apply(self, state, seat, action)

    # ------------------------------------------------------------------ the end

    def standings(self, state: BurgerState) -> tuple[float, ...]:
        """Victory points so far."""
        return (float(state.score[0]), float(state.score[1]))

    def outcome(self, state: BurgerState) -> Outcome:
        return end.outcome(self, state)

    def side_names(self, num_players: int) -> tuple[str, ...]:
        """Seat 0 plays the data's first board (Burger), seat 1 the second (Pizza).

        >>> from potluck.engine.registry import load_game
        >>> load_game("burger-joint").side_names(2)
        ('Burger', 'Pizza')
        """
        return tuple(side.name for side in self.sides[:num_players])

    def metrics(self, state: BurgerState) -> dict[str, float | int | str]:
        """Turns played, and what the winner (or seat 0 on a shared win) built."""
        return end.metrics(self, state)

    def seat_metrics(self, state: BurgerState, seat: int) -> dict[str, float | int]:
        """What ``seat``'s side built (``end.seat_metrics``)."""
        return end.seat_metrics(self, state, seat)

    # ------------------------------------------------------------------ text and numbers

    def parse_action(self, state: BurgerState | None, seat: int, text: str) -> BurgerAction:
        return self._action_from_text(text)

    def _action_from_text(self, text: str) -> BurgerAction:
        if not isinstance(text, str):
            raise InvalidActionError(f"an action is text, not {type(text).__name__}")
        key = " ".join(text.strip().lower().split())
        action = self.by_text.get(key)
        if action is None:
            raise InvalidActionError(
                f"{text!r} is not a Burger Joint action: write e.g. 'take red', "
                "'trade white for red', 'basic', 'diner white', 'bistro 1 from black' or 'end'."
            )
        return action

    def max_steps(self, num_players: int) -> int:
        # Each turn: at most 2 x limit production picks; every trade, swap-two and
        # build takes at least one cube out of the two players' stock, which holds
        # at most 2 x keep + 2 x limit + 2 (extra and pick) cubes; redraw puts and
        # discards are bounded by that stock too; plus five abilities, draw and end.
        stock = 2 * self.keep + 2 * self.limit + 2
        # Bounded for the longest accepted turn limit; with no limit (tables with a human
        # seat) a game ends only when someone reaches the winning score.
        return MAX_TURN_LIMIT * (3 * stock + 2 * self.limit + 10)

    def num_distinct_actions(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> int:
        return len(self.actions)

    def action_from_index(
        self, state: BurgerState | None, seat: int, index: object
    ) -> BurgerAction:
        if isinstance(index, bool) or not isinstance(index, int):
            raise InvalidActionError(f"an action index is a whole number, not {index!r}")
        if not 0 <= index < len(self.actions):
            raise InvalidActionError(
                f"action index {index} is out of range: Burger Joint has "
                f"{len(self.actions)} actions"
            )
        return self.actions[index]

    # ------------------------------------------------------------------ views

    def _observation_features(self, num_players: int, options: Mapping[str, Any]) -> list[Feature]:
        return encoding.features(self, num_players, options)

    def _encode_view(self, view: Mapping[str, Any], out: ObservationWriter) -> None:
        encoding.encode(self, view, out)

    def _encode_state(
        self, state: BurgerState, seat: int, observation: ObservationEncoding
    ) -> list[float]:
        return encoding.encode_state(self, state, seat, observation)

    def view(self, state: BurgerState, seat: int | None) -> dict[str, Any]:
        return build_view(self, state, seat)

    def bot_view(self, state: BurgerState, seat: int) -> SeatInfo:
        """What the greedy bot reads, as one typed object (``seat_info.SeatInfo``)."""
        return build_seat_info(self, state, seat)

    def bot_view_from_view(self, view: Mapping[str, Any], seat: int) -> SeatInfo:
        return SeatInfo.from_view(self, view, seat)

    def redeal(self, state: BurgerState, seat: int, rng: random.Random) -> BurgerState:
        """The bag's order is all that is hidden: a new generator draws it anew."""
        twin = state.clone()
        twin.seed_rng(rng.getrandbits(64))
        return twin

    def invariants(self, state: BurgerState) -> list[str]:
        """Cubes and tokens are conserved; scores and boards stay within the printed spaces."""
        return invariant_problems(self, state)

    # ------------------------------------------------------------------ bots

    def bots(self) -> dict[str, Callable[[], Bot]]:
        return {"random": RandomBot, "greedy": GreedyBot}

    # ------------------------------------------------------------------ saving

    def _state_to_json(self, state: BurgerState) -> dict[str, Any]:
        return {
            "active": state.active,
            "phase": state.phase,
            "turn": state.turn,
            "bag": list(state.bag),
            "cubes": list(state.cubes),
            "pool": list(state.pool),
            "owed": list(state.owed),
            "taken": list(state.taken),
            "basics": list(state.basics),
            "diners": list(state.diners),
            "bistros": list(state.bistros),
            "publicity": list(state.publicity),
            "score": list(state.score),
            "used": state.used,
            "pub_buys": state.pub_buys,
            "aside": list(state.aside),
            "winner": state.winner,
        }

    def _state_from_json(
        self, data: Mapping[str, Any], num_players: int, seed: int, options: Mapping[str, Any]
    ) -> BurgerState:
        state = BurgerState(num_players, seed, options)
        nc, nb = self.num_colours, self.num_bistros
        try:
            state.active = int(data["active"])
            state.phase = int(data["phase"])
            state.turn = int(data["turn"])
            state.used = int(data["used"])
            state.pub_buys = int(data["pub_buys"])
            state.winner = int(data["winner"])
            lists = {
                "bag": nc,
                "cubes": 2 * nc,
                "pool": nc,
                "owed": 2,
                "taken": 2,
                "basics": 2,
                "diners": 2 * nc,
                "bistros": 2 * nb,
                "publicity": 2,
                "score": 2,
                "aside": nc,
            }
            sizes = {}
            for name, length in lists.items():
                values = [int(v) for v in data[name]]
                sizes[name] = (len(values), length)
                setattr(state, name, values)
        except (KeyError, TypeError, ValueError) as error:
            raise RecordError(f"the saved Burger Joint state is malformed: {error!r}") from None
        for name, (got, wanted) in sizes.items():
            if got != wanted:
                raise RecordError(
                    f"the saved Burger Joint state's {name!r} has {got} entries, not {wanted}"
                )
        return state
