"""The schema of Burger Joint's board data (``data/boards.toml`` or a user's own file).

A file holds the shared constants (cube colours, cubes per colour, limits) and
one development board per side. Every cost names cube colours, one entry per
cube, so ``["white", "white", "red"]`` costs two white cubes and a red one.

    >>> from potluck.games.burger_joint.schema import ABILITIES
    >>> ABILITIES
    ('redraw', 'swap-two', 'extra', 'swap-one', 'pick', 'none')
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

#: Bistro abilities, in the rulebook's order; ``none`` is the bistro with no ability.
ABILITIES = ("redraw", "swap-two", "extra", "swap-one", "pick", "none")
#: What each ability does, in words (what a player reads; the notation is ``ABILITIES``).
ABILITY_WORDS = {
    "redraw": "redraw cubes",
    "swap-two": "swap two cubes for one",
    "extra": "one extra cube from the bag",
    "swap-one": "swap one cube",
    "pick": "pick a cube from the bag",
    "none": "none",
}
#: The turn limit of simulations (option ``turn_limit``, ruling BJ-10), and the longest one
#: accepted (the game's ``max_steps`` is computed for it).
DEFAULT_TURN_LIMIT = 40
MAX_TURN_LIMIT = 400

#: Words that actions use, so colours must not be spelt like them.
_RESERVED = {"take", "trade", "put", "draw", "pick", "extra", "redraw", "end", "discard"}


class DinerSpec(BaseModel):
    """A specialty diner: its colour (its priority and its name) and its cost."""

    model_config = ConfigDict(extra="forbid")

    colour: str
    cost: list[str] = Field(min_length=1, max_length=12)


class BistroSpec(BaseModel):
    """An upscale bistro: its name, victory points, ability and cost."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=40)
    points: int = Field(ge=0, le=12)
    ability: str
    cost: list[str] = Field(min_length=1, max_length=12)


class SideSpec(BaseModel):
    """One development board: Burger or Pizza."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=20)
    start_basics: int = Field(ge=0, le=12)
    start_diners: list[str] = Field(max_length=12)
    publicity_cost: list[str] = Field(min_length=1, max_length=12)
    publicity_points: list[int] = Field(
        min_length=1, max_length=12, description="VP shown at each space of the track"
    )
    basic_cost: list[str] = Field(min_length=1, max_length=12)
    basic_points: list[int] = Field(
        min_length=1, max_length=12, description="VP of each basic restaurant space, top first"
    )
    diner_points: int = Field(default=1, ge=0, le=12)
    diners: list[DinerSpec] = Field(min_length=1, max_length=12)
    bistros: list[BistroSpec] = Field(min_length=1, max_length=8)


class BoardData(BaseModel):
    """The whole data file: the shared constants and the two sides (Burger first)."""

    model_config = ConfigDict(extra="forbid")

    authored: bool = False
    colours: list[str] = Field(min_length=2, max_length=8)
    cubes_per_colour: int = Field(ge=1, le=100)
    production_limit: int = Field(default=4, ge=1, le=12)
    keep: int = Field(default=7, ge=0, le=100, description="cubes kept at the end of a turn")
    win_points: int = Field(default=12, ge=1, le=100)
    tokens: int = Field(default=15, ge=1, le=100, description="development tokens per side")
    sides: list[SideSpec] = Field(min_length=2, max_length=2)

    @model_validator(mode="after")
    def _check(self) -> BoardData:
        colours = self.colours
        if len(set(colours)) != len(colours):
            raise ValueError(f"colours {colours} repeat a colour")
        for colour in colours:
            if not colour.isalpha() or colour != colour.lower() or colour in _RESERVED:
                raise ValueError(
                    f"colour {colour!r} must be one lower-case word that is not an action word"
                )
        known = set(colours)
        for side in self.sides:
            where = f"side {side.name}"

            def check_cost(cost: list[str], what: str, where: str = where) -> None:
                for colour in cost:
                    if colour not in known:
                        raise ValueError(
                            f"{where}: {what} costs a {colour!r} cube; colours are {colours}"
                        )

            check_cost(side.publicity_cost, "publicity")
            check_cost(side.basic_cost, "a basic restaurant")
            diner_colours = [d.colour for d in side.diners]
            if sorted(diner_colours) != sorted(colours):
                raise ValueError(
                    f"{where}: needs exactly one diner per colour {colours}, has {diner_colours}"
                )
            for diner in side.diners:
                check_cost(diner.cost, f"the {diner.colour} diner")
            for colour in side.start_diners:
                if colour not in known:
                    raise ValueError(f"{where}: starts with a diner of unknown colour {colour!r}")
            if len(set(side.start_diners)) != len(side.start_diners):
                raise ValueError(f"{where}: start_diners repeats a colour")
            if side.start_basics > len(side.basic_points):
                raise ValueError(
                    f"{where}: starts with {side.start_basics} basic restaurants but its "
                    f"column has {len(side.basic_points)} spaces"
                )
            if side.start_basics + len(side.start_diners) > self.tokens:
                raise ValueError(f"{where}: starts with more tokens than {self.tokens}")
            for bistro in side.bistros:
                if bistro.ability not in ABILITIES:
                    raise ValueError(
                        f"{where}: bistro {bistro.name!r} has ability {bistro.ability!r}; "
                        f"abilities are {list(ABILITIES)}"
                    )
                check_cost(bistro.cost, f"bistro {bistro.name!r}")
            abilities = [b.ability for b in side.bistros if b.ability != "none"]
            if len(set(abilities)) != len(abilities):
                raise ValueError(f"{where}: two bistros share an ability")
        if len(self.sides[0].bistros) != len(self.sides[1].bistros):
            raise ValueError("both sides need the same number of bistros")
        return self
