"""Which actions of a game belong to a sealed simultaneous choice, to keep them hidden.

Surfaces that tell what happened (the terminal, replays in the browser) use it so that
nobody reads a sealed choice before the game reveals it.

    >>> sealed = SealedChoices()
    >>> sealed.is_sealed([0, 1], 0), sealed.is_sealed([1], 1), sealed.is_sealed([0], 0)
    (True, True, False)
"""

from __future__ import annotations

from collections.abc import Sequence


class SealedChoices:
    """Tells which actions belong to a sealed simultaneous choice, to keep them hidden.

    When ``to_act`` names several seats, they choose in secret; the batch stays
    secret until its last seat has chosen, even though by then ``to_act`` names
    that seat alone.
    """

    def __init__(self) -> None:
        self._pending: set[int] = set()

    def is_sealed(self, acting: Sequence[int], seat: int) -> bool:
        """Whether ``seat``'s action, about to be taken while ``acting`` act, is secret."""
        if len(acting) > 1 and not self._pending.intersection(acting):
            self._pending = set(acting)
        sealed = seat in self._pending
        self._pending.discard(seat)
        return sealed
