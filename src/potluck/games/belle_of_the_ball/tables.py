"""What the rules chapters, views, encoding and checks need from the game: its per-game
tables (fixed when the game is built from its card data), as an interface below the
``BelleOfTheBall`` class.

``BelleOfTheBall`` (game.py) satisfies it structurally; the modules below game.py take
a ``BelleTables`` so they never import the class that imports them (no import circle,
docs/engine.md "The shape of a game").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Protocol

from potluck.games.belle_of_the_ball.actions import BelleAction


class BelleTables(Protocol):
    """The game's tables: the table constants, the cards and the interned actions."""

    id: ClassVar[str]
    # The table (TableSpec).
    starting_chips: int
    hand_size: int
    line_per_player: int
    setup_discard: int
    # Interests, guests and Belles, by index in the data.
    interest_names: tuple[str, ...]
    interest_index: Mapping[str, int]
    guest_names: tuple[str, ...]
    guest_slugs: tuple[str, ...]
    guest_index: Mapping[str, int]
    guest_interests: tuple[tuple[int, ...], ...]
    guest_interest_names: tuple[tuple[str, ...], ...]  # the same, spelled out
    belle_names: tuple[str, ...]
    belle_slugs: tuple[str, ...]
    belle_index: Mapping[str, int]
    belle_name_index: Mapping[str, int]
    belle_effects: tuple[str, ...]
    belle_texts: tuple[str, ...]
    belle_families: tuple[str, ...]
    belle_cards: tuple[int, ...]  # one Belle kind per card, copies repeated
    kinds: int  # kinds of Belle
    # The actions, interned once (notation.py): by position and group, by position,
    # and per Belle kind by (seat, group, dest) with -1 for unused.
    all_actions: tuple[BelleAction, ...]
    invite_actions: list[BelleAction]
    take_actions: list[BelleAction]
    play_actions: list[dict[tuple[int, int, int], BelleAction]]
    single_plays: tuple[BelleAction | None, ...]  # per kind: her one play if untargeted
    # For each set of groups a guest may join: every invitation, by position then group.
    invite_rows: Mapping[tuple[int, ...], list[BelleAction]]
