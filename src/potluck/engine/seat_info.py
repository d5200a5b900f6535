"""The shared base of the games' ``SeatInfo``: a greedy bot's input as one typed object
(issue 36, lever 2; ``Game.bot_view``).

Each game's ``seat_info.SeatInfo`` is a plain class on this base: it declares its fields,
its own ``__init__`` (which mypyc compiles; a dataclass's ``__init__`` is generated when
its module is imported and runs as interpreted Python, a large part of building the
object at every decision) and ``FIELDS``, the names of the entries it shows, in order.
The base gives them equality (the same class and the same entries, which the conformance
suite's ``check_bot_view_is_part_of_view`` compares) and a ``repr`` naming each entry,
written once for every game.

    >>> import potluck
    >>> game = potluck.load_game("burger-joint")
    >>> info = game.bot_view(game.new_game(2, seed=3), 1)
    >>> isinstance(info, SeatInfoBase), info == game.bot_view(game.new_game(2, seed=3), 1)
    (True, True)
    >>> info.FIELDS[:3], repr(info)[:30]
    (('seat', 'phase', 'bag'), 'SeatInfo(seat=1, phase=0, bag=')
"""

from __future__ import annotations

from typing import ClassVar

__all__ = ["SeatInfoBase"]


class SeatInfoBase:
    """A seat's typed knowledge: equal to another of its class with the same entries."""

    #: The names of the entries, in order: what equality compares and ``repr`` shows (a
    #: field, or a property worked out at its first read).
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def entries(self) -> tuple[object, ...]:
        """The entries named by ``FIELDS``, in order."""
        return tuple([getattr(self, name) for name in self.FIELDS])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, SeatInfoBase)
        return self.entries() == other.entries()

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{name}={value!r}" for name, value in zip(self.FIELDS, self.entries(), strict=True)
        )
        return f"{type(self).__name__}({shown})"
