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
"""

from __future__ import annotations

import errno
import json
import random
import socket
import sys
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from potluck.bench import bench_best, with_hearts
from potluck.cli.common import (
    CliError,
    DataOpt,
    GameArg,
    JsonOpt,
    SetOpt,
    console,
    load_json,
    parse_agents,
    parse_settings,
    players_text,
    reports_errors,
    save_record,
)
from potluck.cli.lab import lab_app
from potluck.cli.ladder import register as register_ladder
from potluck.cli.play import PlaySession, parse_seats
from potluck.cli.render import format_value
from potluck.cli.replay import check_record, run_replay
from potluck.engine.game import Game
from potluck.engine.registry import list_games, load_game
from potluck.sim import GameResult, SimulationSummary, simulate

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


@app.command()
@reports_errors
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


@app.command("simulate")
@reports_errors
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
            if not as_json:
                console().print(f"Timing OpenSpiel's ISMCTS and playing {games} games...")
            # Timed on the same positions, alternately: the ratio is what a shared
            # machine's load cannot skew.
            row.update(compare_speed(one, n, spec, searcher.sims, seed=seed))
            row["head_to_head"] = head_to_head(one, n, spec, searcher.sims, games, seed)
        results[one] = row
    if as_json:
        typer.echo(json.dumps(results))
        return
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
            console().print(
                f"{one}: {escape(spec)} in one seat against OpenSpiel's ISMCTS "
                f"({duel['openspiel_simulations']} simulations) in the others: win share "
                f"{duel['win_share']:.3f} [{low:.3f}, {high:.3f}] over {duel['games']} games "
                f"(fair share {duel['fair_share']:.3f})"
            )


@app.command()
@reports_errors
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
        _bench_bot(ids, players, bot or "ismcts", seconds, seed, vs_openspiel, games, as_json)
        return
    if adapters:
        _bench_adapters(ids, players, seconds, repeat, as_json)
        return
    results: dict[str, dict[str, Any]] = {}
    for one in ids:
        if not as_json:
            out.print(f"Benchmarking {escape(one)} with {escape(spec)} for {seconds:g} s...")
        row = bench_best(load_game(one), players, seconds, seed, repeat, spec).to_json()
        if hearts:
            row = with_hearts(row, seconds / repeat, seed)
            if "openspiel_hearts_steps_per_second" not in row:
                raise CliError("--hearts needs the rl extra (pip install 'potluck[rl]')")
        results[one] = row
    if as_json:
        typer.echo(json.dumps(results))
        return
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
        out.print("Decisions/s counts the bot's own thinking time; the rest is wall time.")


def _is_search_bot(game_id: str, spec: str) -> bool:
    """Whether ``spec`` names a search bot, timed by ``potluck.search.bench`` instead."""
    from potluck.agents import SearchBot, make_agent

    return isinstance(make_agent(load_game(game_id), spec), SearchBot)


@app.command()
@reports_errors
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: the network).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            help="SQLAlchemy URL, e.g. postgresql+psycopg://user:pw@host/db "
            "(default: a SQLite file in your data directory).",
        ),
    ] = None,
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before it moves.")] = 0.6,
    behind_proxy: Annotated[
        bool,
        typer.Option(
            "--behind-proxy",
            help="Trust X-Forwarded-For/-Proto from --proxy-ip (a TLS proxy in front): "
            "client addresses for the limits, https for Secure cookies and origins.",
        ),
    ] = False,
    proxy_ip: Annotated[
        str, typer.Option(help="The proxy's address(es), comma-separated, or '*'.")
    ] = "127.0.0.1",
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option(help="An origin (https://host[:port]) allowed besides the server's own."),
    ] = None,
    create_rate: Annotated[str, typer.Option(help="Tables one client may create.")] = ("10/minute"),
    join_rate: Annotated[str, typer.Option(help="Seats one client may take.")] = "30/minute",
    move_rate: Annotated[str, typer.Option(help="Moves (and other changes) per client.")] = (
        "10/second;300/minute"
    ),
    analysis_rate: Annotated[
        str, typer.Option(help="New move analyses one client may ask for.")
    ] = "6/minute",
    tables_per_client: Annotated[
        int, typer.Option(help="Open tables one client may have created.")
    ] = 10,
    max_tables: Annotated[int, typer.Option(help="Open tables in all.")] = 500,
    sockets_per_client: Annotated[
        int, typer.Option(help="WebSockets one client may hold open.")
    ] = 32,
    max_body: Annotated[int, typer.Option(help="The largest request body, in bytes.")] = 65536,
    idle_minutes: Annotated[
        float, typer.Option(help="A table idle this long expires (its record is kept).")
    ] = 120.0,
    public_turn_seconds: Annotated[
        int, typer.Option(help="The turn timer of public tables created without one (0: none).")
    ] = 120,
    hard_bot: Annotated[
        str,
        typer.Option(help="The bot spec a 'hard' seat plays (it thinks in a worker process)."),
    ] = "ismcts:sims=2000,time=1.5",
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            help="Server processes on this machine, sharing the port and the database "
            "(more than 1 needs PostgreSQL).",
        ),
    ] = 1,
    cluster: Annotated[
        bool,
        typer.Option(
            "--cluster",
            help="Other servers (on other machines) share this PostgreSQL database: "
            "run the tables together with them (implied by --workers 2 or more).",
        ),
    ] = False,
    socket_fd: Annotated[int | None, typer.Option(hidden=True)] = None,
) -> None:
    """Serve the games in the browser: a lobby, live tables with bots, and replays.

    Every limit has a safe default for a server on the internet; see docs/web.md, "Hosting".
    """
    try:
        import uvicorn

        from potluck.server import create_app
        from potluck.server.db import default_database_url
    except ImportError as missing:
        raise CliError(
            f"the server needs the web extra ({missing.name} is missing): "
            "pip install 'potluck[web]'"
        ) from None
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from potluck.server.ratelimit import parse_rates
    from potluck.server.settings import ServerSettings

    for rate in (create_rate, join_rate, move_rate, analysis_rate):
        try:
            parse_rates(rate)
        except ValueError:
            raise CliError(
                f"{rate!r} is not a rate: write e.g. 10/minute, 5/second;100/hour or none"
            ) from None
    settings = ServerSettings(
        create_rate=create_rate,
        join_rate=join_rate,
        move_rate=move_rate,
        analysis_rate=analysis_rate,
        max_tables_per_client=tables_per_client,
        max_open_tables=max_tables,
        max_sockets_per_client=sockets_per_client,
        max_body_bytes=max_body,
        idle_seconds=idle_minutes * 60,
        public_turn_seconds=public_turn_seconds,
        allowed_origins=tuple(allowed_origin or ()),
        hard_bot=hard_bot,
    )
    from potluck.agents import make_agent

    make_agent(load_game("cafe-carnage"), hard_bot)  # a bad spec fails here, in one line
    url = database_url or default_database_url()
    if (workers > 1 or cluster) and not url.startswith("postgresql"):
        option = f"--workers {workers}" if workers > 1 else "--cluster"
        raise CliError(
            f"{option} needs PostgreSQL (--database-url postgresql+psycopg://USER:PW@HOST/DB): "
            "with SQLite each process would run its own copy of every table; "
            "run one process, or see docs/web.md, 'Scaling'"
        )
    if workers > 1:
        _serve_workers(host, port, url, workers)
        return
    try:
        web = create_app(url, bot_delay=bot_delay, settings=settings, cluster=cluster)
    except (SQLAlchemyError, ArgumentError, ImportError) as error:
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else repr(error)
        raise CliError(f"cannot use the database {_safe_url(url)}: {first_line}") from None
    if socket_fd is not None:  # one of --workers' processes: the port is its parent's
        listening = socket.socket(fileno=socket_fd)
    else:
        # Claim the port before saying the server started: a busy port gets one clear line.
        listening = _bind_port(host, port)
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        typer.echo(f"Potluck is served at http://{shown}:{port}/  (database: {_safe_url(url)})")
        typer.echo("Open that address in a browser; Ctrl+C stops the server.")
    config = uvicorn.Config(
        web,
        host=host,
        port=port,
        log_level="warning",
        # without a proxy nobody's X-Forwarded-* headers are believed
        proxy_headers=behind_proxy,
        forwarded_allow_ips=proxy_ip if behind_proxy else None,
        ws_max_size=max_body,  # a WebSocket message is capped like a request body
    )
    uvicorn.Server(config).run(sockets=[listening])


def _serve_workers(host: str, port: int, url: str, workers: int) -> None:
    """Run ``workers`` server processes on one listening socket (the kernel spreads the
    connections), restarting any that dies; they share the tables through PostgreSQL."""
    import contextlib
    import signal
    import subprocess

    from sqlalchemy.exc import SQLAlchemyError

    from potluck.server.db import make_engine, migrate

    try:
        migrate(make_engine(url))  # once, before the processes start
    except SQLAlchemyError as error:
        first_line = str(error).strip().splitlines()[0]
        raise CliError(f"cannot use the database {_safe_url(url)}: {first_line}") from None
    listening = _bind_port(host, port)
    fd = listening.fileno()
    command = [sys.executable, "-m", "potluck.cli", *sys.argv[1:]]
    command += ["--workers", "1", "--cluster", "--socket-fd", str(fd)]

    def die_with_parent() -> None:
        """Linux: a process whose supervisor is killed (even with SIGKILL) stops too."""
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG

    def start() -> subprocess.Popen[bytes]:
        linux = sys.platform.startswith("linux")
        return subprocess.Popen(
            command, pass_fds=[fd], preexec_fn=die_with_parent if linux else None
        )

    processes = [start() for _ in range(workers)]
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(
        f"Potluck is served at http://{shown}:{port}/ by {workers} processes "
        f"({', '.join(str(p.pid) for p in processes)}; database: {_safe_url(url)})"
    )
    typer.echo("Open that address in a browser; Ctrl+C stops the server.")
    stopping = False

    def stop(_signal: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while not stopping:
        time.sleep(0.5)
        for index, process in enumerate(processes):
            if process.poll() is not None and not stopping:
                typer.echo(
                    f"server process {process.pid} ended ({process.returncode}); "
                    "its tables go on in the others; starting another",
                    err=True,
                )
                processes[index] = start()
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


def _bind_port(host: str, port: int) -> socket.socket:
    """A listening socket on host:port, or a one-line error naming another way to start."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind((host, port))
    except OSError as error:
        listening.close()
        if error.errno == errno.EADDRINUSE:
            raise CliError(
                f"port {port} on {host} is already in use (another server?): choose another "
                f"with `potluck serve --port {port + 1}` or `make play PORT={port + 1}`"
            ) from None
        raise CliError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    listening.listen(2048)
    listening.set_inheritable(True)
    return listening


def _safe_url(url: str) -> str:
    """The database URL without its password, for printing."""
    scheme, sep, rest = url.partition("://")
    credentials, at, place = rest.rpartition("@")
    if not at:
        return url
    user = credentials.split(":", 1)[0]
    return f"{scheme}{sep}{user}:***@{place}"


def main() -> None:
    """Console entry point (``potluck`` in pyproject.toml)."""
    app(prog_name="potluck")


if __name__ == "__main__":  # pragma: no cover
    main()
