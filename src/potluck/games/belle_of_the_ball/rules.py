"""Belle of the Ball (Prototype N): rounds of a line of guests, invited into parties.

Rulebook names are used throughout: *Setup* (``_new_game``), *Start of Round*
(``_start_round``), the turn's *Option: Belle* (``_play_belle``), *Step 1:
Invite* and *Step 2: Group* (one action, ``_invite``), *Step 3: Score* and
*End of Turn* (``_end_turn``), *End of Round* (``_end_round``) and *End of
Game* (``outcome``).

    >>> import potluck
    >>> g = potluck.load_game("belle-of-the-ball")
    >>> s = g.new_game(3, seed=7)
    >>> g.to_act(s), len(s.line), s.chips
    ((0,), 9, [5, 5, 5])
    >>> g.step(s, 0, "invite 1 to group 1")     # the first guest in line is free
    >>> g.to_act(s), len(s.line)
    ((1,), 8)
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from typing import Any, ClassVar

from potluck.engine.bots import Bot, RandomBot
from potluck.engine.data import DataSource, load_data
from potluck.engine.encoding import Feature, ObservationEncoding, ObservationWriter
from potluck.engine.errors import InvalidActionError, PotluckError, RecordError
from potluck.engine.game import Game
from potluck.engine.options import Option
from potluck.engine.outcome import Outcome
from potluck.engine.text import slugify
from potluck.games.belle_of_the_ball.actions import INVITE, PLAY, TAKE_BELLE, BelleAction
from potluck.games.belle_of_the_ball.describe import describe
from potluck.games.belle_of_the_ball.schema import CardData
from potluck.games.belle_of_the_ball.state import (
    BELLE_BASE,
    FIFTH_GROUP,
    FOUR_IS_FULL,
    FREE_SKIPS,
    FULL,
    MAX_GROUPS,
    MAX_LINE,
    MAX_SEATS,
    SINGLES_SCORE,
    SLOTS,
    BelleState,
)

#: Chips Heiress Henrietta takes from the bank; chips Pickpocket Pippa takes.
HEIRESS_CHIPS = 3
PICKPOCKET_CHIPS = 2

#: Belle effects that need a target, and how many parameters each takes.
_TARGETED = {"pickpocket": "seat", "scandal": "seat-group", "move_guest": "move"}

_INVITE_RE = re.compile(r"^(?:invite|take)\s+(\d+)(?:\s+(?:to|into)\s+(?:group\s+)?(\d+))?$")
_BELLE_RE = re.compile(
    r"^(?:belle|play)\s+(.+?)"
    r"(?:\s+on\s+seat\s+(\d+)(?:\s+group\s+(\d+))?|\s+group\s+(\d+)\s+to\s+(?:group\s+)?(\d+))?$"
)


def score_group(interests: Sequence[Sequence[int]], singles: bool = False) -> int:
    """Step 3, Score: one chip for each guest showing an interest that another guest of
    the group shows too (ruling BB-1); with ``singles`` every interest shown scores.

    ``interests`` holds, per guest, the interests it shows (as small ints).

        >>> score_group([(0, 1, 2), (0, 1, 3), (1, 4, 5), (1, 6, 7), (1, 8, 9)])  # 2 + 5
        7
        >>> score_group([(0, 1, 2)], singles=True)
        3
    """
    counts: dict[int, int] = {}
    for shown in interests:
        for interest in shown:
            counts[interest] = counts.get(interest, 0) + 1
    least = 1 if singles else 2
    return sum(c for c in counts.values() if c >= least)


def ordinal(n: int) -> str:
    """``1 -> '1st'``, ``2 -> '2nd'``, ``11 -> '11th'``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class BelleOfTheBall(Game[BelleState, BelleAction]):
    """Belle of the Ball, Prototype N (Daniel Solis, 2012), for 2 to 5 players."""

    id: ClassVar[str] = "belle-of-the-ball"
    title: ClassVar[str] = "Belle of the Ball"
    version: ClassVar[int] = 2
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    options: ClassVar[Mapping[str, Option]] = {
        "belles_in_guest_deck": Option(
            bool,
            False,
            "Designer's variant: every Belle is shuffled into the guest deck and invited "
            "from the line like a guest, to your hand; no Belle hands are dealt or drawn.",
        ),
    }
    summary: ClassVar[str] = resources.files(__package__).joinpath("summary.md").read_text("utf-8")
    notation: ClassVar[str] = (
        "Invite the 3rd guest in line into your group 2: 'invite 3 to group 2' (the first "
        "guest is free; each guest skipped costs a chip). A Belle in line (variant): "
        "'invite 3'. Play a Belle: 'belle heiress-henrietta', 'belle pickpocket-pippa on "
        "seat 2', 'belle scandalous-scarlett on seat 2 group 1', 'belle persuasive-prudence "
        "group 1 to 3'. Seats count from 0, positions and groups from 1."
    )

    def __init__(self, data: DataSource = None) -> None:
        self.data = load_data(CardData, data, package=__package__, default="data/cards.toml")
        self.data_source = (
            None if data is None else str(data) if not isinstance(data, Mapping) else "custom"
        )
        table = self.data.table
        self.starting_chips = table.starting_chips
        self.hand_size = table.hand_size
        self.line_per_player = table.line_per_player
        self.setup_discard = table.setup_discard
        self.interest_names = tuple(self.data.interests)
        interest_index = {name: i for i, name in enumerate(self.interest_names)}
        self.guest_names = tuple(g.name for g in self.data.guest)
        self.guest_slugs = tuple(slugify(g.name) for g in self.data.guest)
        self.guest_interests = tuple(
            tuple(interest_index[i] for i in g.interests) for g in self.data.guest
        )
        self.belle_names = tuple(b.name for b in self.data.belle)
        self.belle_slugs = tuple(slugify(b.name) for b in self.data.belle)
        self.belle_effects = tuple(b.effect for b in self.data.belle)
        self.belle_texts = tuple(b.text for b in self.data.belle)
        self.belle_families = tuple(b.family for b in self.data.belle)
        self.belle_cards = tuple(
            kind for kind, b in enumerate(self.data.belle) for _ in range(b.copies)
        )
        self.kinds = len(self.belle_names)
        # Name and slug lookups for the observation encoding, which reads views.
        self.interest_index = interest_index
        self.guest_index = {slug: g for g, slug in enumerate(self.guest_slugs)}
        self.belle_index = {slug: k for k, slug in enumerate(self.belle_slugs)}
        self.belle_name_index = {name: k for k, name in enumerate(self.belle_names)}
        self._build_actions()

    # ------------------------------------------------------------------ the action table

    def _build_actions(self) -> None:
        """Intern every action once: invites, Belles from the line, then each Belle's plays."""
        actions: list[BelleAction] = []
        self.invite_actions = []
        for pos in range(MAX_LINE):
            for group in range(SLOTS):
                action = BelleAction(
                    len(actions), f"invite {pos + 1} to group {group + 1}", INVITE, pos, group
                )
                actions.append(action)
                self.invite_actions.append(action)
        self.take_actions = []
        for pos in range(MAX_LINE):
            action = BelleAction(len(actions), f"invite {pos + 1}", TAKE_BELLE, pos)
            actions.append(action)
            self.take_actions.append(action)
        # Per Belle kind: its plays, keyed by (seat, group, dest) with -1 for unused.
        self.play_actions: list[dict[tuple[int, int, int], BelleAction]] = []
        for kind, slug in enumerate(self.belle_slugs):
            plays: dict[tuple[int, int, int], BelleAction] = {}
            target = _TARGETED.get(self.belle_effects[kind])
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
        self.all_actions = tuple(actions)
        self._by_text = {action.text: action for action in actions}

    # ------------------------------------------------------------------ setup and rounds

    def _new_game(self, num_players: int, seed: int, options: Mapping[str, Any]) -> BelleState:
        """Setup: discard twelve random guests, deal three Belles each, five chips each."""
        state = BelleState(num_players, seed, options)
        rng = state.rng
        guests = list(range(len(self.guest_names)))
        rng.shuffle(guests)
        state.boxed = sorted(guests[: self.setup_discard])
        state.deck = guests[self.setup_discard :]
        belles = list(self.belle_cards)
        rng.shuffle(belles)
        state.hands = [[] for _ in range(num_players)]
        if options["belles_in_guest_deck"]:
            # The designer's proposal: one deck of guests and Belles; Belles reach a
            # hand only by being invited from the line (ruling BB-12).
            state.deck += [BELLE_BASE + kind for kind in belles]
            rng.shuffle(state.deck)
            state.belle_deck = []
        else:
            for hand in state.hands:
                for _ in range(self.hand_size):
                    hand.append(belles.pop())
                hand.sort()
            state.belle_deck = belles
        state.belle_discard = []
        state.guest_discard = []
        state.line, state.line_chips = [], []
        state.parties = [[] for _ in range(num_players * SLOTS)]
        state.chips = [self.starting_chips] * num_players
        state.start = 0  # the host: seat 0
        state.turn = 0
        state.round = 0
        state.played_now, state.invites_left, state.effects = -1, 0, 0
        state.minted = 0
        state.groups_scored = [0] * num_players
        state.group_chips = [0] * num_players
        state.skip_chips = [0] * num_players
        state.belles_invited = [0] * num_players
        state.belle_skip_chips = [0] * num_players
        state.belles_played = [0] * (num_players * self.kinds)
        self._start_round(state)
        return state

    def line_size(self, num_players: int) -> int:
        return self.line_per_player * num_players

    def _start_round(self, state: BelleState) -> None:
        """Start of Round: deal three cards per player face up in a line, or end the game
        when the deck cannot make a full line (ruling BB-7)."""
        need = self.line_size(state.num_players)
        if len(state.deck) < need:
            state.acting = ()
            return
        state.round += 1
        deck = state.deck
        state.line = [deck.pop() for _ in range(need)]
        state.line_chips = [0] * need
        self._begin_turn(state, state.start)

    def _begin_turn(self, state: BelleState, seat: int) -> None:
        state.turn = seat
        state.acting = (seat,)
        state.played_now = -1  # -1: a Belle may still be played; -2: the chance has passed
        state.invites_left = 1
        state.effects = 0

    # ------------------------------------------------------------------ legality

    def placeable(self, state: BelleState, seat: int) -> list[int]:
        """Step 2, Group: the groups a new guest may join, by slot.

        Any group that is not full, or a new group in the lowest empty slot while the
        player has fewer than four groups (five with Grand Dame Gwendolyn this turn).
        """
        base = seat * SLOTS
        groups = state.parties[base : base + SLOTS]
        used = sum(1 for g in groups if g)
        limit = MAX_GROUPS + (1 if state.effects & FIFTH_GROUP and seat == state.turn else 0)
        slots = []
        new_slot = -1
        for slot, group in enumerate(groups):
            if group:
                if len(group) < FULL:
                    slots.append(slot)
            elif new_slot < 0 and used < limit:
                new_slot = slot
                slots.append(slot)
        return slots

    def describe_action(self, state: BelleState, seat: int, action: BelleAction) -> str:
        """The guest or Belle, its cost in chips and what it collects (see ``describe``)."""
        return describe(self, state, seat, action)

    def skip_cost(self, state: BelleState, pos: int) -> int:
        """Chips to invite the guest at ``pos`` (0-based): one on each guest skipped."""
        return 0 if state.effects & FREE_SKIPS else pos

    def legal_actions(self, state: BelleState, seat: int) -> list[BelleAction]:
        if seat not in state.acting:
            return []
        legal: list[BelleAction] = []
        if state.played_now == -1:
            for kind in dict.fromkeys(state.hands[seat]):
                legal.extend(self._belle_plays(state, seat, kind))
        places = self.placeable(state, seat)
        chips = state.chips[seat]
        free = state.effects & FREE_SKIPS
        invite = self.invite_actions
        for pos, card in enumerate(state.line):
            if not free and pos > chips:
                break
            if card >= BELLE_BASE:
                legal.append(self.take_actions[pos])
            else:
                legal.extend(invite[pos * SLOTS + g] for g in places)
        return legal

    def _belle_plays(self, state: BelleState, seat: int, kind: int) -> list[BelleAction]:
        plays = self.play_actions[kind]
        effect = self.belle_effects[kind]
        n = state.num_players
        if effect == "pickpocket":
            return [plays[s, -1, -1] for s in range(n) if s != seat and state.chips[s] > 0]
        if effect == "scandal":
            parties = state.parties
            return [
                plays[s, g, -1]
                for s in range(n)
                if s != seat
                for g in range(SLOTS)
                if parties[s * SLOTS + g]
            ]
        if effect == "move_guest":
            mine = state.parties[seat * SLOTS : seat * SLOTS + SLOTS]
            return [
                plays[-1, a, b]
                for a in range(SLOTS)
                if mine[a]
                for b in range(SLOTS)
                if b != a and mine[b] and len(mine[b]) < FULL
            ]
        return [plays[-1, -1, -1]]

    def _is_legal(self, state: BelleState, seat: int, action: Any) -> bool:
        return self._problem(state, seat, action) is None

    def _why_illegal(self, state: BelleState, seat: int, action: BelleAction) -> str:
        return self._problem(state, seat, action) or "That action is legal."

    def _problem(self, state: BelleState, seat: int, action: BelleAction) -> str | None:
        """Why ``seat`` (who is to act) may not take ``action``, or ``None`` if it may."""
        if action.kind == PLAY:
            return self._belle_problem(state, seat, action)
        line = state.line
        pos = action.pos
        if pos >= len(line):
            return f"The line has only {len(line)} card(s); there is nobody at position {pos + 1}."
        card = line[pos]
        if action.kind == TAKE_BELLE and card < BELLE_BASE:
            return (
                f"The {ordinal(pos + 1)} in line is the guest {self.guest_names[card]}: say "
                f"which group, e.g. 'invite {pos + 1} to group 1' (Step 2: Group)."
            )
        if action.kind == INVITE and card >= BELLE_BASE:
            return (
                f"The {ordinal(pos + 1)} in line is the Belle "
                f"{self.belle_names[card - BELLE_BASE]}: she goes to your hand, "
                f"'invite {pos + 1}'."
            )
        cost = self.skip_cost(state, pos)
        if cost > state.chips[seat]:
            return (
                f"Step 1, Invite: skipping {cost} card(s) costs one chip on each, {cost} "
                f"chips, and you have {state.chips[seat]}."
            )
        if action.kind == INVITE and action.group not in self.placeable(state, seat):
            group = state.parties[seat * SLOTS + action.group]
            if group:
                return f"Step 2, Group: group {action.group + 1} is full (five guests)."
            used = sum(1 for g in state.parties[seat * SLOTS : seat * SLOTS + SLOTS] if g)
            if used >= MAX_GROUPS + (1 if state.effects & FIFTH_GROUP else 0):
                return (
                    f"Step 2, Group: you already have {used} groups, the most you may have; "
                    "the guest must join one of them."
                )
            first = self.placeable(state, seat)
            new = next(s for s in first if not state.parties[seat * SLOTS + s])
            return f"Step 2, Group: start a new group as group {new + 1}, the first free one."
        return None

    def _belle_problem(self, state: BelleState, seat: int, action: BelleAction) -> str | None:
        name = self.belle_names[action.belle]
        if state.played_now >= 0:
            return (
                f"You have already played {self.belle_names[state.played_now]} this turn: "
                "one Belle per turn."
            )
        if state.played_now == -2:
            return "A Belle is played at the start of your turn, before you invite."
        if action.belle not in state.hands[seat]:
            return f"You hold no {name}."
        effect = self.belle_effects[action.belle]
        n = state.num_players
        if effect in ("pickpocket", "scandal"):
            target = action.seat
            if target == seat:
                return f"{name} works on a rival, not on yourself."
            if target >= n:
                return f"There is no seat {target} at this table (seats 0 to {n - 1})."
            if effect == "pickpocket" and state.chips[target] == 0:
                return f"Seat {target} has no chips for {name} to take."
            if effect == "scandal" and not state.parties[target * SLOTS + action.group]:
                return f"Seat {target} has no group {action.group + 1} for {name} to upset."
            return None
        if effect == "move_guest":
            mine = state.parties[seat * SLOTS : seat * SLOTS + SLOTS]
            if not mine[action.group]:
                return f"You have no group {action.group + 1} to move a guest from."
            if not mine[action.dest]:
                return (
                    f"You have no group {action.dest + 1}: {name} moves a guest into another "
                    "of your groups."
                )
            if len(mine[action.dest]) >= FULL:
                return f"Group {action.dest + 1} is full (five guests)."
        return None

    def _not_your_turn(self, state: BelleState, seat: int) -> str:
        if not 0 <= seat < state.num_players:
            return super()._not_your_turn(state, seat)
        return f"It is seat {state.turn}'s turn, not seat {seat}'s."

    # ------------------------------------------------------------------ change

    def _step(self, state: BelleState, seat: int, action: BelleAction) -> None:
        if action.kind == PLAY:
            self._play_belle(state, seat, action)
        else:
            self._invite(state, seat, action)

    def _play_belle(self, state: BelleState, seat: int, action: BelleAction) -> None:
        """Option: Belle. Play her at the start of the turn and follow her instructions."""
        kind = action.belle
        state.hands[seat].remove(kind)
        state.belle_discard.append(kind)
        state.played_now = kind
        state.belles_played[seat * self.kinds + kind] += 1
        effect = self.belle_effects[kind]
        if effect == "free_skips":
            state.effects |= FREE_SKIPS
        elif effect == "four_is_full":
            state.effects |= FOUR_IS_FULL
        elif effect == "singles_score":
            state.effects |= SINGLES_SCORE
        elif effect == "fifth_group":
            state.effects |= FIFTH_GROUP
        elif effect == "invite_twice":
            state.invites_left = 2
        elif effect == "bank_chips":
            state.chips[seat] += HEIRESS_CHIPS
            state.minted += HEIRESS_CHIPS
        elif effect == "reverse_line":
            state.line.reverse()
            state.line_chips.reverse()
        elif effect == "late_arrival":
            state.line.append(state.line.pop(0))
            state.line_chips.append(state.line_chips.pop(0))
        elif effect == "move_guest":
            base = seat * SLOTS
            state.parties[base + action.dest].append(state.parties[base + action.group].pop())
        elif effect == "scandal":
            state.guest_discard.append(state.parties[action.seat * SLOTS + action.group].pop())
        elif effect == "pickpocket":
            taken = min(PICKPOCKET_CHIPS, state.chips[action.seat])
            state.chips[action.seat] -= taken
            state.chips[seat] += taken
        elif effect == "gossip":
            n = state.num_players
            for step in range(1, n):
                rival = (seat + step) % n
                if state.chips[rival] > 0:
                    state.chips[rival] -= 1
                    state.line_chips[0] += 1

    def _invite(self, state: BelleState, seat: int, action: BelleAction) -> None:
        """Step 1, Invite (pay a chip onto each skipped card, collect the invited card's
        chips) and Step 2, Group (or, for a Belle in the variant, to hand)."""
        pos = action.pos
        cost = self.skip_cost(state, pos)
        if cost:
            chips_on = state.line_chips
            for i in range(pos):
                chips_on[i] += 1
            state.chips[seat] -= cost
            state.skip_chips[seat] += cost
        card = state.line.pop(pos)
        state.chips[seat] += state.line_chips.pop(pos)
        if action.kind == TAKE_BELLE:
            state.hands[seat].append(card - BELLE_BASE)
            state.hands[seat].sort()
            state.belles_invited[seat] += 1
            state.belle_skip_chips[seat] += cost
        else:
            state.parties[seat * SLOTS + action.group].append(card)
        if state.played_now == -1:
            state.played_now = -2
        state.invites_left -= 1
        if state.invites_left > 0 and state.line:
            return  # Double-Booked Dorothea: the same seat invites again
        self._end_turn(state, seat)

    def _end_turn(self, state: BelleState, seat: int) -> None:
        """Step 3, Score every full group; End of Turn: discard them; the left player is next."""
        full = FULL - 1 if state.effects & FOUR_IS_FULL else FULL
        singles = bool(state.effects & SINGLES_SCORE)
        base = seat * SLOTS
        for slot in range(base, base + SLOTS):
            group = state.parties[slot]
            if len(group) >= full:
                gain = score_group([self.guest_interests[g] for g in group], singles)
                state.chips[seat] += gain
                state.minted += gain
                state.groups_scored[seat] += 1
                state.group_chips[seat] += gain
                state.guest_discard.extend(group)
                state.parties[slot] = []
        if state.line:
            self._begin_turn(state, (seat + 1) % state.num_players)
        else:
            self._end_round(state)

    def _end_round(self, state: BelleState) -> None:
        """End of Round: draw back up to three Belles; fewest chips takes the Start token."""
        n = state.num_players
        state.played_now, state.invites_left, state.effects = -1, 0, 0
        if not state.options["belles_in_guest_deck"]:
            for step in range(n):
                hand = state.hands[(state.start + step) % n]
                while len(hand) < self.hand_size:
                    if not state.belle_deck:
                        if not state.belle_discard:
                            break  # every Belle is in a hand (ruling BB-9)
                        state.belle_deck = state.belle_discard
                        state.belle_discard = []
                        state.rng.shuffle(state.belle_deck)
                    hand.append(state.belle_deck.pop())
                hand.sort()
        state.start = self.next_start(state.chips, state.start)
        self._start_round(state)

    @staticmethod
    def next_start(chips: list[int], holder: int) -> int:
        """Who takes the Start Player token: the fewest chips; on a tie the holder keeps it,
        else the tied player first to the holder's left (ruling BB-6).

            >>> BelleOfTheBall.next_start([4, 2, 2, 9], holder=0)
            1
            >>> BelleOfTheBall.next_start([4, 2, 2, 9], holder=2)
            2
        """
        n = len(chips)
        fewest = min(chips)
        return next(
            (holder + step) % n for step in range(n) if chips[(holder + step) % n] == fewest
        )

    # ------------------------------------------------------------------ the end

    def standings(self, state: BelleState) -> tuple[float, ...]:
        """Chips so far (groups still forming do not score)."""
        return tuple(float(c) for c in state.chips)

    def outcome(self, state: BelleState) -> Outcome:
        """End of Game: remaining groups do not score; most chips wins (ties share it)."""
        if state.acting:
            raise PotluckError(
                f"the game is not over: it is round {state.round}, seat {state.turn}'s turn"
            )
        scores = tuple(float(c) for c in state.chips)
        result = Outcome.from_keys(scores, [(c,) for c in state.chips], "")
        best = state.chips[result.winners[0]]
        if len(result.winners) > 1:
            reason = (
                f"Seats {', '.join(map(str, result.winners))} share the win with {best} chips "
                f"after {state.round} rounds."
            )
        else:
            reason = f"Seat {result.winners[0]} wins with {best} chips after {state.round} rounds."
        return Outcome(result.scores, result.winners, result.ranking, result.places, reason)

    def metrics(self, state: BelleState) -> dict[str, float | int | str]:
        """Numbers about a finished game: rounds, groups, skipping, Belles (and the winners')."""
        n, kinds = state.num_players, self.kinds
        outcome = self.outcome(state)
        groups = sum(state.groups_scored)
        played = sum(state.belles_played)
        winners_played = sum(
            state.belles_played[w * kinds + k] for w in outcome.winners for k in range(kinds)
        )
        invited = sum(
            1 for _, a in state.history if isinstance(a, BelleAction) and a.kind == TAKE_BELLE
        )
        ranked = sorted(state.chips, reverse=True)
        result: dict[str, float | int | str] = {
            "rounds": state.round,
            "full_groups": groups,
            "mean_group_chips": round(sum(state.group_chips) / groups, 3) if groups else 0.0,
            "skip_chips": sum(state.skip_chips),
            "belles_played": played,
            "belles_played_by_winners": winners_played,
            "belles_invited": invited,
            "winning_chips": ranked[0],
            "margin": ranked[0] - ranked[1] if n > 1 else 0,
            "groups_left_unscored": sum(1 for g in state.parties if g),
            # What goes with winning: the winners' own groups, skips and favourite Belle.
            "winner_full_groups": sum(state.groups_scored[w] for w in outcome.winners)
            / len(outcome.winners),
            "winner_skip_chips": sum(state.skip_chips[w] for w in outcome.winners)
            / len(outcome.winners),
        }
        by_kind = [
            sum(state.belles_played[w * kinds + k] for w in outcome.winners) for k in range(kinds)
        ]
        if max(by_kind) > 0:
            # A text metric: the lab tallies it; ties go to the Belle first in the data.
            result["winners_top_belle"] = self.belle_slugs[by_kind.index(max(by_kind))]
        return result

    def seat_metrics(self, state: BelleState, seat: int) -> dict[str, float | int]:
        """What ``seat`` did, for the lab's "what goes with winning" tables.

        ``belle:<slug>`` counts the Belles it played; ``groups_scored``,
        ``group_chips`` (chips its full groups earned), ``skip_chips`` (chips it
        paid to skip guests) and ``chips`` (its final chips) are totals. For the
        designer's Belle questions: ``belles_invited`` (Belles it took from the line,
        in the variant), ``chips_spent_reaching_belles`` (the skip chips it paid on
        those invitations), ``belles_played`` and ``belles_in_hand_at_end``.
        """
        kinds = self.kinds
        found: dict[str, float | int] = {}
        for kind in range(kinds):
            played = state.belles_played[seat * kinds + kind]
            if played:
                found[f"belle:{self.belle_slugs[kind]}"] = played
        found["groups_scored"] = state.groups_scored[seat]
        found["group_chips"] = state.group_chips[seat]
        found["skip_chips"] = state.skip_chips[seat]
        found["chips"] = state.chips[seat]
        found["belles_invited"] = state.belles_invited[seat]
        found["chips_spent_reaching_belles"] = state.belle_skip_chips[seat]
        found["belles_played"] = sum(state.belles_played[seat * kinds : (seat + 1) * kinds])
        found["belles_in_hand_at_end"] = len(state.hands[seat])
        return found

    # ------------------------------------------------------------------ text and numbers

    def parse_action(self, state: BelleState | None, seat: int, text: str) -> BelleAction:
        return self._action_from_text(text)

    def _action_from_text(self, text: str) -> BelleAction:
        if not isinstance(text, str):
            raise InvalidActionError(f"an action is text, not {type(text).__name__}")
        key = " ".join(text.strip().lower().split())
        action = self._by_text.get(key)
        if action is None:
            action = self._by_text.get(self._canonical(key))
        if action is None:
            raise InvalidActionError(
                f"{text!r} is not a Belle of the Ball action: write e.g. 'invite 1 to group 1', "
                f"'invite 2' (a Belle in line) or 'belle {self.belle_slugs[0]}'."
            )
        return action

    def _canonical(self, key: str) -> str:
        """Rebuild canonical text from looser text ("play Heiress Henrietta", "take 2 into 1")."""
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

    def max_steps(self, num_players: int) -> int:
        # Every card reaches a line at most once and leaves it by one invitation; each
        # turn has at least one invitation and at most one Belle before it.
        cards = len(self.guest_names) - self.setup_discard + len(self.belle_cards)
        return 2 * cards

    def num_distinct_actions(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> int:
        return len(self.all_actions)

    def action_from_index(self, state: BelleState | None, seat: int, index: int) -> BelleAction:
        size = len(self.all_actions)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < size:
            raise InvalidActionError(
                f"action index {index!r} is out of range: Belle of the Ball has {size} actions"
            )
        return self.all_actions[index]

    # ------------------------------------------------------------------ cards as data

    def card_json(self, card: int) -> dict[str, Any]:
        """A card as the table sees it: a guest with its interests, or a Belle."""
        if card >= BELLE_BASE:
            return self.belle_json(card - BELLE_BASE)
        return {
            "guest": self.guest_slugs[card],
            "name": self.guest_names[card],
            "interests": [self.interest_names[i] for i in self.guest_interests[card]],
        }

    def belle_json(self, kind: int) -> dict[str, Any]:
        return {
            "belle": self.belle_slugs[kind],
            "name": self.belle_names[kind],
            "family": self.belle_families[kind],
            "effect": self.belle_effects[kind],
            "text": self.belle_texts[kind],
        }

    # ------------------------------------------------------------------ views

    def _observation_features(self, num_players: int, options: Mapping[str, Any]) -> list[Feature]:
        from potluck.games.belle_of_the_ball.encoding import features

        return features(self, num_players, options)

    def _encode_view(self, view: Mapping[str, Any], out: ObservationWriter) -> None:
        from potluck.games.belle_of_the_ball.encoding import encode

        encode(self, view, out)

    def _encode_state(
        self, state: BelleState, seat: int, encoding: ObservationEncoding
    ) -> list[float]:
        from potluck.games.belle_of_the_ball.encoding import encode_state

        return encode_state(self, state, seat, encoding)

    def view(self, state: BelleState, seat: int | None) -> dict[str, Any]:
        from potluck.games.belle_of_the_ball.view import build_view

        return build_view(self, state, seat)

    def redeal(self, state: BelleState, seat: int, rng: random.Random) -> BelleState:
        from potluck.games.belle_of_the_ball.view import redeal

        return redeal(self, state, seat, rng)

    def invariants(self, state: BelleState) -> list[str]:
        """Cards and chips are conserved; groups and hands stay within the rules."""
        from potluck.games.belle_of_the_ball.view import invariant_problems

        return invariant_problems(self, state)

    # ------------------------------------------------------------------ bots

    def bots(self) -> dict[str, Callable[[], Bot]]:
        from potluck.games.belle_of_the_ball.bots import GreedyBot

        return {"random": RandomBot, "greedy": GreedyBot}

    # ------------------------------------------------------------------ saving

    _LISTS = (
        "deck",
        "boxed",
        "line",
        "line_chips",
        "chips",
        "belle_deck",
        "belle_discard",
        "guest_discard",
        "groups_scored",
        "group_chips",
        "skip_chips",
        "belles_invited",
        "belle_skip_chips",
        "belles_played",
    )
    _INTS = ("start", "turn", "round", "played_now", "invites_left", "effects", "minted")

    def _state_to_json(self, state: BelleState) -> dict[str, Any]:
        data: dict[str, Any] = {name: list(getattr(state, name)) for name in self._LISTS}
        data.update({name: getattr(state, name) for name in self._INTS})
        data["parties"] = [list(g) for g in state.parties]
        data["hands"] = [list(h) for h in state.hands]
        return data

    def _state_from_json(
        self, data: Mapping[str, Any], num_players: int, seed: int, options: Mapping[str, Any]
    ) -> BelleState:
        state = BelleState(num_players, seed, options)
        try:
            for name in self._LISTS:
                setattr(state, name, [int(x) for x in data[name]])
            for name in self._INTS:
                setattr(state, name, int(data[name]))
            state.parties = [[int(x) for x in g] for g in data["parties"]]
            state.hands = [[int(x) for x in h] for h in data["hands"]]
        except (KeyError, TypeError, ValueError) as error:
            raise RecordError(
                f"the saved Belle of the Ball state is malformed: {error!r}"
            ) from None
        if len(state.chips) != num_players or len(state.parties) != num_players * SLOTS:
            raise RecordError(
                "the saved Belle of the Ball state does not match its number of players"
            )
        return state
