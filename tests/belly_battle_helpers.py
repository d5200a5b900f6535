"""Belly Battle test helpers shared by tests/test_belly_battle*.py.

Scenario tests set a table up by hand (owners, cash, positions) and then land a
seat on a space with ``land``; dice are fixed with ``FixedDice``.
"""

from __future__ import annotations

import random

import potluck
from potluck.games.belly_battle import BellyBattle, BellyState, spaces, turn
from potluck.games.belly_battle.ownership import gain, to_bank
from potluck.games.belly_battle.state import (
    AFTER_WINDOW,
    NOBODY,
    OVER,
    WINDOW,
)

_LOADED = potluck.load_game("belly-battle")
assert isinstance(_LOADED, BellyBattle)
REAL: BellyBattle = _LOADED


class PausedBellyBattle(BellyBattle):
    """Stops when the turn (and its upgrade window) is over, so that a scenario sees
    only what it set up and not the next player's roll."""

    def _end_turn(self, state: BellyState) -> None:
        state.phase = OVER
        state.acting = ()


GAME = PausedBellyBattle()


class FixedDice(random.Random):
    """A generator whose dice show the given faces, in order."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def random(self) -> float:
        if self.faces:
            return (self.faces.pop(0) - 1) / 6 + 0.01
        return 0.5


def card(name: str) -> int:
    return GAME.slugs.index(name)


def space(kind_or_card: str, nth: int = 0) -> int:
    """The board space of a card (by notation) or the ``nth`` special space of a kind."""
    if kind_or_card in GAME.slugs:
        return GAME.space_of[card(kind_or_card)]
    spaces = [i for i in range(GAME.board_size) if GAME.space_name(i) == kind_or_card]
    return spaces[nth]


def table(num_players: int = 3, seed: int = 0) -> BellyState:
    """A fresh game with every card back at the bank, at seat 0's turn, before landing."""
    state = GAME.new_game(num_players, seed=seed)
    for c in range(GAME.num_cards):
        to_bank(state, c)
    state.cash = [1000] * num_players
    state.queue = []
    state.turn = 0
    state.pos = [0] * num_players
    state.holders = [NOBODY] * 4
    state.cards_changed()  # the cards were set by hand: a new ``cards_token``
    state.bank_net = 0
    return state


def give(state: BellyState, seat: int, *names: str, chefs: int = 0, star: int = 0) -> None:
    for name in names:
        c = card(name)
        gain(state, seat, c)
        state.chefs[c] = chefs
        state.star[c] = star
        state.cards_changed()


def land(state: BellyState, seat: int, where: int) -> None:
    """Put ``seat`` on ``where`` as the mover and resolve the space."""
    state.turn = seat
    state.pos[seat] = where
    state.after = AFTER_WINDOW
    state.phase = WINDOW
    state.acting = (seat,)
    if not spaces.land(GAME, state):
        turn.settle(GAME, state)


def play(state: BellyState, seat: int, text: str) -> None:
    GAME.step(state, seat, text)
