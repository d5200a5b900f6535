"""The load tool's HTTP client: one keep-alive HTTP/1.1 connection per player, and little else.

The load tool times each move from the request to its answer in one asyncio
process that also plays every other table; whatever that process spends per
request is counted in every round trip it measures. httpx's async client
(a connection pool shared by hundreds of connections, its request and
response models, its transports) cost the load client more CPU per move than
the server spent on the move, so the timed requests go through this instead:
one connection per player, as each browser has its own, a request written
in one piece and its answer read by ``Content-Length``.

    connection = PlayerConnection("127.0.0.1", 8000)
    status, body = await connection.request("POST", "/api/tables/X/actions",
                                            {"action": "a", "decision": 0}, token="T")
    await connection.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

#: Idle connections are dropped before the server's keep-alive timeout (uvicorn: 5 s)
#: would close them under a request being sent (an error that is not the server's).
IDLE_SECONDS = 2.0


class HttpError(Exception):
    """The connection failed or the answer was not HTTP/1.1 as expected."""


class PlayerConnection:
    """One player's keep-alive connection to the server (reopened after being idle)."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._last_used = 0.0

    async def request(
        self, method: str, path: str, body: dict[str, Any] | None = None, *, token: str = ""
    ) -> tuple[int, bytes]:
        """Send one request and read its whole answer: ``(status, body)``."""
        if self._writer is not None and time.monotonic() - self._last_used > IDLE_SECONDS:
            await self.close()
        if self._reader is None or self._writer is None:
            try:
                self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
            except OSError as error:
                raise HttpError(f"connect: {error}") from None
        content = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(content)}\r\n"
        )
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        try:
            self._writer.write(head.encode() + b"\r\n" + content)
            status, length, closing = _parse_head(await self._reader.readuntil(b"\r\n\r\n"))
            answer = await self._reader.readexactly(length)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as error:
            await self.close()
            raise HttpError(f"{type(error).__name__}: {error}") from None
        self._last_used = time.monotonic()
        if closing:
            await self.close()
        return status, answer

    async def close(self) -> None:
        """Close the connection (the next request opens a new one)."""
        writer, self._reader, self._writer = self._writer, None, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError, asyncio.IncompleteReadError):
                await writer.wait_closed()


def _parse_head(head: bytes) -> tuple[int, int, bool]:
    """``(status, Content-Length, whether the server closes the connection)`` of an answer."""
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
        raise HttpError(f"not an HTTP answer: {lines[0][:80]!r}")
    length, closing = 0, False
    for line in lines[1:]:
        name, _, value = line.partition(":")
        name = name.strip().lower()
        if name == "content-length":
            length = int(value.strip())
        elif name == "transfer-encoding":
            raise HttpError("a chunked answer (the API answers with Content-Length)")
        elif name == "connection" and value.strip().lower() == "close":
            closing = True
    return int(parts[1]), length, closing
