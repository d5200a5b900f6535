"""The schema of FoodAdvice's card data (``data/cards.toml`` or a user's own file).

Every card kind of the box is a list of tables; the terms of shops, advertising
channels and events are drawn from fixed vocabularies (``SHOP_TERMS``,
``ADVERTISING_TERMS``, ``EVENT_KINDS``) so that the engine can evaluate them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from potluck.engine.text import slugify

MAX_PLAYERS = 6
CATEGORIES = ("economy", "medium", "premium")
#: Shop bonus terms: the bonus is paid once per sale that meets the term.
SHOP_TERMS = (
    "male",  # the buyer is male
    "female",  # the buyer is female
    "category",  # the buyer's category is ``value``
    "hashtag",  # the product has the hashtag ``value``
    "favourite_shape",  # the product's shape is the buyer's favourite
    "price_at_most",  # the product's price is at most ``value``
    "price_at_least",  # the product's price is at least ``value``
    "matches_at_least",  # the product matches at least ``value`` of the buyer's hashtags
)
#: Advertising terms: met at the end of the customers, each gives an extra customer.
ADVERTISING_TERMS = (
    "sales_at_least",
    "votes_at_least",
    "unique_hashtag",
    "matches_at_least",
    "top_vote",
)
EVENT_KINDS = (
    "steal",  # take up to ``value`` F from another player (chosen)
    "remove_other",  # remove an ingredient from another player's product (chosen)
    "remove_own",  # remove an ingredient from your own product (chosen)
    "gain",  # the bank pays ``value`` F
    "lose",  # pay ``value`` F to the bank (as much as you have)
    "tribute",  # every other player pays you ``value`` F (as much as they have)
    "extra_customer",  # ``value`` extra personal customers at the end of this round
    "chip",  # ``value`` more chips from the next round on
    "shield",  # held face down; cancels the next steal or removal against you
    "nothing",
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TableSpec(_Strict):
    rounds: int = Field(default=3, ge=1, le=10)
    customers_per_round: int = Field(default=6, ge=1, le=20)
    shops_on_board: int = Field(default=6, ge=3, le=10)
    ingredients_dealt: int = Field(default=6, ge=3, le=10)
    ingredients_kept: int = Field(default=3, ge=1, le=3)
    starting_chips: int = Field(default=3, ge=3, le=10)
    starting_money: int = Field(default=0, ge=0, le=10_000)
    vote_reward: int = Field(default=5, ge=0, le=1_000)
    shape_match_bonus: int = Field(default=10, ge=0, le=1_000)
    event_rounds: list[int] = Field(default=[2, 3])
    tiebreak_draws: int = Field(default=10, ge=1, le=100)


class Prices(_Strict):
    economy: int = Field(ge=0, le=1_000)
    medium: int = Field(ge=0, le=1_000)
    premium: int = Field(ge=0, le=1_000)


class Budgets(_Strict):
    economy: int = Field(ge=0, le=10_000)
    medium: int = Field(ge=0, le=10_000)
    premium: int = Field(ge=0, le=10_000)
    joker: int = Field(ge=0, le=10_000)


class Marketing(_Strict):
    black_friday_limit: int = Field(ge=0, le=10_000)
    mabius_profit: int = Field(ge=0, le=10_000)


class AdvertisingSpec(_Strict):
    name: str = Field(min_length=1, max_length=40)
    when: Literal[
        "sales_at_least", "votes_at_least", "unique_hashtag", "matches_at_least", "top_vote"
    ]
    value: int = Field(default=0, ge=0, le=100)
    text: str = ""


class IngredientSpec(_Strict):
    name: str = Field(min_length=1, max_length=40)
    category: Literal["economy", "medium", "premium"]
    hashtag: str


class CustomerSpec(_Strict):
    name: str = Field(min_length=1, max_length=40)
    gender: Literal["male", "female"]
    category: Literal["economy", "medium", "premium", "joker"]
    hashtags: list[str] = Field(min_length=1, max_length=6)
    shapes: list[str] = Field(min_length=1, max_length=3, description="favourite shape(s)")


class ShopSpec(_Strict):
    name: str = Field(min_length=1, max_length=40)
    bonus: int = Field(ge=0, le=1_000)
    when: Literal[
        "male",
        "female",
        "category",
        "hashtag",
        "favourite_shape",
        "price_at_most",
        "price_at_least",
        "matches_at_least",
    ]
    value: int | str = 0
    shapes: list[str] = Field(min_length=2, max_length=2)


class EventSpec(_Strict):
    name: str = Field(min_length=1, max_length=40)
    kind: Literal[
        "steal",
        "remove_other",
        "remove_own",
        "gain",
        "lose",
        "tribute",
        "extra_customer",
        "chip",
        "shield",
        "nothing",
    ]
    value: int = Field(default=0, ge=0, le=1_000)
    text: str = ""


class FoodData(_Strict):
    """The whole data file: the table's constants, the board's terms and every card."""

    authored: bool = False
    hashtags: list[str] = Field(min_length=1, max_length=100)
    shapes: list[str] = Field(min_length=1, max_length=100)
    table: TableSpec = TableSpec()
    prices: Prices
    budgets: Budgets
    marketing: Marketing
    advertising: list[AdvertisingSpec] = Field(min_length=1, max_length=10)
    ingredients: list[IngredientSpec] = Field(min_length=1, max_length=400)
    customers: list[CustomerSpec] = Field(min_length=1, max_length=400)
    shops: list[ShopSpec] = Field(min_length=1, max_length=100)
    events: list[EventSpec] = Field(min_length=1, max_length=400)

    @model_validator(mode="after")
    def _check_cards(self) -> FoodData:
        tags, shapes = set(self.hashtags), set(self.shapes)
        if len(tags) != len(self.hashtags) or len(shapes) != len(self.shapes):
            raise ValueError("hashtags and shapes must each be listed once")
        for kind, names in (
            ("ingredient", [i.name for i in self.ingredients]),
            ("customer", [c.name for c in self.customers]),
            ("shop", [s.name for s in self.shops]),
            ("event", [e.name for e in self.events]),
            ("advertising channel", [a.name for a in self.advertising]),
        ):
            slugs = [slugify(name) for name in names]
            if len(set(slugs)) != len(slugs) or not all(slugs):
                raise ValueError(f"{kind} names must differ and contain letters or digits")
        for ing in self.ingredients:
            if ing.hashtag not in tags:
                raise ValueError(f"ingredient {ing.name!r} has unknown hashtag {ing.hashtag!r}")
        for cust in self.customers:
            for tag in cust.hashtags:
                if tag not in tags:
                    raise ValueError(f"customer {cust.name!r} has unknown hashtag {tag!r}")
            for shape in cust.shapes:
                if shape not in shapes:
                    raise ValueError(f"customer {cust.name!r} has unknown shape {shape!r}")
        for shop in self.shops:
            for shape in shop.shapes:
                if shape not in shapes:
                    raise ValueError(f"shop {shop.name!r} has unknown shape {shape!r}")
            if shop.when == "hashtag" and shop.value not in tags:
                raise ValueError(f"shop {shop.name!r} names unknown hashtag {shop.value!r}")
            if shop.when == "category" and shop.value not in CATEGORIES:
                raise ValueError(f"shop {shop.name!r} names unknown category {shop.value!r}")
            if shop.when in ("hashtag", "category") and not isinstance(shop.value, str):
                raise ValueError(f"shop {shop.name!r}: term {shop.when!r} takes a name")
            if shop.when not in ("hashtag", "category") and not isinstance(shop.value, int):
                raise ValueError(f"shop {shop.name!r}: term {shop.when!r} takes a number")
        n = MAX_PLAYERS
        rounds = self.table.rounds
        if len(self.shapes) < n * rounds:
            raise ValueError(f"{n} players over {rounds} rounds need {n * rounds} product shapes")
        dealt, kept = self.table.ingredients_dealt, self.table.ingredients_kept
        if len(self.ingredients) < n * (dealt + kept * (rounds - 1)):
            raise ValueError("too few ingredients for six players over every round")
        if len(self.shops) < self.table.shops_on_board:
            raise ValueError("fewer shops than shop fields on the board")
        if len(self.events) < n * len(self.table.event_rounds):
            raise ValueError("too few events to deal one to each of six players each time")
        if not any(c.category != "joker" for c in self.customers):
            raise ValueError("the customer deck needs at least one customer who is no Joker")
        return self
