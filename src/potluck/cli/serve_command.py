"""``potluck serve``: the games in the browser, in one process or several.

    potluck serve --port 8000
    potluck serve --workers 4 --database-url postgresql+psycopg://USER:PW@HOST/DB

The server is ``potluck.server``; this module checks the options, claims the
port and starts (and restarts) the server processes.
"""

from __future__ import annotations

import errno
import gc
import socket
import sys
import time
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    import uvicorn

    from potluck.server.gate import ConnectionGate

from potluck.cli.common import CliError, reports_errors
from potluck.engine.registry import load_game


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
    login_rate: Annotated[
        str, typer.Option(help="Logins and sign-ups one client (address) may try.")
    ] = "10/minute;60/hour",
    login_name_rate: Annotated[
        str, typer.Option(help="Failed logins of one account name, from any address.")
    ] = "5/minute;30/hour",
    tables_per_client: Annotated[
        int, typer.Option(help="Open tables one client may have created.")
    ] = 10,
    max_tables: Annotated[int, typer.Option(help="Open tables in all.")] = 500,
    sockets_per_client: Annotated[
        int, typer.Option(help="WebSockets one client may hold open.")
    ] = 32,
    connections_per_address: Annotated[
        int,
        typer.Option(
            min=1, help="Connections (HTTP and WebSocket) one address may hold open at once."
        ),
    ] = 64,
    max_connections: Annotated[
        int,
        typer.Option(min=1, help="Connections in all (kept below the process's file limit)."),
    ] = 4000,
    header_seconds: Annotated[
        float,
        typer.Option(min=0.1, help="Seconds a request's head may take to arrive (then 408)."),
    ] = 10.0,
    body_seconds: Annotated[
        float,
        typer.Option(min=0.1, help="Seconds a request's body may take to arrive after its head."),
    ] = 30.0,
    max_body: Annotated[int, typer.Option(help="The largest request body, in bytes.")] = 65536,
    idle_minutes: Annotated[
        float, typer.Option(help="A table idle this long expires (its record is kept).")
    ] = 120.0,
    public_turn_seconds: Annotated[
        int, typer.Option(help="The turn timer of public tables created without one (0: none).")
    ] = 120,
    rated_turn_seconds: Annotated[
        int,
        typer.Option(min=5, max=86400, help="The turn timer of rated tables created without one."),
    ] = 120,
    hard_bot: Annotated[
        str | None,
        typer.Option(
            help="The bot spec a 'hard' seat plays in every game (it thinks in a worker "
            "process; default: each game's own hard bot, docs/bots.md 'Difficulties')."
        ),
    ] = None,
    bot_workers: Annotated[
        int | None,
        typer.Option(min=1, help="Processes where search bots think (default: the cores, >= 2)."),
    ] = None,
    bot_thinking_per_client: Annotated[
        int,
        typer.Option(min=1, help="Search bots of one client's tables thinking at once."),
    ] = 1,
    analysis_budget: Annotated[
        float,
        typer.Option(min=0, help="Seconds of analysis workers' CPU one client may use an hour."),
    ] = 900.0,
    analysis_pause_at: Annotated[
        int,
        typer.Option(
            min=1, help="Analyses stand still while this many bot searches run (1: play first)."
        ),
    ] = 1,
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

    for rate in (create_rate, join_rate, move_rate, analysis_rate, login_rate, login_name_rate):
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
        login_rate=login_rate,
        login_name_rate=login_name_rate,
        max_tables_per_client=tables_per_client,
        max_open_tables=max_tables,
        max_sockets_per_client=sockets_per_client,
        max_connections_per_address=connections_per_address,
        max_connections=usable_connections(max_connections),
        header_seconds=header_seconds,
        body_seconds=body_seconds,
        max_body_bytes=max_body,
        idle_seconds=idle_minutes * 60,
        public_turn_seconds=public_turn_seconds,
        rated_turn_seconds=rated_turn_seconds,
        allowed_origins=tuple(allowed_origin or ()),
        hard_bot=hard_bot,
        bot_workers=bot_workers,
        bot_thinking_per_client=bot_thinking_per_client,
        analysis_seconds_per_hour=analysis_budget,
        analysis_pause_at=analysis_pause_at,
        start_bot_workers=True,
    )
    from potluck.agents import make_agent

    if hard_bot:  # a bad spec fails here, in one line
        make_agent(load_game("cafe-carnage"), hard_bot)
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
    from potluck.server.gate import ConnectionGate

    # Behind a proxy every connection is the proxy's: its addresses are not capped at
    # the door (the app still counts each client by X-Forwarded-For).
    exempt = [ip.strip() for ip in proxy_ip.split(",")] if behind_proxy else []
    gate = ConnectionGate(settings, penalties=web.state.penalties, exempt=exempt)
    config = uvicorn_config(
        web,
        host=host,
        port=port,
        behind_proxy=behind_proxy,
        proxy_ip=proxy_ip,
        max_body=max_body,
        gate=gate,
    )
    _quiet_garbage_collector()
    uvicorn.Server(config).run(sockets=[listening])


#: Files a server process keeps for other things than its connections: the database's
#: connections, the bot workers' pipes, the log, the static files being sent.
RESERVED_FILES = 256


def usable_connections(wanted: int) -> int:
    """``wanted``, or fewer if the process's file limit cannot hold that many connections
    beside ``RESERVED_FILES``; the soft limit is raised to the hard one first. Past the
    limit every ``accept`` failed ("Too many open files", logged each time: 126 MB of
    log in 75 s under a slow-header attack at a limit of 1,024)."""
    try:
        import resource
    except ImportError:  # not on Unix: nothing to raise or read
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = 65536 if hard == resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return max(1, min(wanted, soft - RESERVED_FILES))


#: Seconds a stopping server gives its open requests before it ends them: with the
#: bots' workers ended at once, a SIGTERM under load exits within about this long.
GRACEFUL_SECONDS = 3


def uvicorn_config(
    web: Any,
    *,
    host: str,
    port: int,
    behind_proxy: bool,
    proxy_ip: str,
    max_body: int,
    gate: ConnectionGate | None = None,
) -> uvicorn.Config:
    """How `potluck serve` runs uvicorn (one function, so a test can read it). ``gate``:
    the door's caps and deadlines (``potluck.server.gate``), in uvicorn's protocols."""
    import uvicorn

    from potluck.server.settings import KEEP_ALIVE_SECONDS

    gated: dict[str, Any] = {}
    if gate is not None:
        gated = {"http": gate.http_protocol(), "ws": gate.websocket_protocol()}
    return uvicorn.Config(
        web,
        host=host,
        port=port,
        log_level="warning",
        # without a proxy nobody's X-Forwarded-* headers are believed
        proxy_headers=behind_proxy,
        forwarded_allow_ips=proxy_ip if behind_proxy else None,
        ws_max_size=max_body,  # a WebSocket message is capped like a request body
        # Python's own event loop, not uvloop: under load (200 tables) uvloop left new
        # connections seconds in the kernel's accept queue (round trip p99 2.3 to 3.0 s
        # against 0.35 to 0.44 s, same run, same CPU; docs/web-figures.md)
        loop="asyncio",
        # no per-message compression: a push is one seat's whole view, a few KB of
        # JSON, and deflating it was 14 % of the event loop's CPU at 200 tables
        # (round trip p99 52-58 ms with it, 17-48 ms without; docs/web-figures.md)
        ws_per_message_deflate=False,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
        **gated,
    )


def _quiet_garbage_collector() -> None:
    """Freeze what start-up made (modules, the games' data, the restored tables), so
    Python's cyclic garbage collector never scans it again, and collect less often: each
    full collection stops the event loop, and every table with it (at 200 tables they
    were the longest pauses of the loop; docs/web-figures.md)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


def _serve_workers(host: str, port: int, url: str, workers: int) -> None:
    """Run ``workers`` server processes on one listening socket (the kernel spreads the
    connections), restarting any that dies; they share the tables through PostgreSQL."""
    import contextlib
    import signal
    import subprocess

    from sqlalchemy.exc import SQLAlchemyError

    from potluck.server.db import make_engine, migrate

    engine = make_engine(url)
    try:
        migrate(engine)  # once, before the processes start
    except SQLAlchemyError as error:
        first_line = str(error).strip().splitlines()[0]
        raise CliError(f"cannot use the database {_safe_url(url)}: {first_line}") from None
    finally:
        engine.dispose()  # the supervisor keeps no connection of its own
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
    # IPPROTO_TCP named, not left 0: the connections accepted from it inherit the
    # number, and asyncio sets TCP_NODELAY only on sockets that carry it. Without it
    # Nagle held an answer written in two parts (head, then body) until the client's
    # delayed ACK, 40 ms later: every FoodAdvice move over a kept-alive connection.
    listening = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
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


def register(app: typer.Typer) -> None:
    """Add the command to the main application."""
    app.command("serve")(reports_errors(serve))
