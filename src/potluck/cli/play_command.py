"""``potluck play``: play a game at the terminal, or continue a recorded one.

    potluck play cafe-carnage --seats you,greedy,greedy,random --seed 7
    potluck play cafe-carnage --from RECORD.json --at 12

The session itself (turns, screens, bots) is ``potluck.cli.play.PlaySession``;
this module parses the options, deals the game and keeps its record.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from potluck.cli.common import (
    CliError,
    DataOpt,
    GameArg,
    SetOpt,
    console,
    load_json,
    parse_agents,
    parse_settings,
    reports_errors,
    save_record,
)
from potluck.cli.play import PlaySession, parse_seats
from potluck.cli.replay import check_record
from potluck.engine.game import Game
from potluck.engine.registry import load_game


def play(
    game_id: GameArg,
    seats: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated, one per seat: you / human / human:NAME, or a bot spec "
            "(greedy, ismcts:sims=500; see `potluck bots GAME`). "
            "Default: you and random bots up to the minimum players."
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Deal from this seed (default: random).")] = None,
    settings: SetOpt = None,
    data: DataOpt = None,
    save: Annotated[
        Path | None, typer.Option(help="Save the record here (default: the user data dir).")
    ] = None,
    save_unfinished: Annotated[
        bool | None,
        typer.Option(
            "--save-unfinished/--no-save-unfinished",
            help="On quit, save the unfinished game's record (default: ask at a terminal).",
        ),
    ] = None,
    from_record: Annotated[
        Path | None,
        typer.Option(
            "--from", metavar="RECORD.json", help="Continue a recorded game (GAME is its game)."
        ),
    ] = None,
    at: Annotated[
        int | None,
        typer.Option(min=0, help="With --from: continue after this many of its actions."),
    ] = None,
) -> None:
    """Play at the terminal against bots, or with friends passing the keyboard."""
    if from_record is not None:
        _play_from(game_id, from_record, at, seats, save, save_unfinished)
        return
    if at is not None:
        raise CliError("--at needs --from RECORD.json")
    game = load_game(game_id, data=data)
    specs = (
        parse_agents(seats, "--seats")
        if seats is not None
        else ["you"] + ["random"] * (game.min_players - 1)
    )
    if seed is None:
        # A fresh deal each time, printed so that the game can be dealt again.
        seed = random.SystemRandom().randrange(2**31)
    players = parse_seats(game, specs, seed)
    if not any(player.human for player in players):
        raise CliError("no human seat: use `potluck simulate` to watch bots play")
    state = game.new_game(
        len(players), seed, game.table_options(parse_settings(settings), human_seat=True)
    )
    out = console()
    out.print(f"[bold]{escape(game.title)}[/], {len(players)} players, seed {seed}")
    finished = PlaySession(game, players, state, out).run()
    _keep_record(game, state, finished, save, save_unfinished, out)


def _keep_record(
    game: Game[Any, Any],
    state: Any,
    finished: bool,
    save: Path | None,
    save_unfinished: bool | None,
    out: Console,
) -> None:
    """Save a finished game's record; an abandoned one only when asked, marked unfinished."""
    if not finished:
        if save_unfinished is None:
            save_unfinished = _ask_to_save()
        if not save_unfinished:
            out.print("The unfinished game was not saved (--save-unfinished keeps it).")
            return
    record = game.record(state)
    if not finished:
        record["unfinished"] = True
    path = save_record(record, save)
    status = "Record" if finished else "Record of the unfinished game"
    out.print(f"{status} saved to {escape(str(path))}")
    out.print(f"Replay it with: potluck replay {escape(str(path))}")


def _ask_to_save() -> bool:
    """Ask at a terminal whether to keep an abandoned game; never when input is not a terminal."""
    if not sys.stdin.isatty():
        return False
    try:
        return bool(typer.confirm("Save a record of the unfinished game?", default=False))
    except (typer.Abort, EOFError):
        return False


def _play_from(
    game_id: str,
    record_path: Path,
    at: int | None,
    seats: str | None,
    save: Path | None,
    save_unfinished: bool | None,
) -> None:
    """``potluck play GAME --from RECORD --at STEP``: a recorded position, played on anew."""
    record = check_record(load_json(record_path, "record"))
    if record["game"] != game_id:
        raise CliError(f"{record_path} is a record of {record['game']}, not {game_id}")
    game = load_game(game_id, data=record.get("data"))
    total = len(record["actions"])
    step = total if at is None else at
    if step > total:
        raise CliError(f"--at {step}: the record has only {total} actions")
    state = game.replay(record, upto=step)
    if game.is_over(state):
        raise CliError(f"the game is over after {step} actions: choose an earlier --at")
    n = state.num_players
    specs = parse_agents(seats, "--seats") if seats is not None else ["you"] + ["random"] * (n - 1)
    if len(specs) != n:
        raise CliError(f"the recorded game has {n} seats: give {n} in --seats, not {len(specs)}")
    players = parse_seats(game, specs, int(record["seed"]) + step)
    if not any(player.human for player in players):
        raise CliError("no human seat: use `potluck simulate` to watch bots play")
    out = console()
    out.print(
        f"[bold]{escape(game.title)}[/], {n} players, seed {record['seed']}, "
        f"continued after action {step} of {escape(str(record_path))}"
    )
    finished = PlaySession(game, players, state, out).run()
    _keep_record(game, state, finished, save, save_unfinished, out)


def register(app: typer.Typer) -> None:
    """Add the command to the main application."""
    app.command("play")(reports_errors(play))
