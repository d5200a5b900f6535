"""Burger Joint's actions: one interned object per distinct action.

``kind`` says what the action does (see ``state.py``: ``TAKE``, ``TRADE``...);
``a``, ``b``, ``c`` are its colours or its bistro slot (-1 when unused).

    >>> BurgerAction(0, "take white", kind=0, a=0).a
    0
"""

from __future__ import annotations

from potluck.engine.action import Action


class BurgerAction(Action):
    """A Burger Joint action; its canonical text is in ``docs/games/burger-joint.md``."""

    __slots__ = ("a", "b", "c", "kind")

    kind: int
    a: int
    b: int
    c: int

    def __init__(
        self, index: int, text: str, kind: int = 0, a: int = -1, b: int = -1, c: int = -1
    ) -> None:
        super().__init__(index, text)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)
        object.__setattr__(self, "c", c)

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.index, self.text, self.kind, self.a, self.b, self.c))
