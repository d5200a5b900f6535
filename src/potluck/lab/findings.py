"""The report's opening: whether each difference holds across line-ups, and the few
plain-language findings a designer reads first.

A difference between two arms is *significant* in a line-up when its paired
test gives p < 0.05. Across the study's line-ups a difference then **holds**
(significant with the same sign in every line-up), **flips** (significant with
opposite signs in two line-ups), is **mixed** (significant in some, not in
others) or is **not significant** anywhere. A difference that is significant only
in line-ups with a random bot is labelled **only with random bots**: random
play, not the rule or strategy under study, may be what moves it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from potluck.engine.botspec import BotSpec
from potluck.lab.stats import format_p
from potluck.lab.study import Study

__all__ = ["robustness", "summarise"]

#: The significance level of every "significant" in the report.
ALPHA = 0.05
#: How many findings the summary opens with, at most.
MAX_FINDINGS = 8
#: Quantities a summary leads with when an arm compares strategies or rules.
_STRATEGY_FIRST = "focal seat's win share (pts)"


def _has_random(agents: Sequence[str]) -> bool:
    return any(BotSpec.parse(agent).name == "random" for agent in agents)


def _verdict(entries: list[dict[str, Any]], random_lineups: set[str]) -> tuple[str, bool]:
    significant = [e for e in entries if e["significant"]]
    signs = {math.copysign(1, e["difference"]) for e in significant}
    random_only = bool(significant) and all(e["lineup"] in random_lineups for e in significant)
    random_only = random_only and any(e["lineup"] not in random_lineups for e in entries)
    if not significant:
        return "not significant", False
    if len(signs) > 1:
        return "flips", random_only
    if len(significant) == len(entries):
        return "holds", random_only
    return "mixed", random_only


def robustness(comparisons: list[dict[str, Any]], study: Study) -> list[dict[str, Any]]:
    """Per player count, arm and quantity: each line-up's difference and the verdict."""
    random_lineups = {name for name, agents in study.lineups if _has_random(agents)}
    grouped: dict[tuple[int, str, str], list[dict[str, Any]]] = {}
    against: dict[str, str] = {}
    for comparison in comparisons:
        against[comparison["arm"]] = comparison["against"]
        lead_random = _has_random(study.arm(comparison["arm"]).agents)
        for d in comparison["differences"]:
            entry = {
                "lineup": comparison["lineup"],
                "difference": d["difference"],
                "low": d["low"],
                "high": d["high"],
                "p_value": d["p_value"],
                "significant": math.isfinite(d["p_value"]) and d["p_value"] < ALPHA,
                "random": lead_random or comparison["lineup"] in random_lineups,
            }
            key = (comparison["players"], comparison["arm"], d["quantity"])
            grouped.setdefault(key, []).append(entry)
    found = []
    for (players, arm, quantity), entries in grouped.items():
        randoms = {e["lineup"] for e in entries if e["random"]}
        verdict, random_only = _verdict(entries, randoms)
        found.append(
            {
                "players": players,
                "arm": arm,
                "against": against[arm],
                "quantity": quantity,
                "lineups": entries,
                "verdict": verdict,
                "random_only": random_only,
                "holds_for": [e["lineup"] for e in entries if e["significant"]],
                "flips_in": _flipped(entries),
            }
        )
    return found


def _flipped(entries: list[dict[str, Any]]) -> list[str]:
    """The line-ups whose significant difference has the minority sign."""
    significant = [e for e in entries if e["significant"]]
    up = [e["lineup"] for e in significant if e["difference"] > 0]
    down = [e["lineup"] for e in significant if e["difference"] < 0]
    if not up or not down:
        return []
    return down if len(up) >= len(down) else up


def _number(value: float) -> str:
    if not math.isfinite(value):
        return "n/a"
    return f"{value:+.1f}" if abs(value) >= 1 else f"{value:+.2f}"


def _strength(entry: dict[str, Any]) -> float:
    """How clearly an effect stands out: its mean over its interval's half-width."""
    half = [(e["high"] - e["low"]) / 2 for e in entry["lineups"] if math.isfinite(e["high"])]
    mean = sum(e["difference"] for e in entry["lineups"]) / len(entry["lineups"])
    if not half or max(half) <= 0:
        return 0.0
    return float(abs(mean) / max(half))


def _size_text(entry: dict[str, Any]) -> str:
    """``4p -1.1 (holds)``: one table size's mean difference over line-ups and its verdict."""
    mean = sum(x["difference"] for x in entry["lineups"]) / len(entry["lineups"])
    verdict = entry["verdict"]
    if verdict in ("holds", "mixed"):
        verdict += f" in {', '.join(entry['holds_for'])}"
    if entry["flips_in"]:
        verdict += f" in {', '.join(entry['flips_in'])}"
    if entry["random_only"]:
        verdict += ", only with random bots"
    return f"{entry['players']}p {_number(mean)} ({verdict})"


def _comparison_finding(group: list[dict[str, Any]]) -> dict[str, Any]:
    """One finding for an arm and a quantity, over every table size."""
    first = group[0]
    best = max(group, key=lambda e: max(abs(x["difference"]) for x in e["lineups"]))
    lead = max(best["lineups"], key=lambda x: abs(x["difference"]))
    lineups = sorted({name for e in group for name in e["holds_for"]})
    flips = sorted({name for e in group for name in e["flips_in"]})
    tested = [e for e in group if e["verdict"] != "not significant"]
    random_only = bool(tested) and all(e["random_only"] for e in tested)
    text = (
        f"{first['arm']} vs {first['against']}: {first['quantity']} "
        f"{_number(lead['difference'])} [{_number(lead['low'])}, {_number(lead['high'])}] "
        f"at {best['players']} players ({format_p(lead['p_value'])}, line-up {lead['lineup']}); "
        f"by table size (mean over line-ups, verdict across them): "
        f"{'; '.join(_size_text(e) for e in group)}"
    )
    if flips:
        text += " — FLIPS: the answer depends on the bots"
    if random_only:
        text += " — ONLY WITH RANDOM BOTS"
    return {
        "kind": "comparison",
        "arm": first["arm"],
        "against": first["against"],
        "quantity": first["quantity"],
        "players": best["players"],
        "lineup": lead["lineup"],
        "effect": lead["difference"],
        "low": lead["low"],
        "high": lead["high"],
        "p_value": lead["p_value"],
        "holds_for": lineups,
        "flips_in": flips,
        "random_only": random_only,
        "verdicts": sorted({e["verdict"] for e in group}),
        "text": text,
    }


def _tier(quantity: str) -> int:
    """What a designer reads first: win shares, then scores, then everything else."""
    if quantity.endswith("win share (pts)"):
        return 0
    if "score" in quantity:
        return 1
    return 2


def _seat_findings(all_tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Seat balance in the baseline: the least equal table, or that every table is equal."""
    tables = [t for t in all_tables if t["arm"] == "baseline" and t["games"] > 0]
    unequal = [t for t in tables if t["equal_seats"]["p_value"] < ALPHA]
    if not tables:
        return []
    if not unequal:
        worst = min(tables, key=lambda t: t["equal_seats"]["p_value"])
        lowest = format_p(worst["equal_seats"]["p_value"])
        text = (
            "Seats are balanced in the baseline: no table size and line-up rejects "
            f"'every seat wins as often' (lowest chi-square {lowest}, "
            f"{worst['players']} players, line-up {worst['lineup']})"
        )
        return [
            {
                "kind": "seats",
                "players": worst["players"],
                "lineup": worst["lineup"],
                "effect": math.nan,
                "low": math.nan,
                "high": math.nan,
                "p_value": worst["equal_seats"]["p_value"],
                "holds_for": [],
                "text": text,
            }
        ]
    results = []
    for table in sorted(unequal, key=lambda t: t["equal_seats"]["p_value"])[:2]:
        seat = max(table["seats"], key=lambda s: abs(s["against_fair"]))
        text = (
            f"Seats are not equal at {table['players']} players (line-up {table['lineup']}, "
            f"chi-square {format_p(table['equal_seats']['p_value'])}): seat {seat['seat']} wins "
            f"{100 * seat['share']:.1f}% [{100 * seat['low']:.1f}, {100 * seat['high']:.1f}] "
            f"against a fair share of {100 * table['fair_share']:.1f}%"
        )
        results.append(
            {
                "kind": "seats",
                "players": table["players"],
                "lineup": table["lineup"],
                "effect": 100 * seat["against_fair"],
                "low": 100 * (seat["low"] - table["fair_share"]),
                "high": 100 * (seat["high"] - table["fair_share"]),
                "p_value": table["equal_seats"]["p_value"],
                "holds_for": [table["lineup"]],
                "text": text,
            }
        )
    return results


def summarise(
    tables: list[dict[str, Any]], robustness: list[dict[str, Any]], study: Study
) -> list[dict[str, Any]]:
    """At most ``MAX_FINDINGS`` findings: each strategy arm's focal win share; then, for
    each arm, its clearest differences (at most two per arm first, then the rest); then
    seat balance.

    "Clearest" is the effect over its interval's half-width, weighted so that win
    shares count three times and scores twice as much as other quantities, and a
    difference that flips sign between line-ups twice (a warning worth reading).
    """
    by_arm_quantity: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for entry in robustness:
        by_arm_quantity.setdefault((entry["arm"], entry["quantity"]), []).append(entry)
    headlines: list[dict[str, Any]] = []
    ranked: list[tuple[float, dict[str, Any]]] = []
    for (arm, quantity), group in by_arm_quantity.items():
        group.sort(key=lambda e: e["players"])
        if all(e["verdict"] == "not significant" for e in group) and quantity != _STRATEGY_FIRST:
            continue
        finding = _comparison_finding(group)
        strategy = bool(study.arm(arm).agents or study.arm(group[0]["against"]).agents)
        if strategy and quantity == _STRATEGY_FIRST:
            headlines.append(finding)
            continue
        weight = (3.0, 2.0, 1.0)[_tier(quantity)] * (2.0 if finding["flips_in"] else 1.0)
        ranked.append((weight * max(_strength(e) for e in group), finding))
    ranked.sort(key=lambda pair: -pair[0])
    seats = _seat_findings(tables)
    room = max(MAX_FINDINGS - len(headlines) - len(seats), 1)
    first: list[dict[str, Any]] = []
    per_arm: dict[str, int] = {}
    for _, finding in ranked:
        if per_arm.get(finding["arm"], 0) < 2:
            per_arm[finding["arm"]] = per_arm.get(finding["arm"], 0) + 1
            first.append(finding)
    rest = [f for _, f in ranked if f not in first]
    chosen = headlines + (first + rest)[:room] + seats
    return chosen[:MAX_FINDINGS]
