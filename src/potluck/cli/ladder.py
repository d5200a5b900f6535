"""``potluck bots`` (every bot a game can seat, with its parameters), ``potluck arena``
(a rating ladder between bot specs) and ``potluck analyse`` (move analysis of a record).

    potluck bots belle-of-the-ball
    potluck arena cafe-carnage --players 4 --agents greedy,random,ismcts:sims=50 --games 40
    potluck analyse game.json --as 0 --time 2 --json review.json
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from potluck.cli.common import (
    CliError,
    DataOpt,
    GameArg,
    JsonOpt,
    console,
    load_json,
    parse_agents,
    reports_errors,
)
from potluck.engine.registry import load_game


def register(app: typer.Typer) -> None:
    """Add the commands to the main application."""
    app.command("bots")(reports_errors(bots_command))
    app.command("arena")(reports_errors(arena_command))
    app.command("analyse")(reports_errors(analyse_command))


def bots_command(game_id: GameArg, data: DataOpt = None) -> None:
    """List the bots a game can seat, with each bot's parameters (for bot specs)."""
    from potluck.agents import agent_factories, bot_defaults
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
        tuned = bot_defaults(game, name)
        if tuned:
            listing = ",".join(f"{key}={value}" for key, value in tuned.items())
            out.print(f"  in {escape(game.title)} its defaults are {escape(listing)}")


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
    results: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE.jsonl",
            help="Keep each game in this file as it ends; the games it already holds"
            " (of this very arena) are counted, not played again, so a cut run goes on"
            " where it stopped.",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Rate bot specs against each other: seats rotated on paired deals, openskill ratings."""
    from potluck.arena import ArenaGame, run_arena
    from potluck.cli.arena_results import ArenaResults
    from potluck.engine.errors import PotluckError
    from potluck.intervals import wilson_interval

    game = load_game(game_id, data=data)
    num_players = game.min_players if players is None else players
    specs = parse_agents(agents, "--agents")
    out = console()
    total = -(-games // num_players) * num_players
    kept = None
    if results is not None:
        arena = {
            "game": game.id,
            "players": num_players,
            "agents": specs,
            "seed": seed,
            "data": None if data is None else str(data),
        }
        kept = ArenaResults.open(results, arena)
    played: list[ArenaGame] = [] if kept is None else kept.games
    with Progress(
        TextColumn("Playing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=out,
        disable=as_json or not out.is_terminal,
        transient=True,
    ) as bar:
        task = bar.add_task("games", total=total, completed=len(played))
        try:
            ladder = run_arena(
                game,
                num_players,
                specs,
                games,
                seed,
                progress=lambda _: bar.advance(task),
                played=played,
                on_game=None if kept is None else kept.append,
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
        low, high = wilson_interval(entry.wins, entry.seat_games)
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
    if played:
        out.print(
            f"{len(played)} of the games were kept in {escape(str(results))}, not played again."
        )
    for crash in ladder.errors[:5]:
        out.print(f"[red]crashed:[/] {escape(crash)}")


def analyse_command(
    record_path: Annotated[Path, typer.Argument(metavar="RECORD.json", help="A saved record.")],
    seat: Annotated[int, typer.Option("--as", help="The seat whose moves to analyse.")],
    judge: Annotated[
        str,
        typer.Option(
            "--judge",
            "--bot",
            help="How moves are judged (a spec: playouts, or e.g. playouts:worlds=800,time=2; "
            "see docs/bots.md, 'Move analysis').",
        ),
    ] = "playouts",
    seconds: Annotated[
        float | None,
        typer.Option(
            "--time",
            min=0,
            help="Seconds of CPU one move may take (default: the judge's, 2; 0: no bound).",
        ),
    ] = None,
    inaccuracy: Annotated[
        float, typer.Option(min=0, max=1, help="Loss of win chance that is an inaccuracy.")
    ] = 0.05,
    mistake: Annotated[
        float, typer.Option(min=0, max=1, help="Loss of win chance that is a mistake.")
    ] = 0.10,
    blunder: Annotated[
        float, typer.Option(min=0, max=1, help="Loss of win chance that is a blunder.")
    ] = 0.20,
    seed: Annotated[
        int, typer.Option(help="Seed of the worlds played (the analysis repeats).")
    ] = 0,
    json_path: Annotated[
        Path | None, typer.Option("--json", metavar="OUT.json", help="Also save it as JSON.")
    ] = None,
) -> None:
    """For each of a seat's moves: its chance of winning after the move played and after
    the best move found, from what the seat knew then (worlds drawn from its information,
    played out by the greedy bot); marks inaccuracies, mistakes and blunders."""
    from potluck.cli.replay import check_record
    from potluck.engine.errors import PotluckError
    from potluck.review import review_record, summarise

    record = check_record(load_json(record_path, "record"))
    game = load_game(str(record["game"]), data=record.get("data"))
    if not inaccuracy <= mistake <= blunder:
        raise CliError("the thresholds must not decrease: --inaccuracy <= --mistake <= --blunder")
    out = console()
    with Progress(
        TextColumn("Analysing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("moves"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=out,
        disable=not out.is_terminal,
        transient=True,
    ) as bar:
        task = bar.add_task("moves", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            reviews = review_record(
                game,
                record,
                seat,
                judge,
                (inaccuracy, mistake, blunder),
                seed,
                progress=progress,
                seconds_per_move=seconds,
            )
        except PotluckError as error:
            raise CliError(str(error)) from None
    table = Table(
        title=f"{game.title}: seat {seat}'s moves, judged by {judge}",
        box=box.SIMPLE_HEAD,
        title_justify="left",
    )
    columns = (
        "#",
        "Played",
        "Win chance",
        "Best move found",
        "Its chance",
        "Loss",
        "",
        "Points lost",
        "Worlds",
    )
    for column in (*columns, "Time"):
        table.add_column(
            column, justify="left" if column in ("Played", "Best move found", "") else "right"
        )
    for review in reviews:
        if review.forced:
            preferred = "(forced)"
        elif review.preferred == review.played:
            preferred = "(same)"
        else:
            preferred = escape(review.preferred)
        table.add_row(
            str(review.number),
            escape(review.played),
            f"{review.after:.0%}",
            preferred,
            f"{review.before:.0%}",
            f"{review.loss:.0%}" + (f" ±{review.stderr:.0%}" if review.loss > 0 else ""),
            review.verdict,
            f"{review.point_loss:.1f}" if review.point_loss > 0 else "0",
            str(review.worlds),
            f"{review.seconds:.1f}s",
        )
    out.print(table)
    counts = {
        v: sum(1 for r in reviews if r.verdict == v) for v in ("inaccuracy", "mistake", "blunder")
    }
    summary = summarise(reviews)
    total_seconds = sum(r.seconds for r in reviews)
    slowest = max((r.seconds for r in reviews), default=0.0)
    out.print(
        f"{len(reviews)} moves: {counts['inaccuracy']} inaccuracies, {counts['mistake']} mistakes, "
        f"{counts['blunder']} blunders (losses of at least {inaccuracy:.0%}, {mistake:.0%}, "
        f"{blunder:.0%} of win chance). {total_seconds:.1f} s in all, the slowest move "
        f"{slowest:.1f} s. A win chance is the share of playouts won from worlds the seat "
        "could not tell from the real one, every seat then played by the greedy bot (a few "
        "worlds of the fair share added, so never 0% from a finite sample); a loss is the "
        "estimate shrunk by its noise, ± its standard error. Points lost: the seat's score "
        "less the others' mean, in the game's points, given up against the best move found "
        "(it still counts where the win chance is gone)."
    )
    if summary.choices:
        out.print(
            f"Seat {seat}'s mean loss over its {summary.choices} moves with a choice: "
            f"{summary.mean_loss:.1%} ± {summary.loss_stderr:.1%} of win chance a move, "
            f"{summary.mean_points_lost:.2f} ± {summary.points_stderr:.2f} points (each "
            "move's loss uncut, so its noise averages out)."
        )
    if json_path is not None:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "game": game.id,
            "seat": seat,
            "judge": judge,
            "bot": judge,
            "seed": seed,
            "seconds_per_move": seconds,
            "thresholds": {"inaccuracy": inaccuracy, "mistake": mistake, "blunder": blunder},
            "moves": [review.to_json() for review in reviews],
            "summary": summary.to_json(),
        }
        json_path.write_text(json.dumps(data, indent=1) + "\n", "utf-8")
        out.print(f"Saved to {escape(str(json_path))}")
