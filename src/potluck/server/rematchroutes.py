"""A finished table's routes for players who come back: "Play again" (propose or
accept the rematch, or decline it) and what a rated game did to the ratings.

A rematch is answered by a seat of the game before, proven as any seat is: its
token (``Authorization: Bearer``), its seat cookie, or the logged-in account that
sat there (with the session's CSRF token).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Header, Request, Response
from fastapi import Path as PathParam

from potluck.server import standings
from potluck.server.access import Identity, client_of, cookie_name, host_cookie, set_cookie
from potluck.server.api import RematchOut
from potluck.server.live import TableError
from potluck.server.ratelimit import RateLimits
from potluck.server.tableservice import TableService

COOKIE_DAYS = 30
TableId = Annotated[str, PathParam(max_length=32)]
Auth = Annotated[
    str | None,
    Header(alias="Authorization", description="`Bearer <seat token>` of the game before."),
]


def add_rematch_routes(
    app: FastAPI, tables: TableService, identity: Identity, rates: RateLimits
) -> None:
    """Add the rematch and rating routes to ``app``."""

    async def my_seat(request: Request, table_id: str, authorization: str | None) -> int:
        table = await tables.fresh(table_id)
        seat = await identity.seat(request, table, authorization, change=True)
        if seat is None:
            raise TableError(401, "no_seat", "Only a player of this game may answer its rematch.")
        return seat

    @app.post("/api/tables/{table_id}/rematch", tags=["seats"])
    async def rematch(
        table_id: TableId, request: Request, response: Response, authorization: Auth = None
    ) -> RematchOut:
        """ "Play again": propose this finished game's rematch, or accept it. The rematch
        has the same seats moved on by one (you sit at the seat after yours), the same
        bots, options, timer and rating, and a new secret deal; it starts once every
        player accepted or declined. Its proposer becomes its creator."""
        rates.hit("join", client_of(request))
        seat = await my_seat(request, table_id, authorization)
        account = await identity.account(request, change=True)
        new, token, host_token = await tables.propose_rematch(
            table_id, seat, account, client_of(request)
        )
        to = (seat + 1) % len(new.seats)
        if token is not None and new.seats[to].account is None:
            set_cookie(request, response, cookie_name(new.id), token, COOKIE_DAYS)
        if host_token is not None:
            set_cookie(request, response, host_cookie(new.id), host_token, COOKIE_DAYS)
        return RematchOut(
            table=new.id,
            url=f"/tables/{new.id}",
            seat=to,
            token=token if new.seats[to].account is None else None,
            host_token=host_token,
        )

    @app.post("/api/tables/{table_id}/rematch/decline", tags=["seats"])
    async def decline(
        table_id: TableId, request: Request, authorization: Auth = None
    ) -> dict[str, Any]:
        """Decline this game's rematch: a medium bot takes your seat there. Returns the
        finished table's payload (its ``rematch`` shows every answer)."""
        rates.hit("move", client_of(request))
        seat = await my_seat(request, table_id, authorization)
        await tables.decline_rematch(table_id, seat)
        old = await tables.fresh(table_id)
        return tables.payload(old, seat)

    @app.get("/api/tables/{table_id}/ratings", tags=["replay"])
    async def ratings(table_id: TableId) -> dict[str, Any]:
        """What a finished rated game did to its players' ratings: each account's rating
        (``mu``) before and after, and whether they abandoned (a bot played their seat
        at the end: counted as a loss)."""
        table = await tables.fresh(table_id)
        changes = (
            await tables.read_db(lambda: standings.table_changes(tables.engine, table_id))
            if table.rated
            else []
        )
        return {
            "table": table_id,
            "rated": table.rated,
            "applied": table.rated_done,
            "changes": changes,
        }
