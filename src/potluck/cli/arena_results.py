"""``potluck arena --results FILE``: a ladder's games kept as they end, one JSON line each.

The first line names the arena (game, players, agents, seed, card data); each next
line is one game (``potluck.arena.ArenaGame``). Opening a file that holds games of
the same arena gives them back, so that the arena counts them instead of playing
them again: a run cut by a crash or a stopped machine goes on where it stopped, and
a larger ``--games`` grows a kept ladder (an arena's first games do not depend on
how many it plays). A file of another arena, or a line that is not a game, is
refused and left as it is; a last line cut short by a crash (no newline after it)
is dropped before the next game is written.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "ladder.jsonl"
    >>> arena = {"game": "cafe-carnage", "players": 4, "agents": ["greedy", "random"], "seed": 1}
    >>> kept = ArenaResults.open(path, arena)
    >>> seats = ("greedy", "random", "greedy", "random")
    >>> kept.append(ArenaGame(1, seats, (1, 2, 3, 4), (1, 0, 0, 0), (9, 7, 5, 3)))
    >>> [game.deal for game in ArenaResults.open(path, arena).games]
    [1]
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from potluck.arena import ArenaGame
from potluck.cli.common import CliError
from potluck.engine.errors import PotluckError

__all__ = ["ArenaResults"]


@dataclass
class ArenaResults:
    """An arena's results file: the games it held when opened, and where to add more."""

    path: Path
    #: The first line: the arena's name, written with the first game to a new file (so
    #: an arena refused before its first game leaves no file behind).
    header: dict[str, Any]
    games: list[ArenaGame] = field(default_factory=list)
    #: Bytes of the file that hold whole lines (a longer file ends in a cut line).
    whole_bytes: int = 0

    @classmethod
    def open(cls, path: Path, arena: dict[str, Any]) -> ArenaResults:
        """The file's games if it holds ``arena``'s; a new file names ``arena`` first."""
        header = {"arena": arena}
        if not path.exists() or path.stat().st_size == 0:
            if not path.parent.is_dir():
                raise CliError(f"cannot write the results file {path}: no folder {path.parent}")
            return cls(path, header)
        try:
            data = path.read_bytes()
        except OSError as error:
            raise CliError(f"cannot read the results file {path}: {error.strerror}") from None
        lines = data.split(b"\n")
        cut = lines.pop()  # after the last newline: empty unless a crash cut the line
        whole_bytes = len(data) - len(cut)
        if not lines:
            raise CliError(f"{path} line 1 is cut short: it is not an arena's results file")
        first = _line(path, 1, lines[0])
        if not isinstance(first, dict) or not isinstance(first.get("arena"), dict):
            raise CliError(
                f"{path} line 1 does not name an arena: it is not an arena's results file"
            )
        if first != header:
            raise CliError(
                f"{path} holds the games of another arena ({_describe(first['arena'])});"
                f" this one is {_describe(arena)}: name a new file"
            )
        games = []
        for number, line in enumerate(lines[1:], start=2):
            try:
                games.append(ArenaGame.from_json(_line(path, number, line)))
            except PotluckError as error:
                raise CliError(f"{path} line {number}: {error}") from None
        return cls(path, header, games, whole_bytes)

    def append(self, game: ArenaGame) -> None:
        """Add one ended game to the file, on disk before the next game starts."""
        text = json.dumps(game.to_json()) + "\n"
        if self.whole_bytes == 0:
            text = json.dumps(self.header) + "\n" + text
        with self.path.open("r+b" if self.path.exists() else "wb") as out:
            out.truncate(self.whole_bytes)  # a line a crash cut short
            out.seek(self.whole_bytes)
            out.write(text.encode("utf-8"))
            out.flush()
            os.fsync(out.fileno())
            self.whole_bytes = out.tell()


def _line(path: Path, number: int, line: bytes) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        raise CliError(f"{path} line {number} is not JSON: {line[:60]!r}") from None


def _describe(arena: Any) -> str:
    if not isinstance(arena, dict):
        return repr(arena)
    return ", ".join(
        f"{key} {arena.get(key)!r}" for key in ("game", "players", "agents", "seed", "data")
    )
