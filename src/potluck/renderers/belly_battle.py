"""Belly Battle at the terminal: the round and roll, the players and their restaurants, the
latest news and your Munchtime card, players by name and spaces by their names."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from potluck.renderers.names import Namer, plural
from potluck.renderers.screen import Section, default_namer, whole

_PHASE_TEXT = {
    "buy-or-pass": "buy the restaurant you landed on, or pass and pay its fee",
    "takeover": "Takeover Battle: challenge a rival's restaurant, or pass",
    "swap": "Swap Swap: swap one of your restaurants for a rival's, or pass",
    "insure": "BellyGuard Insurance: insure one of your restaurants, or pass",
    "yuck": "Yuck!: choose who pays you the fine",
    "tunnel": "Tunnel: go through, or stay",
    "upgrade-window": "upgrades: hire chefs, earn stars, sell or offer restaurants, or end",
    "respond-to-offer": "an offer is on the table: accept or decline",
    "raise-cash": "a debt: sell until it can be paid",
    "over": "the game is over",
}


def _names(view: Mapping[str, Any]) -> dict[str, str]:
    """Each card's name by its notation, from the board."""
    return {s["card"]: s["name"] for s in view["board"] if s["card"]}


def _space(view: Mapping[str, Any], position: int) -> str:
    space = view["board"][position]
    return str(space.get("title") or space["name"])


def _players(view: Mapping[str, Any], namer: Namer) -> Text:
    names = _names(view)
    text = Text()
    for p in view["players"]:
        who = namer.name(p["seat"], start=True)
        state = " (bankrupt)" if p["bankrupt"] else ""
        owns = ", ".join(names[c] for c in p["cards"]) or "no restaurant"
        text.append(f"{who}{state}", style="bold" if p["seat"] == namer.you else "")
        text.append(
            f": cash {p['cash']}, wealth {p['wealth']}, on {_space(view, p['position'])}; "
            f"owns {owns}\n"
        )
    text.rstrip()
    return text


def _players_short(view: Mapping[str, Any], namer: Namer) -> Text:
    return Text(
        "  ".join(
            f"{namer.name(p['seat'], start=True)} {p['cash']}/{p['wealth']}"
            + (" bankrupt" if p["bankrupt"] else f" ({plural(len(p['cards']), 'restaurant')})")
            for p in view["players"]
        )
        + "  (cash/wealth)"
    )


def _owned(view: Mapping[str, Any], namer: Namer) -> Table:
    names = _names(view)
    table = Table(
        box=box.SIMPLE_HEAD, title="Owned restaurants", title_justify="left", pad_edge=False
    )
    for column in ("Restaurant", "Owner", "Chefs", "Star", "Fee", ""):
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
            names[card["card"]],
            namer.name(card["owner"], start=True),
            str(card["chefs"]),
            "★" if card["star"] else "",
            str(card["fee"]),
            ", ".join(marks),
        )
    return table


def _yours(view: Mapping[str, Any], namer: Namer) -> Text:
    names = _names(view)
    mine = [c for c in view["cards"] if c["owner"] == namer.you]
    parts = [
        f"{names[c['card']]} (fee {c['fee']}"
        + (f", {plural(c['chefs'], 'chef')}" if c["chefs"] else "")
        + (", star" if c["star"] else "")
        + (", insured" if c["insured"] else "")
        + ")"
        for c in mine
    ]
    return Text("Yours: " + (", ".join(parts) or "none"))


def sections(view: Mapping[str, Any], namer: Namer) -> list[Section]:
    """The screen for one seat (or a spectator), players by ``namer``'s names."""
    dice = view["dice"]
    turn = namer.possessive(view["turn"], start=False)
    roll = f", rolled {dice[0]}+{dice[1]}" if dice else ""
    header = Text(
        f"Round {view['round']} of at most {view['max_rounds']} · {turn} turn{roll} · "
        f"{_PHASE_TEXT.get(view['phase'], view['phase'].replace('-', ' '))}",
        style="bold",
    )
    parts = [
        Section(header),
        Section(
            _players(view, namer), rank=1, short=_players_short(view, namer), name="the players"
        ),
        Section(
            _owned(view, namer),
            rank=3,
            short=_yours(view, namer) if namer.you is not None else None,
            name="the restaurants",
        ),
    ]
    out = [
        f"{name}: {namer.name(holder)}"
        for name, holder in view["round_cards"].items()
        if holder is not None
    ]
    supply = view["supply"]
    parts.append(
        Section(
            Text(
                f"Bank: {plural(supply['chefs'], 'chef')}, {plural(supply['stars'], 'star')}, "
                f"{plural(supply['bellyguards'], 'BellyGuard card')}, "
                f"{plural(supply['munchtime_cards'], 'Munchtime card')}"
                + (f" · one-round cards: {'; '.join(out)}" if out else "")
            ),
            rank=4,
            name="the bank",
        )
    )
    if view["offer"]:
        o = view["offer"]
        seller = namer.name(o["seller"], start=True)
        verb = "offer" if o["seller"] == namer.you else "offers"
        card = _names(view)[o["card"]]
        parts.append(
            Section(Text(f"{seller} {verb} {card} to {namer.name(o['buyer'])} for {o['price']}."))
        )
    if view["debt"]:
        d = view["debt"]
        to = "the bank" if d["payee"] is None else namer.name(d["payee"])
        parts.append(
            Section(
                Text(
                    namer.text(f"Seat {d['payer']} owes {d['amount']} to ") + to + ".", style="red"
                )
            )
        )
    if view["log"]:
        lines = [namer.text(line) for line in view["log"][-5:]]
        parts.append(
            Section(
                Text("\n".join(lines), style="dim"),
                rank=2,
                short=Text("\n".join(lines[-2:]), style="dim"),
                name="the news",
            )
        )
    if "result" in view:
        parts.append(Section(Text(namer.text(view["result"]), style="bold green")))
    you = view.get("you")
    if you is not None:
        seen = "; ".join(
            f"{namer.name(int(s), start=True)}: {' + '.join(x.capitalize() for x in c)}"
            for s, c in you["seen"].items()
        )
        parts.append(
            Section(
                Text(
                    f"Your Munchtime card: {' + '.join(c.capitalize() for c in you['munchtime'])}"
                    + (f" · seen at Sneaky Eyes: {seen}" if seen else ""),
                    style="green",
                )
            )
        )
    return parts


def render(view: Mapping[str, Any], namer: Namer | None = None) -> RenderableType:
    """The whole screen for one seat (or a spectator)."""
    return whole(sections(view, namer or default_namer(view)))
