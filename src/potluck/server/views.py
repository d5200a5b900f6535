"""What a seat is sent: its view, turn, decision and actions; and finished games' replays.

Built only from ``game.view``, ``to_act``, the seat's own legal actions with
``describe_action`` labels and the ``explain`` reasons for its other actions:
never the state, the RNG, a token or an invite.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from potluck.engine.action import Action
from potluck.engine.errors import PotluckError
from potluck.engine.sealed import SealedChoices
from potluck.server.live import LiveTable, TableError

#: How many of the latest moves a seat is sent (the table's "Recent moves").
RECENT_MOVES = 8

#: Reasons for illegal actions are sent with every view when a game has at most this
#: many distinct actions (for hover texts); larger games get them from ``/explain``.
MAX_EXPLAINED = 256


def payload(table: LiveTable, seat: int | None, now: float) -> dict[str, Any]:
    """What ``seat`` (``None``: a spectator) is sent at ``clock()`` time ``now``.

    ``decision`` is the number of the seat's next decision: a move must name it,
    so a move sent twice is taken once.
    """
    game, state = table.game, table.state
    to_act = list(game.to_act(state))
    body: dict[str, Any] = {
        "table": table.summary(),
        "seat": seat,
        "step": len(state.history),
        "revision": revision(table),
        "decision": None,
        "view": game.view(state, seat),
        "to_act": to_act,
        "legal": [],
        "illegal": {},
        "waiting": None,
        "outcome": game.outcome(state).to_json() if game.is_over(state) else None,
        "moves": recent_moves(table, seat),
    }
    if table.deadline is not None:
        body["table"]["seconds_left"] = max(0, round(table.deadline - now))
    if seat is None:
        return body
    body["decision"] = table.decisions[seat]
    place = table.seats[seat]
    if table.status != "running" or game.is_over(state):
        body["waiting"] = waiting(table)
    elif place.played_by_bot and place.kind == "human":
        body["waiting"] = f"The {place.bot} bot is playing for you."
    elif seat in to_act:
        body["legal"], body["illegal"] = choices(table, seat)
    else:
        body["waiting"] = waiting(table)
    return body


def revision(table: LiveTable) -> list[int]:
    """Which state of the table a payload shows: ``[moves, changes]``, the number of
    stored moves and of stored changes other than moves (``TableRow.changes``: joins,
    kicks, leaves, time-outs...), compared in that order. Both only grow and every
    change grows one, so a later state has a greater revision; both are counts of what
    the database holds, so every server process gives the same state the same one. A
    browser draws a payload only if its revision is not below the one it shows.

    Moves first: a process stores a move only onto the log as stored, so a payload's
    move count is never behind its own move; its count of other changes can lag until
    the next catch-up (a seat change undone elsewhere meanwhile), which then pushes.
    The step alone cannot order the lobby's joins (all at step 0) nor a leave.
    """
    return [len(table.state.history), table.changes]


def recent_moves(table: LiveTable, seat: int | None) -> list[dict[str, Any]]:
    """The latest moves, oldest first, as ``{seat, text}``: ``text`` says the move in words,
    or is ``None`` for another seat's part of a sealed choice (never shown, as in replays).
    """
    return [
        {"seat": actor, "text": None if secret and actor != seat else text}
        for actor, text, secret in table.moves[-RECENT_MOVES:]
    ]


def choices(table: LiveTable, seat: int) -> tuple[list[dict[str, str]], dict[str, str]]:
    """The seat's legal actions with labels, and why each other one is not legal:
    worked out once per decision (a move's answer and every push after it share them)."""
    game, state = table.game, table.state
    known = table.choices.get(seat)
    if known is not None and known[0] is state:
        return known[1], known[2]
    legal = game.legal_actions(state, seat)
    labelled = [
        {"action": str(action), "label": game.describe_action(state, seat, action)}
        for action in legal
    ]
    found = reasons(table, seat, legal)
    table.choices[seat] = (state, labelled, found)
    return labelled, found


def waiting(table: LiveTable) -> str:
    """What the table waits for, in a sentence."""
    if table.status == "open":
        return "Waiting for players to take the free seats."
    if table.status == "broken":
        return f"This table cannot go on: {table.problem}"
    if table.status == "expired":
        return "This table expired: nothing happened at it for too long."
    if table.status == "closed":
        return "Its creator closed this table."
    if table.over:
        return "The game is over."
    names = [seat_name(table, s) for s in table.game.to_act(table.state)]
    return f"Waiting for {', '.join(names)}."


def seat_name(table: LiveTable, seat: int) -> str:
    """The seat's name as everyone reads it (``Seat.public``): a player's, or "Bot 2
    (medium)" (seats counted from 1)."""
    name: str = table.seats[seat].public()["name"] or f"seat {seat + 1}"
    return name


def reasons(table: LiveTable, seat: int, legal: Sequence[Action]) -> dict[str, str]:
    """Why each of the seat's other actions is not legal now (for hover texts)."""
    game, state = table.game, table.state
    count = game.num_distinct_actions(state.num_players, state.options)
    if count > MAX_EXPLAINED:
        return {}
    allowed = {str(action) for action in legal}
    found: dict[str, str] = {}
    for index in range(count):
        try:
            action = game.action_from_index(state, seat, index)
        except PotluckError:
            continue
        text = str(action)
        if text not in allowed:
            found[text] = game.explain(state, seat, action) or "Not allowed now."
    return found


def record(table: LiveTable) -> dict[str, Any]:
    """The finished (or expired) game's record: seed + options + actions, and the outcome."""
    if not table.over and table.status not in ("expired", "closed"):
        raise TableError(409, "not_over", "The record is published once the game is over.")
    result = table.game.record(table.state)
    if table.redeal:  # dealt again part-way: the record says how (``Game.redeal_of``)
        result["redeal"] = [dict(entry) for entry in table.redeal]
    if table.practice:
        result["practice"] = True
    result["table"] = table.id
    result["players"] = [seat.public()["name"] for seat in table.seats]
    return result


def replay_view(table: LiveTable, step: int, seat: int | None, *, everyone: bool) -> dict[str, Any]:
    """The finished game after its first ``step`` actions, as ``seat`` saw it.

    ``everyone`` gives every seat's view at once (all-seeing).
    """
    if not table.over and table.status not in ("expired", "closed"):
        raise TableError(409, "not_over", "A game can be replayed once it is over.")
    total = len(table.state.history)
    if not 0 <= step <= total:
        raise TableError(422, "bad_step", f"This game has steps 0 to {total}, not {step}.")
    n = table.state.num_players
    if seat is not None and not 0 <= seat < n:
        raise TableError(404, "no_seat", f"This table has seats 0 to {n - 1}, not {seat}.")
    game = table.game
    # Step from the start, noting whether the last action was part of a sealed choice:
    # its text is shown only to its own seat and to the all-seeing view; the others see
    # what it did once the game reveals it (in the view), never earlier.
    state = game.replay(record(table), upto=0)
    sealed = SealedChoices()
    secret = False
    label = ""
    for number, (actor, action) in enumerate(table.state.history[:step], 1):
        secret = sealed.is_sealed(game.to_act(state), actor)
        if number == step:  # the last move in words, as the table said it
            label = game.describe_action(state, actor, action)
        game.step(state, actor, action)
        state = game.redealt(state, table.redeal)
    last: dict[str, Any] | None = None
    if step:
        actor, action = table.state.history[step - 1]
        if secret and not everyone and seat != actor:
            last = {"seat": actor, "action": None, "label": None, "sealed": True}
        else:
            last = {"seat": actor, "action": str(action), "label": label, "sealed": secret}
    body: dict[str, Any] = {
        "table": table.summary(),
        "step": step,
        "steps": total,
        "last": last,
        "to_act": list(game.to_act(state)),
        "seat": seat,
    }
    if everyone:
        body["views"] = [game.view(state, s) for s in range(n)]
    else:
        body["view"] = game.view(state, seat)
    return body
