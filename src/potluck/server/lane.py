"""The slow lane: players' moves first; the bots' turns, a fixed few per round of the event loop.

An asyncio event loop runs, in each round, every callback that was ready when the
round began, in order; whatever becomes ready meanwhile waits for the whole round.
A player's move takes three such steps (its request read, its stored move
answered, its task resumed to answer), so it waits for three rounds, and a round
is as long as the work that was ready when it began. The bots' turns come in
bursts: the moves of many tables are stored in one batch
(``potluck.server.movewriter``) and answered together, so their bots start their
pauses together and wake together. Through the lane, a bot's task goes on after
its pause (choosing, checking and queueing its move) only when its turn comes:
``PER_ROUND`` turns a round, in the order they came, so the rounds stay short
and a player's steps get through between them. Players' requests never queue
here.

Under load, when a server cannot do everything at once, the bots' turns wait:
the bots move later than their pause, and the players' moves are answered first.
At 1,000 tables on two cores (``--workers 2``, bots pausing 0.2 s) the bots' moves
reached the player 0.34 to 0.38 s apart (median of each run) instead of about
0.32 s, and a player's move was answered with p99 158 to 199 ms instead of 217
to 269 ms (docs/web-figures.md). The lane holds at most one turn per table
(a table's bots move one at a time), so it never grows without bound.

The lane used to let an eighth of a long queue through in one round, to clear any
burst in a few rounds; under steady load that put tens of bots' turns in every
round, and the players' moves waited behind them.

    lane = SlowLane()
    await lane.turn()  # in a bot's task, after its pause: go on in a later round
"""

from __future__ import annotations

import asyncio
from collections import deque

#: Turns let through per round, however many wait.
PER_ROUND = 8


class SlowLane:
    """Tasks' turns, ``per_round`` per event-loop round, in the order they came (see
    the module)."""

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
        count = self.per_round
        while count and self._waiting:
            waiting = self._waiting.popleft()
            if not waiting.done():  # its task was cancelled meanwhile: the next one
                waiting.set_result(None)
                count -= 1
        if self._waiting and self._loop is not None:
            self._loop.call_soon(self._let_through)
        else:
            self._loop = None
