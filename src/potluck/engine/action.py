"""Actions: small immutable value objects with one canonical text form."""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from potluck.engine.immutable import refuse_change


# Compiled with the rules (``potluck.native``): the games' compiled action classes
# derive from it, so the rules read an action's fields from its C struct instead of
# through Python's attribute look-up (issue 36). Games outside the package (plug-ins,
# the tests' toy games) subclass it in Python, hence interpreted subclasses.
@mypyc_attr(allow_interpreted_subclasses=True)
class Action:
    """A move a seat can make, identified by its game-wide ``index``.

    Each game interns its actions (one object per distinct action), so legality
    checks are identity checks on the hot path, while equality still compares by
    value so that actions survive pickling between processes::

        >>> a = Action(3, "split")
        >>> str(a), a == Action(3, "split"), a == Action(4, "run")
        ('split', True, False)

    ``str(action)`` is the canonical text that ``Game.parse_action`` parses back.
    An action refuses changes (``AttributeError``), in both builds.
    """

    __slots__ = ("index", "text")

    index: int
    text: str

    def __init__(self, index: int, text: str) -> None:
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "text", text)

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


# mypyc compiles no ``__setattr__`` in a class that interpreted classes may subclass, so
# the refusal is set on the class after it is made (a Python function, which binds as a
# method: ``potluck.engine.immutable``): the same in the pure and the compiled build, and
# inherited by every game's action class (``tests/test_engine.py``).
type.__setattr__(Action, "__setattr__", refuse_change)
type.__setattr__(Action, "__delattr__", refuse_change)
