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
from dataclasses import dataclass
from typing import Any

from potluck.engine.chance import shuffle
from potluck.games.belly_battle.munch_fees import listed_fee
from potluck.games.belly_battle.ownership import chef_supply, guard_supply, star_supply
from potluck.games.belly_battle.scoring import holdings_worth, outcome
from potluck.games.belly_battle.seat_info import SeatInfo, shown_round
from potluck.games.belly_battle.state import (
    BANK,
    DEBT,
    NOBODY,
    OVER,
    PHASE_NAMES,
    RESPOND,
    ROUND_CARD_NAMES,
    BellyState,
)
from potluck.games.belly_battle.tables import GAME_ID, BellyTables


def _munch_json(game: BellyTables, card: int) -> list[str]:
    return list(game.munch_card_cuisines[card])


@dataclass(slots=True)
class _Shared:
    """The parts of a view kept on the game between views (``BellyTables.view_memo``)
    while the cards and then the players stay the same; shared by those views, like the
    board: read them, never change them (the lists holding them are each view's own)."""

    #: What the card parts depend on: the table size and every card's state (copies of
    #: the state's lists, compared list to list: a key of tuples built at every view
    #: was half of a greedy decision's input, issue 36).
    num_players: int
    owner: list[int]
    chefs_by_card: list[int]
    star: list[int]
    insured: list[bool]
    holders: list[int]
    golden: int
    cards: list[dict[str, Any]]
    worth: list[int]  # each seat's cards, chefs and stars (``scoring.holdings_worth``)
    holdings: list[list[str]]
    round_cards: dict[str, int | None]
    supply: tuple[int, int, int]  # chefs, stars, BellyGuard cards left
    #: What the players' entries depend on besides the cards, and the entries (one
    #: tuple, replaced whole: views built in two threads at once never mix them).
    players: tuple[tuple[Any, ...], list[dict[str, Any]]] = ((), [])


def _shared(game: BellyTables, state: BellyState) -> _Shared:
    """The view's card entries, round cards, supplies and each seat's holdings.

    A bot reading views gets one at every decision, and the cards seldom change from
    one decision to the next (four window turns in a row, mostly passes): the last
    table's parts are kept on the game and given out again while the cards stay the
    same."""
    owner, chefs, star, insured, holders = (
        state.owner,
        state.chefs,
        state.star,
        state.insured,
        state.holders,
    )
    memo = game.view_memo
    if (
        isinstance(memo, _Shared)
        and memo.owner == owner
        and memo.chefs_by_card == chefs
        and memo.star == star
        and memo.holders == holders
        and memo.insured == insured
        and memo.golden == state.golden
        and memo.num_players == state.num_players
    ):
        return memo
    slugs, bank_card = game.slugs, game.bank_card_json
    golden = state.golden
    holdings: list[list[str]] = [[] for _ in range(state.num_players)]
    entries: list[dict[str, Any]] = []
    for c, who in enumerate(owner):
        if who == BANK:
            # The bank's cards carry no tokens: its entry is always the same.
            entries.append(bank_card[c])
            continue
        entries.append(
            {
                "card": slugs[c],
                "owner": who,
                "chefs": chefs[c],
                "star": star[c],
                "insured": insured[c],
                "fee": listed_fee(game, owner, chefs, star, holders, golden, c),
            }
        )
        holdings[who].append(slugs[c])
    memo = _Shared(
        state.num_players,
        owner.copy(),
        chefs.copy(),
        star.copy(),
        insured.copy(),
        holders.copy(),
        golden,
        entries,
        holdings_worth(game, owner, chefs, star, state.num_players),
        holdings,
        {ROUND_CARD_NAMES[k]: (None if h == NOBODY else h) for k, h in enumerate(holders)},
        (chef_supply(game, state), star_supply(game, state), guard_supply(game, state)),
    )
    game.view_memo = memo
    return memo


def _players(game: BellyTables, state: BellyState, shared: _Shared) -> list[dict[str, Any]]:
    """Each seat's entry: cash, position, wealth, cards (kept while none of it changes)."""
    cash, pos, tunnel_used = state.cash, state.pos, state.tunnel_used
    key = (tuple(cash), tuple(pos), tuple(tunnel_used), state.bankrupt)
    kept_key, players = shared.players
    if kept_key != key:
        worth, holdings, space_names = shared.worth, shared.holdings, game.space_names
        players = [
            {
                "seat": s,
                "cash": cash[s],
                "position": pos[s],
                "space": space_names[pos[s]],
                "wealth": cash[s] + worth[s],
                "cards": holdings[s],
                "tunnel_used": tunnel_used[s],
                "bankrupt": state.bankrupt == s,
            }
            for s in range(state.num_players)
        ]
        shared.players = (key, players)
    return list(players)


def _offer(game: BellyTables, state: BellyState) -> dict[str, Any] | None:
    """The offer awaiting an answer, or ``None``."""
    if state.phase != RESPOND:
        return None
    seller, card, buyer, price = state.offer
    return {"seller": seller, "card": game.slugs[card], "buyer": buyer, "price": price}


def build_seat_info(game: BellyTables, state: BellyState, seat: int) -> SeatInfo:
    """What the greedy bot reads (``Game.bot_view``): the entries of ``seat``'s view that
    ``SeatInfo.from_view`` reads (``SeatInfo.from_state``)."""
    return SeatInfo.from_state(game, state, seat)


def build_view(game: BellyTables, state: BellyState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know (``None``: a spectator), JSON-ready. Its card and player
    entries are shared with other views of the same table (``_Shared``)."""
    n = state.num_players
    shared = _shared(game, state)
    slugs = game.slugs
    chefs_left, stars_left, guards_left = shared.supply
    phase = state.phase
    view: dict[str, Any] = {
        "game": GAME_ID,
        "seat": seat,
        "num_players": n,
        "round": shown_round(state),
        "max_rounds": state.options["max_rounds"],
        "turn": state.turn,
        "phase": PHASE_NAMES[phase],
        "to_act": list(state.acting),
        "dice": list(state.dice),
        "players": _players(game, state, shared),
        "cards": list(shared.cards),
        "golden_belly": slugs[state.golden] if state.golden >= 0 else None,
        "round_cards": dict(shared.round_cards),
        # Fixed data shared by every view (read it, never change it).
        "board": game.board_json,
        "supply": {
            "chefs": chefs_left,
            "stars": stars_left,
            "bellyguards": guards_left,
            "munchtime_cards": len(state.deck),
        },
        "window": {
            "deals_made": state.window_actions,
            "offered": state.window_offered,
            "still_to_act": state.window_waiting[::-1],
        },
        "offer": _offer(game, state),
        "debt": None,
        "log": list(state.log),
    }
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
        result = outcome(game, state)
        view["final_scores"] = list(result.scores)
        view["winners"] = list(result.winners)
        view["result"] = result.reason
    return view


def redeal(game: BellyTables, state: BellyState, seat: int, rng: random.Random) -> BellyState:
    """Redraw the Munchtime cards ``seat`` has not seen and the deck; reseed the dice."""
    twin = state.clone()
    unseen = [
        other
        for other in range(state.num_players)
        if other != seat and not state.knows[seat] >> other & 1
    ]
    pool = sorted(twin.deck + [twin.munch[other] for other in unseen])
    shuffle(rng, pool)
    for other in unseen:
        twin.munch[other] = pool.pop()
    twin.deck = sorted(pool)
    twin.seed_rng(rng.getrandbits(64))
    return twin
