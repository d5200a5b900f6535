"""The server's outer wall, as ASGI middleware: body size, origins and security headers.

- ``BodyLimit``: a request body over ``max_body_bytes`` is refused with 413
  before the app reads it (by ``Content-Length``, or by counting a chunked body).
- ``OriginCheck``: a state-changing request (POST, PUT, PATCH, DELETE) or a
  WebSocket that carries an ``Origin`` must come from the server's own origin or
  one of the allowed ones; anything else gets 403 (a WebSocket is accepted and
  closed at once with 4403, before the app sees it). Clients that send no
  ``Origin`` (curl, scripts) are not browsers and cannot be driven by another
  site, so they pass.
- ``SecurityHeaders``: a Content-Security-Policy with no inline script, no
  framing, ``nosniff`` and no referrer on every response (HSTS over HTTPS).

Every refusal has the one error shape, ``{"error": code, "reason": sentence}``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def error_bytes(code: str, reason: str) -> bytes:
    return json.dumps({"error": code, "reason": reason}).encode()


async def send_error(
    send: Send, status: int, code: str, reason: str, headers: Iterable[tuple[bytes, bytes]] = ()
) -> None:
    """Answer with the one error shape, from middleware (before the app ran)."""
    body = error_bytes(code, reason)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def normal_origin(origin: str) -> str:
    """``scheme://host[:port]``, lower case, without a default port."""
    parts = urlsplit(origin.strip().lower())
    port = parts.port
    default = {"http": 80, "https": 443, "ws": 80, "wss": 443}.get(parts.scheme)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    return f"{scheme}://{host}" + (f":{port}" if port and port != default else "")


def own_origin(scope: Scope) -> str | None:
    """The origin this request was sent to: its scheme (as the proxy saw it, when the
    server runs ``--behind-proxy``) and its ``Host`` header."""
    host = header(scope, b"host")
    if not host:
        return None
    scheme = scope.get("scheme", "http")
    return normal_origin(f"{scheme}://{host}")


class BodyLimit:
    """413 for a request body over ``limit`` bytes."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_big = f"A request body may hold at most {self.limit} bytes."
        length = header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await send_error(send, 413, "body_too_large", too_big)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await send_error(send, 413, "body_too_large", too_big)
                return
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class OriginCheck:
    """403 (WebSocket: close 4403) for a browser request from a foreign origin."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = {normal_origin(origin) for origin in allowed}

    def allows(self, scope: Scope) -> bool:
        origin = header(scope, b"origin")
        if origin is None:
            return True
        if origin == "null":  # sandboxed frames and file:// pages
            return False
        theirs = normal_origin(origin)
        return theirs == own_origin(scope) or theirs in self.allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        checked = scope["type"] == "websocket" or (
            scope["type"] == "http" and scope["method"] in UNSAFE
        )
        if not checked or self.allows(scope):
            await self.app(scope, receive, send)
            return
        reason = "Requests from other sites' pages are refused (Origin not allowed)."
        if scope["type"] == "websocket":
            # accepted, then closed at once: a refused handshake reaches the page as a
            # bare 1006, and the documented 4403 would never be seen (nothing is sent)
            await receive()  # the connect message
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": 4403, "reason": reason[:120]})
            return
        await send_error(send, 403, "bad_origin", reason)


class SecurityHeaders:
    """The security headers on every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        https = scope.get("scheme") == "https"

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {key.lower() for key, _ in message.get("headers", [])}
                extra: list[Any] = [(k, v) for k, v in HEADERS if k not in present]
                if https:
                    extra.append((b"strict-transport-security", b"max-age=31536000"))
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, with_headers)
