"""The game object: one per game, holding its rules and data, never any state."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic, Self, TypeVar

from mypy_extensions import mypyc_attr

from potluck.engine.action import Action
from potluck.engine.bots import Bot, RandomBot
from potluck.engine.botspec import build_bot
from potluck.engine.encoding import Feature, ObservationEncoding, ObservationWriter
from potluck.engine.errors import (
    IllegalActionError,
    NotYourTurnError,
    PotluckError,
    RecordError,
)
from potluck.engine.options import Option, resolve_options
from potluck.engine.outcome import Outcome
from potluck.engine.state import State, rng_from_json, rng_to_json
from potluck.engine.text import seats_text

S = TypeVar("S", bound=State)
A = TypeVar("A", bound=Action)


@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC, Generic[S, A]):
    """The rules of one game: every verb of the engine contract (``docs/engine.md``).

    A game object is immutable and holds no game in progress; states are separate
    values. Subclasses declare the class attributes below and implement the
    abstract hooks (named with a leading underscore where the base class wraps
    them with the checks every game shares).

        >>> import potluck
        >>> g = potluck.load_game("cafe-carnage")
        >>> s = g.new_game(num_players=4, seed=42)
        >>> g.to_act(s)
        (0, 1, 2, 3)
    """

    id: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[int]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[Mapping[str, Option]] = {}
    #: Option values that a table with a human seat plays with unless it sets them: a safety
    #: valve that simulations need (a turn cap, say) must not end a person's game.
    human_table_options: ClassVar[Mapping[str, Any]] = {}
    #: A one-screen summary of the rules, in Markdown, for ``potluck rules``.
    summary: ClassVar[str] = ""
    #: How actions are written, for help screens.
    notation: ClassVar[str] = ""

    #: Where the game's card data came from (``None``: the built-in data).
    data_source: str | None = None

    # ------------------------------------------------------------------ creation

    def new_game(
        self, num_players: object, seed: object = 0, options: Mapping[str, Any] | None = None
    ) -> S:
        """A new game at the table, every chance event drawn from ``seed``.

        ``num_players`` and ``seed`` are whole numbers (typed ``object`` because they are
        checked here: compiled code would take ``True`` for an ``int`` parameter as 1)."""
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise PotluckError(f"num_players must be a whole number, not {num_players!r}")
        if not self.min_players <= num_players <= self.max_players:
            raise PotluckError(
                f"{self.title} is for {self.min_players} to {self.max_players} players, "
                f"not {num_players}"
            )
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise PotluckError(f"seed must be a whole number, not {seed!r}")
        resolved = resolve_options(self.id, self.options, options)
        return self._new_game(num_players, seed, resolved)

    def table_options(
        self, options: Mapping[str, Any] | None, *, human_seat: bool
    ) -> dict[str, Any]:
        """The options a new table plays with: ``human_table_options`` under the given ones
        when a person sits at it.

        >>> from potluck.engine.registry import load_game
        >>> load_game("burger-joint").table_options({}, human_seat=True)
        {'turn_limit': 0}
        """
        given = dict(options or {})
        if not human_seat:
            return given
        return {**self.human_table_options, **given}

    @abstractmethod
    def _new_game(self, num_players: int, seed: int, options: Mapping[str, Any]) -> S: ...

    # ------------------------------------------------------------------ turn

    def to_act(self, state: S) -> tuple[int, ...]:
        """The seats that must act now; several for a sealed simultaneous choice."""
        return state.acting

    def is_over(self, state: S) -> bool:
        return not state.acting

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[A]:
        """Every action ``seat`` may take now, in a stable order; ``[]`` if it need not act."""

    @abstractmethod
    def parse_action(self, state: S, seat: int, text: str) -> A:
        """The action that ``text`` writes; ``InvalidActionError`` if it writes none."""

    def explain(self, state: S, seat: int, action: A | str) -> str | None:
        """``None`` if ``seat`` may take ``action`` now, else a sentence saying why not."""
        if not isinstance(action, Action):
            action = self.parse_action(state, seat, action)
        if not state.acting:
            return "The game is over."
        if seat not in state.acting:
            return self._not_your_turn(state, seat)
        if self._is_legal(state, seat, action):
            return None
        return self._why_illegal(state, seat, action)

    def describe_action(self, state: S, seat: int, action: A) -> str:
        """A player-facing description of a legal action, for menus and buttons.

        The default is the canonical text; games say more (a card's name and price).
        """
        return str(action)

    def _not_your_turn(self, state: S, seat: int) -> str:
        if not 0 <= seat < state.num_players:
            return f"There is no seat {seat} at this table (seats 0 to {state.num_players - 1})."
        return f"It is not seat {seat}'s turn: waiting for {seats_text(state.acting)}."

    def _is_legal(self, state: S, seat: int, action: Action) -> bool:
        """Whether ``seat``, who is to act, may take ``action``; games override it with a
        check cheaper than building the whole legal list."""
        return action in self.legal_actions(state, seat)

    @abstractmethod
    def _why_illegal(self, state: S, seat: int, action: A) -> str:
        """Why ``action`` is not legal for ``seat``, who is to act."""

    # ------------------------------------------------------------------ change

    def step(self, state: S, seat: int, action: A | str) -> None:
        """Apply ``action`` in place: the fast path for simulation and search.

        Raises ``InvalidActionError``, ``NotYourTurnError`` or
        ``IllegalActionError`` (with the ``explain`` sentence) and then leaves
        ``state`` unchanged.
        """
        if not isinstance(action, Action):
            action = self.parse_action(state, seat, action)
        if seat not in state.acting:
            raise NotYourTurnError(
                "The game is over." if not state.acting else self._not_your_turn(state, seat)
            )
        if not self._is_legal(state, seat, action):
            raise IllegalActionError(self._why_illegal(state, seat, action))
        self._step(state, seat, action)
        state.history.append((seat, action))

    def step_legal(self, state: S, seat: int, action: A) -> None:
        """``step`` for an action the caller has just taken from
        ``legal_actions(state, seat)``: the same change, without checking it again.

        The fast path of search and random playouts, which draw every action from
        the legal list; anything else (a player's or a client's move) goes through
        ``step``, which refuses what is not legal.

            >>> import potluck
            >>> game = potluck.load_game("cafe-carnage")
            >>> state = game.new_game(4, seed=1)
            >>> game.step_legal(state, 0, game.legal_actions(state, 0)[0])
            >>> len(state.history)
            1
        """
        self._step(state, seat, action)
        state.history.append((seat, action))

    def apply(self, state: S, seat: int, action: A | str) -> S:
        """The state after ``action``; ``state`` itself is not changed."""
        successor = state.clone()
        self.step(successor, seat, action)
        return successor

    @abstractmethod
    def _step(self, state: S, seat: int, action: A) -> None:
        """Make the change for a legal action, resolving any chance it triggers."""

    # ------------------------------------------------------------------ what seats see

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """All that ``seat`` may know, JSON-ready; ``seat=None`` is a spectator."""

    def bot_view(self, state: S, seat: int) -> Any:
        """What the game's own bots read for ``seat``, for a bot that asks for it
        (``compact_view``, ``potluck.engine.bots.bot_input``), built without the whole
        view (a greedy decision spent up to half its time on the view). By default the
        whole view; a game may return either

        - a part of the view: fewer entries, each equal to the view's, built by the
          same code; the conformance suite checks that it is a part of the view, so it
          can show nothing the view hides; or
        - a typed information object that its compiled bots read at C speed, which
          ``bot_view_from_view`` builds again from the seat's whole view: the
          conformance suite holds the two equal, so the object is a function of the
          view and likewise shows nothing the view hides.

        Either way the suite checks that the greedy bot chooses the same from it as
        from the whole view.
        """
        return self.view(state, seat)

    def bot_view_from_view(self, view: Mapping[str, Any], seat: int) -> Any:
        """For a game whose ``bot_view`` is a typed information object: the same object
        built from ``seat``'s whole ``view`` alone (``None``: ``bot_view`` is a part of
        the view)."""
        return None

    @abstractmethod
    def redeal(self, state: S, seat: int, rng: random.Random) -> S:
        """A state ``seat`` cannot tell from ``state``, with what it cannot see drawn anew."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome:
        """How the finished game ended; ``PotluckError`` while it is still going."""

    def standings(self, state: S) -> tuple[float, ...] | None:
        """Each seat's score as the game stands now (what ``outcome`` would score if it
        ended here), or ``None`` when the game gives no such estimate. A game may give
        instead an estimate of its final scores (FoodAdvice adds what its products are
        expected to sell); once the game is over it equals ``outcome``'s scores.

        Search bots that cut a rollout short rank the seats by it. It reads the
        whole state, so a bot must only call it on worlds drawn from its own
        information (``redeal``), never on the true state.
        """
        return None

    def win_chances(self, state: S) -> tuple[float, ...] | None:
        """Each seat's estimated chance of winning from here (summing to 1), or ``None``
        when the game gives no such estimate. Unlike ``standings`` it is a chance, not
        a score: a game may fit it to how its games really end (Belly Battle does). A
        finished game's chances are its win shares (1 shared among the winners).

        Search bots with ``cutoff=fitted`` score a rollout cut short by it. Like
        ``standings`` it reads the whole state, so a bot must only call it on worlds
        drawn from its own information (``redeal``).
        """
        return None

    def progress(self, state: S) -> int | None:
        """How far the game has come, in its own unit of time (turns taken, say), or
        ``None`` when the game gives no such clock. It must count the game's time, not
        the moves: two states that differ only by extra moves within one turn (a deal
        made, an offer declined) have the same progress.

        Search bots with a ``horizon`` cut a rollout once this has grown by that
        much since the root, so rollouts after different root moves are scored at
        the same point of the game (after the same dice), not after the same number
        of moves.
        """
        return None

    def search_defaults(self) -> Mapping[str, str]:
        """Parameters the generic search bot (``ismcts``) takes by default in this game,
        as spec text (``{"rollout": "greedy", "depth": "20"}``); a spec's own
        parameters override them. Empty: the search bot's own defaults."""
        return {}

    def side_names(self, num_players: int) -> tuple[str, ...]:
        """The side each seat plays where a game has fixed sides (Burger Joint: seat 0 is
        Burger, seat 1 Pizza), for balance studies; empty where seats have no sides.

        >>> from potluck.engine.registry import load_game
        >>> load_game("cafe-carnage").side_names(4)
        ()
        """
        return ()

    def metrics(self, state: S) -> dict[str, float | int | str]:
        """Game-specific numbers about a finished game, for simulations and studies."""
        return {}

    def seat_metrics(self, state: S, seat: int) -> dict[str, float | int]:
        """Numbers about one seat's play in a finished game (dishes eaten, cards played...).

        The lab relates them to winning ("which dishes go with winning"); a key
        such as ``"dish:tiramisu"`` counts how often the seat had that thing.
        Games that do not say anything about single seats keep this default.
        """
        return {}

    # ------------------------------------------------------------------ bounds and encodings

    @abstractmethod
    def max_steps(self, num_players: int) -> int:
        """No game with this many players takes more steps than this."""

    @abstractmethod
    def num_distinct_actions(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> int:
        """The size of the integer action space."""

    def action_index(self, state: S, seat: int, action: A | str) -> int:
        """The action's integer code, in ``range(num_distinct_actions(...))``."""
        if not isinstance(action, Action):
            action = self.parse_action(state, seat, action)
        return action.index

    @abstractmethod
    def action_from_index(self, state: S, seat: int, index: int) -> A:
        """The action whose code is ``index``; ``InvalidActionError`` if there is none."""

    def observation_encoding(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> ObservationEncoding:
        """The layout of this game's fixed-size observation vector at this table.

        ``NotImplementedError`` for a game that defines no encoding.
        """
        resolved = resolve_options(self.id, self.options, options)
        return ObservationEncoding(self.id, self._observation_features(num_players, resolved))

    def encode_observation(
        self, state: S, seat: int, encoding: ObservationEncoding | None = None
    ) -> list[float]:
        """``seat``'s view as a vector laid out by ``observation_encoding``."""
        if encoding is None:
            encoding = self.observation_encoding(state.num_players, state.options)
        fast = self._encode_state(state, seat, encoding)
        if fast is not None:
            return fast
        return self.encode_view(self.view(state, seat), encoding)

    def encode_view(self, view: Mapping[str, Any], encoding: ObservationEncoding) -> list[float]:
        """A seat's view (as ``view`` returns it) as a vector laid out by ``encoding``.

        Built from the view alone, so the vector can never hold hidden information.
        """
        out = encoding.writer()
        self._encode_view(view, out)
        return out.values

    def _observation_features(self, num_players: int, options: Mapping[str, Any]) -> list[Feature]:
        raise NotImplementedError(f"{self.title} defines no observation encoding")

    def _encode_view(self, view: Mapping[str, Any], out: ObservationWriter) -> None:
        raise NotImplementedError(f"{self.title} defines no observation encoding")

    def _encode_state(
        self, state: S, seat: int, encoding: ObservationEncoding
    ) -> list[float] | None:
        """Optional fast path: the vector ``encode_view`` gives, written from the state
        without building the view (``None``: no fast path). The conformance suite checks
        that the two agree, so the fast path can show nothing the view hides."""
        return None

    # ------------------------------------------------------------------ bots

    def bots(self) -> dict[str, Callable[[], Bot]]:
        """Bot names for this game and how to make each."""
        return {"random": RandomBot}

    def make_bot(self, spec: str) -> Bot:
        """The bot a spec names, ``name`` or ``name:key=value,...`` (``potluck.engine.botspec``).

        ``BotSpecError`` (a ``PotluckError``) names the game's bots, or the bot's
        parameters, when the spec does not fit them.
        """
        bot: Bot = build_bot(self.bots(), spec, self.title)
        return bot

    # ------------------------------------------------------------------ records and saving

    def record(self, state: S) -> dict[str, Any]:
        """The game as seed plus actions: enough for ``replay`` to rebuild ``state``."""
        record: dict[str, Any] = {
            "game": self.id,
            "version": self.version,
            "num_players": state.num_players,
            "seed": state.seed,
            "options": dict(state.options),
            "actions": [[seat, str(action)] for seat, action in state.history],
        }
        if self.data_source is not None:
            record["data"] = self.data_source
        if self.is_over(state):
            record["outcome"] = self.outcome(state).to_json()
        return record

    def replay(self, record: Mapping[str, Any], *, upto: int | None = None) -> S:
        """Rebuild a game from its record (optionally only its first ``upto`` actions).

        A record may say that its game was dealt again part-way: ``"redeal": [{"step":
        K, "seat": S, "seed": R}, ...]`` (a server's "play from here" table, which
        keeps what seat S knew after K actions and draws the rest anew): the state
        after K actions is then ``redeal(state, S, random.Random(R))`` (``redealt``).
        """
        self._check_header(record, "record")
        try:
            num_players, seed = record["num_players"], record["seed"]
            options, actions = record.get("options", {}), record["actions"]
        except KeyError as missing:
            raise RecordError(f"the record has no {missing.args[0]!r} field") from None
        state = self.new_game(num_players, seed, options)
        redeals = self.redeal_of(record)
        state = self.redealt(state, redeals)
        for number, entry in enumerate(actions[:upto] if upto is not None else actions, 1):
            try:
                seat, text = entry
                self.step(state, int(seat), str(text))
            except (TypeError, ValueError) as error:
                raise RecordError(f"action {number} of the record, {entry!r}: {error}") from None
            if redeals:
                state = self.redealt(state, redeals)
        return state

    def redeal_of(self, record: Mapping[str, Any]) -> list[dict[str, int]]:
        """A record's ``redeal`` entries, checked and in order (``[]``: dealt once).

        >>> import potluck
        >>> game = potluck.load_game("cafe-carnage")
        >>> game.redeal_of({"num_players": 4, "actions": [],
        ...                 "redeal": [{"step": 0, "seat": 1, "seed": 7}]})
        [{'step': 0, 'seat': 1, 'seed': 7}]
        """
        entries = record.get("redeal")
        if entries is None:
            return []
        shape = 'a record\'s "redeal" is a list of {"step": K, "seat": S, "seed": R}'
        if not isinstance(entries, list):
            raise RecordError(shape)
        checked: list[dict[str, int]] = []
        for entry in entries:
            if not isinstance(entry, Mapping) or set(entry) != {"step", "seat", "seed"}:
                raise RecordError(shape)
            values = {key: entry[key] for key in ("step", "seat", "seed")}
            if any(isinstance(v, bool) or not isinstance(v, int) for v in values.values()):
                raise RecordError(f'a "redeal" of a record holds whole numbers, not {entry!r}')
            if not 0 <= values["seat"] < int(record.get("num_players", 0)):
                raise RecordError(f"the record redeals for seat {values['seat']}, which it has not")
            if not 0 <= values["step"] <= len(record.get("actions", ())):
                raise RecordError(f"the record redeals at step {values['step']}, past its actions")
            if checked and values["step"] < checked[-1]["step"]:
                raise RecordError('a record\'s "redeal" entries go in the order of their steps')
            checked.append(values)
        return checked

    def redealt(self, state: S, redeals: list[dict[str, int]]) -> S:
        """``state``, dealt again by each of ``redeals`` (``redeal_of``) at its step, in
        order: what the entry's ``seat`` knows is kept, the rest (other hands, the decks'
        order, future chance) drawn from ``random.Random(seed)``. For code that steps
        through a record itself: call it once at the start and once after each action.
        """
        steps = len(state.history)
        for entry in redeals:
            if entry["step"] == steps:
                state = self.redeal(state, entry["seat"], random.Random(entry["seed"]))
        return state

    def to_json(self, state: S) -> dict[str, Any]:
        """The full state, RNG included, as JSON-ready data; ``from_json`` restores it exactly."""
        return {
            "game": self.id,
            "version": self.version,
            "num_players": state.num_players,
            "seed": state.seed,
            "options": dict(state.options),
            "acting": list(state.acting),
            "history": [[seat, str(action)] for seat, action in state.history],
            "rng": rng_to_json(state.rng),
            "state": self._state_to_json(state),
        }

    def from_json(self, data: Mapping[str, Any]) -> S:
        """The state ``to_json`` saved, checked before it is returned.

        A hand-edited or damaged save is refused with a ``RecordError`` naming what is
        wrong (a missing field, a value of the wrong kind, or each broken invariant
        the game's ``invariants`` finds), never a state that crashes later inside
        ``explain``, ``step`` or ``view``.
        """
        self._check_header(data, "saved state")
        missing = [key for key in _SAVED_FIELDS if key not in data]
        if missing:
            raise RecordError(f"the saved state has no {', '.join(map(repr, missing))} field")
        try:
            state = self._state_from_json(
                data["state"],
                data["num_players"],
                data["seed"],
                resolve_options(self.id, self.options, data["options"]),
            )
            state.rng = rng_from_json(data["rng"])
            state.acting = tuple(_seat_number(seat) for seat in data["acting"])
            history: list[tuple[int, Action]] = []
            for seat, text in data["history"]:
                history.append((_seat_number(seat), self._action_from_text(str(text))))
            state.history = history
        except RecordError:
            raise
        except Exception as error:
            raise RecordError(f"the saved state is malformed: {_error_text(error)}") from None
        problems = self._saved_state_problems(state)
        if problems:
            raise RecordError("the saved state is inconsistent: " + "; ".join(problems))
        return state

    def _saved_state_problems(self, state: S) -> list[str]:
        problems = [
            f"seat {seat} is to act, but the table has seats 0 to {state.num_players - 1}"
            for seat in state.acting
            if not 0 <= seat < state.num_players
        ]
        if len(set(state.acting)) != len(state.acting):
            problems.append(f"a seat is to act twice: {list(state.acting)}")
        problems += [
            f"history step {number} is by seat {seat}, but the table has seats "
            f"0 to {state.num_players - 1}"
            for number, (seat, _) in enumerate(state.history, 1)
            if not 0 <= seat < state.num_players
        ]
        if problems:
            return problems
        try:
            found = self.invariants(state)
        except Exception as error:
            return [f"it cannot be checked ({_error_text(error)})"]
        return list(found)

    def invariants(self, state: S) -> list[str]:
        """The problems in ``state``: each a sentence naming what is inconsistent
        (a card in two places, a seat out of range, negative money...); ``[]`` when
        all is well.

        ``from_json`` refuses a saved state with any problem, and the conformance
        suite checks every state of its playouts with it. Games override it with
        everything their rules keep true; the default finds nothing.

            >>> import potluck
            >>> g = potluck.load_game("cafe-carnage")
            >>> g.invariants(g.new_game(num_players=4, seed=1))
            []
        """
        return []

    def _check_header(self, data: Mapping[str, Any], what: str) -> None:
        if not isinstance(data, Mapping):
            raise RecordError(f"a {what} must be a JSON object, not {type(data).__name__}")
        if data.get("game") != self.id:
            raise RecordError(f"this {what} is of game {data.get('game')!r}, not {self.id!r}")
        if data.get("version") != self.version:
            raise RecordError(
                f"this {what} is of {self.id} version {data.get('version')!r}; "
                f"this engine plays version {self.version}"
            )

    @abstractmethod
    def _action_from_text(self, text: str) -> A:
        """Parse canonical action text without a state (for saved histories)."""

    @abstractmethod
    def _state_to_json(self, state: S) -> dict[str, Any]: ...

    @abstractmethod
    def _state_from_json(
        self, data: Mapping[str, Any], num_players: int, seed: int, options: Mapping[str, Any]
    ) -> S: ...

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        # A game object is immutable: copies of states and tables share it.
        return self

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id!r} v{self.version}>"


#: The fields of ``to_json`` that ``from_json`` reads.
_SAVED_FIELDS = ("num_players", "seed", "options", "acting", "history", "rng", "state")


def _seat_number(value: Any) -> int:
    """A seat number from saved JSON: a whole number, never a float, bool or text."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"a seat must be a whole number, not {value!r}")
    return value


def _error_text(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
