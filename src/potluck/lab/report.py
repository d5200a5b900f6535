"""A study's report on the console: the answer in a minute, then (``full``) every table.

    >>> from potluck.lab import analyse, console_summary, load_results, write_html  # doctest: +SKIP
    >>> study, rows = load_results("results/")                      # doctest: +SKIP
    >>> found = analyse(study, rows)                                # doctest: +SKIP
    >>> print(console_summary(found)); write_html(found, rows, "report.html")  # doctest: +SKIP

The short report (the default, at most about 60 lines) opens with the absolute
win shares (the focal seat's in each arm, table size and line-up, and the
compared arm's in the same games), then a sweep's table, at most five findings,
what was left out and why, and a legend of every verdict word and unit.
``full=True`` adds every table. ``arms`` and ``metrics`` keep only the arms and the
quantities or metrics named (a quantity matches if it contains a name given).
"""

from __future__ import annotations

from collections.abc import Sequence

from potluck.lab.analysis import Analysis, analyse
from potluck.lab.findings import LEGEND
from potluck.lab.html import write_html
from potluck.lab.stats import format_p
from potluck.lab.texts import (
    Filter,
    arm_text,
    crossing_text,
    interval,
    lineups_text,
    num,
    pct,
    provenance_lines,
    value,
    verdict_text,
)

__all__ = ["Analysis", "Filter", "analyse", "console_summary", "write_html"]

#: Rows of the win-share table in the short report (``full`` shows every row).
WIN_ROWS = 24
#: Values of a sweep's table in the short report.
SWEEP_ROWS = 30


def _win_rows(found: Analysis, keep: Filter) -> list[str]:
    sweep_arms = set(found.study.get("sweep", {}) and _sweep_arms(found))
    rows = []
    for entry in found.win_table:
        if not keep.arm(entry["arm"]) or entry["arm"] in sweep_arms:
            continue
        text = (
            f"  {entry['arm']:<16} {entry['players']}p {entry['lineup']:<14} "
            f"{entry['focal_agent']:<22} {interval(entry['share'], '%'):<22}"
        )
        if "against" in entry:
            text += (
                f" vs {entry['against']} ({entry['against_agent']}) "
                f"{interval(entry['against_share'], '%')}: "
                f"{num(entry['difference']['value'], '%')} "
                f"[{entry['difference']['low']:+.1f}, {entry['difference']['high']:+.1f}]"
            )
        else:
            text += f" (fair share {entry['fair']:.1f}%)"
        rows.append(text)
    return rows


def _sweep_arms(found: Analysis) -> list[str]:
    arms: list[str] = []
    for entry in found.sweeps:
        arms += [p["arm"] for p in entry["points"]]
    return arms


def _sweep_lines(found: Analysis, keep: Filter, full: bool) -> list[str]:
    if not found.sweeps:
        return []
    shown = [e for e in found.sweeps if keep.quantity(e["metric"])]
    if not shown:
        return []
    first = shown[0]
    lines = [
        "",
        f"Sweep of {first['parameter']} (each value's arm on the same deals; 95% intervals):",
    ]
    cells = sorted({(e["players"], e["lineup"]) for e in shown})
    for players, lineup in cells:
        mine = [e for e in shown if (e["players"], e["lineup"]) == (players, lineup)]
        header = f"  {players} players, line-up {lineup}: value | " + " | ".join(
            f"{e['metric']}" + (f" ({e['unit']})" if e["unit"] else "") for e in mine
        )
        lines.append(header)
        points = list(zip(*(e["points"] for e in mine), strict=True))
        limit = len(points) if full else SWEEP_ROWS
        for row in points[:limit]:
            lines.append(
                f"    {row[0]['parameter_value']!s:>8} | "
                + " | ".join(interval(p, "") for p in row)
            )
        if len(points) > limit:
            lines.append(f"    ... {len(points) - limit} more values: --full")
        for e in mine:
            if "crossing" in e:
                lines.append("  " + crossing_text(e))
            if "lowest" in e:
                low = e["lowest"]
                lines.append(
                    f"  {e['metric']} is lowest at {low['parameter_value']} "
                    f"({interval(low, e['unit'])}); a value whose interval overlaps it is as good "
                    "as far as these games can tell"
                )
    return lines


def _tests(found: Analysis) -> str:
    tests = int(found.rules.get("tests", 0))
    return f"{tests} test" if tests == 1 else f"{tests} tests"


def _legend_lines(found: Analysis) -> list[str]:
    return [
        "",
        f"How to read it: q is the p-value adjusted for the {_tests(found)} of this report "
        f"({found.rules.get('correction', 'Benjamini-Hochberg')}); a finding needs q < 0.05 and "
        "a difference of at least 1 pt of win share, 1 step of length, or a tenth of the "
        "quantity's standard deviation (other quantities); effects true by construction (a "
        "quantity constant within an arm, an interval of zero width) are left out.",
        "Verdicts across line-ups: "
        + "; ".join(f"'{word}' = {meaning}" for word, meaning in LEGEND.items())
        + ".",
        "Units: win shares in % of games (a shared win counts 1/k), their differences in "
        "percentage points (pts); scores in the game's points; lengths in steps (actions); "
        "every interval is 95%.",
    ]


def console_summary(
    found: Analysis,
    *,
    full: bool = False,
    arms: Sequence[str] | None = None,
    metrics: Sequence[str] | None = None,
) -> str:
    """The report as text: the short form (about 60 lines) or, with ``full``, every table."""
    keep = Filter(arms, metrics)
    s = found.study
    lines = [
        f"Study of {s['game']}: {s['games']} games per arm, line-up and table size; "
        f"players {s['players']}; seed {s['seed']}",
        f"Line-ups (bots cycled to fill the table, turned a seat a game): {lineups_text(s)}",
    ]
    named = [arm_text(n, spec) for n, spec in s["arms"].items() if keep.arm(n)]
    if s.get("sweep"):
        named.append(f"and one arm per value of {s['sweep']['parameter']} (the sweep)")
    lines.append("Arms: baseline (the game's defaults)" + "".join(f"; {a}" for a in named))
    lines += provenance_lines(found.provenance)
    win = _win_rows(found, keep)
    if win:
        lines += [
            "",
            "Win share of the focal seat (table position 0, which turns round the "
            "table), % of games [95% interval], and of the compared arm's in the same games:",
        ]
        limit = len(win) if full else WIN_ROWS
        lines += win[:limit]
        if len(win) > limit:
            lines.append(f"  ... {len(win) - limit} more rows: --full, or --arms to choose")
    lines += _sweep_lines(found, keep, full)
    findings = [
        f
        for f in found.summary
        if keep.arm(f.get("arm", "baseline")) and keep.quantity(f.get("quantity", "seat"))
    ]
    lines += [
        "",
        "Findings (at most 5: win shares, then scores, then other quantities, the clearest "
        f"first; q = p adjusted for {_tests(found)}):",
    ]
    lines += [f"  {k}. {f['text']}" for k, f in enumerate(findings, 1)] or ["  none"]
    lines += _legend_lines(found)
    if found.errors:
        first = found.errors[0]
        lines.append(
            f"{len(found.errors)} games crashed; first: seed {first['seed']} "
            f"({first['arm']}, line-up {first['lineup']}, {first['players']} players): "
            f"{first['error']}"
        )
    if not full:
        lines.append("Every table: --full; plots of the findings: --html REPORT.html")
        return "\n".join(lines)
    return "\n".join(lines + details(found, keep))


def details(found: Analysis, keep: Filter) -> list[str]:
    """Every table of the report as text (``--full``)."""
    lines: list[str] = []
    for table in found.tables:
        if not keep.arm(table["arm"]):
            continue
        lines.append("")
        lines.append(
            f"{table['players']} players, line-up {table['lineup']}, arm {table['arm']}: "
            f"{table['games']} games" + (f" ({table['errors']} crashed)" if table["errors"] else "")
        )
        seat_text = "; ".join(
            f"seat {x['seat']} {pct(x['share'])} [{pct(x['low'])}, {pct(x['high'])}]"
            for x in table["seats"]
        )
        lines.append(f"  win share by seat (fair {pct(table['fair_share'])}): {seat_text}")
        eq = table["equal_seats"]
        lines.append(
            f"  all seats equal: chi-square {eq['chi_square']:.2f} (df {eq['df']}), "
            f"{format_p(eq['p_value'])}, q {format_p(eq['q_value']).removeprefix('p ')}"
        )
        lines.append(
            f"  score mean {table['scores']['mean']:.2f} points (sd {table['scores']['sd']:.2f}); "
            f"length mean {table['length']['mean']:.1f} steps"
        )
    verdicts = {(r["players"], r["arm"], r["quantity"]): r for r in found.robustness}
    for comparison in found.comparisons:
        if not keep.arm(comparison["arm"]):
            continue
        lines.append("")
        lines.append(
            f"{comparison['players']} players, line-up {comparison['lineup']}: "
            f"{comparison['arm']} - {comparison['against']} ({comparison['pairs']} paired games)"
        )
        for d in comparison["differences"]:
            if not keep.quantity(d["quantity"]):
                continue
            verdict = verdicts.get((comparison["players"], comparison["arm"], d["quantity"]))
            unit = d["unit"]
            note = " (true by construction)" if d["by_construction"] else ""
            lines.append(
                f"  {d['quantity']}: {value(d['reference'], unit)} -> {value(d['arm'], unit)}, "
                f"{num(d['difference'], unit)} [{num(d['low'])}, {num(d['high'])}], "
                f"{format_p(d['p_value'])}, q {format_p(d['q_value']).removeprefix('p ')}"
                f"{note}; across line-ups: {verdict_text(verdict)}"
            )
    for rated in found.ratings:
        if not keep.arm(rated["arm"]):
            continue
        lines.append("")
        lines.append(
            f"Ratings, arm {rated['arm']} (Elo, Bradley-Terry fitted by choix): "
            + ", ".join(f"{name} {elo:.0f}" for name, elo in rated["elo"].items())
        )
        for k in rated["skill"]:
            lines.append(
                f"  {k['stronger']} finished ahead of {k['weaker']} in {pct(k['rate'])} "
                f"[{pct(k['low'])}, {pct(k['high'])}] of {k['meetings']:g} meetings"
            )
    for w in found.winning:
        if not keep.arm(w["arm"]) or (not w["items"] and not w["amounts"]):
            continue
        lines.append("")
        lines.append(
            f"{w['players']} players, line-up {w['lineup']}, arm {w['arm']}: what goes with winning"
        )
        ends = w["items"][:3] + w["items"][3:][-3:][::-1]
        for item in ends:
            lines.append(
                f"  {item['item']}: {pct(item['share_with'])} with vs "
                f"{pct(item['share_without'])} without ({item['lift']:+.1f} pts, "
                f"{item['seats_with']} seats with it)"
            )
        for amount in w["amounts"][:4]:
            bins = ", ".join(
                f"{b['low_value']:g}-{b['high_value']:g}: {pct(b['share'])}" for b in amount["bins"]
            )
            lines.append(
                f"  {amount['item']} (amount): rank correlation with winning "
                f"{amount['rho']:+.2f}, {format_p(amount['p_value'])}; win share by range {bins}"
            )
    return lines
