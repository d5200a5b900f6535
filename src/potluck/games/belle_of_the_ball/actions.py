"""Belle of the Ball's actions: invite a guest (to a group, or a Belle to hand), play a Belle.

Canonical texts (positions in line and groups count from 1, seats from 0):

- ``invite 3 to group 2``: invite the third guest in line into group 2,
- ``invite 3``: invite a Belle from the line to your hand (variant only),
- ``belle heiress-henrietta``; ``belle pickpocket-pippa on seat 2``;
  ``belle scandalous-scarlett on seat 2 group 1``;
  ``belle persuasive-prudence group 1 to 3``.
"""

from __future__ import annotations

from typing import Final

from potluck.engine.action import Action

INVITE: Final = 0
TAKE_BELLE: Final = 1
PLAY: Final = 2


class BelleAction(Action):
    """One action; unused fields are -1.

    ``kind`` is ``INVITE`` (``pos``, ``group``), ``TAKE_BELLE`` (``pos``) or ``PLAY``
    (``belle`` = kind of Belle; ``seat`` and ``group`` for a target, ``group`` and
    ``dest`` for a move). Positions and groups are 0-based here, 1-based in text.
    """

    __slots__ = ("belle", "dest", "group", "kind", "pos", "seat")

    kind: int
    pos: int
    group: int
    belle: int
    seat: int
    dest: int

    def __init__(
        self,
        index: int,
        text: str,
        kind: int,
        pos: int = -1,
        group: int = -1,
        belle: int = -1,
        seat: int = -1,
        dest: int = -1,
    ) -> None:
        super().__init__(index, text)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "pos", pos)
        object.__setattr__(self, "group", group)
        object.__setattr__(self, "belle", belle)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "dest", dest)

    def __reduce__(self) -> tuple[object, ...]:
        return (
            type(self),
            (
                self.index,
                self.text,
                self.kind,
                self.pos,
                self.group,
                self.belle,
                self.seat,
                self.dest,
            ),
        )
