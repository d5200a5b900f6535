"""Burger Joint at the terminal: the turn, both players' boards and cubes, production and the
bag, and the costs of your board, every cube by its colour's name (no letter codes)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from potluck.games.burger_joint.schema import ABILITY_WORDS
from potluck.renderers.names import Namer, join_names, plural
from potluck.renderers.screen import Section, default_namer, whole

_PHASE_TEXT = {
    "production": "Production: take a cube",
    "trading": "Trading and bistro abilities, or build",
    "building": "Building",
    "redraw": "Redraw: put cubes back into the bag, then draw",
    "discard": "Discard down to seven cubes",
    "over": "The game is over",
}


def cubes(counts: Mapping[str, int]) -> str:
    """``{"white": 2, "red": 1}`` as ``2 white, red``; ``none`` when empty."""
    return ", ".join(f"{n} {c}" if n > 1 else c for c, n in counts.items() if n) or "none"


def cost(counts: Mapping[str, int]) -> str:
    """A cost: ``white + red``, ``3 white + 3 brown``."""
    return " + ".join(f"{n} {c}" if n > 1 else c for c, n in counts.items() if n) or "nothing"


def _player(view: Mapping[str, Any], p: Mapping[str, Any], namer: Namer) -> Text:
    active = p["seat"] == view["active"] and view["phase"] != "over"
    who = f"{namer.name(p['seat'], start=True)} ({p['side']}{', to move' if active else ''})"
    line = Text(who, style="bold" if p["seat"] == namer.you else "")
    diners = join_names(p["diners"]) or "none"
    bistros = ", ".join(str(b) for b in p["bistros"]) or "none"
    line.append(
        f": {p['score']} VP ({p['points_now']} now) · cubes: {cubes(p['cubes'])} · "
        f"production {p['capacity']} · {plural(p['basics'], 'basic restaurant')}"
        f" · diners: {diners} · bistros: {bistros} · publicity {p['publicity']}"
    )
    return line


def _player_short(p: Mapping[str, Any], namer: Namer) -> str:
    return f"{namer.name(p['seat'], start=True)}: {p['score']} VP, cubes {cubes(p['cubes'])}"


def _board(board: Mapping[str, Any], player: Mapping[str, Any]) -> Table:
    """One side's costs, each piece on a line, what the player built marked."""
    table = Table.grid(padding=(0, 1))
    table.add_column()
    table.add_column()
    track = "/".join(map(str, board["publicity"]["track"]))
    table.add_row(
        "Publicity",
        f"{cost(board['publicity']['cost'])} -> {track} VP (marker on {player['publicity']})",
    )
    spaces = "/".join(map(str, board["basic"]["spaces"]))
    table.add_row("Basic restaurant", f"{cost(board['basic']['cost'])} -> {spaces} VP")
    for colour, price in board["diners"].items():
        built = " (built)" if colour in player["diners"] else ""
        table.add_row(
            f"{colour.capitalize()} diner", f"{cost(price)} -> {board['diner_points']} VP{built}"
        )
    for bistro in board["bistros"]:
        built = " (built)" if bistro["slot"] in player["bistros"] else ""
        ability = ABILITY_WORDS.get(bistro["ability"], bistro["ability"].replace("-", " "))
        either = " or ".join(f"3 {c}" for c in bistro["cost"])
        table.add_row(
            f"Bistro {bistro['slot']}, {bistro['name']}",
            f"{either} -> {bistro['points']} VP, {ability}{built}",
        )
    return table


def sections(view: Mapping[str, Any], namer: Namer) -> list[Section]:
    """The screen for one seat (or a spectator), players by ``namer``'s names."""
    header = Text(
        f"Turn {view['turn']} · {_PHASE_TEXT[view['phase']]} · {view['win_points']} VP wins",
        style="bold",
    )
    parts = [Section(header)]
    for p in view["players"]:
        parts.append(
            Section(
                _player(view, p, namer),
                rank=1,
                short=Text(_player_short(p, namer)),
                name="the players",
            )
        )
    line = f"Bag: {cubes(view['bag'])}"
    if view["phase"] == "production":
        areas = view.get("areas") or {}
        where = "; ".join(
            f"{'the general area' if area == 'general' else f'{area} area'}: {join_names(found)}"
            for area, found in areas.items()
            if found
        )
        line = f"To take: {cubes(view['pool'])}" + (f" ({where})" if where else "") + f". {line}"
    parts.append(
        Section(Text(line), rank=0 if view["phase"] == "production" else 2, name="the bag")
    )
    used = ", ".join(ABILITY_WORDS.get(a, a) for a in view["abilities_used"])
    if used:
        parts.append(Section(Text(f"Abilities used this turn: {used}"), rank=2))
    if any(view["redraw_aside"].values()):
        parts.append(Section(Text(f"Put aside for the redraw: {cubes(view['redraw_aside'])}")))
    seat = view.get("seat")
    shown = view["active"] if seat is None else seat
    board = view["boards"][shown]
    title = Text(f"{board['side']}'s board (cost -> VP):", style="bold")
    parts.append(
        Section(
            Group(title, _board(board, view["players"][shown])),
            rank=3,
            name="the board's costs",
        )
    )
    if "result" in view:
        parts.append(Section(Text(namer.text(view["result"]), style="bold green")))
    return parts


def render(view: Mapping[str, Any], namer: Namer | None = None) -> RenderableType:
    """The whole screen for one seat (or a spectator)."""
    return whole(sections(view, namer or default_namer(view)))
