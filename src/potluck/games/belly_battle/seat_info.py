"""What Belly Battle's greedy bot reads, as one typed object (issue 36, lever 2).

A greedy decision used to read a dict of dicts (the seat's ``bot_view``), which compiled
code looks up as Python objects; a ``SeatInfo`` holds the same entries as typed fields.
``Game.bot_view`` builds it from the state (``view.build_seat_info``) and
``SeatInfo.from_view`` builds it from the seat's whole view: the conformance suite
(``check_bot_view_is_part_of_view``) holds the two equal, so the object is a function
of the view and shows nothing the view hides.

    >>> import potluck
    >>> game = potluck.load_game("belly-battle")
    >>> state = game.new_game(3, seed=3)
    >>> info = game.bot_view(state, 1)
    >>> info == SeatInfo.from_view(game, game.view(state, 1), 1)
    True
    >>> info.cash
    (1000, 1000, 1000)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from potluck.games.belly_battle.state import BANK, PHASE_NAMES
from potluck.games.belly_battle.tables import BellyTables


@dataclass
class SeatInfo:
    """The public table as the greedy bot reads it; each field is named after the view's
    entry it equals (``from_view``)."""

    #: The seat the object is for.
    seat: int
    #: The view's ``phase``, as its index in ``PHASE_NAMES``.
    phase: int
    #: Rounds still to play, this one included (the view's ``max_rounds - round + 1``).
    rounds_to_play: int
    #: Per seat: the view's ``cash``, ``position`` and ``wealth``.
    cash: tuple[int, ...]
    positions: tuple[int, ...]
    wealth: tuple[int, ...]
    #: Per card: its ``owner`` (``BANK`` for the view's ``None``), ``chefs``, ``star``
    #: and ``fee``.
    owners: tuple[int, ...]
    chefs: tuple[int, ...]
    stars: tuple[int, ...]
    fees: tuple[int, ...]
    #: The open offer's card (``-1``: none) and price (the view's ``offer``).
    offer_card: int
    offer_price: int

    @staticmethod
    def from_view(game: BellyTables, view: Mapping[str, Any], seat: int) -> SeatInfo:
        """The object built from ``seat``'s view (or ``bot_view``) alone."""
        players, cards, offer = view["players"], view["cards"], view["offer"]
        return SeatInfo(
            seat,
            PHASE_NAMES.index(view["phase"]),
            int(view["max_rounds"]) - int(view["round"]) + 1,
            tuple(int(player["cash"]) for player in players),
            tuple(int(player["position"]) for player in players),
            tuple(int(player["wealth"]) for player in players),
            tuple(BANK if card["owner"] is None else int(card["owner"]) for card in cards),
            tuple(int(card["chefs"]) for card in cards),
            tuple(int(card["star"]) for card in cards),
            tuple(int(card["fee"]) for card in cards),
            -1 if offer is None else game.slugs.index(offer["card"]),
            0 if offer is None else int(offer["price"]),
        )
