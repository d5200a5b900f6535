"""What the view, encoding and invariant modules need from the game: its tables and
a few rule functions, as an interface below the ``CafeCarnage`` class.

``CafeCarnage`` (rules.py) satisfies it; the modules that build views, encode them
and check saved states take a ``CafeRules`` so they never import the class that
imports them (no import circle, docs/engine.md "The shape of a game").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Protocol

from potluck.engine.outcome import Outcome
from potluck.games.cafe_carnage.state import CafeState


class CafeRules(Protocol):
    """The game's per-game tables (fixed when the game is built) and the rule calls
    the views and checks use."""

    id: ClassVar[str]
    budget: int
    rounds: int
    menu_size: int
    loan: int
    dish_slugs: tuple[str, ...]

    @property
    def dish_index(self) -> Mapping[str, int]: ...

    course_of: tuple[int, ...]
    value_of: tuple[int, ...]
    full_decks: tuple[tuple[int, ...], ...]

    def guards(self, num_players: int) -> int: ...

    def outcome(self, state: CafeState) -> Outcome: ...

    def dish_json(self, dish: int) -> dict[str, Any]: ...

    def _orderable(self, state: CafeState, seat: int) -> list[int]: ...

    def _derive_choices(self, state: CafeState) -> None: ...
