"""Burger Joint at the terminal: the players' boards and cubes, production, and the costs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

_PHASE_TEXT = {
    "production": "Production: take a cube",
    "trading": "Trading & special abilities, or build",
    "building": "Building",
    "redraw": "Redraw ability: put cubes into the bag, then draw",
    "discard": "Discard down to seven cubes",
    "over": "The game is over",
}


def _cubes(counts: Mapping[str, int]) -> str:
    """``{"white": 2, "red": 1}`` as ``2 white, red``."""
    return (
        ", ".join(f"{n} {colour}" if n > 1 else colour for colour, n in counts.items() if n) or "-"
    )


def _players(view: Mapping[str, Any]) -> Table:
    seat = view.get("seat")
    table = Table(box=box.SIMPLE_HEAD, title="The players", title_justify="left")
    for column in ("Seat", "Score", "On board", "Cubes", "Basic", "Diners", "Bistros", "TV"):
        table.add_column(column)
    for p in view["players"]:
        name = f"{p['seat']} {p['side']}" + (" (you)" if p["seat"] == seat else "")
        if p["seat"] == view["active"] and view["phase"] != "over":
            name += " *"
        table.add_row(
            name,
            str(p["score"]),
            str(p["points_now"]),
            f"{_cubes(p['cubes'])} ({p['cube_count']})",
            str(p["basics"]),
            ", ".join(p["diners"]) or "-",
            ", ".join(map(str, p["bistros"])) or "-",
            str(p["publicity"]),
            style="bold" if p["seat"] == seat else None,
        )
    return table


def _board(board: Mapping[str, Any], player: Mapping[str, Any]) -> Table:
    """One side's costs, with what the player owns marked."""
    table = Table(box=box.SIMPLE_HEAD, title=f"{board['side']} board: costs", title_justify="left")
    for column in ("Build", "Cost", "VP", ""):
        table.add_column(column)
    track = ", ".join(map(str, board["publicity"]["track"]))
    table.add_row(
        "publicity",
        _cubes(board["publicity"]["cost"]),
        f"track {track}",
        f"on space {player['publicity']}" if player["publicity"] else "",
    )
    spaces = ", ".join(map(str, board["basic"]["spaces"]))
    table.add_row("basic", _cubes(board["basic"]["cost"]), f"spaces {spaces}", "")
    for colour, cost in board["diners"].items():
        owned = "owned" if colour in player["diners"] else ""
        table.add_row(f"diner {colour}", _cubes(cost), str(board["diner_points"]), owned)
    for bistro in board["bistros"]:
        owned = "built" if bistro["slot"] in player["bistros"] else ""
        table.add_row(
            f"bistro {bistro['slot']} {bistro['name']} ({bistro['ability']})",
            _cubes(bistro["cost"]),
            str(bistro["points"]),
            owned,
        )
    return table


def render(view: Mapping[str, Any]) -> RenderableType:
    """The whole screen (every seat sees the same table)."""
    header = Text(
        f"Turn {view['turn']}  |  {_PHASE_TEXT[view['phase']]}  |  {view['win_points']} VP wins",
        style="bold",
    )
    parts: list[RenderableType] = [header, _players(view)]
    if view["phase"] == "production":
        line = f"Production cubes: {_cubes(view['pool'])}"
        areas = view.get("areas") or {}
        if areas:
            line += "  |  " + "; ".join(
                f"{area}: {', '.join(colours) or '-'}" for area, colours in areas.items()
            )
        parts.append(Text(line))
    used = ", ".join(view["abilities_used"])
    if used:
        parts.append(Text(f"Abilities used this turn: {used}"))
    if any(view["redraw_aside"].values()):
        parts.append(Text(f"Put aside for the redraw: {_cubes(view['redraw_aside'])}"))
    parts.append(Text(f"Bag: {_cubes(view['bag'])}"))
    seat = view.get("seat")
    shown = view["active"] if seat is None else seat
    parts.append(_board(view["boards"][shown], view["players"][shown]))
    if "result" in view:
        parts.append(Text(view["result"], style="bold green"))
    return Group(*parts)
