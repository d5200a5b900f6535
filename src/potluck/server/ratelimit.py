"""Per-client rate limits on creating tables, joining and moving, with ``limits``.

A moving window per client address (the proxy's ``X-Forwarded-For`` when the
server runs ``--behind-proxy``). Over the limit: 429 with ``Retry-After``.

    >>> rates = RateLimits(ServerSettings(create_rate="1/minute"))
    >>> rates.hit("create", "10.0.0.1")
    >>> rates.hit("create", "10.0.0.1")
    Traceback (most recent call last):
    ...
    potluck.server.live.TableError: Too many new tables: at most 1 per 1 minute; try again in 60 s.
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, parse_many, storage, strategies

from potluck.server.live import TableError
from potluck.server.settings import ServerSettings

WHAT = {
    "create": "new tables",
    "join": "seats taken",
    "move": "moves",
    "analysis": "move analyses",
}


#: A rate that limits nothing (the load tool's, or a host's who limits at the proxy).
UNLIMITED = "none"


def parse_rates(text: str) -> list[RateLimitItem]:
    """``10/minute;100/hour`` as ``limits`` items; ``none``: no limit."""
    if text.strip().lower() == UNLIMITED:
        return []
    return parse_many(text)


class RateLimits:
    """The server's limits, in memory (one server process owns its tables anyway)."""

    def __init__(self, settings: ServerSettings) -> None:
        self.rules: dict[str, list[RateLimitItem]] = {
            "create": parse_rates(settings.create_rate),
            "join": parse_rates(settings.join_rate),
            "move": parse_rates(settings.move_rate),
            "analysis": parse_rates(settings.analysis_rate),
        }
        # the in-memory storage runs a timer thread: none at all when nothing is limited
        self.limiter = (
            strategies.MovingWindowRateLimiter(storage.MemoryStorage())
            if any(self.rules.values())
            else None
        )

    def hit(self, kind: str, client: str) -> None:
        """Count one ``kind`` request of ``client``, or refuse it with 429."""
        rules = self.rules[kind]
        if self.limiter is None or not rules:
            return
        for item in rules:
            if not self.limiter.test(item, kind, client):
                stats = self.limiter.get_window_stats(item, kind, client)
                wait = max(1, math.ceil(stats.reset_time - time.time()))
                per = f"{item.multiples} {item.GRANULARITY.name}"
                raise TableError(
                    429,
                    "too_many_requests",
                    f"Too many {WHAT[kind]}: at most {item.amount} per {per}; "
                    f"try again in {wait} s.",
                    {"Retry-After": str(wait)},
                )
        for item in rules:
            self.limiter.hit(item, kind, client)
