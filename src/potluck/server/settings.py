"""What a host may tune: rate limits, caps, sizes, timers, origins and the proxy.

Every limit has a safe default for a server on the internet; tests and the load
tool raise them. ``potluck serve --help`` sets each one from the command line.

    >>> settings = ServerSettings(create_rate="100/minute", max_open_tables=2000)
    >>> settings.max_body_bytes
    65536
"""

from __future__ import annotations

from dataclasses import dataclass

from potluck.engine.text import written_text_problem

#: Seeds are stored as signed 64-bit integers.
MAX_SEED = 2**63 - 1
MIN_TURN_SECONDS = 5
MAX_TURN_SECONDS = 24 * 3600
MAX_NAME = 40

#: How long an idle HTTP connection is kept open (uvicorn's default is 5 s). A player
#: moves every few seconds to a minute; with 5 s nearly every move opened a new TCP
#: connection (at 1,000 tables about one per move: accept, close, and the closed
#: transports' reference cycles for the garbage collector). Proxies keep theirs longer
#: too (nginx: 75 s).
KEEP_ALIVE_SECONDS = 60


@dataclass(frozen=True)
class ServerSettings:
    """The server's limits (rates use the ``limits`` library's notation: ``N/second``,
    ``N/minute``, ``N/hour``, several separated by ``;``)."""

    #: Tables one client may create.
    create_rate: str = "10/minute"
    #: Seats one client may take.
    join_rate: str = "30/minute"
    #: Moves one client may send (HTTP and WebSocket together), and any other
    #: state-changing request (leave, come back, invite, kick).
    move_rate: str = "10/second;300/minute"
    #: New move analyses one client may ask for (each judges every move of a seat).
    analysis_rate: str = "6/minute"
    #: Seconds of analysis workers' CPU one client may spend an hour: a new analysis
    #: is charged its bound (moves x ``analysis_move_seconds``) and refunded what it
    #: did not use; past the budget, 429 with ``Retry-After`` (``potluck.server.analyses``).
    analysis_seconds_per_hour: float = 900.0
    #: The most CPU time one analysed move may take (the judge stops between playouts;
    #: a worker held stopped while bots think spends none).
    analysis_move_seconds: float = 2.0
    #: Worker processes for analyses, apart from the bots' (play never waits for them).
    analysis_workers: int = 1
    #: Analyses waiting or running in all; past it, 503 ``analysis_busy``.
    max_analyses: int = 32
    #: Play comes first: analyses stand still (their workers stopped) while this many
    #: bot searches or more run. 1: strict priority, right for a machine with few
    #: cores; a host with cores to spare lets analyses share them (say, cores - 1).
    analysis_pause_at: int = 1
    #: ... but never for ever: an analysis held stopped this long goes on for
    #: ``analysis_move_seconds`` beside the bots, then waits again (on a server where
    #: some bot always thinks, analyses advance about a fifteenth of the time).
    analysis_most_held_seconds: float = 30.0
    #: Logins and sign-ups one client (one address) may try, and password checks
    #: (changing it, deleting the account).
    login_rate: str = "10/minute;60/hour"
    #: Failed logins (and refused sign-ups) of one account name, from any address.
    login_name_rate: str = "5/minute;30/hour"
    #: Open or running tables one client may have created.
    max_tables_per_client: int = 10
    #: Open or running tables in all.
    max_open_tables: int = 500
    #: WebSockets one client may hold open at once (closed with 4429 beyond).
    max_sockets_per_client: int = 32
    #: Refusals a WebSocket may be sent for sending too fast before it is closed (4429)
    #: and its address refused for ``penalty_seconds``.
    socket_refusals: int = 10
    #: How long an address whose WebSocket flooded is refused (``potluck.server.gate``).
    penalty_seconds: float = 30.0
    #: Connections (HTTP and WebSocket) one address may hold open at once: a browser
    #: holds about 6 plus one WebSocket per open table page (``potluck.server.gate``).
    max_connections_per_address: int = 64
    #: Connections in all (``potluck serve`` keeps it below the process's file limit).
    max_connections: int = 4000
    #: Seconds a request's line and headers may take to arrive, from its first byte.
    header_seconds: float = 10.0
    #: Seconds a request's body may take to arrive, from the end of its head.
    body_seconds: float = 30.0
    #: The largest request body, in bytes (413 beyond).
    max_body_bytes: int = 64 * 1024
    #: A table where nothing happened for this long expires (its record is kept).
    idle_seconds: float = 2 * 3600
    #: The turn timer of a public table created without one (private tables: none).
    public_turn_seconds: int = 120
    #: The turn timer of a rated table created without one: a rated game always has one,
    #: so a player who walks away is replaced by a bot and the game ends.
    rated_turn_seconds: int = 120
    #: The most tables one page of ``GET /api/tables`` holds.
    max_page: int = 100
    #: Origins (``https://host[:port]``) allowed besides the server's own.
    allowed_origins: tuple[str, ...] = ()
    #: The bot spec a "hard" seat plays in every game; ``None``: each game's own hard bot
    #: (``botpool.hard_spec``: the game's tuned search or the policy-improvement bot,
    #: either capped at 0.4 s a decision, so a round of five hard bots takes about 2 s).
    #: A host may give it more.
    hard_bot: str | None = None
    #: Worker processes where search bots think (``None``: the machine's cores, at
    #: least 2, so that one client's bots never hold them all; they run at the lowest
    #: OS priority, so the event loop always comes first).
    bot_workers: int | None = None
    #: Search bots of one client's tables (by the address that created them) thinking
    #: at once (``potluck.server.thinking``): the rest of that client's wait their turn.
    bot_thinking_per_client: int = 1
    #: The judge of a finished game's moves on the replay page (``potluck.judge``): its
    #: playouts stop each move after at most 2 s of CPU (its ``time``).
    analysis_bot: str = "playouts"
    #: Start the search bots' worker process when the server starts, not at the first
    #: hard bot's move (its imports would then take CPU from the tables playing).
    #: ``potluck serve`` sets it; tests and embedders leave it off.
    start_bot_workers: bool = False


def name_problem(name: str) -> str | None:
    """Why ``name`` is not a player's name (``None``: it is one).

    >>> name_problem("Ann"), name_problem("A\\x07nn") is not None
    (None, True)
    """
    if not name:
        return "Give a name to sit down with."
    if len(name) > MAX_NAME:
        return f"A name has at most {MAX_NAME} characters."
    return written_text_problem(name, "A name")
