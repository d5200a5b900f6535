"""What a sweep or a search varies: a game's data, its options, or the focal bot's parameters.

A parameter is named with its kind in front:

- ``data:PATH``: a field of the game's data, as a data patch path (``data:table.budget``,
  ``data:main.3.value``);
- ``option:NAME``: a variant option (``option:no_repeat_dishes``);
- ``agent:PARAM``: a parameter of the focal seat's bot (``agent:belle_value``): the bot in
  table position 0, which turns round the table like any strategy arm's.

    >>> p = Parameter.parse("data:table.budget")
    >>> p.kind, p.name, p.short
    ('data', 'table.budget', 'budget')
    >>> apply_values(ArmParts({}, {}, ()), "greedy", {Parameter.parse("agent:chip_value"): 0.5})
    ArmParts(options={}, patch={}, agents=('greedy:chip_value=0.5',))

Values are checked before any game is played: a data value by the game's schema,
an option by its declared type (TOML booleans only for a true/false option), a bot
parameter by the bot's declared range.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from potluck.agents import agent_factories, make_agent
from potluck.engine.botspec import BotSpec, bot_params
from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.engine.options import Option, resolve_options
from potluck.lab.patches import patched_game

__all__ = [
    "KINDS",
    "ArmParts",
    "Choices",
    "Parameter",
    "ParameterError",
    "Range",
    "apply_values",
    "check_options",
    "format_value",
]

KINDS = ("data", "option", "agent")


class ParameterError(PotluckError):
    """A parameter name, range or value that a sweep or search cannot use."""


@dataclass(frozen=True, slots=True)
class Parameter:
    """One thing a sweep or search changes: its kind and name, as written ``kind:name``."""

    kind: str
    name: str

    @classmethod
    def parse(cls, text: str) -> Parameter:
        kind, colon, name = str(text).partition(":")
        if not colon or kind not in KINDS or not name.strip():
            raise ParameterError(
                f"{text!r} is not a parameter: write data:PATH (e.g. data:table.budget), "
                "option:NAME or agent:PARAM"
            )
        return cls(kind, name.strip())

    @property
    def short(self) -> str:
        """A short name for arm names and plots: the path's last part that is not an index."""
        parts = [p for p in self.name.split(".") if not p.isdigit()]
        return parts[-1] if parts else self.name

    def __str__(self) -> str:
        return f"{self.kind}:{self.name}"


@dataclass(frozen=True, slots=True)
class Range:
    """Numbers from ``low`` to ``high`` (inclusive); whole numbers when both ends are."""

    low: float
    high: float
    integer: bool
    log: bool = False
    step: float | None = None

    def to_json(self) -> list[Any] | dict[str, Any]:
        if not self.log and self.step is None:
            return [self.low, self.high]
        found: dict[str, Any] = {"low": self.low, "high": self.high, "log": self.log}
        if self.step is not None:
            found["step"] = self.step
        return found


@dataclass(frozen=True, slots=True)
class Choices:
    """One of a list of values."""

    values: tuple[Any, ...]

    def to_json(self) -> list[Any] | dict[str, Any]:
        return {"choices": list(self.values)}


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def parse_domain(parameter: str, written: Any) -> Range | Choices:
    """``[low, high]`` (two numbers) is a range, another list a choice of values; a table
    gives ``low``/``high`` (with ``log``, ``step``) or ``choices``.

        >>> parse_domain("data:table.budget", [20, 45])
        Range(low=20, high=45, integer=True, log=False, step=None)
        >>> parse_domain("option:no_repeat_dishes", [True, False])
        Choices(values=(True, False))
    """
    where = f"parameter {parameter!r}"
    if isinstance(written, dict):
        unknown = sorted(set(written) - {"low", "high", "log", "step", "choices"})
        if unknown:
            raise ParameterError(
                f"{where}: unknown key {unknown[0]!r}; give low and high (with log or step), "
                "or choices"
            )
        if "choices" in written:
            if set(written) != {"choices"}:
                raise ParameterError(f"{where}: give choices alone, or low and high")
            return _choices(where, written["choices"])
        low, high = written.get("low"), written.get("high")
        log, step = written.get("log", False), written.get("step")
        if not isinstance(log, bool):
            raise ParameterError(f"{where}: log is true or false, not {log!r}")
        if step is not None and (not _number(step) or step <= 0):
            raise ParameterError(f"{where}: step is a number above 0, not {step!r}")
        return _range(where, low, high, log, step)
    if isinstance(written, list) and len(written) == 2 and all(_number(v) for v in written):
        return _range(where, written[0], written[1], False, None)
    return _choices(where, written)


def _range(where: str, low: Any, high: Any, log: bool, step: float | None) -> Range:
    if not (_number(low) and _number(high)) or not math.isfinite(low) or not math.isfinite(high):
        raise ParameterError(f"{where}: a range is two numbers [low, high], not {[low, high]}")
    if low >= high:
        raise ParameterError(f"{where}: the range's low end {low} is not below its high end {high}")
    if log and low <= 0:
        raise ParameterError(f"{where}: a log range needs a low end above 0, not {low}")
    integer = isinstance(low, int) and isinstance(high, int) and (step is None or step == int(step))
    return Range(low, high, integer, log, step)


def _choices(where: str, written: Any) -> Choices:
    if not isinstance(written, list) or not written:
        raise ParameterError(
            f"{where}: give [low, high] for numbers, a list of choices, or a table "
            f"{{ low, high, log, step }} / {{ choices }}; not {written!r}"
        )
    if any(isinstance(v, dict | list) for v in written):
        raise ParameterError(f"{where}: a choice is a number, true/false or text")
    if len(set(map(repr, written))) != len(written):
        raise ParameterError(f"{where}: the choices {written} repeat a value")
    return Choices(tuple(written))


def sweep_values(written: Any, steps: int | None) -> tuple[Any, ...]:
    """A sweep's values: as listed, or ``steps`` evenly spaced over ``range`` (whole
    numbers when both ends are whole; a value that rounds onto another is dropped).

        >>> sweep_values([20, 40], 5)
        (20, 25, 30, 35, 40)
        >>> sweep_values([0.5, 1.5], 3)
        (0.5, 1.0, 1.5)
    """
    low, high = written
    found: list[Any] = []
    for k in range(steps or 2):
        value = low + (high - low) * k / ((steps or 2) - 1)
        whole = isinstance(low, int) and isinstance(high, int)
        value = round(value) if whole else round(value, 10)
        if value not in found:
            found.append(value)
    return tuple(found)


def format_value(value: Any) -> str:
    """A value as arm names and bot specs write it: ``35``, ``0.5``, ``true``, ``text``.

    >>> format_value(35), format_value(0.5), format_value(2.0), format_value(True)
    ('35', '0.5', '2', 'true')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return f"{value:.6g}"
    return str(value)


class ArmParts(NamedTuple):
    """What an arm sets: its options, its data patch and its (strategy) agents."""

    options: dict[str, Any]
    patch: dict[str, Any]
    agents: tuple[str, ...]


def apply_values(parts: ArmParts, focal: str, values: Mapping[Parameter, Any]) -> ArmParts:
    """``parts`` with each parameter set to its value; an ``agent:`` value goes into the
    focal bot's spec (the arm's first agent if it has agents, else ``focal``)."""
    options, patch, agents = dict(parts.options), dict(parts.patch), list(parts.agents)
    bot = BotSpec.parse(agents[0] if agents else focal)
    bot_params = dict(bot.params)
    touched = False
    for parameter, value in values.items():
        if parameter.kind == "data":
            patch[parameter.name] = value
        elif parameter.kind == "option":
            options[parameter.name] = value
        else:
            bot_params[parameter.name] = format_value(value)
            touched = True
    if touched:
        spec = str(BotSpec(bot.name, tuple(bot_params.items())))
        agents = [spec, *agents[1:]] if agents else [spec]
    return ArmParts(options, patch, tuple(agents))


def check_options(game: Game[Any, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """Resolve a study's options; a study's values are TOML values, so a true/false option
    takes a TOML boolean only (``"yes"``, ``1`` are refused), a number option a number."""
    for name, value in options.items():
        declared: Option | None = game.options.get(name)
        if declared is None:
            continue  # resolve_options names the unknown option and the known ones
        if declared.type is bool and not isinstance(value, bool):
            raise ParameterError(
                f"option {name!r} takes a TOML boolean: true or false, unquoted "
                f"(not {_written(value)})"
            )
        wrong = (
            (declared.type is int and (isinstance(value, bool) or not isinstance(value, int)))
            or (declared.type is float and not _number(value))
            or (declared.type is str and not isinstance(value, str))
        )
        if wrong:
            kind = {int: "a whole number", float: "a number", str: "text"}.get(
                declared.type, declared.type.__name__
            )
            raise ParameterError(f"option {name!r} takes {kind}, not {_written(value)}")
    return resolve_options(game.id, game.options, options)


def _written(value: Any) -> str:
    if isinstance(value, str):
        return f'the text "{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def check_parts(game: Game[Any, Any], data: str | None, parts: ArmParts) -> None:
    """Every option, data patch and agent of an arm works: ``PotluckError`` saying which not."""
    check_options(game, parts.options)
    if parts.patch:
        patched_game(game.id, data, parts.patch)
    for agent in parts.agents:
        make_agent(game, agent)


def check_parameter(game: Game[Any, Any], parameter: Parameter, focal: str) -> None:
    """The parameter names something that exists (its values are checked by ``check_parts``)."""
    if parameter.kind == "option" and parameter.name not in game.options:
        known = ", ".join(sorted(game.options)) or "none"
        raise ParameterError(
            f"{game.title} has no option {parameter.name!r}; its options are: {known}"
        )
    if parameter.kind == "agent":
        make_agent(game, focal)
        name = BotSpec.parse(focal).name
        declared = [p.name for p in bot_params(agent_factories(game)[name])]
        if parameter.name not in declared:
            listing = ", ".join(declared) or "none"
            raise ParameterError(
                f"the focal bot {name!r} has no parameter {parameter.name!r}; "
                f"its parameters are: {listing}"
            )


_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def value_label(parameter: Parameter, value: Any) -> str:
    """An arm name for a sweep's value: ``budget-35``, ``chip_value-0.5``.

    >>> value_label(Parameter.parse("data:table.budget"), 35)
    'budget-35'
    """
    return _SAFE.sub("_", f"{parameter.short}-{format_value(value)}")[:60]


def sequence_of(value: Any) -> Sequence[Any]:
    return value if isinstance(value, list | tuple) else [value]
