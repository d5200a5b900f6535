"""Fixed-size observation vectors: each game's numeric encoding of one seat's view.

Learning code (PettingZoo, Gymnasium, OpenSpiel) wants every observation to be a
vector of the same length. A game declares its layout as a list of named
:class:`Feature` blocks for a table size and options, and fills the vector from
a seat's *view* (never from the state), so an encoding can hold nothing the seat
may not know.

    >>> import potluck
    >>> game = potluck.load_game("cafe-carnage")
    >>> encoding = game.observation_encoding(4)
    >>> state = game.new_game(4, seed=1)
    >>> vector = game.encode_observation(state, seat=0, encoding=encoding)
    >>> len(vector) == encoding.size
    True
    >>> encoding.feature("phase").meaning
    'one-hot: starter, main, dessert, ballot, over'

Conventions every game follows (``docs/interop.md``): players are listed starting
with the observing seat and then clockwise, so block 0 is always "me"; a
one-hot block is all zeros for "none"; counts and amounts are raw numbers (not
scaled), each within the feature's declared ``[low, high]``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from potluck.engine.errors import PotluckError


@dataclass(frozen=True, slots=True)
class Feature:
    """One named block of an observation vector.

    >>> Feature("money", 4, "each player's dollars, me first", high=60).size
    4
    """

    name: str
    size: int
    meaning: str
    low: float = 0.0
    high: float = 1.0

    def __post_init__(self) -> None:
        if self.size < 1:
            raise PotluckError(f"feature {self.name!r} must have a positive size, not {self.size}")
        if not self.low <= self.high:
            raise PotluckError(f"feature {self.name!r} has low {self.low} above high {self.high}")


class ObservationEncoding:
    """The layout of one game's observation vector for one table size and options.

    >>> blocks = [Feature("phase", 3, "one-hot"), Feature("hp", 2, "hit points", high=9)]
    >>> layout = ObservationEncoding("toy", blocks)
    >>> layout.size, layout.slice("hp")
    (5, slice(3, 5, None))
    >>> out = layout.writer()
    >>> out.one_hot("phase", 1)
    >>> out.put("hp", [4, 7])
    >>> out.values
    [0.0, 1.0, 0.0, 4.0, 7.0]
    """

    def __init__(self, game: str, features: Sequence[Feature]) -> None:
        self.game = game
        self.features: tuple[Feature, ...] = tuple(features)
        self._slices: dict[str, slice] = {}
        #: ``name -> (start, size)``: what writers look up on every value they set.
        self.blocks: dict[str, tuple[int, int]] = {}
        #: ``name -> start``: for fast paths that write the vector directly.
        self.starts: dict[str, int] = {}
        offset = 0
        for feature in self.features:
            if feature.name in self._slices:
                raise PotluckError(f"{game}'s encoding names feature {feature.name!r} twice")
            self._slices[feature.name] = slice(offset, offset + feature.size)
            self.blocks[feature.name] = (offset, feature.size)
            self.starts[feature.name] = offset
            offset += feature.size
        self.size = offset
        self.low: list[float] = [f.low for f in self.features for _ in range(f.size)]
        self.high: list[float] = [f.high for f in self.features for _ in range(f.size)]

    def feature(self, name: str) -> Feature:
        for feature in self.features:
            if feature.name == name:
                return feature
        raise PotluckError(f"{self.game}'s encoding has no feature {name!r}")

    def slice(self, name: str) -> slice:
        """Where feature ``name`` lies in the vector."""
        try:
            return self._slices[name]
        except KeyError:
            raise PotluckError(f"{self.game}'s encoding has no feature {name!r}") from None

    def writer(self) -> ObservationWriter:
        """A zeroed vector to fill, block by block."""
        return ObservationWriter(self)

    def problems(self, vector: Sequence[float]) -> list[str]:
        """What is wrong with ``vector`` for this layout (wrong length, out of range)."""
        if len(vector) != self.size:
            return [f"the vector has {len(vector)} values, the layout {self.size}"]
        found = []
        for feature in self.features:
            block = self._slices[feature.name]
            for offset, value in enumerate(vector[block]):
                if not (math.isfinite(value) and feature.low <= value <= feature.high):
                    found.append(
                        f"{feature.name}[{offset}] = {value} is outside "
                        f"[{feature.low}, {feature.high}]"
                    )
        return found

    def markdown(self) -> str:
        """The layout as a Markdown table, for the game's documentation."""
        rows = ["| offset | feature | size | range | meaning |", "|---|---|---|---|---|"]
        for feature in self.features:
            block = self._slices[feature.name]
            high = "∞" if math.isinf(feature.high) else f"{feature.high:g}"
            rows.append(
                f"| {block.start} | `{feature.name}` | {feature.size} | "
                f"{feature.low:g}..{high} | {feature.meaning} |"
            )
        rows.append(f"| | **total** | **{self.size}** | | |")
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"<ObservationEncoding {self.game} size={self.size}>"


class ObservationWriter:
    """Fills one observation vector; every block starts at zero."""

    __slots__ = ("_blocks", "encoding", "values")

    def __init__(self, encoding: ObservationEncoding) -> None:
        self.encoding = encoding
        self._blocks = encoding.blocks
        self.values: list[float] = [0.0] * encoding.size

    def _block(self, name: str) -> tuple[int, int]:
        try:
            return self._blocks[name]
        except KeyError:
            raise PotluckError(f"{self.encoding.game}'s encoding has no feature {name!r}") from None

    def set(self, name: str, value: float, index: int = 0) -> None:
        """Set element ``index`` of feature ``name``."""
        start, size = self._block(name)
        if not 0 <= index < size:
            raise PotluckError(f"index {index} is outside feature {name!r} of size {size}")
        self.values[start + index] = float(value)

    def one_hot(self, name: str, index: int | None) -> None:
        """Mark element ``index`` of feature ``name`` (``None`` leaves the block zero)."""
        if index is not None:
            self.set(name, 1.0, index)

    def many_hot(self, name: str, indices: Iterable[int]) -> None:
        """Count each index into feature ``name`` (repeats add up)."""
        start, size = self._block(name)
        values = self.values
        for index in indices:
            if not 0 <= index < size:
                raise PotluckError(f"index {index} is outside feature {name!r}")
            values[start + index] += 1.0

    def put(self, name: str, values: Sequence[float]) -> None:
        """Write a whole block (shorter sequences leave the rest zero)."""
        start, size = self._block(name)
        if len(values) > size:
            raise PotluckError(f"{len(values)} values do not fit feature {name!r} of size {size}")
        self.values[start : start + len(values)] = [float(v) for v in values]


def seats_from(seat: int, num_players: int) -> list[int]:
    """The table's seats starting with ``seat``, clockwise: the order of per-player blocks.

    >>> seats_from(2, 4)
    [2, 3, 0, 1]
    """
    return [(seat + offset) % num_players for offset in range(num_players)]
