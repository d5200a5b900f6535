"""Café Carnage at the terminal: the night and phase, the diners, the bill of the last night
and your hand and order, players by name. The moves (your menu's dishes, your cards) are
the play session's menu, so the menu is not drawn twice."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from potluck.renderers.names import Namer, join_names, plural
from potluck.renderers.screen import Section, default_namer, whole

_PHASE_TEXT = {
    "starter": "Take Orders: choose a starter",
    "main": "Take Orders: choose a main",
    "dessert": "Take Orders: choose a dessert",
    "ballot": "Secret Ballot: play an action card",
    "over": "The week is over",
}
_CARD_TITLES = {
    "split": "Split the Bill Evenly",
    "separately": "Each Pay Separately",
    "run": "RUN!",
}


def _dish(d: Mapping[str, Any] | None) -> str:
    return "-" if d is None else f"{d['name']} (${d['value']})"


def _diners(view: Mapping[str, Any], namer: Namer) -> Table:
    table = Table(box=box.SIMPLE_HEAD, title="The diners", title_justify="left", pad_edge=False)
    for column in ("Diner", "Money", "Points", "Cards", ""):
        table.add_column(column, justify="right" if column in ("Money", "Points") else "left")
    for p in view["players"]:
        status = ("choosing" if p["waiting_for"] else "ready") if view["phase"] != "over" else ""
        marks = [] if p["has_run_card"] else ["got away once (no RUN!)"]
        if p["iou"]:
            marks.append("holds an IOU")
        table.add_row(
            namer.name(p["seat"], start=True),
            f"${p['money']}",
            str(p["points"]),
            str(p["hand_size"]),
            ", ".join([status, *marks]) if status else ", ".join(marks),
            style="bold" if p["seat"] == namer.you else None,
        )
    return table


def _diners_short(view: Mapping[str, Any], namer: Namer) -> Text:
    """The diners in two lines or so: name, money and points."""
    return Text(
        "  ".join(
            f"{namer.name(p['seat'], start=True)} ${p['money']} ★{p['points']}"
            for p in view["players"]
        )
    )


def _verdict(record: Mapping[str, Any], namer: Namer) -> list[str]:
    def names(seats: list[int]) -> str:
        return join_names([namer.name(s, start=i == 0) for i, s in enumerate(seats)])

    lines = []
    runners, caught, escaped = record["runners"], record["caught"], record["escaped"]
    if runners:
        lines.append(f"{names(runners)} ran from the bill.")
        if caught:
            verb = "was" if len(caught) == 1 and caught[0] != namer.you else "were"
            between = " between them" if len(caught) > 1 else ""
            lines.append(
                f"{names(caught)} {verb} caught and paid the runners' ${record['runners_bill']}"
                f"{between}."
            )
        if escaped:
            lines.append(f"{names(escaped)} got away.")
    else:
        lines.append("Nobody ran.")
    votes = record["votes"]
    if record["bill"] is not None:
        how = "split the bill evenly" if record["bill"] == "split" else "pay separately"
        lines.append(f"The table voted {votes['split']} to {votes['separately']} to {how}.")
    if "your_card" in record:
        title = _CARD_TITLES[record["your_card"]]
        lines.append(f"You played {title}" + ("" if title.endswith("!") else "."))
    return lines


def _bill(record: Mapping[str, Any], namer: Namer) -> Group:
    meals = Table(
        box=box.SIMPLE_HEAD,
        title=f"The bill of night {record['round']}",
        title_justify="left",
        pad_edge=False,
    )
    for column in ("Diner", "Meal", "Cost", "Paid", "IOUs"):
        meals.add_column(column, justify="left" if column in ("Diner", "Meal") else "right")
    for meal in record["meals"]:
        seat = meal["seat"]
        meals.add_row(
            namer.name(seat, start=True),
            ", ".join(d["name"] for d in meal["dishes"]),
            f"${meal['cost']}",
            f"${record['paid'][seat]}",
            str(record["iou_loans"][seat] or ""),
        )
    return Group(meals, Text(" ".join(_verdict(record, namer))))


def _bill_short(record: Mapping[str, Any], namer: Namer) -> Text:
    you = namer.you
    paid = f" You paid ${record['paid'][you]}." if you is not None else ""
    return Text(f"Night {record['round']}: {' '.join(_verdict(record, namer))}{paid}")


def _you(view: Mapping[str, Any]) -> Text:
    you = view["you"]
    hand = ", ".join(f"{_CARD_TITLES[c]} ×{n}" for c, n in you["hand"].items() if n)
    order = you["order"]
    text = Text(f"Your cards: {hand or 'none'}\n", style="green")
    text.append(
        f"Your order tonight: {_dish(order['starter'])} / {_dish(order['main'])} / "
        f"{_dish(order['dessert'])}"
    )
    if you["card"]:
        text.append(f"; played face down: {_CARD_TITLES[you['card']]}")
    return text


def sections(view: Mapping[str, Any], namer: Namer) -> list[Section]:
    """The screen for one seat (or a spectator), players by ``namer``'s names."""
    header = Text(
        f"Night {view['round']} of {view['rounds']} · {_PHASE_TEXT[view['phase']]} · "
        f"{plural(view['guards'], 'guard')} at the door",
        style="bold",
    )
    if view["options"].get("no_repeat_dishes"):
        header.append(" · advanced: no dish twice a week")
    parts = [
        Section(header),
        Section(_diners(view, namer), rank=1, short=_diners_short(view, namer), name="the diners"),
    ]
    if view["log"]:
        last = view["log"][-1]
        parts.append(
            Section(_bill(last, namer), rank=2, short=_bill_short(last, namer), name="the bill")
        )
    if "result" in view:
        parts.append(Section(Text(namer.text(view["result"]), style="bold green"), rank=1))
    if view.get("you") is not None and view["phase"] != "over":
        parts.append(Section(_you(view)))
    return parts


def render(view: Mapping[str, Any], namer: Namer | None = None) -> RenderableType:
    """The whole screen for one seat (or a spectator)."""
    return whole(sections(view, namer or default_namer(view)))
