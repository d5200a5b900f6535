"""What each seat may know in Café Carnage, and re-dealing what it may not.

Public: everyone's money, points, IOU token, hand size and whether they still
hold a RUN! card (only a successful escape discards it); who has made the
current sealed choice; every revealed meal, runner and bill; the tally (not
the owners) of the stayers' shuffled votes; deck sizes and eaten dishes.
Private to a seat: its hand, its menu, its orders and card this round, and its
own past votes. Never shown: other seats' hands, menus, orders before Dinner is
Served, sealed cards, the decks' contents and the RNG.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from potluck.engine.chance import choice, permutation
from potluck.games.cafe_carnage.end import outcome
from potluck.games.cafe_carnage.orders import orderable
from potluck.games.cafe_carnage.readonly import ReadOnlyDict, ReadOnlyList
from potluck.games.cafe_carnage.round import derive_choices
from potluck.games.cafe_carnage.schema import COURSES
from potluck.games.cafe_carnage.seat_info import SeatInfo
from potluck.games.cafe_carnage.setup import guards
from potluck.games.cafe_carnage.state import (
    BALLOT,
    CARD_WORDS,
    NO_CARD,
    NO_DISH,
    OVER,
    PHASE_NAMES,
    RUN,
    SEPARATELY,
    SPLIT,
    STARTING_HAND,
    CafeState,
    RoundRecord,
)
from potluck.games.cafe_carnage.tables import GAME_ID, CafeTables

#: Past nights' entries a game keeps for its views (``_past_night``) before it forgets them all.
_NIGHTS_KEPT = 2048

#: Masks of eaten dishes a game remembers as lists of names before it forgets them all.
_EATEN_KEPT = 1 << 14


def _eaten_slugs(game: CafeTables, eaten: int) -> list[str]:
    """The dishes of the bit mask ``eaten``, in dish order; each mask is worked out once."""
    known = game.eaten_memo.get(eaten)
    if known is None:
        slugs, found, left = game.dish_slugs, [], eaten
        while left:
            low = left & -left
            found.append(slugs[low.bit_length() - 1])
            left ^= low
        if len(game.eaten_memo) >= _EATEN_KEPT:
            game.eaten_memo.clear()
        known = game.eaten_memo[eaten] = tuple(found)
    return list(known)


def _past_night(game: CafeTables, record: RoundRecord, seat: int | None) -> dict[str, Any]:
    """A finished night as ``seat`` sees it, built once and then shared, read-only, by
    every later view that shows it: a past night never changes, and the past nights
    were half of a mid-game view (the greedy bot asks for a view at every decision)."""
    key = (id(record), seat)
    kept = game.past_nights.get(key)
    if kept is None or kept[0] is not record:  # an id is reused only once its record is gone
        if len(game.past_nights) >= _NIGHTS_KEPT:
            game.past_nights.clear()
        kept = game.past_nights[key] = (record, _night_json(game, record, seat))
    return kept[1]


def _night_json(game: CafeTables, record: RoundRecord, seat: int | None) -> dict[str, Any]:
    """A finished night as ``seat`` sees it, read-only (``readonly.py``); the dishes are
    the game's own read-only entries."""
    dishes, orders = game.dish_views, record.orders
    meals = ReadOnlyList(
        ReadOnlyDict(
            seat=s,
            dishes=ReadOnlyList((dishes[starter], dishes[main], dishes[dessert])),
            cost=cost,
            scored=scored,
        )
        for s, starter, main, dessert, cost, scored in zip(
            range(len(record.paid)),
            orders[0::3],
            orders[1::3],
            orders[2::3],
            meal_costs(game, record),
            record.scored,
            strict=True,
        )
    )
    night: dict[str, Any] = {
        "round": record.number,
        "meals": meals,
        "runners": ReadOnlyList(record.runners),
        "caught": ReadOnlyList(record.caught),
        "escaped": ReadOnlyList(s for s in record.runners if s not in record.caught),
        "runners_bill": record.runners_bill,
        "votes": ReadOnlyDict(split=record.split_votes, separately=record.separately_votes),
        "bill": None if record.method == NO_CARD else CARD_WORDS[record.method],
        "paid": ReadOnlyList(record.paid),
        "iou_loans": ReadOnlyList(record.loans),
    }
    if seat is not None:
        night["your_card"] = CARD_WORDS[record.ballots[seat]]
    return ReadOnlyDict(night)


def meal_costs(game: CafeTables, record: RoundRecord) -> tuple[int, ...]:
    """Each seat's meal cost on a finished night (starter, main and dessert)."""
    value, orders = game.value_of, record.orders
    return tuple(
        value[orders[base]] + value[orders[base + 1]] + value[orders[base + 2]]
        for base in range(0, len(orders), 3)
    )


def hand_size(state: CafeState, seat: int) -> int:
    """The cards ``seat`` holds, a sealed card counted (public: cards are played face
    down)."""
    hands, base = state.hands, 3 * seat
    sealed = 1 if state.ballots[seat] != NO_CARD else 0
    return hands[base] + hands[base + 1] + hands[base + 2] + sealed


def hand_sizes(state: CafeState) -> tuple[int, ...]:
    """``hand_size`` of every seat at once, as the view and the greedy bot's input both
    want them."""
    return tuple([hand_size(state, seat) for seat in range(state.num_players)])


def public_cards(game: CafeTables, state: CafeState) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """Every seat's hand size (``hand_sizes``) and whether it still holds its RUN! card,
    for the greedy bot's input: the last tuples worked out are kept on the game and
    given again while every seat's size and card equal them.

    They change only when a night ends, so most decisions find them kept and the greedy
    bot finds its table by their identity (issue 36: they were a tenth of a greedy
    decision); each seat's ``hand_size`` is compared with
    the kept one, which makes no tuple and copies no list
    (``tests/test_cafe_fast_paths.py``)."""
    fled = state.fled
    sizes, run_cards = game.public_cards_memo
    n = state.num_players
    same = len(sizes) == n and len(run_cards) == n
    seat = 0
    while same and seat < n:
        same = hand_size(state, seat) == sizes[seat] and fled[seat] != run_cards[seat]
        seat += 1
    if same:
        return sizes, run_cards
    sizes = hand_sizes(state)
    run_cards = tuple([not escaped for escaped in fled])
    # Replaced whole, never changed in place: a reader never sees half of two states.
    game.public_cards_memo = (sizes, run_cards)
    return sizes, run_cards


def _players(game: CafeTables, state: CafeState) -> list[dict[str, Any]]:
    """Each seat's public entry."""
    acting = state.acting
    money, points, iou, fled, eaten = state.money, state.points, state.iou, state.fled, state.eaten
    sizes = hand_sizes(state)
    return [
        {
            "seat": s,
            "money": money[s],
            "points": points[s],
            "iou": iou[s],
            "hand_size": sizes[s],
            "has_run_card": not fled[s],
            "waiting_for": s in acting,
            "eaten": _eaten_slugs(game, eaten[s]),
        }
        for s in range(state.num_players)
    ]


def _you(game: CafeTables, state: CafeState, seat: int) -> dict[str, Any]:
    """What only ``seat`` knows: its hand, menu, orders and card this round (its dishes
    copied from the game's read-only entries)."""
    base = 3 * seat
    dish_views, orders, hands, ballots = game.dish_views, state.orders, state.hands, state.ballots
    menu = [dish_views[d].copy() for d in state.menus[seat]] if state.phase < BALLOT else []
    order: dict[str, dict[str, Any] | None] = {
        course: (dish_views[orders[base + c]].copy() if orders[base + c] != NO_DISH else None)
        for c, course in enumerate(COURSES)
    }
    return {
        "hand": {"split": hands[base], "separately": hands[base + 1], "run": hands[base + 2]},
        "menu": menu,
        "order": order,
        "card": None if ballots[seat] == NO_CARD else CARD_WORDS[ballots[seat]],
    }


def build_seat_info(game: CafeTables, state: CafeState, seat: int) -> SeatInfo:
    """What the greedy bot reads (``Game.bot_view``): the entries of ``seat``'s view that
    ``SeatInfo.from_view`` reads, worked out by the same helpers as the view's."""
    base = 3 * seat
    hands, orders = state.hands, state.orders
    log = state.log
    known_log, costs = game.meal_costs_memo
    if known_log is not log:
        costs = tuple([meal_costs(game, record) for record in log])
        game.meal_costs_memo = (log, costs)
    sizes, run_cards = public_cards(game, state)
    return SeatInfo(
        seat,
        game.rounds - min(state.round + 1, game.rounds) + 1,
        state.phase,
        bool(state.options["no_repeat_dishes"]),  # (every game's options have it)
        costs,
        sizes,
        run_cards,
        state.money[seat],
        state.iou[seat],
        state.eaten[seat],
        (hands[base], hands[base + 1], hands[base + 2]),
        state.ballots[seat] != NO_CARD,
        (orders[base], orders[base + 1], orders[base + 2]),
    )


def build_view(game: CafeTables, state: CafeState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know (``None``: a spectator), as JSON-ready data; see the module."""
    n = state.num_players
    phase = state.phase
    acting = state.acting
    decks = state.decks
    view: dict[str, Any] = {
        "game": GAME_ID,
        "seat": seat,
        "num_players": n,
        "round": min(state.round + 1, game.rounds),
        "rounds": game.rounds,
        "phase": PHASE_NAMES[phase],
        "to_act": list(acting),
        "guards": guards(n),
        "options": dict(state.options),
        "decks": {"starter": len(decks[0]), "main": len(decks[1]), "dessert": len(decks[2])},
        "players": _players(game, state),
        "log": [_past_night(game, record, seat) for record in state.log],
    }
    if seat is not None:
        view["you"] = _you(game, state, seat)
    if phase == OVER:
        result = outcome(game, state)
        view["final_scores"] = list(result.scores)
        view["winners"] = list(result.winners)
        view["result"] = result.reason
    return view


# ---------------------------------------------------------------------- redeal


def _sample_past_votes(state: CafeState, seat: int, rng: random.Random) -> list[list[int]] | None:
    """Per past round, a card per seat consistent with what ``seat`` saw; ``None`` if none fits.

    The public record shows each round's runners and the tally of the stayers'
    votes; ``seat`` also knows its own card. Each player owns two Split and two
    Separately cards, so no one may vote either way a third time. A depth-first
    search over the rounds, trying the ways to share out each round's Split votes
    in an order drawn from ``rng``, finds a fitting draw whenever one exists (the
    true votes are one), so the result depends only on what ``seat`` knows.
    """
    n = state.num_players
    rounds = []
    for record in state.log:
        known = list(record.ballots)
        others = [s for s in range(n) if s != seat and known[s] != RUN]
        splits = record.split_votes - (1 if known[seat] == SPLIT else 0)
        ways = [frozenset(way) for way in combinations(others, splits)]
        rounds.append((known, others, ways))
    used = [[0, 0] for _ in range(n)]
    for known, _, _ in rounds:
        if known[seat] != RUN:
            used[seat][known[seat]] += 1
    votes: list[list[int]] = []

    def fill(index: int) -> bool:
        if index == len(rounds):
            return True
        known, others, ways = rounds[index]
        for way in permutation(rng, ways):
            cards = list(known)
            for s in others:
                cards[s] = SPLIT if s in way else SEPARATELY
            if any(used[s][cards[s]] >= STARTING_HAND[cards[s]] for s in others):
                continue
            for s in others:
                used[s][cards[s]] += 1
            votes.append(cards)
            if fill(index + 1):
                return True
            votes.pop()
            for s in others:
                used[s][cards[s]] -= 1
        return False

    return votes if fill(0) else None


def redeal(game: CafeTables, state: CafeState, seat: int, rng: random.Random) -> CafeState:
    """Redraw what ``seat`` cannot see: decks, others' menus, orders and cards.

    Other seats' hands are rebuilt from a fresh draw of who cast which of the
    shuffled votes in past rounds (consistent with every public tally); a sealed
    order or card this round is redrawn from the seat's new menu or hand. The
    draw is canonical: for a given ``rng`` it depends only on what ``seat``
    knows (unseen cards are sorted before they are shuffled), and the world's
    own generator is reseeded from ``rng``, so its future chance is not the
    true one. Returns a new state.
    """
    twin = state.clone()
    n = state.num_players
    others = [s for s in range(n) if s != seat]
    phase = state.phase
    if phase != OVER:
        for course in range(3):
            sealed = [s for s in others if twin.orders[3 * s + course] != NO_DISH]
            dealt = others if course == phase else []
            pool = twin.decks[course] + twin.discards[course]
            for s in sealed:
                if course != phase:
                    pool.append(twin.orders[3 * s + course])
            for s in dealt:
                pool.extend(twin.menus[s])
            # Canonical: sorted, the pool depends on what the seat knows, not the true
            # order; the deck is unordered (a deal draws at random), so only the cards
            # that go somewhere are drawn, and the rest stay in the deck, sorted.
            pool.sort()
            pop, rnd = pool.pop, rng.random
            for s in dealt:
                twin.menus[s] = tuple(pop(int(rnd() * len(pool))) for _ in range(game.menu_size))
            for s in sealed:
                if course == phase:
                    twin.orders[3 * s + course] = choice(rng, orderable(game, twin, s))
                else:
                    twin.orders[3 * s + course] = pop(int(rnd() * len(pool)))
            discards = len(state.discards[course])
            twin.discards[course] = [pop(int(rnd() * len(pool))) for _ in range(discards)]
            twin.decks[course] = pool
    votes = _sample_past_votes(state, seat, rng)
    if votes is not None:
        for s in others:
            hand = list(STARTING_HAND)
            for round_votes in votes:
                card = round_votes[s]
                if card != RUN:
                    hand[card] -= 1
            hand[RUN] = 0 if twin.fled[s] else 1
            if twin.ballots[s] != NO_CARD:
                deck = [c for c in range(3) for _ in range(hand[c])]
                card = choice(rng, deck)
                hand[card] -= 1
                twin.ballots[s] = card
            twin.hands[3 * s : 3 * s + 3] = hand
        # The log's ballots are private too: the world holds the votes drawn for it.
        twin.log = tuple(
            record._replace(ballots=tuple(cards))
            for record, cards in zip(state.log, votes, strict=True)
        )
    twin.seed_rng(rng.getrandbits(64))
    derive_choices(game, twin)
    return twin
