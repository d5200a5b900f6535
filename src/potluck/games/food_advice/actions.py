"""FoodAdvice's actions and their notation (``docs/games/food-advice.md``, Notation).

One interned object per distinct action, except names: a name and tagline are
free text, so ``name "Yogurt Rocket" / "Fly me to the moon"`` parses to a new
action that shares the naming code ``NAME_CODE`` with the generated name that
``legal_actions`` offers.
"""

from __future__ import annotations

from typing import Final

from potluck.engine.action import Action

# Action kinds (``Final``: compiled modules read them as constants, not as module
# attributes).
PASS: Final = 0
DECLINE: Final = 1
DONE: Final = 2
NAME: Final = 3
OFFER: Final = 4
GIVE: Final = 5
DISCARD: Final = 6
VOTE: Final = 7
SHOP: Final = 8
PROMOTE: Final = 9
INVEST: Final = 10
TARGET: Final = 11
REMOVE: Final = 12
KIND_WORDS: Final[tuple[str, ...]] = (
    "pass",
    "decline",
    "done",
    "name",
    "offer",
    "give",
    "discard",
    "vote",
    "shop",
    "promote",
    "invest",
    "target",
    "remove",
)


class FoodAction(Action):
    """A FoodAdvice action: its ``kind``, and the ingredient, seat, shop slot or
    channel it names (``-1`` when none); a naming action also carries its text."""

    __slots__ = ("kind", "name", "seat", "tagline", "thing")

    kind: int
    thing: int  # ingredient, shop slot (0-based) or channel
    seat: int
    name: str
    tagline: str

    def __init__(
        self,
        index: int,
        text: str,
        kind: int,
        thing: int = -1,
        seat: int = -1,
        name: str = "",
        tagline: str = "",
    ) -> None:
        super().__init__(index, text)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "thing", thing)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "tagline", tagline)

    def __reduce__(self) -> tuple[object, ...]:
        return (
            type(self),
            (self.index, self.text, self.kind, self.thing, self.seat, self.name, self.tagline),
        )
