"""What every command shares: consoles, error reporting, option parsing, records on disk."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import platformdirs
import typer
from rich.console import Console
from rich.markup import escape

from potluck.engine.errors import PotluckError
from potluck.engine.game import Game

# Options several commands share.
GameArg = Annotated[str, typer.Argument(metavar="GAME", help="Game id (see `potluck games`).")]
SetOpt = Annotated[
    list[str] | None,
    typer.Option("--set", metavar="NAME=VALUE", help="A variant option; repeat for several."),
]
DataOpt = Annotated[
    Path | None, typer.Option("--data", help="Use this card data file (TOML) instead.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead.")]

P = ParamSpec("P")
R = TypeVar("R")

#: Exit code for every error the user can fix (the same code click uses for bad usage).
USAGE_ERROR = 2


class CliError(PotluckError):
    """A mistake on the command line that the engine does not see (bad --set, a missing file)."""


def console() -> Console:
    """A console on the current stdout (made per call: tests swap ``sys.stdout``)."""
    return Console(highlight=False)


def fail(message: str) -> typer.Exit:
    """Print ``message`` as one red line on stderr; return the exit to raise."""
    # soft_wrap: one line however long, so scripts can grep it and terminals wrap it.
    Console(stderr=True, highlight=False).print(
        f"[bold red]Error:[/] {escape(message)}", soft_wrap=True
    )
    return typer.Exit(USAGE_ERROR)


def reports_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Turn a ``PotluckError`` (or a bad file) inside ``command`` into one red line and exit 2.

    Wrapped with ``functools.wraps`` so that Typer still reads the command's
    parameters from its signature.
    """

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except PotluckError as error:
            raise fail(str(error)) from None

    return wrapper


def parse_settings(settings: Sequence[str] | None) -> dict[str, str]:
    """``["rounds=3", "fast=yes"]`` -> ``{"rounds": "3", "fast": "yes"}``.

    Values stay text: the game converts them to each option's declared type
    and says which option and value were wrong.
    """
    options: dict[str, str] = {}
    for setting in settings or ():
        name, sep, value = setting.partition("=")
        name = name.strip()
        if not sep or not name:
            raise CliError(f"--set takes name=value, not {setting!r}")
        options[name] = value.strip()
    return options


def parse_list(text: str, what: str) -> list[str]:
    """A comma-separated list with blanks dropped; empty is an error naming ``what``."""
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items:
        raise CliError(f"{what} is empty")
    return items


def parse_agents(text: str, what: str) -> list[str]:
    """Bot specs from a comma-separated list: ``key=value`` items join the spec before,
    so ``ismcts:sims=200,rollout=greedy,greedy`` is two agents."""
    from potluck.engine.botspec import BotSpecError, split_agents

    if not any(item.strip() for item in text.split(",")):
        raise CliError(f"{what} is empty")
    try:
        return split_agents(text)
    except BotSpecError as error:
        raise CliError(f"{what}: {error}") from None


def records_dir() -> Path:
    """Where finished games are kept unless ``--save`` says otherwise."""
    return Path(platformdirs.user_data_dir("potluck")) / "records"


def players_text(game: Game[Any, Any], *, word: bool = True) -> str:
    """``"2 players"`` for a fixed-size game, else ``"4-6 players"`` (``word=False``: no noun)."""
    low, high = game.min_players, game.max_players
    count = str(low) if low == high else f"{low}-{high}"
    return f"{count} players" if word else count


def save_record(record: dict[str, Any], path: Path | None) -> Path:
    """Write ``record`` as JSON to ``path`` or a new file under :func:`records_dir`."""
    if path is None:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        path = records_dir() / f"{record['game']}-{stamp}-seed{record['seed']}.json"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", "utf-8")
    except OSError as error:
        raise CliError(f"cannot save the record to {path}: {error.strerror}") from None
    return path


def load_json(path: Path, what: str) -> Any:
    """The JSON in ``path``; a missing or malformed file is a ``CliError`` naming it."""
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise CliError(f"{what} {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as error:
        raise CliError(f"cannot read {what} {path}: {error}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise CliError(f"{what} {path} is not valid JSON: {error}") from None
