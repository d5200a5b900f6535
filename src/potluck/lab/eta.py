"""The time left of a run, weighed by what each arm and line-up costs a game.

A study that mixes a fast bot with a slow one (greedy line-ups and a search-bot
arm) plays its chunks at very different speeds, so "games left x seconds a game
so far" is wrong. The estimate here keeps each group's (table size, line-up, arm)
measured CPU seconds per game, prices every chunk still to play by its group
(a group not measured yet by the same arm's, else the same line-up's, else the
mean), and turns that work into wall time by the run's measured pace (CPU
seconds done per wall second: the workers in use, slowed by whatever else runs)::

    >>> from potluck.lab.worker import Chunk
    >>> def chunk(arm, first):
    ...     return Chunk("g", None, {}, 4, arm, first, first + 9, 0, ("greedy",))
    >>> eta = Eta([chunk("fast", 0), chunk("slow", 0), chunk("fast", 10), chunk("slow", 10)],
    ...           start=0.0)
    >>> eta.finished(chunk("fast", 0), 1.0, now=1.0); eta.finished(chunk("slow", 0), 9.0, now=10.0)
    >>> round(eta.remaining(now=10.0), 1)  # 10 s of work left at 1 CPU second a second
    10.0

A chunk that runs longer than its estimate never shows 0 while it runs: past the
forecast, the time left is at least the cheapest chunk still to play::

    >>> round(eta.remaining(now=30.0), 1)  # overdue: the fast chunk's 1 s still to come
    1.0
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable

from potluck.lab.worker import Chunk

__all__ = ["Eta"]

Group = tuple[int, str, str]


def _group(chunk: Chunk) -> Group:
    return (chunk.players, chunk.lineup, chunk.arm)


class Eta:
    """Seconds left for the chunks given, updated as each one finishes."""

    def __init__(self, chunks: Iterable[Chunk], start: float | None = None) -> None:
        self._pending: dict[str, Chunk] = {c.name: c for c in chunks}
        self._cost: dict[Group, list[float]] = {}  # [cpu seconds, games]
        self._start = time.monotonic() if start is None else start
        self._work_done = 0.0
        self._finish: float | None = None

    def add(self, chunks: Iterable[Chunk]) -> None:
        """More chunks to play (a search's next batch)."""
        for chunk in chunks:
            self._pending[chunk.name] = chunk

    def finished(self, chunk: Chunk, seconds: float, now: float | None = None) -> None:
        """``chunk`` is done; it took ``seconds`` of its worker's CPU."""
        now = time.monotonic() if now is None else now
        self._pending.pop(chunk.name, None)
        cost = self._cost.setdefault(_group(chunk), [0.0, 0.0])
        cost[0] += seconds
        cost[1] += chunk.size
        self._work_done += seconds
        elapsed = now - self._start
        if elapsed <= 0 or self._work_done <= 0:
            return
        pace = self._work_done / elapsed  # CPU seconds played per wall second
        self._finish = now + self._work_left() / pace

    def _rate(self, group: Group) -> float:
        if group in self._cost:
            seconds, games = self._cost[group]
            return seconds / games
        players, lineup, arm = group
        for keep in ((lineup, arm), (None, arm), (lineup, None)):
            similar = [
                (g[0], s / n)
                for g, (s, n) in self._cost.items()
                if keep[0] in (None, g[1]) and keep[1] in (None, g[2])
            ]
            if similar:
                # a game's cost grows with the seats: scale by the table sizes measured
                seats = statistics.fmean(p for p, _ in similar)
                return statistics.fmean(r for _, r in similar) * players / seats
        return statistics.fmean(s / n for s, n in self._cost.values())

    def _work_left(self) -> float:
        return sum(self._rate(_group(c)) * c.size for c in self._pending.values())

    def remaining(self, now: float | None = None) -> float | None:
        """Seconds until the last chunk is done; ``None`` before any chunk has finished."""
        if self._finish is None:
            return None
        if not self._pending:
            return 0.0
        now = time.monotonic() if now is None else now
        # Past the forecast with chunks still running: they cost more than estimated,
        # and at least the cheapest of them is still to finish.
        cheapest = min(self._rate(_group(c)) * c.size for c in self._pending.values())
        return max(cheapest, self._finish - now)
