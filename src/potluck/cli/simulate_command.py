"""``potluck simulate``: bots play many games; wins and scores by seat and by agent.

    potluck simulate cafe-carnage -n 1000 --players 4 --agents greedy,random --json

The games are played by ``potluck.sim.simulate``; this module shows the totals.
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
    DataOpt,
    GameArg,
    JsonOpt,
    SetOpt,
    console,
    parse_agents,
    parse_settings,
    reports_errors,
)
from potluck.engine.registry import load_game
from potluck.sim import GameResult, SimulationSummary, simulate


def _agent_table(summary: SimulationSummary) -> Table:
    table = Table(title="By agent", box=box.SIMPLE_HEAD, title_justify="left")
    for column, justify in (
        ("Agent", "left"),
        ("Seat-games", "right"),
        ("Wins", "right"),
        ("Win rate", "right"),
        ("Mean score", "right"),
    ):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    rates, scores = summary.win_rate_by_agent, summary.mean_score_by_agent
    for name, count in summary.seat_games_by_agent.items():
        table.add_row(
            name,
            str(count),
            f"{summary.wins_by_agent[name]:g}",
            f"{rates[name]:.1%}",
            f"{scores[name]:.2f}",
        )
    return table


def _seat_table(summary: SimulationSummary) -> Table:
    table = Table(title="By seat", box=box.SIMPLE_HEAD, title_justify="left")
    for column, justify in (
        ("Seat", "left"),
        ("Wins", "right"),
        ("Win rate", "right"),
        ("Mean score", "right"),
    ):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    rows = zip(
        summary.wins_by_seat, summary.win_rate_by_seat, summary.mean_score_by_seat, strict=True
    )
    for seat, (wins, rate, score) in enumerate(rows):
        table.add_row(str(seat), f"{wins:g}", f"{rate:.1%}", f"{score:.2f}")
    return table


def simulate_command(
    game_id: GameArg,
    games: Annotated[int, typer.Option("-n", "--games", min=1, help="How many games.")] = 100,
    players: Annotated[
        int | None, typer.Option(help="Players per game (default: the game's minimum).")
    ] = None,
    agents: Annotated[
        str,
        typer.Option(
            help="Comma-separated bot specs (a key=value item joins the spec before it: "
            "ismcts:sims=200,rollout=greedy,greedy is two agents), seated in order, cycled "
            "to fill the table and rotated one seat each game."
        ),
    ] = "random",
    seed: Annotated[int, typer.Option(help="Game i is dealt from seed + i.")] = 0,
    settings: SetOpt = None,
    data: DataOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Let bots play many games; report wins and scores by seat and by agent."""
    game = load_game(game_id, data=data)
    num_players = game.min_players if players is None else players
    names = parse_agents(agents, "--agents")
    options = parse_settings(settings)
    out = console()
    show_bar = not as_json and out.is_terminal
    with Progress(
        TextColumn("Simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=out,
        disable=not show_bar,
        transient=True,
    ) as bar:
        task = bar.add_task("games", total=games)

        def advance(_: GameResult) -> None:
            bar.advance(task)

        summary = simulate(game, games, num_players, names, seed, options, progress=advance)
    if as_json:
        typer.echo(json.dumps(summary.to_json()))
        return
    out.print(
        f"[bold]{escape(game.title)}[/]: {summary.games} games, {num_players} players, "
        f"agents {', '.join(names)}, seed {seed}"
    )
    out.print(_seat_table(summary))
    out.print(_agent_table(summary))
    for key, value in summary.mean_metrics.items():
        out.print(f"Mean {escape(key)}: {value:.3f}")
    out.print(
        f"Mean game length {summary.mean_steps:.1f} steps; "
        f"{summary.games_per_second:,.0f} games/s ({summary.seconds:.2f} s)"
    )


def register(app: typer.Typer) -> None:
    """Add the command to the main application."""
    app.command("simulate")(reports_errors(simulate_command))
