"""Belly Battle's actions: one interned object per distinct action, with its notation."""

from __future__ import annotations

from typing import Final

from potluck.engine.action import Action

# Kinds of action (``Final``: compiled modules read them as constants, not as module
# attributes). ``card`` is a card index (restaurants first, then cafes),
# ``other`` a second card (swap) or a seat (yuck, offer), ``amount`` a price.
PASS: Final = 0
BUY: Final = 1
TUNNEL: Final = 2
ACCEPT: Final = 3
DECLINE: Final = 4
TAKEOVER: Final = 5
SWAP: Final = 6
INSURE: Final = 7
YUCK: Final = 8
CHEF: Final = 9
STAR: Final = 10
SELL: Final = 11
SELL_CHEF: Final = 12
SELL_STAR: Final = 13
OFFER: Final = 14


class BellyAction(Action):
    """An action of Belly Battle: ``kind`` plus up to three numbers.

    The canonical text is, e.g., ``buy``, ``takeover momo-mia``,
    ``swap lassi-lane for momo-mia``, ``yuck 2``, ``chef momo-mia``,
    ``offer momo-mia to 2 for 180``.
    """

    __slots__ = ("amount", "card", "kind", "other")

    kind: int
    card: int
    other: int
    amount: int

    def __init__(
        self, index: int, text: str, kind: int, card: int = -1, other: int = -1, amount: int = 0
    ) -> None:
        super().__init__(index, text)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "other", other)
        object.__setattr__(self, "amount", amount)

    def __reduce__(self) -> tuple[object, ...]:
        return (
            type(self),
            (self.index, self.text, self.kind, self.card, self.other, self.amount),
        )
