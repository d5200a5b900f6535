"""The table's WebSocket: every change pushed to each watcher as its seat's view, and
moves sent the other way (each naming its decision, like ``POST .../actions``).

Its ``Origin`` is checked by ``potluck.server.guard.OriginCheck`` before it opens.
A socket the server will not serve is accepted and then closed with a code that
says why, so a page can tell its player (a refused handshake reaches the page as
1006, a closed connection with no reason):

- 4404: no such table; 4401: a token that is no seat's; 4403: a foreign origin;
- 4429: too many sockets from this client, or this client's address is refused for
  a while (``potluck.server.gate.Penalties``), or the socket went on sending after
  ``socket_refusals`` refusals for sending too fast (its address is then refused
  for ``penalty_seconds``);
- 1003: a binary frame (the protocol is JSON text);
- 1009: a message over ``max_body_bytes`` (uvicorn's cap, ``ws_max_size``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter
from typing import Any

import orjson
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from potluck.server import access
from potluck.server.api import MAX_INDEX
from potluck.server.gate import Penalties
from potluck.server.live import LiveTable, TableError, Watcher
from potluck.server.ratelimit import RateLimits
from potluck.server.settings import ServerSettings
from potluck.server.tableservice import TableService


def to_json(message: dict[str, Any]) -> str:
    """``message`` as JSON text. orjson: the same JSON as the json module's in a sixth of
    the time (a push is the whole view, 4 to 22 kB, and every move pushes it to every
    watcher). Most views have only text keys: written as they are, in a third to half
    the time orjson takes when asked to turn other keys into text (measured on one
    game of each kind), which only the views with number keys need."""
    return to_json_bytes(message).decode()


def to_json_bytes(message: dict[str, Any]) -> bytes:
    """``to_json``'s JSON as UTF-8 bytes (an HTTP answer's body).

    >>> to_json_bytes({"step": 3, "scores": {0: 1}})
    b'{"step":3,"scores":{"0":1}}'
    """
    try:
        return orjson.dumps(message)
    except TypeError:  # a key that is not text (a number): written as text
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)


async def refuse(websocket: WebSocket, code: int, reason: str) -> None:
    """Close ``websocket`` with ``code``: accepted first, so the code reaches the page."""
    await websocket.accept()
    await websocket.close(code=code, reason=reason[:120])


#: Closed for flooding: the move rate refused this socket ``socket_refusals`` times.
FLOODED = "Too many messages after being told to slow down: wait before coming back."


def add_websocket(
    app: FastAPI,
    tables: TableService,
    rates: RateLimits,
    settings: ServerSettings,
    penalties: Penalties,
    identity: access.Identity | None = None,
) -> None:
    """Add ``/ws/tables/{table_id}`` to ``app``; ``identity`` also finds a logged-in
    account's seat (from its session cookie)."""
    open_sockets: Counter[str] = Counter()  # per client address

    @app.websocket("/ws/tables/{table_id}")
    async def watch(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        """Pushes ``{"type": "state", ...}`` (the GET body) after every change.

        Send ``{"type": "action", "action": TEXT, "decision": N}`` to act; a refusal
        comes back as ``{"type": "error", "error": code, "reason": sentence}``.
        (Its Origin was checked by ``OriginCheck`` before it got here.)
        """
        client = access.client_of(websocket)
        if penalties.remaining(client) > 0:
            await refuse(websocket, 4429, FLOODED)
            return
        try:
            # with other processes: maybe made by one of them, or moved on there
            table = await tables.fresh(table_id)
        except TableError:
            await refuse(websocket, 4404, "There is no such table.")
            return
        try:
            bearer = f"Bearer {token}" if token else None
            seat = (
                await identity.seat(websocket, table, bearer)
                if identity is not None
                else access.seat_of(tables, websocket, table, bearer)
            )
        except TableError as error:
            await refuse(websocket, 4401, error.reason)
            return
        if open_sockets[client] >= settings.max_sockets_per_client:
            await refuse(websocket, 4429, "Too many open connections from you.")
            return
        open_sockets[client] += 1
        try:
            await serve(websocket, table, seat, table_id, client)
        finally:
            open_sockets[client] -= 1
            if not open_sockets[client]:
                del open_sockets[client]

    async def serve(
        websocket: WebSocket, table: LiveTable, seat: int | None, table_id: str, client: str
    ) -> None:
        """One open socket: its pushes, and the moves it sends."""
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
            text = to_json(message)
            async with writing:
                await websocket.send_text(text)

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
        if table.stale:  # moved on elsewhere meanwhile: watched now, so caught up now
            tables.changed_elsewhere(table.id)
        pusher = asyncio.create_task(writer())
        refusals = 0  # how often this socket was told to slow down
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:  # a binary frame: not this protocol
                    async with writing:
                        await websocket.close(
                            code=1003, reason="Send JSON text, not binary frames."
                        )
                    break
                try:
                    await ws_action(websocket, table_id, watcher, text)
                except TableError as error:
                    if error.code == "too_many_requests":
                        refusals += 1
                        if refusals >= settings.socket_refusals:
                            penalties.punish(client, settings.penalty_seconds)
                            async with writing:
                                await websocket.close(code=4429, reason=FLOODED[:120])
                            break
                    await reply({"type": "error", "error": error.code, "reason": error.reason})
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

    async def ws_action(websocket: WebSocket, table_id: str, watcher: Watcher, text: str) -> None:
        """One message from a WebSocket: an action, checked like ``POST .../actions``."""
        rates.hit("move", access.client_of(websocket))  # every message counts, junk too
        if len(text) > settings.max_body_bytes:
            raise TableError(413, "body_too_large", "This message is too large.")
        try:
            message = json.loads(text)
        except json.JSONDecodeError:
            raise TableError(400, "bad_message", "Send JSON.") from None
        decision = message.get("decision") if isinstance(message, dict) else None
        if (
            not isinstance(message, dict)
            or message.get("type") != "action"
            or not isinstance(message.get("action"), str)
            or not isinstance(decision, int)
            or isinstance(decision, bool)
            or not 0 <= decision <= MAX_INDEX
        ):
            raise TableError(
                400, "bad_message", 'Send {"type": "action", "action": TEXT, "decision": N}.'
            )
        if watcher.seat is None:  # a spectator, or a seat whose player was replaced
            raise TableError(401, "no_seat", "Spectators cannot act.")
        await tables.act(table_id, watcher.seat, message["action"][:200], decision)
