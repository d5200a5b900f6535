"""Step 1 of a round, *Take Orders*: a menu of each course in turn, one dish chosen.

(i) Deal each player ``menu_size`` cards of the course; everyone secretly keeps
one, the rest go face down to the course's discard pile. Starters, mains, then
desserts; after the dessert the *Secret Ballot* (ballot.py) begins. In the
*Advanced Variant* a dish eaten earlier in the week may be ordered only when
every dish on the menu was.

    >>> import potluck
    >>> game = potluck.load_game("cafe-carnage")
    >>> state = game.new_game(4, seed=1)
    >>> [len(menu) for menu in state.menus], state.acting
    ([3, 3, 3, 3], (0, 1, 2, 3))
"""

from __future__ import annotations

from potluck.games.cafe_carnage.actions import CafeAction
from potluck.games.cafe_carnage.ballot import start_ballot
from potluck.games.cafe_carnage.schema import COURSES
from potluck.games.cafe_carnage.state import DESSERT, CafeState
from potluck.games.cafe_carnage.tables import CafeTables, Choices


def deal(game: CafeTables, state: CafeState, course: int) -> None:
    """Take Orders (i): deal each player a menu of ``menu_size`` cards of ``course``."""
    deck = state.decks[course]
    n, size = state.num_players, game.menu_size
    count = n * size
    if len(deck) < count:
        # Ruling CC-4: eaten dishes are shuffled back when a deck runs dry.
        deck.extend(state.consumed[course])
        state.consumed[course].clear()
    # Drawing at random from an unordered deck is dealing from a shuffled one: each
    # seat's menu in turn, card by card. (Plain loops: compiled, they cost less than
    # the C calls of ``zip`` and ``map`` over bound methods that served pure Python.)
    # (The generator's ``random`` is looked up once, not once a card; the cards left are
    # counted as a float, which is what ``random() * left`` makes of a whole number.)
    # Each menu's choices are worked out as it is dealt (they draw nothing).
    draw, left = state.rng.random, float(len(deck))
    eaten = state.eaten if state.options["no_repeat_dishes"] else None
    menus: list[tuple[int, ...]] = []
    choices: list[Choices] = []
    for seat in range(n):
        dealt: tuple[int, ...]
        if size == 3:
            # The usual menu, drawn card by card straight into its tuple (no list made:
            # the same draws, the cards left counted down by whole floats exactly).
            first = deck.pop(int(draw() * left))
            second = deck.pop(int(draw() * (left - 1.0)))
            third = deck.pop(int(draw() * (left - 2.0)))
            left -= 3.0
            dealt = (first, second, third)
        else:
            menu: list[int] = []
            for _ in range(size):
                menu.append(deck.pop(int(draw() * left)))
                left -= 1.0
            dealt = tuple(menu)
        menus.append(dealt)
        choices.append(menu_choices(game, dealt, 0 if eaten is None else eaten[seat]))
    state.menus = menus
    state.choices = choices
    state.acting = game.everyone[n]


def menu_choices(game: CafeTables, menu: tuple[int, ...], eaten: int = 0) -> Choices:
    """The dishes one may order from ``menu``: as actions, and as a bit mask of their indices.

    In the advanced variant a dish eaten earlier in the week (a bit of
    ``eaten``) may be ordered only when every dish on the menu was.

    Each distinct dish once, in menu order, found by the mask itself (plain loops: this
    runs for every menu dealt; a memo of menus cost more than the work, its look-ups of
    fresh tuples being a tenth of a random step, issue 36).
    """
    if len(menu) == 3:
        # The usual menu (three cards): three different dishes, none eaten before, may all
        # be ordered, in menu order; what the loops below find, without their lists
        # (``tests/test_cafe_fast_paths.py`` holds the two equal).
        first, second, third = menu[0], menu[1], menu[2]
        if first != second and first != third and second != third:
            mask = (1 << first) | (1 << second) | (1 << third)
            if not eaten & mask:
                actions = game.dish_actions
                return (actions[first], actions[second], actions[third]), mask
    mask = 0
    fresh = 0
    for dish in menu:
        bit = 1 << dish
        mask |= bit
        if not eaten & bit:
            fresh |= bit
    if eaten and fresh:
        mask = fresh
    actions = game.dish_actions
    chosen: list[CafeAction] = []
    left = mask
    for dish in menu:
        bit = 1 << dish
        if left & bit:
            chosen.append(actions[dish])
            left ^= bit
    return tuple(chosen), mask


def order_choices(game: CafeTables, state: CafeState) -> list[Choices]:
    """Per seat, the dishes it may order from its menu now."""
    n = state.num_players
    eaten = state.eaten if state.options["no_repeat_dishes"] else [0] * n
    return [menu_choices(game, menu, eaten[s]) for s, menu in enumerate(state.menus)]


def orderable(game: CafeTables, state: CafeState, seat: int) -> list[int]:
    """The distinct dishes ``seat`` may order from its menu now."""
    eaten = state.eaten[seat] if state.options["no_repeat_dishes"] else 0
    return [action.dish for action in menu_choices(game, state.menus[seat], eaten)[0]]


def advance_course(game: CafeTables, state: CafeState, course: int) -> None:
    """Everyone has chosen: unchosen menu cards go face down to the discard pile."""
    pile = state.discards[course]
    for menu in state.menus:
        pile += menu
    # Each seat's dish taken out, seats in order (indexed, not sliced: no list made).
    orders = state.orders
    for seat in range(state.num_players):
        pile.remove(orders[3 * seat + course])
    if course < DESSERT:
        state.phase = course + 1
        deal(game, state, course + 1)
    else:
        start_ballot(game, state)


def why_not_ordered(game: CafeTables, state: CafeState, seat: int, action: CafeAction) -> str:
    """Why ``seat`` may not order ``action`` now (a card, another course, not on its menu...)."""
    course = COURSES[state.phase]
    if action.dish < 0:
        return f"Orders are being taken: choose a {course} from your menu first."
    name = game.dish_names[action.dish]
    dish_course = COURSES[game.course_of[action.dish]]
    if dish_course != course:
        return f"{name} is a {dish_course}; you are choosing a {course} now."
    menu = ", ".join(game.dish_names[d] for d in dict.fromkeys(state.menus[seat]))
    if action.dish not in state.menus[seat]:
        return f"{name} is not on your {course} menu ({menu})."
    return (
        f"You already ate {name} this week, and your menu has dishes you have not "
        "eaten yet (advanced variant: no dish twice a week)."
    )
