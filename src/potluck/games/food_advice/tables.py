"""FoodAdvice's tables: what the card data fixes for a whole game, built once.

``FoodTables`` turns the data (``schema.FoodData``) into tuples indexed by card
number and interns every action but names. The ``FoodAdvice`` class (game.py) is
a ``FoodTables``; the rules chapters, views, encoding and bots take a
``FoodTables`` so that they never import the class that imports them (no import
circle, docs/engine.md "The shape of a game").

    >>> import potluck
    >>> tables = potluck.load_game("food-advice")  # the game is its own tables
    >>> tables.ing_slugs[0] in tables.ing_index, tables.act(PASS).text
    (True, 'pass')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from potluck.engine.data import DataSource, load_data
from potluck.engine.errors import InvalidActionError
from potluck.engine.game import Game
from potluck.engine.text import slugify
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
from potluck.games.food_advice.market import Buyer
from potluck.games.food_advice.schema import SHOP_TERMS, FoodData, ShopSpec
from potluck.games.food_advice.state import (
    BLACK_FRIDAY,
    FLAVOR_SAMPLING,
    MABIUS,
    FoodState,
    holds,
)

MAX_SEATS: Final = 6
#: Most shops and promotion channels one player may hold chips on in a round.
MAX_SHOPS: Final = 3
MAX_CHANNELS: Final = 2
#: The ingredient exchange (ruling FA-13): each player makes at most this many offers a
#: round, each of at most this many cards, answered with as many.
MAX_OFFERS: Final = 2
MAX_OFFER_CARDS: Final = 3
#: The longest product name and tagline (``name_action``).
_NAME_LIMIT: Final = 60
_TAGLINE_LIMIT: Final = 80


@mypyc_attr(allow_interpreted_subclasses=True)
class FoodTables(Game[FoodState, FoodAction]):
    """The per-game tables: card names, prices, hashtags and shapes as tuples of small
    ints, the customers as ``Buyer``s, and every action interned (``act``)."""

    id: ClassVar[str] = "food-advice"
    min_players: ClassVar[int] = 4

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
        # The parts of a generated product name, made once (``generated_name``).
        self.shape_titles = tuple(shape.title() for shape in d.shapes)
        self.hashtag_titles = tuple(tag.title() for tag in d.hashtags)
        self.hashtag_words = tuple(f"#{tag}" for tag in d.hashtags)
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
        self.regular_customers = tuple(c for c, joker in enumerate(self.cust_joker) if not joker)
        self.buyers = tuple(
            Buyer(
                tags=sum(1 << tag_of[h] for h in set(c.hashtags)),
                shapes=sum(1 << shape_of[s] for s in set(c.shapes)),
                budget=budget[c.category],
            )
            for c in d.customers
        )
        # The regular customers (numbered 0..K-1 in ``regular_customers`` order) as bit
        # sets, made once for the greedy bot's forecast (``forecast.Baseline``): per
        # hashtag, those who like it; per shape, those whose favourite shapes include
        # it; per price up to the highest budget, those whose budget covers it.
        regular = [self.buyers[c] for c in self.regular_customers]
        self.regular_liking_tag = tuple(
            sum(1 << k for k, b in enumerate(regular) if b.tags >> t & 1)
            for t in range(len(self.hashtags))
        )
        self.regular_liking_shape = tuple(
            sum(1 << k for k, b in enumerate(regular) if b.shapes >> s & 1)
            for s in range(len(self.shapes))
        )
        self.regular_affording = tuple(
            sum(1 << k for k, b in enumerate(regular) if price <= b.budget)
            for price in range(max((b.budget for b in regular), default=0) + 1)
        )
        self.shop_names = tuple(s.name for s in d.shops)
        self.shop_slugs = tuple(slugify(s.name) for s in d.shops)
        self.shop_shapes = tuple(sum(1 << shape_of[x] for x in set(s.shapes)) for s in d.shops)
        # What a sale reads of the shops and the bank as plain fields: a pydantic model's
        # attribute is a Python look-up even in compiled code, and sales are a sixth of
        # a random step (issue 36).
        self.shop_when = tuple(s.when for s in d.shops)
        self.shop_value = tuple(s.value for s in d.shops)
        self.shop_bonus = tuple(s.bonus for s in d.shops)
        # Each shop's term as its place in ``SHOP_TERMS`` and its value as a number (the
        # price or matches, the hashtag's index; -1: none), for ``selling.shop_term_met``.
        self.shop_term = tuple(SHOP_TERMS.index(s.when) for s in d.shops)
        self.shop_number = tuple(self._term_number(s) for s in d.shops)
        self.shape_match_bonus = t.shape_match_bonus
        self.vote_reward = t.vote_reward
        self.mabius_profit = d.marketing.mabius_profit
        self.black_friday_limit = d.marketing.black_friday_limit
        self.event_names = tuple(e.name for e in d.events)
        self.event_kind = tuple(e.kind for e in d.events)
        self.event_value = tuple(e.value for e in d.events)
        ads = [a.name for a in d.advertising]
        self.ad_when = tuple(a.when for a in d.advertising)
        self.ad_value = tuple(a.value for a in d.advertising)
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
        # 0, 1, 2, ... up to the largest deck: a new game copies each deck's numbers from
        # here (``setup.new_state``).
        decks = (self.ing_names, self.shapes, self.shop_names, self.event_names, self.cust_names)
        self.card_numbers = tuple(range(max(len(deck) for deck in decks)))
        self.cust_last_index = {name: c for c, name in enumerate(self.cust_names)}
        self.channel_index = {slug: i for i, slug in enumerate(self.channel_slugs)}
        self.hashtag_index = {tag: i for i, tag in enumerate(self.hashtags)}
        self._build_card_faces()
        self._build_actions()
        # Whether every part of a generated name is written as ``name_action`` keeps it
        # (no space at either end or twice in a row, no double quote): ``generated_name``
        # then writes its action without normalising the text.
        parts = (*self.shape_titles, *self.hashtag_titles, *self.hashtag_words)
        self._plain_name_parts = all(
            part and " ".join(part.split()) == part and '"' not in part for part in parts
        )
        #: The greedy bots' customer work per table, shared by every bot of this game
        #: (a ``shared_tables.TableMemo``, made by the first greedy decision; ``None`` before).
        self.greedy_tables: Any = None

    def _term_number(self, spec: ShopSpec) -> int:
        """A shop term's value as a number: the hashtag's index for a hashtag term, else
        the whole number it writes; -1 when it is neither (the sale then reads the value
        as written, ``selling.shop_term_met``)."""
        if spec.when == "hashtag":
            tag = str(spec.value)
            return self.hashtags.index(tag) if tag in self.hashtags else -1
        if isinstance(spec.value, int):
            return spec.value
        try:
            return int(spec.value)
        except ValueError:
            return -1

    def _build_card_faces(self) -> None:
        """Each card's face as views show it, made once (views copy them)."""
        d = self.data
        self.ing_hashtag = tuple(self.hashtags[t] for t in self.ing_tag)
        self.ing_faces: tuple[dict[str, Any], ...] = tuple(
            {
                "ingredient": self.ing_slugs[i],
                "name": self.ing_names[i],
                "category": self.ing_category[i],
                "price": self.ing_price[i],
                "hashtag": self.ing_hashtag[i],
            }
            for i in range(len(self.ing_names))
        )
        self.event_faces: tuple[dict[str, Any], ...] = tuple(
            {
                "event": self.event_names[e],
                "kind": spec.kind,
                "value": spec.value,
                "text": spec.text,
            }
            for e, spec in enumerate(d.events)
        )
        self.shop_faces: tuple[dict[str, Any], ...] = tuple(
            {
                "shop": self.shop_slugs[k],
                "name": spec.name,
                "bonus": spec.bonus,
                "when": spec.when,
                "value": spec.value,
                "shapes": tuple(spec.shapes),
                "rule": shop_rule(spec, d.table.shape_match_bonus),
            }
            for k, spec in enumerate(d.shops)
        )
        self.customer_faces: tuple[dict[str, Any], ...] = tuple(
            {
                "gender": spec.gender,
                "category": spec.category,
                "budget": self.buyers[c].budget,
                "hashtags": tuple(spec.hashtags),
                "shapes": tuple(spec.shapes),
            }
            for c, spec in enumerate(d.customers)
        )
        # The slugs of the channels in each chip mask, lowest channel first.
        self.channel_lists = tuple(
            tuple(self.channel_slugs[c] for c in range(len(self.channels)) if mask >> c & 1)
            for mask in range(1 << len(self.channels))
        )

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
        # The same actions by kind (``kind_actions[SHOP][shop]``), and the offers by
        # ingredient (``offer_rows[ingredient][seat]``), for the legal-action lists.
        self.kind_actions = tuple(
            self.actions[start : start + size] for start, size in zip(b, sizes, strict=True)
        )
        offers = self.kind_actions[OFFER]
        self.offer_rows = tuple(
            offers[i * MAX_SEATS : (i + 1) * MAX_SEATS] for i in range(len(self.ing_names))
        )
        # other_seats[n][seat]: the seats of an n-player table but ``seat``, in order.
        self.other_seats = tuple(
            tuple(tuple(s for s in range(n) if s != seat) for seat in range(n))
            for n in range(MAX_SEATS + 1)
        )
        # others_offers[n][seat][ingredient]: that card offered to each other seat of an
        # n-player table, in seat order: the exchange's legal list adds a card's offers
        # in one call (a tenth of a random step is the exchange's list, issue 36).
        self.others_offers = tuple(
            tuple(
                tuple(tuple(row[s] for s in others) for row in self.offer_rows)
                for others in self.other_seats[n]
            )
            for n in range(MAX_SEATS + 1)
        )
        # The placing's legal list reads these rows whole (``placing.placing_actions``):
        # open_promotions[mask], the promotions of the channels (Mabius aside) that a seat
        # with the channel chips ``mask`` has no chip on, in channel order;
        # invest_rows[n][seat], the investments in each other seat of an n-player table.
        promotions, invest = self.kind_actions[PROMOTE], self.kind_actions[INVEST]
        self.open_promotions = tuple(
            tuple(promotions[c] for c in range(self.mabius) if not mask >> c & 1)
            for mask in range(1 << len(self.channels))
        )
        self.invest_rows = tuple(
            tuple(tuple(invest[s] for s in others) for others in self.other_seats[n])
            for n in range(MAX_SEATS + 1)
        )
        self._by_text = {a.text: a for a in self.actions}

    def act(self, kind: int, offset: int = 0) -> FoodAction:
        """The interned action of ``kind`` at ``offset`` (ingredient, seat, shop or channel)."""
        return self.actions[self.base[kind] + offset]

    def offer_action(self, ingredient: int, seat: int) -> FoodAction:
        return self.actions[self.base[OFFER] + ingredient * MAX_SEATS + seat]

    def generated_name(self, state: FoodState, seat: int) -> FoodAction:
        """The name and tagline made up from ``seat``'s product (what bots say): the
        first ingredient's hashtag and the product's shape, then its hashtags (each
        once, in hand order) and its price."""
        n = state.num_players
        hand = state.hands[seat] if 0 <= seat < n else []
        shape = state.dealt_shape[seat] if 0 <= seat < n else -1
        noun = self.shape_titles[shape] if shape >= 0 else "Product"
        tags: list[int] = []
        price = 0
        for i in hand:
            tag = self.ing_tag[i]
            if not holds(tags, tag):
                tags.append(tag)
            price += self.ing_price[i]
        adjective = self.hashtag_titles[tags[0]] if tags else "Mystery"
        name = f"{adjective} {noun}"
        if tags:
            words = [self.hashtag_words[tag] for tag in tags]
            tagline = f"{' '.join(words)} for {price} F"
            if not self._plain_name_parts:
                tagline = tagline.strip()
        else:
            tagline = f"for {price} F"
        if self._plain_name_parts and len(name) <= _NAME_LIMIT and len(tagline) <= _TAGLINE_LIMIT:
            # Parts with single spaces and no quotes, joined by single spaces: the text
            # is as ``name_action`` would write it, without its normalising and checks
            # (a twentieth of a random step, issue 36).
            code = self.base[NAME]
            text = f'name "{name}" / "{tagline}"'
            return FoodAction(code, text, NAME, name=name, tagline=tagline)
        return self.name_action(name, tagline)

    def name_action(self, name: str, tagline: str) -> FoodAction:
        """The naming action for this name and tagline (free text without quotes)."""
        name, tagline = " ".join(name.split()), " ".join(tagline.split())
        if (
            not name
            or '"' in name + tagline
            or len(name) > _NAME_LIMIT
            or len(tagline) > _TAGLINE_LIMIT
        ):
            raise InvalidActionError(
                "a name is 1 to 60 characters and a tagline at most 80, without double quotes"
            )
        code = self.base[NAME]
        return FoodAction(code, f'name "{name}" / "{tagline}"', NAME, name=name, tagline=tagline)

    def product_tags(self, ings: list[int]) -> int:
        """The hashtag mask of a product made of ``ings``."""
        mask = 0
        for i in ings:
            mask |= 1 << self.ing_tag[i]
        return mask


#: What each shop term asks of a sale, in words (``ShopSpec.when``; ``{}``: its value).
SHOP_TERM_WORDS = {
    "male": "to a man",
    "female": "to a woman",
    "category": "to a customer on {} budget",
    "hashtag": "of a product with #{}",
    "favourite_shape": "of a product in the buyer's favourite shape",
    "price_at_most": "of a product of {} F or less",
    "price_at_least": "of a product of {} F or more",
    "matches_at_least": "to a buyer who likes at least {} of its hashtags",
}


def shop_rule(spec: ShopSpec, shape_bonus: int) -> str:
    """A shop's bonuses in words, as a player reads them on its card.

    >>> spec = ShopSpec(name="Sparget", bonus=10, when="male", shapes=["garnish", "tea"])
    >>> shop_rule(spec, 10)
    '+10 F for each sale to a man; +10 F if shaped as garnish or tea'
    """
    value = spec.value
    if spec.when == "category":  # "a customer on an economy budget"
        value = f"{'an' if str(value)[:1] in 'aeiou' else 'a'} {value}"
    term = SHOP_TERM_WORDS[spec.when].format(value)
    shapes = " or ".join(spec.shapes)
    shaped = f"+{shape_bonus} F if shaped as {shapes}"
    return f"+{spec.bonus} F for each sale {term}; {shaped}"
