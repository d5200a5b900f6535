"""Drawing views and outcomes in the terminal.

A view is a JSON-ready dict (``Game.view``). A game may draw its own: a
``render_view(view)`` method on the game object, or a ``render_view`` or
``renderer`` function in the module (or package) that defines the game class,
returning any Rich renderable. Otherwise :func:`generic_view` draws it: plain
facts as a key/value grid, lists of records (``players`` first) as tables,
``you`` and ``last_round`` in panels and the tail of ``log``::

    from rich.console import Console
    Console().print(generic_view({"round": 2, "players": [{"seat": 0, "cash": 5}]}, seat=0))
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any, cast

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from potluck.engine.game import Game
from potluck.engine.outcome import Outcome
from potluck.renderers import ViewRenderer, renderer_for, sections_for
from potluck.renderers.names import Namer
from potluck.renderers.screen import Section

#: Keys drawn in their own places rather than among the plain facts.
_SPECIAL = ("players", "you", "last_round", "log")
#: How many of the latest log lines to show.
LOG_LINES = 8
#: A record with one of these keys is shown by it alone when nested in a cell:
#: ``{"dish": "tomato-soup", "name": "Tomato Soup", ...}`` reads as "Tomato Soup".
NAME_KEYS = ("name", "title", "label")


def custom_renderer(game: Game[Any, Any]) -> ViewRenderer | None:
    """The game's own view renderer, if it has one (see the module docstring)."""
    written = renderer_for(game.id)
    if written is not None:
        return written
    method = getattr(game, "render_view", None)
    if callable(method):
        return cast(ViewRenderer, method)
    module_name = type(game).__module__
    # The class may live in e.g. ``games.x.rules`` while the hook sits in ``games.x``;
    # both are imported already (a submodule's import imports its package).
    for name in (module_name, module_name.rpartition(".")[0]):
        module = sys.modules.get(name)
        for attribute in ("render_view", "renderer"):
            hook = getattr(module, attribute, None)
            if callable(hook):
                return cast(ViewRenderer, hook)
    return None


def render_view(game: Game[Any, Any], view: Mapping[str, Any], seat: int | None) -> RenderableType:
    """The view as the game draws it, or generically."""
    hook = custom_renderer(game)
    if hook is not None:
        return hook(view)
    return generic_view(view, seat)


def view_sections(game: Game[Any, Any], view: Mapping[str, Any], namer: Namer) -> list[Section]:
    """The view as the sections of a screen (``potluck.renderers.screen``), players by
    ``namer``'s names: the game's own sections, else its drawing as one section."""
    sections = sections_for(game.id)
    if sections is not None:
        drawn: list[Section] = sections(view, namer)
        return drawn
    return [Section(render_view(game, view, namer.you))]


def pretty_key(key: str) -> str:
    """``"last_round"`` -> ``"Last round"``."""
    text = key.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _is_records(value: Any) -> bool:
    return (
        isinstance(value, list) and bool(value) and all(isinstance(item, Mapping) for item in value)
    )


def _name_of(value: Mapping[str, Any]) -> str | None:
    for key in NAME_KEYS:
        name = value.get(key)
        if isinstance(name, str):
            return name
    return None


def format_value(value: Any) -> str:
    """A compact one-line text for a table cell."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Mapping):
        name = _name_of(value)
        if name is not None:
            return name
        return "; ".join(f"{pretty_key(str(k))}: {format_value(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        if not value:
            return "–"
        separator = " | " if any(isinstance(item, Mapping) for item in value) else ", "
        return separator.join(format_value(item) for item in value)
    return str(value)


def records_table(
    rows: Sequence[Mapping[str, Any]], title: str | None = None, highlight: int | None = None
) -> Table:
    """A table with one column per key seen in ``rows``.

    The row for seat ``highlight`` (its ``seat`` field, or its position when
    rows have none) is drawn bold so a player finds themselves at once.
    """
    columns = list(dict.fromkeys(key for row in rows for key in row))
    table = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left", title_style="bold")
    for column in columns:
        # Fold rather than cut: a long list of names in a cell must stay readable.
        table.add_column(pretty_key(str(column)), overflow="fold")
    for position, row in enumerate(rows):
        row_seat = row.get("seat", position)
        style = "bold" if highlight is not None and row_seat == highlight else None
        table.add_row(*(Text(format_value(row.get(column))) for column in columns), style=style)
    return table


def facts_grid(facts: Mapping[str, Any]) -> Table:
    """Key/value pairs, nested records as sub-tables and nested dicts as sub-grids."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    for key, value in facts.items():
        cell: RenderableType
        if _is_records(value):
            cell = records_table(value)
        elif isinstance(value, Mapping) and value and _name_of(value) is None:
            cell = facts_grid(value)
        else:
            cell = Text(format_value(value))
        grid.add_row(Text(pretty_key(str(key))), cell)
    return grid


def generic_view(view: Mapping[str, Any], seat: int | None = None) -> RenderableType:
    """Draw any view: facts, then tables, then last round, log and finally ``you``.

    ``you`` comes last so that a player's own hand sits right above the list
    of their actions.
    """
    facts = {k: v for k, v in view.items() if k not in _SPECIAL and not _is_block(v)}
    parts: list[RenderableType] = []
    if facts:
        parts.append(facts_grid(facts))
    players: Any = view.get("players")
    if _is_records(players):
        parts.append(records_table(players, "Players", highlight=seat))
    elif players is not None:
        parts.append(facts_grid({"players": players}))
    for key, value in view.items():
        if key in _SPECIAL or not _is_block(value):
            continue
        if _is_records(value):
            parts.append(records_table(value, pretty_key(key)))
        else:
            parts.append(Panel(facts_grid(value), title=pretty_key(key), title_align="left"))
    last_round = view.get("last_round")
    if last_round:
        body = facts_grid(last_round) if isinstance(last_round, Mapping) else _block(last_round)
        parts.append(Panel(body, title="Last round", title_align="left"))
    log = view.get("log")
    if log:
        parts.append(_log_panel(log if isinstance(log, list) else [log]))
    you = view.get("you")
    if you:
        body = facts_grid(you) if isinstance(you, Mapping) else _block(you)
        parts.append(Panel(body, title="You", title_align="left", border_style="green"))
    return Group(*parts)


def _is_block(value: Any) -> bool:
    """Whether a value gets its own table or panel rather than a line among the facts."""
    return _is_records(value) or (isinstance(value, Mapping) and bool(value))


def _log_panel(log: list[Any]) -> Panel:
    """The latest log entry in full if entries are records (e.g. round reports), else the
    last lines of text."""
    latest = log[-1]
    if isinstance(latest, Mapping):
        title = "Log" if len(log) == 1 else f"Log: latest of {len(log)} entries"
        return Panel(facts_grid(latest), title=title, title_align="left")
    text = "\n".join(format_value(line) for line in log[-LOG_LINES:])
    return Panel(Text(text), title="Log", title_align="left")


def _block(value: Any) -> RenderableType:
    return records_table(value) if _is_records(value) else Text(format_value(value))


def outcome_table(
    outcome: Outcome, labels: Sequence[str], *, reason: bool | str = True
) -> RenderableType:
    """Final places and scores, best first, winners starred, then the reason: the outcome's
    own (``True``), this text instead (the reason with players' names), or none (``False``:
    the screen says it already)."""
    table = Table(
        title="Result",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        title_justify="left",
        title_style="bold",
    )
    table.add_column("Place", justify="right")
    table.add_column("Player")
    table.add_column("Score", justify="right")
    for seat in outcome.ranking:
        star = " ★" if seat in outcome.winners else ""
        table.add_row(
            str(outcome.places[seat]),
            Text(labels[seat] + star),
            format_value(outcome.scores[seat]),
            style="bold green" if star else None,
        )
    if reason is False:
        return table
    return Group(table, Text(outcome.reason if reason is True else reason))
