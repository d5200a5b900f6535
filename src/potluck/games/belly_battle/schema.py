"""The schema of Belly Battle's board data (``data/board.toml`` or a user's own file).

A board file holds the bank's constants, the restaurants (cuisine, price, fee
table, chef and star prices, cheese flag), the corner cafes, the track as a
list of space names, and the Munchtime cards. ``BoardData`` checks that the
pieces fit together, so that the rules never meet a board they cannot play::

    >>> from potluck.engine.data import load_data
    >>> board = load_data(BoardData, None, package="potluck.games.belly_battle",
    ...                   default="data/board.toml")
    >>> len(board.restaurant), len(board.cafe), len(board.board), len(board.munchtime)
    (24, 2, 44, 20)
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from potluck.engine.text import slugify

#: The special spaces of the rulebook, by the word the board file uses for each.
SPECIAL_SPACES = (
    "start",
    "takeover",
    "swap",
    "sneaky-eyes",
    "golden-belly",
    "munchtime",
    "bellyguard",
    "yuck",
    "celebrity",
    "bollywood",
    "haunted",
    "monsterchef",
    "cheesy-scandal",
    "tunnel",
)

#: Words that actions use; a restaurant's notation may not be one of them.
RESERVED_WORDS = frozenset({"buy", "pass", "tunnel", "accept", "decline", *SPECIAL_SPACES})


class BankSpec(BaseModel):
    """Mr. Munchwalla's supplies and the fixed amounts of the rulebook."""

    model_config = ConfigDict(extra="forbid")

    start_money: int = Field(default=1000, ge=0, le=1_000_000)
    chefs: int = Field(default=24, ge=0, le=1000)
    stars: int = Field(default=12, ge=0, le=1000)
    bellyguards: int = Field(default=3, ge=0, le=100)
    cafe_fee: int = Field(default=30, ge=0, le=100_000)
    token_sellback: int = Field(default=50, ge=0, le=100_000, description="chef or star to bank")
    chef_wealth: int = Field(default=50, ge=0, le=100_000)
    star_wealth: int = Field(default=150, ge=0, le=100_000)
    yuck_fine: int = Field(default=50, ge=0, le=100_000)
    bollywood_bonus: int = Field(default=100, ge=0, le=100_000)
    celebrity_bonus: int = Field(default=50, ge=0, le=100_000)
    smallest_note: int = Field(
        default=10, ge=1, le=1000, description="every amount is paid in whole notes of this"
    )


class RestaurantSpec(BaseModel):
    """One restaurant card: fees are ``[basic, 1 chef, 2 chefs, star]``."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=60)
    cuisine: str = Field(min_length=1, max_length=30)
    price: int = Field(ge=0, le=100_000)
    fees: list[int] = Field(min_length=4, max_length=4)
    chef_price: int = Field(ge=0, le=100_000)
    star_price: int = Field(ge=0, le=100_000)
    cheese: bool = False

    @model_validator(mode="after")
    def _check_fees(self) -> RestaurantSpec:
        if any(fee < 0 for fee in self.fees):
            raise ValueError(f"restaurant {self.name!r} has a negative fee")
        return self


class CafeSpec(BaseModel):
    """A corner cafe card: bought like a restaurant, never upgraded."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=60)
    price: int = Field(ge=0, le=100_000)


class MunchtimeSpec(BaseModel):
    """A Munchtime card names two cuisines."""

    model_config = ConfigDict(extra="forbid")

    cuisines: list[str] = Field(min_length=2, max_length=2)


class BoardData(BaseModel):
    """The whole board file.

    Every amount must be payable in the game's notes (the smallest is BR 10): prices,
    fees, token prices, the bank's fixed amounts, and half of each card's price, which
    is what Mr. Munchwalla pays back for it.
    """

    model_config = ConfigDict(extra="forbid")

    authored: bool = False
    bank: BankSpec = BankSpec()
    restaurant: list[RestaurantSpec] = Field(min_length=1, max_length=60)
    cafe: list[CafeSpec] = Field(default_factory=list, max_length=10)
    board: list[str] = Field(min_length=2, max_length=200)
    munchtime: list[MunchtimeSpec] = Field(min_length=6, max_length=200)

    @model_validator(mode="after")
    def _check_board(self) -> BoardData:
        names: dict[str, str] = {}
        every: list[RestaurantSpec | CafeSpec] = [*self.restaurant, *self.cafe]
        for card in every:
            slug = slugify(card.name)
            if not slug:
                raise ValueError(f"card {card.name!r} has no letters or digits")
            if slug in RESERVED_WORDS:
                raise ValueError(f"card {card.name!r} would be written {slug!r}, a reserved word")
            if slug in names:
                raise ValueError(f"cards {names[slug]!r} and {card.name!r} share the notation")
            names[slug] = card.name
        if self.board[0] != "start":
            raise ValueError("the board must begin with the 'start' space")
        seen: set[str] = set()
        for space in self.board:
            if space in SPECIAL_SPACES:
                continue
            if slugify(space) not in names:
                raise ValueError(
                    f"board space {space!r} is neither a restaurant, a cafe nor a special "
                    f"space ({', '.join(SPECIAL_SPACES)})"
                )
            if space in seen:
                raise ValueError(f"card {space!r} is on the board twice")
            seen.add(space)
        self._check_payable()
        missing = [card.name for card in every if card.name not in seen]
        if missing:
            raise ValueError(f"cards not on the board: {', '.join(missing)}")
        if self.board.count("start") != 1:
            raise ValueError("the board needs exactly one 'start' space")
        if self.board.count("tunnel") not in (0, 2):
            raise ValueError("a board has no tunnel or both of its ends: 0 or 2 'tunnel' spaces")
        cuisines = {r.cuisine for r in self.restaurant}
        for number, munch in enumerate(self.munchtime, 1):
            for cuisine in munch.cuisines:
                if cuisine not in cuisines:
                    raise ValueError(
                        f"munchtime card {number} names cuisine {cuisine!r}, which no "
                        f"restaurant serves ({', '.join(sorted(cuisines))})"
                    )
        return self

    def _check_payable(self) -> None:
        note = self.bank.smallest_note
        amounts: list[tuple[str, int]] = [
            (f"the bank's {name}", value)
            for name, value in self.bank.model_dump().items()
            if name not in ("chefs", "stars", "bellyguards", "smallest_note")
        ]
        for rest in self.restaurant:
            amounts += [(f"{rest.name}'s price", rest.price)]
            amounts += [(f"{rest.name}'s half price", rest.price // 2)]
            amounts += [(f"{rest.name}'s fee", fee) for fee in rest.fees]
            amounts += [(f"{rest.name}'s chef price", rest.chef_price)]
            amounts += [(f"{rest.name}'s star price", rest.star_price)]
        for cafe in self.cafe:
            amounts += [(f"{cafe.name}'s price", cafe.price)]
            amounts += [(f"{cafe.name}'s half price", cafe.price // 2)]
        for what, value in amounts:
            if value % note:
                raise ValueError(
                    f"{what} is {value}: not payable in notes of {note} (every amount, and "
                    "half of each price, must be a whole number of notes)"
                )
        every: list[RestaurantSpec | CafeSpec] = [*self.restaurant, *self.cafe]
        for card in every:
            if card.price % 2:
                raise ValueError(f"{card.name}'s price {card.price} has no whole half")
