"""The accounts' routes: signing up, logging in and out, the password, deleting an
account; "Your tables"; profiles, their games and head-to-head; leaderboards; and
the pages that show them.

Logging in and signing up are limited per address (``login_rate``, every try) and
per name (``login_name_rate``, failed tries only, from any address): 429 with
``Retry-After``. A wrong password and a name without an account get the same
answer (401 ``wrong_login``) after the same work. Every change made as a
logged-in player carries the session's CSRF token (``access.Identity``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

from fastapi import FastAPI, Query, Request, Response
from fastapi import Path as PathParam
from fastapi.responses import FileResponse

from potluck.engine.registry import load_game
from potluck.server import standings
from potluck.server.access import Identity, client_of, end_session, set_session
from potluck.server.accounts import Account, AccountService, csrf_token, name_key
from potluck.server.api import (
    MAX_INDEX,
    AccountOut,
    Credentials,
    GamesPage,
    LeaderboardPage,
    OpponentsPage,
    PasswordChange,
    PasswordOnly,
    SessionOut,
)
from potluck.server.live import TableError
from potluck.server.ratelimit import RateLimits
from potluck.server.ratings import all_pools, find_pool, rateable_levels
from potluck.server.settings import MAX_NAME, ServerSettings
from potluck.server.tableservice import TableService

T = TypeVar("T")
PAGES = Path(__file__).parent / "pages"
PlayerName = Annotated[str, PathParam(min_length=1, max_length=MAX_NAME)]
Offset = Annotated[int, Query(ge=0, le=MAX_INDEX)]
Limit = Annotated[int, Query(ge=1, le=100, description="page size")]


def session_out(account: Account | None, token: str | None) -> SessionOut:
    if account is None or token is None:
        return SessionOut(account=None, csrf=None)
    return SessionOut(
        account=AccountOut(name=account.name, created_at=account.created_at.isoformat()),
        csrf=csrf_token(token),
    )


def add_account_routes(
    app: FastAPI,
    tables: TableService,
    accounts: AccountService,
    identity: Identity,
    rates: RateLimits,
    settings: ServerSettings,
) -> None:
    """Add the accounts', profiles' and leaderboards' routes and pages to ``app``."""

    async def read(work: Callable[[], T]) -> T:
        result: T = await tables.read_db(work)
        return result

    async def logged_in(request: Request, *, change: bool) -> Account:
        account = await identity.account(request, change=change)
        if account is None:
            raise TableError(401, "not_logged_in", "Log in first.")
        return account

    async def named(name: str) -> Account:
        account = await accounts.find(name)
        if account is None:
            raise TableError(404, "no_player", f"There is no player {name[:40]!r}.")
        return account

    def password_tries(request: Request, name: str) -> None:
        rates.hit("login", client_of(request))
        rates.check("login_name", name_key(name))

    # ------------------------------------------------------------------ the session

    @app.post("/api/account", status_code=201, tags=["accounts"])
    async def sign_up(body: Credentials, request: Request, response: Response) -> SessionOut:
        """Make an account (a unique name, a password of 8 to 256 characters) and log in."""
        password_tries(request, body.name)
        try:
            account, token = await accounts.sign_up(body.name, body.password)
        except TableError:
            rates.count("login_name", name_key(body.name))
            raise
        set_session(request, response, token)
        return session_out(account, token)

    @app.post("/api/session", tags=["accounts"])
    async def log_in(body: Credentials, request: Request, response: Response) -> SessionOut:
        """Log in: sets the session cookie (HTTP-only) and the CSRF token's cookie. A wrong
        name or password: 401 ``wrong_login``, the same for both."""
        password_tries(request, body.name)
        try:
            account, token = await accounts.log_in(body.name, body.password)
        except TableError:
            rates.count("login_name", name_key(body.name))
            raise
        set_session(request, response, token)
        return session_out(account, token)

    @app.get("/api/session", tags=["accounts"])
    async def who_am_i(request: Request) -> SessionOut:
        """The logged-in account and its CSRF token, or nulls for a guest."""
        account = await identity.account(request, change=False)
        return session_out(account, identity.session_token(request))

    @app.delete("/api/session", tags=["accounts"])
    async def log_out(request: Request, response: Response) -> SessionOut:
        """Log this browser out."""
        token = identity.session_token(request)
        if token and await identity.account(request, change=True) is not None:
            await accounts.log_out(token)
        end_session(response)
        return session_out(None, None)

    @app.delete("/api/account/sessions", tags=["accounts"])
    async def log_out_everywhere(request: Request, response: Response) -> dict[str, int]:
        """Log out every browser and client of this account, this one included."""
        account = await logged_in(request, change=True)
        ended = await accounts.log_out_everywhere(account)
        end_session(response)
        return {"ended": ended}

    @app.post("/api/account/password", tags=["accounts"])
    async def change_password(body: PasswordChange, request: Request) -> SessionOut:
        """A new password (the current one first); the account's other sessions end."""
        account = await logged_in(request, change=True)
        password_tries(request, account.name)
        token = identity.session_token(request) or ""
        try:
            await accounts.change_password(account, body.current, body.new, token)
        except TableError as error:
            if error.code == "wrong_password":
                rates.count("login_name", name_key(account.name))
            raise
        return session_out(account, token)

    @app.post("/api/account/delete", tags=["accounts"])
    async def delete_account(
        body: PasswordOnly, request: Request, response: Response
    ) -> dict[str, str]:
        """Delete the account (its password first): its name becomes "deleted player" in
        every game it played, which stay; a bot plays its seats at running tables; its
        sessions and ratings go."""
        account = await logged_in(request, change=True)
        password_tries(request, account.name)
        try:
            await accounts.check_password(account, body.password)
        except TableError:
            rates.count("login_name", name_key(account.name))
            raise
        await tables.forget_account(account)
        end_session(response)
        return {"deleted": account.name}

    @app.get("/api/account/tables", tags=["accounts"])
    async def my_tables(request: Request) -> dict[str, list[dict[str, Any]]]:
        """Your tables: the newest 50 you sit at, are invited to (``invited``: the seat
        kept for you) or created (``host``), on any device; ``seat`` is yours."""
        account = await logged_in(request, change=False)
        return {"tables": await tables.account_tables(account)}

    # ------------------------------------------------------------------ profiles

    @app.get("/api/players/{name}", tags=["players"])
    async def player(name: PlayerName) -> dict[str, Any]:
        """A player's profile: each rating (``mu``, its uncertainty ``sigma``, the
        leaderboard's ``rating`` = mu - 3 sigma, games) with its history, oldest first."""
        account = await named(name)
        found = await read(lambda: standings.profile(accounts.engine, account.id))
        if not found:  # deleted meanwhile
            raise TableError(404, "no_player", f"There is no player {name[:40]!r}.")
        return found

    @app.get("/api/players/{name}/games", tags=["players"])
    async def player_games(
        name: PlayerName, request: Request, offset: Offset = 0, limit: Limit = 20
    ) -> GamesPage:
        """A player's finished games, newest first: places, scores, rating changes and
        links to each replay, record and move analysis. A private table is listed only
        to those who sat at it."""
        account = await named(name)
        viewer = await identity.account(request, change=False)
        page, total = await read(
            lambda: standings.games(
                accounts.engine, account.id, viewer.id if viewer else None, offset, limit
            )
        )
        return GamesPage(games=page, total=total, offset=offset, limit=limit)

    @app.get("/api/players/{name}/opponents", tags=["players"])
    async def player_opponents(
        name: PlayerName, request: Request, offset: Offset = 0, limit: Limit = 20
    ) -> OpponentsPage:
        """Head-to-head: every account the player finished a game with, most games first,
        with how often each finished ahead."""
        account = await named(name)
        viewer = await identity.account(request, change=False)
        page, total = await read(
            lambda: standings.head_to_head(
                accounts.engine, account.id, viewer.id if viewer else None, offset, limit
            )
        )
        return OpponentsPage(opponents=page, total=total, offset=offset, limit=limit)

    @app.get("/api/leaderboards", tags=["players"])
    async def leaderboards() -> list[dict[str, Any]]:
        """Every rating pool (a game, or a game at some player counts), with the bot
        difficulties a rated table of it may seat and their reference ratings."""
        result = []
        for pool in all_pools():
            levels = rateable_levels(load_game(pool.game), pool.id)
            result.append(
                {
                    **pool.to_json(),
                    "rated_levels": {
                        level: {"mu": r.mu, "sigma": r.sigma} for level, r in levels.items()
                    },
                }
            )
        return result

    @app.get("/api/leaderboards/{pool}", tags=["players"])
    async def leaderboard(
        pool: Annotated[str, PathParam(max_length=64)], offset: Offset = 0, limit: Limit = 50
    ) -> LeaderboardPage:
        """One pool's players, best first (by rating: mu - 3 sigma)."""
        found = find_pool(pool)
        if found is None:
            raise TableError(404, "no_pool", f"There is no rating pool {pool[:64]!r}.")
        page, total = await read(
            lambda: standings.leaderboard(accounts.engine, found.id, offset, limit)
        )
        return LeaderboardPage(
            pool=found.to_json(), players=page, total=total, offset=offset, limit=limit
        )

    # ------------------------------------------------------------------ pages

    def page(name: str) -> FileResponse:
        return FileResponse(PAGES / name, media_type="text/html")

    @app.get("/account", include_in_schema=False)
    async def account_page() -> FileResponse:
        return page("account.html")

    @app.get("/players/{name}", include_in_schema=False)
    async def player_page(name: str) -> FileResponse:
        return page("player.html")

    @app.get("/leaderboards", include_in_schema=False)
    async def leaderboards_page() -> FileResponse:
        return page("leaderboards.html")
