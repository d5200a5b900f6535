"""A finished game's routes: its record (seed plus actions), any step of its replay,
and the move analysis of one seat's moves (``potluck.judge``, run by the server's
analysis workers)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, Response
from fastapi import Path as PathParam

from potluck.server.access import client_of
from potluck.server.api import MAX_INDEX
from potluck.server.ratelimit import RateLimits
from potluck.server.tableservice import TableService

TableId = Annotated[str, PathParam(max_length=32)]


def add_replay_routes(app: FastAPI, tables: TableService, rates: RateLimits) -> None:
    """Add the record, replay and analysis routes to ``app``."""

    @app.get("/api/tables/{table_id}/record", tags=["replay"])
    async def record(table_id: TableId) -> dict[str, Any]:
        """The finished (or expired) game: seed, options and actions, plus its outcome
        and players."""
        await tables.fresh(table_id)
        return tables.record(table_id)

    @app.get("/api/tables/{table_id}/replay", tags=["replay"])
    async def replay(
        table_id: TableId,
        step: Annotated[
            int, Query(ge=0, le=MAX_INDEX, description="How many actions in (0: the start).")
        ] = 0,
        seat: Annotated[
            int | None, Query(ge=0, le=63, description="See as this seat (none: spectator).")
        ] = None,
        everyone: Annotated[bool, Query(description="Every seat's view at once.")] = False,
    ) -> dict[str, Any]:
        """A finished game after `step` actions, as a seat, a spectator or all-seeing."""
        await tables.fresh(table_id)
        return tables.replay_view(table_id, step, seat, everyone=everyone)

    @app.get(
        "/api/tables/{table_id}/analysis",
        tags=["replay"],
        responses={202: {"description": "Under way: `status`, `done` of `total` moves so far"}},
    )
    async def analysis(
        table_id: TableId,
        seat: Annotated[int, Query(ge=0, le=63, description="The seat whose moves to judge.")],
        request: Request,
        response: Response,
    ) -> dict[str, Any]:
        """A finished game's moves of one seat, judged by playouts (``potluck.judge``) from
        what the seat knew at each: the win chance (a probability: the share of playouts
        won, with a few worlds of the fair share added) after the move played and with the
        best move found, the loss (shrunk by its noise) and its standard error, the points
        lost (score less the other seats' mean, in the game's points), the verdict
        (inaccuracy, mistake, blunder), whether the move was forced (the only legal one:
        it carries the position's win chance) and its CPU
        seconds (at most the judge's ``time`` a move, 2 s by default). Asking starts it
        (rate-limited, and charged to the client's hourly budget of the server's time);
        until it is done the answer is 202 with `done` of `total` moves: ask again. Kept
        once done."""
        table = await tables.fresh(table_id)
        client = client_of(request)
        status, body = await tables.analyses.ask(
            table, seat, client, on_new=lambda: rates.hit("analysis", client)
        )
        response.status_code = status
        return body
