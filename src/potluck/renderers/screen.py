"""A game's terminal screen as sections, and fitting them to the terminal's height.

A game's renderer gives its screen as :class:`Section`s in the order they are drawn, each
with a rank: 0 for what the decision needs (always shown), higher for what may be
shortened (``short``) or left out when the terminal is short, the highest first. The
player can ask for everything (``potluck play``'s ``table`` command), so nothing is lost,
and a decision's screen never pages:

    >>> from rich.console import Console
    >>> from rich.text import Text
    >>> console = Console(width=40, height=24, color_system=None)
    >>> parts = [Section(Text("Round 1")), Section(Text("a\\nb\\nc"), rank=1, name="the log")]
    >>> shown, left_out = fit(console, parts, lines=2)
    >>> left_out
    ['the log']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console, Group, RenderableType

from potluck.renderers.names import Namer


@dataclass(frozen=True)
class Section:
    """One part of a screen: ``body``; ``rank`` 0 is always shown, higher ranks are
    shortened to ``short`` (if given) and then left out first; ``name`` says what a
    player asks for to see it whole."""

    body: RenderableType
    rank: int = 0
    short: RenderableType | None = None
    name: str = ""


#: A game's screen for one seat: ``sections(view, namer)``.
SectionRenderer = Callable[[Mapping[str, Any], Namer], list[Section]]


def default_namer(view: Mapping[str, Any]) -> Namer:
    """Names for a view drawn without a table's names: "Player 1", "Player 2"..., ``you``
    for the view's own seat."""
    count = int(view.get("num_players") or len(view.get("players") or []) or 6)
    return Namer([f"Player {s + 1}" for s in range(count)], view.get("seat"))


def whole(sections: Sequence[Section]) -> RenderableType:
    """Every section, in full."""
    return Group(*(section.body for section in sections))


def height(console: Console, renderable: RenderableType) -> int:
    """How many lines ``renderable`` takes at the console's width."""
    options = console.options.update(height=None)
    return len(console.render_lines(renderable, options, pad=False, new_lines=False))


def fit(
    console: Console, sections: Sequence[Section], lines: int
) -> tuple[RenderableType, list[str]]:
    """The sections within ``lines`` lines: from the highest rank down, each is shortened
    (or, without a short form, left out) until they fit; then the shortened ones are left
    out too if need be (rank 0 always stays). Returns what to draw and the names of the
    sections shortened or left out (for a hint)."""
    bodies: list[RenderableType | None] = [s.body for s in sections]
    sizes = [height(console, s.body) for s in sections]
    touched: list[str] = []

    def note(i: int) -> None:
        if sections[i].name and sections[i].name not in touched:
            touched.append(sections[i].name)

    order = sorted(
        (i for i, s in enumerate(sections) if s.rank > 0),
        key=lambda i: (-sections[i].rank, -i),
    )
    for i in order:
        if sum(sizes) <= lines:
            break
        short = sections[i].short
        bodies[i] = short
        sizes[i] = 0 if short is None else height(console, short)
        note(i)
    for i in order:
        if sum(sizes) <= lines:
            break
        if bodies[i] is not None:
            bodies[i] = None
            sizes[i] = 0
            note(i)
    return Group(*(body for body in bodies if body is not None)), touched
