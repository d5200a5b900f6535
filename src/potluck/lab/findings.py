"""The report's opening: whether each difference holds across line-ups, and the few
plain-language findings a designer reads first.

A report runs many tests (every arm, table size, line-up and quantity, and every
seat test), so each p-value is adjusted for their number (Benjamini-Hochberg: of
the differences called significant, at most 5% are expected to be flukes) and a
difference is *significant* in a line-up when its adjusted p-value (``q``) is
below 0.05. Across the study's line-ups it then **holds** (significant with the
same sign in every line-up, and there are at least two), **flips** (significant
with opposite signs in two line-ups), is **mixed** (significant in some, not in
others), is **significant in its one line-up** (a study with one line-up cannot
say whether it holds for other bots) or is **not significant**. One significant
only in line-ups with a random bot is labelled **only with random bots**.

A finding leaves out what is true by construction (a quantity that never varies
within an arm, or an interval of zero width) and differences smaller than a
stated minimum (:func:`minimum_difference`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from potluck.engine.botspec import BotSpec
from potluck.lab.stats import format_p
from potluck.lab.study import Study

__all__ = ["CORRECTION", "LEGEND", "minimum_difference", "robustness", "summarise"]

#: The significance level of every "significant" in the report (on adjusted p-values).
ALPHA = 0.05
#: How many findings the summary holds, at most.
MAX_FINDINGS = 5
#: How p-values are adjusted for the many tests of a report.
CORRECTION = "Benjamini-Hochberg (false discovery rate 5%) over every test of the report"
#: The smallest differences a finding reports, by unit.
MINIMUM_WIN_SHARE = 1.0  # pts
MINIMUM_STEPS = 1.0
MINIMUM_SD = 0.1  # of the quantity's standard deviation across the reference arm's games
_STRATEGY_FIRST = "focal seat's win share"

#: What every verdict word means, for the report's legend.
LEGEND = {
    "holds": "significant with the same sign in every line-up (at least two line-ups)",
    "significant, single line-up": "significant in the only line-up that measures it (the "
    "study's one line-up, or the one where those bots meet): whether it holds for other bots "
    "is not measured",
    "flips": "significant with opposite signs in two line-ups: the answer depends on the bots",
    "mixed": "significant in some line-ups, not in others",
    "not significant": "no line-up shows it once the tests are corrected",
    "only with random bots": "significant only in line-ups with a random bot: random play may "
    "be what moves it",
}


def minimum_difference(quantity: str, sd_reference: float) -> float:
    """The smallest difference a finding reports: 1 pt of win share, 1 step of length,
    else a tenth of the quantity's standard deviation across the reference's games.

        >>> minimum_difference("focal seat's win share", 40.0), minimum_difference("length", 3.0)
        (1.0, 1.0)
        >>> minimum_difference("mean score", 5.0)
        0.5
    """
    if quantity.endswith("win share"):
        return MINIMUM_WIN_SHARE
    if quantity == "length":
        return MINIMUM_STEPS
    return MINIMUM_SD * sd_reference


def _has_random(agents: Sequence[str]) -> bool:
    return any(BotSpec.parse(agent).name == "random" for agent in agents)


def _verdict(entries: list[dict[str, Any]]) -> str:
    significant = [e for e in entries if e["significant"]]
    signs = {math.copysign(1, e["difference"]) for e in significant}
    if not significant:
        return "not significant"
    if len(signs) > 1:
        return "flips"
    if len(entries) == 1:
        return "significant, single line-up"
    if len(significant) == len(entries):
        return "holds"
    return "mixed"


def robustness(comparisons: list[dict[str, Any]], study: Study) -> list[dict[str, Any]]:
    """Per player count, arm and quantity: each line-up's difference and the verdict."""
    random_lineups = {name for name, agents in study.lineups if _has_random(agents)}
    grouped: dict[tuple[int, str, str], list[dict[str, Any]]] = {}
    against: dict[str, str] = {}
    kept: dict[tuple[int, str, str], dict[str, Any]] = {}
    for comparison in comparisons:
        against[comparison["arm"]] = comparison["against"]
        lead_random = _has_random(study.arm(comparison["arm"]).agents)
        for d in comparison["differences"]:
            q = d.get("q_value", d["p_value"])
            entry = {
                "lineup": comparison["lineup"],
                "difference": d["difference"],
                "low": d["low"],
                "high": d["high"],
                "p_value": d["p_value"],
                "q_value": q,
                "significant": math.isfinite(q) and q < ALPHA and not d.get("by_construction"),
                "random": lead_random or comparison["lineup"] in random_lineups,
            }
            key = (comparison["players"], comparison["arm"], d["quantity"])
            grouped.setdefault(key, []).append(entry)
            kept.setdefault(key, d)
    found = []
    for (players, arm, quantity), entries in grouped.items():
        significant = [e for e in entries if e["significant"]]
        random_only = bool(significant) and all(e["random"] for e in significant)
        random_only = random_only and any(not e["random"] for e in entries)
        detail = kept[(players, arm, quantity)]
        found.append(
            {
                "players": players,
                "arm": arm,
                "against": against[arm],
                "quantity": quantity,
                "unit": detail.get("unit", ""),
                "by_construction": bool(detail.get("by_construction")),
                "minimum": detail.get("minimum", 0.0),
                "lineups": entries,
                "verdict": _verdict(entries),
                "random_only": random_only,
                "holds_for": [e["lineup"] for e in significant],
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


def _number(value: float, unit: str = "") -> str:
    if not math.isfinite(value):
        return "n/a"
    text = f"{value:+.1f}" if abs(value) >= 1 else f"{value:+.2f}"
    if unit == "%":
        return text + " pts"
    return f"{text} {unit}" if unit else text


def _strength(entry: dict[str, Any]) -> float:
    """How clearly an effect stands out: its mean over its interval's half-width."""
    half = [(e["high"] - e["low"]) / 2 for e in entry["lineups"] if math.isfinite(e["high"])]
    mean = sum(e["difference"] for e in entry["lineups"]) / len(entry["lineups"])
    if not half or max(half) <= 0:
        return 0.0
    return float(abs(mean) / max(half))


def _size_text(entry: dict[str, Any]) -> str:
    """``4p -1.6 / -0.61 (holds)``: one table size's difference in each line-up (in the
    study's order) and the verdict across them."""
    values = " / ".join(_number(x["difference"]) for x in entry["lineups"])
    verdict = entry["verdict"]
    if verdict == "mixed":
        verdict += f": significant in {', '.join(entry['holds_for'])}"
    if entry["random_only"]:
        verdict += ", only with random bots"
    return f"{entry['players']}p {values} ({verdict})"


def _lineup_names(group: list[dict[str, Any]]) -> str:
    """`` (all-greedy / greedy-random)``: the line-ups whose values follow, when several."""
    names = [x["lineup"] for x in group[0]["lineups"]]
    return f" ({' / '.join(names)})" if len(names) > 1 else ""


def _comparison_finding(group: list[dict[str, Any]]) -> dict[str, Any]:
    """One finding for an arm and a quantity, over every table size."""
    first = group[0]
    unit = first["unit"]
    best = max(group, key=lambda e: max(abs(x["difference"]) for x in e["lineups"]))
    lead = max(best["lineups"], key=lambda x: abs(x["difference"]))
    lineups = sorted({name for e in group for name in e["holds_for"]})
    flips = sorted({name for e in group for name in e["flips_in"]})
    tested = [e for e in group if e["verdict"] != "not significant"]
    random_only = bool(tested) and all(e["random_only"] for e in tested)
    text = (
        f"arm {first['arm']} vs {first['against']}: {first['quantity']} "
        f"{_number(lead['difference'], unit)} [{_number(lead['low'])}, {_number(lead['high'])}] "
        f"at {best['players']} players (line-up {lead['lineup']}, {format_p(lead['p_value'])}, "
        f"q {format_p(lead['q_value']).removeprefix('p ')}); by table size"
        f"{_lineup_names(group)}: {'; '.join(_size_text(e) for e in group)}"
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
        "unit": unit,
        "players": best["players"],
        "lineup": lead["lineup"],
        "effect": lead["difference"],
        "low": lead["low"],
        "high": lead["high"],
        "p_value": lead["p_value"],
        "q_value": lead["q_value"],
        "holds_for": lineups,
        "flips_in": flips,
        "random_only": random_only,
        "verdicts": sorted({e["verdict"] for e in group}),
        "differences": {
            f"{e['players']}p {x['lineup']}": x["difference"] for e in group for x in e["lineups"]
        },
        "text": text,
    }


def _tier(quantity: str) -> int:
    """What a designer reads first: win shares, then scores, then everything else."""
    if quantity.endswith("win share"):
        return 0
    if "score" in quantity:
        return 1
    return 2


def _reportable(entry: dict[str, Any]) -> bool:
    """Significant somewhere, not true by construction, and at least the stated minimum."""
    if entry["by_construction"] or entry["verdict"] == "not significant":
        return False
    big = [
        e for e in entry["lineups"] if e["significant"] and abs(e["difference"]) >= entry["minimum"]
    ]
    return bool(big)


def _seat_findings(all_tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Seat balance in each arm: the least equal table, or that every table is equal."""
    tables = [t for t in all_tables if t["games"] > 0]
    if not tables:
        return []

    def q(table: dict[str, Any]) -> float:
        value = table["equal_seats"].get("q_value", table["equal_seats"]["p_value"])
        return float(value) if math.isfinite(value) else 1.0

    unequal = [
        t
        for t in tables
        if q(t) < ALPHA
        and max(abs(s["against_fair"]) for s in t["seats"]) * 100 >= MINIMUM_WIN_SHARE
    ]
    if not unequal:
        worst = min(tables, key=q)
        text = (
            "Seats are balanced in every arm: no table size, line-up or arm rejects "
            f"'every seat wins as often' once corrected (lowest: arm {worst['arm']}, "
            f"{worst['players']} players, line-up {worst['lineup']}, chi-square "
            f"{format_p(worst['equal_seats']['p_value'])}, q "
            f"{format_p(q(worst)).removeprefix('p ')})"
        )
        return [
            {
                "kind": "seats",
                "arm": worst["arm"],
                "players": worst["players"],
                "lineup": worst["lineup"],
                "effect": math.nan,
                "low": math.nan,
                "high": math.nan,
                "p_value": worst["equal_seats"]["p_value"],
                "q_value": q(worst),
                "holds_for": [],
                "text": text,
            }
        ]
    results = []
    for table in sorted(unequal, key=q)[:2]:
        seat = max(table["seats"], key=lambda s: abs(s["against_fair"]))
        text = (
            f"Seats are not equal at {table['players']} players in arm {table['arm']} "
            f"(line-up {table['lineup']}, chi-square {format_p(table['equal_seats']['p_value'])}, "
            f"q {format_p(q(table)).removeprefix('p ')}): seat {seat['seat']} wins "
            f"{100 * seat['share']:.1f}% [{100 * seat['low']:.1f}, {100 * seat['high']:.1f}] "
            f"against a fair share of {100 * table['fair_share']:.1f}%"
        )
        results.append(
            {
                "kind": "seats",
                "arm": table["arm"],
                "players": table["players"],
                "lineup": table["lineup"],
                "effect": 100 * seat["against_fair"],
                "low": 100 * (seat["low"] - table["fair_share"]),
                "high": 100 * (seat["high"] - table["fair_share"]),
                "p_value": table["equal_seats"]["p_value"],
                "q_value": q(table),
                "holds_for": [table["lineup"]],
                "text": text,
            }
        )
    return results


def _mirrored(finding: dict[str, Any], others: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Another bot's win-share finding in the same arm whose every difference is this one's
    with the sign turned (two bots at the table: what one loses the other wins)."""
    if not finding["quantity"].endswith("'s win share") or finding["quantity"].startswith(
        ("focal seat", "first player")
    ):
        return None
    mine = finding["differences"]
    for other in others:
        if (
            other["arm"] == finding["arm"]
            and other["quantity"] != finding["quantity"]
            and other["quantity"].endswith("'s win share")
            and other["differences"].keys() == mine.keys()
            and all(abs(other["differences"][k] + v) < 1e-9 for k, v in mine.items())
        ):
            return other
    return None


def summarise(
    tables: list[dict[str, Any]], robustness: list[dict[str, Any]], study: Study
) -> list[dict[str, Any]]:
    """At most ``MAX_FINDINGS`` findings: each strategy arm's focal win share; then the
    clearest reportable differences (at most two per arm, one per quantity: the same
    effect in other arms is named in it, not repeated); then seat balance. A sweep's
    arms are summarised by the sweep's own table, not here.

    Win shares come first, then scores, then other quantities (what a designer asks
    about before what explains it); within each, the clearest first: the effect over
    its interval's half-width, a difference that flips sign between line-ups counting
    twice (a warning worth reading). An arm gets two findings before any gets a third.
    """
    by_arm_quantity: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for entry in robustness:
        by_arm_quantity.setdefault((entry["arm"], entry["quantity"]), []).append(entry)
    headlines: list[dict[str, Any]] = []
    ranked: list[tuple[tuple[int, float], dict[str, Any]]] = []
    sweep_arms = set(study.sweep.arms) if study.sweep is not None else set()
    for (arm, quantity), group in by_arm_quantity.items():
        if arm in sweep_arms:
            continue
        group.sort(key=lambda e: e["players"])
        strategy = bool(study.arm(arm).agents or study.arm(group[0]["against"]).agents)
        if strategy and quantity == _STRATEGY_FIRST and arm not in sweep_arms:
            headlines.append(_comparison_finding(group))
            continue
        reportable = [e for e in group if _reportable(e)]
        if not reportable:
            continue
        finding = _comparison_finding(group)
        weight = 2.0 if finding["flips_in"] else 1.0
        clearest = weight * max(_strength(e) for e in reportable)
        ranked.append(((_tier(quantity), -clearest), finding))
    ranked.sort(key=lambda pair: pair[0])
    seats = _seat_findings(tables)[:1]
    headlines = headlines[: MAX_FINDINGS - len(seats)]
    room = max(MAX_FINDINGS - len(headlines) - len(seats), 0)
    chosen: list[dict[str, Any]] = []
    per_arm: dict[str, int] = {}
    by_quantity: dict[str, dict[str, Any]] = {}
    for _, finding in ranked:
        mirror = _mirrored(finding, [f for _, f in ranked if f is not finding])
        if mirror is not None and mirror in chosen:
            continue  # with two bots at the table, one's win share is the other's, mirrored
        first = by_quantity.get(finding["quantity"])
        if first is not None:  # the same effect in another arm: named, not repeated
            first.setdefault("also_in", []).append(finding["arm"])
            continue
        if per_arm.get(finding["arm"], 0) < 2 and len(chosen) < room:
            per_arm[finding["arm"]] = per_arm.get(finding["arm"], 0) + 1
            chosen.append(finding)
            by_quantity[finding["quantity"]] = finding
    # room left once every arm had its two: the next clearest, still one per quantity
    for _, finding in ranked:
        if len(chosen) >= room:
            break
        mirror = _mirrored(finding, chosen)
        if finding not in chosen and finding["quantity"] not in by_quantity and mirror is None:
            chosen.append(finding)
            by_quantity[finding["quantity"]] = finding
    chosen.sort(key=lambda f: next(k for k, (_, g) in enumerate(ranked) if g is f))
    for finding in chosen:
        if finding.get("also_in"):
            finding["text"] += f" (significant in arm{'s' if len(finding['also_in']) > 1 else ''} "
            finding["text"] += f"{', '.join(finding['also_in'])} too)"
    return (headlines + chosen + seats)[:MAX_FINDINGS]
