"""Belle of the Ball at the terminal: the line, every party's groups, your Belles."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text


def _card(card: Mapping[str, Any]) -> tuple[str, str]:
    if "guest" in card:
        return card["name"], ", ".join(card["interests"])
    return f"Belle: {card['name']}", card["text"]


def _line(view: Mapping[str, Any]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, title="The line", title_justify="left")
    for column in ("#", "Chips", "Card", "Interests"):
        table.add_column(column, justify="right" if column in ("#", "Chips") else "left")
    for card in view["line"]:
        name, detail = _card(card)
        table.add_row(str(card["position"]), str(card["chips"] or ""), name, detail)
    return table


def _shared(group: Sequence[Mapping[str, Any]]) -> str:
    """Interests shared so far, and what the group would score if it were full now."""
    counts = Counter(i for guest in group for i in guest["interests"])
    shared = sorted(((n, i) for i, n in counts.items() if n >= 2), reverse=True)
    if not shared:
        return "nothing shared yet"
    return ", ".join(f"{i} x{n}" for n, i in shared) + f" = {sum(n for n, _ in shared)}"


def _party(player: Mapping[str, Any], you: bool) -> RenderableType:
    title = (
        f"Seat {player['seat']}{' (you)' if you else ''}: {player['chips']} chips, "
        f"{player['hand_size']} Belle(s), {player['full_groups_scored']} group(s) scored"
    )
    heading = Text(title, style="bold" if you else "")
    groups = [(n, g) for n, g in enumerate(player["groups"], 1) if g]
    if not groups:
        return Group(heading, Text("  no guests yet\n"))
    table = Table(box=box.SIMPLE_HEAD)
    for number, group in groups:
        table.add_column(f"Group {number} ({len(group)}/5)")
    depth = max(len(g) for _, g in groups)
    for row in range(depth):
        table.add_row(*(", ".join(g[row]["interests"]) if row < len(g) else "" for _, g in groups))
    table.add_row(*(Text(_shared(g), style="italic") for _, g in groups))
    return Group(heading, table)


def render(view: Mapping[str, Any]) -> RenderableType:
    """The whole screen for one seat (or a spectator)."""
    seat = view.get("seat")
    turn = view["this_turn"]
    header = Text(
        f"Round {view['round']} ({view['rounds_left_after_this']} more after this)  |  "
        f"start player: seat {view['start_player']}  |  guest deck: "
        f"{view['decks']['guest_deck']}",
        style="bold",
    )
    if view["options"].get("belles_in_guest_deck"):
        header.append("  |  variant: Belles in the guest deck")
    parts: list[RenderableType] = [header, _line(view)]
    parts.extend(_party(p, p["seat"] == seat) for p in view["players"])
    if turn["belle_played"]:
        bent = ", ".join(turn["rules_bent"])
        parts.append(
            Text(f"This turn: {turn['belle_played']} played" + (f" ({bent})" if bent else ""))
        )
    if "result" in view:
        parts.append(Text(view["result"], style="bold green"))
    elif view.get("you") is not None:
        hand = view["you"]["hand"]
        lines = [f"{b['name']} ({b['family']}): {b['text']}" for b in hand]
        parts.append(Panel(Text("\n".join(lines) or "no Belles"), title="Your Belles"))
    return Group(*parts)
