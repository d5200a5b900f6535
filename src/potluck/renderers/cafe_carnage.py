"""Café Carnage at the terminal: the table, the bill of the last night, your menu and hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

_PHASE_TEXT = {
    "starter": "Take Orders: choose a starter",
    "main": "Take Orders: choose a main",
    "dessert": "Take Orders: choose a dessert",
    "ballot": "Secret Ballot: play an action card",
    "over": "The week is over",
}
_CARD_TITLES = {"split": "Split the Bill", "separately": "Pay Separately", "run": "RUN!"}


def _dish(d: Mapping[str, Any] | None) -> str:
    return "-" if d is None else f"{d['name']} (${d['value']})"


def _players(view: Mapping[str, Any]) -> Table:
    seat = view.get("seat")
    table = Table(box=box.SIMPLE_HEAD, title="The table", title_justify="left")
    for column in ("Seat", "Money", "Points", "IOU", "Cards", "Run!", ""):
        table.add_column(column, justify="right" if column in ("Money", "Points") else "left")
    for p in view["players"]:
        status = "choosing..." if p["waiting_for"] else ("done" if view["phase"] != "over" else "")
        row = [
            f"{p['seat']}" + (" (you)" if p["seat"] == seat else ""),
            f"${p['money']}",
            str(p["points"]),
            "IOU" if p["iou"] else "",
            str(p["hand_size"]),
            "yes" if p["has_run_card"] else "used",
            status,
        ]
        table.add_row(*row, style="bold" if p["seat"] == seat else None)
    return table


def _last_night(record: Mapping[str, Any]) -> Panel:
    meals = Table(box=box.SIMPLE_HEAD)
    for column in ("Seat", "Starter", "Main", "Dessert", "Cost", "Scored", "Paid", "IOU loans"):
        meals.add_column(column)
    for meal in record["meals"]:
        seat = meal["seat"]
        meals.add_row(
            str(seat),
            *(d["name"] for d in meal["dishes"]),
            f"${meal['cost']}",
            f"+{meal['scored']}",
            f"${record['paid'][seat]}",
            str(record["iou_loans"][seat] or ""),
        )
    lines = []
    runners, caught, escaped = record["runners"], record["caught"], record["escaped"]
    if runners:
        lines.append(f"Runners: {', '.join(map(str, runners))}.")
        if caught:
            lines.append(
                f"Caught: {', '.join(map(str, caught))}, paying the runners' "
                f"${record['runners_bill']} between them."
            )
        if escaped:
            lines.append(f"Got away: {', '.join(map(str, escaped))}.")
    else:
        lines.append("Nobody ran.")
    votes = record["votes"]
    if record["bill"] is not None:
        how = "split evenly" if record["bill"] == "split" else "each paid separately"
        lines.append(
            f"Votes: {votes['split']} split, {votes['separately']} separately: the bill was {how}."
        )
    if "your_card" in record:
        lines.append(f"You played: {_CARD_TITLES[record['your_card']]}.")
    return Panel(Group(meals, Text("\n".join(lines))), title=f"Night {record['round']}: the bill")


def _you(view: Mapping[str, Any]) -> Panel:
    you = view["you"]
    parts: list[RenderableType] = []
    hand = ", ".join(f"{_CARD_TITLES[c]} x{n}" for c, n in you["hand"].items() if n)
    parts.append(Text(f"Hand: {hand or 'empty'}"))
    order = you["order"]
    parts.append(
        Text(
            f"Tonight: {_dish(order['starter'])} / {_dish(order['main'])} / "
            f"{_dish(order['dessert'])}"
            + (f"   Card: {_CARD_TITLES[you['card']]}" if you["card"] else "")
        )
    )
    if you["menu"]:
        menu = Table(box=box.SIMPLE_HEAD, title="Your menu", title_justify="left")
        menu.add_column("Dish")
        menu.add_column("Price = points", justify="right")
        for dish in you["menu"]:
            menu.add_row(dish["name"], f"${dish['value']}")
        parts.append(menu)
    return Panel(Group(*parts), title="You")


def render(view: Mapping[str, Any]) -> RenderableType:
    """The whole screen for one seat (or a spectator)."""
    header = Text(
        f"Night {view['round']} of {view['rounds']}  |  {_PHASE_TEXT[view['phase']]}  |  "
        f"security guards: {view['guards']}",
        style="bold",
    )
    if view["options"].get("no_repeat_dishes"):
        header.append("  |  advanced: no dish twice a week")
    parts: list[RenderableType] = [header, _players(view)]
    if view["log"]:
        parts.append(_last_night(view["log"][-1]))
    if "result" in view:
        parts.append(Text(view["result"], style="bold green"))
    if view.get("you") is not None and view["phase"] != "over":
        parts.append(_you(view))
    return Group(*parts)
