"""What a player may do now: the choices of each phase and why an action is refused
(the rulebook's choices at each space, Chefs and Star, Selling; ruling BB-13).

``legal_actions`` lists the actions ``problem`` accepts (the phase's own, then sales);
``problem`` says in words why an action is not allowed now (``None`` when it is).
Selling back to Mr. Munchwalla is allowed at every decision of one's own.

    >>> import potluck
    >>> g = potluck.load_game("belly-battle")
    >>> s = g.new_game(2, seed=1)
    >>> seat = s.acting[0]
    >>> legal_actions(g, s, seat) == g.legal_actions(s, seat)
    True
"""

from __future__ import annotations

from typing import Final

from potluck.games.belly_battle.actions import (
    ACCEPT,
    BUY,
    CHEF,
    DECLINE,
    INSURE,
    OFFER,
    PASS,
    SELL,
    SELL_CHEF,
    SELL_STAR,
    STAR,
    SWAP,
    TAKEOVER,
    TUNNEL,
    YUCK,
    BellyAction,
)
from potluck.games.belly_battle.ownership import chef_supply, owned, owns_anything, star_supply
from potluck.games.belly_battle.spaces import takeover_targets
from potluck.games.belly_battle.state import (
    BANK,
    BUY_OR_PASS,
    DEBT,
    INSURE_CHOICE,
    OVER,
    RESPOND,
    SWAP_CHOICE,
    TAKEOVER_CHOICE,
    TUNNEL_CHOICE,
    WINDOW,
    YUCK_CHOICE,
    BellyState,
)
from potluck.games.belly_battle.tables import (
    DEBT_OFFERS,
    MAX_SEATS,
    BellyTables,
    offers_within,
)

#: The other seats of an ``n``-seat table, in seat order: ``_OTHER_SEATS[n][seat]``.
_OTHER_SEATS: Final = tuple(
    tuple(tuple(other for other in range(n) if other != seat) for seat in range(n))
    for n in range(MAX_SEATS + 1)
)
# Where each card's own actions sit in ``BellyTables.card_actions``.
_SELL: Final = 0
_SELL_CHEF: Final = 1
_SELL_STAR: Final = 2
_CHEF: Final = 3
_STAR: Final = 4
#: Selling back to Mr. Munchwalla is allowed "at any time" (ruling BB-13): at every
#: decision a player has, besides the windows and debts.
SALES: Final = frozenset({SELL, SELL_CHEF, SELL_STAR})
KINDS_OF_PHASE: Final[dict[int, frozenset[int]]] = {
    BUY_OR_PASS: frozenset({BUY, PASS}) | SALES,
    TAKEOVER_CHOICE: frozenset({TAKEOVER, PASS}) | SALES,
    SWAP_CHOICE: frozenset({SWAP, PASS}) | SALES,
    INSURE_CHOICE: frozenset({INSURE, PASS}) | SALES,
    YUCK_CHOICE: frozenset({YUCK}) | SALES,
    TUNNEL_CHOICE: frozenset({TUNNEL, PASS}) | SALES,
    WINDOW: frozenset({CHEF, STAR, SELL, SELL_CHEF, SELL_STAR, OFFER, PASS}),
    RESPOND: frozenset({ACCEPT, DECLINE}) | SALES,
    DEBT: frozenset({SELL, SELL_CHEF, SELL_STAR, OFFER}),
    OVER: frozenset(),
}
#: ``KINDS_OF_PHASE`` as bit masks of kinds, by phase: ``problem`` runs at every step.
_KIND_MASKS: Final = tuple(
    sum(1 << kind for kind in KINDS_OF_PHASE[phase]) for phase in range(len(KINDS_OF_PHASE))
)
PHASE_HINT = {
    BUY_OR_PASS: "You landed on a restaurant for sale: 'buy' it or 'pass' (and pay its basic fee).",
    TAKEOVER_CHOICE: "Takeover Battle: challenge with 'takeover <card>' or 'pass'.",
    SWAP_CHOICE: "Swap Swap: 'swap <yours> for <theirs>' or 'pass'.",
    INSURE_CHOICE: "BellyGuard Insurance: 'insure <restaurant>' or 'pass'.",
    YUCK_CHOICE: "Yuck! Choose the player you pay 50 to: 'yuck <seat>'.",
    TUNNEL_CHOICE: "Tunnel: go through with 'tunnel' or stay with 'pass'.",
    WINDOW: ("Upgrade window: buy a chef or star, sell to the bank, make an offer, or 'pass'."),
    RESPOND: "Answer the offer: 'accept' or 'decline'.",
    DEBT: (
        "You owe more than your cash: sell a card, chef or star to the bank, or offer a "
        "card to a player, until you can pay."
    ),
    OVER: "The game is over.",
}
#: What the seat to act must do, for "not your turn" messages.
PHASE_DOING = {
    BUY_OR_PASS: "buy or pass",
    TAKEOVER_CHOICE: "choose a takeover",
    SWAP_CHOICE: "choose a swap",
    INSURE_CHOICE: "choose a restaurant to insure",
    YUCK_CHOICE: "choose who gets the Yuck! compensation",
    TUNNEL_CHOICE: "choose whether to take the tunnel",
    WINDOW: "deal or pass in the upgrade window",
    RESPOND: "answer an offer",
    DEBT: "raise cash to pay a debt",
    OVER: "nothing",
}


def legal_actions(game: BellyTables, state: BellyState, seat: int) -> list[BellyAction]:
    """The actions ``seat`` may take now (none if it is not to act): the phase's own
    choices, then sales to the bank, each part in index order (a window's or debt's
    deals are all in index order).

    Built directly from the state, without trying each candidate on ``problem``: this
    runs at every step of every simulation. ``problem`` accepts exactly these (the
    tests check it along whole games)."""
    if seat not in state.acting:
        return []
    phase = state.phase
    if phase in (WINDOW, DEBT):
        return _deals(game, state, seat, phase)
    if phase == BUY_OR_PASS:
        card = game.space_card[state.pos[seat]]
        if state.cash[seat] >= game.price[card]:
            out = [game.pass_action, game.buy_action]
        else:
            out = [game.pass_action]
    elif phase == RESPOND:
        out = [game.accept_action, game.decline_action]
    elif phase == TUNNEL_CHOICE:
        out = [game.pass_action, game.tunnel_action]
    elif phase == YUCK_CHOICE:
        base = game.first[YUCK]
        acts = game.actions
        out = [acts[base + s] for s in range(state.num_players) if s != seat]
    elif phase in (TAKEOVER_CHOICE, SWAP_CHOICE, INSURE_CHOICE):
        out = _space_choices(game, state, seat, phase)
    else:
        return []
    if owns_anything(state, seat):
        out += _sales(game, state, seat)
    return out


def _space_choices(
    game: BellyTables, state: BellyState, seat: int, phase: int
) -> list[BellyAction]:
    """Pass, then the legal takeovers, swaps or insurances, in index order."""
    acts, owner, insured = game.actions, state.owner, state.insured
    out = [game.pass_action]
    if phase == TAKEOVER_CHOICE:
        base = game.first[TAKEOVER]
        out += [acts[base + c] for c in takeover_targets(game, state, seat)]
    elif phase == SWAP_CHOICE:
        r_count = game.num_restaurants
        mine = [c for c in range(r_count) if owner[c] == seat and not insured[c]]
        theirs = [c for c in range(r_count) if owner[c] not in (BANK, seat) and not insured[c]]
        base = game.first[SWAP]
        out += [acts[base + a * r_count + b] for a in mine for b in theirs]
    else:
        base = game.first[INSURE]
        out += [
            acts[base + c]
            for c in range(game.num_restaurants)
            if owner[c] == seat and not insured[c]
        ]
    return out


def _sales(game: BellyTables, state: BellyState, seat: int) -> list[BellyAction]:
    """The legal sales to the bank: every card, then every chef of a starless
    restaurant, then every star."""
    chefs, star, per_card = state.chefs, state.star, game.card_actions
    r_count = game.num_restaurants
    sells: list[BellyAction] = []
    sell_chefs: list[BellyAction] = []
    sell_stars: list[BellyAction] = []
    for c in owned(state, seat):
        acts = per_card[c]
        sells.append(acts[_SELL])
        if c < r_count:
            if star[c]:
                sell_stars.append(acts[_SELL_STAR])
            elif chefs[c]:
                sell_chefs.append(acts[_SELL_CHEF])
    return sells + sell_chefs + sell_stars


def _deals(game: BellyTables, state: BellyState, seat: int, phase: int) -> list[BellyAction]:
    """The legal deals of a window (after ``pass``) or a debt, in index order: chefs
    and stars (window only), sales to the bank, then the offers each buyer can pay.

    Plain loops over the state's lists (no ``zip``, ``bisect`` or ``min``, whose calls
    cost more than the work under mypyc: this runs at most steps of a greedy playout)."""
    chefs, star, cash, per_card = state.chefs, state.star, state.cash, game.card_actions
    r_count = game.num_restaurants
    window = phase == WINDOW
    money = cash[seat]
    mine = owned(state, seat)
    # Each part straight into ``out``, a pass over the seat's few cards each, rather
    # than a list per part joined at the end (those lists were most of this function).
    out: list[BellyAction] = []
    if window:
        out.append(game.pass_action)
        # Tokens are bought only while the supply lasts (Chefs and Star).
        # (The supply is counted at the first token that could be bought, if any: a list
        # built and then cut when it was out cost a tenth of this function.)
        chef_price, star_price = game.chef_price, game.star_price
        supply = -1  # not counted yet
        for c in mine:
            if c < r_count and not star[c] and chefs[c] < 2 and money >= chef_price[c]:
                if supply < 0:
                    supply = chef_supply(game, state)
                if supply <= 0:
                    break
                out.append(per_card[c][_CHEF])
        supply = -1
        for c in mine:
            if c < r_count and not star[c] and chefs[c] >= 2 and money >= star_price[c]:
                if supply < 0:
                    supply = star_supply(game, state)
                if supply <= 0:
                    break
                out.append(per_card[c][_STAR])
    for c in mine:
        out.append(per_card[c][_SELL])
    for c in mine:
        if c < r_count and not star[c] and chefs[c]:
            out.append(per_card[c][_SELL_CHEF])
    for c in mine:
        if c < r_count and star[c]:
            out.append(per_card[c][_SELL_STAR])
    if window:
        if state.window_offered:
            return out  # the window's one offer is made
    elif state.debt_offers <= 0:
        return out  # the debt's two offers are made
    n = state.num_players
    others = _OTHER_SEATS[n][seat]
    poorest = -1
    for other in others:
        if poorest < 0 or cash[other] < poorest:
            poorest = cash[other]
    every_offer, cheapest, card_price, dearest = (
        game.offers_to_others[n][seat],
        game.cheapest_offers,
        game.price,
        game.dearest_offer,
    )
    for c in mine:
        if poorest >= dearest[c]:
            # Every buyer can pay every price (one comparison: ``offers_within`` of the
            # poorest is then all of them).
            out.extend(every_offer[c])
            continue
        price = card_price[c]
        to_seat = cheapest[c]
        for other in others:
            # Offers come cheapest first: those the buyer can pay are a prefix.
            affordable = offers_within(price, cash[other])
            if affordable:
                out.extend(to_seat[other][affordable])
    return out


def problem(game: BellyTables, state: BellyState, seat: int, action: BellyAction) -> str | None:
    """``None`` if ``seat`` (who is to act) may take ``action`` now, else why not."""
    kind, phase = action.kind, state.phase
    if not _KIND_MASKS[phase] >> kind & 1:  # ``kind not in KINDS_OF_PHASE[phase]``
        return PHASE_HINT[phase]
    card, names = action.card, game.names
    owner, cash = state.owner, state.cash
    if kind == PASS:
        return None
    if kind == BUY:
        card = game.space_card[state.pos[seat]]
        if cash[seat] < game.price[card]:
            return (
                f"You cannot buy {names[card]}: it costs {game.price[card]} and you "
                f"have {cash[seat]}."
            )
        return None
    if kind in (TUNNEL, ACCEPT, DECLINE):
        return None
    if kind == OFFER:  # the commonest deal, checked before the rarer ones
        return _offer_problem(game, state, seat, action)
    if kind == YUCK:
        if action.other == seat:
            return "Yuck! You pay the 50 to another player, not to yourself."
        if action.other >= state.num_players:
            return f"There is no seat {action.other} at this table."
        return None
    if kind == TAKEOVER:
        if owner[card] in (BANK, seat):
            return (
                f"Takeover Battle: {names[card]} is not another player's "
                f"{'restaurant' if owner[card] == BANK else 'card: it is yours'}."
            )
        if state.insured[card]:
            return f"{names[card]} has BellyGuard Insurance: it cannot be taken over."
        return None
    if kind == SWAP:
        other = action.other
        if owner[card] != seat:
            return f"Swap Swap: you do not own {names[card]}."
        if owner[other] in (BANK, seat):
            return f"Swap Swap: {names[other]} is not another player's restaurant."
        for c in (card, other):
            if state.insured[c]:
                return f"{names[c]} has BellyGuard Insurance: it cannot be swapped."
        return None
    if owner[card] != seat:
        return f"You do not own {names[card]}."
    if kind == INSURE:
        if state.insured[card]:
            return f"{names[card]} is insured already."
        return None
    if kind == CHEF:
        if state.star[card] or state.chefs[card] >= 2:
            return f"{names[card]} has its 2 chefs already (the most a restaurant may have)."
        if chef_supply(game, state) <= 0:
            return "Mr. Munchwalla has no chef tokens left."
        if cash[seat] < game.chef_price[card]:
            return f"A chef for {names[card]} costs {game.chef_price[card]}; you have {cash[seat]}."
        return None
    if kind == STAR:
        if state.star[card]:
            return f"{names[card]} has its star already."
        if state.chefs[card] < 2:
            return f"A star needs two chefs first; {names[card]} has {state.chefs[card]}."
        if star_supply(game, state) <= 0:
            return "Mr. Munchwalla has no star tokens left."
        if cash[seat] < game.star_price[card]:
            return f"A star for {names[card]} costs {game.star_price[card]}; you have {cash[seat]}."
        return None
    if kind == SELL:
        return None
    if kind == SELL_CHEF:
        if not state.chefs[card]:
            return f"{names[card]} has no chef to sell."
        if state.star[card]:
            return f"Sell {names[card]}'s star first: a star needs its two chefs."
        return None
    if kind == SELL_STAR and not state.star[card]:
        return f"{names[card]} has no star to sell."
    return None


def _offer_problem(
    game: BellyTables, state: BellyState, seat: int, action: BellyAction
) -> str | None:
    """Why ``seat`` may not make the offer ``action`` now (``problem``'s offer part)."""
    card, cash, phase = action.card, state.cash, state.phase
    if state.owner[card] != seat:
        return f"You do not own {game.names[card]}."
    buyer = action.other
    if buyer == seat or buyer >= state.num_players:
        return "Offer your card to another seat at the table."
    if phase == WINDOW and state.window_offered:
        return "You have made your one offer of this window."
    if phase == DEBT and state.debt_offers <= 0:
        return f"You have made your {DEBT_OFFERS} offers for this debt: sell to the bank."
    if cash[buyer] < action.amount:
        return f"Seat {buyer} has only {cash[buyer]}, less than {action.amount}."
    return None
