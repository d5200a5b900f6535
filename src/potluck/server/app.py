"""The ASGI app: the JSON API, the WebSocket and the pages, over a ``TableService``.

    from potluck.server import create_app
    app = create_app("sqlite:///potluck.sqlite3", bot_delay=0.6)
    # uvicorn.run(app) -- or: potluck serve --port 8000

The API is documented at ``/openapi.json``. A seat proves who it is with its
secret token: ``Authorization: Bearer <token>``, the ``token`` query parameter of
the WebSocket, or the cookie that joining or opening the seat link sets. A
table's creator proves it with ``X-Host-Token`` or the cookie creating sets.
Every 4xx and 5xx, the framework's own included, has one JSON shape:
``{"error": code, "reason": sentence}``; for an illegal action the sentence is the
engine's own ``explain`` reason. The limits are ``ServerSettings``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, FastAPI, Header, Query, Request, Response
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from potluck.server.access import (
    Identity,
    client_of,
    cookie_name,
    host_cookie,
    invite_cookie,
    set_cookie,
)
from potluck.server.accountroutes import add_account_routes
from potluck.server.accounts import AccountService
from potluck.server.api import (
    MAX_INDEX,
    ActionIn,
    CreateTable,
    ErrorBody,
    Explained,
    Invite,
    InviteAccount,
    Join,
    Joined,
    JoinLink,
    ServerFacts,
    TableCreated,
    TablePage,
)
from potluck.server.db import default_database_url, make_engine, migrate
from potluck.server.gate import Penalties, PenaltyCheck
from potluck.server.guard import BodyLimit, OriginCheck, SecurityHeaders
from potluck.server.live import LiveTable, TableError
from potluck.server.openapi import allowed_methods, exact_schema
from potluck.server.pageroutes import add_page_routes, known_game
from potluck.server.ratelimit import RateLimits
from potluck.server.rematchroutes import add_rematch_routes
from potluck.server.replayroutes import add_replay_routes
from potluck.server.rules import rules_of
from potluck.server.settings import ServerSettings
from potluck.server.sockets import add_websocket, to_json_bytes
from potluck.server.tableservice import TableService

HERE = Path(__file__).parent
COOKIE_DAYS = 30
log = logging.getLogger("potluck.server")


Auth = Annotated[
    str | None,
    Header(alias="Authorization", description="`Bearer <seat token>`; none: spectator."),
]
HostToken = Annotated[
    str | None, Header(alias="X-Host-Token", description="The table creator's secret.")
]
TableId = Annotated[str, PathParam(max_length=32)]
SeatNo = Annotated[int, PathParam(ge=0, le=63)]
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": text}
    for code, text in {
        400: "Not an action of this game",
        401: "No or a wrong seat token",
        403: "Not allowed: a foreign Origin, a missing invite, not the creator",
        404: "No such table, seat or page",
        405: "Method not allowed",
        409: "Refused now: not your turn, illegal, already answered, taken, over",
        413: "The request body is too large",
        422: "The request is malformed or out of range",
        429: "Too many requests: see Retry-After",
        500: "The server failed",
        503: "The server is full, or could not store the change (nothing changed)",
    }.items()
}
STATUS_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    422: "malformed_request",
    429: "too_many_requests",
}


def error_response(
    status: int, code: str, reason: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """The one error shape."""
    return JSONResponse({"error": code, "reason": reason}, status, headers=headers)


def create_app(
    database_url: str | None = None,
    *,
    bot_delay: float = 0.6,
    sweep_every: float = 1.0,
    service: TableService | None = None,
    settings: ServerSettings | None = None,
    cluster: bool = False,
) -> FastAPI:
    """The Potluck server app over ``database_url`` (default: a SQLite file in the user's
    data directory). The schema is migrated and every stored table restored here."""
    settings = settings or (service.settings if service else ServerSettings())
    #: The engine this app made (a service passed in brings its owner's, who disposes it).
    own_engine = None
    if service is None:
        own_engine = make_engine(database_url or default_database_url())
        migrate(own_engine)
        service = TableService(own_engine, bot_delay=bot_delay, settings=settings, cluster=cluster)
        service.load_all()
    tables = service
    rates = RateLimits(settings)
    accounts = AccountService(tables.engine)
    identity = Identity(tables, accounts)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        async def sweeper() -> None:
            while True:
                await asyncio.sleep(sweep_every)
                try:
                    await tables.sweep()
                except Exception:  # one bad sweep must not stop the timers for good
                    log.exception("the sweep failed")

        task = None
        try:  # a start-up that fails half-way still closes what it opened
            if tables.cluster is not None:
                if rates.limited:  # the processes' counts meet in the database once a round
                    rates.start_sharing()
                    tables.cluster.every_round.append(rates.share)
                await tables.cluster.start()  # its first round claims the tables nobody runs
            if settings.start_bot_workers:
                try:
                    await asyncio.to_thread(tables.bot_pool.start)
                    await asyncio.to_thread(tables.analyses.start_workers)
                except Exception:  # the tables play on; a search bot's move starts it again
                    log.exception("the bot worker process did not start")
                    tables.bot_pool.shutdown()
                    tables.analyses.pool.shutdown()
            await tables.resume_bots()
            task = asyncio.create_task(sweeper())
            yield
        finally:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await tables.close()  # the bots' tasks, the bot workers, the own connections
            accounts.close()
            if own_engine is not None:
                # the pool's connections too: a host that starts and stops apps in one
                # process (the tests do, hundreds of times) would otherwise keep each
                # app's connections until the garbage collector found them
                await asyncio.to_thread(own_engine.dispose)

    app = FastAPI(
        title="Potluck",
        summary="Play the Potluck games in the browser, with friends and bots.",
        description=(
            "A table is authoritative on the server. Each seat has a secret token "
            "(`Authorization: Bearer <token>`); without one you are a spectator. "
            'Every error is `{"error": code, "reason": sentence}`.'
        ),
        version="1",
        lifespan=lifespan,
        responses=ERRORS,
        # the interactive /docs page loads scripts from a CDN, which the pages' policy forbids
        docs_url=None,
        redoc_url=None,
    )
    app.state.service = tables
    app.state.settings = settings
    #: Addresses refused for a while (a flooding WebSocket): read by the door too
    #: (``potluck.server.gate``), which ``potluck serve`` builds around this app.
    app.state.penalties = penalties = Penalties()
    app.openapi = exact_schema(app)  # type: ignore[method-assign]
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    app.add_middleware(OriginCheck, allowed=settings.allowed_origins)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(PenaltyCheck, penalties=penalties)

    @app.exception_handler(TableError)
    async def _refused(_: Request, error: TableError) -> JSONResponse:
        return error_response(error.status, error.code, error.reason, error.headers)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, error: HTTPException) -> JSONResponse:
        code = STATUS_CODES.get(error.status_code, f"http_{error.status_code}")
        reason = str(error.detail) if error.detail else "The request was refused."
        headers = dict(error.headers or {})
        if error.status_code == 404 and reason == "Not Found":
            reason = "There is no such page or resource."
        if error.status_code == 405:
            reason = "This method is not allowed here."
            # every route of this path's methods, not only the first route's
            headers["Allow"] = ", ".join(allowed_methods(app, request.scope))
        return error_response(error.status_code, code, reason, headers)

    @app.exception_handler(RequestValidationError)
    async def _malformed(_: Request, error: RequestValidationError) -> JSONResponse:
        problems = []
        for item in error.errors()[:10]:
            where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
            problems.append(f"{where[:60] or 'the request'}: {item.get('msg', 'is not valid')}")
        return error_response(422, "malformed_request", "; ".join(problems) + ".")

    @app.exception_handler(Exception)
    async def _failed(_: Request, error: Exception) -> JSONResponse:
        log.exception("a request failed", exc_info=error)
        return error_response(500, "internal_error", "The server failed; nothing was changed.")

    async def seat_of(
        request: Request, table: LiveTable, bearer: str | None, *, change: bool = False
    ) -> int | None:
        return await identity.seat(request, table, bearer, change=change)

    async def require_seat(
        request: Request, table: LiveTable, bearer: str | None, seat: int
    ) -> None:
        mine = await seat_of(request, table, bearer, change=True)
        if mine is None:
            raise TableError(
                401, "no_seat", "Only a seated player may do this: send your seat's token."
            )
        if mine != seat:
            raise TableError(403, "not_your_seat", f"Your token is not seat {seat}'s.")

    async def is_host(
        request: Request, table: LiveTable, header: str | None, *, change: bool = False
    ) -> bool:
        if tables.is_host(table, header or request.cookies.get(host_cookie(table.id))):
            return True
        if table.account is None:
            return False
        account = await identity.account(request, change=change)
        return account is not None and account.id == table.account

    async def require_host(request: Request, table: LiveTable, header: str | None) -> None:
        if not await is_host(request, table, header, change=True):
            raise TableError(
                403, "not_the_creator", "Only the table's creator may do this (X-Host-Token)."
            )

    # ------------------------------------------------------------------ API

    @app.get("/api/games", tags=["games"])
    async def list_games() -> list[dict[str, Any]]:
        """Every game: players, options (type, default, help), bot names and rules summary."""
        return tables.games()

    @app.get("/api/games/{game_id}/rules", tags=["games"])
    async def game_rules(game_id: str) -> dict[str, str]:
        """A game's rules summary and notation as sanitised HTML (rendered from its Markdown)."""
        return rules_of(known_game(game_id))

    @app.get("/api/tables", tags=["tables"])
    async def list_tables(
        status: Annotated[
            str | None,
            Query(
                pattern="^(open|running|over|expired|closed)$",
                description="open, running, over, expired, closed (by its creator)",
            ),
        ] = None,
        offset: Annotated[int, Query(ge=0, le=MAX_INDEX)] = 0,
        limit: Annotated[int | None, Query(ge=1, le=1000, description="page size")] = None,
    ) -> TablePage:
        """The lobby: public tables, newest first, one page at a time (private ones are
        never listed; without ``status``, expired and closed ones are left out)."""
        size = min(limit or 50, settings.max_page)
        page, total = tables.list_tables(status, offset, size)
        return TablePage(tables=page, total=total, offset=offset, limit=size)

    @app.post(
        "/api/tables",
        status_code=201,
        tags=["tables"],
        openapi_extra={
            "responses": {
                "201": {
                    "links": {
                        "JoinSeat": {
                            "operationId": "join",
                            "parameters": {"table_id": "$response.body#/id", "seat": 0},
                        },
                        "GetTable": {
                            "operationId": "get_table",
                            "parameters": {"table_id": "$response.body#/id"},
                        },
                    }
                }
            }
        },
    )
    async def create_table(spec: CreateTable, request: Request, response: Response) -> TableCreated:
        """Create a table; returns its id, the creator's secret and one join link per human
        seat (on a private table each link carries that seat's invite code)."""
        rates.hit("create", client_of(request))
        account = await identity.account(request, change=True)
        created = tables.create_table(
            spec.game,
            len(spec.seats) if spec.num_players is None else spec.num_players,
            spec.options,
            spec.seats,
            turn_seconds=spec.turn_seconds,
            seed=spec.seed,
            private=spec.private,
            practice=spec.practice,
            creator=client_of(request),
            start=None if spec.from_table is None else (spec.from_table, spec.from_step or 0),
            rated=spec.rated,
            account=account.id if account is not None else None,
        )
        table = created.table
        set_cookie(request, response, host_cookie(table.id), created.host_token, COOKIE_DAYS)
        await tables.created(table.id)
        await tables.wake_bots(table)
        return TableCreated(
            id=table.id,
            url=f"/tables/{table.id}",
            private=table.private,
            host_token=created.host_token,
            join=[JoinLink(**link) for link in created.links],
        )

    @app.post(
        "/api/tables/{table_id}/seats/{seat}",
        tags=["seats"],
        operation_id="join",
        openapi_extra={
            "responses": {
                "200": {
                    "links": {
                        "Act": {
                            "operationId": "act",
                            "parameters": {
                                "table_id": "$response.body#/table",
                                "Authorization": "Bearer {$response.body#/token}",
                            },
                        },
                        "Leave": {
                            "operationId": "leave",
                            "parameters": {
                                "table_id": "$response.body#/table",
                                "seat": "$response.body#/seat",
                                "Authorization": "Bearer {$response.body#/token}",
                            },
                        },
                    }
                }
            }
        },
    )
    async def join(
        table_id: TableId, seat: SeatNo, body: Join, request: Request, response: Response
    ) -> Joined:
        """Take a free seat by name; returns the seat's token (and sets it as a cookie).
        A private table's seat needs its invite code."""
        rates.hit("join", client_of(request))
        invite = body.invite or request.cookies.get(invite_cookie(table_id, seat))
        account = await identity.account(request, change=True)
        if account is None and body.name and await accounts.find(body.name) is not None:
            raise TableError(
                409,
                "name_taken",
                f"{body.name.strip()!r} is a player's account: log in to sit down under it, "
                "or choose another name.",
            )
        token = await tables.join(
            table_id, seat, body.name, invite, practice=body.practice, account=account
        )
        if account is None:  # an account's seat follows its session, on any device
            set_cookie(request, response, cookie_name(table_id), token, COOKIE_DAYS)
        response.delete_cookie(invite_cookie(table_id, seat))
        return Joined(
            table=table_id, seat=seat, token=token, seat_link=f"/tables/{table_id}/seat/{token}"
        )

    @app.delete("/api/tables/{table_id}/seats/{seat}", tags=["seats"], operation_id="leave")
    async def leave(
        table_id: TableId, seat: SeatNo, request: Request, authorization: Auth = None
    ) -> dict[str, Any]:
        """Leave the table: a bot plays your seat until you take it back."""
        rates.hit("move", client_of(request))
        table = await tables.fresh(table_id)
        await require_seat(request, table, authorization, seat)
        await tables.leave(table_id, seat)
        return tables.payload(table, seat)

    @app.post("/api/tables/{table_id}/seats/{seat}/return", tags=["seats"])
    async def come_back(
        table_id: TableId, seat: SeatNo, request: Request, authorization: Auth = None
    ) -> dict[str, Any]:
        """Take your seat back from the bot that played it while you were away."""
        rates.hit("move", client_of(request))
        table = await tables.fresh(table_id)
        await require_seat(request, table, authorization, seat)
        await tables.come_back(table_id, seat)
        return tables.payload(table, seat)

    @app.post("/api/tables/{table_id}/seats/{seat}/invite", tags=["host"])
    async def reissue_invite(
        table_id: TableId,
        seat: SeatNo,
        request: Request,
        body: Annotated[InviteAccount | None, Body()] = None,
        x_host_token: HostToken = None,
    ) -> Invite:
        """The creator: a new invite link for a private table's open seat (the old link
        stops working); or, with ``account``, keep the seat (on any table) for that
        account: only they may take it, and it is in their "Your tables"."""
        rates.hit("move", client_of(request))
        table = await tables.fresh(table_id)
        await require_host(request, table, x_host_token)
        if body is not None and body.account is not None:
            invited = await accounts.find(body.account)
            if invited is None:
                raise TableError(404, "no_player", f"There is no player {body.account!r}.")
            await tables.invite_account(table_id, seat, invited)
            return Invite(seat=seat, join=None, invited=invited.name)
        return Invite(seat=seat, join=await tables.reissue_invite(table_id, seat), invited=None)

    @app.post("/api/tables/{table_id}/seats/{seat}/kick", tags=["host"])
    async def kick(
        table_id: TableId, seat: SeatNo, request: Request, x_host_token: HostToken = None
    ) -> dict[str, Any]:
        """The creator: a bot takes the seat of an absent player (or a seat nobody took);
        that player's token stops working. Returns the table as the lobby lists it."""
        rates.hit("move", client_of(request))
        table = await tables.fresh(table_id)
        await require_host(request, table, x_host_token)
        await tables.kick(table_id, seat)
        return table.summary()

    @app.post("/api/tables/{table_id}/close", tags=["host"])
    async def close(
        table_id: TableId,
        request: Request,
        authorization: Auth = None,
        x_host_token: HostToken = None,
    ) -> dict[str, Any]:
        """The creator closes the table: the game ends for everyone at it (status
        ``closed``; no more moves), its record is kept (``GET .../record``, the replay),
        and it no longer counts against the creator's open tables. Returns the table as
        the caller sees it."""
        rates.hit("move", client_of(request))
        table = await tables.fresh(table_id)
        await require_host(request, table, x_host_token)
        await tables.close_table(table_id)
        body = tables.payload(table, await seat_of(request, table, authorization))
        body["host"] = True
        return body

    @app.get("/api/server", tags=["games"])
    async def server_facts() -> ServerFacts:
        """The settings a client may show: the public tables' default turn timer, how
        many open tables one client may have, when an idle table expires."""
        return ServerFacts(
            public_turn_seconds=settings.public_turn_seconds or None,
            max_tables_per_client=settings.max_tables_per_client,
            idle_minutes=settings.idle_seconds / 60,
        )

    @app.get("/api/tables/{table_id}", tags=["play"], operation_id="get_table")
    async def get_table(
        table_id: TableId,
        request: Request,
        authorization: Auth = None,
        x_host_token: HostToken = None,
    ) -> dict[str, Any]:
        """The seat's view, `decision`, `to_act` and legal actions (no token: the
        spectator view); `host` says whether the caller created the table.

        `legal` lists `{action, label}`; `illegal` maps the seat's other actions to
        the reason they are not allowed now.
        """
        table = await tables.fresh(table_id)
        body = tables.payload(table, await seat_of(request, table, authorization))
        body["host"] = await is_host(request, table, x_host_token)
        return body

    @app.post(
        "/api/tables/{table_id}/actions",
        tags=["play"],
        operation_id="act",
        response_model=dict[str, Any],
    )
    async def act(
        table_id: TableId,
        request: Request,
        body: Annotated[ActionIn, Body()],
        authorization: Auth = None,
    ) -> Response:
        """Take an action (its text) as the seat's decision `decision`; returns the new
        view, or a 4xx carrying the reason (409 `already_answered` for a move sent twice)."""
        rates.hit("move", client_of(request))
        table = await tables.fresh(table_id)
        seat = await seat_of(request, table, authorization, change=True)
        if seat is None:
            raise TableError(
                401, "no_seat", "Only a seated player may do this: send your seat's token."
            )
        await tables.act(table_id, seat, body.action, body.decision)
        # written as the pushes are (orjson), not through the response model's
        # validation: every player's move answers with its whole view
        return Response(to_json_bytes(tables.payload(table, seat)), media_type="application/json")

    @app.get("/api/tables/{table_id}/explain", tags=["play"])
    async def explain(
        table_id: TableId,
        request: Request,
        action: Annotated[str, Query(max_length=200, description="An action's text.")],
        authorization: Auth = None,
    ) -> Explained:
        """Whether the seat may take `action` now, and if not, why."""
        table = await tables.fresh(table_id)
        seat = await seat_of(request, table, authorization)
        if seat is None:
            raise TableError(
                401, "no_seat", "Only a seated player may do this: send your seat's token."
            )
        reason = tables.explain(table_id, seat, action)
        return Explained(action=action, legal=reason is None, reason=reason)

    add_replay_routes(app, tables, rates)
    add_websocket(app, tables, rates, settings, penalties, identity)
    add_account_routes(app, tables, accounts, identity, rates, settings)
    add_rematch_routes(app, tables, identity, rates)

    add_page_routes(app, tables)

    return app
