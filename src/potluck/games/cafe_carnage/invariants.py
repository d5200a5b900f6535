"""What every Café Carnage state keeps true: ``from_json`` refuses a save that breaks it.

Structure first (lengths, whole numbers, dishes of the right course, seats in
range), then the rules' bookkeeping (cards conserved, hands possible, money never
negative, who is still to choose), so a hand-edited save is refused with a
sentence naming the problem rather than crashing later in a verb.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from potluck.games.cafe_carnage.schema import COURSES
from potluck.games.cafe_carnage.state import (
    BALLOT,
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
from potluck.games.cafe_carnage.tables import CafeTables


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole_list(name: str, values: Any, length: int | None = None) -> list[str]:
    if not isinstance(values, (list, tuple)):
        return [f"{name} is not a list"]
    if length is not None and len(values) != length:
        return [f"{name} has {len(values)} entries, not {length}"]
    if not all(_whole(v) for v in values):
        return [f"{name} holds something other than whole numbers: {list(values)}"]
    return []


def invariant_problems(game: CafeTables, state: CafeState) -> list[str]:
    """Every problem found in ``state``, structure first; ``[]`` when all is well."""
    problems = _structure_problems(game, state)
    if problems:
        return problems
    problems = _dish_problems(game, state) + _log_problems(game, state)
    if problems:
        return problems
    return _bookkeeping_problems(game, state)


def _structure_problems(game: CafeTables, state: CafeState) -> list[str]:
    n = state.num_players
    problems: list[str] = []
    if not _whole(state.round) or not 0 <= state.round <= game.rounds:
        problems.append(f"round {state.round!r} is not between 0 and {game.rounds}")
    if not _whole(state.phase) or not STARTER <= state.phase <= OVER:
        problems.append(f"phase {state.phase!r} is not one of 0 to {OVER}")
    for name in ("decks", "discards", "consumed"):
        piles = getattr(state, name)
        if not isinstance(piles, list) or len(piles) != 3:
            problems.append(f"{name} must hold one pile per course")
        else:
            for course, pile in enumerate(piles):
                problems += _whole_list(f"the {COURSES[course]} {name[:-1]}", pile)
    if not isinstance(state.menus, list) or len(state.menus) != n:
        problems.append(f"menus must hold one menu per seat ({n})")
    else:
        for seat, menu in enumerate(state.menus):
            problems += _whole_list(f"seat {seat}'s menu", menu)
    problems += _whole_list("orders", state.orders, 3 * n)
    problems += _whole_list("ballots", state.ballots, n)
    problems += _whole_list("hands", state.hands, 3 * n)
    problems += _whole_list("money", state.money, n)
    problems += _whole_list("points", state.points, n)
    problems += _whole_list("eaten", state.eaten, n)
    for name in ("iou", "fled"):
        flags = getattr(state, name)
        if not isinstance(flags, list) or len(flags) != n:
            problems.append(f"{name} must hold one flag per seat ({n})")
    log: object = state.log  # a save may hold anything
    if not isinstance(log, tuple):
        problems.append("the log is not a list of rounds")
    return problems


def _dish_problems(game: CafeTables, state: CafeState) -> list[str]:
    """Every dish index names a dish of the course it is filed under."""
    problems: list[str] = []
    course_of = game.course_of

    def misfiled(dishes: Sequence[int], course: int) -> list[int]:
        return [d for d in dishes if not 0 <= d < len(course_of) or course_of[d] != course]

    for name in ("decks", "discards", "consumed"):
        for course, pile in enumerate(getattr(state, name)):
            wrong = misfiled(pile, course)
            if wrong:
                problems.append(f"the {COURSES[course]} {name[:-1]} holds unknown dishes {wrong}")
    for seat in range(state.num_players):
        for course in range(3):
            dish = state.orders[3 * seat + course]
            if dish != NO_DISH and misfiled([dish], course):
                problems.append(f"seat {seat}'s {COURSES[course]} order {dish} is no such dish")
    menu_course = state.phase if state.phase < BALLOT else None
    for seat, menu in enumerate(state.menus):
        if menu_course is None:
            if menu:
                problems.append(f"seat {seat} holds a menu outside the ordering phases")
        elif len(menu) != game.menu_size or misfiled(menu, menu_course):
            problems.append(
                f"seat {seat}'s menu {list(menu)} is not {game.menu_size} "
                f"{COURSES[menu_course]} dishes"
            )
    if any(not 0 <= mask < 1 << len(course_of) for mask in state.eaten):
        problems.append(f"eaten {state.eaten} names dishes that do not exist")
    return problems


def _log_problems(game: CafeTables, state: CafeState) -> list[str]:
    n = state.num_players
    problems: list[str] = []
    if len(state.log) != state.round:
        return [f"the log holds {len(state.log)} rounds, but it is round {state.round + 1}"]
    records: tuple[object, ...] = state.log  # a save may hold anything
    for number, record in enumerate(records, 1):
        at = f"round {number} of the log"
        if not isinstance(record, RoundRecord):
            problems.append(f"{at} is not a round record")
            continue
        for name in ("number", "runners_bill", "split_votes", "separately_votes", "method"):
            value = getattr(record, name)
            if not _whole(value) or (name != "method" and value < 0):
                problems.append(f"{at}: {name} {value!r} is not a count")
        for name, length in (("orders", 3 * n), ("scored", n), ("ballots", n)):
            problems += _whole_list(f"{at}: {name}", getattr(record, name), length)
        for name in ("paid", "loans"):
            values = getattr(record, name)
            problems += _whole_list(f"{at}: {name}", values, n)
            if not problems and min(values) < 0:
                problems.append(f"{at}: {name} {list(values)} is negative")
        for name in ("runners", "caught"):
            problems += _whole_list(f"{at}: {name}", getattr(record, name))
        if problems:
            continue
        if record.number != number:
            problems.append(f"{at} is numbered {record.number}")
        if record.method not in (SPLIT, SEPARATELY, NO_CARD):
            problems.append(f"{at}: method {record.method} is no way to pay")
        if any(card not in (SPLIT, SEPARATELY, RUN) for card in record.ballots):
            problems.append(f"{at}: ballots {list(record.ballots)} hold unknown cards")
        runners = [s for s in range(n) if record.ballots[s] == RUN]
        if list(record.runners) != runners or not set(record.caught) <= set(runners):
            problems.append(
                f"{at}: runners {list(record.runners)} and caught do not fit the ballots"
            )
        wrong = [
            d
            for i, d in enumerate(record.orders)
            if not 0 <= d < len(game.course_of) or game.course_of[d] != i % 3
        ]
        if wrong:
            problems.append(f"{at}: orders hold unknown dishes {wrong}")
    return problems


def _bookkeeping_problems(game: CafeTables, state: CafeState) -> list[str]:
    problems: list[str] = []
    n = state.num_players
    over = state.round == game.rounds
    if over != (state.phase == OVER):
        problems.append(
            f"phase {state.phase} does not fit round {state.round + 1} of {game.rounds}"
        )
    for course in range(3):
        cards = state.decks[course] + state.discards[course] + state.consumed[course]
        if course == state.phase:
            for menu in state.menus:
                cards.extend(menu)
        elif course < state.phase <= BALLOT:
            cards.extend(state.orders[3 * s + course] for s in range(n))
        if sorted(cards) != sorted(game.full_decks[course]):
            problems.append(f"{COURSES[course]} cards are not conserved")
    for s in range(n):
        hand = state.hands[3 * s : 3 * s + 3]
        if min(hand) < 0 or any(
            held > most for held, most in zip(hand, STARTING_HAND, strict=True)
        ):
            problems.append(f"seat {s} holds an impossible hand {hand}")
        if state.money[s] < 0:
            problems.append(f"seat {s} has negative money")
        if state.fled[s] and hand[RUN]:
            problems.append(f"seat {s} fled but still holds its Run! card")
        if state.ballots[s] not in (NO_CARD, SPLIT, SEPARATELY, RUN):
            problems.append(f"seat {s}'s ballot {state.ballots[s]} is no action card")
            continue
        problems += _hand_history_problems(state, s, hand)
    problems += _choice_problems(state)
    return problems


def _hand_history_problems(state: CafeState, seat: int, hand: list[int]) -> list[str]:
    """A hand is the starting hand less the cards played (a caught runner's RUN! comes back)."""
    played = [record.ballots[seat] for record in state.log]
    if state.ballots[seat] != NO_CARD:
        played.append(state.ballots[seat])
    escaped = any(seat in r.runners and seat not in r.caught for r in state.log)
    problems = [
        f"seat {seat} holds {hand[card]} {name} cards after playing {played.count(card)} of its "
        f"{STARTING_HAND[card]}"
        for card, name in ((SPLIT, "Split"), (SEPARATELY, "Separately"))
        if hand[card] + played.count(card) != STARTING_HAND[card]
    ]
    running_now = state.ballots[seat] == RUN
    if escaped != state.fled[seat] or hand[RUN] != (0 if escaped or running_now else 1):
        problems.append(f"seat {seat}'s RUN! card does not fit its escapes")
    return problems


def _choice_problems(state: CafeState) -> list[str]:
    """Who is still to choose fits what has been chosen."""
    n, phase = state.num_players, state.phase
    if phase == OVER:
        return [] if not state.acting else [f"the game is over but seats {state.acting} act"]
    problems: list[str] = []
    if not state.acting:
        problems.append("nobody is to act, yet the game is not over")
    for s in range(n):
        if phase < BALLOT:
            chosen = [state.orders[3 * s + c] != NO_DISH for c in range(3)]
            expected = [c < phase or (c == phase and s not in state.acting) for c in range(3)]
            if chosen != expected:
                problems.append(f"seat {s}'s orders {state.orders[3 * s : 3 * s + 3]} do not fit")
            elif chosen[phase] and state.orders[3 * s + phase] not in state.menus[s]:
                problems.append(f"seat {s} ordered a dish that was not on its menu")
        else:
            if NO_DISH in state.orders[3 * s : 3 * s + 3]:
                problems.append(f"seat {s} has not ordered all three courses")
            if (state.ballots[s] == NO_CARD) != (s in state.acting):
                problems.append(f"seat {s}'s ballot does not fit whether it is to act")
        if phase < BALLOT and state.ballots[s] != NO_CARD:
            problems.append(f"seat {s} played a card before the ballot")
    return problems
