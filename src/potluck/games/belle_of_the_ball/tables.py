"""Belle of the Ball's tables: the table constants, the cards by index and every action,
built once per game from the card data.

The rules chapter modules (``setup``, ``belles``, ``invite``, ``groups``, ``scoring``,
``rounds``) and the modules that show the game (``view``, ``encoding``, ``describe``,
``bots``, ``invariants``) take a ``BelleTables``; the ``BelleOfTheBall`` class
(``game.py``) is one, so they never import the class that imports them (docs/engine.md,
"The shape of a game").

    >>> import potluck
    >>> tables = potluck.load_game("belle-of-the-ball")  # the game is its own tables
    >>> tables.starting_chips, len(tables.guest_names), tables.kinds, len(tables.all_actions)
    (5, 72, 12, 149)
    >>> tables.action_table.from_text("take 3 into 2").text
    'invite 3 to group 2'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from mypy_extensions import mypyc_attr

from potluck.engine.game import Game
from potluck.engine.text import slugify
from potluck.games.belle_of_the_ball.actions import BelleAction
from potluck.games.belle_of_the_ball.greedy_counts import COUNT_BITS
from potluck.games.belle_of_the_ball.notation import ActionTable
from potluck.games.belle_of_the_ball.schema import CardData
from potluck.games.belle_of_the_ball.state import BelleState

#: The game's id in the registry (``BelleOfTheBall.id``).
GAME_ID = "belle-of-the-ball"

#: Each Belle's effect (``schema.Effect``) as a small int, ``BelleTables.belle_effect_codes``:
#: the one table of them, which the rules (``belles``) and the greedy bot compare on
#: every Belle play instead of her effect's name.
EFFECT_FREE_SKIPS: Final = 0
EFFECT_BANK_CHIPS: Final = 1
EFFECT_FOUR_IS_FULL: Final = 2
EFFECT_SINGLES_SCORE: Final = 3
EFFECT_FIFTH_GROUP: Final = 4
EFFECT_INVITE_TWICE: Final = 5
EFFECT_REVERSE_LINE: Final = 6
EFFECT_LATE_ARRIVAL: Final = 7
EFFECT_MOVE_GUEST: Final = 8
EFFECT_SCANDAL: Final = 9
EFFECT_PICKPOCKET: Final = 10
EFFECT_GOSSIP: Final = 11
EFFECT_CODES: Final = {
    "free_skips": EFFECT_FREE_SKIPS,
    "bank_chips": EFFECT_BANK_CHIPS,
    "four_is_full": EFFECT_FOUR_IS_FULL,
    "singles_score": EFFECT_SINGLES_SCORE,
    "fifth_group": EFFECT_FIFTH_GROUP,
    "invite_twice": EFFECT_INVITE_TWICE,
    "reverse_line": EFFECT_REVERSE_LINE,
    "late_arrival": EFFECT_LATE_ARRIVAL,
    "move_guest": EFFECT_MOVE_GUEST,
    "scandal": EFFECT_SCANDAL,
    "pickpocket": EFFECT_PICKPOCKET,
    "gossip": EFFECT_GOSSIP,
}


@mypyc_attr(allow_interpreted_subclasses=True)
class BelleTables(Game[BelleState, BelleAction]):
    """What a game of Belle of the Ball fixes when it is built: the table constants, the
    interests, guests and Belles by index in the data, and the actions, interned once."""

    def __init__(self, data: CardData) -> None:
        self.data = data
        table = data.table
        # The table (TableSpec).
        self.starting_chips = table.starting_chips
        self.hand_size = table.hand_size
        self.line_per_player = table.line_per_player
        self.setup_discard = table.setup_discard
        # Interests, guests and Belles, by index in the data.
        self.interest_names: tuple[str, ...] = tuple(data.interests)
        self.interest_index: Mapping[str, int] = {
            name: i for i, name in enumerate(self.interest_names)
        }
        self.guest_names: tuple[str, ...] = tuple(g.name for g in data.guest)
        self.guest_slugs: tuple[str, ...] = tuple(slugify(g.name) for g in data.guest)
        self.guest_interests: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.interest_index[i] for i in g.interests) for g in data.guest
        )
        #: The same interests as bits laid out as a group's counts are (bit
        #: ``COUNT_BITS * interest`` set, ``greedy_counts.GroupCounts``), and how many
        #: each guest shows, as a float: the greedy bot's group search reads them
        #: (``greedy_plan.Planner``; it sums such counts as exact floats).
        self.guest_interest_fields: tuple[int, ...] = tuple(
            [sum([1 << COUNT_BITS * i for i in shown]) for shown in self.guest_interests]
        )
        self.guest_interest_counts: tuple[float, ...] = tuple(
            [float(len(shown)) for shown in self.guest_interests]
        )
        #: The same interests, spelled out.
        self.guest_interest_names: tuple[tuple[str, ...], ...] = tuple(
            tuple(g.interests) for g in data.guest
        )
        self.belle_names: tuple[str, ...] = tuple(b.name for b in data.belle)
        self.belle_slugs: tuple[str, ...] = tuple(slugify(b.name) for b in data.belle)
        self.belle_effects: tuple[str, ...] = tuple(b.effect for b in data.belle)
        self.belle_texts: tuple[str, ...] = tuple(b.text for b in data.belle)
        self.belle_families: tuple[str, ...] = tuple(b.family for b in data.belle)
        #: One Belle kind per card, copies repeated.
        self.belle_cards: tuple[int, ...] = tuple(
            kind for kind, b in enumerate(data.belle) for _ in range(b.copies)
        )
        #: Kinds of Belle.
        self.kinds = len(self.belle_names)
        # Name and slug lookups for the observation encoding, which reads views.
        self.guest_index: Mapping[str, int] = {slug: g for g, slug in enumerate(self.guest_slugs)}
        self.belle_index: Mapping[str, int] = {slug: k for k, slug in enumerate(self.belle_slugs)}
        self.belle_name_index: Mapping[str, int] = {
            name: k for k, name in enumerate(self.belle_names)
        }
        # The actions, interned once (notation.py): by position and group, by position,
        # and per Belle kind by (seat, group, dest) with -1 for unused.
        self.action_table = actions = ActionTable(self.belle_slugs, self.belle_effects)
        self.all_actions: tuple[BelleAction, ...] = actions.all_actions
        self.invite_actions: list[BelleAction] = actions.invite_actions
        self.take_actions: list[BelleAction] = actions.take_actions
        self.play_actions: list[dict[tuple[int, int, int], BelleAction]] = actions.play_actions
        #: The same, keyed by ``state.play_key(seat, group, dest)``.
        self.play_keys: list[dict[int, BelleAction]] = actions.play_keys
        #: Per kind: her one play if untargeted.
        self.single_plays: tuple[BelleAction | None, ...] = actions.single_plays
        #: For each set of groups a guest may join: every invitation, by position then group.
        self.invite_rows: Mapping[tuple[int, ...], list[BelleAction]] = actions.invite_rows
        #: The same rows by a mask of the groups a guest may join (``groups.place_mask``).
        self.invite_rows_by_mask: list[list[BelleAction]] = actions.invite_rows_by_mask
        #: ``play_keys`` as lists indexed by the key (``None``: no such play).
        self.play_lists: list[list[BelleAction | None]] = actions.play_lists
        #: Each action's kind, position and group by its index (-1 where unused): the
        #: rules read these typed tuples on every step instead of the action object's
        #: fields (actions are Python objects, so each field is a look-up by name).
        self.action_kinds: tuple[int, ...] = tuple(a.kind for a in self.all_actions)
        self.action_positions: tuple[int, ...] = tuple(a.pos for a in self.all_actions)
        self.action_groups: tuple[int, ...] = tuple(a.group for a in self.all_actions)
        #: Per Belle kind, her effect's code (``EFFECT_CODES``).
        self.belle_effect_codes: tuple[int, ...] = tuple(
            EFFECT_CODES[effect] for effect in self.belle_effects
        )
