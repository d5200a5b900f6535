"""What a worker process runs: one chunk of a study's games, as plain rows.

Kept apart from the runner and the report so that a worker (a local process or
a Ray task) imports only the engine and ``potluck.sim``, not pyarrow, scipy or
matplotlib: it starts faster and uses less memory.

    >>> chunk = Chunk("cafe-carnage", None, {}, 4, "baseline", 0, 1, 7, ("greedy", "random"))
    >>> [(row["seed"], row["agents"][:2]) for row in play_chunk(chunk)]
    [(7, ['greedy', 'random']), (8, ['random', 'greedy'])]
    >>> strategy = Chunk("cafe-carnage", None, {}, 4, "bold", 0, 0, 7, ("greedy",),
    ...                  lead=("random",))
    >>> play_chunk(strategy)[0]["agents"]
    ['random', 'greedy', 'greedy', 'greedy']
"""

from __future__ import annotations

import json
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from potluck.engine.game import Game
from potluck.engine.registry import load_game
from potluck.lab.patches import patched_game
from potluck.sim import lineup, play_game

__all__ = ["Chunk", "focal_seat", "play_chunk", "seating", "timed_chunk"]


def seating(
    agents: Sequence[str], num_players: int, index: int, lead: Sequence[str] = ()
) -> list[str]:
    """The agent in each seat in game ``index`` of a study.

    The table is ``agents`` cycled to fill the seats, with ``lead`` (a strategy
    arm's agents) in its first positions, then turned one seat per game: seat
    ``s`` gets table position ``(s + index) % num_players``. Every game has the
    same line-up (say 3 greedy and 2 random at 5 players), and over
    ``num_players`` games each seat hosts each position once, so seat effects
    are measured apart from the bots. (Cycling the agent list by game instead
    would change the line-up from game to game at odd table sizes.) Table
    position 0 is the *focal* position: a strategy arm's first agent sits there.

        >>> seating(["greedy", "random"], 5, 0)
        ['greedy', 'random', 'greedy', 'random', 'greedy']
        >>> seating(["greedy", "random"], 5, 1)
        ['random', 'greedy', 'random', 'greedy', 'greedy']
        >>> seating(["greedy"], 3, 1, lead=["chaser"])
        ['greedy', 'greedy', 'chaser']
    """
    table = list(lineup(agents, num_players))
    table[: len(lead)] = lead
    return list(lineup(table, num_players, index))


def focal_seat(num_players: int, index: int) -> int:
    """The seat that holds table position 0 in game ``index`` (see :func:`seating`).

    >>> focal_seat(3, 1)
    2
    """
    return -index % num_players


@dataclass(frozen=True, slots=True)
class Chunk:
    """Consecutive games of one arm at one player count: the unit of work sent to a worker."""

    game: str
    data: str | None
    options: dict[str, Any]
    players: int
    arm: str
    first: int  # game indices first..last inclusive
    last: int
    seed: int  # the study's seed: game i is dealt from seed + i
    agents: tuple[str, ...]  # the line-up
    lineup: str = "default"
    lead: tuple[str, ...] = ()  # the arm's agents, in the first table positions
    patch: tuple[tuple[str, Any], ...] = ()  # the arm's data patch: (path, value) pairs

    @property
    def name(self) -> str:
        return f"{self.players}p-{self.lineup}-{self.arm}-{self.first:07d}-{self.last:07d}"

    @property
    def size(self) -> int:
        return self.last - self.first + 1


_GAMES: dict[tuple[str, str | None], Game[Any, Any]] = {}


def _game(
    game_id: str, data: str | None, patch: tuple[tuple[str, Any], ...] = ()
) -> Game[Any, Any]:
    # Loaded once per worker process: parsing the data file per chunk would dominate.
    if patch:
        return patched_game(game_id, data, dict(patch))  # cached by patched_game
    if data is None:
        return load_game(game_id)  # the registry caches games with their built-in data
    key = (game_id, data)
    if key not in _GAMES:
        _GAMES[key] = load_game(game_id, data=data)
    return _GAMES[key]


def play_chunk(chunk: Chunk) -> list[dict[str, Any]]:
    """Play a chunk's games; a game that raises is recorded with its seed and error."""
    game = _game(chunk.game, chunk.data, chunk.patch)
    rows = []
    for index in range(chunk.first, chunk.last + 1):
        seed = chunk.seed + index
        seats = seating(chunk.agents, chunk.players, index, chunk.lead)
        row: dict[str, Any] = {
            "players": chunk.players,
            "lineup": chunk.lineup,
            "arm": chunk.arm,
            "index": index,
            "seed": seed,
            "agents": seats,
        }
        try:
            result = play_game(game, chunk.players, seats, seed, chunk.options)
        except Exception as error:  # a crashed game must not stop the study
            last = traceback.extract_tb(error.__traceback__)[-1:]
            where = f" at {last[0].filename}:{last[0].lineno}" if last else ""
            row.update(
                scores=[],
                winners=[],
                places=[],
                length=0,
                metrics="{}",
                seat_metrics="[]",
                error=f"{type(error).__name__}: {error}{where}",
            )
        else:
            outcome = result.outcome
            row.update(
                scores=[float(x) for x in outcome.scores],
                winners=list(outcome.winners),
                places=list(outcome.places),
                length=result.steps,
                metrics=json.dumps(dict(result.metrics), sort_keys=True),
                seat_metrics=json.dumps([dict(m) for m in result.seat_metrics], sort_keys=True),
                error=None,
            )
        rows.append(row)
    return rows


def timed_chunk(chunk: Chunk) -> tuple[list[dict[str, Any]], float]:
    """``play_chunk`` and the CPU seconds it took in this thread (for the ETA's weights)."""
    start = time.thread_time()
    rows = play_chunk(chunk)
    return rows, time.thread_time() - start
