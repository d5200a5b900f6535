"""Belly Battle bots. They decide from what their seat knows only (``seat_info.SeatInfo``,
built from the state or from the seat's view) and the public board data.

``GreedyBot`` plays by simple values:

- it buys every restaurant it can while keeping a cash reserve,
- it upgrades (star first, then chefs) where the fee gained is largest, since a
  chef or star is worth what it costs in the final wealth count,
- it challenges in a Takeover Battle when the expected gain (win chance times
  the card's worth, minus the fee it pays on losing) is positive,
- it swaps its weakest restaurant for the strongest it may take,
- it insures its most valuable restaurant, pays Yuck! to the poorest rival,
- it takes the tunnel when the fees ahead of the exit are lower,
- it accepts offers at up to the card's price (more if it completes three in a row),
- below its reserve it offers a bare card at its price to the richest rival,
- and in debt it makes that offer first, then sells chefs (no loss in wealth),
  then its cheapest cards, then stars.

Its hand-set weights are parameters (``potluck bots belly-battle`` lists them):
``greedy:reserve=200,income_horizon=10`` keeps more cash in hand and counts on
fewer rounds of fees; the defaults play exactly as the bot did before they were
parameters.

    >>> import potluck, random
    >>> g = potluck.load_game("belly-battle")
    >>> s = g.new_game(2, seed=3)
    >>> seat = g.to_act(s)[0]
    >>> bot = GreedyBot()
    >>> bot.choose(g, g.view(s, seat), seat, g.legal_actions(s, seat), random.Random(0)) in (
    ...     g.legal_actions(s, seat))
    True
    >>> g.make_bot("greedy:reserve=200").weights.reserve
    200
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, NamedTuple

from potluck.engine.action import Action
from potluck.engine.bots import EarlyChooser
from potluck.engine.botspec import BotParam
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
from potluck.games.belly_battle.seat_info import SeatInfo
from potluck.games.belly_battle.state import BANK, DEBT, WINDOW
from potluck.games.belly_battle.tables import BellyTables

#: Cash the bot keeps in hand for fees it may owe before its next window, in Brupees.
RESERVE = 120
#: The most rounds of fee income a card is valued for (the rounds left, capped).
_INCOME_HORIZON = 25
#: What it pays at most for a card that completes three in a row, as a multiple of
#: the card's wealth (what it pays at most for any other card).
_TRIPLE_MARKUP = 1.5
#: Chance that a given space is landed on by one rival in one turn (about 1/44:
#: one landing per turn, the track is 44 spaces long).
LAND_CHANCE: Final = 1.0 / 44.0
#: Chance of each total of two dice.
_TWO_DICE: Final = {t: (6 - abs(t - 7)) / 36.0 for t in range(2, 13)}


def win_chance(rolls: int) -> float:
    """The challenger's chance to win a Takeover Battle against ``rolls`` defence dice.

    Ties are rolled again, so it is P(win) / (1 - P(tie)).

        >>> round(win_chance(1), 3), round(win_chance(4), 3)
        (0.5, 0.151)
    """
    win = tie = 0.0
    for attack in range(1, 7):
        below = ((attack - 1) / 6.0) ** rolls
        at_most = (attack / 6.0) ** rolls
        win += below / 6.0
        tie += (at_most - below) / 6.0
    return win / (1.0 - tie)


#: ``win_chance(rolls)`` for the defence's 1 to 4 dice, worked out once by it (the same
#: floats): a takeover decision read it per card through float powers (issue 36).
_WIN_CHANCE: Final = tuple(win_chance(rolls) for rolls in range(5))


class Weights(NamedTuple):
    """The greedy bot's weights (``GreedyBot.params`` says what each means)."""

    reserve: int = RESERVE
    income_horizon: int = _INCOME_HORIZON
    triple_markup: float = _TRIPLE_MARKUP
    takeover_min_gain: float = 0.0
    swap_min_gain: float = 0.0


class GreedyBot(EarlyChooser):
    """Plays by the values described in the module docstring; never illegal.

    Its weights, in Brupees and rounds, are parameters (``params``)."""

    name = "greedy"
    #: The spec that built this bot (``build_bot`` and ``make_agent`` set it): declared,
    #: because a compiled class takes no attribute it does not declare.
    spec = "greedy"
    needs_view = True
    #: Reads the seat's ``SeatInfo`` (``Game.bot_view``), or builds it from a whole view.
    compact_view = True
    params: ClassVar[tuple[BotParam, ...]] = (
        BotParam(
            "reserve",
            int,
            RESERVE,
            "Brupees kept in hand for fees: it buys, upgrades and accepts offers only"
            " when that leaves this much, and below it offers a bare card for sale",
            low=0,
            high=100_000,
        ),
        BotParam(
            "income_horizon",
            int,
            _INCOME_HORIZON,
            "the most rounds of a card's expected fees it counts (the rounds left,"
            " capped here) when it values cards and upgrades",
            low=1,
            high=1000,
        ),
        BotParam(
            "triple_markup",
            float,
            _TRIPLE_MARKUP,
            "what it pays at most for an offered card that completes three in a row, as"
            " a multiple of the card's wealth (the most it pays for any other card)",
            low=1,
            high=10,
        ),
        BotParam(
            "takeover_min_gain",
            float,
            0.0,
            "it challenges a Takeover Battle only when the expected gain (win chance x"
            " the card's worth, less the fee risked on losing) is more than this many"
            " Brupees; below 0 it also takes some losing bets",
            low=-10_000,
            high=100_000,
        ),
        BotParam(
            "swap_min_gain",
            float,
            0.0,
            "it swaps only when the card it takes is worth more than this many Brupees"
            " above the card it gives",
            low=0,
            high=100_000,
        ),
    )

    def __init__(
        self,
        reserve: int = RESERVE,
        income_horizon: int = _INCOME_HORIZON,
        triple_markup: float = _TRIPLE_MARKUP,
        takeover_min_gain: float = 0.0,
        swap_min_gain: float = 0.0,
    ) -> None:
        self.weights = Weights(
            int(reserve),
            int(income_horizon),
            float(triple_markup),
            float(takeover_min_gain),
            float(swap_min_gain),
        )
        # Read by the early pass of every window decision: one attribute, not two.
        self._reserve = self.weights.reserve

    def choose_early(self, game: Any, seen: Any, seat: int) -> Action | None:
        """Pass in a window where the seat keeps its reserve and no chef or star it may
        buy would leave it that much: what ``choose`` then takes (its early pass, or
        ``_window`` skipping every token for the reserve), told from the seat's input
        without the window's deals listed (``EarlyChooser``; they were about a quarter of
        a greedy game, issue 36). ``None`` for any other decision.

        A restaurant's next token is a chef below two chefs and a star at two; whether
        the supply lasts is not asked (with a token out of supply the answer is
        ``None`` and ``choose`` reads the list). ``tests/test_belly_battle_early_pass.py``
        holds the answer to ``choose``'s over random states and weights."""
        if not isinstance(seen, SeatInfo) or seen.phase != WINDOW:
            return None
        reserve = self._reserve
        cash = seen.cash[seat]
        if cash < reserve:
            return None  # short of a reserve: ``_window`` looks for an offer to make
        tables: BellyTables = game
        owners, chefs, stars = seen.owners, seen.chefs, seen.stars
        chef_price, star_price = tables.chef_price, tables.star_price
        for card in range(tables.num_restaurants):
            if owners[card] == seat and not stars[card]:
                cost = chef_price[card] if chefs[card] < 2 else star_price[card]
                if cash - cost >= reserve:
                    return None  # a token ``_window`` may weigh, if the rules offer it
        return tables.pass_action

    def choose(
        self,
        game: BellyTables,
        view: Mapping[str, Any] | SeatInfo | None,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        if len(legal) == 1 or view is None or not isinstance(legal[0], BellyAction):
            return legal[0]
        info = view if isinstance(view, SeatInfo) else SeatInfo.from_view(game, view, seat)
        second = legal[1]
        if (
            info.phase == WINDOW
            # Narrowed, so the kind is read as the compiled action's field (not looked up
            # by name and compared as Python objects: most decisions ask it).
            and isinstance(second, BellyAction)
            and second.kind > STAR
            and info.cash[seat] >= self._reserve
        ):
            # No chef or star to buy and no reserve to raise: pass (what ``_window``
            # decides then, without reading the rest of the view).
            return legal[0]
        # One game's legal actions are all of its own action type.
        return _Table(game, info, self.weights).choose(legal)  # type: ignore[arg-type]


class _Table:
    """The bot's reading of its seat's information, made afresh for each decision."""

    def __init__(self, game: BellyTables, info: SeatInfo, weights: Weights) -> None:
        self.game = game
        self.weights = weights
        self.info = info
        self.seat = info.seat
        self.cash = info.cash[info.seat]
        self.rivals = len(info.cash) - 1
        self.rounds_left = max(1, min(weights.income_horizon, info.rounds_to_play))

    # -------------------------------------------------------------- values

    def worth(self, card: int) -> float:
        """What a card is worth to its holder: its wealth plus its expected fees."""
        info = self.info
        wealth = self.game.price[card] + 50 * info.chefs[card] + 150 * info.stars[card]
        return wealth + self.income(info.fees[card])

    def income(self, fee: int) -> float:
        return fee * self.rivals * LAND_CHANCE * self.rounds_left

    def level_fee(self, card: int, chefs: int, star: int) -> int:
        fees = self.game.fees[card]
        return fees[3] if star else fees[chefs]

    # -------------------------------------------------------------- choice

    def choose(self, legal: Sequence[BellyAction]) -> BellyAction:
        phase = self.info.phase
        # Most decisions are windows and debts: their actions are deals only.
        if phase == WINDOW:
            return self._window(legal)
        if phase == DEBT:
            return self._raise_cash(legal)
        # Sales to the bank are allowed at every decision (ruling BB-13); this bot
        # sells only in windows and debts, as it always has.
        kept = [a for a in legal if a.kind not in (SELL, SELL_CHEF, SELL_STAR)]
        legal = kept or legal
        kinds = {a.kind for a in legal}
        if BUY in kinds:
            card = self.game.space_card[self.info.positions[self.seat]]
            affordable = self.cash - self.game.price[card] >= self.weights.reserve
            return self._find(legal, BUY if affordable else PASS)
        if TAKEOVER in kinds:
            return self._takeover(legal)
        if SWAP in kinds:
            return self._swap(legal)
        if INSURE in kinds:
            return max(
                (a for a in legal if a.kind == INSURE), key=lambda a: (self.worth(a.card), -a.index)
            )
        if YUCK in kinds:
            return min(
                (a for a in legal if a.kind == YUCK),
                key=lambda a: (self.info.wealth[a.other], a.index),
            )
        if TUNNEL in kinds:
            return self._tunnel(legal)
        if ACCEPT in kinds:
            return self._answer(legal)
        return self._window(legal)

    @staticmethod
    def _find(legal: Sequence[BellyAction], kind: int) -> BellyAction:
        for action in legal:
            if action.kind == kind:
                return action
        return legal[0]

    def _takeover(self, legal: Sequence[BellyAction]) -> BellyAction:
        best, gain = self._find(legal, PASS), self.weights.takeover_min_gain
        for action in legal:
            if action.kind != TAKEOVER:
                continue
            card, info = action.card, self.info
            rolls = (
                1
                if card >= self.game.num_restaurants
                else (4 if info.stars[card] else 1 + info.chefs[card])
            )
            chance = _WIN_CHANCE[rolls]
            value = chance * self.worth(card) - (1 - chance) * info.fees[card]
            if value > gain:
                best, gain = action, value
        return best

    def _swap(self, legal: Sequence[BellyAction]) -> BellyAction:
        best, gain = self._find(legal, PASS), self.weights.swap_min_gain
        for action in legal:
            if action.kind == SWAP:
                value = self.worth(action.other) - self.worth(action.card)
                if value > gain:
                    best, gain = action, value
        return best

    def _danger(self, space: int) -> float:
        """Expected fee paid on the next roll from ``space``."""
        game = self.game
        size = game.board_size
        total = 0.0
        for roll, chance in _TWO_DICE.items():
            card = game.space_card[(space + roll) % size]
            if card >= 0:
                owner = self.info.owners[card]
                if owner != BANK and owner != self.seat:
                    total += chance * self.info.fees[card]
        return total

    def _tunnel(self, legal: Sequence[BellyAction]) -> BellyAction:
        here = self.info.positions[self.seat]
        there = self.game.tunnel_exit.get(here, here)
        return self._find(legal, TUNNEL if self._danger(there) < self._danger(here) else PASS)

    def _answer(self, legal: Sequence[BellyAction]) -> BellyAction:
        info = self.info
        card, price = info.offer_card, info.offer_price
        limit = float(self.game.price[card] + 50 * info.chefs[card] + 150 * info.stars[card])
        if self._completes_triple(card):
            # The price is whole: against the unrounded product it is accepted exactly
            # when it is at most the product rounded down (at 1.5: ``limit * 3 // 2``).
            limit *= self.weights.triple_markup
        ok = price <= limit and self.cash - price >= self.weights.reserve
        return self._find(legal, ACCEPT if ok else DECLINE)

    def _completes_triple(self, card: int) -> bool:
        game = self.game
        if card >= game.num_restaurants:
            return False
        for trio in game.triples[card]:
            if all(c == card or self.info.owners[c] == self.seat for c in trio):
                return True
        return False

    def _window(self, legal: Sequence[BellyAction]) -> BellyAction:
        best, gain = self._find(legal, PASS), 0.0
        reserve = self.weights.reserve
        if self.cash < reserve:
            # Short of a reserve: raise it by offering a bare card at its price.
            sale = self._fair_offer(legal)
            if sale is not None:
                return sale
        for action in legal:
            if action.kind not in (CHEF, STAR):
                if action.kind > STAR:
                    break  # a window's deals come in index order: sales and offers follow
                continue
            card = action.card
            chefs = self.info.chefs[card]
            cost = self.game.chef_price[card] if action.kind == CHEF else self.game.star_price[card]
            if self.cash - cost < reserve:
                continue
            before = self.level_fee(card, chefs, self.info.stars[card])
            after = (
                self.level_fee(card, chefs + 1, 0)
                if action.kind == CHEF
                else self.level_fee(card, 2, 1)
            )
            lost = cost - (50 if action.kind == CHEF else 150)  # wealth the token does not keep
            value = self.income(after - before) - lost
            if value > gain:
                best, gain = action, value
        return best

    def _fair_offer(self, legal: Sequence[BellyAction]) -> BellyAction | None:
        """An offer of the cheapest bare card, at its price, to the richest rival who can
        pay: twice what the bank gives, and no loss of wealth (the least of them by
        price, then the buyer's cash, most first, then index).

        Offers come last among a window's or a debt's deals, in index order, and have
        the highest indices of all actions: the list is read from its end until the
        first action that is not an offer."""
        game, info = self.game, self.info
        first_offer, at_price = game.first[OFFER], game.offer_at_price
        chefs, stars, cash, actions = info.chefs, info.stars, info.cash, game.actions
        best: BellyAction | None = None
        best_price = best_cash = best_index = 0
        for position in range(len(legal) - 1, -1, -1):
            index = legal[position].index
            if index < first_offer:
                break
            card = at_price[index]
            if card < 0 or chefs[card] or stars[card]:
                continue
            offer = actions[index]
            price, purse = offer.amount, cash[offer.other]
            if (
                best is None
                or price < best_price
                or (price == best_price and purse > best_cash)
                or (price == best_price and purse == best_cash and index < best_index)
            ):
                best, best_price, best_cash, best_index = offer, price, purse, index
        return best

    def _raise_cash(self, legal: Sequence[BellyAction]) -> BellyAction:
        sale = self._fair_offer(legal)
        if sale is not None:
            return sale
        chefs = [a for a in legal if a.kind == SELL_CHEF]
        if chefs:
            return min(chefs, key=lambda a: (self.game.chef_price[a.card], a.index))
        sells = [a for a in legal if a.kind == SELL]
        if sells:
            return min(sells, key=lambda a: (self.worth(a.card), a.index))
        stars = [a for a in legal if a.kind == SELL_STAR]
        if stars:
            return stars[0]
        return legal[0]


__all__ = ["GreedyBot", "Weights", "win_chance"]
