"""``greedy-thrifty``: Belly Battle's greedy bot with two sales it leaves out.

A card changes hands with its chefs and star (a swap gives them to the rival), and a
card sold to the bank returns half its printed price plus 50 a token; the final count
values a chef at 50 and a star at 150, and ruling BB-13 lets a seat sell to the bank
at any decision of its own. The greedy bot (``potluck.games.belly_battle.bots``) sells
only in windows and debts, and two of its choices give wealth away for nothing:

- **In debt it sells a whole card that carries a star** (once no chef is left to sell
  alone: a card's chefs may be sold only after its star). Selling the card loses half
  its printed price and the star's 100 (150 counted, 50 paid); selling the star alone
  loses the same 100 and keeps the card, its chefs and its fees, and raises 50, after
  which the greedy bot's own order sells the chefs (no loss) before any card. So where
  the greedy bot sells a starred card, this bot sells that card's star.
- **Before a swap it gives the card away with its tokens**: each chef then costs 50 of
  wealth and the star 150. Sold to the bank first, a chef loses nothing and a star 100.
  So where the greedy bot swaps a card away, this bot first sells its star, then its
  chefs, one decision at a time (the swap decision stays open: a sale is a deal that
  keeps the turn), and asks the greedy bot again each time.

Everything else is the greedy bot's own choice, with its own weights (the same
parameters, ``greedy-thrifty:reserve=200``). On development deals (docs/bots.md, "Belly
Battle: where the greedy bot's own policy is wrong") one such seat against three
greedy bots won more than the greedy bot in the same seats; the search can follow it
(``ismcts:guide=greedy-thrifty``: its prior move and its own moves in rollouts; the
other seats stay greedy).

    >>> import potluck, random
    >>> game = potluck.load_game("belly-battle")
    >>> bot = ThriftyGreedy(reserve=200)
    >>> bot.greedy.weights.reserve
    200
    >>> state = game.new_game(4, seed=3)
    >>> seat = game.to_act(state)[0]
    >>> legal = game.legal_actions(state, seat)
    >>> bot.choose(game, game.bot_view(state, seat), seat, legal, random.Random(0)) in legal
    True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from potluck.engine.action import Action
from potluck.engine.bots import Bot
from potluck.engine.botspec import BotParam
from potluck.games.belly_battle.actions import (
    DECLINE,
    OFFER,
    PASS,
    SELL,
    SELL_CHEF,
    SELL_STAR,
    SWAP,
    BellyAction,
)
from potluck.games.belly_battle.bots import GreedyBot
from potluck.games.belly_battle.seat_info import SeatInfo
from potluck.games.belly_battle.tables import BellyTables
from potluck.search.bot_names import THRIFTY_NAME


class ThriftyGreedy:
    """Belly Battle's greedy bot, with a starred card's star sold instead of the card in
    debt and a card's tokens sold before it is swapped away (the module docstring)."""

    name = THRIFTY_NAME
    spec = THRIFTY_NAME
    needs_view = True
    #: Reads what the greedy bot reads (its ``SeatInfo``), and nothing more.
    compact_view = True
    params: ClassVar[tuple[BotParam, ...]] = GreedyBot.params

    def __init__(self, **weights: Any) -> None:
        self.greedy = GreedyBot(**weights)

    def choose(
        self,
        game: BellyTables,
        view: Mapping[str, Any] | SeatInfo | None,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        move = self.greedy.choose(game, view, seat, legal, rng)
        if not isinstance(move, BellyAction):
            return move
        if move.kind == SELL:
            # The greedy bot sells cards only to pay a debt; a star on the card shows as
            # its sell-star being legal.
            star = _sale_of(legal, SELL_STAR, move.card)
            return move if star is None else star
        if move.kind == SWAP:
            token = _sale_of(legal, SELL_STAR, move.card) or _sale_of(legal, SELL_CHEF, move.card)
            return move if token is None else token
        return move


def _sale_of(legal: Sequence[Action], kind: int, card: int) -> BellyAction | None:
    """The legal sale of ``kind`` (a star or a chef) on ``card``, if there is one."""
    for action in legal:
        if isinstance(action, BellyAction) and action.kind == kind and action.card == card:
            return action
    return None


def board_moves(legal: Sequence[Action], favourite: Action | None) -> list[Action]:
    """The root moves ``ismcts:focus=board`` compares in Belly Battle: every move in a
    debt (no ``pass`` or ``decline`` among them), else the guide's move and every move
    that is not a sale to the bank or an offer.

    Outside a debt a sale to the bank loses wealth (half a card's price, 100 for a
    star) and the greedy rivals accept an offer only at up to the card's wealth (more
    where it completes their three in a row), so most of a window's 20-45 moves are
    sales and offers, and a comparison over all of them gives each one or two worlds
    in its first round; without them the playouts go to the moves that build (buy,
    upgrade, challenge, swap, insure, tunnel, answer an offer). The guide's own sale
    (``greedy-thrifty`` selling a card's tokens before a swap) stays.

        >>> import potluck
        >>> game = potluck.load_game("belly-battle")
        >>> state = game.new_game(4, seed=3)
        >>> seat = game.to_act(state)[0]
        >>> legal = game.legal_actions(state, seat)  # a window: pass, a chef, a sale, offers
        >>> len(legal), [game.describe_action(state, seat, a) for a in board_moves(legal, legal[0])]
        (15, ['Done: end my upgrades', 'Add a chef to Madras Spice Mill (50)'])
    """
    moves = [a for a in legal if isinstance(a, BellyAction)]
    if not any(a.kind in (PASS, DECLINE) for a in moves):
        return list(legal)
    return [a for a in legal if a == favourite or not _dealing(a)]


def _dealing(action: Action) -> bool:
    return isinstance(action, BellyAction) and action.kind in (SELL, SELL_CHEF, SELL_STAR, OFFER)


#: The thrifty bot of each game that has one, by game id.
THRIFTY_BOTS: dict[str, Callable[..., Bot]] = {"belly-battle": ThriftyGreedy}

#: ``ismcts:focus=board``'s filter of the root's moves, by game id.
BOARD_MOVES: dict[str, Callable[[Sequence[Action], Action | None], list[Action]]] = {
    "belly-battle": board_moves
}


__all__ = ["BOARD_MOVES", "THRIFTY_BOTS", "THRIFTY_NAME", "ThriftyGreedy", "board_moves"]
