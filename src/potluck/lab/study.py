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

    [arms.bold]                  # a strategy arm: its agents take the first line-up positions
    agents = ["greedy:risk=2"]   # bot specs, kept exactly as written
    against = "baseline"         # the arm it is compared with (default: the baseline)

Instead of ``agents``, ``[lineups]`` names several line-ups (``all-greedy =
["greedy"]``, ``mixed = ["greedy", "random"]``); every arm is played with each,
and the report says whether each conclusion holds across them.

The baseline arm (``"baseline"``) is the game with its defaults. Every arm plays
the same seeds with the same seating, so paired differences are free of the
deal's luck::

    >>> study = parse_study({"game": "cafe-carnage", "players": 4, "games": 3,
    ...                      "seed": 0, "agents": ["greedy", "random"]})
    >>> study.players, study.arm_names, study.lineup_names
    ((4,), ('baseline',), ('default',))
    >>> study.seats_of(4, "default", "baseline", 1)
    ('random', 'greedy', 'random', 'greedy')
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

from potluck.agents import make_agent
from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.engine.options import resolve_options
from potluck.engine.registry import load_game
from potluck.lab.worker import seating

__all__ = ["BASELINE", "DEFAULT_LINEUP", "Arm", "Study", "StudyError", "load_study", "parse_study"]

#: The name of the arm that plays the game's defaults.
BASELINE = "baseline"
#: The name of the only line-up of a study that gives ``agents`` rather than ``[lineups]``.
DEFAULT_LINEUP = "default"
_ARM_NAME = re.compile(r"[A-Za-z0-9_-]{1,60}")


class StudyError(PotluckError):
    """A study file that cannot be run; the message names the field at fault."""


class _ArmSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    options: dict[str, Any] = Field(default_factory=dict)
    data: str | None = None
    agents: list[str] = Field(default_factory=list)
    against: str = BASELINE


class _StudySpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str
    players: int | list[int]
    games: int = Field(ge=1)
    seed: int = 0
    agents: list[str] | None = Field(default=None, min_length=1)
    lineups: dict[str, list[str]] | None = None
    arms: dict[str, _ArmSpec] = Field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Arm:
    """One variant of the game: its options (unresolved, as written) and data file."""

    name: str
    options: Mapping[str, Any]
    data: str | None = None
    #: Bot specs that take the first positions of every line-up (a strategy arm).
    agents: tuple[str, ...] = ()
    #: The arm this one is compared with.
    against: str = BASELINE


@dataclass(frozen=True, slots=True)
class Study:
    """A checked study: every game, bot, option and data file in it exists."""

    game: str
    players: tuple[int, ...]
    games: int
    seed: int
    #: Named line-ups of bot specs, in the order written.
    lineups: tuple[tuple[str, tuple[str, ...]], ...]
    arms: tuple[Arm, ...]  # the baseline first

    @property
    def arm_names(self) -> tuple[str, ...]:
        return tuple(arm.name for arm in self.arms)

    @property
    def lineup_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.lineups)

    @property
    def agents(self) -> tuple[str, ...]:
        """Every bot spec the study seats, in the order first written."""
        specs = [a for _, agents in self.lineups for a in agents]
        specs += [a for arm in self.arms for a in arm.agents]
        return tuple(dict.fromkeys(specs))

    def lineup(self, name: str) -> tuple[str, ...]:
        for lineup_name, agents in self.lineups:
            if lineup_name == name:
                return agents
        raise StudyError(f"the study has no line-up {name!r}")

    @property
    def total_games(self) -> int:
        return self.games * len(self.players) * len(self.arms) * len(self.lineups)

    def seed_of(self, index: int) -> int:
        """Game ``index`` of every arm and player count is dealt from this seed."""
        return self.seed + index

    def seats_of(self, num_players: int, lineup: str, arm: str, index: int) -> tuple[str, ...]:
        """The agent in each seat in game ``index``: the line-up with the arm's agents first,
        turned one seat per game."""
        return tuple(seating(self.lineup(lineup), num_players, index, self.arm(arm).agents))

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
            "lineups": {name: list(agents) for name, agents in self.lineups},
            "arms": {
                arm.name: {
                    "options": dict(arm.options),
                    "data": arm.data,
                    "agents": list(arm.agents),
                    "against": arm.against,
                }
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
    if (spec.agents is None) == (spec.lineups is None):
        raise StudyError(
            f"{name}: give either 'agents' (one line-up) or '[lineups]' (several), not "
            + ("both" if spec.agents is not None else "neither")
        )
    written = {DEFAULT_LINEUP: spec.agents} if spec.agents is not None else spec.lineups or {}
    if not written:
        raise StudyError(f"{name}: field 'lineups': name at least one line-up")
    lineups = []
    for lineup_name, agents in written.items():
        where = "agents" if spec.agents is not None else f"lineups.{lineup_name}"
        if not _ARM_NAME.fullmatch(lineup_name):
            raise StudyError(
                f"{name}: field {where!r}: a line-up's name may hold only letters, digits, "
                "'-' and '_' (it names result files)"
            )
        if not agents:
            raise StudyError(f"{name}: field {where!r}: give at least one agent")
        _check_agents(game, agents, min(players), f"{name}: field {where!r}")
        lineups.append((lineup_name, tuple(a.strip() for a in agents)))
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
        if arm_spec.agents:
            _check_agents(game, arm_spec.agents, min(players), f"{name}: field '{where}.agents'")
        arms.append(
            Arm(
                arm_name,
                dict(arm_spec.options),
                data,
                tuple(a.strip() for a in arm_spec.agents),
                arm_spec.against,
            )
        )
    names = {arm.name for arm in arms}
    for arm in arms[1:]:
        if arm.against not in names or arm.against == arm.name:
            raise StudyError(
                f"{name}: field 'arms.{arm.name}.against': {arm.against!r} is not another arm "
                f"of the study; its arms are: {', '.join(sorted(names))}"
            )
    return Study(
        game=game.id,
        players=players,
        games=spec.games,
        seed=spec.seed,
        lineups=tuple(lineups),
        arms=tuple(arms),
    )


def _check_agents(game: Game[Any, Any], agents: list[str], seats: int, where: str) -> None:
    """Every spec builds a bot of ``game`` and the list fits the smallest table."""
    if len(agents) > seats:
        raise StudyError(
            f"{where}: {len(agents)} agents do not fit a table of {seats}; "
            "give at most one per seat"
        )
    for agent in agents:
        try:
            make_agent(game, agent.strip())
        except PotluckError as error:
            raise StudyError(f"{where}: {error}") from None


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
