"""The ``potluck`` command: list, read, play, simulate, replay and benchmark games.

    potluck games
    potluck rules cafe-carnage
    potluck play cafe-carnage --seats you,greedy,greedy,random --seed 7
    potluck simulate cafe-carnage -n 1000 --players 4 --agents greedy,random --json
    potluck replay ~/.local/share/potluck/records/cafe-carnage-....json --as 0
    potluck bench cafe-carnage --seconds 2
    potluck serve --port 8000
    potluck lab run studies/cafe-player-counts.toml --out results/cafe
    potluck lab report results/cafe --html cafe.html

Commands only parse and format; the work is in ``potluck.sim``, ``potluck.bench``
and the engine. Every error the user can fix prints one red line and exits 2.
This module assembles the application and holds the small commands (``games``,
``rules``, ``replay``); each larger command group has its module with a
``register(app)``: ``play_command``, ``simulate_command``, ``bench_command``,
``serve_command``, ``ladder`` (``bots``, ``arena``, ``analyse``) and ``lab``.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table

from potluck.cli.bench_command import register as register_bench
from potluck.cli.common import GameArg, console, load_json, players_text, reports_errors
from potluck.cli.lab import lab_app
from potluck.cli.ladder import register as register_ladder
from potluck.cli.play_command import register as register_play
from potluck.cli.render import format_value
from potluck.cli.replay import check_record, run_replay
from potluck.cli.serve_command import register as register_serve
from potluck.cli.simulate_command import register as register_simulate
from potluck.engine.game import Game
from potluck.engine.registry import list_games, load_game

app = typer.Typer(
    name="potluck",
    help="Play, simulate and study the Potluck games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(lab_app, name="lab")
register_ladder(app)


def _version(value: bool) -> None:
    if value:
        try:
            number = version("potluck")
        except PackageNotFoundError:  # running from a source tree without installing
            number = "unknown"
        typer.echo(f"potluck {number}")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Play, simulate and study the Potluck games."""


def _options_text(game: Game[Any, Any]) -> str:
    return ", ".join(f"{name}={option.default!r}" for name, option in game.options.items()) or "–"


@app.command()
@reports_errors
def games() -> None:
    """List the games: id, title, players and variant options."""
    table = Table(box=box.SIMPLE_HEAD)
    for column in ("Id", "Title", "Players", "Options"):
        table.add_column(column)
    for game_id in list_games():
        game = load_game(game_id)
        table.add_row(game_id, game.title, players_text(game, word=False), _options_text(game))
    console().print(table)


@app.command()
@reports_errors
def rules(game_id: GameArg) -> None:
    """Print a game's rules summary, its variant options and its action notation."""
    game = load_game(game_id)
    out = console()
    out.rule(f"{escape(game.title)} ({players_text(game)})")
    out.print(Markdown(game.summary or "_This game has no summary yet._"))
    if game.options:
        table = Table(title="Options (--set NAME=VALUE)", box=box.SIMPLE_HEAD, title_justify="left")
        for column in ("Name", "Type", "Default", "Meaning"):
            table.add_column(column)
        for name, option in game.options.items():
            table.add_row(name, option.type.__name__, format_value(option.default), option.help)
        out.print(table)
    if game.notation:
        out.rule("Notation")
        out.print(Markdown(game.notation))


register_play(app)
register_simulate(app)


@app.command()
@reports_errors
def replay(
    record_path: Annotated[Path, typer.Argument(metavar="RECORD.json", help="A saved record.")],
    seat: Annotated[
        int | None, typer.Option("--as", help="Show this seat's view (default: spectator).")
    ] = None,
) -> None:
    """Step through a saved game: Enter next, b back, a number jumps, q quits."""
    record = check_record(load_json(record_path, "record"))
    game = load_game(str(record["game"]), data=record.get("data"))
    run_replay(game, record, seat, console())


register_bench(app)
register_serve(app)


def main() -> None:
    """Console entry point (``potluck`` in pyproject.toml)."""
    app(prog_name="potluck")


if __name__ == "__main__":  # pragma: no cover
    main()
