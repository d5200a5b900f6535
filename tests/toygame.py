"""Secret Bids: a tiny test-only game with sealed simultaneous bids, hidden cards and chance.

It exists to test the engine and the conformance suite (``potluck.testing``), so it is
small but honours the whole contract. Rules:

- 2 to 4 players; each holds the chips 1, 2 and 3. The deck holds the cards 1 to 12.
- Each of 3 rounds, every player is dealt one card at random from the deck, seen only
  by its holder, then all players bid one unspent chip at once, in secret (sealed).
- The highest bid, if no one else made it, takes every card dealt that round; on a
  tie for highest nobody does and the cards are discarded. All bids and the dealt
  cards are then shown to everyone, and spent chips are gone.
- Score: the sum of the cards taken. Ties for the most share the win.

Notation: ``bid N`` (N = 1, 2 or 3); action code ``N - 1``.

Variants with deliberate bugs (``LeakyBids``, ``MutatingBids``, ``PeekingBids``) let the
tests check that the suite catches them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from potluck import Action, Game, InvalidActionError, Outcome, State
from potluck.engine.errors import PotluckError

CHIPS = (1, 2, 3)
DECK = tuple(range(1, 13))

#: One interned action per chip: ``BIDS[chip - 1]``.
BIDS = tuple(Action(chip - 1, f"bid {chip}") for chip in CHIPS)


class BidsState(State):
    """Immutable tuples only, so the engine's default ``clone`` is enough."""

    __slots__ = ("bids", "cards", "chips", "deck", "last", "round", "won")

    round: int
    deck: tuple[int, ...]  # sorted: the order of the deck carries no information
    cards: tuple[int, ...]  # this round's card of each seat
    chips: tuple[tuple[int, ...], ...]  # unspent chips of each seat
    bids: tuple[int, ...]  # this round's sealed bid of each seat, 0 if none yet
    won: tuple[tuple[int, ...], ...]
    last: tuple[tuple[int, ...], tuple[int, ...]] | None  # last round's (cards, bids)


def _round_chips(state: BidsState, seat: int) -> tuple[int, ...]:
    """The chips ``seat`` held at the start of this round: its sealed bid is not shown."""
    bid = state.bids[seat]
    return tuple(sorted((*state.chips[seat], bid))) if bid else state.chips[seat]


class SecretBids(Game[BidsState, Action]):
    """The toy game; ``SecretBids(None)`` like any registered game factory."""

    id = "secret-bids"
    title = "Secret Bids"
    version = 1
    min_players = 2
    max_players = 4
    notation = "bid N"

    def __init__(self, data: object = None) -> None:
        pass

    def _new_game(self, num_players: int, seed: int, options: Mapping[str, Any]) -> BidsState:
        s = BidsState(num_players, seed, options)
        s.round, s.deck, s.last = 0, DECK, None
        s.chips = (CHIPS,) * num_players
        s.won = ((),) * num_players
        self._deal(s)
        return s

    def _deal(self, s: BidsState) -> None:
        s.cards = tuple(s.rng.sample(s.deck, s.num_players))
        s.deck = tuple(sorted(set(s.deck) - set(s.cards)))
        s.bids = (0,) * s.num_players
        s.acting = tuple(range(s.num_players))

    def legal_actions(self, state: BidsState, seat: int) -> list[Action]:
        if seat not in state.acting:
            return []
        return [BIDS[chip - 1] for chip in state.chips[seat]]

    def parse_action(self, state: BidsState, seat: int, text: str) -> Action:
        return self._action_from_text(text)

    def _action_from_text(self, text: str) -> Action:
        words = text.split()
        if len(words) == 2 and words[0] == "bid" and words[1] in ("1", "2", "3"):
            return BIDS[int(words[1]) - 1]
        raise InvalidActionError(f"{text!r} is not a bid; write 'bid 1', 'bid 2' or 'bid 3'")

    def _why_illegal(self, state: BidsState, seat: int, action: Action) -> str:
        return f"You have already spent your {action.index + 1} chip."

    def _step(self, state: BidsState, seat: int, action: Action) -> None:
        chip = action.index + 1
        bids = list(state.bids)
        bids[seat] = chip
        state.bids = tuple(bids)
        chips = list(state.chips)
        chips[seat] = tuple(c for c in chips[seat] if c != chip)
        state.chips = tuple(chips)
        state.acting = tuple(p for p in state.acting if p != seat)
        if not state.acting:
            self._resolve(state)

    def _resolve(self, s: BidsState) -> None:
        top = max(s.bids)
        if s.bids.count(top) == 1:
            winner = s.bids.index(top)
            won = list(s.won)
            won[winner] = won[winner] + tuple(sorted(s.cards))
            s.won = tuple(won)
        s.last = (s.cards, s.bids)
        s.round += 1
        if s.round < len(CHIPS):
            self._deal(s)
        else:
            s.cards, s.bids = (0,) * s.num_players, (0,) * s.num_players

    def view(self, state: BidsState, seat: int | None) -> dict[str, Any]:
        return {
            "round": state.round,
            "to_act": list(state.acting),
            "my_card": None if seat is None else state.cards[seat],
            "my_bid": None if seat is None else state.bids[seat],
            "has_bid": [b > 0 for b in state.bids],
            "chips": [list(_round_chips(state, p)) for p in range(state.num_players)],
            "won": [list(w) for w in state.won],
            "deck_size": len(state.deck),
            "last": None if state.last is None else [list(x) for x in state.last],
        }

    def redeal(self, state: BidsState, seat: int, rng: random.Random) -> BidsState:
        """Redraw the other seats' cards from the unseen ones, and their sealed bids."""
        twin = state.clone()
        if state.acting:
            others = [p for p in range(state.num_players) if p != seat]
            pool = sorted([*state.deck, *(state.cards[p] for p in others)])
            rng.shuffle(pool)
            cards, bids, chips = list(state.cards), list(state.bids), list(state.chips)
            for p in others:
                cards[p] = pool.pop()
                if bids[p]:  # a sealed bid: any chip the seat held this round
                    held = _round_chips(state, p)
                    bids[p] = rng.choice(held)
                    chips[p] = tuple(c for c in held if c != bids[p])
            twin.cards, twin.deck = tuple(cards), tuple(sorted(pool))
            twin.bids, twin.chips = tuple(bids), tuple(chips)
        twin.rng = random.Random(rng.getrandbits(64))
        return twin

    def outcome(self, state: BidsState) -> Outcome:
        if state.acting:
            raise PotluckError("Secret Bids is still going")
        scores = tuple(float(sum(w)) for w in state.won)
        return Outcome.from_keys(scores, [(s,) for s in scores], "the most points after 3 rounds")

    def max_steps(self, num_players: int) -> int:
        return len(CHIPS) * num_players

    def num_distinct_actions(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> int:
        return len(BIDS)

    def action_from_index(self, state: BidsState, seat: int, index: int) -> Action:
        if not 0 <= index < len(BIDS):
            raise InvalidActionError(f"there is no action {index}; codes are 0 to 2")
        return BIDS[index]

    def invariants(self, state: BidsState) -> list[str]:
        """Chips and cards are conserved."""
        problems = []
        rounds_left = len(CHIPS) - state.round
        for p in range(state.num_players):
            if len(_round_chips(state, p)) != rounds_left:
                problems.append(f"seat {p} holds {_round_chips(state, p)} in round {state.round}")
        dealt = state.num_players * min(state.round + 1, len(CHIPS))
        if len(state.deck) != len(DECK) - dealt:
            problems.append(f"{len(state.deck)} cards left in the deck after dealing {dealt}")
        return problems

    def _state_to_json(self, state: BidsState) -> dict[str, Any]:
        return {
            "round": state.round,
            "deck": list(state.deck),
            "cards": list(state.cards),
            "chips": [list(c) for c in state.chips],
            "bids": list(state.bids),
            "won": [list(w) for w in state.won],
            "last": None if state.last is None else [list(x) for x in state.last],
        }

    def _state_from_json(
        self, data: Mapping[str, Any], num_players: int, seed: int, options: Mapping[str, Any]
    ) -> BidsState:
        s = BidsState(num_players, seed, options)
        s.round, s.deck, s.cards = data["round"], tuple(data["deck"]), tuple(data["cards"])
        s.chips = tuple(tuple(c) for c in data["chips"])
        s.bids, s.won = tuple(data["bids"]), tuple(tuple(w) for w in data["won"])
        last = data["last"]
        s.last = None if last is None else (tuple(last[0]), tuple(last[1]))
        return s


class LeakyBids(SecretBids):
    """Bug: a seat's view shows the next seat's hidden card."""

    def view(self, state: BidsState, seat: int | None) -> dict[str, Any]:
        view = super().view(state, seat)
        if seat is not None:
            view["neighbour_card"] = state.cards[(seat + 1) % state.num_players]
        return view


class PeekingBids(SecretBids):
    """Bug: the spectator sees the sealed bids before they are revealed."""

    def view(self, state: BidsState, seat: int | None) -> dict[str, Any]:
        view = super().view(state, seat)
        view["bids"] = list(state.bids)
        return view


class MutatingBids(SecretBids):
    """Bug: ``apply`` changes its input (and returns it) instead of a clone."""

    def apply(self, state: BidsState, seat: int, action: Action | str) -> BidsState:
        self.step(state, seat, action)
        return state
