"""``potluck bots`` (every bot a game can seat, with its parameters) and ``potluck arena``
(a rating ladder between bot specs).

    potluck bots belle-of-the-ball
    potluck arena cafe-carnage --players 4 --agents greedy,random,ismcts:sims=50 --games 40
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich import box
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from potluck.cli.common import (
    CliError,
    DataOpt,
    GameArg,
    JsonOpt,
    console,
    parse_agents,
    reports_errors,
)
from potluck.engine.registry import load_game


def register(app: typer.Typer) -> None:
    """Add the commands to the main application."""
    app.command("bots")(reports_errors(bots_command))
    app.command("arena")(reports_errors(arena_command))


def bots_command(game_id: GameArg, data: DataOpt = None) -> None:
    """List the bots a game can seat, with each bot's parameters (for bot specs)."""
    from potluck.agents import agent_factories
    from potluck.engine.botspec import bot_params

    game = load_game(game_id, data=data)
    out = console()
    out.print(
        f"[bold]{escape(game.title)}[/]: a bot spec is NAME or NAME:key=value,key=value "
        "(e.g. greedy, ismcts:sims=500)"
    )
    for name, factory in sorted(agent_factories(game).items()):
        doc = (factory.__doc__ or "").strip().splitlines()
        out.print(f"\n[bold]{escape(name)}[/]" + (f": {escape(doc[0])}" if doc else ""))
        params = bot_params(factory)
        if not params:
            out.print("  no parameters")
        for param in params:
            out.print(f"  {escape(param.describe())}")


def arena_command(
    game_id: GameArg,
    agents: Annotated[
        str,
        typer.Option(help="Comma-separated bot specs to rate (at least two)."),
    ],
    players: Annotated[
        int | None, typer.Option(help="Players per game (default: the game's minimum).")
    ] = None,
    games: Annotated[
        int, typer.Option("-n", "--games", min=1, help="Games to play (whole blocks of seats).")
    ] = 40,
    seed: Annotated[int, typer.Option(help="Block b is dealt from seed + b.")] = 0,
    data: DataOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Rate bot specs against each other: seats rotated on paired deals, openskill ratings."""
    from potluck.arena import run_arena, wilson
    from potluck.engine.errors import PotluckError

    game = load_game(game_id, data=data)
    num_players = game.min_players if players is None else players
    specs = parse_agents(agents, "--agents")
    out = console()
    total = -(-games // num_players) * num_players
    with Progress(
        TextColumn("Playing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=out,
        disable=as_json or not out.is_terminal,
        transient=True,
    ) as bar:
        task = bar.add_task("games", total=total)
        try:
            ladder = run_arena(
                game, num_players, specs, games, seed, progress=lambda _: bar.advance(task)
            )
        except PotluckError as error:
            raise CliError(str(error)) from None
    if as_json:
        typer.echo(json.dumps(ladder.to_json()))
        return
    table = Table(
        title=f"{game.title}, {num_players} players: {ladder.games} games, seed {seed}",
        box=box.SIMPLE_HEAD,
        title_justify="left",
    )
    for column in ("Rank", "Bot spec", "Rating (mu ± 2 sigma)", "Win share [95% CI]", "Score"):
        table.add_column(column, justify="left" if column == "Bot spec" else "right")
    for rank, entry in enumerate(ladder.entries, 1):
        low, high = wilson(entry.wins, entry.seat_games)
        table.add_row(
            str(rank),
            escape(entry.spec),
            f"{entry.mu:.1f} ± {2 * entry.sigma:.1f}",
            f"{entry.win_share:.1%} [{low:.1%}, {high:.1%}]",
            f"{entry.mean_score:.2f}",
        )
    out.print(table)
    out.print(
        f"Fair share {ladder.fair_share:.1%}. Ratings: openskill Plackett-Luce, ordered by "
        "mu - 3 sigma; every block of games replays one deal with the seats turned."
    )
    for crash in ladder.errors[:5]:
        out.print(f"[red]crashed:[/] {escape(crash)}")
