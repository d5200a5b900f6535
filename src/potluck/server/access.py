"""Who a request speaks for: the seat cookies and tokens, the creator's and invite
cookies, the session of a logged-in account (with its CSRF token), and the
client's address (for the rate limits and caps)."""

from __future__ import annotations

import secrets

from fastapi import Request, Response, WebSocket

from potluck.server.accounts import SESSION_DAYS, Account, AccountService, csrf_token
from potluck.server.live import LiveTable, TableError
from potluck.server.store import TableStore


def cookie_name(table_id: str) -> str:
    """The cookie that keeps a browser's seat token for one table."""
    return f"potluck_seat_{table_id}"


def host_cookie(table_id: str) -> str:
    """The cookie that keeps the creator's secret for one table."""
    return f"potluck_host_{table_id}"


def invite_cookie(table_id: str, seat: int) -> str:
    """The cookie an invite link leaves for the join page (the code leaves the URL)."""
    return f"potluck_invite_{table_id}_{seat}"


def client_of(connection: Request | WebSocket) -> str:
    """The client's address (the proxy's ``X-Forwarded-For`` with ``--behind-proxy``)."""
    return connection.client.host if connection.client else "unknown"


def set_cookie(request: Request, response: Response, name: str, value: str, days: float) -> None:
    """An HTTP-only, SameSite=Lax cookie, Secure when the request came over HTTPS."""
    response.set_cookie(
        name,
        value,
        max_age=int(days * 86400),
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def seat_of(
    tables: TableStore, connection: Request | WebSocket, table: LiveTable, bearer: str | None
) -> int | None:
    """The seat the request speaks for (its bearer token, else its cookie); a wrong
    explicit token is refused."""
    if bearer:
        scheme, _, token = bearer.partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise TableError(401, "bad_token", "Send the seat token as 'Bearer <token>'.")
        seat = tables.seat_of(table, token.strip())
        if seat is None:
            raise TableError(401, "bad_token", "This token is no seat's at this table.")
        return seat
    cookie = connection.cookies.get(cookie_name(table.id))
    return tables.seat_of(table, cookie) if cookie else None


#: The session cookie of a logged-in browser (HTTP-only), and the cookie that hands the
#: session's CSRF token to the pages' script (readable by it, by no other site's page).
SESSION_COOKIE = "potluck_session"
CSRF_COOKIE = "potluck_csrf"
#: The header every change authenticated by the session cookie must carry.
CSRF_HEADER = "X-CSRF-Token"


class Identity:
    """Who a request speaks for: a seat (token, seat cookie, or the logged-in account's
    seat at that table) and an account (the session cookie).

    Every change a session cookie authenticates needs the session's CSRF token in
    ``X-CSRF-Token`` (``change=True``): 403 ``csrf_failed`` without it. A seat token
    (bearer or seat cookie) is checked as before, with the Origin check and
    SameSite=Lax as its CSRF defences.
    """

    def __init__(self, tables: TableStore, accounts: AccountService) -> None:
        self.tables = tables
        self.accounts = accounts

    async def account(self, connection: Request | WebSocket, *, change: bool) -> Account | None:
        """The logged-in account (``None``: a guest, or a session that ended)."""
        token = connection.cookies.get(SESSION_COOKIE)
        if not token or len(token) > 128:
            return None
        known: dict[str, Account | None] | None = getattr(connection.state, "accounts", None)
        if known is None:
            known = connection.state.accounts = {}
        if token not in known:  # once per request
            known[token] = await self.accounts.by_session(token)
        account = known[token]
        if account is not None and change:
            sent = connection.headers.get(CSRF_HEADER) or ""
            if not secrets.compare_digest(sent.encode(), csrf_token(token).encode()):
                raise TableError(
                    403,
                    "csrf_failed",
                    f"A change made as a logged-in player needs the page's CSRF token "
                    f"({CSRF_HEADER}): reload the page and try again.",
                )
        return account

    async def seat(
        self,
        connection: Request | WebSocket,
        table: LiveTable,
        bearer: str | None,
        *,
        change: bool = False,
    ) -> int | None:
        """The seat the request speaks for: its bearer token, its seat cookie, else the
        seat the logged-in account holds at ``table``."""
        seat = seat_of(self.tables, connection, table, bearer)
        if seat is not None or bearer:
            return seat
        account = await self.account(connection, change=change)
        return None if account is None else table.seat_of_account(account.id)

    def session_token(self, connection: Request) -> str | None:
        return connection.cookies.get(SESSION_COOKIE)


def set_session(request: Request, response: Response, token: str) -> None:
    """The session's cookies: the secret (HTTP-only) and its CSRF token (for the script)."""
    set_cookie(request, response, SESSION_COOKIE, token, SESSION_DAYS)
    response.set_cookie(
        CSRF_COOKIE,
        csrf_token(token),
        max_age=SESSION_DAYS * 86400,
        httponly=False,  # the page's script reads it and sends it back as X-CSRF-Token
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def end_session(response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE)
    response.delete_cookie(CSRF_COOKIE)
