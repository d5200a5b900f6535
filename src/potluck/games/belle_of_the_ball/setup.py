"""Setup and Start of Round: the decks, the Belle hands, the chips and each round's line.

*Setup* discards twelve random guests unseen, deals three Belles to each player and
gives everyone five chips; in the designer's variant (the rulebook's NOTES) the Belles
are shuffled into the guest deck instead. *Start of Round* deals three guests per player
face up in a line.

    >>> import potluck
    >>> game = potluck.load_game("belle-of-the-ball")
    >>> state = new_game(game, 3, seed=7, options={"belles_in_guest_deck": False})
    >>> len(state.line), state.chips, [len(hand) for hand in state.hands]
    (9, [5, 5, 5], [3, 3, 3])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from potluck.engine.chance import shuffle
from potluck.games.belle_of_the_ball.state import BELLE_BASE, MAX_SEATS, SLOTS, BelleState
from potluck.games.belle_of_the_ball.tables import BelleTables


def new_game(
    game: BelleTables, num_players: int, seed: int, options: Mapping[str, Any]
) -> BelleState:
    """Setup: discard twelve random guests, deal three Belles each, five chips each."""
    state = BelleState(num_players, seed, options)
    rng = state.rng
    guests = list(range(len(game.guest_names)))
    shuffle(rng, guests)
    state.boxed = sorted(guests[: game.setup_discard])
    state.deck = guests[game.setup_discard :]
    belles = list(game.belle_cards)
    shuffle(rng, belles)
    state.hands = [[] for _ in range(num_players)]
    if options["belles_in_guest_deck"]:
        # The designer's proposal: one deck of guests and Belles; Belles reach a
        # hand only by being invited from the line (ruling BB-12).
        state.deck += [BELLE_BASE + kind for kind in belles]
        shuffle(rng, state.deck)
        state.belle_deck = []
    else:
        for hand in state.hands:
            for _ in range(game.hand_size):
                hand.append(belles.pop())
            hand.sort()
        state.belle_deck = belles
    state.belle_discard = []
    state.guest_discard = []
    state.line, state.line_chips = [], []
    state.parties = [[] for _ in range(num_players * SLOTS)]
    state.chips = [game.starting_chips] * num_players
    state.start = 0  # the host: seat 0
    state.turn = 0
    state.round = 0
    state.played_now, state.invites_left, state.effects = -1, 0, 0
    state.minted = 0
    state.groups_scored = [0] * num_players
    state.group_chips = [0] * num_players
    state.skip_chips = [0] * num_players
    state.belles_invited = [0] * num_players
    state.belle_skip_chips = [0] * num_players
    state.belles_played = [0] * (num_players * game.kinds)
    start_round(game, state)
    return state


def line_size(game: BelleTables, num_players: int) -> int:
    """Start of Round: three cards per player in the line."""
    return game.line_per_player * num_players


def start_round(game: BelleTables, state: BelleState) -> None:
    """Start of Round: deal three cards per player face up in a line, or end the game
    when the deck cannot make a full line (ruling BB-7)."""
    need = game.line_per_player * state.num_players
    if len(state.deck) < need:
        state.acting = ()
        return
    state.round += 1
    deck = state.deck
    state.line = [deck.pop() for _ in range(need)]
    state.line_chips = [0] * need
    begin_turn(state, state.start)


#: ``state.acting`` for each seat to act, shared (a tuple is never changed).
_ACTING: Final[tuple[tuple[int, ...], ...]] = tuple((seat,) for seat in range(MAX_SEATS))


def begin_turn(state: BelleState, seat: int) -> None:
    """On Your Turn: ``seat`` may play a Belle, then invites once."""
    state.turn = seat
    state.acting = _ACTING[seat]
    state.played_now = -1  # -1: a Belle may still be played; -2: the chance has passed
    state.invites_left = 1
    state.effects = 0
