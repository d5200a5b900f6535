"""``potluck bench``: how fast the engine plays, a bot decides, or an adapter steps.

    potluck bench cafe-carnage --players 4 --hearts --json
    potluck bench cafe-carnage --bot greedy
    potluck bench cafe-carnage --bot ismcts:sims=300 --vs-openspiel

The timing is in ``potluck.bench``, ``potluck.search.bench`` and
``potluck.interop.bench``; this module chooses among them and shows the figures.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from potluck import native
from potluck.bench import bench_best, with_hearts
from potluck.cli.common import CliError, JsonOpt, console, reports_errors
from potluck.engine.registry import list_games, load_game


def _bench_adapters(
    ids: list[str], players: int | None, seconds: float, repeat: int, as_json: bool
) -> None:
    """``potluck bench --adapters``: steps per second through each learning interface."""
    try:
        from potluck.interop.bench import RUNNERS
        from potluck.interop.bench import bench as bench_adapter
    except ImportError as missing:
        raise CliError(
            f"--adapters needs the rl extra (pip install 'potluck[rl]'): {missing}"
        ) from None
    if seconds <= 0:
        raise CliError(f"the benchmark needs a positive time, not {seconds} seconds")
    rows = []
    for one in ids:
        game = load_game(one)
        n = players if players is not None else game.min_players
        for adapter in RUNNERS:
            if adapter == "pettingzoo-parallel" and one != "cafe-carnage":
                continue
            if not as_json:
                console().print(f"Benchmarking {escape(one)} through {adapter}...")
            rate = bench_adapter(one, n, adapter, seconds / repeat, repeat)
            rows.append({"game": one, "players": n, "adapter": adapter, "steps_per_second": rate})
    if as_json:
        typer.echo(json.dumps(rows))
        return
    table = Table(box=box.SIMPLE_HEAD)
    for column in ("Game", "Players", "Through", "Steps/s"):
        table.add_column(column, justify="right" if column == "Steps/s" else "left")
    for row in rows:
        shown = f"{row['steps_per_second']:,.0f}"
        table.add_row(str(row["game"]), str(row["players"]), str(row["adapter"]), shown)
    console().print(table)


def _bench_bot(
    ids: list[str],
    players: int | None,
    spec: str,
    seconds: float,
    seed: int,
    vs_openspiel: bool,
    games: int,
    as_json: bool,
    our_seats: int = 1,
    equal_time: bool = False,
) -> None:
    """``potluck bench --bot SPEC [--vs-openspiel]``: how fast a bot decides."""
    from potluck.agents import make_agent
    from potluck.search.bench import bench_bot
    from potluck.search.ismcts import ISMCTSBot

    results: dict[str, dict[str, Any]] = {}
    for one in ids:
        game = load_game(one)
        if not as_json:
            console().print(f"Timing {escape(spec)} on {escape(one)} for {seconds:g} s...")
        row = bench_bot(game, players, spec, seconds, seed).to_json()
        if vs_openspiel:
            searcher = make_agent(game, spec)
            if not isinstance(searcher, ISMCTSBot) or searcher.sims <= 0:
                raise CliError("--vs-openspiel compares an ismcts bot with a simulation budget")
            try:
                from potluck.search.openspiel import compare_speed, head_to_head
            except ImportError as missing:
                raise CliError(
                    f"--vs-openspiel needs the rl extra (pip install 'potluck[rl]'): {missing}"
                ) from None
            n = int(row["players"])
            if our_seats >= n:
                raise CliError(f"--our-seats must leave OpenSpiel a seat: at most {n - 1}")
            if not as_json:
                console().print(f"Timing OpenSpiel's ISMCTS and playing {games} games...")
            # Timed on the same positions, alternately: the ratio is what a shared
            # machine's load cannot skew.
            row.update(compare_speed(one, n, spec, searcher.sims, seed=seed))
            row["head_to_head"] = head_to_head(
                one, n, spec, searcher.sims, games, seed, seats=our_seats, equal_time=equal_time
            )
        row["rules"] = native.status().build
        results[one] = row
    if as_json:
        typer.echo(json.dumps(results))
        return
    console().print(native.status().line())
    table = Table(box=box.SIMPLE_HEAD)
    for column in ("Game", "Players", "Bot", "Decisions/s", "Simulations/s", "OpenSpiel sims/s"):
        table.add_column(column, justify="left" if column in ("Game", "Bot") else "right")
    for one, row in results.items():
        sims = row.get("simulations_per_second")
        theirs = row.get("openspiel_simulations_per_second")
        table.add_row(
            one,
            str(row["players"]),
            spec,
            f"{row['decisions_per_second']:,.1f}",
            "-" if sims is None else f"{sims:,.0f}",
            "-" if theirs is None else f"{theirs:,.0f}",
        )
    console().print(table)
    for one, row in results.items():
        duel = row.get("head_to_head")
        if duel is not None:
            low, high = duel["ci95"]
            budget = (
                f"{duel['openspiel_seconds_per_decision']:.3f} CPU s a decision, ours "
                f"{duel['seconds_per_decision']:.3f}"
                if duel["equal_time"]
                else f"{duel['openspiel_simulations']} simulations"
            )
            console().print(
                f"{one}: {escape(duel['spec'])} in {duel['seats']} seat(s) against OpenSpiel's "
                f"ISMCTS ({budget}) in the others: win share "
                f"{duel['win_share']:.3f} [{low:.3f}, {high:.3f}] over {duel['games']} games "
                f"(fair share {duel['fair_share']:.3f})"
            )


def bench(
    game_id: Annotated[
        str | None, typer.Argument(metavar="GAME", help="One game (default: every game).")
    ] = None,
    seconds: Annotated[float, typer.Option(help="Time per game.")] = 2.0,
    players: Annotated[
        int | None, typer.Option(help="Players (default: each game's minimum).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the first game and of the moves.")] = 0,
    repeat: Annotated[
        int, typer.Option(help="Split the time into this many trials and report the fastest.")
    ] = 3,
    as_json: JsonOpt = False,
    adapters: Annotated[
        bool,
        typer.Option(
            "--adapters",
            help="Measure the PettingZoo, Gymnasium and OpenSpiel adapters next to the engine "
            "(needs the rl extra).",
        ),
    ] = False,
    bot: Annotated[
        str | None,
        typer.Option(
            "--bot",
            metavar="SPEC",
            help="Time a bot instead (e.g. ismcts:sims=300): decisions per second, and "
            "simulations per second for a search bot.",
        ),
    ] = None,
    vs_openspiel: Annotated[
        bool,
        typer.Option(
            "--vs-openspiel",
            help="With an ismcts --bot: also time OpenSpiel's ISMCTS at the same simulation "
            "count and play --games games between them (needs the rl extra).",
        ),
    ] = False,
    games: Annotated[
        int, typer.Option(help="Games of the --vs-openspiel head-to-head.", min=1)
    ] = 4,
    our_seats: Annotated[
        int,
        typer.Option(
            help="Seats our bot takes in each --vs-openspiel game (spread round the table, "
            "turned on each deal); OpenSpiel's ISMCTS takes the others.",
            min=1,
        ),
    ] = 1,
    equal_time: Annotated[
        bool,
        typer.Option(
            "--equal-time",
            help="With --vs-openspiel: OpenSpiel's ISMCTS gets, each decision, the CPU seconds "
            "our bot has used a decision so far in the match, instead of equal simulations.",
        ),
    ] = False,
    clock: Annotated[
        str,
        typer.Option(
            help="Time by the 'wall' clock or by this process's 'cpu' seconds (steadier on "
            "a shared machine; the hearts ratio uses the same clock).",
        ),
    ] = "wall",
    hearts: Annotated[
        bool,
        typer.Option(
            "--hearts",
            help="Also time OpenSpiel's C++ hearts at random play in the same run and give "
            "our steps/s as a multiple of it (needs the rl extra).",
        ),
    ] = False,
) -> None:
    """Whole games on one core with --bot in every seat (random by default): games, steps,
    decisions and mid-game clones per second, best of trials. A search bot (ismcts) is
    timed by its decisions and simulations instead."""
    ids = [game_id] if game_id is not None else list_games()
    out = console()
    spec = bot or "random"
    if vs_openspiel or _is_search_bot(ids[0], spec):
        _bench_bot(
            ids,
            players,
            bot or "ismcts",
            seconds,
            seed,
            vs_openspiel,
            games,
            as_json,
            our_seats,
            equal_time,
        )
        return
    if adapters:
        _bench_adapters(ids, players, seconds, repeat, as_json)
        return
    results: dict[str, dict[str, Any]] = {}
    for one in ids:
        if not as_json:
            out.print(
                f"Benchmarking {escape(one)} with {escape(spec)} for {seconds:g} s "
                f"({clock} clock)..."
            )
        row = bench_best(load_game(one), players, seconds, seed, repeat, spec, clock).to_json()
        if hearts:
            row = with_hearts(row, seconds / repeat, seed)
            if "openspiel_hearts_steps_per_second" not in row:
                raise CliError("--hearts needs the rl extra (pip install 'potluck[rl]')")
        results[one] = row
    if as_json:
        typer.echo(json.dumps(results))
        return
    out.print(native.status().line())
    table = Table(box=box.SIMPLE_HEAD)
    columns = ["Game", "Seats", "Bot", "Games", "Games/s", "Steps/s", "Decide/s", "Clone/s"]
    if hearts:
        columns.append("vs hearts")
    for column in columns:
        table.add_column(column, justify="left" if column in ("Game", "Bot") else "right")
    for one, row in results.items():
        cells = [
            one,
            str(row["players"]),
            escape(str(row["bot"])),
            f"{row['games']:,}",
            f"{row['games_per_second']:,.1f}",
            f"{row['steps_per_second']:,.0f}",
            f"{row['decisions_per_second']:,.0f}",
            f"{row['clones_per_second']:,.0f}",
        ]
        if hearts:
            cells.append(f"{row['steps_ratio_to_openspiel_hearts']:.2f}")
        table.add_row(*cells)
    out.print(table)
    if spec != "random":
        out.print(
            f"Decisions/s counts the bot's own thinking time; the rest is {clock}-clock time."
        )


def _is_search_bot(game_id: str, spec: str) -> bool:
    """Whether ``spec`` names a search bot, timed by ``potluck.search.bench`` instead."""
    from potluck.agents import is_search_bot, make_agent

    return is_search_bot(make_agent(load_game(game_id), spec))


def register(app: typer.Typer) -> None:
    """Add the command to the main application."""
    app.command("bench")(reports_errors(bench))
