"""The moves of a decision as a menu that fits the terminal: each move on a line of its
own, in words and whole, and where there are more than the screen holds, moves that share
their notation's first words folded into a group a letter opens.

    >>> moves = ["pass", "offer oat-flakes to 1", "offer oat-flakes to 2", "offer rye to 1"]
    >>> words = {m: m.replace("offer", "Offer").replace(" to ", " to seat ") for m in moves}
    >>> menu = MoveMenu(moves, words.__getitem__)
    >>> [(c.key, c.text) for c in menu.choices(range(4), lines=2, width=80)]
    [('1', 'pass'), ('a', 'Offer … (3 moves)')]
    >>> [c.text for c in menu.choices(range(4), lines=4, width=80)]
    ['pass', 'Offer oat-flakes to seat 1', 'Offer oat-flakes to seat 2', 'Offer rye to seat 1']
"""

from __future__ import annotations

import string
import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

#: Where a move's line starts its text: "  12  " (the number, right-aligned in 4).
INDENT = 6


@dataclass
class Choice:
    """One line of the menu: a move (``key`` its number in the whole list) or a group of
    moves (``key`` a letter; ``moves`` the indices it holds)."""

    key: str
    text: str
    moves: list[int] = field(default_factory=list)

    @property
    def is_group(self) -> bool:
        return len(self.moves) > 1


class MoveMenu:
    """The legal moves of one decision, described by ``describe``, as menus of choices."""

    def __init__(self, legal: Sequence[Any], describe: Callable[[Any], str]) -> None:
        self.legal = list(legal)
        self.texts = [describe(action) for action in self.legal]
        self.tokens = [str(action).split() for action in self.legal]

    def lines_of(self, text: str, width: int) -> int:
        """How many lines a choice's text takes when wrapped after the number."""
        return len(textwrap.wrap(text, max(20, width - INDENT))) or 1

    def _split(self, prefix: int, moves: list[int]) -> list[tuple[int, list[int]]]:
        """``moves`` grouped by their notation's next word after ``prefix`` words, each
        group as (the depth its moves share, its moves); a group of moves that all share
        more words goes deeper at once."""
        groups: dict[str, list[int]] = {}
        for m in moves:
            word = self.tokens[m][prefix] if len(self.tokens[m]) > prefix else ""
            groups.setdefault(word, []).append(m)
        found = []
        for members in groups.values():
            depth = prefix + 1
            while (
                len(members) > 1 and len({tuple(self.tokens[m][: depth + 1]) for m in members}) == 1
            ):
                if all(len(self.tokens[m]) <= depth for m in members):
                    break
                depth += 1
            found.append((depth, members))
        return found

    def label(self, moves: list[int], skip: int = 0) -> str:
        """A group's line: what its moves' descriptions share (after the first ``skip``
        words, which every move of the screen shares), then how many there are."""
        words = [self.texts[m].split()[skip:] for m in moves]
        shared: list[str] = []
        for column in zip(*words, strict=False):
            if len(set(column)) > 1:
                break
            shared.append(column[0])
        if len(shared) == min(len(w) for w in words):
            shared = shared[:-1]
        while shared and shared[-1] == "Bot":  # the start of different bots' names
            shared = shared[:-1]
        head = " ".join(shared)
        return f"{head} … ({len(moves)} moves)" if head else f"{len(moves)} moves"

    def text(self, move: int, skip: int = 0) -> str:
        """A move's line: its description, less the first ``skip`` words."""
        words = self.texts[move].split()
        return " ".join(words[skip:])

    def shared_words(self, moves: list[int]) -> int:
        """How many first words the descriptions of ``moves`` all share (none for one)."""
        if len(moves) < 2:
            return 0
        count = 0
        for column in zip(*(self.texts[m].split() for m in moves), strict=False):
            if len(set(column)) > 1:
                break
            count += 1
        return min(count, min(len(self.texts[m].split()) for m in moves) - 1)

    def choices(
        self, moves: Iterable[int], lines: int, width: int, *, strip: bool = False
    ) -> list[Choice]:
        """``moves`` as choices within ``lines`` lines: every move on its own line if they
        fit, else groups opened while they fit, the cheapest first, and sister groups (of
        one opened group) together, so that a level is opened whole or not at all. A move
        keeps its number in the whole list; groups get letters. ``strip``: leave out the
        first words every move shares (a group's own screen, under its title)."""
        moves = list(moves)
        skip = self.shared_words(moves) if strip else 0
        # the items shown: (parent, depth, moves); a group has more than one move
        items = [(0, depth, members) for depth, members in self._split(self._common(moves), moves)]
        if sum(self._height(item[2], width, skip) for item in items) > lines:
            items = self._chunks(items, lines, width, skip)
        parents = 1
        while True:
            used = sum(self._height(item[2], width, skip) for item in items)
            best: tuple[int, int] | None = None
            for parent in {item[0] for item in items if len(item[2]) > 1}:
                sisters = [item for item in items if item[0] == parent and len(item[2]) > 1]
                opened = sum(
                    self._height(members, width, skip)
                    for _, depth, group in sisters
                    for _, members in self._split(depth, group)
                )
                extra = opened - sum(self._height(item[2], width, skip) for item in sisters)
                if used + extra <= lines and (best is None or extra < best[0]):
                    best = (extra, parent)
            if best is None:
                break
            opened_items = []
            for item in items:
                if item[0] == best[1] and len(item[2]) > 1:
                    for depth, members in self._split(item[1], item[2]):
                        opened_items.append((parents, depth, members))
                    parents += 1
                else:
                    opened_items.append(item)
            items = opened_items
        letters = iter(string.ascii_lowercase)
        found = []
        for _, _, members in sorted(items, key=lambda item: item[2][0]):
            if len(members) == 1:
                found.append(Choice(str(members[0] + 1), self.text(members[0], skip), members))
            else:
                found.append(Choice(next(letters, "?"), self.label(members, skip), members))
        return found

    def _chunks(
        self, items: list[tuple[int, int, list[int]]], lines: int, width: int, skip: int
    ) -> list[tuple[int, int, list[int]]]:
        """Items too many for the screen, in runs of neighbours that fit: each run is one
        group (its label: what its moves share)."""
        size = 2
        while True:
            runs = [items[i : i + size] for i in range(0, len(items), size)]
            merged = [(0, 0, [m for _, _, group in run for m in group]) for run in runs]
            if sum(self._height(m[2], width, skip) for m in merged) <= lines or size > len(items):
                return merged
            size += 1

    def _common(self, moves: list[int]) -> int:
        """How many first words of notation all ``moves`` share."""
        depth = 0
        while len(moves) > 1 and len({tuple(self.tokens[m][: depth + 1]) for m in moves}) == 1:
            if any(len(self.tokens[m]) <= depth for m in moves):
                break
            depth += 1
        return depth

    def _height(self, members: list[int], width: int, skip: int = 0) -> int:
        text = self.text(members[0], skip) if len(members) == 1 else self.label(members, skip)
        return self.lines_of(text, width)
