"""The load tool's players (``potluck.server.loadtest`` runs the server and reports).

The load tool times each move from the request to its answer in one asyncio
process that also plays every other table: whatever that process spends per
request, and every pause of its event loop, is counted in the round trips it
measures. So the client is kept light:

- each player has one keep-alive HTTP/1.1 connection of its own, as each
  browser has (``PlayerConnection``: a request written in one piece, its answer
  read by ``Content-Length``). httpx's async client (one pool shared by hundreds
  of connections, its request and response models) cost the client more CPU
  per move than the server spent on the move;
- the players arrive over a few seconds (``ARRIVALS_PER_SECOND``), each making
  and joining its table, as people do, rather than all in one millisecond;
- each push (a seat's whole view, 4 to 22 kB of JSON), and each move's answer
  (the same view), is parsed by orjson, in about a fifth of the json module's
  time, from the bytes received (not from a decoded string);
- the client's event loop is uvloop's where installed, and the cyclic garbage
  collector is frozen and held back while the tables play (its full collections
  paused every table's client for tenths of a second).

    connection = PlayerConnection("127.0.0.1", 8000)
    status, body = await connection.request("POST", "/api/tables/X/actions",
                                            {"action": "a", "decision": 0}, token="T")
    await connection.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect

from potluck.engine.registry import load_game
from potluck.server.settings import KEEP_ALIVE_SECONDS

#: How many players arrive a second: 200 tables start within 5 s, as real players
#: would, not all in the same millisecond.
ARRIVALS_PER_SECOND = 40.0

#: The seats of every table: one scripted player, the rest greedy bots.
PLAYERS = {"cafe-carnage": 4, "food-advice": 4, "belly-battle": 4, "belle-of-the-ball": 4}

#: Idle connections are dropped before the server's keep-alive timeout would close them
#: under a request being sent (an error that is not the server's).
IDLE_SECONDS = KEEP_ALIVE_SECONDS - 10


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
        """Send one request and read its whole answer: ``(status, body)``. A request on a
        kept connection that fails before any answer is sent once more on a new one, as
        browsers do (the server may have closed the connection, or died meanwhile; a
        move sent twice is taken once)."""
        if self._writer is not None and time.monotonic() - self._last_used > IDLE_SECONDS:
            await self.close()
        if self._writer is not None:
            try:
                return await self._exchange(method, path, body, token)
            except HttpError:
                pass  # on a new connection, once
        return await self._exchange(method, path, body, token)

    async def _exchange(
        self, method: str, path: str, body: dict[str, Any] | None, token: str
    ) -> tuple[int, bytes]:
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


@dataclass
class Tally:
    """What the tables measured: round trips per game, and what went wrong."""

    times: dict[str, list[float]] = field(default_factory=dict)
    #: The bots' pace as a player sees it: seconds from one push to the next that shows
    #: a later step, while the scripted seat had no move to make (the bots' pause and
    #: whatever the server added to it). The server lets players' moves go before the
    #: bots' turns (``potluck.server.lane``): what that costs the bots shows here.
    bot_gaps: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: How many errors of each kind: the server's error code (``taken_over``, ...), or
    #: the client's exception (``HttpError``, ``socket ConnectionClosedError``, ...).
    kinds: Counter[str] = field(default_factory=Counter)
    finished: int = 0
    #: The tables made and joined (their ids), and those that played to their end.
    seated: list[str] = field(default_factory=list)
    done: set[str] = field(default_factory=set)
    #: Each table's acknowledged moves of its scripted seat (their texts, in order).
    acknowledged: dict[str, list[str]] = field(default_factory=dict)
    #: Acknowledged moves missing from the tables' stored records.
    lost: int = 0
    #: The run was stopped after ``--max-seconds`` (the records were not compared).
    stopped: bool = False
    #: Moves sent as ``POST .../actions`` (``--moves http``, the page's way), else over
    #: the table's WebSocket (``--moves socket``).
    over_http: bool = True

    def error(self, kind: str, detail: str) -> None:
        """Count one error of ``kind``; ``detail`` (which table, the answer) is kept too."""
        self.kinds[kind] += 1
        self.errors.append(detail)


def error_kind(status: int, body: bytes) -> str:
    """A refused request's kind: the server's error code (``{"error": code, ...}``), else
    its HTTP status."""
    try:
        code = json.loads(body).get("error")
    except (ValueError, AttributeError):
        code = None
    return str(code) if code else f"HTTP {status}"


def seats_of(game_id: str) -> list[str]:
    """Seat 0 scripted ("human"), the others greedy bots."""
    game = load_game(game_id)
    players = max(game.min_players, min(PLAYERS.get(game_id, 2), game.max_players))
    return ["human"] + ["greedy"] * (players - 1)


async def _play(
    connection: PlayerConnection,
    base: str,
    game_id: str,
    table_id: str,
    token: str,
    seed: int,
    tally: Tally,
) -> None:
    """Play seat 0 of one table: act on each push that offers moves, timing each move.

    A move is a ``POST .../actions``, as the page sends it, timed to its answer.
    With ``tally.over_http`` off it goes over the table's WebSocket instead
    (``{"type": "action", ...}``), timed from its sending to the first push that
    shows it taken (the seat's decision number past the one the move named); a
    refusal comes back on the socket as ``{"type": "error"}``.
    """
    rng = random.Random(seed)
    times = tally.times.setdefault(game_id, [])
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}?token={token}"
    async with connect(url, max_size=None, open_timeout=60) as pushes:
        floor = 0  # pushes from before our last move are stale: their actions are gone
        sent: tuple[int, str, float] | None = None  # a socket move: decision, action, time
        waiting: tuple[int, float] | None = None  # a push offering no move: its step, time
        while True:
            # the frame's bytes as they came: orjson reads UTF-8 itself, without the str
            # that websockets would decode first (a push is 4 to 22 kB)
            message: dict[str, Any] = orjson.loads(await pushes.recv(decode=False))
            if message["type"] == "error" and sent is not None:
                tally.error(str(message.get("error")), f"{game_id} {table_id}: {message}")
                sent = None  # the next push offers the move again
                continue
            if message["type"] != "state":
                continue
            arrived = time.perf_counter()
            if waiting is not None and message["step"] > waiting[0]:
                tally.bot_gaps.append(arrived - waiting[1])
            waiting = None if message["legal"] else (message["step"], arrived)
            if sent is not None and message["decision"] > sent[0]:  # the move is taken
                times.append(time.perf_counter() - sent[2])
                tally.acknowledged.setdefault(table_id, []).append(sent[1])
                sent = None
            if message.get("outcome") is not None:
                tally.finished += 1
                tally.done.add(table_id)
                return
            if sent is not None:
                continue  # from before the move was taken
            if message["step"] < floor or not message["legal"]:
                continue
            choice = rng.choice(message["legal"])["action"]
            if not tally.over_http:
                decision = message["decision"]
                sent = (decision, choice, time.perf_counter())
                move = {"type": "action", "action": choice, "decision": decision}
                await pushes.send(orjson.dumps(move).decode())
                continue
            move = {"action": choice, "decision": message["decision"]}
            started = time.perf_counter()
            try:
                status, body = await connection.request(
                    "POST", f"/api/tables/{table_id}/actions", move, token=token
                )
            except HttpError as error:
                tally.error("HttpError", f"{game_id} {table_id}: {error}")
                continue  # the next push offers the move again
            times.append(time.perf_counter() - started)
            if not 200 <= status < 300:
                detail = f"{game_id} {table_id}: {body.decode(errors='replace')}"
                tally.error(error_kind(status, body), detail)
                continue
            tally.acknowledged.setdefault(table_id, []).append(choice)
            floor = orjson.loads(body)["step"]


async def _arrive_and_play(
    base: str, number: int, game_id: str, start_at: float, tally: Tally
) -> str | None:
    """One player arriving at ``start_at`` (``perf_counter`` time): makes a table of
    ``game_id`` over its own connection (with ``--workers`` the kernel spreads the
    connections, so each process runs the bots of about its share of the tables),
    takes seat 0 and plays it to the end, reconnecting its WebSocket if it drops (a
    server process went away), as the page does. The table's id, once seated."""
    await asyncio.sleep(max(0.0, start_at - time.perf_counter()))
    host, port = base.removeprefix("http://").rsplit(":", 1)
    connection = PlayerConnection(host, int(port))
    try:
        # a chosen deal, so runs are alike: a practice table (its player agrees below)
        request = {"game": game_id, "seats": seats_of(game_id), "seed": number, "practice": True}
        status, body = await connection.request("POST", "/api/tables", request)
        if not 200 <= status < 300:
            tally.error("not created", f"{game_id}: not created: {body.decode()}")
            return None
        table_id: str = json.loads(body)["id"]
        path = f"/api/tables/{table_id}/seats/0"
        status, body = await connection.request("POST", path, {"name": "load", "practice": True})
        if not 200 <= status < 300:
            tally.error("not joined", f"{game_id} {table_id}: not joined: {body.decode()}")
            return None
    except HttpError as error:
        tally.error("not seated", f"{game_id}: not seated: {error}")
        await connection.close()
        return None
    tally.seated.append(table_id)
    token = json.loads(body)["token"]
    try:
        for _ in range(20):
            try:
                await _play(connection, base, game_id, table_id, token, number, tally)
                return table_id
            except Exception as error:  # a dropped socket: reconnect, as the page does
                kind = f"socket {type(error).__name__}"
                tally.error(kind, f"{game_id} {table_id}: {kind}")
                await asyncio.sleep(0.5)
        tally.error("gave up", f"{game_id} {table_id}: gave up")
        return table_id
    finally:
        await connection.close()


async def _run(
    base: str,
    tables: int,
    games: list[str],
    tally: Tally,
    hard_tables: int,
    max_seconds: float | None,
    arrivals: float,
) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:  # not timed
        for _ in range(hard_tables):  # bots only: a search bot thinking beside the others
            seats = ["hard", "greedy", "greedy", "greedy"]
            response = await http.post("/api/tables", json={"game": "cafe-carnage", "seats": seats})
            if not response.is_success:
                tally.error("not created", f"hard table not created: {response.text}")
        start = time.perf_counter()
        plays = asyncio.gather(
            *(
                _arrive_and_play(
                    base, number, games[number % len(games)], start + number / arrivals, tally
                )
                for number in range(tables)
            )
        )
        try:
            seated = await asyncio.wait_for(plays, max_seconds)
        except TimeoutError:  # stopped: the tables still playing count as unfinished
            tally.stopped = True
            return
        for table_id in seated:
            if table_id is not None:
                acknowledged = tally.acknowledged.get(table_id, [])
                tally.lost += await _lost_moves(http, table_id, acknowledged)


async def _lost_moves(http: httpx.AsyncClient, table_id: str, acknowledged: list[str]) -> int:
    """How many of seat 0's ``acknowledged`` moves its stored record lacks (in order; the
    record may hold more: a move stored whose answer was lost with a killed process)."""
    response = await http.get(f"/api/tables/{table_id}/record")
    if not response.is_success:  # not finished: counted among the errors
        return 0
    stored = iter(text for seat, text in response.json()["actions"] if seat == 0)
    found = sum(1 for move in acknowledged if any(text == move for text in stored))
    return len(acknowledged) - found


def play_all(
    base: str,
    tables: int,
    games: list[str],
    tally: Tally,
    hard_tables: int = 0,
    max_seconds: float | None = None,
    arrivals: float = ARRIVALS_PER_SECOND,
) -> None:
    """Play ``tables`` tables at the server at ``base`` (``http://host:port``) to their
    end, their players arriving ``arrivals`` a second; ``hard_tables`` more of bots only,
    with a search bot. Fills ``tally``. The event loop is uvloop's where installed, and
    the cyclic garbage collector is held back: each of its full collections stops
    every table's client for as long as it takes (the pushes the client parses are
    freed by reference counting; nothing it keeps is cyclic)."""
    players = _run(base, tables, games, tally, hard_tables, max_seconds, arrivals)
    gc.collect()
    gc.freeze()  # what is loaded already is never scanned again
    thresholds = gc.get_threshold()
    gc.set_threshold(100_000, 50, 100)
    try:
        with asyncio.Runner(loop_factory=_fast_loop()) as runner:
            runner.run(players)
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def _fast_loop() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop (it comes with ``uvicorn[standard]``), else asyncio's."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


__all__ = ["ARRIVALS_PER_SECOND", "HttpError", "PlayerConnection", "Tally", "play_all", "seats_of"]
