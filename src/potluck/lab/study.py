"""Study files: what to play, how often, and which variants to compare.

A study is a TOML file::

    game = "cafe-carnage"
    players = [4, 5, 6]          # one count or a list
    games = 2000                 # per arm and player count
    seed = 1                     # game i is dealt from seed + i in every arm
    agents = ["greedy", "random"]  # one per seat, cycled to fill the table; turned a seat per game

    [arms.no-repeats]            # optional: variants compared with the baseline
    options = { no_repeat_dishes = true }
    data = "my-dishes.toml"      # optional, relative to the study file

The baseline arm (``"baseline"``) is the game with its defaults. Every arm plays
the same seeds with the same seating, so paired differences are free of the
deal's luck::

    >>> study = parse_study({"game": "cafe-carnage", "players": 4, "games": 3,
    ...                      "seed": 0, "agents": ["greedy", "random"]})
    >>> study.players, study.arm_names
    ((4,), ('baseline',))
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from potluck.engine.errors import PotluckError
from potluck.engine.options import resolve_options
from potluck.engine.registry import load_game
from potluck.lab.worker import seating

__all__ = ["BASELINE", "Arm", "Study", "StudyError", "load_study", "parse_study"]

#: The name of the arm that plays the game's defaults.
BASELINE = "baseline"
_ARM_NAME = re.compile(r"[A-Za-z0-9_-]{1,60}")


class StudyError(PotluckError):
    """A study file that cannot be run; the message names the field at fault."""


class _ArmSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    options: dict[str, Any] = Field(default_factory=dict)
    data: str | None = None


class _StudySpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str
    players: int | list[int]
    games: int = Field(ge=1)
    seed: int = 0
    agents: list[str] = Field(min_length=1)
    arms: dict[str, _ArmSpec] = Field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Arm:
    """One variant of the game: its options (unresolved, as written) and data file."""

    name: str
    options: Mapping[str, Any]
    data: str | None = None


@dataclass(frozen=True, slots=True)
class Study:
    """A checked study: every game, bot, option and data file in it exists."""

    game: str
    players: tuple[int, ...]
    games: int
    seed: int
    agents: tuple[str, ...]
    arms: tuple[Arm, ...]  # the baseline first

    @property
    def arm_names(self) -> tuple[str, ...]:
        return tuple(arm.name for arm in self.arms)

    @property
    def total_games(self) -> int:
        return self.games * len(self.players) * len(self.arms)

    def seed_of(self, index: int) -> int:
        """Game ``index`` of every arm and player count is dealt from this seed."""
        return self.seed + index

    def seats_of(self, num_players: int, index: int) -> tuple[str, ...]:
        """The agent in each seat in game ``index``: the same line-up, turned one seat per game."""
        return tuple(seating(self.agents, num_players, index))

    def arm(self, name: str) -> Arm:
        for arm in self.arms:
            if arm.name == name:
                return arm
        raise StudyError(f"the study has no arm {name!r}")

    def to_json(self) -> dict[str, Any]:
        """JSON-ready; ``parse_study(study.to_json())`` gives the same study back."""
        return {
            "game": self.game,
            "players": list(self.players),
            "games": self.games,
            "seed": self.seed,
            "agents": list(self.agents),
            "arms": {
                arm.name: {"options": dict(arm.options), "data": arm.data}
                for arm in self.arms
                if arm.name != BASELINE
            },
        }

    def fingerprint(self) -> str:
        """A hash of what decides the results: a results folder belongs to one study."""
        text = json.dumps(self.to_json(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def _field_errors(error: ValidationError) -> str:
    parts = []
    for issue in error.errors()[:5]:
        where = ".".join(str(p) for p in issue["loc"]) or "top level"
        message = "unknown field" if issue["type"] == "extra_forbidden" else issue["msg"]
        parts.append(f"field {where!r}: {message}")
    return "; ".join(parts)


def parse_study(raw: Mapping[str, Any], *, base: Path | None = None, name: str = "study") -> Study:
    """Check a parsed study table; ``base`` is the folder that data paths are relative to.

    Raises ``StudyError`` naming the field: unknown fields, wrong types, an
    unknown game or bot, a player count the game does not allow, a bad option or
    a data file that does not load.
    """
    try:
        spec = _StudySpec.model_validate(raw)
    except ValidationError as error:
        raise StudyError(f"{name}: {_field_errors(error)}") from None
    try:
        game = load_game(spec.game)
    except PotluckError as error:
        raise StudyError(f"{name}: field 'game': {error}") from None
    players = (spec.players,) if isinstance(spec.players, int) else tuple(spec.players)
    if not players:
        raise StudyError(f"{name}: field 'players': give at least one player count")
    if len(set(players)) != len(players):
        raise StudyError(f"{name}: field 'players': {list(players)} repeats a count")
    for count in players:
        if not game.min_players <= count <= game.max_players:
            raise StudyError(
                f"{name}: field 'players': {game.title} is for {game.min_players} to "
                f"{game.max_players} players, not {count}"
            )
    if len(spec.agents) > min(players):
        raise StudyError(
            f"{name}: field 'agents': {len(spec.agents)} agents do not fit a table of "
            f"{min(players)}; give at most one per seat"
        )
    bots = game.bots()
    for agent in spec.agents:
        if agent not in bots:
            raise StudyError(
                f"{name}: field 'agents': {game.title} has no bot {agent!r}; "
                f"its bots are: {', '.join(sorted(bots))}"
            )
    arms = [Arm(BASELINE, {}, None)]
    for arm_name, arm_spec in spec.arms.items():
        where = f"arms.{arm_name}"
        if not _ARM_NAME.fullmatch(arm_name):
            raise StudyError(
                f"{name}: field {where!r}: an arm's name may hold only letters, digits, "
                "'-' and '_' (it names result files)"
            )
        if arm_name == BASELINE:
            raise StudyError(
                f"{name}: field {where!r}: 'baseline' is the game with its defaults; "
                "give your arm another name"
            )
        try:
            resolve_options(game.id, game.options, arm_spec.options)
        except PotluckError as error:
            raise StudyError(f"{name}: field '{where}.options': {error}") from None
        data = arm_spec.data
        if data is not None:
            path = Path(data)
            if not path.is_absolute() and base is not None:
                path = base / path
            data = str(path.resolve())
            try:
                load_game(game.id, data=data)
            except PotluckError as error:
                raise StudyError(f"{name}: field '{where}.data': {error}") from None
        arms.append(Arm(arm_name, dict(arm_spec.options), data))
    return Study(
        game=game.id,
        players=players,
        games=spec.games,
        seed=spec.seed,
        agents=tuple(spec.agents),
        arms=tuple(arms),
    )


def load_study(path: Path | str) -> Study:
    """Read and check a study file; every problem is a ``StudyError`` naming file and field."""
    path = Path(path)
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise StudyError(f"study file {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as error:
        raise StudyError(f"cannot read study file {path}: {error}") from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise StudyError(f"{path} is not valid TOML: {error}") from None
    return parse_study(raw, base=path.parent, name=str(path))
