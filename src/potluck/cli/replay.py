"""Stepping through a saved game record, seen from one seat or as a spectator."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from potluck.cli.common import CliError
from potluck.cli.play import SealedChoices
from potluck.cli.render import outcome_table, view_sections
from potluck.engine.errors import RecordError
from potluck.engine.game import Game
from potluck.renderers.names import Namer
from potluck.renderers.screen import whole


def replay_states(game: Game[Any, Any], record: Mapping[str, Any]) -> tuple[list[Any], list[bool]]:
    """Every state of the recorded game (``states[k]``: after ``k`` actions).

    Also says for each action whether it was a sealed choice, so the replay
    hides it as the table did. ``game.replay`` checks the whole record first,
    so that a bad record fails with its message before anything is shown.
    """
    game.replay(record)
    redeals = game.redeal_of(record)  # a table dealt again part-way ("play from here")
    state = game.replay(record, upto=0)
    states, sealed_flags = [state.clone()], []
    sealed = SealedChoices()
    for seat, text in record["actions"]:
        sealed_flags.append(sealed.is_sealed(game.to_act(state), int(seat)))
        game.step(state, int(seat), str(text))
        state = game.redealt(state, redeals)
        states.append(state.clone())
    return states, sealed_flags


def run_replay(
    game: Game[Any, Any], record: Mapping[str, Any], seat: int | None, console: Console
) -> None:
    """Show the record one action at a time: Enter next, ``b`` back, a number jumps, ``q`` quits."""
    states, sealed = replay_states(game, record)
    num_players = states[0].num_players
    if seat is not None and not 0 <= seat < num_players:
        raise CliError(f"--as takes a seat from 0 to {num_players - 1}, not {seat}")
    actions = record["actions"]
    last = len(actions)
    # players by name (a server's record has them), seats counted from 1 on the screen
    players = record.get("players")
    names = (
        [str(name or f"Player {s + 1}") for s, name in enumerate(players)]
        if isinstance(players, list) and len(players) == num_players
        else [f"Player {s + 1}" for s in range(num_players)]
    )
    namer = Namer(names, seat)
    viewer = "a spectator" if seat is None else f"{names[seat]} (seat {seat + 1})"
    k = 0
    while True:
        state = states[k]
        console.rule(f"{escape(game.title)}: after action {k} of {last}, seen by {escape(viewer)}")
        if k:
            actor, text = int(actions[k - 1][0]), str(actions[k - 1][1])
            who = namer.name(actor, start=True)
            if sealed[k - 1] and seat != actor:
                console.print(f"{escape(who)} made a sealed choice.")
            else:
                words = game.describe_action(
                    states[k - 1], actor, game.parse_action(states[k - 1], actor, text)
                )
                console.print(f"{escape(who)}: {escape(namer.text(words))}")
        console.print(whole(view_sections(game, game.view(state, seat), namer)))
        if k == last and game.is_over(state):
            labels = [namer.name(s, start=True) for s in range(num_players)]
            outcome = game.outcome(state)
            console.print(outcome_table(outcome, labels, reason=namer.text(outcome.reason)))
        try:
            answer = typer.prompt(
                "Enter: next, b: back, a number: jump, q: quit", default="", show_default=False
            )
        except typer.Abort:
            return
        answer = answer.strip().lower()
        if answer in ("q", "quit"):
            return
        if answer == "":
            if k == last:
                return
            k += 1
        elif answer in ("b", "back"):
            k = max(k - 1, 0)
        elif answer.isdigit() and int(answer) <= last:
            k = int(answer)
        else:
            console.print(f"[red]Type Enter, b, q or a number from 0 to {last}.[/]")


def check_record(data: Any) -> Mapping[str, Any]:
    """The record if it looks like one; a ``RecordError`` saying what is missing otherwise."""
    if not isinstance(data, Mapping):
        raise RecordError(f"a record must be a JSON object, not {type(data).__name__}")
    for key in ("game", "actions"):
        if key not in data:
            raise RecordError(f"this is not a game record: it has no {key!r} field")
    if not isinstance(data["actions"], list):
        raise RecordError("the record's 'actions' must be a list of [seat, action] pairs")
    return data
