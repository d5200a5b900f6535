"""The schema of Belle of the Ball's card data (``data/cards.toml`` or a user's own file).

>>> from potluck.engine.data import load_data
>>> data = load_data(CardData, None, package="potluck.games.belle_of_the_ball",
...                  default="data/cards.toml")
>>> len(data.guest), len(data.belle), data.table.starting_chips
(72, 12, 5)
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from potluck.engine.text import slugify

MAX_PLAYERS = 5

#: The rules a Belle may bend; each is implemented in ``belles.py`` (Option: Belle).
Effect = Literal[
    "free_skips",
    "bank_chips",
    "four_is_full",
    "singles_score",
    "fifth_group",
    "invite_twice",
    "reverse_line",
    "late_arrival",
    "move_guest",
    "scandal",
    "pickpocket",
    "gossip",
]
EFFECTS: tuple[str, ...] = Effect.__args__  # type: ignore[attr-defined]


class GuestSpec(BaseModel):
    """One guest card: a name and the interests (suits) it shows, each at most once."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=60)
    interests: list[str] = Field(min_length=1, max_length=6)


class BelleSpec(BaseModel):
    """One kind of Belle card: which rule it bends (``effect``) and how many copies."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=60)
    family: Literal["mirth", "mischief", "mayhem"]
    effect: Effect
    text: str = Field(min_length=1, max_length=200)
    copies: int = Field(default=1, ge=1, le=20)


class TableSpec(BaseModel):
    """The table's constants."""

    model_config = ConfigDict(extra="forbid")

    starting_chips: int = Field(default=5, ge=0, le=1000)
    hand_size: int = Field(default=3, ge=0, le=10)
    line_per_player: int = Field(default=3, ge=1, le=3)
    setup_discard: int = Field(default=12, ge=0, le=200)


class CardData(BaseModel):
    """The whole data file: the interests, the table, the Belles and the guests."""

    model_config = ConfigDict(extra="forbid")

    authored: bool = False
    interests: list[str] = Field(min_length=1, max_length=20)
    table: TableSpec = TableSpec()
    belle: list[BelleSpec] = Field(min_length=1, max_length=40)
    guest: list[GuestSpec] = Field(min_length=1, max_length=300)

    @model_validator(mode="after")
    def _check_cards(self) -> CardData:
        if len(set(self.interests)) != len(self.interests):
            raise ValueError("interests must differ")
        known = set(self.interests)
        seen: dict[str, str] = {}
        for kind, cards in (("belle", self.belle), ("guest", self.guest)):
            for card in cards:
                slug = slugify(card.name)
                if not slug:
                    raise ValueError(f"{kind} {card.name!r} has no letters or digits")
                if slug in seen:
                    raise ValueError(
                        f"{kind} {card.name!r} has the same notation {slug!r} as a "
                        f"{seen[slug]}; names must differ"
                    )
                seen[slug] = kind
        for guest in self.guest:
            unknown = [i for i in guest.interests if i not in known]
            if unknown:
                raise ValueError(
                    f"guest {guest.name!r} has interest {unknown[0]!r}, which is not one of "
                    f"the interests: {', '.join(self.interests)}"
                )
            if len(set(guest.interests)) != len(guest.interests):
                raise ValueError(f"guest {guest.name!r} shows an interest twice")
        needed = self.table.setup_discard + self.table.line_per_player * MAX_PLAYERS
        if len(self.guest) < needed:
            raise ValueError(
                f"there are {len(self.guest)} guests; a table of {MAX_PLAYERS} needs at least "
                f"{needed} ({self.table.setup_discard} discarded at setup and one full line)"
            )
        belles = sum(b.copies for b in self.belle)
        if belles < self.table.hand_size * MAX_PLAYERS:
            raise ValueError(
                f"there are {belles} Belle cards; {MAX_PLAYERS} players need at least "
                f"{self.table.hand_size * MAX_PLAYERS} ({self.table.hand_size} each)"
            )
        return self
