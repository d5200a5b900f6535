"""Café Carnage's actions: order a dish (by its notation) or play an action card."""

from __future__ import annotations

from potluck.engine.action import Action


class CafeAction(Action):
    """Either an order (``dish`` is the dish's index, ``card`` is -1) or an action card.

    The canonical text of an order is the dish's notation, e.g. ``vegetable-samosas``;
    of a card, one of ``split``, ``separately``, ``run``.
    """

    __slots__ = ("card", "dish")

    dish: int
    card: int

    def __init__(self, index: int, text: str, dish: int = -1, card: int = -1) -> None:
        super().__init__(index, text)
        object.__setattr__(self, "dish", dish)
        object.__setattr__(self, "card", card)

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.index, self.text, self.dish, self.card))
