"""Diagnostic: which kinds of Belly Battle decision does the greedy bot get wrong?

One seat plays the greedy bot with one hand-written change (a *lever*) to one kind of
decision; three default greedy bots play the other seats. Game ``i`` is dealt from
``seed + i`` with the changed seat in seat ``i % 4``, and the same deal is played
again with the plain greedy bot in that seat, so each deal gives a paired difference
of the win share (as ``examples/ismcts_strength.py --baseline greedy`` pairs). A
compiled greedy game costs a few milliseconds, so 500 paired deals take seconds and
a lever is judged by whole games, not by a search's estimates.

    python examples/belly_policy_screen.py --levers sell-star,strip --games 500 \\
        --seed 99000 --json

Levers named ``no-<kind>`` play ``pass`` wherever greedy would play that kind of move
(how much the decision is worth at all); the others are the rules below (``LEVERS``).
Several levers given together act together (the first that changes a move wins).
A lever decides from the seat's view only (``needs_view``: the whole view, since a
debt's amount is in it).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import potluck
from potluck.agents import decide, make_agent
from potluck.engine.action import Action
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
    BellyAction,
)
from potluck.games.belly_battle.seat_info import SeatInfo
from potluck.games.belly_battle.state import DEBT, RESPOND
from potluck.games.belly_battle.tables import BellyTables
from potluck.sim import bot_rng

#: A lever: (tables, seat's information, whole view, legal moves, greedy's move) ->
#: the move to play instead, or ``None`` to keep greedy's.
Lever = Callable[
    [BellyTables, SeatInfo, Mapping[str, Any], Sequence[BellyAction], BellyAction],
    BellyAction | None,
]


def _first(legal: Sequence[BellyAction], kind: int, card: int | None = None) -> BellyAction | None:
    for action in legal:
        if action.kind == kind and (card is None or action.card == card):
            return action
    return None


def _leads(info: SeatInfo) -> bool:
    wealth = info.wealth
    return all(wealth[info.seat] > w for s, w in enumerate(wealth) if s != info.seat)


def _debtor_offers(view: Mapping[str, Any]) -> bool:
    debt, offer = view["debt"], view["offer"]
    return bool(debt and offer and debt["payer"] == offer["seller"])


def sell_star(
    game: BellyTables,
    info: SeatInfo,
    view: Mapping[str, Any],
    legal: Sequence[BellyAction],
    move: BellyAction,
) -> BellyAction | None:
    """In debt, sell a starred card's star, not the card (``greedy-thrifty``)."""
    return _first(legal, SELL_STAR, move.card) if move.kind == SELL else None


def sell_any_star(
    game: BellyTables,
    info: SeatInfo,
    view: Mapping[str, Any],
    legal: Sequence[BellyAction],
    move: BellyAction,
) -> BellyAction | None:
    """In debt, sell any star (the lowest star fee) rather than any card."""
    if info.phase != DEBT or move.kind != SELL:
        return None
    stars = [a for a in legal if a.kind == SELL_STAR]
    return min(stars, key=lambda a: (game.fees[a.card][3], a.index)) if stars else None


def strip(
    game: BellyTables,
    info: SeatInfo,
    view: Mapping[str, Any],
    legal: Sequence[BellyAction],
    move: BellyAction,
) -> BellyAction | None:
    """Sell a card's star, then its chefs, before swapping it away (``greedy-thrifty``)."""
    if move.kind != SWAP:
        return None
    return _first(legal, SELL_STAR, move.card) or _first(legal, SELL_CHEF, move.card)


def leader_declines(
    game: BellyTables,
    info: SeatInfo,
    view: Mapping[str, Any],
    legal: Sequence[BellyAction],
    move: BellyAction,
) -> BellyAction | None:
    """Leading in wealth, decline a card a seat in debt offers (so the game ends sooner)."""
    if info.phase == RESPOND and move.kind == ACCEPT and _debtor_offers(view) and _leads(info):
        return _first(legal, DECLINE)
    return None


def accept_fair(
    game: BellyTables,
    info: SeatInfo,
    view: Mapping[str, Any],
    legal: Sequence[BellyAction],
    move: BellyAction,
) -> BellyAction | None:
    """Accept any offer at no more than the card's wealth that the cash pays, reserve or not."""
    if info.phase != RESPOND or move.kind != DECLINE:
        return None
    card = info.offer_card
    worth = game.price[card] + 50 * info.chefs[card] + 150 * info.stars[card]
    ok = info.offer_price <= worth and info.cash[info.seat] >= info.offer_price
    return _first(legal, ACCEPT) if ok else None


def decline_all(
    game: BellyTables,
    info: SeatInfo,
    view: Mapping[str, Any],
    legal: Sequence[BellyAction],
    move: BellyAction,
) -> BellyAction | None:
    """Decline every offer."""
    return _first(legal, DECLINE) if move.kind == ACCEPT else None


def _completes_triple(game: BellyTables, info: SeatInfo, card: int, buyer: int) -> bool:
    if card >= game.num_restaurants:
        return False
    return any(
        all(c == card or info.owners[c] == buyer for c in trio) for trio in game.triples[card]
    )


def triple_sale(
    game: BellyTables,
    info: SeatInfo,
    view: Mapping[str, Any],
    legal: Sequence[BellyAction],
    move: BellyAction,
) -> BellyAction | None:
    """Outside a debt, sell a card above its wealth to a rival whose three in a row it
    completes, at the dearest price the greedy rival accepts (at most 1.5 times the
    card's wealth, keeping its reserve of 120): what the search often does instead of
    passing."""
    if info.phase == DEBT or move.kind != PASS:
        return None
    best: BellyAction | None = None
    for action in legal:
        if action.kind != OFFER:
            continue
        card, buyer, price = action.card, action.other, action.amount
        worth = game.price[card] + 50 * info.chefs[card] + 150 * info.stars[card]
        if (
            worth < price <= worth * 1.5
            and info.cash[buyer] - price >= 120
            and _completes_triple(game, info, card, buyer)
            and (best is None or price > best.amount)
        ):
            best = action
    return best


def worth_offer(
    game: BellyTables,
    info: SeatInfo,
    view: Mapping[str, Any],
    legal: Sequence[BellyAction],
    move: BellyAction,
) -> BellyAction | None:
    """In debt, where the move sells a card or a star to the bank (a loss of half the
    card's price and 100 a star, or 100), offer a card instead to a rival whose greedy
    answer accepts it (at most the card's wealth, 1.5 times that where it completes the
    rival's three in a row; the rival keeps its reserve of 120), the offer that loses
    the least wealth (then the poorest buyer), if it loses less than the sale."""
    if info.phase != DEBT or move.kind not in (SELL, SELL_STAR):
        return None
    if move.kind == SELL_STAR:
        lost = 100
    else:
        lost = game.price[move.card] // 2 + 100 * info.stars[move.card]
    best: BellyAction | None = None
    best_key: tuple[int, int] = (lost, 0)
    for action in legal:
        if action.kind != OFFER:
            continue
        card, buyer, price = action.card, action.other, action.amount
        worth = game.price[card] + 50 * info.chefs[card] + 150 * info.stars[card]
        limit = worth * 1.5 if _completes_triple(game, info, card, buyer) else worth
        if price > limit or info.cash[buyer] - price < 120:
            continue
        key = (worth - price, info.wealth[buyer])
        if key < best_key:
            best, best_key = action, key
    return best


def _never(kind: int) -> Lever:
    def lever(
        game: BellyTables,
        info: SeatInfo,
        view: Mapping[str, Any],
        legal: Sequence[BellyAction],
        move: BellyAction,
    ) -> BellyAction | None:
        return _first(legal, PASS) if move.kind == kind else None

    return lever


def _reserve(rule: Callable[[BellyTables, SeatInfo], int]) -> Lever:
    """The greedy bot's own move with another cash reserve, chosen per decision."""
    bots: dict[int, Any] = {}
    game = potluck.load_game("belly-battle")

    def lever(
        tables: BellyTables,
        info: SeatInfo,
        view: Mapping[str, Any],
        legal: Sequence[BellyAction],
        move: BellyAction,
    ) -> BellyAction | None:
        reserve = rule(tables, info)
        if reserve not in bots:
            bots[reserve] = make_agent(game, f"greedy:reserve={reserve}")
        choice: BellyAction = bots[reserve].choose(tables, info, info.seat, legal, random.Random(0))
        return choice

    return lever


def _reserve_for(kinds: tuple[int, ...], reserve: int) -> Lever:
    """``greedy:reserve=R``'s move where it is of one of ``kinds`` (a buy, an upgrade, an
    acceptance): the lower reserve for those decisions alone."""
    lower = _reserve(lambda game, info: reserve)

    def lever(
        tables: BellyTables,
        info: SeatInfo,
        view: Mapping[str, Any],
        legal: Sequence[BellyAction],
        move: BellyAction,
    ) -> BellyAction | None:
        other = lower(tables, info, view, legal, move)
        return other if other is not None and other.kind in kinds else None

    return lever


def _danger_reserve(game: BellyTables, info: SeatInfo) -> int:
    """120, or the dearest fee a roll from here may land on, if more."""
    here, worst = info.positions[info.seat], 0
    for roll in range(2, 13):
        card = game.space_card[(here + roll) % game.board_size]
        if card >= 0 and info.owners[card] not in (-1, info.seat):
            worst = max(worst, info.fees[card])
    return max(120, worst)


LEVERS: dict[str, Lever] = {
    "sell-star": sell_star,
    "sell-any-star": sell_any_star,
    "strip": strip,
    "triple-sale": triple_sale,
    "worth-offer": worth_offer,
    "leader-declines": leader_declines,
    "accept-fair": accept_fair,
    "decline-all": decline_all,
    "reserve-60": _reserve(lambda game, info: 60),
    "reserve-0": _reserve(lambda game, info: 0),
    "reserve-30": _reserve(lambda game, info: 30),
    "buy-reserve-0": _reserve_for((BUY,), 0),
    "upgrade-reserve-0": _reserve_for((CHEF, STAR), 0),
    "accept-reserve-0": _reserve_for((ACCEPT,), 0),
    "reserve-danger": _reserve(_danger_reserve),
    "reserve-by-lead": _reserve(lambda game, info: 200 if _leads(info) else 60),
    **{
        f"no-{name}": _never(kind)
        for name, kind in (
            ("buy", BUY),
            ("swap", SWAP),
            ("takeover", TAKEOVER),
            ("tunnel", TUNNEL),
            ("insure", INSURE),
            ("chef", CHEF),
            ("star", STAR),
        )
    },
}


class LeverBot:
    """The greedy bot with the named levers applied to its moves."""

    name = spec = "lever"
    needs_view = True
    compact_view = False

    def __init__(self, game: Any, names: Sequence[str]) -> None:
        # Belly Battle's greedy bot also reads a ``SeatInfo`` (a ``Bot`` is typed to read views).
        self.greedy: Any = make_agent(game, "greedy")
        self.levers = [(name, LEVERS[name]) for name in names]
        self.changed: Counter[str] = Counter()

    def choose(
        self,
        game: BellyTables,
        view: Mapping[str, Any],
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        info = SeatInfo.from_view(game, view, seat)
        move: Action = self.greedy.choose(game, info, seat, legal, rng)
        if len(legal) == 1 or not isinstance(move, BellyAction):
            return move
        moves = [a for a in legal if isinstance(a, BellyAction)]
        for name, lever in self.levers:
            other = lever(game, info, view, moves, move)
            if other is not None and other != move:
                self.changed[name] += 1
                return other
        return move


def one_game(game: Any, deal: int, hero: int, tested: Any, greedy: Any) -> float:
    state = game.new_game(4, deal)
    rngs = [bot_rng(deal, seat) for seat in range(4)]
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        action = decide(tested if seat == hero else greedy, game, state, seat, rngs[seat])
        game.step(state, seat, action)
    share: float = game.outcome(state).win_shares()[hero]
    return share


def screen(names: Sequence[str], games: int, seed: int) -> dict[str, Any]:
    game = potluck.load_game("belly-battle")
    greedy = make_agent(game, "greedy")
    tested = LeverBot(game, names)
    diffs, shares, base = [], [], []
    for i in range(games):
        mine = one_game(game, seed + i, i % 4, tested, greedy)
        plain = one_game(game, seed + i, i % 4, greedy, greedy)
        shares.append(mine)
        base.append(plain)
        diffs.append(mine - plain)
    return {
        "levers": list(names),
        "games": games,
        "seed": seed,
        "win_share": statistics.mean(shares),
        "greedy_win_share": statistics.mean(base),
        "paired_difference": statistics.mean(diffs),
        "paired_difference_stderr": statistics.stdev(diffs) / games**0.5 if games > 1 else 0.0,
        "deals_ended_differently": sum(1 for d in diffs if d),
        "moves_changed": dict(tested.changed),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levers", required=True, help="comma-separated: " + ", ".join(LEVERS))
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    names = [name.strip() for name in args.levers.split(",") if name.strip()]
    unknown = [name for name in names if name not in LEVERS]
    if unknown:
        parser.error(f"no lever {unknown}; there are {', '.join(LEVERS)}")
    result = screen(names, args.games, args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{'+'.join(names)}: {result['win_share']:.3f} against greedy's "
            f"{result['greedy_win_share']:.3f} in the same seats, paired "
            f"{result['paired_difference']:+.3f} ± {result['paired_difference_stderr']:.3f} "
            f"({result['deals_ended_differently']} deals ended differently)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
