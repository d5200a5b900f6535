"""Burger Joint at the terminal: the players' boards and cubes, production, and the costs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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


def _abbreviations(colours: list[str]) -> dict[str, str]:
    """Each colour's shortest prefix that no other colour shares: ``Bl`` and ``Br``."""
    found = {}
    for colour in colours:
        size = 1
        while any(o != colour and o.startswith(colour[:size]) for o in colours):
            size += 1
        found[colour] = colour[:size].capitalize()
    return found


def _short(counts: Mapping[str, int], short: Mapping[str, str]) -> str:
    """``{"white": 2, "red": 1}`` as ``2W R``: compact, with the legend on the screen."""
    return " ".join(f"{n}{short[c]}" if n > 1 else short[c] for c, n in counts.items() if n) or "-"


def _letters(colours: list[str], short: Mapping[str, str]) -> str:
    return " ".join(short[c] for c in colours) or "-"


def _legend(short: Mapping[str, str]) -> str:
    return "Cubes: " + " ".join(f"{letters}={colour}" for colour, letters in short.items())


def _players(view: Mapping[str, Any], short: Mapping[str, str]) -> Table:
    seat = view.get("seat")
    table = Table(box=None, pad_edge=False, padding=(0, 1), show_edge=False)
    for column in ("Seat", "VP", "Cubes", "Basic", "Diners", "Bistros", "TV"):
        table.add_column(column, style="bold" if column == "Seat" else None)
    for p in view["players"]:
        name = f"{p['seat']} {p['side']}" + (" (you)" if p["seat"] == seat else "")
        if p["seat"] == view["active"] and view["phase"] != "over":
            name += " *"
        table.add_row(
            name,
            f"{p['score']} ({p['points_now']})",
            f"{_short(p['cubes'], short)} ({p['cube_count']})",
            str(p["basics"]),
            _letters(p["diners"], short),
            " ".join(map(str, p["bistros"])) or "-",
            str(p["publicity"]),
        )
    return table


def _board(board: Mapping[str, Any], player: Mapping[str, Any], short: Mapping[str, str]) -> Table:
    """One side's costs in two columns, what the player owns marked with a check."""
    table = Table(
        box=None, pad_edge=False, padding=(0, 1), show_header=False, show_edge=False,
        title=f"{board['side']} board (cost -> VP; + built)", title_justify="left",
    )  # fmt: skip
    cells = [
        f"publicity {_short(board['publicity']['cost'], short)} -> "
        + "/".join(map(str, board["publicity"]["track"]))
        + (f" (on {player['publicity']})" if player["publicity"] else ""),
        f"basic {_short(board['basic']['cost'], short)} -> "
        + "/".join(map(str, board["basic"]["spaces"])),
    ]
    for colour, cost in board["diners"].items():
        mark = "+" if colour in player["diners"] else " "
        name = short[colour]
        cells.append(f"{mark}diner {name} {_short(cost, short)} -> {board['diner_points']}")
    for bistro in board["bistros"]:
        mark = "+" if bistro["slot"] in player["bistros"] else " "
        cells.append(
            f"{mark}bistro {bistro['slot']} {bistro['name']} {_short(bistro['cost'], short)} -> "
            f"{bistro['points']} ({bistro['ability']})"
        )
    half = (len(cells) + 1) // 2
    for left, right in zip(cells[:half], [*cells[half:], ""], strict=False):
        table.add_row(left, right)
    return table


def render(view: Mapping[str, Any]) -> RenderableType:
    """The whole screen in at most about 16 lines, for an 80x24 terminal."""
    header = Text(
        f"Turn {view['turn']}  |  {_PHASE_TEXT[view['phase']]}  |  {view['win_points']} VP wins",
        style="bold",
    )
    short = _abbreviations(list(view["bag"]))
    parts: list[RenderableType] = [header, Text(_legend(short), style="dim"), _players(view, short)]
    line = f"Bag: {_short(view['bag'], short)}"
    if view["phase"] == "production":
        line += f"  |  Production: {_short(view['pool'], short)}"
        areas = view.get("areas") or {}
        if areas:
            line += (
                "  ("
                + "; ".join(f"{area}: {_letters(cubes, short)}" for area, cubes in areas.items())
                + ")"
            )
    parts.append(Text(line))
    used = ", ".join(view["abilities_used"])
    if used:
        parts.append(Text(f"Abilities used this turn: {used}"))
    if any(view["redraw_aside"].values()):
        parts.append(Text(f"Put aside for the redraw: {_cubes(view['redraw_aside'])}"))
    seat = view.get("seat")
    shown = view["active"] if seat is None else seat
    parts.append(_board(view["boards"][shown], view["players"][shown], short))
    if "result" in view:
        parts.append(Text(view["result"], style="bold green"))
    return Group(*parts)
