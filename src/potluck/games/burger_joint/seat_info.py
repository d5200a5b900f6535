"""What Burger Joint's greedy bot reads, as one typed object (issue 36, lever 2).

A greedy decision used to read a dict of dicts (the seat's ``bot_view``), which compiled
code looks up as Python objects; a ``SeatInfo`` holds the same entries as typed fields.
``Game.bot_view`` builds it from the state (``view.build_seat_info``) and
``SeatInfo.from_view`` builds it from the seat's whole view: the conformance suite
(``check_bot_view_is_part_of_view``) holds the two equal, so the object is a function
of the view and shows nothing the view hides (nothing is hidden in Burger Joint but
the bag's order, which no view holds).

    >>> import potluck
    >>> game = potluck.load_game("burger-joint")
    >>> state = game.new_game(2, seed=3)
    >>> info = game.bot_view(state, 1)
    >>> info == SeatInfo.from_view(game, game.view(state, 1), 1)
    True
    >>> info.basics
    (1, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from potluck.engine.seat_info import SeatInfoBase
from potluck.games.burger_joint.state import PHASE_NAMES
from potluck.games.burger_joint.tables import BurgerTables


class SeatInfo(SeatInfoBase):
    """The table as the greedy bot reads it; each field is named after the view's entry
    it equals (``from_view``). Per seat and colour: index ``seat * colours + colour``;
    per seat and bistro slot: ``seat * bistros + slot - 1``."""

    FIELDS: ClassVar[tuple[str, ...]] = (
        "seat",
        "phase",
        "bag",
        "cubes",
        "diners",
        "bistros",
        "basics",
        "publicity",
        "publicity_bought",
    )

    #: The seat the object is for.
    seat: int
    #: The view's ``phase``, as its index in ``PHASE_NAMES``.
    phase: int
    #: The bag's cubes per colour (the view's ``bag``).
    bag: tuple[int, ...]
    #: Per seat and colour: the player's ``cubes`` and whether it owns that ``diners``.
    cubes: tuple[int, ...]
    diners: tuple[int, ...]
    #: Per seat and slot: whether the player's ``bistros`` holds it.
    bistros: tuple[int, ...]
    #: Per seat: ``basics`` and ``publicity``.
    basics: tuple[int, ...]
    publicity: tuple[int, ...]
    #: The view's ``publicity_bought``.
    publicity_bought: int

    def __init__(
        self,
        seat: int,
        phase: int,
        bag: tuple[int, ...],
        cubes: tuple[int, ...],
        diners: tuple[int, ...],
        bistros: tuple[int, ...],
        basics: tuple[int, ...],
        publicity: tuple[int, ...],
        publicity_bought: int,
    ) -> None:
        self.seat = seat
        self.phase = phase
        self.bag = bag
        self.cubes = cubes
        self.diners = diners
        self.bistros = bistros
        self.basics = basics
        self.publicity = publicity
        self.publicity_bought = publicity_bought

    @staticmethod
    def from_view(game: BurgerTables, view: Mapping[str, Any], seat: int) -> SeatInfo:
        """The object built from ``seat``'s view (or ``bot_view``) alone."""
        colours, slots = game.colours, range(1, game.num_bistros + 1)
        players = view["players"]
        return SeatInfo(
            seat,
            PHASE_NAMES.index(view["phase"]),
            tuple(int(view["bag"][colour]) for colour in colours),
            tuple(int(player["cubes"][colour]) for player in players for colour in colours),
            tuple(int(colour in player["diners"]) for player in players for colour in colours),
            tuple(int(slot in player["bistros"]) for player in players for slot in slots),
            tuple(int(player["basics"]) for player in players),
            tuple(int(player["publicity"]) for player in players),
            int(view["publicity_bought"]),
        )
