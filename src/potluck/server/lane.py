"""The slow lane: the bots' turns, a few per round of the event loop.

An asyncio event loop runs, in each round, every callback that was ready when the
round began, in order; whatever becomes ready meanwhile waits for the whole round.
The bots' turns come in bursts: the moves of many tables are stored in one batch
(``potluck.server.movewriter``) and answered together, so their bots start their
pauses together and wake together, tens of them in one round, each choosing,
checking and queueing its move. A player's move whose next step (its request read,
its stored move answered) became ready during such a round waits for all of it,
once per step (docs/web.md, "Figures"). Through the lane, the bots woken together
go a few per round, in the order they woke, so the rounds stay short and a player's
steps get through between them; a bot waits a round or a few more, which nobody
notices beside its pause.

    lane = SlowLane()
    await lane.turn()  # in a bot's task, after its pause: go on in a later round
"""

from __future__ import annotations

import asyncio
from collections import deque

#: Turns let through per round at least; more when many wait (``SPREAD``).
PER_ROUND = 8
#: With a long queue, a round lets through this fraction of it (1/8): a burst of any
#: size is through in a few rounds, so the lane never becomes a queue that keeps growing.
SPREAD = 8


class SlowLane:
    """Tasks' turns, a few per event-loop round, in the order they came (see the module)."""

    def __init__(self, per_round: int = PER_ROUND) -> None:
        self.per_round = per_round
        self._waiting: deque[asyncio.Future[None]] = deque()
        #: The loop a round of the lane is scheduled on (``None``: none scheduled).
        self._loop: asyncio.AbstractEventLoop | None = None

    async def turn(self) -> None:
        """Go on in a later round of the running loop, after the turns asked for before."""
        loop = asyncio.get_running_loop()
        waiting = loop.create_future()
        self._waiting.append(waiting)
        if self._loop is not loop:  # none scheduled (or on a loop that is gone)
            self._loop = loop
            loop.call_soon(self._let_through)
        await waiting

    def _let_through(self) -> None:
        count = max(self.per_round, len(self._waiting) // SPREAD)
        while count and self._waiting:
            waiting = self._waiting.popleft()
            if not waiting.done():  # its task was cancelled meanwhile: the next one
                waiting.set_result(None)
                count -= 1
        if self._waiting and self._loop is not None:
            self._loop.call_soon(self._let_through)
        else:
            self._loop = None
