"""How the lab's reports write numbers, intervals, arms and provenance (console and HTML).

>>> pct(0.2514), num(1.234, "%"), value(3.96), interval({"value": 25.1, "low": 22.0,
...                                                       "high": 28.4}, "%")
('25.1%', '+1.23 pts', '3.96', '25.1% [22.0, 28.4]')
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = [
    "Filter",
    "answer_text",
    "arm_text",
    "crossing_text",
    "interval",
    "lineups_text",
    "num",
    "pct",
    "provenance_lines",
    "value",
    "verdict_text",
]


class Filter:
    """Which arms and quantities a report shows (everything by default)."""

    def __init__(
        self, arms: Iterable[str] | None = None, metrics: Iterable[str] | None = None
    ) -> None:
        self.arms = set(arms) if arms else None
        self.metrics = [m.strip() for m in metrics] if metrics else None

    def arm(self, name: str) -> bool:
        return self.arms is None or name in self.arms

    def quantity(self, name: str) -> bool:
        if self.metrics is None:
            return True
        return any(m == name or m in name or name.replace(" ", "_") == m for m in self.metrics)


def pct(x: float | None) -> str:
    """A share (0-1) as a percentage: ``25.1%``."""
    return "n/a" if x is None or not math.isfinite(x) else f"{100 * x:.1f}%"


def num(x: float | None, unit: str = "") -> str:
    """A difference with its sign and unit: ``+1.2 pts``, ``-0.45 points``."""
    if x is None or not math.isfinite(x):
        return "n/a"
    text = f"{x:+.2f}" if abs(x) < 10 else f"{x:+.1f}"
    if unit == "%":
        return text + " pts"
    return f"{text} {unit}" if unit else text


def value(x: float | None, unit: str = "") -> str:
    """An absolute value with its unit: ``25.1%``, ``3.96``, ``80.0 steps``."""
    if x is None or not math.isfinite(x):
        return "n/a"
    text = f"{x:.1f}" if abs(x) >= 10 or unit == "%" else f"{x:.2f}"
    if unit == "%":
        return text + "%"
    return f"{text} {unit}" if unit else text


def interval(found: dict[str, Any], unit: str = "") -> str:
    """``25.1% [22.0, 28.4]``: a measure with its 95% interval."""
    low, high = found.get("low"), found.get("high")
    if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)):
        return value(found.get("value"), unit)
    return f"{value(found['value'], unit)} [{low:.1f}, {high:.1f}]"


def lineups_text(study: dict[str, Any]) -> str:
    return "; ".join(f"{name}: {', '.join(agents)}" for name, agents in study["lineups"].items())


def arm_text(name: str, spec: dict[str, Any]) -> str:
    """``rich (data table.budget=40; compared with baseline)``: what an arm changes."""
    parts = [f"{k}={v!r}" for k, v in spec.get("options", {}).items()]
    parts += [f"data {k}={v!r}" for k, v in spec.get("data_patch", {}).items()]
    if spec.get("data"):
        parts.append(f"data file {spec['data']}")
    if spec.get("agents"):
        parts.append(f"focal agents {', '.join(spec['agents'])}")
    text = ", ".join(parts) or "the defaults"
    return f"{name} ({text}; compared with {spec.get('against', 'baseline')})"


def provenance_lines(record: dict[str, Any]) -> list[str]:
    """Where the figures come from: version, commit, resolved bots, libraries."""
    if not record:
        return ["Made with: not recorded (results written before provenance was kept)"]
    commit = record.get("commit")
    code = f"commit {commit[:12]}" if commit else "no git checkout"
    if record.get("dirty"):
        code += " with uncommitted changes"
    libraries = ", ".join(f"{k} {v}" for k, v in record.get("libraries", {}).items())
    lines = [
        f"Made with potluck {record.get('version')}, {code}, Python {record.get('python')}; "
        f"{libraries}"
    ]
    bots = "; ".join(f"{k} = {v}" for k, v in record.get("bots", {}).items())
    lines.append(f"Bots as resolved (every parameter): {bots}")
    return lines


def crossing_text(entry: dict[str, Any]) -> str:
    """``iou_players reaches 2 at 35.9 [35.3, 36.9]``: a sweep's crossing and its interval."""
    at = entry["crossing"]
    where = f"{entry['metric']} reaches {entry['target']:g}"
    if at["value"] is None:
        return f"{where}: never within the swept range ({at['open']})"
    low = "open" if at["low"] is None else f"{at['low']:.1f}"
    high = "open" if at["high"] is None else f"{at['high']:.1f}"
    note = f"; the interval is open {at['open']}" if at["open"] else ""
    return (
        f"{where} at {at['value']:.1f} [{low}, {high}] (95% interval: bootstrap over the "
        f"deals, {at['resamples']} resamples{note})"
    )


def verdict_text(entry: dict[str, Any] | None) -> str:
    if entry is None:
        return ""
    text = str(entry["verdict"])
    if entry["flips_in"] and len(entry["lineups"]) > 2:
        text += f" (the other sign in {', '.join(entry['flips_in'])})"
    if entry["random_only"]:
        text += ", only with random bots"
    return text


def _figure(found: Mapping[str, Any], unit: str) -> str:
    suffix = f" {unit}" if unit and unit != "%" else unit
    return (
        f"{found['value']:.3g}{suffix} [{found['low']:.3g}, {found['high']:.3g}]"
        if found.get("low") is not None and math.isfinite(found["low"])
        else f"{found['value']:.3g}{suffix}"
    )


def answer_text(answer: Mapping[str, Any]) -> str:
    """The answer of a search in a few lines: the confirmed figures, then the search's record."""
    unit = answer["unit"]
    confirmation = answer["confirmation"]
    best = ", ".join(f"{k} = {v}" for k, v in answer["best"].items())
    goal = answer["goal"]
    aim = f"closest to {goal['target']:g}" if "target" in goal else f"{goal['direction']} it"
    base = answer["base"]
    difference = answer["difference"]
    search = answer["search"]
    lines = [
        f"Best point found: {best} (metric {confirmation['metric']}, {aim})",
        f"Confirmed on {confirmation['games']} fresh games (seeds "
        f"{answer['confirmation_seeds'][0]}-{answer['confirmation_seeds'][1]} per cell): "
        f"{confirmation['metric']} = {_figure(confirmation, unit)} (95% interval)",
        f"  the {base['arm']} arm on the same deals: {_figure(base, unit)}; best minus "
        f"{base['arm']}: {_figure(difference, 'pts' if unit == '%' else unit)}",
    ]
    for cell in answer["cells"]:
        tag = "" if cell["searched"] else " (confirmation line-up only)"
        lines.append(
            f"  {cell['players']} players, line-up {cell['lineup']}{tag}: best "
            f"{_figure(cell['best'], unit)}, {base['arm']} {_figure(cell['base'], unit)}"
        )
    bots = answer["bots"]
    played = "; ".join(f"{k}: {', '.join(v)}" for k, v in bots["lineups"].items())
    if bots["best_agents"]:
        played = (
            f"the focal seat {', '.join(bots['best_agents'])} (the {base['arm']} arm's: "
            f"{bots['focal']}) in line-ups {played}"
        )
    lines.append(f"Bots (cycled to fill the table): {played}")
    lines.append(
        f"Search: {search['trials']} trials of {search.get('points', search['trials'])} distinct "
        f"points ({search['complete']} complete, {search['pruned']} "
        f"stopped early by successive halving, {search['failed']} failed), rungs "
        f"{search['rungs']} games per cell, {search['games_played']} games played; the best "
        f"trial's own figure {search['best_trial']['value']:.3g} is not the answer (chosen as "
        "the best of many noisy figures)"
    )
    cpu = answer.get("cpu_seconds")
    if cpu:
        lines.append(
            f"Workers' CPU this session: {cpu['search']:.0f} s searching, "
            f"{cpu['confirmation']:.0f} s confirming"
        )
    return "\n".join(lines)
