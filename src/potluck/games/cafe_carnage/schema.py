"""The schema of Café Carnage's dish data (``data/dishes.toml`` or a user's own file)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from potluck.engine.text import slugify

COURSES = ("starter", "main", "dessert")
MAX_PLAYERS = 6
BALLOT_WORDS = ("split", "separately", "run")


class DishSpec(BaseModel):
    """One dish of the menu: its name, price (= Gourmet Points) and number of cards."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=60)
    value: int = Field(ge=0, le=99, description="price in $ and Gourmet Points")
    copies: int = Field(ge=1, le=99, description="cards of this dish in its course deck")
    special: bool = False


class TableSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    budget: int = Field(default=30, ge=0, le=10_000)
    rounds: int = Field(default=5, ge=1, le=50)
    menu_size: int = Field(default=3, ge=1, le=10)
    iou_loan: int = Field(default=5, ge=1, le=1_000)


class DishData(BaseModel):
    """The whole data file: the table's constants and one list of dishes per course."""

    model_config = ConfigDict(extra="forbid")

    authored: bool = False
    table: TableSpec = TableSpec()
    starter: list[DishSpec] = Field(min_length=1, max_length=200)
    main: list[DishSpec] = Field(min_length=1, max_length=200)
    dessert: list[DishSpec] = Field(min_length=1, max_length=200)

    @model_validator(mode="after")
    def _check_decks(self) -> DishData:
        seen: dict[str, str] = {}
        for course in COURSES:
            dishes: list[DishSpec] = getattr(self, course)
            for dish in dishes:
                slug = slugify(dish.name)
                if not slug:
                    raise ValueError(f"{course} dish {dish.name!r} has no letters or digits")
                if slug in BALLOT_WORDS:
                    raise ValueError(
                        f"dish {dish.name!r} would be written {slug!r}, an action card"
                    )
                if slug in seen:
                    raise ValueError(
                        f"dish {dish.name!r} ({course}) has the same notation {slug!r} "
                        f"as a {seen[slug]}; dish names must differ"
                    )
                seen[slug] = course
            cards = sum(dish.copies for dish in dishes)
            needed = self.table.menu_size * MAX_PLAYERS
            if cards < needed:
                raise ValueError(
                    f"the {course} deck has {cards} cards; a full table of {MAX_PLAYERS} "
                    f"needs at least {needed} ({self.table.menu_size} each)"
                )
        return self
