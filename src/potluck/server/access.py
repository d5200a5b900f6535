"""Who a request speaks for: the seat cookies and tokens, the creator's and invite
cookies, and the client's address (for the rate limits and caps)."""

from __future__ import annotations

from fastapi import Request, Response, WebSocket

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
