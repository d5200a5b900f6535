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

    [arms.rich]                  # a data patch: a few fields of the game's data changed
    data_patch = { "table.budget" = 35 }

    [arms.bold]                  # a strategy arm: its agents take the first line-up positions
    agents = ["greedy:risk=2"]   # bot specs, kept exactly as written
    against = "baseline"         # the arm it is compared with (default: the baseline)

A ``[sweep]`` table adds one arm per value of one parameter (see
``potluck.lab.parameters``); a ``[search]`` table says what ``potluck lab tune``
searches (``potluck.lab.tune``).

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, ValidationError

from potluck.agents import make_agent
from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.engine.registry import load_game
from potluck.lab.metrics import check_metric
from potluck.lab.parameters import (
    ArmParts,
    Choices,
    Parameter,
    Range,
    apply_values,
    check_options,
    check_parameter,
    check_parts,
    parse_domain,
    sweep_values,
    value_label,
)
from potluck.lab.patches import dotted_patch
from potluck.lab.worker import seating

__all__ = [
    "BASELINE",
    "DEFAULT_LINEUP",
    "Arm",
    "Search",
    "Study",
    "StudyError",
    "Sweep",
    "load_study",
    "parse_study",
]

#: The name of the arm that plays the game's defaults.
BASELINE = "baseline"
#: The name of the only line-up of a study that gives ``agents`` rather than ``[lineups]``.
DEFAULT_LINEUP = "default"
_ARM_NAME = re.compile(r"[A-Za-z0-9_.-]{1,60}")


class StudyError(PotluckError):
    """A study file that cannot be run; the message names the field at fault."""


Number = StrictInt | StrictFloat


class _ArmSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    options: dict[str, Any] = Field(default_factory=dict)
    data: str | None = None
    data_patch: dict[str, Any] = Field(default_factory=dict)
    agents: list[str] = Field(default_factory=list)
    against: str = BASELINE


class _SweepSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    parameter: str
    values: list[Any] | None = Field(default=None, min_length=1, max_length=200)
    range: list[Number] | None = Field(default=None, min_length=2, max_length=2)
    steps: int | None = Field(default=None, ge=2, le=200)
    metric: str | list[str]
    target: Number | None = None
    arm: str = BASELINE
    agent: str | None = None


class _SearchSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    parameters: dict[str, Any] = Field(min_length=1)
    metric: str
    direction: Literal["maximize", "minimize"] | None = None
    target: Number | None = None
    arm: str = BASELINE
    agent: str | None = None
    trials: int = Field(default=30, ge=1, le=10_000)
    games: int | None = Field(default=None, ge=1)
    min_games: int | None = Field(default=None, ge=1)
    reduction: int = Field(default=3, ge=2, le=10)
    batch: int = Field(default=4, ge=1, le=256)
    confirm_games: int | None = Field(default=None, ge=2)
    confirm_lineups: dict[str, list[str]] | None = None
    confirm_lineup_games: int | None = Field(default=None, ge=2)


class _StudySpec(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    game: str
    players: int | list[int]
    games: int = Field(ge=1)
    seed: int = 0
    agents: list[str] | None = Field(default=None, min_length=1)
    lineups: dict[str, list[str]] | None = None
    arms: dict[str, _ArmSpec] = Field(default_factory=dict)
    sweep: _SweepSpec | None = None
    search: _SearchSpec | None = None


#: The fields each table of a study may hold, for the error that names an unknown one.
_FIELDS: dict[str, type[BaseModel]] = {
    "study": _StudySpec,
    "arms": _ArmSpec,
    "sweep": _SweepSpec,
    "search": _SearchSpec,
}


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
    #: Fields of the game's data changed (dotted paths), over ``data`` or the built-in data.
    patch: Mapping[str, Any] = field(default_factory=dict)

    @property
    def parts(self) -> ArmParts:
        return ArmParts(dict(self.options), dict(self.patch), self.agents)

    def to_json(self) -> dict[str, Any]:
        return {
            "options": dict(self.options),
            "data": self.data,
            "data_patch": dict(self.patch),
            "agents": list(self.agents),
            "against": self.against,
        }


@dataclass(frozen=True, slots=True)
class Sweep:
    """One arm per value of one parameter, each compared with the arm the sweep builds on."""

    parameter: Parameter
    values: tuple[Any, ...]
    #: The metrics the report draws against the value; ``target`` is for the first.
    metrics: tuple[str, ...]
    target: float | None
    #: The arm the sweep's arms build on and are compared with.
    arm: str
    #: The generated arms' names, one per value.
    arms: tuple[str, ...]
    #: The table as written (checked), for ``Study.to_json``.
    written: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Search:
    """What ``potluck lab tune`` searches: parameters over their domains and the objective."""

    parameters: tuple[tuple[Parameter, Range | Choices], ...]
    metric: str
    #: ``maximize`` or ``minimize`` the metric; with a ``target``, ``minimize`` the distance.
    direction: str
    target: float | None
    #: The arm the searched arms build on; the confirmation compares the best point with it.
    arm: str
    #: The bot whose parameters ``agent:`` names change (the focal seat's).
    focal: str
    trials: int
    #: Games per trial, line-up and table size at the last rung of successive halving.
    games: int | None
    min_games: int | None
    reduction: int
    batch: int
    confirm_games: int | None
    #: Line-ups the confirmation plays besides the study's (e.g. a search-bot line-up).
    confirm_lineups: tuple[tuple[str, tuple[str, ...]], ...]
    #: Games of each confirmation line-up per arm and cell (default: ``confirm_games``).
    confirm_lineup_games: int | None
    written: Mapping[str, Any]


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
    sweep: Sweep | None = None
    search: Search | None = None

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
        generated = set(self.sweep.arms) if self.sweep is not None else set()
        found: dict[str, Any] = {
            "game": self.game,
            "players": list(self.players),
            "games": self.games,
            "seed": self.seed,
            "lineups": {name: list(agents) for name, agents in self.lineups},
            "arms": {
                arm.name: arm.to_json()
                for arm in self.arms
                if arm.name != BASELINE and arm.name not in generated
            },
        }
        if self.sweep is not None:
            found["sweep"] = dict(self.sweep.written)
        if self.search is not None:
            found["search"] = dict(self.search.written)
        return found

    def fingerprint(self) -> str:
        """A hash of what decides the results: a results folder belongs to one study."""
        text = json.dumps(self.to_json(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def _field_errors(error: ValidationError) -> str:
    parts = []
    for issue in error.errors()[:5]:
        loc = [str(p) for p in issue["loc"]]
        where = ".".join(loc) or "top level"
        message = str(issue["msg"])
        if issue["type"] == "extra_forbidden":
            table = "arms" if loc[:1] == ["arms"] else loc[0] if len(loc) > 1 else "study"
            model = _FIELDS.get(table, _StudySpec)
            owner = {"study": "a study", "arms": "an arm", "sweep": "[sweep]"}.get(
                table, "[search]"
            )
            message = f"unknown field; the fields of {owner} are: {', '.join(model.model_fields)}"
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
                "'-', '_' and '.' (it names result files)"
            )
        if arm_name == BASELINE:
            raise StudyError(
                f"{name}: field {where!r}: 'baseline' is the game with its defaults; "
                "give your arm another name"
            )
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
        parts = ArmParts(
            dict(arm_spec.options),
            dotted_patch(arm_spec.data_patch),
            tuple(a.strip() for a in arm_spec.agents),
        )
        _check_arm(game, data, parts, min(players), f"{name}: field '{where}")
        arms.append(Arm(arm_name, parts.options, data, parts.agents, arm_spec.against, parts.patch))
    sweep = None
    if spec.sweep is not None:
        sweep, generated = _sweep(game, spec.sweep, arms, lineups, min(players), name)
        arms.extend(generated)
    names = {arm.name for arm in arms}
    for arm in arms[1:]:
        if arm.against not in names or arm.against == arm.name:
            raise StudyError(
                f"{name}: field 'arms.{arm.name}.against': {arm.against!r} is not another arm "
                f"of the study; its arms are: {', '.join(sorted(names))}"
            )
    search = None
    if spec.search is not None:
        search = _search(game, spec.search, arms, lineups, min(players), name)
    return Study(
        game=game.id,
        players=players,
        games=spec.games,
        seed=spec.seed,
        lineups=tuple(lineups),
        arms=tuple(arms),
        sweep=sweep,
        search=search,
    )


def _check_arm(
    game: Game[Any, Any],
    data: str | None,
    parts: ArmParts,
    seats: int,
    where: str,
    point: str | None = None,
) -> None:
    """Options (TOML values of the declared type), the data patch and the agents of an arm.

    An arm written in the study is blamed on its own fields (``where.options``); an arm
    a sweep or a search makes is blamed on the field that made it, with the ``point``
    (``field 'sweep.values' (option:x = 'yes'): ...``)."""

    def blame(part: str) -> str:
        return f"{where}' ({point})" if point is not None else f"{where}.{part}'"

    try:
        check_options(game, parts.options)
    except PotluckError as error:
        raise StudyError(f"{blame('options')}: {error}") from None
    try:
        check_parts(game, data, ArmParts({}, parts.patch, ()))
    except PotluckError as error:
        raise StudyError(f"{blame('data_patch')}: {error}") from None
    if parts.agents:
        _check_agents(game, list(parts.agents), seats, blame("agents"))


def _base_arm(arms: list[Arm], arm: str, where: str) -> Arm:
    for candidate in arms:
        if candidate.name == arm:
            return candidate
    names = ", ".join(a.name for a in arms)
    raise StudyError(f"{where}.arm': {arm!r} is not an arm of the study; its arms are: {names}")


def _focal(
    written: str | None,
    base: Arm,
    lineups: list[tuple[str, tuple[str, ...]]],
    game: Game[Any, Any],
    where: str,
) -> str:
    """The focal seat's bot: as written, else the base arm's first agent, else the first
    line-up's first agent."""
    focal = written.strip() if written else base.agents[0] if base.agents else lineups[0][1][0]
    _check_agents(game, [focal], 1, f"{where}.agent'")
    return focal


def _sweep(
    game: Game[Any, Any],
    spec: _SweepSpec,
    arms: list[Arm],
    lineups: list[tuple[str, tuple[str, ...]]],
    seats: int,
    name: str,
) -> tuple[Sweep, list[Arm]]:
    where = f"{name}: field 'sweep"
    base = _base_arm(arms, spec.arm, where)
    focal = _focal(spec.agent, base, lineups, game, where)
    try:
        parameter = Parameter.parse(spec.parameter)
        check_parameter(game, parameter, focal)
    except PotluckError as error:
        raise StudyError(f"{where}.parameter': {error}") from None
    if (spec.values is None) == (spec.range is None):
        raise StudyError(f"{where}': give either values or range (with steps), not both or neither")
    if spec.range is not None:
        if spec.steps is None:
            raise StudyError(f"{where}.steps': a range needs steps (how many values, at least 2)")
        values = sweep_values(spec.range, spec.steps)
    else:
        if spec.steps is not None:
            raise StudyError(f"{where}.steps': steps goes with range, not with values")
        values = tuple(spec.values or ())
        if len(set(map(repr, values))) != len(values):
            raise StudyError(f"{where}.values': {list(values)} repeats a value")
    metrics = (spec.metric,) if isinstance(spec.metric, str) else tuple(spec.metric)
    if not metrics:
        raise StudyError(f"{where}.metric': name at least one metric")
    for metric in metrics:
        try:
            check_metric(game, metric, seats)
        except PotluckError as error:
            raise StudyError(f"{where}.metric': {error}") from None
    taken = {arm.name for arm in arms}
    generated = []
    for value in values:
        label = value_label(parameter, value)
        if label in taken:
            raise StudyError(f"{where}': the sweep's arm {label!r} has the name of another arm")
        taken.add(label)
        parts = apply_values(base.parts, focal, {parameter: value})
        _check_arm(game, base.data, parts, seats, f"{where}.values", f"{parameter} = {value!r}")
        generated.append(Arm(label, parts.options, base.data, parts.agents, base.name, parts.patch))
    sweep = Sweep(
        parameter,
        values,
        metrics,
        None if spec.target is None else float(spec.target),
        base.name,
        tuple(arm.name for arm in generated),
        spec.model_dump(exclude_none=True),
    )
    return sweep, generated


def _search(
    game: Game[Any, Any],
    spec: _SearchSpec,
    arms: list[Arm],
    lineups: list[tuple[str, tuple[str, ...]]],
    seats: int,
    name: str,
) -> Search:
    where = f"{name}: field 'search"
    base = _base_arm(arms, spec.arm, where)
    focal = _focal(spec.agent, base, lineups, game, where)
    parameters: list[tuple[Parameter, Range | Choices]] = []
    for text, written in spec.parameters.items():
        try:
            parameter = Parameter.parse(text)
            check_parameter(game, parameter, focal)
            domain = parse_domain(text, written)
        except PotluckError as error:
            raise StudyError(f"{where}.parameters': {error}") from None
        ends = domain.values if isinstance(domain, Choices) else (domain.low, domain.high)
        for value in ends:
            parts = apply_values(base.parts, focal, {parameter: value})
            _check_arm(game, base.data, parts, seats, f"{where}.parameters", f"{text} = {value!r}")
        parameters.append((parameter, domain))
    if (spec.direction is None) == (spec.target is None):
        raise StudyError(
            f"{where}': give either direction (maximize or minimize) or target, "
            + ("not both" if spec.direction else "not neither")
        )
    try:
        check_metric(game, spec.metric, seats)
    except PotluckError as error:
        raise StudyError(f"{where}.metric': {error}") from None
    confirm: list[tuple[str, tuple[str, ...]]] = []
    known = {lineup for lineup, _ in lineups}
    for lineup_name, agents in (spec.confirm_lineups or {}).items():
        field_name = f"{where}.confirm_lineups.{lineup_name}'"
        if not _ARM_NAME.fullmatch(lineup_name) or lineup_name in known:
            raise StudyError(
                f"{field_name}: a confirmation line-up needs a name of its own (letters, "
                "digits, '-', '_', '.') that no study line-up has"
            )
        if not agents:
            raise StudyError(f"{field_name}: give at least one agent")
        _check_agents(game, agents, seats, field_name)
        confirm.append((lineup_name, tuple(a.strip() for a in agents)))
    if spec.min_games is not None and spec.games is not None and spec.min_games > spec.games:
        raise StudyError(f"{where}.min_games': {spec.min_games} is more than games ({spec.games})")
    return Search(
        tuple(parameters),
        spec.metric,
        spec.direction or "minimize",
        None if spec.target is None else float(spec.target),
        base.name,
        focal,
        spec.trials,
        spec.games,
        spec.min_games,
        spec.reduction,
        spec.batch,
        spec.confirm_games,
        tuple(confirm),
        spec.confirm_lineup_games,
        spec.model_dump(exclude_none=True),
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
