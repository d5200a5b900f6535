"""Belle of the Ball's notation: every action interned once, and text read back into one.

Canonical texts are listed in actions.py; looser text ("play Heiress Henrietta", "take 2
into 1") is rewritten to the canonical form; numbers are kept exactly as written.

    >>> table = ActionTable(("heiress-henrietta", "pickpocket-pippa"), ("bank_chips", "pickpocket"))
    >>> table.from_text("Play Pickpocket Pippa on seat 2").text
    'belle pickpocket-pippa on seat 2'
    >>> table.from_text("take 3 into 2").text
    'invite 3 to group 2'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from potluck.engine.errors import InvalidActionError
from potluck.engine.text import slugify
from potluck.games.belle_of_the_ball.actions import INVITE, PLAY, TAKE_BELLE, BelleAction
from potluck.games.belle_of_the_ball.state import MAX_LINE, MAX_SEATS, SLOTS, play_key

#: Belle effects that need a target, and which target each takes.
TARGETED = {"pickpocket": "seat", "scandal": "seat-group", "move_guest": "move"}

_INVITE_RE = re.compile(r"^(?:invite|take)\s+(\d+)(?:\s+(?:to|into)\s+(?:group\s+)?(\d+))?$")
_BELLE_RE = re.compile(
    r"^(?:belle|play)\s+(.+?)"
    r"(?:\s+on\s+seat\s+(\d+)(?:\s+group\s+(\d+))?|\s+group\s+(\d+)\s+to\s+(?:group\s+)?(\d+))?$"
)


class ActionTable:
    """Every action of a game with these Belles, in index order: invites (by position,
    then group), Belles taken from the line (by position), then each Belle's plays."""

    def __init__(self, belle_slugs: Sequence[str], belle_effects: Sequence[str]) -> None:
        self.belle_slugs = tuple(belle_slugs)
        actions: list[BelleAction] = []
        self.invite_actions: list[BelleAction] = []
        for pos in range(MAX_LINE):
            for group in range(SLOTS):
                action = BelleAction(
                    len(actions), f"invite {pos + 1} to group {group + 1}", INVITE, pos, group
                )
                actions.append(action)
                self.invite_actions.append(action)
        self.take_actions: list[BelleAction] = []
        for pos in range(MAX_LINE):
            action = BelleAction(len(actions), f"invite {pos + 1}", TAKE_BELLE, pos)
            actions.append(action)
            self.take_actions.append(action)
        # Per Belle kind: its plays, keyed by (seat, group, dest) with -1 for unused.
        self.play_actions: list[dict[tuple[int, int, int], BelleAction]] = []
        for kind, slug in enumerate(self.belle_slugs):
            plays: dict[tuple[int, int, int], BelleAction] = {}
            target = TARGETED.get(belle_effects[kind])
            keys: list[tuple[int, int, int]]
            if target == "seat":
                keys = [(s, -1, -1) for s in range(MAX_SEATS)]
            elif target == "seat-group":
                keys = [(s, g, -1) for s in range(MAX_SEATS) for g in range(SLOTS)]
            elif target == "move":
                keys = [(-1, a, b) for a in range(SLOTS) for b in range(SLOTS) if a != b]
            else:
                keys = [(-1, -1, -1)]
            for seat, group, dest in keys:
                text = f"belle {slug}"
                if seat >= 0:
                    text += f" on seat {seat}"
                    if group >= 0:
                        text += f" group {group + 1}"
                elif dest >= 0:
                    text += f" group {group + 1} to {dest + 1}"
                action = BelleAction(len(actions), text, PLAY, -1, group, kind, seat, dest)
                actions.append(action)
                plays[seat, group, dest] = action
            self.play_actions.append(plays)
        #: The same plays keyed by ``play_key(seat, group, dest)``, for the legal list.
        self.play_keys: list[dict[int, BelleAction]] = [
            {play_key(*target): action for target, action in plays.items()}
            for plays in self.play_actions
        ]
        self.all_actions = tuple(actions)
        #: Per Belle kind, her one play if she takes no target, else None.
        self.single_plays: tuple[BelleAction | None, ...] = tuple(
            plays.get((-1, -1, -1)) if len(plays) == 1 else None for plays in self.play_actions
        )
        # Every invitation a party with these open groups could make, by position then
        # group: the legal invitations are the first positions' part of one row.
        self.invite_rows: dict[tuple[int, ...], list[BelleAction]] = {
            places: [
                self.invite_actions[pos * SLOTS + g] for pos in range(MAX_LINE) for g in places
            ]
            for places in (
                tuple(g for g in range(SLOTS) if mask >> g & 1) for mask in range(1 << SLOTS)
            )
        }
        #: The same rows by a mask of the open groups (bit ``g``: group ``g``), the
        #: legal list's look-up (``groups.place_mask``), with no tuple to hash.
        self.invite_rows_by_mask: list[list[BelleAction]] = [
            self.invite_rows[tuple(g for g in range(SLOTS) if mask >> g & 1)]
            for mask in range(1 << SLOTS)
        ]
        #: Per Belle kind, her plays in a list indexed by ``play_key`` (``None``: no
        #: such play), a look-up without hashing on the legal list.
        self.play_lists: list[list[BelleAction | None]] = []
        for by_key in self.play_keys:
            listed: list[BelleAction | None] = [None] * (max(by_key) + 1)
            for key, action in by_key.items():
                listed[key] = action
            self.play_lists.append(listed)
        self._by_text = {action.text: action for action in actions}

    def from_text(self, text: str) -> BelleAction:
        """The action ``text`` writes; ``InvalidActionError`` if it writes none."""
        if not isinstance(text, str):
            raise InvalidActionError(f"an action is text, not {type(text).__name__}")
        key = " ".join(text.strip().lower().split())
        action = self._by_text.get(key)
        if action is None:
            action = self._by_text.get(canonical(key))
        if action is None:
            raise InvalidActionError(
                f"{text!r} is not a Belle of the Ball action: write e.g. 'invite 1 to group 1', "
                f"'invite 2' (a Belle in line) or 'belle {self.belle_slugs[0]}'."
            )
        return action


def canonical(key: str) -> str:
    """Rebuild canonical text from looser text ("play Heiress Henrietta", "take 2 into 1").

    >>> canonical("play heiress henrietta")
    'belle heiress-henrietta'
    """
    # Numbers are kept exactly as written ("01" is no position): a typo must be
    # refused, never read as another move.
    match = _INVITE_RE.match(key)
    if match:
        pos, group = match.groups()
        return f"invite {pos}" + (f" to group {group}" if group else "")
    match = _BELLE_RE.match(key)
    if match:
        name, seat, group, src, dest = match.groups()
        text = f"belle {slugify(name)}"
        if seat is not None:
            text += f" on seat {seat}" + (f" group {group}" if group else "")
        elif src is not None:
            text += f" group {src} to {dest}"
        return text
    return key
