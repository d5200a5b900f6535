"""FoodAdvice's actions and their notation (``docs/games/food-advice.md``, Notation).

One interned object per distinct action, except names: a name and tagline are
free text, so ``name "Yogurt Rocket" / "Fly me to the moon"`` parses to a new
action that shares the naming code ``NAME_CODE`` with the generated name that
``legal_actions`` offers.
"""

from __future__ import annotations

from potluck.engine.action import Action

# Action kinds.
PASS, DECLINE, DONE, NAME, OFFER, GIVE, DISCARD, VOTE, SHOP, PROMOTE, INVEST, TARGET, REMOVE = (
    range(13)
)
KIND_WORDS = (
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
