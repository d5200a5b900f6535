"""Actions: small immutable value objects with one canonical text form."""

from __future__ import annotations

from typing import Any


class Action:
    """A move a seat can make, identified by its game-wide ``index``.

    Each game interns its actions (one object per distinct action), so legality
    checks are identity checks on the hot path, while equality still compares by
    value so that actions survive pickling between processes::

        >>> a = Action(3, "split")
        >>> str(a), a == Action(3, "split"), a == Action(4, "run")
        ('split', True, False)

    ``str(action)`` is the canonical text that ``Game.parse_action`` parses back.
    """

    __slots__ = ("index", "text")

    index: int
    text: str

    def __init__(self, index: int, text: str) -> None:
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "text", text)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return (
            type(other) is type(self)
            and isinstance(other, Action)
            and other.index == self.index
            and other.text == self.text
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.index, self.text))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.index, self.text))
