"""Search bots' thinking shared fairly: no client's tables take every worker.

The bot pool's workers (``potluck.server.botpool``) are few: one search at a
time each. Handed over in arrival order, one client's ten tables of four hard
bots filled the queue, and another table's hard bot waited behind forty
searches: 2.9 s a decision became 14.1 s. Here each search waits for its
*client's* turn instead:

- a client (the address that created the table) has at most
  ``per_client`` searches running at once (``ServerSettings.bot_thinking_per_client``,
  1 by default), so with two or more workers another client always finds one
  free or soon free;
- a free worker goes to the waiting client served least lately (round robin),
  and a client's own searches go in arrival order, which is its tables in turn
  (a table asks for one search at a time).

A search bot's decision is bounded in time (``hard_bot``'s ``time``), so a
worker frees within that bound.

    fair = FairThinking(pool.think, workers=2, per_client=1)
    text = await fair.think(thought, client="creator-hash")
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class FairThinking(Generic[T, R]):
    """Runs ``work(item)`` for many clients on ``workers`` slots, fairly (see above)."""

    def __init__(
        self,
        work: Callable[[T], Awaitable[R]],
        *,
        workers: int,
        per_client: int = 1,
        on_busy: Callable[[int], None] | None = None,
    ) -> None:
        """``on_busy(n)`` is told each time the number of items at work changes."""
        if workers < 1 or per_client < 1:
            raise ValueError("workers and per_client are at least 1")
        self.work = work
        self.workers = workers
        self.per_client = per_client
        #: Each client's waiting items.
        self.waiting: dict[str, deque[tuple[T, asyncio.Future[None]]]] = {}
        self.running: dict[str, int] = {}
        #: When each client was last given a worker (a count of hand-outs): the one
        #: served least lately goes next.
        self.served: dict[str, int] = {}
        self.handed = 0
        self.busy = 0
        self.on_busy = on_busy

    async def think(self, item: T, client: str) -> R:
        """``work(item)``'s result, once ``client``'s turn comes and a worker is free."""
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(client, deque()).append((item, turn))
        self._hand_out()
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # given a worker just as it was cancelled
                self._finish(client)
            else:
                self._forget(client, turn)
            raise
        try:
            return await self.work(item)
        finally:
            self._finish(client)

    def _hand_out(self) -> None:
        """Give free workers to waiting clients, each in turn."""
        while self.busy < self.workers:
            ready = [c for c in self.waiting if self.running.get(c, 0) < self.per_client]
            if not ready:
                return
            chosen = min(ready, key=lambda c: self.served.get(c, -1))
            queue = self.waiting[chosen]
            _, turn = queue.popleft()
            if not queue:
                del self.waiting[chosen]
            self.running[chosen] = self.running.get(chosen, 0) + 1
            self.served[chosen] = self.handed
            self.handed += 1
            self.busy += 1
            turn.set_result(None)
            if self.on_busy is not None:
                self.on_busy(self.busy)

    def _finish(self, client: str) -> None:
        self.busy -= 1
        if self.on_busy is not None:
            self.on_busy(self.busy)
        self.running[client] -= 1
        if not self.running[client]:
            del self.running[client]
            if client not in self.waiting:
                del self.served[client]
        self._hand_out()

    def _forget(self, client: str, turn: asyncio.Future[None]) -> None:
        queue = self.waiting.get(client)
        if queue is None:
            return
        for entry in list(queue):
            if entry[1] is turn:
                queue.remove(entry)
        if not queue:
            del self.waiting[client]
            if client not in self.running:
                self.served.pop(client, None)

    def load(self) -> dict[str, int]:
        """How many searches run and wait, for tests and logs."""
        return {
            "running": self.busy,
            "waiting": sum(len(q) for q in self.waiting.values()),
            "clients": len(set(self.waiting) | set(self.running)),
        }
