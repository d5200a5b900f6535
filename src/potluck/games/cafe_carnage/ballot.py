"""Step 2 of a round, *Secret Ballot*: everyone plays one action card from their hand.

Each hand holds counts of (Split the Bill Evenly, Each Pay Separately, RUN!)
cards, ``state.hands[3 * seat + card]``; the card played waits face down in
``state.ballots`` until *Check, Please!* (check_please.py) reveals it.

    >>> import potluck
    >>> game = potluck.load_game("cafe-carnage")
    >>> state = game.new_game(4, seed=1)
    >>> state.hands[:3], [str(action) for action in game.hand_choices((2, 0, 1))[0]]
    ([2, 2, 1], ['split', 'run'])
"""

from __future__ import annotations

from potluck.games.cafe_carnage.actions import CafeAction
from potluck.games.cafe_carnage.state import BALLOT, CARD_TITLES, RUN, CafeState
from potluck.games.cafe_carnage.tables import CafeTables, Choices


def ballot_choices(game: CafeTables, state: CafeState) -> list[Choices]:
    """Per seat, the cards it may play from its hand now (``CafeTables.hand_choices``)."""
    hands, by_held = state.hands, game.hand_table
    found: list[Choices] = []
    for i in range(0, 3 * state.num_players, 3):
        # Which of the three cards the seat holds, as a number (``hand_table``'s index).
        held = (1 if hands[i] else 0) | (2 if hands[i + 1] else 0) | (4 if hands[i + 2] else 0)
        found.append(by_held[held])
    return found


def start_ballot(game: CafeTables, state: CafeState) -> None:
    """Orders are taken: everyone now chooses an action card at once."""
    state.phase = BALLOT
    state.menus = [()] * state.num_players
    state.choices = ballot_choices(game, state)
    state.acting = game.everyone[state.num_players]


def why_no_card(state: CafeState, seat: int, action: CafeAction) -> str:
    """Why ``seat`` may not play ``action`` in the ballot (an order, or a card it lacks)."""
    if action.card < 0:
        return "Orders are taken: now play an action card (split, separately or run)."
    title = CARD_TITLES[action.card]
    if action.card == RUN:
        if state.fled[seat]:
            fled_round = next(
                r.number for r in state.log if seat in r.runners and seat not in r.caught
            )
            return f"You have no '{title}' card: you ran away in round {fled_round} and got away."
        return f"You have no '{title}' card in your hand."
    return f"You have no '{title}' card left: you have played both of yours."
