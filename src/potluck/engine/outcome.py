"""The result of a finished game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended.

    - ``scores``: the final score of each seat, indexed by seat.
    - ``winners``: the seats that share first place (one seat, or several for a
      shared win).
    - ``ranking``: every seat from first to last, tie-breaks applied; seats that
      remain tied keep seat order.
    - ``places``: each seat's place, 1 for the winners; tied seats share a place and
      the next place is skipped (1, 1, 3).
    - ``reason``: a sentence saying why the game ended and how it was decided.
    """

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    ranking: tuple[int, ...]
    places: tuple[int, ...]
    reason: str

    def win_shares(self) -> tuple[float, ...]:
        """Each seat's share of the win: 1 shared among the winners, 0 for the others.

        >>> Outcome((3, 5, 5), (1, 2), (1, 2, 0), (3, 1, 1), "end").win_shares()
        (0.0, 0.5, 0.5)
        """
        share = 1.0 / len(self.winners)
        return tuple(share if seat in self.winners else 0.0 for seat in range(len(self.scores)))

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "ranking": list(self.ranking),
            "places": list(self.places),
            "reason": self.reason,
        }

    @classmethod
    def from_keys(
        cls, scores: tuple[float, ...], keys: list[tuple[Any, ...]], reason: str
    ) -> Outcome:
        """Rank seats by ``keys`` (higher is better, compared as tuples).

        Seats with equal keys share a place; the winners are those in first place.

            >>> o = Outcome.from_keys((10, 12, 12), [(10,), (12, 3), (12, 3)], "end")
            >>> o.winners, o.ranking, o.places
            ((1, 2), (1, 2, 0), (3, 1, 1))
        """
        order = sorted(range(len(keys)), key=lambda seat: (keys[seat], -seat), reverse=True)
        # sorted(reverse=True) with -seat puts lower seats first among equal keys
        places = [0] * len(keys)
        place = 0
        previous: tuple[Any, ...] | None = None
        for position, seat in enumerate(order):
            if keys[seat] != previous:
                place = position + 1
                previous = keys[seat]
            places[seat] = place
        winners = tuple(seat for seat in order if places[seat] == 1)
        return cls(tuple(scores), tuple(sorted(winners)), tuple(order), tuple(places), reason)
