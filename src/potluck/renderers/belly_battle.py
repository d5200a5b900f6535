"""Belly Battle at the terminal: the players, the restaurants they own, the log and your card."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

_PHASE_TEXT = {
    "buy-or-pass": "buy the card you landed on, or pass and pay its basic fee",
    "takeover": "Takeover Battle: challenge a card, or pass",
    "swap": "Swap Swap: swap a restaurant, or pass",
    "insure": "BellyGuard Insurance: insure a restaurant, or pass",
    "yuck": "Yuck! choose who gets your 50",
    "tunnel": "Tunnel: go through, or pass",
    "upgrade-window": "upgrade window: buy chefs and stars, sell, offer, or pass",
    "respond-to-offer": "an offer is on the table: accept or decline",
    "raise-cash": "a debt: sell until it can be paid",
    "over": "the game is over",
}


def _players(view: Mapping[str, Any]) -> Table:
    seat = view.get("seat")
    table = Table(box=box.SIMPLE_HEAD, title="Players", title_justify="left")
    for column in ("Seat", "Cash", "Wealth", "On", "Cards"):
        table.add_column(column, justify="right" if column in ("Cash", "Wealth") else "left")
    for p in view["players"]:
        name = f"{p['seat']}" + (" (you)" if p["seat"] == seat else "")
        if p["bankrupt"]:
            name += " bankrupt"
        table.add_row(
            name,
            str(p["cash"]),
            str(p["wealth"]),
            p["space"],
            ", ".join(p["cards"]) or "-",
            style="bold" if p["seat"] == seat else None,
        )
    return table


def _owned(view: Mapping[str, Any]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, title="Owned cards", title_justify="left")
    for column in ("Card", "Owner", "Chefs", "Star", "Fee", ""):
        table.add_column(column)
    golden = view["golden_belly"]
    for card in view["cards"]:
        if card["owner"] is None:
            continue
        marks = []
        if card["insured"]:
            marks.append("BellyGuard")
        if card["card"] == golden:
            marks.append("Golden Belly")
        table.add_row(
            card["card"],
            str(card["owner"]),
            str(card["chefs"]),
            "*" if card["star"] else "",
            str(card["fee"]),
            ", ".join(marks),
        )
    return table


def render(view: Mapping[str, Any]) -> RenderableType:
    """The whole screen for one seat (or a spectator)."""
    dice = view["dice"]
    header = Text(
        f"Round {view['round']} of at most {view['max_rounds']}  |  seat {view['turn']}'s turn, "
        f"rolled {dice[0]}+{dice[1]}  |  {_PHASE_TEXT.get(view['phase'], view['phase'])}",
        style="bold",
    )
    parts: list[RenderableType] = [header, _players(view), _owned(view)]
    out = [
        f"{name}: seat {holder}"
        for name, holder in view["round_cards"].items()
        if holder is not None
    ]
    supply = view["supply"]
    parts.append(
        Text(
            f"Supply: {supply['chefs']} chefs, {supply['stars']} stars, "
            f"{supply['bellyguards']} BellyGuard cards, {supply['munchtime_cards']} Munchtime "
            "cards" + (f"  |  out: {'; '.join(out)}" if out else "")
        )
    )
    if view["offer"]:
        o = view["offer"]
        parts.append(
            Text(
                f"Offer: seat {o['seller']} sells {o['card']} to seat {o['buyer']} for {o['price']}"
            )
        )
    if view["debt"]:
        d = view["debt"]
        to = "the bank" if d["payee"] is None else f"seat {d['payee']}"
        parts.append(Text(f"Debt: seat {d['payer']} owes {d['amount']} to {to}", style="red"))
    if view["log"]:
        parts.append(Panel(Text("\n".join(view["log"][-6:])), title="Lately"))
    if "result" in view:
        parts.append(Text(view["result"], style="bold green"))
    you = view.get("you")
    if you is not None:
        seen = "; ".join(f"seat {s}: {'+'.join(c)}" for s, c in you["seen"].items())
        parts.append(
            Text(
                f"Your Munchtime card: {' + '.join(you['munchtime'])}"
                + (f"  |  seen at Sneaky Eyes: {seen}" if seen else "")
            )
        )
    return Group(*parts)
