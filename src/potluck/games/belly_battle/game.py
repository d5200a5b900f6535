"""The ``BellyBattle`` game: its declaration and options, and the engine's verbs
(``legal_actions``, ``step``, ``view``, ``outcome``...) calling the rules' chapter
modules (docs/engine.md, "The shape of a game").

Rulebook names are used throughout the chapters: ``setup`` (Setup), ``turn`` (On
Your Turn and the upgrade window), ``spaces`` (Spaces on the Board: buying,
Takeover Battle, Swap Swap, Sneaky Eyes, Golden Belly Award, Munchtime,
BellyGuard Insurance, Yuck!, the one-round cards, Bollywood Shooting, Tunnel),
``munch_fees`` (Paying Munch Fees, Double your Munch Fees), ``chefs_and_star``,
``bank_sales`` (to Mr. Munchwalla), ``trades`` (to players), ``bankruptcy`` (debts and
Bankruptcy) and ``scoring`` (End of Game); ``choices`` says what may be done now
and ``decisions`` carries it out.

    >>> import potluck
    >>> g = potluck.load_game("belly-battle")
    >>> s = g.new_game(3, seed=1)
    >>> [p["cash"] for p in g.view(s, 0)["players"]]
    [1000, 1000, 1000]
    >>> g.to_act(s) == (s.turn,)   # the first mover has rolled and decides
    True
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
from potluck.games.belly_battle import (
    bank_sales,
    choices,
    decisions,
    munch_fees,
    ownership,
    scoring,
    setup,
    spaces,
    win_model,
)
from potluck.games.belly_battle.actions import BellyAction
from potluck.games.belly_battle.bots import GreedyBot
from potluck.games.belly_battle.describe import describe
from potluck.games.belly_battle.encoding import encode, encode_state, features
from potluck.games.belly_battle.invariants import invariant_problems
from potluck.games.belly_battle.schema import BoardData
from potluck.games.belly_battle.seat_info import SeatInfo
from potluck.games.belly_battle.state import PHASE_NAMES, BellyState
from potluck.games.belly_battle.tables import (
    DEBT_OFFERS,
    GAME_ID,
    MAX_ROUNDS_LIMIT,
    NOTATION,
    WINDOW_CAP,
    BellyTables,
)
from potluck.games.belly_battle.view import build_seat_info, build_view
from potluck.games.belly_battle.view import redeal as redeal_unseen


@mypyc_attr(allow_interpreted_subclasses=True)
class BellyBattle(BellyTables):
    """Belly Battle (Funskool 2021), for 2 to 6 players."""

    id: ClassVar[str] = GAME_ID
    title: ClassVar[str] = "Belly Battle"
    version: ClassVar[int] = 2
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    options: ClassVar[Mapping[str, Option]] = {
        "max_rounds": Option(
            int,
            60,
            "Safety cap: after this many rounds the game ends and wealth ranks the "
            f"players as after a bankruptcy (1 to {MAX_ROUNDS_LIMIT}).",
        ),
    }
    summary: ClassVar[str] = resources.files(__package__).joinpath("summary.md").read_text("utf-8")
    notation: ClassVar[str] = NOTATION

    def __init__(self, data: DataSource = None) -> None:
        super().__init__(load_data(BoardData, data, package=__package__, default="data/board.toml"))
        self.data_source = (
            None if data is None else str(data) if not isinstance(data, Mapping) else "custom"
        )
        #: The fitted win-chance weights, read at their first use.
        self._win_model: win_model.WinModel | None = None

    def _new_game(self, num_players: int, seed: int, options: Mapping[str, Any]) -> BellyState:
        return setup.new_table(self, num_players, seed, options)

    # ------------------------------------------------------------------ rule calls

    def owned(self, state: BellyState, seat: int) -> list[int]:
        """The cards ``seat`` owns, restaurants first."""
        return ownership.owned(state, seat)

    def chef_supply(self, state: BellyState) -> int:
        return ownership.chef_supply(self, state)

    def star_supply(self, state: BellyState) -> int:
        return ownership.star_supply(self, state)

    def guard_supply(self, state: BellyState) -> int:
        return ownership.guard_supply(self, state)

    def last_bought(self, state: BellyState, seat: int) -> int:
        """The restaurant ``seat`` acquired most recently and still owns, or -1."""
        return ownership.last_bought(self, state, seat)

    def sale_value(self, state: BellyState, card: int) -> int:
        """What Mr. Munchwalla pays for ``card``: half its price, plus its tokens at 50."""
        return bank_sales.sale_value(self, state, card)

    def bank_value(self, state: BellyState, seat: int) -> int:
        """What Mr. Munchwalla would pay for everything ``seat`` owns."""
        return bank_sales.bank_value(self, state, seat)

    def wealth(self, state: BellyState, seat: int) -> int:
        """Cards at their price, chefs 50, stars 150, and cash (rulebook, End of Game)."""
        return scoring.wealth(self, state, seat)

    def munch_fee(self, state: BellyState, card: int, payer: int) -> int:
        """The Munch Fee ``payer`` owes for ``card``, every modifier applied (ruling BB-3)."""
        return munch_fees.munch_fee(self, state, card, payer)

    def fee_recipient(self, state: BellyState, card: int, payer: int) -> int:
        """Who receives the fee paid on landing at ``card`` (ruling BB-4)."""
        return munch_fees.fee_recipient(self, state, card, payer)

    def takeover_targets(self, state: BellyState, seat: int) -> list[int]:
        """Other players' cards ``seat`` may challenge in a Takeover Battle."""
        return spaces.takeover_targets(self, state, seat)

    @staticmethod
    def defender_rolls(chefs: int, star: int) -> int:
        """Dice the owner rolls in a Takeover Battle: 1, 2 with a chef, 3 with two, 4 with a star.

        >>> BellyBattle.defender_rolls(0, 0), BellyBattle.defender_rolls(2, 1)
        (1, 4)
        """
        return spaces.defender_rolls(chefs, star)

    # ------------------------------------------------------------------ legality and change

    def legal_actions(self, state: BellyState, seat: int) -> list[BellyAction]:
        return choices.legal_actions(self, state, seat)

    def _is_legal(self, state: BellyState, seat: int, action: Any) -> bool:
        return choices.problem(self, state, seat, action) is None

    def describe_action(self, state: BellyState, seat: int, action: BellyAction) -> str:
        """``Buy Momo Mia for 180``, ``Add a chef to Momo Mia (50)``: a button's words."""
        return describe(self, state, seat, action)

    def _why_illegal(self, state: BellyState, seat: int, action: BellyAction) -> str:
        return choices.problem(self, state, seat, action) or "That action is not allowed now."

    def _not_your_turn(self, state: BellyState, seat: int) -> str:
        if not 0 <= seat < state.num_players or not state.acting:
            return super()._not_your_turn(state, seat)
        who = state.acting[0]
        return f"It is not seat {seat}'s turn: seat {who} must {choices.PHASE_DOING[state.phase]}."

    def step(self, state: BellyState, seat: int, action: BellyAction | str) -> None:
        # The engine's checks, inlined: the hot path of every simulation.
        if type(action) is not BellyAction:
            action = self.parse_action(state, seat, action)  # type: ignore[arg-type]
        if seat not in state.acting:
            raise NotYourTurnError(
                "The game is over." if not state.acting else self._not_your_turn(state, seat)
            )
        problem = choices.problem(self, state, seat, action)
        if problem is not None:
            raise IllegalActionError(problem)
        state.history.append(self.moves[seat][action.index])
        decisions.play(self, state, seat, action)

    def _step(self, state: BellyState, seat: int, action: BellyAction) -> None:
        decisions.play(self, state, seat, action)

    # ------------------------------------------------------------------ the end

    def standings(self, state: BellyState) -> tuple[float, ...]:
        """Wealth plus a few rounds of expected fees; a bankrupt seat has none."""
        return scoring.standings(self, state)

    def win_chances(self, state: BellyState) -> tuple[float, ...]:
        """A conditional logit over the seats, fitted to greedy games (``win_model``)."""
        if self._win_model is None:
            self._win_model = win_model.load_win_model()
        return self._win_model.chances(self, state)

    def progress(self, state: BellyState) -> int:
        """Turns started so far (each turn is one roll of the dice)."""
        return state.round * state.num_players + state.turn

    def outcome(self, state: BellyState) -> Outcome:
        return scoring.outcome(self, state)

    def metrics(self, state: BellyState) -> dict[str, float | int | str]:
        return scoring.metrics(self, state)

    def seat_metrics(self, state: BellyState, seat: int) -> dict[str, float | int]:
        """What ``seat`` held at the end and its choices (``scoring.seat_metrics``)."""
        return scoring.seat_metrics(self, state, seat)

    # ------------------------------------------------------------------ text and numbers

    def parse_action(self, state: BellyState | None, seat: int, text: str) -> BellyAction:
        return self.action(text)

    def _action_from_text(self, text: str) -> BellyAction:
        return self.action(text)

    def max_steps(self, num_players: int) -> int:
        n, cards, rests = num_players, self.num_cards, self.num_restaurants
        debts = 2 + (n - 1) * rests + 1
        # Sales at a decision (ruling BB-13): what a seat sells goes to the bank and cannot
        # come back before the next window, so each seat sells each card and token at most
        # once a turn.
        sales_at_decisions = n * (cards + 3 * rests)
        per_turn = (
            8
            + n * (2 * WINDOW_CAP + 2)
            + cards
            + 3 * rests
            + debts * (2 * DEBT_OFFERS + 1)
            + sales_at_decisions
        )
        return MAX_ROUNDS_LIMIT * n * per_turn

    def num_distinct_actions(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> int:
        return len(self.actions)

    def action_from_index(self, state: BellyState | None, seat: int, index: object) -> BellyAction:
        if (
            isinstance(index, bool)
            or not isinstance(index, int)
            or not 0 <= index < len(self.actions)
        ):
            raise InvalidActionError(
                f"action index {index!r} is out of range: Belly Battle has "
                f"{len(self.actions)} actions"
            )
        return self.actions[index]

    # ------------------------------------------------------------------ views

    def _observation_features(self, num_players: int, options: Mapping[str, Any]) -> list[Feature]:
        return features(self, num_players, options)

    def _encode_view(self, view: Mapping[str, Any], out: ObservationWriter) -> None:
        encode(self, view, out)

    def _encode_state(
        self, state: BellyState, seat: int, encoding: ObservationEncoding
    ) -> list[float]:
        return encode_state(self, state, seat, encoding)

    def view(self, state: BellyState, seat: int | None) -> dict[str, Any]:
        return build_view(self, state, seat)

    def bot_view(self, state: BellyState, seat: int) -> SeatInfo:
        """What the greedy bot reads, as one typed object (``seat_info.SeatInfo``)."""
        return build_seat_info(self, state, seat)

    def bot_view_from_view(self, view: Mapping[str, Any], seat: int) -> SeatInfo:
        return SeatInfo.from_view(self, view, seat)

    def redeal(self, state: BellyState, seat: int, rng: random.Random) -> BellyState:
        return redeal_unseen(self, state, seat, rng)

    def invariants(self, state: BellyState) -> list[str]:
        """Tokens within their supplies and rules; Munchtime cards conserved; cash >= 0."""
        return invariant_problems(self, state)

    # ------------------------------------------------------------------ bots

    def bots(self) -> dict[str, Callable[[], Bot]]:
        return {"random": RandomBot, "greedy": GreedyBot}

    # ------------------------------------------------------------------ saving

    def _state_to_json(self, state: BellyState) -> dict[str, Any]:
        return {
            "round": state.round,
            "turn": state.turn,
            "phase": state.phase,
            "dice": list(state.dice),
            "pos": list(state.pos),
            "cash": list(state.cash),
            "tunnel_used": list(state.tunnel_used),
            "tunnel_blocked": state.tunnel_blocked,
            "owner": list(state.owner),
            "chefs": list(state.chefs),
            "star": list(state.star),
            "insured": list(state.insured),
            "acquired": list(state.acquired),
            "stamp": state.stamp,
            "golden": state.golden,
            "holders": list(state.holders),
            "munch": list(state.munch),
            "deck": list(state.deck),
            "knows": list(state.knows),
            "queue": list(state.queue),
            "after": state.after,
            "window_left": state.window_waiting[::-1],
            "window_actions": state.window_actions,
            "window_offered": state.window_offered,
            "debt_offers": state.debt_offers,
            "offer": list(state.offer),
            "resume": state.resume,
            "bankrupt": state.bankrupt,
            "bank_net": state.bank_net,
            "log": list(state.log),
            "stats": list(state.stats),
        }

    def _state_from_json(
        self, data: Mapping[str, Any], num_players: int, seed: int, options: Mapping[str, Any]
    ) -> BellyState:
        state = BellyState(num_players, seed, options)

        def ints(key: str) -> list[int]:
            return [int(x) for x in data[key]]

        try:
            state.round = int(data["round"])
            state.turn = int(data["turn"])
            state.phase = int(data["phase"])
            one, two = ints("dice")
            state.dice = (one, two)
            state.pos = ints("pos")
            state.cash = ints("cash")
            state.tunnel_used = [bool(x) for x in data["tunnel_used"]]
            state.tunnel_blocked = bool(data["tunnel_blocked"])
            state.owner = ints("owner")
            state.holdings = [
                ownership.holdings_of(state.owner, seat) for seat in range(num_players)
            ]
            state.chefs = ints("chefs")
            state.star = ints("star")
            state.insured = [bool(x) for x in data["insured"]]
            state.acquired = ints("acquired")
            state.stamp = int(data["stamp"])
            state.golden = int(data["golden"])
            state.holders = ints("holders")
            state.munch = ints("munch")
            state.deck = ints("deck")
            state.knows = ints("knows")
            state.queue = ints("queue")
            state.after = int(data["after"])
            state.window_waiting = ints("window_left")[::-1]
            state.window_actions = int(data["window_actions"])
            state.window_offered = bool(data["window_offered"])
            state.debt_offers = int(data["debt_offers"])
            a, b, c, d = ints("offer")
            state.offer = (a, b, c, d)
            state.resume = int(data["resume"])
            state.bankrupt = int(data["bankrupt"])
            state.bank_net = int(data["bank_net"])
            state.log_entries = tuple(("{}", (str(line),)) for line in data["log"])
            state.stats = ints("stats")
        except (KeyError, TypeError, ValueError) as error:
            raise RecordError(f"the saved Belly Battle state is malformed: {error!r}") from None
        if len(state.cash) != num_players or len(state.owner) != self.num_cards:
            raise RecordError("the saved Belly Battle state does not match its table or board")
        if not 0 <= state.phase < len(PHASE_NAMES):
            raise RecordError(f"the saved Belly Battle state has an unknown phase {state.phase}")
        return state
