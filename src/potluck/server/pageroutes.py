"""The HTML pages (lobby, rules, table, join, replay) and the two links that put a
secret in a cookie and leave the address bar clean (an invite, a seat's link)."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request, Response
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse

from potluck.engine.registry import list_games as registered_games
from potluck.server.access import cookie_name, invite_cookie, set_cookie
from potluck.server.live import TableError
from potluck.server.rules import rules_of, rules_page_html
from potluck.server.tableservice import TableService

PAGES = Path(__file__).parent / "pages"
COOKIE_DAYS = 30


def known_game(game_id: str) -> str:
    """``game_id`` if it names a registered game; else a 404 ``unknown_game``."""
    if game_id not in registered_games():
        raise TableError(404, "unknown_game", f"There is no game {game_id!r}.")
    return game_id


def add_page_routes(app: FastAPI, tables: TableService) -> None:
    """Add the pages and the invite and seat links to ``app``."""

    def page(name: str) -> FileResponse:
        return FileResponse(PAGES / name, media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return page("lobby.html")

    @app.get("/rules/{game_id}", include_in_schema=False)
    async def rules_page(game_id: str) -> HTMLResponse:
        return HTMLResponse(rules_page_html(rules_of(known_game(game_id))))

    @app.get("/tables/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return page("table.html")

    @app.get("/tables/{table_id}/join/{seat}", include_in_schema=False)
    async def join_page(table_id: str, seat: int) -> FileResponse:
        return page("join.html")

    @app.get("/tables/{table_id}/replay", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return page("replay.html")

    @app.get("/tables/{table_id}/invite/{seat}/{code}", include_in_schema=False)
    async def invite_link(table_id: str, seat: int, code: str, request: Request) -> Response:
        """An invite link: keeps the code in a cookie and opens the join page (so the code
        leaves the address bar and the history)."""
        tables.get(table_id)
        response = RedirectResponse(f"/tables/{table_id}/join/{seat}", status_code=303)
        set_cookie(request, response, invite_cookie(table_id, seat), code[:64], 1)
        return response

    @app.get("/tables/{table_id}/seat/{token}", include_in_schema=False)
    async def seat_link(table_id: str, token: str, request: Request) -> Response:
        """Come back to a seat: keeps the token in a cookie and opens the table."""
        table = await tables.fresh(table_id)
        if tables.seat_of(table, token) is None:
            raise TableError(404, "bad_token", "This seat link is not valid for this table.")
        response = RedirectResponse(f"/tables/{table_id}", status_code=303)
        set_cookie(request, response, cookie_name(table_id), token, COOKIE_DAYS)
        return response
