"""The server's door: connections counted and timed before any request reaches the app.

uvicorn, which runs the app, keeps an idle connection only ``timeout_keep_alive``
seconds *after a response*; a connection that never finishes its request head
(a "slowloris" client sending a header line every few seconds) is kept for
ever, and nothing caps how many connections one address holds. So
``potluck serve`` runs uvicorn with its own protocol classes (``http=`` and
``ws=``, uvicorn's documented way to swap them), built on uvicorn's and given:

- **a cap per address** (``max_connections_per_address``): one more is answered
  ``429 too_many_connections`` and closed at once, before anything is read;
- **a cap in all** (``max_connections``, kept below the process's file limit):
  ``503 server_busy``;
- **a head deadline** (``header_seconds``): a request's line and headers must
  all arrive within this many seconds of its first byte (of the connection's
  opening, for the first request), else ``408`` and the connection is closed;
- **a body deadline** (``body_seconds``) from the head to the body's last byte;
- **the penalty box**: an address whose WebSocket kept sending after it was
  refused (``potluck.server.sockets``) is refused at the door (429, with
  ``Retry-After``) for ``penalty_seconds``.

Counts are per TCP peer. Behind a proxy (``--behind-proxy``) every connection
comes from the proxy, so its addresses are exempt from the per-address cap
here; the app's limits still count each client by its ``X-Forwarded-For``.

    gate = ConnectionGate(settings)
    uvicorn.Config(app, http=gate.http_protocol(), ws=gate.websocket_protocol())
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from potluck.server.guard import send_error
from potluck.server.settings import ServerSettings

log = logging.getLogger("potluck.server")

#: How often, at most, the door logs what it refused (a flood must not flood the log).
REPORT_EVERY = 60.0


def refusal_bytes(status: int, code: str, reason: str, retry_after: int | None = None) -> bytes:
    """A whole HTTP/1.1 answer in the one error shape, closing the connection.

    >>> refusal_bytes(429, "too_many_connections", "Slow down.", 5).split(b"\\r\\n")[0]
    b'HTTP/1.1 429 Too Many Requests'
    """
    phrases = {408: "Request Timeout", 429: "Too Many Requests", 503: "Service Unavailable"}
    body = json.dumps({"error": code, "reason": reason}).encode()
    head = [
        f"HTTP/1.1 {status} {phrases.get(status, 'Error')}",
        "content-type: application/json",
        f"content-length: {len(body)}",
        "connection: close",
    ]
    if retry_after is not None:
        head.append(f"retry-after: {retry_after}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


class Penalties:
    """Addresses refused for a while (a WebSocket that went on sending after refusals).

    >>> box = Penalties(clock=lambda: 100.0)
    >>> box.punish("10.0.0.1", 30.0); box.remaining("10.0.0.1"), box.remaining("10.0.0.2")
    (30.0, 0.0)
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._until: dict[str, float] = {}

    def punish(self, address: str, seconds: float) -> None:
        """Refuse ``address`` for ``seconds`` from now (longer if it already was)."""
        until = self.clock() + seconds
        self._until[address] = max(until, self._until.get(address, 0.0))

    def remaining(self, address: str) -> float:
        """Seconds ``address`` is still refused (0: it is not)."""
        until = self._until.get(address)
        if until is None:
            return 0.0
        left = until - self.clock()
        if left <= 0:
            del self._until[address]
            return 0.0
        return left


class PenaltyCheck:
    """ASGI middleware: an address in the penalty box gets 429 ``slow_down`` for every
    request (its WebSockets are closed with 4429 by ``potluck.server.sockets``). It
    reads the client's address as the app does (``X-Forwarded-For`` from a trusted
    proxy), so it also holds behind a proxy, where the door sees only the proxy."""

    def __init__(self, app: ASGIApp, penalties: Penalties) -> None:
        self.app = app
        self.penalties = penalties

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            client = scope.get("client")
            left = self.penalties.remaining(client[0] if client else "unknown")
            if left > 0:
                reason = "Your address sent too much after being refused: wait before trying again."
                await send_error(
                    send, 429, "slow_down", reason, [(b"retry-after", str(int(left) + 1).encode())]
                )
                return
        await self.app(scope, receive, send)


class ConnectionGate:
    """Counts, caps and times the server's connections (see the module's docstring)."""

    def __init__(
        self,
        settings: ServerSettings,
        *,
        penalties: Penalties | None = None,
        exempt: Iterable[str] = (),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.penalties = penalties or Penalties(clock)
        #: Addresses never capped here (a trusted proxy's: it carries many clients).
        self.exempt = frozenset(exempt)
        self.clock = clock
        self.open: Counter[str] = Counter()
        self.total = 0
        #: The address each counted connection was counted under, by its transport.
        self._counted: dict[int, str] = {}
        self.refused: Counter[str] = Counter()
        self._reported = clock()

    # ------------------------------------------------------------------ counting

    def admit(self, transport: asyncio.BaseTransport, address: str) -> bytes | None:
        """Count a new connection from ``address``; the refusal to send instead, if any."""
        key = id(transport)
        if key in self._counted:  # the WebSocket protocol taking over an HTTP connection
            return None
        refusal = self._refusal(address)
        if refusal is not None:
            self.refused[address] += 1
            self._report()
            return refusal
        self._counted[key] = address
        self.open[address] += 1
        self.total += 1
        return None

    def release(self, transport: asyncio.BaseTransport) -> None:
        """A counted connection closed."""
        address = self._counted.pop(id(transport), None)
        if address is None:
            return
        self.total -= 1
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]

    def _refusal(self, address: str) -> bytes | None:
        settings = self.settings
        penalty = self.penalties.remaining(address)
        if penalty > 0:
            return refusal_bytes(
                429,
                "slow_down",
                "Your address sent too much after being refused: wait before trying again.",
                int(penalty) + 1,
            )
        if self.total >= settings.max_connections:
            return refusal_bytes(
                503, "server_busy", "The server holds all the connections it can: try again.", 5
            )
        capped = address not in self.exempt and "*" not in self.exempt
        if capped and self.open[address] >= settings.max_connections_per_address:
            return refusal_bytes(
                429,
                "too_many_connections",
                f"Your address holds {self.open[address]} connections, the most one may: "
                "close some first.",
                5,
            )
        return None

    def _report(self) -> None:
        moment = self.clock()
        if moment - self._reported < REPORT_EVERY:
            return
        top = ", ".join(f"{a} ({n})" for a, n in self.refused.most_common(3))
        log.warning(
            "refused %d connections from %d addresses in %.0f s (most: %s)",
            sum(self.refused.values()),
            len(self.refused),
            moment - self._reported,
            top,
        )
        self.refused.clear()
        self._reported = moment

    # ------------------------------------------------------------------ uvicorn's protocols

    def http_protocol(self) -> type[asyncio.Protocol]:
        """uvicorn's HTTP protocol (httptools) with this gate's caps and deadlines."""
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        gate = self

        class GatedHttp(HttpToolsProtocol):
            """An HTTP connection the gate counted and times."""

            _deadline: asyncio.TimerHandle | None = None

            def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
                super().connection_made(transport)
                refusal = gate.admit(transport, self.client[0] if self.client else "unknown")
                if refusal is not None:
                    transport.write(refusal)
                    transport.close()
                    return
                self._arm(gate.settings.header_seconds, self._head_too_slow)

            def connection_lost(self, exc: Exception | None) -> None:
                self._disarm()
                gate.release(self.transport)
                super().connection_lost(exc)

            def on_message_begin(self) -> None:
                super().on_message_begin()
                if self._deadline is None:  # the first byte of a request on a kept connection
                    self._arm(gate.settings.header_seconds, self._head_too_slow)

            def on_headers_complete(self) -> None:
                self._disarm()
                super().on_headers_complete()
                if not (self.parser.should_upgrade() and self._should_upgrade()):
                    self._arm(gate.settings.body_seconds, self._body_too_slow)

            def on_message_complete(self) -> None:
                self._disarm()
                super().on_message_complete()

            def handle_websocket_upgrade(self) -> None:
                self._disarm()
                super().handle_websocket_upgrade()

            def _arm(self, seconds: float, then: Callable[[], None]) -> None:
                self._disarm()
                self._deadline = self.loop.call_later(seconds, then)

            def _disarm(self) -> None:
                if self._deadline is not None:
                    self._deadline.cancel()
                    self._deadline = None

            def _head_too_slow(self) -> None:
                self._deadline = None
                if not self.transport.is_closing():
                    reason = (
                        f"The request's head took more than {gate.settings.header_seconds:g} s."
                    )
                    self.transport.write(refusal_bytes(408, "too_slow", reason))
                    self.transport.close()

            def _body_too_slow(self) -> None:
                self._deadline = None
                if not self.transport.is_closing():
                    self.transport.close()  # the app's task sees the client gone

        return GatedHttp

    def websocket_protocol(self) -> type[asyncio.Protocol]:
        """uvicorn's WebSocket protocol, releasing the gate's count when it closes."""
        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )

        gate = self

        class GatedWebSocket(WebSocketsSansIOProtocol):
            def connection_lost(self, exc: Exception | None) -> None:
                gate.release(self.transport)
                super().connection_lost(exc)

        return GatedWebSocket

    def stats(self) -> dict[str, Any]:
        """What the gate holds now (for tests and the load tool)."""
        return {"total": self.total, "addresses": len(self.open)}
