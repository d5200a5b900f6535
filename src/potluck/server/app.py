"""The ASGI app: the JSON API, the WebSocket and the pages, over a ``TableService``.

    from potluck.server import create_app
    app = create_app("sqlite:///potluck.sqlite3", bot_delay=0.6)
    # uvicorn.run(app) -- or: potluck serve --port 8000

The API is documented at ``/openapi.json`` (and browsable at ``/docs``). A seat
proves who it is with its secret token: ``Authorization: Bearer <token>``, the
``token`` query parameter of the WebSocket, or the cookie that joining or
opening the seat link sets. Every refusal is a 4xx whose JSON body is
``{"error": code, "reason": sentence}``; the sentence is the engine's own
``explain`` reason for an illegal action.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from potluck.server.db import default_database_url, make_engine, migrate
from potluck.server.tables import LiveTable, TableError, TableService, Watcher

HERE = Path(__file__).parent
PAGES = HERE / "pages"
COOKIE_DAYS = 30


def cookie_name(table_id: str) -> str:
    """The cookie that keeps a browser's seat token for one table."""
    return f"potluck_seat_{table_id}"


# ---------------------------------------------------------------------- API models


class ErrorBody(BaseModel):
    """Every refusal: a short code and a sentence a player understands."""

    error: str = Field(examples=["illegal_action"])
    reason: str = Field(examples=["Orders are being taken: choose a starter from your menu first."])


class CreateTable(BaseModel):
    """A new table: the game, its players and options, and who sits where."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(examples=["cafe-carnage"])
    num_players: int = Field(examples=[4])
    options: dict[str, Any] = Field(default_factory=dict, examples=[{"no_repeat_dishes": True}])
    seats: list[str] = Field(
        description='One entry per seat, in seat order: "human" or a bot name.',
        examples=[["human", "human", "greedy", "random"]],
    )
    turn_seconds: int | None = Field(
        default=None,
        description="Optional turn timer: a human who takes longer is replaced by a bot.",
    )
    seed: int | None = Field(default=None, description="Fix the deal (default: a random seed).")


class JoinLink(BaseModel):
    seat: int
    join: str = Field(description="The page where a player takes this seat by name.")


class TableCreated(BaseModel):
    id: str
    url: str
    join: list[JoinLink]


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(examples=["Ann"])


class Joined(BaseModel):
    table: str
    seat: int
    token: str = Field(description="The seat's secret: send it as `Authorization: Bearer`.")
    seat_link: str = Field(description="Open this link again to come back to the seat.")


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: str = Field(description="The action's canonical text.", examples=["split"])


class Explained(BaseModel):
    action: str
    legal: bool
    reason: str | None


Auth = Annotated[
    str | None,
    Header(alias="Authorization", description="`Bearer <seat token>`; none: spectator."),
]


REFUSALS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (400, 401, 403, 404, 409, 422)
}


# ---------------------------------------------------------------------- the app


def create_app(
    database_url: str | None = None,
    *,
    bot_delay: float = 0.6,
    sweep_every: float = 1.0,
    service: TableService | None = None,
) -> FastAPI:
    """The Potluck server app over ``database_url`` (default: a SQLite file in the user's
    data directory). The schema is migrated and every stored table restored here."""
    if service is None:
        engine = make_engine(database_url or default_database_url())
        migrate(engine)
        service = TableService(engine, bot_delay=bot_delay)
        service.load_all()
    tables = service

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await tables.resume_bots()

        async def sweeper() -> None:
            while True:
                await asyncio.sleep(sweep_every)
                await tables.sweep()

        task = asyncio.create_task(sweeper())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            await tables.close()

    app = FastAPI(
        title="Potluck",
        summary="Play the Potluck games in the browser, with friends and bots.",
        description=(
            "A table is authoritative on the server. Each seat has a secret token "
            "(`Authorization: Bearer <token>`); without one you are a spectator. "
            'Errors are `{"error": code, "reason": sentence}`.'
        ),
        version="1",
        lifespan=lifespan,
    )
    app.state.service = tables
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    @app.exception_handler(TableError)
    async def _refused(_: Request, error: TableError) -> JSONResponse:
        return JSONResponse({"error": error.code, "reason": error.reason}, error.status)

    @app.exception_handler(RequestValidationError)
    async def _malformed(_: Request, error: RequestValidationError) -> JSONResponse:
        problems = []
        for item in error.errors():
            where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
            problems.append(f"{where or 'the request'}: {item.get('msg', 'is not valid')}")
        return JSONResponse(
            {"error": "malformed_request", "reason": "; ".join(problems) + "."}, 422
        )

    def seat_of(request: Request | WebSocket, table: LiveTable, bearer: str | None) -> int | None:
        """The seat the request speaks for; a wrong explicit token is refused."""
        if bearer:
            scheme, _, token = bearer.partition(" ")
            if scheme.lower() != "bearer" or not token:
                raise TableError(401, "bad_token", "Send the seat token as 'Bearer <token>'.")
            seat = tables.seat_of(table, token.strip())
            if seat is None:
                raise TableError(401, "bad_token", "This token is no seat's at this table.")
            return seat
        cookie = request.cookies.get(cookie_name(table.id))
        return tables.seat_of(table, cookie) if cookie else None

    def require_seat(request: Request, table: LiveTable, bearer: str | None) -> int:
        seat = seat_of(request, table, bearer)
        if seat is None:
            raise TableError(
                401, "no_seat", "Only a seated player may do this: send your seat's token."
            )
        return seat

    # ------------------------------------------------------------------ API

    @app.get("/api/games", tags=["games"])
    async def list_games() -> list[dict[str, Any]]:
        """Every game: players, options (type, default, help), bot names and rules summary."""
        return tables.games()

    @app.get("/api/tables", tags=["tables"])
    async def list_tables(
        status: Annotated[str | None, Query(description="open, running, over")] = None,
    ) -> list[dict[str, Any]]:
        """The lobby: tables, newest first."""
        return tables.list_tables(status)

    @app.post("/api/tables", status_code=201, responses=REFUSALS, tags=["tables"])
    async def create_table(spec: CreateTable) -> TableCreated:
        """Create a table; returns its id and one join link per human seat."""
        table, links = tables.create_table(
            spec.game,
            spec.num_players,
            spec.options,
            spec.seats,
            turn_seconds=spec.turn_seconds,
            seed=spec.seed,
        )
        await tables.wake_bots(table)
        return TableCreated(
            id=table.id,
            url=f"/tables/{table.id}",
            join=[JoinLink(**link) for link in links],
        )

    @app.post("/api/tables/{table_id}/seats/{seat}", responses=REFUSALS, tags=["seats"])
    async def join(table_id: str, seat: int, body: Join, response: Response) -> Joined:
        """Take a free seat by name; returns the seat's token (and sets it as a cookie)."""
        token = tables.join(table_id, seat, body.name)
        response.set_cookie(
            cookie_name(table_id),
            token,
            max_age=COOKIE_DAYS * 86400,
            httponly=True,
            samesite="lax",
        )
        table = tables.get(table_id)
        await tables.broadcast(table)
        await tables.wake_bots(table)
        return Joined(
            table=table_id, seat=seat, token=token, seat_link=f"/tables/{table_id}/seat/{token}"
        )

    @app.delete("/api/tables/{table_id}/seats/{seat}", responses=REFUSALS, tags=["seats"])
    async def leave(
        table_id: str, seat: int, request: Request, authorization: Auth = None
    ) -> dict[str, Any]:
        """Leave the table: a bot plays your seat until you take it back."""
        table = tables.get(table_id)
        if require_seat(request, table, authorization) != seat:
            raise TableError(403, "not_your_seat", f"Your token is not seat {seat}'s.")
        await tables.leave(table_id, seat)
        return tables.payload(table, seat)

    @app.post("/api/tables/{table_id}/seats/{seat}/return", responses=REFUSALS, tags=["seats"])
    async def come_back(
        table_id: str, seat: int, request: Request, authorization: Auth = None
    ) -> dict[str, Any]:
        """Take your seat back from the bot that played it while you were away."""
        table = tables.get(table_id)
        if require_seat(request, table, authorization) != seat:
            raise TableError(403, "not_your_seat", f"Your token is not seat {seat}'s.")
        await tables.come_back(table_id, seat)
        return tables.payload(table, seat)

    @app.get("/api/tables/{table_id}", responses=REFUSALS, tags=["play"])
    async def get_table(
        table_id: str, request: Request, authorization: Auth = None
    ) -> dict[str, Any]:
        """The seat's view, `to_act` and legal actions (no token: the spectator view).

        `legal` lists `{action, label}`; `illegal` maps the seat's other actions to
        the reason they are not allowed now.
        """
        table = tables.get(table_id)
        return tables.payload(table, seat_of(request, table, authorization))

    @app.post("/api/tables/{table_id}/actions", responses=REFUSALS, tags=["play"])
    async def act(
        table_id: str,
        request: Request,
        body: Annotated[ActionIn, Body()],
        authorization: Auth = None,
    ) -> dict[str, Any]:
        """Take an action (its text); returns the new view, or a 4xx carrying the reason."""
        table = tables.get(table_id)
        seat = require_seat(request, table, authorization)
        await tables.act(table_id, seat, body.action)
        return tables.payload(table, seat)

    @app.get("/api/tables/{table_id}/explain", responses=REFUSALS, tags=["play"])
    async def explain(
        table_id: str,
        request: Request,
        action: Annotated[str, Query(description="An action's text.")],
        authorization: Auth = None,
    ) -> Explained:
        """Whether the seat may take `action` now, and if not, why."""
        table = tables.get(table_id)
        seat = require_seat(request, table, authorization)
        reason = tables.explain(table_id, seat, action)
        return Explained(action=action, legal=reason is None, reason=reason)

    @app.get("/api/tables/{table_id}/record", responses=REFUSALS, tags=["replay"])
    async def record(table_id: str) -> dict[str, Any]:
        """The finished game: seed, options and actions (plus its outcome and players)."""
        return tables.record(table_id)

    @app.get("/api/tables/{table_id}/replay", responses=REFUSALS, tags=["replay"])
    async def replay(
        table_id: str,
        step: Annotated[int, Query(description="How many actions in (0: the start).")] = 0,
        seat: Annotated[
            int | None, Query(description="See as this seat (none: spectator).")
        ] = None,
        everyone: Annotated[bool, Query(description="Every seat's view at once.")] = False,
    ) -> dict[str, Any]:
        """A finished game after `step` actions, as a seat, a spectator or all-seeing."""
        return tables.replay_view(table_id, step, seat, everyone=everyone)

    # ------------------------------------------------------------------ WebSocket

    @app.websocket("/ws/tables/{table_id}")
    async def watch(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        """Pushes ``{"type": "state", ...}`` (the GET body) after every change.

        Send ``{"type": "action", "action": TEXT}`` to act; a refusal comes back as
        ``{"type": "error", "error": code, "reason": sentence}``.
        """
        table = tables.tables.get(table_id)
        if table is None:
            await websocket.close(code=4404, reason="no such table")
            return
        try:
            seat = seat_of(websocket, table, f"Bearer {token}" if token else None)
        except TableError as error:
            await websocket.close(code=4401, reason=error.reason)
            return
        await websocket.accept()

        # Pushes go through a one-slot mailbox and a writer task of their own, so that
        # a slow or stalled browser never holds up the move that caused the push (nor
        # anyone else's): it skips to the newest state, each push being the whole view.
        newest: list[dict[str, Any]] = []
        ready = asyncio.Event()
        writing = asyncio.Lock()  # one message at a time on the socket

        async def send(payload: dict[str, Any]) -> None:
            newest[:] = [payload]
            ready.set()

        async def reply(message: dict[str, Any]) -> None:
            async with writing:
                await websocket.send_json(message)

        async def writer() -> None:
            while True:
                await ready.wait()
                ready.clear()
                if newest:
                    payload = newest.pop()
                    await reply({"type": "state", **payload})

        watcher = Watcher(seat, send)
        await send(tables.payload(table, seat))
        table.watchers.append(watcher)
        pusher = asyncio.create_task(writer())
        try:
            while True:
                text = await websocket.receive_text()
                try:
                    message = json.loads(text)
                    if not isinstance(message, dict) or message.get("type") != "action":
                        raise TableError(
                            400, "bad_message", 'Send {"type": "action", "action": TEXT}.'
                        )
                    if seat is None:
                        raise TableError(401, "no_seat", "Spectators cannot act.")
                    await tables.act(table_id, seat, str(message.get("action", "")))
                except TableError as error:
                    await reply({"type": "error", "error": error.code, "reason": error.reason})
                except json.JSONDecodeError:
                    await reply({"type": "error", "error": "bad_message", "reason": "Send JSON."})
        except (WebSocketDisconnect, RuntimeError):
            # RuntimeError: the socket was found closed while a push was sent to it
            # (Starlette's WebSocketDisconnected); either way the watcher is gone
            pass
        finally:
            with contextlib.suppress(ValueError):
                table.watchers.remove(watcher)
            pusher.cancel()
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
                await pusher

    # ------------------------------------------------------------------ pages

    def page(name: str) -> FileResponse:
        return FileResponse(PAGES / name, media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return page("lobby.html")

    @app.get("/tables/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return page("table.html")

    @app.get("/tables/{table_id}/join/{seat}", include_in_schema=False)
    async def join_page(table_id: str, seat: int) -> FileResponse:
        return page("join.html")

    @app.get("/tables/{table_id}/replay", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return page("replay.html")

    @app.get("/tables/{table_id}/seat/{token}", include_in_schema=False)
    async def seat_link(table_id: str, token: str) -> Response:
        """Come back to a seat: keeps the token in a cookie and opens the table."""
        table = tables.get(table_id)
        if tables.seat_of(table, token) is None:
            raise TableError(404, "bad_token", "This seat link is not valid for this table.")
        response = RedirectResponse(f"/tables/{table_id}", status_code=303)
        response.set_cookie(
            cookie_name(table_id),
            token,
            max_age=COOKIE_DAYS * 86400,
            httponly=True,
            samesite="lax",
        )
        return response

    return app
