"""Belle of the Ball at the terminal: the round, the line at the door, your party's groups and
what they share, the other parties and your Belles, players by name."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from potluck.renderers.names import Namer, plural
from potluck.renderers.screen import Section, default_namer, whole

#: What a Belle's bent rule does this turn, in words.
BENT = {
    "free_skips": "skipping is free",
    "four_is_full": "four guests make a full group",
    "singles_score": "every interest scores",
    "fifth_group": "a fifth group is allowed",
}


def _line(view: Mapping[str, Any]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, title="The line at the door", title_justify="left")
    for column in ("#", "Chips", "Guest", "Interests"):
        table.add_column(column, justify="right" if column in ("#", "Chips") else "left")
    for card in view["line"]:
        if "guest" in card:
            name, detail = card["name"], ", ".join(card["interests"])
        else:
            name, detail = f"Belle: {card['name']}", card["text"]
        table.add_row(str(card["position"]), str(card["chips"] or ""), name, detail)
    return table


def shared(group: Sequence[Mapping[str, Any]]) -> str:
    """Interests shared so far, and what the group would score if it were full now."""
    counts = Counter(i for guest in group for i in guest["interests"])
    both = sorted(((n, i) for i, n in counts.items() if n >= 2), reverse=True)
    if not both:
        return "nothing shared yet"
    return ", ".join(f"{i} ×{n}" for n, i in both) + f" = {sum(n for n, _ in both)}"


def _groups(player: Mapping[str, Any], fifth: bool, names: bool) -> Text:
    """A party's groups, one a line: its guests (by name when ``names``) and what they share."""
    text = Text()
    for number, group in enumerate(player["groups"], 1):
        if number == 5 and not group and not fifth:
            continue
        guests = (
            "; ".join(f"{g['name']} ({', '.join(g['interests'])})" for g in group)
            if names
            else plural(len(group), "guest")
        )
        text.append(f"Group {number} ({len(group)} of 5): ", style="bold")
        text.append(f"{guests or 'empty'}" + (f" · {shared(group)}" if group else "") + "\n")
    text.rstrip()
    return text


def _party_line(player: Mapping[str, Any], namer: Namer) -> str:
    sizes = "+".join(str(len(g)) for g in player["groups"] if g) or "none"
    return (
        f"{namer.name(player['seat'], start=True)}: {plural(player['chips'], 'chip')}, "
        f"{plural(player['hand_size'], 'Belle')} in hand, guests in groups {sizes}, "
        f"{plural(player['full_groups_scored'], 'full group')} scored"
    )


def sections(view: Mapping[str, Any], namer: Namer) -> list[Section]:
    """The screen for one seat (or a spectator), players by ``namer``'s names."""
    seat = view.get("seat")
    turn = view["this_turn"]
    start = namer.name(view["start_player"]) if view["start_player"] is not None else "nobody"
    header = Text(
        f"Round {view['round']} ({plural(view['rounds_left_after_this'], 'more round')} after "
        f"this) · start player: {start} · {plural(view['decks']['guest_deck'], 'guest')} "
        "still to arrive",
        style="bold",
    )
    if view["options"].get("belles_in_guest_deck"):
        header.append(" · variant: Belles in the guest deck")
    parts = [Section(header)]
    if turn["belle_played"]:
        bent = ", ".join(BENT.get(r, r.replace("_", " ")) for r in turn["rules_bent"])
        parts.append(
            Section(
                Text(f"This turn: {turn['belle_played']} played" + (f" ({bent})" if bent else ""))
            )
        )
    parts.append(Section(_line(view), rank=2, name="the line"))
    fifth = seat == view["turn"] and "fifth_group" in turn["rules_bent"]
    for player in view["players"]:
        if player["seat"] == seat:
            title = Text(f"Your party: {plural(player['chips'], 'chip')}", style="bold green")
            parts.append(Section(title))
            parts.append(
                Section(
                    _groups(player, fifth, names=True),
                    rank=1,
                    short=_groups(player, fifth, names=False),
                    name="your guests",
                )
            )
    others = [p for p in view["players"] if p["seat"] != seat]
    parts.append(
        Section(
            Text("\n".join(_party_line(p, namer) for p in others)),
            rank=3,
            short=Text(
                "  ".join(
                    f"{namer.name(p['seat'], start=True)} {plural(p['chips'], 'chip')}"
                    for p in others
                )
            ),
            name="the other parties",
        )
    )
    if "result" in view:
        parts.append(Section(Text(namer.text(view["result"]), style="bold green")))
    elif view.get("you") is not None:
        hand = view["you"]["hand"]
        full = "\n".join(f"{b['name']} ({b['family']}): {b['text']}" for b in hand)
        names = ", ".join(b["name"] for b in hand)
        parts.append(
            Section(
                Text(f"Your Belles:\n{full}" if hand else "Your Belles: none"),
                rank=1,
                short=Text(f"Your Belles: {names or 'none'}"),
                name="what your Belles do",
            )
        )
    return parts


def render(view: Mapping[str, Any], namer: Namer | None = None) -> RenderableType:
    """The whole screen for one seat (or a spectator)."""
    return whole(sections(view, namer or default_namer(view)))
