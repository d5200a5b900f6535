"""End of Turn and End of Round: the next player, Belles drawn back up, the Start token.

*End of Turn*: score and discard full groups (scoring.py); the player to the left is
next, until the line is empty. *End of Round*: each player draws back up to three
Belles (the discard reshuffled when the deck runs out), the fewest chips takes the
Start Player token, and a new round starts while the guest deck lasts.
"""

from __future__ import annotations

from potluck.engine.chance import shuffle
from potluck.games.belle_of_the_ball.scoring import score_full_groups
from potluck.games.belle_of_the_ball.setup import begin_turn, start_round
from potluck.games.belle_of_the_ball.state import BelleState
from potluck.games.belle_of_the_ball.tables import BelleTables


def end_turn(game: BelleTables, state: BelleState, seat: int) -> None:
    """Step 3, Score every full group; End of Turn: discard them; the left player is next."""
    score_full_groups(game, state, seat)
    if state.line:
        begin_turn(state, (seat + 1) % state.num_players)
    else:
        end_round(game, state)


def end_round(game: BelleTables, state: BelleState) -> None:
    """End of Round: draw back up to three Belles; fewest chips takes the Start token."""
    n = state.num_players
    state.played_now, state.invites_left, state.effects = -1, 0, 0
    if not state.variant:
        for step in range(n):
            hand = state.hands[(state.start + step) % n]
            while len(hand) < game.hand_size:
                if not state.belle_deck:
                    if not state.belle_discard:
                        break  # every Belle is in a hand (ruling BB-9)
                    state.belle_deck = state.belle_discard
                    state.belle_discard = []
                    shuffle(state.rng, state.belle_deck)
                hand.append(state.belle_deck.pop())
            hand.sort()
    state.start = next_start(state.chips, state.start)
    start_round(game, state)


def next_start(chips: list[int], holder: int) -> int:
    """Who takes the Start Player token: the fewest chips; on a tie the holder keeps it,
    else the tied player first to the holder's left (ruling BB-6).

        >>> next_start([4, 2, 2, 9], holder=0)
        1
        >>> next_start([4, 2, 2, 9], holder=2)
        2
    """
    n = len(chips)
    fewest = chips[0]
    for count in chips:  # min(chips), without a call through the builtins
        if count < fewest:
            fewest = count
    for step in range(n):
        seat = (holder + step) % n
        if chips[seat] == fewest:
            return seat
    raise AssertionError("the fewest chips are someone's")  # pragma: no cover
