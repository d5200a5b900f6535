"""FoodAdvice's rules: create a product, present and vote, shops and promotion,
events, customers; three rounds; most foodcoins wins.

Rulebook section names are used throughout: *Creating a signature product*
(``_start_round``, exchange, keep, naming), *Product presentation* (voting),
*Placing products in shops* and *Product promotion* (placing), *Playing events*,
*Selling products* (``_sell``) and *Determining the winner* (``_finish``).

    >>> import potluck
    >>> g = potluck.load_game("food-advice")
    >>> s = g.new_game(4, seed=7)
    >>> g.view(s, None)["phase"], g.to_act(s)      # the exchange window, in seat order
    ('exchange', (0,))
    >>> str(g.legal_actions(s, 0)[0])
    'pass'
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any, ClassVar

from potluck.engine.bots import Bot, RandomBot
from potluck.engine.data import DataSource, load_data
from potluck.engine.encoding import Feature, ObservationEncoding, ObservationWriter
from potluck.engine.errors import InvalidActionError, PotluckError, RecordError
from potluck.engine.game import Game
from potluck.engine.options import Option, resolve_options
from potluck.engine.outcome import Outcome
from potluck.engine.text import numbers_as_written, slugify
from potluck.games.food_advice.actions import (
    DECLINE,
    DISCARD,
    DONE,
    GIVE,
    INVEST,
    NAME,
    OFFER,
    PASS,
    PROMOTE,
    REMOVE,
    SHOP,
    TARGET,
    VOTE,
    FoodAction,
)
from potluck.games.food_advice.describe import describe
from potluck.games.food_advice.market import (
    Buyer,
    Offer,
    choose,
    extra_customer_buys,
    joker_buys,
    matches,
)
from potluck.games.food_advice.schema import CATEGORIES, FoodData
from potluck.games.food_advice.state import (
    ALL_SLOTS,
    BLACK_FRIDAY,
    EVENTS,
    EXCHANGE,
    FLAVOR_SAMPLING,
    INT_LISTS,
    INTS,
    KEEP,
    MABIUS,
    NAMING,
    NESTED_LISTS,
    OVER,
    PHASE_NAMES,
    PLACING,
    RESPOND,
    ROLES,
    STR_LISTS,
    VOTING,
    FoodState,
)

MAX_SEATS = 6
#: Most shops and promotion channels one player may hold chips on in a round.
MAX_SHOPS, MAX_CHANNELS = 3, 2
#: The ingredient exchange (ruling FA-13): each player makes at most this many offers a
#: round, each of at most this many cards, answered with as many.
MAX_OFFERS, MAX_OFFER_CARDS = 2, 3
_NAME_TEXT = re.compile(r'^name\s+"([^"\n]{1,60})"\s*/\s*"([^"\n]{0,80})"$', re.IGNORECASE)
_CHOICE_EVENTS = ("steal", "remove_other", "remove_own")


class FoodAdvice(Game[FoodState, FoodAction]):
    """FoodAdvice (foodsovet), for 4 to 6 players, or 2 to 3 with ``small_table``."""

    id: ClassVar[str] = "food-advice"
    title: ClassVar[str] = "FoodAdvice"
    version: ClassVar[int] = 2
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 6
    options: ClassVar[Mapping[str, Option]] = {
        "small_table": Option(
            bool,
            False,
            "Allow 2 or 3 players, as the box says (each still gets one role; the engine "
            "does the duties of the roles nobody holds).",
        ),
    }
    summary: ClassVar[str] = resources.files(__package__).joinpath("summary.md").read_text("utf-8")
    notation: ClassVar[str] = (
        "pass | offer INGREDIENT to SEAT | give INGREDIENT | decline | discard INGREDIENT | "
        'name "NAME" / "TAGLINE" | vote SEAT | shop SHOP | promote CHANNEL | invest SEAT | '
        "done | target SEAT | remove INGREDIENT. Cards are written in lower case with "
        "dashes, e.g. 'offer oat-flakes to 2', 'shop sparget', 'promote black-friday'."
    )

    def __init__(self, data: DataSource = None) -> None:
        self.data = d = load_data(FoodData, data, package=__package__, default="data/cards.toml")
        self.data_source = (
            None if data is None else str(data) if not isinstance(data, Mapping) else "custom"
        )
        t = d.table
        self.rounds, self.per_round, self.board_size = (
            t.rounds,
            t.customers_per_round,
            t.shops_on_board,
        )
        self.dealt, self.kept = t.ingredients_dealt, t.ingredients_kept
        self.event_rounds = frozenset(t.event_rounds)
        self.hashtags = tuple(d.hashtags)
        tag_of = {tag: i for i, tag in enumerate(d.hashtags)}
        self.shapes = tuple(d.shapes)
        shape_of = {shape: i for i, shape in enumerate(d.shapes)}
        self.shape_slugs = tuple(slugify(s) for s in d.shapes)
        price = {
            "economy": d.prices.economy,
            "medium": d.prices.medium,
            "premium": d.prices.premium,
        }
        budget = {
            "economy": d.budgets.economy,
            "medium": d.budgets.medium,
            "premium": d.budgets.premium,
            "joker": d.budgets.joker,
        }
        self.ing_names = tuple(i.name for i in d.ingredients)
        self.ing_slugs = tuple(slugify(i.name) for i in d.ingredients)
        self.ing_category = tuple(i.category for i in d.ingredients)
        self.ing_price = tuple(price[i.category] for i in d.ingredients)
        self.ing_tag = tuple(tag_of[i.hashtag] for i in d.ingredients)
        self.cust_names = tuple(c.name for c in d.customers)
        self.cust_male = tuple(c.gender == "male" for c in d.customers)
        self.cust_category = tuple(c.category for c in d.customers)
        self.cust_joker = tuple(c.category == "joker" for c in d.customers)
        self.buyers = tuple(
            Buyer(
                tags=sum(1 << tag_of[h] for h in set(c.hashtags)),
                shapes=sum(1 << shape_of[s] for s in set(c.shapes)),
                budget=budget[c.category],
            )
            for c in d.customers
        )
        self.shop_names = tuple(s.name for s in d.shops)
        self.shop_slugs = tuple(slugify(s.name) for s in d.shops)
        self.shop_shapes = tuple(sum(1 << shape_of[x] for x in set(s.shapes)) for s in d.shops)
        self.event_names = tuple(e.name for e in d.events)
        self.event_kind = tuple(e.kind for e in d.events)
        self.event_value = tuple(e.value for e in d.events)
        ads = [a.name for a in d.advertising]
        self.channels = (*ads, FLAVOR_SAMPLING, BLACK_FRIDAY, MABIUS)
        self.channel_slugs = tuple(slugify(c) for c in self.channels)
        self.num_ads = len(ads)
        self.flavor, self.black_friday, self.mabius = len(ads), len(ads) + 1, len(ads) + 2
        # Lookups from the names views use, for the observation encoding.
        self.ing_index = {slug: i for i, slug in enumerate(self.ing_slugs)}
        self.shape_index = {name: i for i, name in enumerate(self.shapes)}
        self.shop_index = {slug: i for i, slug in enumerate(self.shop_slugs)}
        self.event_index = {name: i for i, name in reversed(list(enumerate(self.event_names)))}
        self.cust_index = {name: c for c, name in reversed(list(enumerate(self.cust_names)))}
        self.channel_index = {slug: i for i, slug in enumerate(self.channel_slugs)}
        self.hashtag_index = {tag: i for i, tag in enumerate(self.hashtags)}
        self._build_actions()

    # ------------------------------------------------------------------ actions

    def _build_actions(self) -> None:
        """Intern every action but names; ``self.base[kind]`` is each kind's first code."""
        ings, shops = len(self.ing_names), len(self.shop_names)
        sizes = [1, 1, 1, 1, ings * MAX_SEATS, ings, ings, MAX_SEATS, shops]
        sizes += [len(self.channels) - 1, MAX_SEATS, MAX_SEATS, ings]
        self.base: list[int] = []
        total = 0
        for size in sizes:
            self.base.append(total)
            total += size
        self.size = total
        acts: list[FoodAction | None] = [None] * total
        b = self.base
        acts[b[PASS]] = FoodAction(b[PASS], "pass", PASS)
        acts[b[DECLINE]] = FoodAction(b[DECLINE], "decline", DECLINE)
        acts[b[DONE]] = FoodAction(b[DONE], "done", DONE)
        # A placeholder: names are made per product (``generated_name``, ``name_action``).
        acts[b[NAME]] = FoodAction(b[NAME], 'name "Product" / ""', NAME, name="Product")
        for i, slug in enumerate(self.ing_slugs):
            for s in range(MAX_SEATS):
                code = b[OFFER] + i * MAX_SEATS + s
                acts[code] = FoodAction(code, f"offer {slug} to {s}", OFFER, i, s)
            for kind, word in ((GIVE, "give"), (DISCARD, "discard"), (REMOVE, "remove")):
                acts[b[kind] + i] = FoodAction(b[kind] + i, f"{word} {slug}", kind, i)
        for s in range(MAX_SEATS):
            for kind, word in ((VOTE, "vote"), (INVEST, "invest"), (TARGET, "target")):
                acts[b[kind] + s] = FoodAction(b[kind] + s, f"{word} {s}", kind, -1, s)
        for k, slug in enumerate(self.shop_slugs):
            acts[b[SHOP] + k] = FoodAction(b[SHOP] + k, f"shop {slug}", SHOP, k)
        for c, slug in enumerate(self.channel_slugs[: self.mabius]):
            acts[b[PROMOTE] + c] = FoodAction(b[PROMOTE] + c, f"promote {slug}", PROMOTE, c)
        self.actions: tuple[FoodAction, ...] = tuple(a for a in acts if a is not None)
        assert len(self.actions) == total
        self._by_text = {a.text: a for a in self.actions}

    def act(self, kind: int, offset: int = 0) -> FoodAction:
        """The interned action of ``kind`` at ``offset`` (ingredient, seat, shop or channel)."""
        return self.actions[self.base[kind] + offset]

    def offer_action(self, ingredient: int, seat: int) -> FoodAction:
        return self.actions[self.base[OFFER] + ingredient * MAX_SEATS + seat]

    def generated_name(self, state: FoodState, seat: int) -> FoodAction:
        """The name and tagline made up from ``seat``'s product (what bots say)."""
        hand = state.hands[seat] if 0 <= seat < state.num_players else []
        shape = state.dealt_shape[seat] if 0 <= seat < state.num_players else -1
        noun = self.shapes[shape].title() if shape >= 0 else "Product"
        tags = [self.hashtags[self.ing_tag[i]] for i in hand]
        adjective = tags[0].title() if tags else "Mystery"
        price = sum(self.ing_price[i] for i in hand)
        tagline = " ".join(f"#{t}" for t in dict.fromkeys(tags)) + f" for {price} F"
        return self.name_action(f"{adjective} {noun}", tagline.strip())

    def name_action(self, name: str, tagline: str) -> FoodAction:
        """The naming action for this name and tagline (free text without quotes)."""
        name, tagline = " ".join(name.split()), " ".join(tagline.split())
        if not name or '"' in name + tagline or len(name) > 60 or len(tagline) > 80:
            raise InvalidActionError(
                "a name is 1 to 60 characters and a tagline at most 80, without double quotes"
            )
        code = self.base[NAME]
        return FoodAction(code, f'name "{name}" / "{tagline}"', NAME, name=name, tagline=tagline)

    # ------------------------------------------------------------------ setup

    def new_game(
        self, num_players: int, seed: int = 0, options: Mapping[str, Any] | None = None
    ) -> FoodState:
        """As ``Game.new_game``; 2 or 3 players need the option ``small_table`` (ruling FA-1)."""
        small = isinstance(num_players, int) and not isinstance(num_players, bool)
        if small and 2 <= num_players < self.min_players:
            resolved = resolve_options(self.id, self.options, options)
            if not resolved["small_table"]:
                raise PotluckError(
                    f"{self.title} is for 4 to 6 players; for {num_players} set the option "
                    "small_table=true (the box says 2 to 6)"
                )
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise PotluckError(f"seed must be a whole number, not {seed!r}")
            return self._new_game(num_players, seed, resolved)
        return super().new_game(num_players, seed, options)

    def _new_game(self, num_players: int, seed: int, options: Mapping[str, Any]) -> FoodState:
        state = FoodState(num_players, seed, options)
        rng, n, t = state.rng, num_players, self.data.table
        state.roles = rng.sample(range(len(ROLES)), n)  # the Character deck, shuffled and dealt
        state.money = [t.starting_money] * n
        state.chips = [t.starting_chips] * n
        state.ing_deck = list(range(len(self.ing_names)))
        rng.shuffle(state.ing_deck)
        state.ing_returned = []
        state.shape_deck = list(range(len(self.shapes)))
        state.shop_deck = list(range(len(self.shop_names)))
        rng.shuffle(state.shop_deck)
        state.event_deck = list(range(len(self.event_names)))
        state.cust_deck = list(range(len(self.cust_names)))
        state.event_discard, state.cust_discard, state.cust_table = [], [], []
        state.prod_owner, state.prod_shape, state.prod_round = [], [], []
        state.prod_ings, state.prod_name, state.prod_tagline = [], [], []
        state.held = [[] for _ in range(n)]
        state.log, state.tiebreak = [], None
        state.round = 0
        self._start_round(state)
        return state

    @staticmethod
    def _draw(deck: list[int], rng: random.Random) -> int:
        """A random card of an unordered deck: dealing from a shuffled one."""
        return deck.pop(int(rng.random() * len(deck)))

    def _deal_ingredients(self, state: FoodState) -> list[int]:
        """Six ingredients from the top of the deck (the returned cards are reached only
        once every card above them is dealt)."""
        deck = state.ing_deck
        hand = [deck.pop() for _ in range(min(self.dealt, len(deck)))]
        del state.ing_returned[len(deck) :]
        return hand

    def _return_ingredient(self, state: FoodState, ing: int, by: int) -> None:
        """A played ingredient goes to the bottom of the deck (rulebook, the Farmer)."""
        state.ing_deck.insert(0, ing)
        state.ing_returned.insert(0, by)

    def _start_round(self, state: FoodState) -> None:
        """Creating a signature product 1-2: a random shape and six ingredients each."""
        n, r, rng = state.num_players, state.round, state.rng
        state.order = [(r + i) % n for i in range(n)]
        state.dealt_shape = [self._draw(state.shape_deck, rng) for _ in range(n)]
        state.hands = [self._deal_ingredients(state) for _ in range(n)]
        state.trades, state.sales, state.events_played = [], [], []
        state.extra, state.offered, state.votes = [0] * n, [0] * n, [-1] * n
        state.pending_name, state.pending_tagline = [""] * n, [""] * n
        state.shop_chips, state.channel_chips, state.invest = [0] * n, [0] * n, [-1] * n
        state.board, state.event_new = [], [-1] * n
        state.offer_from = state.offer_to = -1
        state.offer_ings, state.given_ings = [], []
        state.phase, state.turn = EXCHANGE, 0
        state.acting = (state.order[0],)

    # ------------------------------------------------------------------ legality

    def legal_actions(self, state: FoodState, seat: int) -> list[FoodAction]:
        if seat not in state.acting:
            return []
        phase, n = state.phase, state.num_players
        if phase == EXCHANGE:
            return self._exchange_actions(state, seat)
        if phase == RESPOND:
            given = state.given_ings
            gives = [self.act(GIVE, i) for i in sorted(state.hands[seat]) if i not in given]
            return [self.act(DECLINE), *gives]
        if phase == KEEP:
            return [self.act(DISCARD, i) for i in sorted(state.hands[seat])]
        if phase == NAMING:
            return [self.generated_name(state, seat)]
        if phase == VOTING:
            return [self.act(VOTE, s) for s in range(n) if s != seat]
        if phase == PLACING:
            return self._placing_actions(state, seat)
        if phase == EVENTS:
            return self._event_choices(state, seat)
        return []

    def _exchange_actions(self, state: FoodState, seat: int) -> list[FoodAction]:
        """Pass, or add a card to an offer (to one player, at most three cards, at most two
        offers a round), or send the offer made so far with 'done'."""
        bundle, to = state.offer_ings, state.offer_to
        if len(bundle) >= MAX_OFFER_CARDS:
            return [self.act(PASS), self.act(DONE)]
        if not bundle and state.offered[seat] >= MAX_OFFERS:
            return [self.act(PASS)]
        targets = [to] if bundle else [s for s in range(state.num_players) if s != seat]
        cards = [i for i in sorted(state.hands[seat]) if i not in bundle]
        adds = [self.offer_action(i, s) for i in cards for s in targets]
        return [self.act(PASS), *([self.act(DONE)] if bundle else []), *adds]

    def _placing_actions(self, state: FoodState, seat: int) -> list[FoodAction]:
        shop_ok, channel_ok = self._room(state, seat)
        shops = state.shop_chips[seat].bit_count()
        channels = state.channel_chips[seat].bit_count()
        legal: list[FoodAction] = []
        if shops >= 2 and channels >= 1:
            legal.append(self.act(DONE))
        if shop_ok:
            legal += [
                self.act(SHOP, shop)
                for slot, shop in enumerate(state.board)
                if not state.shop_chips[seat] >> slot & 1
            ]
        if channel_ok:
            legal += [
                self.act(PROMOTE, c)
                for c in range(self.mabius)
                if not state.channel_chips[seat] >> c & 1
            ]
            if not state.channel_chips[seat] >> self.mabius & 1:
                legal += [self.act(INVEST, s) for s in range(state.num_players) if s != seat]
        return legal

    def _room(self, state: FoodState, seat: int) -> tuple[bool, bool]:
        """Whether ``seat`` may place a chip on one more shop, and on one more channel.

        Two shops and one channel come first; a spare chip (won by votes or an
        event) adds a third shop or a second channel (ruling FA-16).
        """
        shops = state.shop_chips[seat].bit_count()
        channels = state.channel_chips[seat].bit_count()
        free = state.chips[seat] - shops - channels
        shop_ok = shops < 2 or (shops < MAX_SHOPS and free - (channels == 0) > 0)
        channel_ok = channels < 1 or (channels < MAX_CHANNELS and free - max(0, 2 - shops) > 0)
        return shop_ok and free > 0, channel_ok and free > 0

    def _event_choices(self, state: FoodState, seat: int) -> list[FoodAction]:
        card = state.event_new[seat]
        kind = self.event_kind[card]
        if kind == "steal":
            return [self.act(TARGET, s) for s in range(state.num_players) if s != seat]
        mine = kind == "remove_own"
        return [
            self.act(REMOVE, i)
            for p, ings in enumerate(state.prod_ings)
            if (state.prod_owner[p] == seat) == mine and len(ings) > 1
            for i in sorted(ings)
        ]

    def _is_legal(self, state: FoodState, seat: int, action: Any) -> bool:
        if action.kind == NAME:
            return bool(state.phase == NAMING)
        return action in self.legal_actions(state, seat)

    def _why_illegal(self, state: FoodState, seat: int, action: FoodAction) -> str:
        phase, kind = state.phase, action.kind
        doing = {
            EXCHANGE: "It is your turn in the ingredient exchange: make an offer or pass.",
            RESPOND: "An offer is waiting for your answer: give an ingredient or decline.",
            KEEP: "Keep three ingredients: discard the others one at a time.",
            NAMING: "Name your product and give it a tagline.",
            VOTING: "Vote for one product you like.",
            PLACING: "Place your chips on shops and promotion channels.",
            EVENTS: "Play your event card: choose its target.",
        }.get(phase, "The game is over.")
        if phase == EXCHANGE and kind in (OFFER, DONE):
            why = self._why_not_offer(state, seat, action)
            if why:
                return why
        wanted = {
            EXCHANGE: (PASS, OFFER, DONE),
            RESPOND: (DECLINE, GIVE),
            KEEP: (DISCARD,),
            NAMING: (NAME,),
            VOTING: (VOTE,),
            PLACING: (DONE, SHOP, PROMOTE, INVEST),
            EVENTS: (TARGET, REMOVE),
        }.get(phase, ())
        if kind not in wanted:
            return f"You cannot {action.text.split()[0]} now. {doing}"
        hand = state.hands[seat]
        if kind == GIVE and action.thing in state.given_ings:
            return f"You have given {self.ing_names[action.thing]} already."
        if kind in (OFFER, GIVE, DISCARD) and action.thing not in hand:
            return f"{self.ing_names[action.thing]} is not in your hand."
        if kind in (OFFER, VOTE, INVEST, TARGET) and action.seat == seat:
            what = {OFFER: "trade with", VOTE: "vote for", INVEST: "invest in", TARGET: "target"}
            return f"You cannot {what[kind]} yourself (ruling FA-8)."
        if kind in (OFFER, VOTE, INVEST, TARGET) and action.seat >= state.num_players:
            return f"There is no seat {action.seat} at this table."
        if kind == SHOP:
            if action.thing not in state.board:
                return f"{self.shop_names[action.thing]} is not on the board this round."
            if state.shop_chips[seat] >> state.board.index(action.thing) & 1:
                return f"You already have a chip in {self.shop_names[action.thing]}: one per shop."
            if state.shop_chips[seat].bit_count() >= MAX_SHOPS:
                return f"You may sell in at most {MAX_SHOPS} shops."
            if not self._room(state, seat)[0]:
                return "Your last chip must go on a promotion channel: one is required."
        if kind in (PROMOTE, INVEST):
            channel = action.thing if kind == PROMOTE else self.mabius
            if state.channel_chips[seat] >> channel & 1:
                return f"You already have a chip on {self.channels[channel]}."
            if state.channel_chips[seat].bit_count() >= MAX_CHANNELS:
                return f"You may use at most {MAX_CHANNELS} promotion channels."
            if not self._room(state, seat)[1]:
                return "Your remaining chips must go on shops first: two shops are required."
        if kind in (SHOP, PROMOTE, INVEST):
            return "You have no chip left to place: say 'done'."
        if kind == DONE:
            return "Place chips on two shops and one promotion channel first."
        if kind == REMOVE:
            return (
                f"{self.ing_names[action.thing]} is not an ingredient you may remove with "
                f"{self.event_names[state.event_new[seat]]} (a product keeps at least one)."
            )
        return f"That is not a legal move now. {doing}"

    def _why_not_offer(self, state: FoodState, seat: int, action: FoodAction) -> str | None:
        bundle = state.offer_ings
        if action.kind == DONE:
            return None if bundle else "Add an ingredient to your offer before sending it."
        if bundle and action.seat != state.offer_to:
            return f"Your offer is to seat {state.offer_to}: finish it ('done') or 'pass'."
        if action.thing in bundle:
            return f"{self.ing_names[action.thing]} is in your offer already."
        if len(bundle) >= MAX_OFFER_CARDS:
            return f"An offer holds at most {MAX_OFFER_CARDS} ingredients: send it with 'done'."
        if not bundle and state.offered[seat] >= MAX_OFFERS:
            return f"You have made your {MAX_OFFERS} offers this round (ruling FA-13): 'pass'."
        return None

    # ------------------------------------------------------------------ change

    def _step(self, state: FoodState, seat: int, action: FoodAction) -> None:
        kind = action.kind
        if kind == PASS:
            state.offer_from = state.offer_to = -1  # an offer not sent is withdrawn
            state.offer_ings = []
            self._next_exchange(state)
        elif kind == OFFER:
            state.offer_from, state.offer_to = seat, action.seat
            state.offer_ings = [*state.offer_ings, action.thing]
        elif kind == DONE and state.phase == EXCHANGE:
            state.offered[seat] += 1
            state.given_ings = []
            state.phase, state.acting = RESPOND, (state.offer_to,)
        elif kind in (GIVE, DECLINE):
            self._answer(state, seat, action)
        elif kind == DISCARD:
            state.hands[seat].remove(action.thing)
            self._return_ingredient(state, action.thing, seat)  # face down, to the bottom
            if len(state.hands[seat]) <= self.kept:
                self._done_acting(state, seat, self._present)
        elif kind == NAME:
            state.pending_name[seat], state.pending_tagline[seat] = action.name, action.tagline
            self._done_acting(state, seat, self._present_and_vote)
        elif kind == VOTE:
            state.votes[seat] = action.seat
            self._done_acting(state, seat, self._tally_votes)
        elif kind in (SHOP, PROMOTE, INVEST, DONE):
            self._place(state, seat, action)
        elif kind in (TARGET, REMOVE):
            self._resolve_choice(state, seat, action)

    def _done_acting(self, state: FoodState, seat: int, then: Callable[[FoodState], None]) -> None:
        """A sealed simultaneous choice: the seat leaves ``acting``; the last one goes on."""
        acting = state.acting
        if len(acting) > 1:
            i = acting.index(seat)
            state.acting = acting[:i] + acting[i + 1 :]
        else:
            then(state)

    def _next_exchange(self, state: FoodState) -> None:
        state.phase = EXCHANGE
        state.turn += 1
        if state.turn < state.num_players:
            state.acting = (state.order[state.turn],)
        else:
            state.phase, state.acting = KEEP, tuple(range(state.num_players))

    def _answer(self, state: FoodState, seat: int, action: FoodAction) -> None:
        """The other player gives ingredients back, one at a time, until they match the
        offer's count (the cards then change hands), or declines it (nothing moves)."""
        giver, bundle = state.offer_from, state.offer_ings
        if action.kind == GIVE:
            state.given_ings = [*state.given_ings, action.thing]
            if len(state.given_ings) < len(bundle):
                return  # more to give
        given = state.given_ings if action.kind == GIVE else []
        if given:  # card for card: the offer's ingredients for those given back
            for ing in bundle:
                state.hands[giver].remove(ing)
                state.hands[seat].append(ing)
            for ing in given:
                state.hands[seat].remove(ing)
                state.hands[giver].append(ing)
        entry = {
            "from": giver,
            "to": seat,
            "offered": [self.ing_slugs[i] for i in bundle],
            "given": [self.ing_slugs[i] for i in given] if given else None,
        }
        state.trades = [*state.trades, entry]
        state.offer_from = state.offer_to = -1
        state.offer_ings, state.given_ings = [], []
        # The offerer's turn goes on: another offer (up to two a round), or pass.
        state.phase, state.acting = EXCHANGE, (giver,)

    def _present(self, state: FoodState) -> None:
        """Everyone kept three: name the products, all at once."""
        state.phase, state.acting = NAMING, tuple(range(state.num_players))

    def _present_and_vote(self, state: FoodState) -> None:
        """Product presentation: the Journalist lists every product; then everyone votes."""
        for seat in range(state.num_players):
            state.prod_owner.append(seat)
            state.prod_shape.append(state.dealt_shape[seat])
            state.prod_round.append(state.round)
            state.prod_ings.append(state.hands[seat])
            state.prod_name.append(state.pending_name[seat])
            state.prod_tagline.append(state.pending_tagline[seat])
        state.hands = [[] for _ in range(state.num_players)]
        state.dealt_shape = [-1] * state.num_players
        state.phase, state.acting = VOTING, tuple(range(state.num_players))

    def votes_received(self, state: FoodState) -> list[int]:
        received = [0] * state.num_players
        for target in state.votes:
            if target >= 0:
                received[target] += 1
        return received

    def _tally_votes(self, state: FoodState) -> None:
        """5 F per vote received; every player with the most votes takes one more chip (FA-8)."""
        received = self.votes_received(state)
        top = max(received)
        for seat, got in enumerate(received):
            state.money[seat] += self.data.table.vote_reward * got
            if got == top:
                state.chips[seat] += 1
        # Placing products in shops 1: six shops face up.
        # From the top of the shop deck; last round's shops went to its bottom.
        deck = state.shop_deck
        state.board = [deck.pop() for _ in range(min(self.board_size, len(deck)))]
        state.phase, state.turn = PLACING, 0
        state.acting = (state.order[0],)

    def _place(self, state: FoodState, seat: int, action: FoodAction) -> None:
        if action.kind == SHOP:
            state.shop_chips[seat] |= 1 << state.board.index(action.thing)
        elif action.kind == PROMOTE:
            state.channel_chips[seat] |= 1 << action.thing
        elif action.kind == INVEST:
            state.channel_chips[seat] |= 1 << self.mabius
            state.invest[seat] = action.seat
        shops, channels = state.shop_chips[seat].bit_count(), state.channel_chips[seat].bit_count()
        used = shops + channels
        finished = action.kind == DONE or used >= state.chips[seat]
        if not finished and shops == MAX_SHOPS and channels == MAX_CHANNELS:
            finished = True
        if not finished:
            return
        state.turn += 1
        if state.turn < state.num_players:
            state.acting = (state.order[state.turn],)
        elif state.round + 1 in self.event_rounds:
            self._deal_events(state)
        else:
            self._sell(state)

    # ------------------------------------------------------------------ events

    def _deal_events(self, state: FoodState) -> None:
        """Playing events: the Journalist deals one card to each player (ruling FA-10)."""
        for seat in range(state.num_players):
            if not state.event_deck:
                state.event_deck, state.event_discard = state.event_discard, []
            if state.event_deck:
                state.event_new[seat] = self._draw(state.event_deck, state.rng)
        state.phase, state.turn = EVENTS, -1
        self._next_event(state)

    def _next_event(self, state: FoodState) -> None:
        """Play the cards in seat order; a card that needs a choice waits for it."""
        n = state.num_players
        while True:
            state.turn += 1
            if state.turn >= n:
                self._sell(state)
                return
            seat = state.order[state.turn]
            card = state.event_new[seat]
            if card < 0:
                continue
            kind = self.event_kind[card]
            if kind in _CHOICE_EVENTS and self._event_choices(state, seat):
                state.acting = (seat,)
                return
            self._play_event(state, seat, card, -1, -1)

    def _log_event(self, state: FoodState, entry: dict[str, Any]) -> None:
        state.events_played = [*state.events_played, entry]

    def _shielded(self, state: FoodState, victim: int) -> int:
        """Use the victim's held shield card, if any; the card used, or -1."""
        for card in state.held[victim]:
            if self.event_kind[card] == "shield":
                state.held[victim].remove(card)
                state.event_discard.append(card)
                return card
        return -1

    def _play_event(self, state: FoodState, seat: int, card: int, target: int, ing: int) -> None:
        """Resolve one event card as it says (``target``/``ing``: the choice, if any)."""
        kind, value, n = self.event_kind[card], self.event_value[card], state.num_players
        state.event_new[seat] = -1
        entry: dict[str, Any] = {"seat": seat, "event": self.event_names[card], "effect": ""}
        if kind == "shield":
            state.held[seat].append(card)
            entry = {"seat": seat, "event": None, "effect": "kept a card face down"}
            self._log_event(state, entry)
            return
        state.event_discard.append(card)
        if kind in _CHOICE_EVENTS and target < 0 and ing < 0:
            entry["effect"] = "no product to take an ingredient from: no effect"
            self._log_event(state, entry)
            return
        if kind in ("steal", "remove_other"):
            victim = target if kind == "steal" else state.prod_owner[self._product_of(state, ing)]
            shield = self._shielded(state, victim)
            if shield >= 0:
                entry["effect"] = f"cancelled by seat {victim}'s {self.event_names[shield]}"
                self._log_event(state, entry)
                return
        if kind == "steal":
            taken = min(value, state.money[target])
            state.money[target] -= taken
            state.money[seat] += taken
            entry["effect"] = f"took {taken} F from seat {target}"
        elif kind in ("remove_other", "remove_own"):
            product = self._product_of(state, ing)
            state.prod_ings[product].remove(ing)
            self._return_ingredient(state, ing, -1)  # everyone saw it removed
            entry["effect"] = (
                f"removed {self.ing_names[ing]} from {state.prod_name[product]} "
                f"(seat {state.prod_owner[product]})"
            )
        elif kind == "gain":
            state.money[seat] += value
            entry["effect"] = f"received {value} F"
        elif kind == "lose":
            paid = min(value, state.money[seat])
            state.money[seat] -= paid
            entry["effect"] = f"paid {paid} F"
        elif kind == "tribute":
            total = 0
            for other in range(n):
                if other != seat:
                    paid = min(value, state.money[other])
                    state.money[other] -= paid
                    total += paid
            state.money[seat] += total
            entry["effect"] = f"received {total} F from the others"
        elif kind == "extra_customer":
            state.extra[seat] += value
            entry["effect"] = f"{value} extra personal customer(s) at the end of the round"
        elif kind == "chip":
            state.chips[seat] += value
            entry["effect"] = f"{value} more chip(s) from the next round on"
        else:
            entry["effect"] = "nothing happens"
        self._log_event(state, entry)

    def _product_of(self, state: FoodState, ing: int) -> int:
        return next(p for p, ings in enumerate(state.prod_ings) if ing in ings)

    def _resolve_choice(self, state: FoodState, seat: int, action: FoodAction) -> None:
        card = state.event_new[seat]
        if action.kind == TARGET:
            self._play_event(state, seat, card, action.seat, -1)
        else:
            self._play_event(state, seat, card, -1, action.thing)
        self._next_event(state)

    # ------------------------------------------------------------------ selling

    def describe_action(self, state: FoodState, seat: int, action: FoodAction) -> str:
        """The card, its price and hashtag, and what the move does (see ``describe``)."""
        return describe(self, state, seat, action)

    def offers(self, state: FoodState, seats: int = -1) -> list[Offer]:
        """Every product on offer (all products made so far, ruling FA-11) as ``Offer``s;
        ``seats`` is a bit mask to keep only some sellers' products."""
        return [
            Offer(
                product=p,
                seller=state.prod_owner[p],
                shape=state.prod_shape[p],
                price=sum(self.ing_price[i] for i in ings),
                tags=self.product_tags(ings),
            )
            for p, ings in enumerate(state.prod_ings)
            if seats >> state.prod_owner[p] & 1
        ]

    def product_tags(self, ings: list[int]) -> int:
        mask = 0
        for i in ings:
            mask |= 1 << self.ing_tag[i]
        return mask

    def _draw_customer(self, state: FoodState) -> int:
        """The Politician's deck; when it runs out, the played cards are reshuffled."""
        if not state.cust_deck:
            state.cust_deck, state.cust_discard = state.cust_discard, []
        if not state.cust_deck:
            return -1
        customer = self._draw(state.cust_deck, state.rng)
        state.cust_table.append(customer)
        return customer

    def shop_term_met(self, shop: int, customer: int, offer: Offer) -> bool:
        """Whether a sale meets ``shop``'s bonus term (``schema.SHOP_TERMS``)."""
        spec = self.data.shops[shop]
        when, value = spec.when, spec.value
        buyer = self.buyers[customer]
        if when == "male":
            return self.cust_male[customer]
        if when == "female":
            return not self.cust_male[customer]
        if when == "category":
            return self.cust_category[customer] == value
        if when == "hashtag":
            return bool(offer.tags >> self.hashtags.index(str(value)) & 1)
        if when == "favourite_shape":
            return bool(buyer.shapes >> offer.shape & 1)
        if when == "price_at_most":
            return offer.price <= int(value)
        if when == "price_at_least":
            return offer.price >= int(value)
        return matches(buyer, offer) >= int(value)  # matches_at_least

    def _pay_sale(
        self,
        state: FoodState,
        customer: int,
        offer: Offer,
        paid: int,
        reason: str,
        kind: str,
    ) -> None:
        """Pay the seller (plus shop bonuses for regular customers) and Mabius investors."""
        seller = offer.seller
        bonus = shape_bonus = 0
        shops: list[str] = []
        if kind == "regular":
            for slot, shop in enumerate(state.board):
                if not state.shop_chips[seller] >> slot & 1:
                    continue
                gained = 0
                if self.shop_term_met(shop, customer, offer):
                    gained += self.data.shops[shop].bonus
                    bonus += self.data.shops[shop].bonus
                if self.shop_shapes[shop] >> offer.shape & 1:
                    gained += self.data.table.shape_match_bonus
                    shape_bonus += self.data.table.shape_match_bonus
                if gained:
                    shops.append(f"{self.shop_names[shop]} +{gained}")
        state.money[seller] += paid + bonus + shape_bonus
        for seat in range(state.num_players):
            if state.invest[seat] == seller:
                state.money[seat] += self.data.marketing.mabius_profit
        state.sales.append(
            {
                "customer": self.cust_names[customer],
                "kind": kind,
                "seller": seller,
                "product": offer.product,
                "paid": paid,
                "bonus": bonus + shape_bonus,
                "reason": reason + (f"; {', '.join(shops)}" if shops else ""),
            }
        )

    def _sell(self, state: FoodState) -> None:
        """Selling products: six customers one by one, then extra personal customers."""
        state.phase, state.acting = OVER, ()  # no seat acts while customers shop
        state.sales = []
        n, everyone = state.num_players, (1 << state.num_players) - 1
        offers = self.offers(state, everyone)
        bf = sum(1 << s for s in range(n) if state.channel_chips[s] >> self.black_friday & 1)
        fs = sum(1 << s for s in range(n) if state.channel_chips[s] >> self.flavor & 1)
        limit = self.data.marketing.black_friday_limit
        for _ in range(self.per_round):
            customer = self._draw_customer(state)
            if customer < 0:
                break
            buyer = self.buyers[customer]
            if self.cust_joker[customer]:
                bought = joker_buys(buyer, offers)
                for offer in bought:
                    self._pay_sale(state, customer, offer, offer.price, "Joker", "joker")
                if not bought:
                    self._log_leave(state, customer, "Joker found nothing to his taste", "joker")
                continue
            choice = choose(buyer, offers, bf, fs, limit)
            if choice.offer is None:
                self._log_leave(state, customer, choice.reason, "regular")
            else:
                self._pay_sale(state, customer, choice.offer, choice.paid, choice.reason, "regular")
        # Advertising: each channel whose terms are met brings an extra personal customer.
        extras = list(state.extra)
        for seat in range(n):
            for c in range(self.num_ads):
                if state.channel_chips[seat] >> c & 1 and self.advert_met(state, seat, c, offers):
                    extras[seat] += 1
        for seat in state.order:
            mine = [o for o in offers if o.seller == seat]
            for _ in range(extras[seat]):
                customer = self._draw_customer(state)
                if customer < 0:
                    break
                buyer, joker = self.buyers[customer], self.cust_joker[customer]
                for choice in extra_customer_buys(buyer, mine, joker):
                    if choice.offer is not None:
                        self._pay_sale(
                            state, customer, choice.offer, choice.paid, choice.reason, "extra"
                        )
        self._end_round(state)

    def _log_leave(self, state: FoodState, customer: int, reason: str, kind: str) -> None:
        state.sales.append(
            {"customer": self.cust_names[customer], "kind": kind, "seller": None, "reason": reason}
        )

    def advert_met(self, state: FoodState, seat: int, channel: int, offers: list[Offer]) -> bool:
        """Whether ``seat`` meets advertising ``channel``'s terms this round."""
        spec = self.data.advertising[channel]
        regular = [s for s in state.sales if s.get("seller") == seat and s["kind"] != "extra"]
        received = self.votes_received(state)
        if spec.when == "sales_at_least":
            return len(regular) >= spec.value
        if spec.when == "votes_at_least":
            return received[seat] >= spec.value
        if spec.when == "top_vote":
            return received[seat] == max(received)
        newest = [
            o for o in offers if o.seller == seat and state.prod_round[o.product] == state.round
        ]
        if spec.when == "unique_hashtag":
            others = 0
            for o in offers:
                if o.seller != seat:
                    others |= o.tags
            return any(o.tags & ~others for o in newest)
        # matches_at_least: a regular customer bought from you with that many matches
        for sale in regular:
            offer = next(o for o in offers if o.product == sale["product"])
            customer = self.cust_names.index(sale["customer"])
            if matches(self.buyers[customer], offer) >= spec.value:
                return True
        return False

    def _end_round(self, state: FoodState) -> None:
        """Customers, shops and chips go back; the round goes into the log."""
        n = state.num_players
        state.log = [
            *state.log,
            {
                "round": state.round + 1,
                "trades": state.trades,
                "votes": list(state.votes),
                "shops": [
                    [self.shop_slugs[s] for k, s in enumerate(state.board) if m >> k & 1]
                    for m in state.shop_chips
                ],
                "channels": [
                    [self.channel_slugs[c] for c in range(len(self.channels)) if m >> c & 1]
                    for m in state.channel_chips
                ],
                "invest": list(state.invest),
                "events": state.events_played,
                "sales": state.sales,
            },
        ]
        state.cust_discard += state.cust_table
        state.cust_table = []
        # "Taking back played shop cards and placing them at the bottom of the deck",
        # face up, in board order (the first shop lowest).
        state.shop_deck = state.board + state.shop_deck
        state.board = []
        state.shop_chips, state.channel_chips, state.invest = [0] * n, [0] * n, [-1] * n
        state.extra = [0] * n
        state.round += 1
        if state.round >= self.rounds:
            self._finish(state)
        else:
            self._start_round(state)

    def _finish(self, state: FoodState) -> None:
        """Determining the winner: most foodcoins; a tie is settled by more customers (FA-14)."""
        state.phase, state.acting = OVER, ()
        state.trades, state.sales, state.events_played = [], [], []
        top = max(state.money)
        tied = [s for s in range(state.num_players) if state.money[s] == top]
        if len(tied) < 2:
            return
        offers = self.offers(state, sum(1 << s for s in tied))
        drawn: list[str] = []
        winner = -1
        for _ in range(self.data.table.tiebreak_draws):
            customer = self._draw_customer(state)
            if customer < 0:
                break
            drawn.append(self.cust_names[customer])
            buyer = self.buyers[customer]
            if self.cust_joker[customer]:
                bought = joker_buys(buyer, offers)
                pick = bought[0] if bought else None
            else:
                pick = choose(buyer, offers).offer
            if pick is not None:
                winner = pick.seller
                break
        state.cust_discard += state.cust_table
        state.cust_table = []
        state.tiebreak = {"tied": tied, "customers": drawn, "winner": winner}

    # ------------------------------------------------------------------ the end

    def standings(self, state: FoodState) -> tuple[float, ...]:
        """Foodcoins so far."""
        return tuple(float(m) for m in state.money)

    def outcome(self, state: FoodState) -> Outcome:
        if state.acting or state.round < self.rounds:
            raise PotluckError(
                f"the game is not over: it is round {min(state.round + 1, self.rounds)} "
                f"of {self.rounds}"
            )
        won = state.tiebreak["winner"] if state.tiebreak else -1
        keys = [(state.money[s], 1 if s == won else 0) for s in range(state.num_players)]
        base = Outcome.from_keys(tuple(state.money), keys, "")
        best = max(state.money)
        if state.tiebreak is None:
            reason = f"Seat {base.winners[0]} wins with {best} foodcoins."
        elif won >= 0:
            reason = (
                f"Seats {', '.join(map(str, state.tiebreak['tied']))} tie on {best} foodcoins; "
                f"seat {won} wins the extra customer."
            )
        else:
            reason = (
                f"Seats {', '.join(map(str, base.winners))} share the win with {best} "
                "foodcoins: no extra customer chose between them."
            )
        return Outcome(base.scores, base.winners, base.ranking, base.places, reason)

    def metrics(self, state: FoodState) -> dict[str, float | int | str]:
        """Sales, leavers, trades, and which channels and shapes go with winning."""
        sales = [s for r in state.log for s in r["sales"]]
        sold = [s for s in sales if s["seller"] is not None]
        winners = set(self.outcome(state).winners) if not state.acting else set()
        metrics: dict[str, float | int | str] = {
            "sales": len(sold),
            "left_unhappy": len(sales) - len(sold),
            "joker_sales": sum(1 for s in sold if s["kind"] == "joker"),
            "extra_sales": sum(1 for s in sold if s["kind"] == "extra"),
            "trades": sum(1 for r in state.log for t in r["trades"] if t["given"]),
            "offers": sum(len(r["trades"]) for r in state.log),
            "tiebreak": 1 if state.tiebreak else 0,
            "mean_price": round(
                sum(sum(self.ing_price[i] for i in ings) for ings in state.prod_ings)
                / max(1, len(state.prod_ings)),
                3,
            ),
        }
        # What goes with winning: the winners' product prices, and their share of sales.
        won = [p for p, owner in enumerate(state.prod_owner) if owner in winners]
        metrics["winner_mean_price"] = round(
            sum(sum(self.ing_price[i] for i in state.prod_ings[p]) for p in won) / max(1, len(won)),
            3,
        )
        metrics["winner_sales"] = sum(1 for s in sold if s["seller"] in winners)
        for slug in self.channel_slugs:
            uses = [
                seat
                for r in state.log
                for seat, chosen in enumerate(r["channels"])
                if slug in chosen
            ]
            metrics[f"winner_channel_{slug}"] = sum(1 for s in uses if s in winners)
            metrics[f"channel_{slug}"] = len(uses)
        return metrics

    def seat_metrics(self, state: FoodState, seat: int) -> dict[str, float | int]:
        """What ``seat`` made and chose, for the lab's "what goes with winning" tables.

        ``shape:<name>`` counts its products of that shape; ``channel:<slug>`` and
        ``shop:<slug>`` the rounds it chose that promotion channel or shop;
        ``sales`` the customers who bought from it; ``votes`` the votes its
        products received; ``money`` its final foodcoins. Totals of its choices:
        ``promotions`` (chips on promotion channels), ``shops_chosen``,
        ``investments`` (Mabius), ``offers_made`` and ``cards_given`` (ingredient
        exchange).
        """
        found: dict[str, float | int] = {}
        for product, owner in enumerate(state.prod_owner):
            if owner == seat:
                key = f"shape:{self.shape_slugs[state.prod_shape[product]]}"
                found[key] = found.get(key, 0) + 1
        sales = votes = 0
        for record in state.log:
            for kind, chosen in (
                ("channel", record["channels"][seat]),
                ("shop", record["shops"][seat]),
            ):
                for slug in chosen:
                    found[f"{kind}:{slug}"] = found.get(f"{kind}:{slug}", 0) + 1
            votes += sum(1 for voted in record["votes"] if voted == seat)
            sales += sum(1 for sale in record["sales"] if sale["seller"] == seat)
        found["sales"] = sales
        found["votes"] = votes
        found["money"] = state.money[seat]
        kinds = [a.kind for who, a in state.history if who == seat and isinstance(a, FoodAction)]
        found["promotions"] = kinds.count(PROMOTE)
        found["shops_chosen"] = kinds.count(SHOP)
        found["investments"] = kinds.count(INVEST)
        found["offers_made"] = sum(
            1 for record in state.log for trade in record["trades"] if trade["from"] == seat
        )
        found["cards_given"] = kinds.count(GIVE)
        return found

    # ------------------------------------------------------------------ text and numbers

    def parse_action(self, state: FoodState | None, seat: int, text: str) -> FoodAction:
        return self._action_from_text(text)

    def _action_from_text(self, text: str) -> FoodAction:
        if not isinstance(text, str):
            raise InvalidActionError(f"an action is text, not {type(text).__name__}")
        key = " ".join(text.strip().split())
        match = _NAME_TEXT.match(key)
        if match:
            return self.name_action(match.group(1), match.group(2))
        action = self._by_text.get(key.lower())
        words = key.lower().split()
        if action is None and len(words) >= 2 and numbers_as_written(words):
            if words[0] == "offer" and len(words) >= 4 and words[-2] == "to":
                candidate = f"offer {slugify(' '.join(words[1:-2]))} to {words[-1]}"
            else:
                candidate = f"{words[0]} {slugify(' '.join(words[1:]))}"
            action = self._by_text.get(candidate)
        if action is None:
            raise InvalidActionError(
                f"{text!r} is not a FoodAdvice action: write e.g. 'pass', "
                f"'offer {self.ing_slugs[0]} to 1', 'discard {self.ing_slugs[0]}', "
                "'name \"Yogurt Rocket\" / \"Fly me to the moon\"', 'vote 2', "
                f"'shop {self.shop_slugs[0]}', 'promote {self.channel_slugs[0]}', 'invest 1', "
                "'done', 'target 1' or 'remove <ingredient>'."
            )
        return action

    def max_steps(self, num_players: int) -> int:
        # Per round and player: two offers of up to three cards, each sent and answered
        # card by card, a pass, the discards, a name, a vote, at most five chips and
        # 'done', one event choice.
        exchange = MAX_OFFERS * (2 * MAX_OFFER_CARDS + 1) + 1
        per_player = exchange + (self.dealt - self.kept) + 1 + 1 + MAX_SHOPS + MAX_CHANNELS + 1 + 1
        return self.rounds * per_player * num_players

    def num_distinct_actions(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> int:
        return self.size

    def action_from_index(self, state: FoodState | None, seat: int, index: int) -> FoodAction:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < self.size:
            raise InvalidActionError(
                f"action index {index!r} is out of range: FoodAdvice has {self.size} actions"
            )
        if index == self.base[NAME]:
            if state is None:
                return self.name_action("Product", "")
            return self.generated_name(state, seat)
        return self.actions[index]

    # ------------------------------------------------------------------ views and bots

    def _observation_features(self, num_players: int, options: Mapping[str, Any]) -> list[Feature]:
        from potluck.games.food_advice.encoding import features

        return features(self, num_players, options)

    def _encode_view(self, view: Mapping[str, Any], out: ObservationWriter) -> None:
        from potluck.games.food_advice.encoding import encode

        encode(self, view, out)

    def _encode_state(
        self, state: FoodState, seat: int, encoding: ObservationEncoding
    ) -> list[float]:
        from potluck.games.food_advice.encoding import encode_state

        return encode_state(self, state, seat, encoding)

    def view(self, state: FoodState, seat: int | None) -> dict[str, Any]:
        from potluck.games.food_advice.view import build_view

        return build_view(self, state, seat)

    def redeal(self, state: FoodState, seat: int, rng: random.Random) -> FoodState:
        from potluck.games.food_advice.view import redeal

        return redeal(self, state, seat, rng)

    def invariants(self, state: FoodState) -> list[str]:
        """Every card is in exactly one place; money never falls below zero."""
        from potluck.games.food_advice.view import invariant_problems

        return invariant_problems(self, state)

    def bots(self) -> dict[str, Callable[[], Bot]]:
        from potluck.games.food_advice.bots import GreedyBot

        return {"random": RandomBot, "greedy": GreedyBot}

    # ------------------------------------------------------------------ saving

    def _state_to_json(self, state: FoodState) -> dict[str, Any]:
        data: dict[str, Any] = {name: getattr(state, name) for name in INTS}
        for name in INT_LISTS + STR_LISTS:
            data[name] = list(getattr(state, name))
        for name in NESTED_LISTS:
            data[name] = [list(inner) for inner in getattr(state, name)]
        data["log"] = state.log
        data["trades"], data["sales"] = state.trades, state.sales
        data["events_played"], data["tiebreak"] = state.events_played, state.tiebreak
        return data

    def _state_from_json(
        self, data: Mapping[str, Any], num_players: int, seed: int, options: Mapping[str, Any]
    ) -> FoodState:
        state = FoodState(num_players, seed, options)
        try:
            for name in INTS:
                setattr(state, name, int(data[name]))
            for name in INT_LISTS:
                setattr(state, name, [int(x) for x in data[name]])
            for name in STR_LISTS:
                setattr(state, name, [str(x) for x in data[name]])
            for name in NESTED_LISTS:
                setattr(state, name, [[int(x) for x in inner] for inner in data[name]])
            for name in ("log", "trades", "sales", "events_played", "tiebreak"):
                setattr(state, name, data[name])
        except (KeyError, TypeError, ValueError) as error:
            raise RecordError(f"the saved FoodAdvice state is malformed: {error!r}") from None
        if len(state.money) != num_players or set(ALL_SLOTS) - set(data):
            raise RecordError("the saved FoodAdvice state does not match its number of players")
        return state


__all__ = ["CATEGORIES", "PHASE_NAMES", "FoodAdvice"]
