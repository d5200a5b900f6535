"""Belle of the Ball's actions in words, for buttons and menus (``Game.describe_action``).

``invite 3 to group 2`` is what a player types; the sentence names the guest, what
they show, the chips the invitation costs and the chips it collects.
"""

from __future__ import annotations

from potluck.games.belle_of_the_ball.actions import INVITE, TAKE_BELLE, BelleAction
from potluck.games.belle_of_the_ball.invite import skip_cost
from potluck.games.belle_of_the_ball.state import BELLE_BASE, BelleState
from potluck.games.belle_of_the_ball.tables import BelleTables


def _chips(n: int) -> str:
    return f"{n} chip" + ("" if n == 1 else "s")


def describe(game: BelleTables, state: BelleState, seat: int, action: BelleAction) -> str:
    """A player-facing sentence for ``action``.

    >>> import potluck
    >>> game = potluck.load_game("belle-of-the-ball")
    >>> state = game.new_game(3, seed=1)
    >>> game.describe_action(state, 0, game.parse_action(state, 0, "invite 1 to group 1"))
    'Invite Colonel Ophelia Ottersby (globes, books, roses) into group 1 (free)'
    """
    if action.kind in (INVITE, TAKE_BELLE):
        if not 0 <= action.pos < len(state.line):
            return action.text
        card = state.line[action.pos]
        cost = skip_cost(state, action.pos)
        collect = state.line_chips[action.pos]
        terms = f"pay {_chips(cost)}" if cost else "free"
        if collect:
            terms += f", collect {_chips(collect)}"
        if action.kind == TAKE_BELLE:
            name = game.belle_names[card - BELLE_BASE]
            return f"Take {name} from the line into your hand ({terms})"
        shows = ", ".join(game.interest_names[i] for i in game.guest_interests[card])
        return f"Invite {game.guest_names[card]} ({shows}) into group {action.group + 1} ({terms})"
    name = game.belle_names[action.belle]
    if action.seat >= 0 and action.group >= 0:
        return f"Play {name} on seat {action.seat}'s group {action.group + 1}"
    if action.seat >= 0:
        return f"Play {name} on seat {action.seat}"
    if action.dest >= 0:
        return (
            f"Play {name}: move the last guest of group {action.group + 1} to group "
            f"{action.dest + 1}"
        )
    return f"Play {name}"
