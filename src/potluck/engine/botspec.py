"""Bot specs: a bot's name with its parameters, written ``name:key=value,key=value``.

A bot class declares what it can be told as :class:`BotParam` entries in its
``params`` class attribute; :func:`build_bot` checks a spec against them and
builds the bot::

    >>> spec = BotSpec.parse("greedy:belle_value=8, chip_value=1.5")
    >>> spec.name, spec.params
    ('greedy', (('belle_value', '8'), ('chip_value', '1.5')))
    >>> str(spec)
    'greedy:belle_value=8,chip_value=1.5'

In a comma-separated list of agents, an item ``key=value`` belongs to the spec
before it, so a list can hold specs with several parameters::

    >>> split_agents("ismcts:sims=200,rollout=greedy,greedy,random")
    ['ismcts:sims=200,rollout=greedy', 'greedy', 'random']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from potluck.engine.errors import PotluckError

#: The types a parameter may have; each is parsed from its text form.
ParamType = type[int] | type[float] | type[bool] | type[str]

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


class BotSpecError(PotluckError):
    """A bot spec that names no bot, or a parameter the bot lacks or a value it cannot take."""


@dataclass(frozen=True)
class BotParam:
    """One parameter a bot takes: its name, type, default and what it means.

    ``choices`` limits a text parameter to some words; ``low``/``high`` bound a
    number (inclusive).

    >>> BotParam("sims", int, 200, "simulations per decision", low=1).parse("50")
    50
    """

    name: str
    type: ParamType
    default: Any
    help: str
    choices: tuple[str, ...] | None = None
    low: float | None = None
    high: float | None = None

    def parse(self, text: str) -> Any:
        """The value ``text`` writes; :class:`BotSpecError` saying why if it is not one."""
        text = text.strip()
        value: Any
        if self.type is bool:
            lowered = text.lower()
            if lowered not in _TRUE | _FALSE:
                raise BotSpecError(f"{self.name} is true or false, not {text!r}")
            value = lowered in _TRUE
        elif self.type is int:
            try:
                value = int(text)
            except ValueError:
                raise BotSpecError(f"{self.name} is a whole number, not {text!r}") from None
        elif self.type is float:
            try:
                value = float(text)
            except ValueError:
                raise BotSpecError(f"{self.name} is a number, not {text!r}") from None
            if not math.isfinite(value):
                raise BotSpecError(f"{self.name} must be a finite number, not {text!r}")
        else:
            value = text
        if self.choices is not None and value not in self.choices:
            raise BotSpecError(f"{self.name} is one of {', '.join(self.choices)}, not {text!r}")
        if self.low is not None and value < self.low:
            raise BotSpecError(f"{self.name} must be at least {_number(self.low)}, not {text}")
        if self.high is not None and value > self.high:
            raise BotSpecError(f"{self.name} must be at most {_number(self.high)}, not {text}")
        return value

    def describe(self) -> str:
        """``"sims (int, default 200): simulations per decision"``: one line of a help list."""
        kind = "|".join(self.choices) if self.choices else self.type.__name__
        return f"{self.name} ({kind}, default {self.default!r}): {self.help}"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


@dataclass(frozen=True)
class BotSpec:
    """A bot's name and the parameters given to it, as text, in the order written."""

    name: str
    params: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """Read ``name`` or ``name:key=value,key=value``; :class:`BotSpecError` if malformed."""
        if not isinstance(text, str):
            raise BotSpecError(f"a bot spec is text, not {type(text).__name__}")
        name, colon, rest = text.strip().partition(":")
        name = name.strip()
        if not name:
            raise BotSpecError(f"bot spec {text!r} names no bot")
        params: list[tuple[str, str]] = []
        if colon:
            for item in rest.split(","):
                key, equals, value = item.partition("=")
                key = key.strip()
                if not equals or not key:
                    raise BotSpecError(f"in bot spec {text!r}, {item.strip()!r} is not key=value")
                if any(key == seen for seen, _ in params):
                    raise BotSpecError(f"in bot spec {text!r}, {key} is given twice")
                params.append((key, value.strip()))
        return cls(name, tuple(params))

    def __str__(self) -> str:
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{key}={value}" for key, value in self.params)


def split_agents(text: str | Sequence[str]) -> list[str]:
    """Split a comma-separated list of bot specs; ``key=value`` items join the spec before.

    A sequence (already split on commas, e.g. by a command-line parser) is regrouped
    the same way. Each spec keeps the text as written, less surrounding spaces.
    """
    items = text.split(",") if isinstance(text, str) else [p for t in text for p in t.split(",")]
    specs: list[str] = []
    for raw in items:
        item = raw.strip()
        if "=" in item.partition(":")[0]:
            if not specs:
                raise BotSpecError(f"parameter {item!r} comes before any bot name")
            joiner = "," if ":" in specs[-1] else ":"
            specs[-1] += joiner + item
        elif item:
            specs.append(item)
        else:
            raise BotSpecError(f"empty item in the agent list {text!r}")
    return specs


def bot_params(factory: Callable[..., Any]) -> tuple[BotParam, ...]:
    """The parameters a bot factory declares (none if it declares none)."""
    return tuple(getattr(factory, "params", ()))


def build_bot(factories: Mapping[str, Callable[..., Any]], spec: str | BotSpec, owner: str) -> Any:
    """Build the bot that ``spec`` names from ``factories``, with its parameters checked.

    ``owner`` names whose bots these are, for the error messages.

    >>> from potluck.engine.bots import RandomBot
    >>> build_bot({"random": RandomBot}, "random", "Café Carnage").name
    'random'
    >>> build_bot({"random": RandomBot}, "random:depth=2", "Café Carnage")
    Traceback (most recent call last):
    ...
    potluck.engine.botspec.BotSpecError: bot 'random' takes no parameters, not depth
    """
    parsed = spec if isinstance(spec, BotSpec) else BotSpec.parse(spec)
    if parsed.name not in factories:
        raise BotSpecError(
            f"{owner} has no bot {parsed.name!r}; its bots are: {', '.join(sorted(factories))}"
        )
    factory = factories[parsed.name]
    declared = {param.name: param for param in bot_params(factory)}
    values: dict[str, Any] = {}
    for key, text in parsed.params:
        if key not in declared:
            if not declared:
                raise BotSpecError(f"bot {parsed.name!r} takes no parameters, not {key}")
            listing = "; ".join(param.describe() for param in declared.values())
            raise BotSpecError(
                f"bot {parsed.name!r} has no parameter {key!r}; its parameters are: {listing}"
            )
        values[key] = declared[key].parse(text)
    bot = factory(**values)
    bot.spec = str(spec) if isinstance(spec, str) else str(parsed)
    return bot
