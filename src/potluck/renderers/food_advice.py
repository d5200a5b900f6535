"""FoodAdvice at the terminal: the round and phase, everyone's foodcoins, the products, the
market's shops (their bonuses in words) and channels, this round's offer, events and
customers, and your hand, players by name. What a phase needs comes first; the rest gives
way on a small terminal (``table`` shows it all)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from potluck.renderers.names import Namer, join_names, plural
from potluck.renderers.screen import Section, default_namer, whole

_PHASE_TEXT = {
    "exchange": "Ingredient exchange: make one offer or pass",
    "respond": "An offer waits for an answer: give an ingredient back or decline",
    "keep": "Keep three ingredients: discard the others",
    "naming": "Name your product and give it a tagline",
    "voting": "Vote for one product of another player",
    "placing": "Place chips on shops and promotion channels",
    "events": "Playing events",
    "over": "The game is over",
}
_KINDS = {"extra": " (an extra customer)", "joker": " (a Joker)"}


def _words(slug: str) -> str:
    """An ingredient or shop by its notation, in words: ``free-range-eggs`` -> ``Free Range
    Eggs``."""
    return " ".join(word.capitalize() for word in slug.split("-"))


def _players(view: Mapping[str, Any], namer: Namer) -> Text:
    lines = []
    for p in view["players"]:
        held = f", {plural(p['held_events'], 'event')} held" if p["held_events"] else ""
        shape = f", shape {p['shape']}" if p["shape"] else ""
        acting = " (to act)" if p["to_act"] else ""
        lines.append(
            f"{namer.name(p['seat'], start=True)}{acting}: {p['money']} F, {p['role']}, "
            f"{plural(p['chips'], 'chip')}, {plural(p['hand_size'], 'ingredient')}{shape}{held}"
        )
    return Text("\n".join(lines))


def _money(view: Mapping[str, Any], namer: Namer) -> Text:
    return Text(
        "  ".join(f"{namer.name(p['seat'], start=True)} {p['money']} F" for p in view["players"])
    )


def _products(view: Mapping[str, Any], namer: Namer, *, ingredients: bool = True) -> Text:
    """This round's products, one a line (with their ingredients: two)."""
    lines = []
    for p in view["products"]:
        if p["round"] != view["round"]:
            continue
        tags = " ".join(f"#{t}" for t in p["hashtags"])
        name = f'"{p["name"]}"' if p["name"] else "not yet named"
        owner = namer.possessive(p["owner"], start=True)
        line = f"{owner} {p['shape']}, {name}, {p['price']} F, {tags}"
        if ingredients:
            line += ": " + ", ".join(_words(i) for i in p["ingredients"])
        lines.append(line)
    return Text("Products of this round:\n" + ("\n".join(lines) or "none yet"))


#: A shop's term, in a few words (its whole rule is the view's ``rule``).
_TERMS = {
    "male": "sales to men",
    "female": "sales to women",
    "category": "{} budgets",
    "hashtag": "#{}",
    "favourite_shape": "a favourite shape",
    "price_at_most": "{} F or less",
    "price_at_least": "{} F or more",
    "matches_at_least": "{}+ liked hashtags",
}


def _chips_on(view: Mapping[str, Any], namer: Namer, test: Any) -> str:
    """``2 chips, yours among them``: the chips on a shop or channel (empty: none)."""
    seats = [p["seat"] for p in view["players"] if test(p)]
    if not seats:
        return ""
    mine = namer.you in seats
    return plural(len(seats), "chip") + (
        (", yours among them" if len(seats) > 1 else ", yours") if mine else ""
    )


def _slug(name: str) -> str:
    return name.lower().replace("'", "").replace(" ", "-")


def _market(view: Mapping[str, Any], namer: Namer, *, whole_rules: bool = True) -> Text:
    """The shops (their rules whole, or in a few words) and the channels, with the chips."""
    lines = []
    for shop in view["board"]:
        if whole_rules and shop.get("rule"):
            rule = shop["rule"]
        else:
            term = _TERMS.get(shop["when"], "{}").format(shop["value"])
            rule = f"+{shop['bonus']} F for {term}; shapes {' and '.join(shop['shapes'])}"
        on = _chips_on(view, namer, lambda p, slug=shop["shop"]: slug in p["shops"])
        lines.append(f"{shop['name']}: {rule}" + (f" · {on}" if on else ""))
    channels = []
    for name in view["channels"]:
        slug = _slug(name)
        on = _chips_on(view, namer, lambda p, slug=slug: slug in p["channels"])
        channels.append(name + (f" ({on})" if on else ""))
    return Text("Shops:\n" + "\n".join(lines) + f"\nPromotion channels: {', '.join(channels)}")


def _sales(view: Mapping[str, Any], namer: Namer) -> tuple[Text, Text] | None:
    """The customers of the round being sold or of the last round, and a one-line form."""
    last = view["log"][-1] if view["log"] else None
    sales = view["sales"] or (
        last["sales"] if last and view["phase"] in ("exchange", "over") else []
    )
    if not sales:
        return None
    round_number = view["round"] if view["sales"] else last["round"] if last else view["round"]
    lines = []
    for sale in sales:
        who = f"{sale['customer']}{_KINDS.get(sale['kind'], '')}"
        if sale["seller"] is None:
            lines.append(f"{who} bought nothing: {namer.text(sale['reason'])}.")
        else:
            bonus = f" and {sale['bonus']} F of bonuses" if sale["bonus"] else ""
            lines.append(
                f"{who} bought from {namer.name(sale['seller'])} for {sale['paid']} F{bonus} "
                f"({namer.text(sale['reason'])})."
            )
    bought = sum(1 for s in sales if s["seller"] is not None)
    title = f"Customers of round {round_number}:"
    return (
        Text(title + "\n" + "\n".join(lines)),
        Text(f"{title} {bought} bought, {len(sales) - bought} bought nothing."),
    )


def _you(view: Mapping[str, Any], namer: Namer) -> Text:
    you = view["you"]
    me = view["players"][you["seat"]]
    hand = ", ".join(f"{i['name']} ({i['price']} F, #{i['hashtag']})" for i in you["hand"])
    text = Text(
        f"You are the {me['role']}"
        + (f"; your product's shape: {me['shape']}" if me["shape"] else "")
        + (f". Your ingredients: {hand}." if hand else "."),
        style="green",
    )
    if you["event"]:
        text.append(f"\nYour event: {you['event']['event']}: {namer.text(you['event']['text'])}")
    for card in you["held"]:
        text.append(f"\nHeld face down: {card['event']}: {namer.text(card['text'])}")
    return text


def sections(view: Mapping[str, Any], namer: Namer) -> list[Section]:
    """The screen for one seat (or a spectator), players by ``namer``'s names."""
    phase = view["phase"]
    header = Text(f"Round {view['round']} of {view['rounds']} · {_PHASE_TEXT[phase]}", style="bold")
    parts = [
        Section(header),
        Section(_players(view, namer), rank=2, short=_money(view, namer), name="the players"),
    ]
    if view["products"]:
        rank = 1 if phase == "voting" else 2 if phase in ("placing", "events") else 3
        short = _products(view, namer, ingredients=False)
        parts.append(Section(_products(view, namer), rank=rank, short=short, name="the products"))
    if view["board"]:
        rank = 1 if phase == "placing" else 3
        short = _market(view, namer, whole_rules=False)
        parts.append(Section(_market(view, namer), rank=rank, short=short, name="the market"))
    sales = _sales(view, namer)
    if sales is not None:
        parts.append(Section(sales[0], rank=2, short=sales[1], name="the customers"))
    if view["events"]:
        events = "; ".join(
            f"{namer.name(e['seat'], start=True)}"
            + (f" played {e['event']}" if e["event"] else "")
            + f": {namer.text(e['effect'])}"
            for e in view["events"]
        )
        parts.append(Section(Text(f"Events: {events}."), rank=1, name="the events"))
    if view.get("playing"):
        playing = view["playing"]
        verb = "play" if playing["seat"] == namer.you else "plays"
        parts.append(
            Section(
                Text(
                    f"{namer.name(playing['seat'], start=True)} {verb} {playing['event']}: "
                    f"{namer.text(playing['text'])}"
                )
            )
        )
    if view.get("offer"):
        offer = view["offer"]
        cards = join_names(
            [f"{c['name']} ({c['price']} F, #{c['hashtag']})" for c in offer["ingredients"]]
        )
        mine = offer["from"] == namer.you
        verb = (
            ("offer" if mine else "offers")
            if offer["sent"]
            else ("are" if mine else "is") + " putting together an offer of"
        )
        given = join_names([c["name"] for c in offer["given"]])
        parts.append(
            Section(
                Text(
                    f"{namer.name(offer['from'], start=True)} {verb} {cards} to "
                    f"{namer.name(offer['to'])}"
                    + (f"; given back so far: {given}" if given else "")
                    + ".",
                    style="bold",
                )
            )
        )
    if view.get("tiebreak"):
        tie = view["tiebreak"]
        winner = namer.name(tie["winner"]) if tie["winner"] >= 0 else "nobody"
        parts.append(
            Section(
                Text(
                    f"The tie-break's customers: {join_names(tie['customers']) or 'none'}; "
                    f"the sale went to {winner}."
                )
            )
        )
    if view.get("you") is not None and phase != "over":
        parts.append(Section(_you(view, namer)))
    return parts


def render(view: Mapping[str, Any], namer: Namer | None = None) -> RenderableType:
    """The whole screen for one seat (or a spectator)."""
    return whole(sections(view, namer or default_namer(view)))
