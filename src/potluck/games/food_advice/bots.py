"""FoodAdvice's greedy bot: it builds and places products for the customer deck.

It decides from what its seat knows (``seat_info.SeatInfo``, ``Game.bot_view``, or the
seat's whole view) and the game's public card data (the customer
deck's list of cards is printed in the box; only its order is secret). Its
hand-set weights, in foodcoins, are parameters (``potluck bots food-advice``
lists them); the defaults play exactly as the bot did before they were
parameters.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

from potluck.engine.action import Action
from potluck.engine.bots import EarlyChooser
from potluck.engine.botspec import BotParam
from potluck.games.food_advice.actions import (
    DECLINE,
    DISCARD,
    DONE,
    GIVE,
    INVEST,
    NAME,
    PASS,
    PROMOTE,
    REMOVE,
    SHOP,
    TARGET,
    VOTE,
    FoodAction,
)
from potluck.games.food_advice.greedy_mind import (
    EXTRA_CUSTOMER,
    MIN_CHIP,
    PRICE_WEIGHT,
    RIVAL_WEIGHT,
    SHOP_BASE,
    Mind,
    Weights,
    kept_before,
)
from potluck.games.food_advice.market import Buyer
from potluck.games.food_advice.removal import best_removal
from potluck.games.food_advice.seat_info import SeatInfo
from potluck.games.food_advice.state import EXCHANGE, KEEP, VOTING, holds_tuple
from potluck.games.food_advice.tables import FoodTables

if TYPE_CHECKING:
    from potluck.engine.game import Game

#: The memo is emptied when it holds more entries than this. The search's greedy
#: rollouts share one bot: its simulations of one decision play the same round's tables
#: again and again, and a memo emptied every simulation or two (64 entries) worked them
#: out anew (a fifth of the search's time in pure Python).
_MEMO_SIZE = 1024


class GreedyBot(EarlyChooser):
    """Plays for foodcoins, one decision at a time, by simulating the customers.

    - **Products**: keeps the three ingredients (and accepts the trade) whose
      product earns most over the whole customer deck, each customer choosing
      by the rulebook's order among every product on the table and the new one.
    - **Shops and promotion**: places chips where the expected bonus is largest
      (shop terms and shapes over the customers who would buy from it); picks
      Black Friday or Flavor Sampling by the sales they add, Mabius on the rival
      who sells most, advertising when its terms look met.
    - **Votes** go to the poorest rival; **events** hit the richest rival (or
      the product whose loss hurts them most) and trim its own product only
      when that sells better.

    Its weights are parameters: ``greedy:min_chip_value=0`` places every chip
    that gains anything, ``greedy:rival_weight=0`` plays events for its own
    sales alone.

        >>> import potluck, random
        >>> g = potluck.load_game("food-advice")
        >>> s = g.new_game(4, seed=1)
        >>> bot = GreedyBot()
        >>> a = bot.choose(g, g.view(s, 0), 0, g.legal_actions(s, 0), random.Random(0))
        >>> a in g.legal_actions(s, 0)
        True
    """

    name = "greedy"
    #: The spec that built this bot (``build_bot`` and ``make_agent`` set it): declared,
    #: because a compiled class takes no attribute it does not declare.
    spec = "greedy"
    needs_view = True
    #: Reads the seat's ``SeatInfo`` (``Game.bot_view``), or builds it from a whole view.
    compact_view = True
    params: ClassVar[tuple[BotParam, ...]] = (
        BotParam(
            "extra_customer_value",
            float,
            EXTRA_CUSTOMER,
            "what an advertising chip whose terms look met is worth, in foodcoins"
            " (an extra personal customer: about an average sale)",
            low=0,
            high=1000,
        ),
        BotParam(
            "shop_base_value",
            float,
            SHOP_BASE,
            "what a chip on any shop is worth beyond its expected bonuses, in foodcoins",
            low=0,
            high=1000,
        ),
        BotParam(
            "min_chip_value",
            float,
            MIN_CHIP,
            "a chip is placed only when worth more than this many foodcoins, else it stops",
            low=0,
            high=1000,
        ),
        BotParam(
            "rival_weight",
            float,
            RIVAL_WEIGHT,
            "events: what each foodcoin of sales the richest rival loses is worth against"
            " one of its own sales (0: its own sales alone)",
            low=0,
            high=10,
        ),
        BotParam(
            "price_weight",
            float,
            PRICE_WEIGHT,
            "what each foodcoin of a kept product's price is worth beside its expected"
            " sales, in foodcoins (0: its sales alone; greedy-tuned's 20 keeps the"
            " dearest product whose sales are close to the best)",
            low=0,
            high=1000,
        ),
    )

    def __init__(
        self,
        extra_customer_value: float = EXTRA_CUSTOMER,
        shop_base_value: float = SHOP_BASE,
        min_chip_value: float = MIN_CHIP,
        rival_weight: float = RIVAL_WEIGHT,
        price_weight: float = PRICE_WEIGHT,
    ) -> None:
        self.weights = Weights(
            float(extra_customer_value),
            float(shop_base_value),
            float(min_chip_value),
            float(rival_weight),
            float(price_weight),
        )
        # Sales and product values worked out in earlier decisions, by what they depend
        # on (the products on the table, the seat, its shape): successive decisions
        # of a round (three discards, several chips) share most of their work.
        self._memo: dict[tuple[Any, ...], Any] = {}
        self._memo_game: object = None  # the game whose card data the memo is for

    def choose(
        self,
        game: Game[Any, Any],
        view: Mapping[str, Any] | SeatInfo | None,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        assert view is not None
        tables = cast(FoodTables, game)
        info = view if isinstance(view, SeatInfo) else SeatInfo.from_view(tables, view, seat)
        # (the engine's list as it is: a copy made a list per decision)
        actions = (
            cast(list[FoodAction], legal)
            if type(legal) is list
            else [a for a in legal if isinstance(a, FoodAction)]
        )
        kind = actions[0].kind
        if kind in (PASS, NAME):
            # It makes no offers (a trade helps the other side as much), and it names its
            # product with the generated name.
            return actions[0]
        if kind in (VOTE, TARGET):
            money = info.money
            if kind == VOTE:
                return poorest_vote(actions, money)
            return max(actions, key=lambda a: (money[a.seat], -a.seat))
        helper = self._mind(tables, info, seat)
        if kind in (DECLINE, GIVE):
            return helper.answer(actions)
        if kind == DISCARD:
            return helper.discard(actions)
        if kind in (DONE, SHOP, PROMOTE, INVEST):
            return helper.place(actions)
        if kind == REMOVE:
            return best_removal(helper, actions)
        return actions[0]

    def choose_early(self, game: Any, seen: Any, seat: int) -> Action | None:
        """``choose``'s answer without the legal list (``EarlyChooser``), in the phases
        whose list follows from the ``SeatInfo`` alone: the exchange (the list starts
        with 'pass', which the bot takes), the votes (one per other seat of the table,
        in seat order: the poorest's) and the keep (one discard per card of the sorted
        hand, which ``SeatInfo.hand`` is). ``None`` in the other phases (the name, the
        chips, the events, an offer's answer) or without the phase (-1).
        ``tests/test_food_advice_early.py`` holds it equal to ``choose``."""
        if not isinstance(seen, SeatInfo):
            return None
        info: SeatInfo = seen
        phase = info.phase
        tables = cast(FoodTables, game)
        if phase == EXCHANGE:
            return tables.kind_actions[PASS][0]
        if phase == VOTING:
            # (the votes' legal list: one for each other seat, by seat)
            seats = len(info.money)
            if seats < 2:
                return None
            return poorest_vote(tables.kind_actions[VOTE][:seats], info.money, seat)
        if phase == KEEP and info.hand:
            discards = tables.kind_actions[DISCARD]
            if self._memo_game is tables:  # (a round's later discards: no ``Mind``)
                keep = kept_before(self._memo, info, seat)
                if keep is not None:
                    # (``Mind.discard``'s pick: the first card of the sorted hand not kept)
                    for card in info.hand:
                        if not holds_tuple(keep, card):
                            return discards[card]
                    return discards[info.hand[0]]
            return self._mind(tables, info, seat).discard([discards[i] for i in info.hand])
        return None

    def _mind(self, tables: FoodTables, info: SeatInfo, seat: int) -> Mind:
        """The decision's ``Mind``, on this bot's memo (emptied when full, or for
        another game's card data)."""
        if len(self._memo) > _MEMO_SIZE or self._memo_game is not tables:
            self._memo.clear()
            self._memo_game = tables
        return Mind(tables, info, seat, self._memo, self.weights)


def poorest_vote(votes: Sequence[FoodAction], money: Sequence[int], skip: int = -1) -> FoodAction:
    """The vote for the poorest seat among ``votes`` (but ``skip``), the lowest seat
    among equals (``min`` by (money, seat); the greedy bot's vote, in ``choose`` and
    ``choose_early`` alike). A plain loop: ``min`` with a key called a Python function
    per vote from compiled code."""
    best: FoodAction | None = None
    for vote in votes:
        if vote.seat == skip:
            continue
        if (
            best is None
            or money[vote.seat] < money[best.seat]
            or (money[vote.seat] == money[best.seat] and vote.seat < best.seat)
        ):
            best = vote
    if best is None:
        raise ValueError("poorest_vote() of no vote")
    return best


__all__ = ["Buyer", "GreedyBot", "Weights"]
