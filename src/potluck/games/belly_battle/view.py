"""What each seat may know in Belly Battle, and re-dealing what it may not.

Public: the board (owners, chefs, stars, BellyGuard cards, the Golden Belly
Award, who holds each one-round card), everyone's cash, position and wealth,
the dice, the open offer or debt, the deal counts of the upgrade window, the
number of Munchtime cards with Mr. Munchwalla, and the table's log (Munchtime
cards revealed at a Munchtime are in it). Private to a seat: its own Munchtime
card, and the cards it saw at Sneaky Eyes while their holders keep them.
Never shown: other Munchtime cards, the deck's order and the RNG.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from potluck.games.belly_battle.state import (
    AFTER_LAND,
    AFTER_WINDOW,
    BANK,
    DEBT,
    NOBODY,
    OVER,
    PHASE_NAMES,
    RESPOND,
    ROUND_CARD_NAMES,
    BellyState,
)

if TYPE_CHECKING:
    from potluck.games.belly_battle.tables import BellyRules


def _munch_json(game: BellyRules, card: int) -> list[str]:
    first, second = game.munch_cards[card]
    return [game.cuisines[first], game.cuisines[second]]


def build_view(game: BellyRules, state: BellyState, seat: int | None) -> dict[str, Any]:
    n = state.num_players
    owner, chefs, star, insured = state.owner, state.chefs, state.star, state.insured
    slugs = game.slugs
    r_count = game.num_restaurants
    cards = [
        {
            "card": slugs[c],
            "owner": None if owner[c] == BANK else owner[c],
            "chefs": chefs[c],
            "star": star[c],
            "insured": insured[c],
            "fee": game.munch_fee(state, c, NOBODY)
            if owner[c] != BANK
            else (game.fees[c][0] if c < r_count else game.bank.cafe_fee),
        }
        for c in range(game.num_cards)
    ]
    players = []
    for s in range(n):
        players.append(
            {
                "seat": s,
                "cash": state.cash[s],
                "position": state.pos[s],
                "space": game.space_name(state.pos[s]),
                "wealth": game.wealth(state, s),
                "cards": [slugs[c] for c in range(game.num_cards) if owner[c] == s],
                "tunnel_used": state.tunnel_used[s],
                "bankrupt": state.bankrupt == s,
            }
        )
    phase = state.phase
    view: dict[str, Any] = {
        "game": game.id,
        "seat": seat,
        "num_players": n,
        "round": state.round + (0 if phase == OVER and state.bankrupt == NOBODY else 1),
        "max_rounds": state.options["max_rounds"],
        "turn": state.turn,
        "phase": PHASE_NAMES[phase],
        "to_act": list(state.acting),
        "dice": list(state.dice),
        "players": players,
        "cards": cards,
        "golden_belly": slugs[state.golden] if state.golden >= 0 else None,
        "round_cards": {
            ROUND_CARD_NAMES[k]: (None if h == NOBODY else h) for k, h in enumerate(state.holders)
        },
        # Fixed data shared by every view (read it, never change it).
        "board": game.board_json,
        "supply": {
            "chefs": game.chef_supply(state),
            "stars": game.star_supply(state),
            "bellyguards": game.guard_supply(state),
            "munchtime_cards": len(state.deck),
        },
        "window": {
            "deals_made": state.window_actions,
            "offered": state.window_offered,
            "still_to_act": list(state.window_left),
        },
        "offer": None,
        "debt": None,
        "log": list(state.log),
    }
    if phase == RESPOND:
        seller, card, buyer, price = state.offer
        view["offer"] = {"seller": seller, "card": slugs[card], "buyer": buyer, "price": price}
    if state.queue and (phase == DEBT or (state.resume == DEBT and phase == RESPOND)):
        payer, payee, amount = state.queue[0], state.queue[1], state.queue[2]
        view["debt"] = {
            "payer": payer,
            "payee": None if payee == BANK else payee,
            "amount": amount,
            "offers_left": state.debt_offers,
        }
    if seat is not None:
        known = {
            str(other): _munch_json(game, state.munch[other])
            for other in range(n)
            if other != seat and state.knows[seat] >> other & 1
        }
        view["you"] = {"munchtime": _munch_json(game, state.munch[seat]), "seen": known}
    if phase == OVER:
        outcome = game.outcome(state)
        view["final_scores"] = list(outcome.scores)
        view["winners"] = list(outcome.winners)
        view["result"] = outcome.reason
    return view


def redeal(game: BellyRules, state: BellyState, seat: int, rng: random.Random) -> BellyState:
    """Redraw the Munchtime cards ``seat`` has not seen and the deck; reseed the dice."""
    twin = state.clone()
    unseen = [
        other
        for other in range(state.num_players)
        if other != seat and not state.knows[seat] >> other & 1
    ]
    pool = sorted(twin.deck + [twin.munch[other] for other in unseen])
    rng.shuffle(pool)
    for other in unseen:
        twin.munch[other] = pool.pop()
    twin.deck = sorted(pool)
    twin.rng = random.Random(rng.getrandbits(64))
    return twin


def _shape_problems(game: BellyRules, state: BellyState) -> list[str]:
    """Every list the right length and every number in its range: what a hand-edited save
    can break before the rules' own checks can even be read."""
    from potluck.games.belly_battle.tables import DEBT_OFFERS, MAX_ROUNDS_LIMIT, WINDOW_CAP

    n, cards = state.num_players, game.num_cards
    seats = range(n)
    problems = [
        f"{name} has {len(getattr(state, name))} entries, not {size}"
        for name, size in (
            ("pos", n),
            ("cash", n),
            ("tunnel_used", n),
            ("munch", n),
            ("knows", n),
            ("owner", cards),
            ("chefs", cards),
            ("star", cards),
            ("insured", cards),
            ("acquired", cards),
            ("holders", len(ROUND_CARD_NAMES)),
        )
        if len(getattr(state, name)) != size
    ]
    if problems:
        return problems

    def check(ok: bool, problem: str) -> None:
        if not ok:
            problems.append(problem)

    check(state.turn in seats, f"it is seat {state.turn}'s turn: there are seats 0 to {n - 1}")
    check(0 <= state.round <= MAX_ROUNDS_LIMIT, f"round {state.round} is not 0 to 1000")
    check(all(0 <= p < game.board_size for p in state.pos), "a pawn is off the board")
    check(all(o == BANK or o in seats for o in state.owner), "a card's owner is no seat")
    check(all(h == NOBODY or h in seats for h in state.holders), "a round card's holder is no seat")
    check(-1 <= state.golden < game.num_restaurants, f"the award is on card {state.golden}")
    check(
        all(0 <= c < len(game.munch_cards) for c in state.munch + state.deck),
        "no such Munchtime card",
    )
    check(all(0 <= k < 1 << n for k in state.knows), "what a seat knows names no seats")
    check(all(0 <= d <= 6 for d in state.dice), f"dice {state.dice} are not 1 to 6")
    check(len(state.queue) % 3 == 0, "the payments due are not (payer, payee, amount) triples")
    for k in range(0, len(state.queue) - 2, 3):
        payer, payee, amount = state.queue[k : k + 3]
        check(payer in seats and (payee == BANK or payee in seats) and amount >= 0,
              f"a payment due from {payer} to {payee} of {amount}")  # fmt: skip
    check(all(s in seats for s in state.window_left), "the window waits for no seat")
    check(0 <= state.window_actions <= WINDOW_CAP, f"{state.window_actions} deals in a window")
    check(0 <= state.debt_offers <= DEBT_OFFERS, f"{state.debt_offers} offers left for a debt")
    seller, card, buyer, price = state.offer
    sound = seller in seats and buyer in seats and 0 <= card < cards and price >= 0
    check(seller == NOBODY or sound, f"the offer {list(state.offer)} is not sound")
    check(0 <= state.resume < len(PHASE_NAMES), f"phase {state.resume} to resume is unknown")
    check(state.bankrupt == NOBODY or state.bankrupt in seats, "a bankrupt seat is no seat")
    check(state.after in (AFTER_LAND, AFTER_WINDOW), f"unknown step after a decision {state.after}")
    check(all(0 <= a <= state.stamp for a in state.acquired), "a card acquired in the future")
    check(all(s in seats for s in state.acting), f"seat(s) {list(state.acting)} cannot act")
    check(
        0 <= state.phase < len(PHASE_NAMES),
        f"the state was left between turns (phase {state.phase})",
    )
    return problems


def invariant_problems(game: BellyRules, state: BellyState) -> list[str]:
    problems = _shape_problems(game, state)
    if problems:
        return problems
    r_count, bank = game.num_restaurants, game.bank
    for s, cash in enumerate(state.cash):
        if cash < 0:
            problems.append(f"seat {s} has negative cash {cash}")
    for c in range(game.num_cards):
        chefs, star = state.chefs[c], state.star[c]
        if not 0 <= chefs <= 2 or star not in (0, 1) or (star and chefs != 2):
            problems.append(f"{game.names[c]} has {chefs} chefs and {star} stars")
        if c >= r_count and (chefs or star or state.insured[c]):
            problems.append(f"cafe {game.names[c]} carries tokens")
        if state.owner[c] == BANK and (chefs or star or state.insured[c]):
            problems.append(f"the bank's {game.names[c]} carries tokens")
    if sum(state.chefs) > bank.chefs or sum(state.star) > bank.stars:
        problems.append("more chefs or stars on the board than exist")
    if sum(state.insured) > bank.bellyguards:
        problems.append("more BellyGuard cards in play than exist")
    golden = state.golden
    if golden >= 0 and (golden >= r_count or state.owner[golden] == BANK):
        problems.append("the Golden Belly Award sits on a card no player owns")
    if sorted(state.munch + state.deck) != list(range(len(game.munch_cards))):
        problems.append("Munchtime cards are not conserved")
    if state.deck != sorted(state.deck):
        problems.append("the Munchtime deck is not kept sorted")
    start = bank.start_money * state.num_players
    if sum(state.cash) + state.bank_net != start:
        problems.append(
            f"money is not conserved: players hold {sum(state.cash)}, the bank's net is "
            f"{state.bank_net}, but {start} was dealt"
        )
    if not 0 <= state.phase < len(PHASE_NAMES):
        problems.append(f"the state was left between turns (phase {state.phase})")
    if state.phase == OVER and state.acting:
        problems.append("the game is over but seats still act")
    return problems
