"""Burger Joint's rules: the five actions of a turn, two asymmetric boards, 12 VP wins.

Rulebook names are used throughout: *Production* (``_start_turn``, the draft in
``_next_pick``), *Trading & Special Abilities*, *Building*, *Calculate Current
Score* (``points``) and *Discard Excess Cubes*. Seat 0 plays Burger and starts.

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

from potluck.engine.bots import Bot, RandomBot
from potluck.engine.data import DataSource, load_data
from potluck.engine.encoding import Feature, ObservationEncoding, ObservationWriter
from potluck.engine.errors import (
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    OptionError,
    PotluckError,
    RecordError,
)
from potluck.engine.game import Game
from potluck.engine.options import Option
from potluck.engine.outcome import Outcome
from potluck.games.burger_joint.actions import BurgerAction
from potluck.games.burger_joint.describe import describe, publicity_advance
from potluck.games.burger_joint.schema import (
    ABILITIES,
    DEFAULT_TURN_LIMIT,
    MAX_TURN_LIMIT,
    BoardData,
)
from potluck.games.burger_joint.state import (
    AB_EXTRA,
    AB_PICK,
    AB_REDRAW,
    AB_SWAP_ONE,
    AB_SWAP_TWO,
    BASIC,
    BISTRO,
    BUILD,
    DINER,
    DISCARD,
    DISCARD_ONE,
    DRAFT,
    DRAW,
    END,
    EXTRA,
    NO_WINNER,
    OVER,
    PICK,
    PUB_ADVANCE,
    PUB_BOTH,
    PUB_STEAL,
    PUT,
    REDRAW,
    REDRAW_START,
    SWAP_ONE,
    SWAP_TWO,
    TAKE,
    TRADE,
    TRADE3,
    BurgerState,
)

#: The values of the ``first_pick`` option: which text's first-pick exception applies.
FIRST_PICK_TEXTS = ("english", "german")

#: The ability each kind of action uses (-1: none).
_ABILITY_OF = {
    REDRAW_START: AB_REDRAW,
    SWAP_TWO: AB_SWAP_TWO,
    EXTRA: AB_EXTRA,
    SWAP_ONE: AB_SWAP_ONE,
    PICK: AB_PICK,
}
_BUILDS = (PUB_BOTH, PUB_STEAL, PUB_ADVANCE, BASIC, DINER, BISTRO)


class Side:
    """One development board, turned into count vectors indexed by colour.

    >>> import potluck
    >>> burger = potluck.load_game("burger-joint").sides[0]
    >>> burger.name, burger.basic_cost, burger.basics_value
    ('Burger', (0, 1, 1, 0, 1, 0), (0, 0, 0, 1, 1, 2, 3))
    """

    def __init__(self, data: BoardData, index: int) -> None:
        spec = data.sides[index]
        colours = data.colours
        self.name = spec.name

        def vector(cost: list[str]) -> tuple[int, ...]:
            return tuple(cost.count(colour) for colour in colours)

        self.start_basics = spec.start_basics
        self.start_diners = tuple(1 if c in spec.start_diners else 0 for c in colours)
        self.publicity_cost = vector(spec.publicity_cost)
        self.publicity_points = tuple(spec.publicity_points)
        self.basic_cost = vector(spec.basic_cost)
        self.basic_points = tuple(spec.basic_points)
        # VP of the basic column holding k restaurants (they fill it from the top).
        self.basics_value = tuple(
            sum(spec.basic_points[:k]) for k in range(len(spec.basic_points) + 1)
        )
        self.diner_points = spec.diner_points
        by_colour = {d.colour: vector(d.cost) for d in spec.diners}
        self.diner_cost = tuple(by_colour[c] for c in colours)
        self.bistro_names = tuple(b.name for b in spec.bistros)
        self.bistro_cost = tuple(vector(b.cost) for b in spec.bistros)
        self.bistro_points = tuple(b.points for b in spec.bistros)
        self.bistro_ability = tuple(ABILITIES.index(b.ability) for b in spec.bistros)
        #: The bistro slot holding each ability, or -1.
        self.ability_slot = tuple(
            self.bistro_ability.index(a) if a in self.bistro_ability else -1
            for a in range(len(ABILITIES))
        )


class BurgerJoint(Game[BurgerState, BurgerAction]):
    """Burger Joint (Rio Grande Games 2009, Joseph Huber), for 2 players."""

    id: ClassVar[str] = "burger-joint"
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
        self.data = load_data(BoardData, data, package=__package__, default="data/boards.toml")
        self.data_source = (
            None if data is None else str(data) if not isinstance(data, Mapping) else "custom"
        )
        d = self.data
        self.colours = tuple(d.colours)
        self.num_colours = nc = len(self.colours)
        self.sides = (Side(d, 0), Side(d, 1))
        self.num_bistros = nb = len(d.sides[0].bistros)
        self.limit, self.keep, self.win = d.production_limit, d.keep, d.win_points
        self.tokens = d.tokens
        self.cubes_per_colour = d.cubes_per_colour

        actions: list[BurgerAction] = []

        def add(text: str, kind: int, a: int = -1, b: int = -1, c: int = -1) -> BurgerAction:
            action = BurgerAction(len(actions), text, kind, a, b, c)
            actions.append(action)
            return action

        col = self.colours
        self.take_actions = tuple(add(f"take {col[c]}", TAKE, c) for c in range(nc))
        self.trade_actions = tuple(
            add(f"trade {col[a]} for {col[b]}", TRADE3, a, b) for a in range(nc) for b in range(nc)
        )
        self.redraw_action = add("redraw", REDRAW_START)
        self.put_actions = tuple(add(f"put {col[c]}", PUT, c) for c in range(nc))
        self.draw_action = add("draw", DRAW)
        self.swap_two_actions = tuple(
            add(f"swap-two {col[a]} {col[b]} for {col[c]}", SWAP_TWO, a, b, c)
            for a in range(nc)
            for b in range(a, nc)
            for c in range(nc)
        )
        self.extra_action = add("extra", EXTRA)
        self.swap_one_actions = tuple(
            add(f"swap-one {col[a]} for {col[c]}", SWAP_ONE, a, -1, c)
            for a in range(nc)
            for c in range(nc)
        )
        self.pick_actions = tuple(add(f"pick {col[c]}", PICK, -1, -1, c) for c in range(nc))
        self.pub_both_actions = tuple(
            add(f"publicity steal {col[c]} and advance", PUB_BOTH, c) for c in range(nc)
        )
        self.pub_steal_actions = tuple(
            add(f"publicity steal {col[c]}", PUB_STEAL, c) for c in range(nc)
        )
        self.pub_advance_action = add("publicity advance", PUB_ADVANCE)
        self.basic_action = add("basic", BASIC)
        self.diner_actions = tuple(add(f"diner {col[c]}", DINER, c) for c in range(nc))
        self.bistro_actions = tuple(
            add(f"bistro {k + 1} from {col[c]}", BISTRO, c, k) for k in range(nb) for c in range(nc)
        )
        self.end_action = add("end", END)
        self.discard_actions = tuple(add(f"discard {col[c]}", DISCARD_ONE, c) for c in range(nc))
        self.actions = tuple(actions)
        self._by_text = {a.text: a for a in actions}
        from potluck.games.burger_joint.view import boards_json

        #: Both boards' costs and values as JSON-ready data (shared by every view).
        self.boards = boards_json(self)

    # ------------------------------------------------------------------ creation

    def _new_game(self, num_players: int, seed: int, options: Mapping[str, Any]) -> BurgerState:
        limit = options["turn_limit"]
        if limit != 0 and not 2 <= limit <= MAX_TURN_LIMIT:
            raise OptionError(
                f"option 'turn_limit' is 0 (no limit) or 2 to {MAX_TURN_LIMIT} turns, not {limit}"
            )
        if options["first_pick"] not in FIRST_PICK_TEXTS:
            raise OptionError(
                f"option 'first_pick' is 'english' or 'german', not {options['first_pick']!r}"
            )
        nc, nb = self.num_colours, self.num_bistros
        state = BurgerState(num_players, seed, options)
        state.active = 0
        state.phase = DRAFT
        state.turn = 0
        state.bag = [self.cubes_per_colour] * nc
        state.cubes = [0] * (2 * nc)
        state.pool = [0] * nc
        state.owed = [0, 0]
        state.taken = [0, 0]
        state.basics = [side.start_basics for side in self.sides]
        state.diners = [*self.sides[0].start_diners, *self.sides[1].start_diners]
        state.bistros = [0] * (2 * nb)
        state.publicity = [0, 0]
        state.score = [self.points(state, 0), self.points(state, 1)]
        state.used = 0
        state.pub_buys = 0
        state.aside = [0] * nc
        state.winner = NO_WINNER
        self._start_turn(state)
        return state

    # ------------------------------------------------------------------ numbers the rules use

    def capacity(self, state: BurgerState, seat: int) -> int:
        """Production capacity: one per specialty diner and upscale bistro owned."""
        nc, nb = self.num_colours, self.num_bistros
        return sum(state.diners[seat * nc : seat * nc + nc]) + sum(
            state.bistros[seat * nb : seat * nb + nb]
        )

    def tokens_on_board(self, state: BurgerState, seat: int) -> int:
        return state.basics[seat] + self.capacity(state, seat)

    def points(self, state: BurgerState, seat: int) -> int:
        """Calculate Current Score: publicity + basic restaurants + diners + bistros.

        >>> import potluck
        >>> g = potluck.load_game("burger-joint")
        >>> g.points(g.new_game(2), 0)     # one basic restaurant (0) and two diners (1 each)
        2
        """
        side = self.sides[seat]
        nc, nb = self.num_colours, self.num_bistros
        position = state.publicity[seat]
        total = side.publicity_points[position - 1] if position else 0
        total += side.basics_value[state.basics[seat]]
        total += side.diner_points * sum(state.diners[seat * nc : seat * nc + nc])
        bistros = state.bistros
        for k in range(nb):
            if bistros[seat * nb + k]:
                total += side.bistro_points[k]
        return total

    def reserved_for(self, state: BurgerState, colour: int) -> int:
        """The seat whose area gets production cubes of ``colour``, or -1 for the general area.

        A colour goes to a player's area when that player owns its specialty diner
        and the other does not.
        """
        nc = self.num_colours
        zero, one = state.diners[colour], state.diners[nc + colour]
        if zero and not one:
            return 0
        if one and not zero:
            return 1
        return -1

    def draft_colours(self, state: BurgerState, seat: int) -> list[int]:
        """The colours ``seat`` may take now in production (first-pick rule and exception)."""
        pool = state.pool
        present = [c for c in range(self.num_colours) if pool[c]]
        if state.taken[seat]:
            return present
        other = 1 - seat
        allowed = [c for c in present if self.reserved_for(state, c) != other]
        if allowed:
            return allowed
        # The exception: a player with no legal first pick does not lose it.
        if state.options["first_pick"] == "german":
            return [c for c in present if self.reserved_for(state, c) == other]
        return present

    # ------------------------------------------------------------------ turn structure

    def _draw(self, state: BurgerState) -> int:
        """One cube drawn at random from the bag (which must not be empty)."""
        bag = state.bag
        r = state.rng.randrange(sum(bag))
        for colour, count in enumerate(bag):
            if r < count:
                bag[colour] -= 1
                return colour
            r -= count
        raise AssertionError("the bag's counts are inconsistent")  # pragma: no cover

    def _start_turn(self, state: BurgerState) -> None:
        """Production: draw a cube per diner and bistro of each player, at most four each."""
        state.turn += 1
        state.used = 0
        state.pub_buys = 0
        state.taken = [0, 0]
        state.owed = [min(self.capacity(state, s), self.limit) for s in (0, 1)]
        wanted = min(state.owed[0] + state.owed[1], sum(state.bag))
        for _ in range(wanted):
            state.pool[self._draw(state)] += 1
        state.phase = DRAFT
        self._next_pick(state, 1 - state.active)

    def _next_pick(self, state: BurgerState, last: int) -> None:
        """Who picks next: the players alternate, active first; one who is full drops out.

        A pick with only one colour to choose from is no choice: it is made at once
        (ruling BJ-11), so the last cubes of a production are handed out without a step.
        """
        pool, taken, owed = state.pool, state.taken, state.owed
        while sum(pool):
            for seat in (1 - last, last):
                if taken[seat] < owed[seat]:
                    break
            else:
                break
            colours = self.draft_colours(state, seat)
            if len(colours) > 1:
                state.acting = (seat,)
                return
            pool[colours[0]] -= 1
            state.cubes[seat * self.num_colours + colours[0]] += 1
            taken[seat] += 1
            last = seat
        # Production is over (a short bag may leave someone with fewer cubes).
        for colour, count in enumerate(state.pool):
            state.bag[colour] += count
            state.pool[colour] = 0
        state.phase = TRADE
        state.acting = (state.active,)

    def _start_discard(self, state: BurgerState) -> None:
        """Discard Excess Cubes: the active player first, then the other, down to seven."""
        nc = self.num_colours
        for seat in (state.active, 1 - state.active):
            if sum(state.cubes[seat * nc : seat * nc + nc]) > self.keep:
                state.phase = DISCARD
                state.acting = (seat,)
                return
        limit = state.options["turn_limit"]
        if limit and state.turn >= limit:
            state.phase = OVER
            state.acting = ()
            return
        state.active = 1 - state.active
        self._start_turn(state)

    # ------------------------------------------------------------------ legality

    def _can_pay(self, state: BurgerState, seat: int, cost: tuple[int, ...]) -> bool:
        cubes, base = state.cubes, seat * self.num_colours
        for colour, count in enumerate(cost):
            if count and cubes[base + colour] < count:
                return False
        return True

    def _owns_ability(self, state: BurgerState, seat: int, ability: int) -> bool:
        slot = self.sides[seat].ability_slot[ability]
        return slot >= 0 and bool(state.bistros[seat * self.num_bistros + slot])

    def _is_legal(self, state: BurgerState, seat: int, action: Any) -> bool:
        if not isinstance(action, BurgerAction) or not 0 <= action.index < len(self.actions):
            return False
        if self.actions[action.index] != action:
            return False
        return self._why(state, seat, action) is None

    def _why_illegal(self, state: BurgerState, seat: int, action: BurgerAction) -> str:
        return self._why(state, seat, action) or "That action is legal."

    def _why(self, state: BurgerState, seat: int, action: BurgerAction) -> str | None:
        """``None`` if ``seat`` (who is to act) may take ``action``, else the reason why not."""
        kind, phase = action.kind, state.phase
        nc = self.num_colours
        col = self.colours
        mine = seat * nc
        cubes = state.cubes
        if phase == DRAFT:
            if kind != TAKE:
                return "It is the production phase: take a cube ('take <colour>')."
            if not state.pool[action.a]:
                return f"There is no {col[action.a]} cube left to take in production."
            if action.a not in self.draft_colours(state, seat):
                return (
                    f"Your first cube this production may not come from your opponent's area: "
                    f"the {col[action.a]} cubes are reserved for the player with the only "
                    f"{col[action.a]} diner. Take one from the general area or your own area."
                )
            return None
        if phase == DISCARD:
            if kind != DISCARD_ONE:
                return f"Discard excess cubes: you hold more than {self.keep}; 'discard <colour>'."
            if not cubes[mine + action.a]:
                return f"You have no {col[action.a]} cube to discard."
            return None
        if phase == REDRAW:
            if kind == PUT:
                if not cubes[mine + action.a]:
                    return f"You have no {col[action.a]} cube to put into the bag."
                return None
            if kind == DRAW:
                return None
            return "Finish the redraw ability first: 'put <colour>' cubes, then 'draw'."
        if phase == OVER:  # pragma: no cover - the engine refuses first
            return "The game is over."
        # TRADE or BUILD: the active player's own phases.
        if kind in (TAKE, PUT, DRAW, DISCARD_ONE):
            what = {TAKE: "production", PUT: "a redraw", DRAW: "a redraw", DISCARD_ONE: "discard"}
            return f"This is not {what[kind]} time: it is your trading and building phase."
        if kind == END:
            return None
        if kind == TRADE3 or kind in _ABILITY_OF:
            if phase == BUILD:
                return (
                    "You have started building: trades and special abilities come before "
                    "building (Trading & Special Abilities is action 2, Building action 3)."
                )
            if kind == TRADE3:
                if cubes[mine + action.a] < 3:
                    return f"A 3-for-1 trade needs three {col[action.a]} cubes."
                if state.bag[action.b] + (3 if action.a == action.b else 0) < 1:
                    return f"There is no {col[action.b]} cube in the bag to draw."
                return None
            ability = _ABILITY_OF[kind]
            name = ABILITIES[ability]
            if not self._owns_ability(state, seat, ability):
                return f"You have no upscale bistro with the '{name}' ability."
            if state.used >> ability & 1:
                return f"You have used the '{name}' ability this turn: each is once per turn."
            if kind == SWAP_TWO:
                a, b, c = action.a, action.b, action.c
                if cubes[mine + a] < 1 + (a == b) or cubes[mine + b] < 1:
                    return f"You do not hold a {col[a]} and a {col[b]} cube to put into the bag."
                if state.bag[c] + (a == c) + (b == c) < 1:
                    return f"There is no {col[c]} cube in the bag to take."
            elif kind == SWAP_ONE:
                if not cubes[mine + action.a]:
                    return f"You have no {col[action.a]} cube to put into the bag."
                if state.bag[action.c] + (action.a == action.c) < 1:
                    return f"There is no {col[action.c]} cube in the bag to take."
            elif kind == PICK:
                if not state.bag[action.c]:
                    return f"There is no {col[action.c]} cube in the bag to take."
            elif kind == EXTRA and not sum(state.bag):
                return "The bag is empty: there is no cube to draw."
            return None
        return self._why_build(state, seat, action)

    def _why_build(self, state: BurgerState, seat: int, action: BurgerAction) -> str | None:
        kind = action.kind
        side = self.sides[seat]
        nc, nb = self.num_colours, self.num_bistros
        col = self.colours
        other = 1 - seat
        if kind in (PUB_BOTH, PUB_STEAL, PUB_ADVANCE):
            if state.publicity[seat] >= len(side.publicity_points):
                return "Your publicity marker is at the bottom of its column: no more publicity."
            if not self._can_pay(state, seat, side.publicity_cost):
                return (
                    f"You cannot pay for publicity: it costs {self.cost_text(side.publicity_cost)}."
                )
            if kind == PUB_BOTH:
                if state.pub_buys:
                    return (
                        "Only the first publicity of a turn both steals and advances; for this "
                        "one choose 'publicity steal <colour>' or 'publicity advance'."
                    )
            elif kind == PUB_STEAL and not state.pub_buys:
                return (
                    "The first publicity of a turn always moves the marker (ruling BJ-15): this "
                    f"one would {publicity_advance(self, state, seat)}. Write 'publicity steal "
                    "<colour> and advance', or 'publicity advance' to steal nothing."
                )
            if kind != PUB_ADVANCE and not state.cubes[other * nc + action.a]:
                return f"Your opponent has no {col[action.a]} cube to steal."
            return None
        if kind == BASIC:
            if state.basics[seat] >= len(side.basic_points):
                return "Every space of your basic restaurant column is taken."
            if self.tokens_on_board(state, seat) >= self.tokens:
                return f"All {self.tokens} of your development tokens are on your board."
            if not self._can_pay(state, seat, side.basic_cost):
                return (
                    f"You cannot pay for a basic restaurant: it costs "
                    f"{self.cost_text(side.basic_cost)}."
                )
            return None
        if kind == DINER:
            colour = action.a
            if state.diners[seat * nc + colour]:
                return f"You already own the {col[colour]} diner: one diner per specialty."
            if not state.basics[seat]:
                return (
                    "A specialty diner upgrades a basic restaurant, and you have none: "
                    "build a basic restaurant first."
                )
            if not self._can_pay(state, seat, side.diner_cost[colour]):
                return (
                    f"You cannot pay for the {col[colour]} diner: it costs "
                    f"{self.cost_text(side.diner_cost[colour])}."
                )
            return None
        # BISTRO: slot in action.b, upgraded diner's colour in action.a
        slot, colour = action.b, action.a
        name = side.bistro_names[slot]
        if state.bistros[seat * nb + slot]:
            return f"You have built bistro {slot + 1} ({name}) already: each bistro once."
        if not state.diners[seat * nc + colour]:
            return (
                f"An upscale bistro upgrades a specialty diner, and you own no {col[colour]} diner."
            )
        if not self._can_pay(state, seat, side.bistro_cost[slot]):
            return (
                f"You cannot pay for bistro {slot + 1} ({name}): it costs "
                f"{self.cost_text(side.bistro_cost[slot])}."
            )
        return None

    def describe_action(self, state: BurgerState, seat: int, action: BurgerAction) -> str:
        """What ``action`` does, in words: its cost and what it brings (see ``describe``)."""
        return describe(self, state, seat, action)

    def cost_text(self, cost: tuple[int, ...]) -> str:
        """A cost in words: ``2 white, 1 red``."""
        return ", ".join(f"{n} {self.colours[c]}" for c, n in enumerate(cost) if n)

    def legal_actions(self, state: BurgerState, seat: int) -> list[BurgerAction]:
        if seat not in state.acting:
            return []
        phase = state.phase
        nc = self.num_colours
        if phase == DRAFT:
            return [self.take_actions[c] for c in self.draft_colours(state, seat)]
        mine = seat * nc
        cubes = state.cubes
        if phase == DISCARD:
            return [self.discard_actions[c] for c in range(nc) if cubes[mine + c]]
        if phase == REDRAW:
            return [*(self.put_actions[c] for c in range(nc) if cubes[mine + c]), self.draw_action]
        why = self._why
        legal: list[BurgerAction] = []
        if phase == TRADE:
            bag = state.bag
            for a in range(nc):
                if cubes[mine + a] >= 3:
                    legal.extend(
                        self.trade_actions[a * nc + b] for b in range(nc) if bag[b] or a == b
                    )
            # Only the abilities owned and unused this turn are worth checking one by one.
            for ability, group in (
                (AB_REDRAW, (self.redraw_action,)),
                (AB_SWAP_TWO, self.swap_two_actions),
                (AB_EXTRA, (self.extra_action,)),
                (AB_SWAP_ONE, self.swap_one_actions),
                (AB_PICK, self.pick_actions),
            ):
                if state.used >> ability & 1 or not self._owns_ability(state, seat, ability):
                    continue
                legal.extend(action for action in group if why(state, seat, action) is None)
        self._legal_builds(state, seat, legal)
        legal.append(self.end_action)
        return legal

    def _legal_builds(self, state: BurgerState, seat: int, legal: list[BurgerAction]) -> None:
        """Append the legal builds in code order: the rules of ``_why_build`` without the
        sentences (this is the hot path of random playouts)."""
        nc, nb = self.num_colours, self.num_bistros
        side = self.sides[seat]
        mine = state.cubes[seat * nc : seat * nc + nc]

        def pays(cost: tuple[int, ...]) -> bool:
            return all(have >= need for have, need in zip(mine, cost, strict=True))

        if state.publicity[seat] < len(side.publicity_points) and pays(side.publicity_cost):
            other = (1 - seat) * nc
            theirs = state.cubes[other : other + nc]
            steals = self.pub_steal_actions if state.pub_buys else self.pub_both_actions
            legal.extend(steals[c] for c in range(nc) if theirs[c])
            legal.append(self.pub_advance_action)
        basics = state.basics[seat]
        if (
            basics < len(side.basic_points)
            and self.tokens_on_board(state, seat) < self.tokens
            and pays(side.basic_cost)
        ):
            legal.append(self.basic_action)
        diners = state.diners[seat * nc : seat * nc + nc]
        if basics:
            legal.extend(
                self.diner_actions[c]
                for c in range(nc)
                if not diners[c] and pays(side.diner_cost[c])
            )
        owned = [c for c in range(nc) if diners[c]]
        if owned:
            built = state.bistros[seat * nb : seat * nb + nb]
            for k in range(nb):
                if not built[k] and pays(side.bistro_cost[k]):
                    legal.extend(self.bistro_actions[k * nc + c] for c in owned)

    # ------------------------------------------------------------------ change

    def step(self, state: BurgerState, seat: int, action: BurgerAction | str) -> None:
        # The engine's checks, inlined: this is the hot path of every simulation.
        if not isinstance(action, BurgerAction):
            action = self.parse_action(state, seat, action)
        if seat not in state.acting:
            raise NotYourTurnError(
                "The game is over." if not state.acting else self._not_your_turn(state, seat)
            )
        reason = self._why(state, seat, action)
        if reason is not None:
            raise IllegalActionError(reason)
        state.history.append((seat, action))
        self._step(state, seat, action)

    def _step(self, state: BurgerState, seat: int, action: BurgerAction) -> None:
        kind = action.kind
        nc = self.num_colours
        mine = seat * nc
        cubes, bag = state.cubes, state.bag
        if kind == TAKE:
            state.pool[action.a] -= 1
            cubes[mine + action.a] += 1
            state.taken[seat] += 1
            self._next_pick(state, seat)
        elif kind == DISCARD_ONE:
            cubes[mine + action.a] -= 1
            bag[action.a] += 1  # discarded cubes go back into the bag (ruling BJ-6)
            self._start_discard(state)
        elif kind == PUT:
            cubes[mine + action.a] -= 1
            state.aside[action.a] += 1
        elif kind == DRAW:
            count = sum(state.aside)
            for colour in range(nc):
                bag[colour] += state.aside[colour]
                state.aside[colour] = 0
            for _ in range(count):
                cubes[mine + self._draw(state)] += 1
            state.phase = TRADE
        elif kind == END:
            score = self.points(state, seat)
            state.score[seat] = score
            if score >= self.win:
                state.winner = seat
                state.phase = OVER
                state.acting = ()
            else:
                self._start_discard(state)
        elif kind == TRADE3:
            cubes[mine + action.a] -= 3
            bag[action.a] += 3
            bag[action.b] -= 1
            cubes[mine + action.b] += 1
        elif kind in _ABILITY_OF:
            state.used |= 1 << _ABILITY_OF[kind]
            if kind == REDRAW_START:
                state.phase = REDRAW
            elif kind == EXTRA:
                cubes[mine + self._draw(state)] += 1
            else:
                if kind == SWAP_TWO:
                    for colour in (action.a, action.b):
                        cubes[mine + colour] -= 1
                        bag[colour] += 1
                elif kind == SWAP_ONE:
                    cubes[mine + action.a] -= 1
                    bag[action.a] += 1
                bag[action.c] -= 1
                cubes[mine + action.c] += 1
        else:
            self._build(state, seat, action)

    def _build(self, state: BurgerState, seat: int, action: BurgerAction) -> None:
        kind = action.kind
        side = self.sides[seat]
        nc, nb = self.num_colours, self.num_bistros
        state.phase = BUILD
        if kind in (PUB_BOTH, PUB_STEAL, PUB_ADVANCE):
            self._pay(state, seat, side.publicity_cost)
            if kind != PUB_ADVANCE:
                theirs = (1 - seat) * nc + action.a
                state.cubes[theirs] -= 1
                state.cubes[seat * nc + action.a] += 1
            if kind != PUB_STEAL:
                state.publicity[seat] += 1
            state.pub_buys += 1
        elif kind == BASIC:
            self._pay(state, seat, side.basic_cost)
            state.basics[seat] += 1  # the highest open space
        elif kind == DINER:
            self._pay(state, seat, side.diner_cost[action.a])
            state.basics[seat] -= 1  # the token comes from the lowest occupied space
            state.diners[seat * nc + action.a] = 1
        else:
            self._pay(state, seat, side.bistro_cost[action.b])
            state.diners[seat * nc + action.a] = 0
            state.bistros[seat * nb + action.b] = 1

    def _pay(self, state: BurgerState, seat: int, cost: tuple[int, ...]) -> None:
        """Pay a cost: the cubes go back into the bag."""
        base = seat * self.num_colours
        for colour, count in enumerate(cost):
            if count:
                state.cubes[base + colour] -= count
                state.bag[colour] += count

    # ------------------------------------------------------------------ the end

    def standings(self, state: BurgerState) -> tuple[float, ...]:
        """Victory points so far."""
        return (float(state.score[0]), float(state.score[1]))

    def outcome(self, state: BurgerState) -> Outcome:
        if state.phase != OVER:
            raise PotluckError(f"the game is not over: it is turn {state.turn}")
        scores = (float(state.score[0]), float(state.score[1]))
        names = [side.name for side in self.sides]
        if state.winner != NO_WINNER:
            w = state.winner
            keys: list[tuple[int, ...]] = [(1 if s == w else 0, state.score[s]) for s in (0, 1)]
            reason = f"Seat {w} ({names[w]}) scores {state.score[w]} VP and wins at once."
            result = Outcome.from_keys(scores, keys, reason)
            return result
        keys = [(state.score[s],) for s in (0, 1)]
        result = Outcome.from_keys(scores, keys, "")
        if len(result.winners) > 1:
            reason = (
                f"Nobody reached {self.win} VP in {state.turn} turns (the turn limit); "
                f"both have {state.score[0]} VP and share the win."
            )
        else:
            w = result.winners[0]
            reason = (
                f"Nobody reached {self.win} VP in {state.turn} turns (the turn limit); seat {w} "
                f"({names[w]}) wins with more VP ({state.score[w]})."
            )
        return Outcome(result.scores, result.winners, result.ranking, result.places, reason)

    def metrics(self, state: BurgerState) -> dict[str, float | int | str]:
        """Turns played, and what the winner (or seat 0 on a shared win) built."""
        outcome = self.outcome(state)
        w = outcome.winners[0]
        nc, nb = self.num_colours, self.num_bistros
        side = self.sides[w]
        result: dict[str, float | int | str] = {
            "turns": state.turn,
            "winner_side": side.name if len(outcome.winners) == 1 else "shared",
            "ended_by": "points" if state.winner != NO_WINNER else "turn_limit",
            # The same as a number, so that a simulation's mean is the share of games won
            # on points rather than stopped by the turn limit.
            "won_on_points": 1 if state.winner != NO_WINNER else 0,
            "burger_won": 1 if outcome.winners == (0,) else 0,
            "winner_publicity": state.publicity[w],
            "winner_basics": state.basics[w],
            "winner_diners": sum(state.diners[w * nc : w * nc + nc]),
            "winner_bistros": sum(state.bistros[w * nb : w * nb + nb]),
            "loser_score": min(state.score),
        }
        for k in range(nb):
            result[f"winner_bistro_{k + 1}"] = state.bistros[w * nb + k]
        return result

    def seat_metrics(self, state: BurgerState, seat: int) -> dict[str, float | int]:
        """What ``seat``'s side built, for the lab's "what goes with winning" tables.

        ``diner:<colour>`` and ``bistro:<name>`` are 1 when built; ``basics``,
        ``publicity`` (steps on the track) and ``score`` are the final counts.
        """
        nc, nb = self.num_colours, self.num_bistros
        side = self.sides[seat]
        found: dict[str, float | int] = {
            f"diner:{self.colours[c]}": state.diners[seat * nc + c] for c in range(nc)
        }
        for k in range(nb):
            found[f"bistro:{side.bistro_names[k]}"] = state.bistros[seat * nb + k]
        found["basics"] = state.basics[seat]
        found["publicity"] = state.publicity[seat]
        found["score"] = state.score[seat]
        return found

    # ------------------------------------------------------------------ text and numbers

    def parse_action(self, state: BurgerState | None, seat: int, text: str) -> BurgerAction:
        return self._action_from_text(text)

    def _action_from_text(self, text: str) -> BurgerAction:
        if not isinstance(text, str):
            raise InvalidActionError(f"an action is text, not {type(text).__name__}")
        key = " ".join(text.strip().lower().split())
        action = self._by_text.get(key)
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

    def action_from_index(self, state: BurgerState | None, seat: int, index: int) -> BurgerAction:
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
        from potluck.games.burger_joint.encoding import features

        return features(self, num_players, options)

    def _encode_view(self, view: Mapping[str, Any], out: ObservationWriter) -> None:
        from potluck.games.burger_joint.encoding import encode

        encode(self, view, out)

    def _encode_state(
        self, state: BurgerState, seat: int, encoding: ObservationEncoding
    ) -> list[float]:
        from potluck.games.burger_joint.encoding import encode_state

        return encode_state(self, state, seat, encoding)

    def view(self, state: BurgerState, seat: int | None) -> dict[str, Any]:
        from potluck.games.burger_joint.view import build_view

        return build_view(self, state, seat)

    def redeal(self, state: BurgerState, seat: int, rng: random.Random) -> BurgerState:
        """The bag's order is all that is hidden: a new generator draws it anew."""
        twin = state.clone()
        twin.rng = random.Random(rng.getrandbits(64))
        return twin

    def invariants(self, state: BurgerState) -> list[str]:
        """Cubes and tokens are conserved; scores and boards stay within the printed spaces."""
        from potluck.games.burger_joint.view import invariant_problems

        return invariant_problems(self, state)

    # ------------------------------------------------------------------ bots

    def bots(self) -> dict[str, Callable[[], Bot]]:
        from potluck.games.burger_joint.bots import GreedyBot

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
