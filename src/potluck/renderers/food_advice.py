"""FoodAdvice at the terminal: the table, the products, the shops, this round's
customers and events, and your hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

_PHASE_TEXT = {
    "exchange": "Ingredient exchange: make one offer or pass",
    "respond": "An offer waits for an answer: give an ingredient or decline",
    "keep": "Keep three ingredients: discard the others",
    "naming": "Name your product and give it a tagline",
    "voting": "Vote for one product of another player",
    "placing": "Place chips on two shops and one promotion channel",
    "events": "Playing events",
    "over": "The game is over",
}


def _players(view: Mapping[str, Any]) -> Table:
    you = view.get("you", {}) or {}
    table = Table(box=box.SIMPLE_HEAD, title="The table", title_justify="left")
    for column in ("Seat", "Role", "F", "Chips", "Hand", "Shape", "Shops", "Promotion", ""):
        table.add_column(column, justify="right" if column in ("F", "Chips", "Hand") else "left")
    for p in view["players"]:
        promotion = list(p["channels"])
        if p["invest"] is not None:
            promotion = [c for c in promotion if c != "mabius"] + [f"mabius->{p['invest']}"]
        table.add_row(
            f"{p['seat']}" + (" (you)" if p["seat"] == you.get("seat") else ""),
            p["role"],
            str(p["money"]),
            str(p["chips"]),
            str(p["hand_size"]),
            p["shape"] or "",
            ", ".join(p["shops"]),
            ", ".join(promotion),
            "to act" if p["to_act"] else "",
        )
    return table


def _products(view: Mapping[str, Any]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, title="Products on offer", title_justify="left")
    for column in ("#", "Seat", "Shape", "Name", "F", "Hashtags", "Ingredients"):
        table.add_column(column, justify="right" if column in ("#", "F") else "left")
    for p in view["products"]:
        table.add_row(
            str(p["product"]),
            str(p["owner"]),
            p["shape"],
            f"{p['name']}  [dim]{p['tagline']}[/dim]",
            str(p["price"]),
            " ".join(f"#{t}" for t in p["hashtags"]),
            ", ".join(p["ingredients"]),
        )
    return table


def _board(view: Mapping[str, Any]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, title="Shops on the board", title_justify="left")
    for column in ("Shop", "Bonus", "Shapes (+10 F)"):
        table.add_column(column)
    for shop in view["board"]:
        term = shop["when"].replace("_", " ")
        if shop["when"] in ("category", "hashtag", "price_at_most", "price_at_least"):
            term += f" {shop['value']}"
        elif shop["when"] == "matches_at_least":
            term = f"at least {shop['value']} hashtag matches"
        table.add_row(
            f"{shop['name']} ({shop['shop']})",
            f"+{shop['bonus']} F: {term}",
            ", ".join(shop["shapes"]),
        )
    return table


def _round_news(view: Mapping[str, Any]) -> list[RenderableType]:
    """The last finished round's customers and events (or the current round's)."""
    news: list[RenderableType] = []
    source = view["log"][-1] if view["log"] else None
    if view["events"]:
        news.append(Text("Events: " + "; ".join(_event_line(e) for e in view["events"])))
    if source is not None and view["phase"] in ("exchange", "over"):
        lines = []
        for sale in source["sales"]:
            if sale["seller"] is None:
                lines.append(f"{sale['customer']} left ({sale['reason']})")
            else:
                who = {"extra": " (extra customer)", "joker": " (Joker)"}.get(sale["kind"], "")
                lines.append(
                    f"{sale['customer']}{who} bought product {sale['product']} from seat "
                    f"{sale['seller']} for {sale['paid']} F (+{sale['bonus']} bonus; "
                    f"{sale['reason']})"
                )
        news.append(Panel("\n".join(lines) or "-", title=f"Customers of round {source['round']}"))
    if view.get("playing"):
        playing = view["playing"]
        news.append(Text(f"Seat {playing['seat']} plays {playing['event']}: {playing['text']}"))
    if view.get("offer"):
        offer = view["offer"]
        cards = ", ".join(
            f"{card['name']} (#{card['hashtag']}, {card['price']} F)"
            for card in offer["ingredients"]
        )
        verb = "offers" if offer["sent"] else "is putting together an offer of"
        given = ", ".join(card["name"] for card in offer["given"])
        news.append(
            Text(
                f"Seat {offer['from']} {verb} {cards} to seat {offer['to']}"
                + (f"; given back so far: {given}" if given else ""),
                style="bold",
            )
        )
    return news


def _event_line(entry: Mapping[str, Any]) -> str:
    return f"seat {entry['seat']} {entry['event'] or ''}: {entry['effect']}".replace(" :", ":")


def _you(view: Mapping[str, Any]) -> Panel:
    you = view["you"]
    table = Table(box=box.SIMPLE_HEAD)
    for column in ("Ingredient", "Category", "F", "Hashtag"):
        table.add_column(column)
    for i in you["hand"]:
        table.add_row(i["ingredient"], i["category"], str(i["price"]), f"#{i['hashtag']}")
    parts: list[RenderableType] = [table] if you["hand"] else []
    if you["event"]:
        parts.append(Text(f"Your event: {you['event']['event']} - {you['event']['text']}"))
    for card in you["held"]:
        parts.append(Text(f"Held face down: {card['event']} - {card['text']}"))
    return Panel(Group(*parts) if parts else Text("-"), title=f"Seat {you['seat']} (you)")


def render(view: Mapping[str, Any]) -> RenderableType:
    """The whole screen for one seat (or a spectator)."""
    header = Text(
        f"Round {view['round']} of {view['rounds']}  |  {_PHASE_TEXT[view['phase']]}",
        style="bold",
    )
    parts: list[RenderableType] = [header, _players(view)]
    if view["products"]:
        parts.append(_products(view))
    if view["board"]:
        parts.append(_board(view))
    parts += _round_news(view)
    if view.get("tiebreak"):
        tb = view["tiebreak"]
        parts.append(
            Text(f"Tie-break customers: {', '.join(tb['customers'])}; winner {tb['winner']}")
        )
    if view.get("you") is not None and view["phase"] != "over":
        parts.append(_you(view))
    return Group(*parts)
