"""What every Belly Battle state keeps true: the shape of a save, money conserved, each
seat's holdings the cards the owners give it, tokens within their supplies and rules,
Munchtime cards conserved, no negative cash (checked by the conformance suite at every
step, and by ``from_json`` on a save).

    >>> import potluck
    >>> g = potluck.load_game("belly-battle")
    >>> invariant_problems(g, g.new_game(3, seed=1))
    []
"""

from __future__ import annotations

from potluck.games.belly_battle.ownership import holdings_of
from potluck.games.belly_battle.state import (
    AFTER_LAND,
    AFTER_WINDOW,
    BANK,
    NOBODY,
    OVER,
    PHASE_NAMES,
    ROUND_CARD_NAMES,
    BellyState,
)
from potluck.games.belly_battle.tables import (
    DEBT_OFFERS,
    MAX_ROUNDS_LIMIT,
    WINDOW_CAP,
    BellyTables,
)


def _shape_problems(game: BellyTables, state: BellyState) -> list[str]:
    """Every list the right length and every number in its range: what a hand-edited save
    can break before the rules' own checks can even be read."""
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
            ("holdings", n),
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
    check(all(s in seats for s in state.window_waiting), "the window waits for no seat")
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


def invariant_problems(game: BellyTables, state: BellyState) -> list[str]:
    """Every broken invariant of ``state``, in words (none: an empty list)."""
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
    for s in range(state.num_players):
        if state.holdings[s] != holdings_of(state.owner, s):
            problems.append(f"seat {s}'s holdings (bits) are not the cards the owners give it")
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
