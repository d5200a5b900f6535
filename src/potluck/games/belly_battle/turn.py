"""On your turn: roll, move, land, pay, then the upgrade window, then the next
player (rulebook, On Your Turn and Chefs and Star's "at the end of any player's
turn"; rulings BB-6, BB-7 and BB-13).

``start_turn`` returns the mover's one-round cards, rolls two dice, moves the pawn
(charging every corner cafe passed) and lands. ``settle`` pays what is owed and
goes on: to the landing, then to the upgrade window, in which each owner in seat
order from the mover may make up to three deals; ``end_turn`` passes the dice on.

    >>> import potluck
    >>> g = potluck.load_game("belly-battle")
    >>> s = g.new_game(2, seed=1)
    >>> s.round, sum(s.dice) > 1
    (0, True)
"""

from __future__ import annotations

from typing import Final

from potluck.engine.chance import uniform
from potluck.games.belly_battle.bankruptcy import pay_queue
from potluck.games.belly_battle.ownership import owns_anything
from potluck.games.belly_battle.spaces import land
from potluck.games.belly_battle.state import (
    AFTER_LAND,
    AFTER_WINDOW,
    ALONE,
    NEXT_TURN,
    NOBODY,
    OVER,
    ROUND_CARD_NAMES,
    WINDOW,
    BellyState,
)
from potluck.games.belly_battle.tables import MAX_SEATS, WINDOW_CAP, BellyTables

#: The seats in turn order from each mover, by table size (the window's order), the
#: last first, as ``state.window_waiting`` holds them.
_WINDOW_WAITING: Final = tuple(
    tuple(tuple((mover + k) % n for k in range(n - 1, -1, -1)) for mover in range(n))
    for n in range(MAX_SEATS + 1)
)


#: Every roll of two dice as the tuple ``state.dice`` holds, ``_ROLLS[one][two]``: shared,
#: not made again at every turn.
_ROLLS: Final = tuple(tuple((one, two) for two in range(7)) for one in range(7))


def start_turn(game: BellyTables, state: BellyState) -> None:
    """Return one-round cards, roll two dice, move, pay passed cafes, then land."""
    mover = state.turn
    holders = state.holders
    # A plain loop over the four slots, not ``mover in holders`` first: compiled, that
    # test compares boxed numbers one by one through the generic comparison.
    for slot in range(len(holders)):
        if holders[slot] == mover:
            holders[slot] = NOBODY
            state.cards_changed()
            state.say("Seat {} returns the {} card.", mover, ROUND_CARD_NAMES[slot])
    state.tunnel_blocked = state.tunnel_used[mover]
    state.tunnel_used[mover] = False
    rng = state.rng
    # ``rng.random()`` each, drawn without looking the method up (``chance.uniform``).
    one, two = int(uniform(rng) * 6) + 1, int(uniform(rng) * 6) + 1
    state.dice = _ROLLS[one][two]
    start = state.pos[mover]
    size = game.board_size
    cafe_fee = game.cafe_fee
    for card in game.cafes_passed[start][one + two]:
        if state.owner[card] != mover and cafe_fee:
            state.queue += (mover, state.owner[card], cafe_fee)
            state.say("Seat {} passes {}: fee {}.", mover, game.names[card], cafe_fee)
    state.pos[mover] = (start + one + two) % size
    state.say(
        "Round {}: seat {} rolls {}+{} and lands on {}.",
        state.round + 1,
        mover,
        one,
        two,
        game.space_titles[state.pos[mover]],
    )
    state.after = AFTER_LAND
    settle(game, state)


def settle(game: BellyTables, state: BellyState) -> None:
    """Pay what is owed (a debt or a bankruptcy stops here), then go on with the turn:
    land on the space moved to, or open the upgrade window once the landing is done."""
    while pay_queue(state):
        if state.after != AFTER_LAND:
            open_window(state)
            return
        state.after = AFTER_WINDOW
        if land(game, state):
            return


def run_turns(game: BellyTables, state: BellyState) -> None:
    """Play the turns that need no decision, one after another, until someone must act.

    A loop rather than recursion, so that no run of them can exhaust the stack."""
    while state.phase == NEXT_TURN:
        start_turn(game, state)


# ---------------------------------------------------------------- the upgrade window


def open_window(state: BellyState) -> None:
    """After each turn every seat, in turn order from the mover, may deal (ruling BB-13)."""
    state.window_waiting = list(_WINDOW_WAITING[state.num_players][state.turn])
    next_in_window(state)


def next_in_window(state: BellyState) -> None:
    """The next seat that owns a card gets its window turn; after the last, the turn ends."""
    waiting = state.window_waiting
    while waiting:
        seat = waiting.pop()
        if owns_anything(state, seat):
            state.phase = WINDOW
            state.acting = ALONE[seat]
            state.window_actions = 0
            state.window_offered = False
            return
    end_turn(state)


def after_window_deal(state: BellyState, seat: int) -> None:
    """After a deal in the window: the window moves on at the cap or when ``seat`` owns
    nothing left."""
    if state.window_actions >= WINDOW_CAP or not owns_anything(state, seat):
        next_in_window(state)


def end_turn(state: BellyState) -> None:
    """The player to the left goes next; the round-limit ends the game."""
    n = state.num_players
    state.turn = (state.turn + 1) % n
    if state.turn == 0:
        state.round += 1
        if state.round >= state.options["max_rounds"]:
            state.phase = OVER
            state.acting = ()
            state.say("The {}-round limit is reached: the game ends.", state.round)
            return
    state.phase = NEXT_TURN  # ``run_turns`` starts the turn
