"""A study's report as one self-contained HTML file, small and quick to open.

It opens like the console report (the win-share table, a sweep's table, the
findings, the legend) with plots only where they answer something: each finding
has one small multiple (one panel per line-up, one series a panel: the difference
at each table size with its 95% interval), and a sweep has its metrics drawn
against the value. Every detail table follows, folded (``<details>``), as text:
no plot per table, so the file stays well under a megabyte and opens at once.
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from potluck.lab.analysis import Analysis
from potluck.lab.findings import LEGEND
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

__all__ = ["histogram_bins", "write_html"]

_CSS = """
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.2em;font-size:90%}td,th{border:1px solid #ccc;
padding:2px 7px;text-align:right}th{background:#f3f3f3}
td:first-child,th:first-child{text-align:left}
img{max-width:100%}h2{border-bottom:2px solid #444;margin-top:1.6em}
.findings{background:#f6f8fa;border-left:4px solid #2a6;padding:.5em 1.5em}
.findings li{margin:.6em 0}.flag{color:#b00;font-weight:bold}.small{color:#555;font-size:90%}
details{margin:.4em 0}summary{cursor:pointer;font-weight:600}
"""


def histogram_bins(values: Sequence[float]) -> list[float] | None:
    """Bin edges for a histogram of ``values``: one bin per whole number when the values
    are whole and span at most 40, else about 30 equal bins; ``None`` when the values
    are all equal (a one-bar plot says nothing: the report states the value instead).

        >>> histogram_bins([3, 4, 4, 6])
        [2.5, 3.5, 4.5, 5.5, 6.5]
        >>> histogram_bins([5, 5]) is None
        True
    """
    if not values or min(values) == max(values):
        return None
    low, high = min(values), max(values)
    if all(float(v).is_integer() for v in values) and high - low <= 40:
        return [low - 0.5 + k for k in range(int(high - low) + 2)]
    width = (high - low) / 30
    return [low + k * width for k in range(31)]


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")  # no display: the report is a file
    import matplotlib.pyplot as plt

    return plt


def _png(figure: Any) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=72, bbox_inches="tight")
    _pyplot().close(figure)
    data = base64.b64encode(buffer.getvalue()).decode()
    return f'<img alt="plot" src="data:image/png;base64,{data}">'


def _table(headers: Sequence[str], body: Iterable[Sequence[Any]]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in body
    )
    return f"<table><tr>{head}</tr>{rows}</table>"


def _finding_plot(finding: dict[str, Any], found: Analysis) -> str | None:
    """Small multiples: one panel per line-up, the difference at each table size."""
    if finding["kind"] != "comparison":
        return _seat_plot(finding, found)
    entries = [
        r
        for r in found.robustness
        if r["arm"] == finding["arm"] and r["quantity"] == finding["quantity"]
    ]
    lineups = sorted({e["lineup"] for r in entries for e in r["lineups"]})
    if not entries or not lineups:
        return None
    plt = _pyplot()
    figure, axes = plt.subplots(
        1, len(lineups), figsize=(3.0 * len(lineups), 2.3), squeeze=False, sharey=True
    )
    unit = finding.get("unit", "")
    for axis, lineup in zip(axes[0], lineups, strict=True):
        xs, ys, lows, highs = [], [], [], []
        for r in sorted(entries, key=lambda r: r["players"]):
            for e in r["lineups"]:
                if e["lineup"] == lineup and math.isfinite(e["low"]):
                    xs.append(r["players"])
                    ys.append(e["difference"])
                    lows.append(e["difference"] - e["low"])
                    highs.append(e["high"] - e["difference"])
        axis.errorbar(xs, ys, yerr=[lows, highs], fmt="o", capsize=3, color="#1f6f4a")
        axis.axhline(0, color="k", linewidth=0.8)
        minimum = entries[0].get("minimum", 0.0)
        if minimum:
            axis.axhspan(-minimum, minimum, color="#ddd", zorder=0)
        axis.set_xticks(sorted({r["players"] for r in entries}))
        axis.set_title(f"line-up {lineup}", fontsize=9)
        axis.set_xlabel("players", fontsize=8)
        axis.tick_params(labelsize=7)
    label = {"%": "difference (pts)"}.get(unit, f"difference ({unit})" if unit else "difference")
    axes[0][0].set_ylabel(label, fontsize=8)
    return _png(figure)


def _seat_plot(finding: dict[str, Any], found: Analysis) -> str | None:
    table = next(
        (
            t
            for t in found.tables
            if (t["arm"], t["players"], t["lineup"])
            == (finding.get("arm"), finding["players"], finding["lineup"])
        ),
        None,
    )
    if table is None or not math.isfinite(finding.get("effect", math.nan)):
        return None
    plt = _pyplot()
    figure, axis = plt.subplots(figsize=(3.2, 2.3))
    seats = table["seats"]
    shares = [100 * s["share"] for s in seats]
    errors = [
        [max(0.0, 100 * (s["share"] - s["low"])) for s in seats],
        [max(0.0, 100 * (s["high"] - s["share"])) for s in seats],
    ]
    axis.bar([s["seat"] for s in seats], shares, yerr=errors, capsize=3, color="#7a9cc6")
    axis.axhline(100 * table["fair_share"], color="k", linestyle="--", linewidth=1)
    axis.set(xlabel="seat", ylabel="win share (%)")
    axis.set_xticks([s["seat"] for s in seats])
    axis.set_title(f"arm {table['arm']}, {table['players']} players", fontsize=9)
    return _png(figure)


def _sweep_plot(entries: list[dict[str, Any]]) -> str:
    """One panel per metric (and table size, line-up): the metric against the value."""
    plt = _pyplot()
    figure, axes = plt.subplots(1, len(entries), figsize=(3.6 * len(entries), 2.6), squeeze=False)
    for axis, entry in zip(axes[0], entries, strict=True):
        points = [p for p in entry["points"] if p["value"] is not None]
        xs = [float(p["parameter_value"]) for p in points]
        axis.plot(xs, [p["value"] for p in points], "o-", markersize=3, color="#1f6f4a")
        axis.fill_between(
            xs,
            [p["low"] for p in points],
            [p["high"] for p in points],
            alpha=0.25,
            color="#1f6f4a",
            linewidth=0,
        )
        if "target" in entry:
            axis.axhline(entry["target"], color="k", linestyle="--", linewidth=1)
            at = entry["crossing"]
            if at["value"] is not None:
                low = at["low"] if at["low"] is not None else min(xs)
                high = at["high"] if at["high"] is not None else max(xs)
                axis.axvspan(low, high, color="#f2c14e", alpha=0.4, linewidth=0)
                axis.axvline(at["value"], color="#b36b00", linewidth=1)
        unit = f" ({entry['unit']})" if entry["unit"] else ""
        axis.set_title(f"{entry['metric']}, {entry['players']}p, {entry['lineup']}", fontsize=9)
        axis.set_xlabel(entry["parameter"], fontsize=8)
        axis.set_ylabel(entry["metric"] + unit, fontsize=8)
        axis.tick_params(labelsize=7)
    return _png(figure)


def _findings_html(found: Analysis, keep: Filter) -> list[str]:
    parts = [
        "<div class='findings'><h2>Findings</h2>",
        "<p class='small'>At most five: win shares, then scores, then other quantities, the "
        "clearest first. q is the p-value adjusted for the "
        f"{found.rules.get('tests', 0)} test(s) of this report "
        f"({html.escape(str(found.rules.get('correction', '')))}). A finding needs q &lt; 0.05 "
        "and a difference of at least 1 pt of win share, 1 step of length or a tenth of the "
        "quantity's standard deviation (the grey band in a plot); effects true by construction "
        "are left out.</p><ol>",
    ]
    shown = [
        f
        for f in found.summary
        if keep.arm(f.get("arm", "baseline")) and keep.quantity(f.get("quantity", "seat"))
    ]
    for finding in shown:
        text = html.escape(finding["text"])
        for flag in ("FLIPS", "ONLY WITH RANDOM BOTS"):
            text = text.replace(flag, f"<span class='flag'>{flag}</span>")
        plot = _finding_plot(finding, found) or ""
        parts.append(f"<li>{text}<br>{plot}</li>")
    if not shown:
        parts.append("<li>No difference or seat effect stands out.</li>")
    parts.append("</ol>")
    parts.append(
        "<p class='small'><b>Verdicts</b>: "
        + "; ".join(
            f"<i>{html.escape(word)}</i>: {html.escape(meaning)}"
            for word, meaning in LEGEND.items()
        )
        + ". <b>Units</b>: win shares in % of games (a shared win counts 1/k), their "
        "differences in percentage points (pts); scores in points; lengths in steps; every "
        "interval is 95%. The bots that played are named above; an answer may change with "
        "stronger bots.</p></div>"
    )
    return parts


def _win_html(found: Analysis, keep: Filter) -> str:
    sweep_arms = {p["arm"] for e in found.sweeps for p in e["points"]}
    body = []
    for e in found.win_table:
        if not keep.arm(e["arm"]) or e["arm"] in sweep_arms:
            continue
        row = [e["arm"], e["players"], e["lineup"], e["focal_agent"], interval(e["share"], "%")]
        if "against" in e:
            d = e["difference"]
            row += [
                f"{e['against']} ({e['against_agent']})",
                interval(e["against_share"], "%"),
                f"{num(d['value'], '%')} [{d['low']:+.1f}, {d['high']:+.1f}]",
            ]
        else:
            row += [f"fair share {e['fair']:.1f}%", "", ""]
        body.append(row)
    return _table(
        [
            "Arm",
            "Players",
            "Line-up",
            "Focal agent",
            "Win share (%)",
            "Compared arm (agent)",
            "Its win share (%)",
            "Difference (pts)",
        ],
        body,
    )


def _sweep_html(found: Analysis, keep: Filter) -> list[str]:
    shown = [e for e in found.sweeps if keep.quantity(e["metric"])]
    if not shown:
        return []
    parts = [f"<h2>Sweep of {html.escape(shown[0]['parameter'])}</h2>"]
    cells = sorted({(e["players"], e["lineup"]) for e in shown})
    for players, lineup in cells:
        mine = [e for e in shown if (e["players"], e["lineup"]) == (players, lineup)]
        parts.append(_sweep_plot(mine))
        for e in mine:
            if "crossing" in e:
                parts.append(f"<p>{html.escape(crossing_text(e))}</p>")
        rows = zip(*(e["points"] for e in mine), strict=True)
        parts.append(
            "<details><summary>Every value</summary>"
            + _table(
                ["Value"] + [f"{e['metric']} ({e['unit'] or 'count'})" for e in mine] + ["Games"],
                ([r[0]["parameter_value"], *(interval(p) for p in r), r[0]["games"]] for r in rows),
            )
            + "</details>"
        )
    return parts


def _details_html(found: Analysis, keep: Filter) -> list[str]:
    parts = ["<h2>Details</h2>"]
    verdicts = {(r["players"], r["arm"], r["quantity"]): r for r in found.robustness}
    for table in (t for t in found.tables if keep.arm(t["arm"])):
        eq = table["equal_seats"]
        parts.append(
            f"<details><summary>Seats: arm {html.escape(table['arm'])}, {table['players']} "
            f"players, line-up {html.escape(table['lineup'])} ({table['games']} games)</summary>"
            + _table(
                [
                    "Seat",
                    "Win share (%)",
                    "95% CI (%)",
                    "Against fair share (pts)",
                    "p",
                    "Mean score (points)",
                ],
                (
                    [
                        x["seat"],
                        pct(x["share"]),
                        f"{pct(x['low'])} – {pct(x['high'])}",
                        f"{100 * x['against_fair']:+.1f}",
                        format_p(x["p_value"]),
                        f"{x['mean_score']:.2f}",
                    ]
                    for x in table["seats"]
                ),
            )
            + f"<p>All seats equal: chi-square {eq['chi_square']:.2f}, df {eq['df']}, "
            f"{format_p(eq['p_value'])}, q {format_p(eq['q_value']).removeprefix('p ')}. Scores: "
            f"mean {table['scores']['mean']:.2f} points (sd {table['scores']['sd']:.2f}). Length: "
            f"mean {table['length']['mean']:.1f} steps.</p></details>"
        )
    for c in (c for c in found.comparisons if keep.arm(c["arm"])):
        body = [
            [
                d["quantity"],
                value(d["reference"], d["unit"]),
                value(d["arm"], d["unit"]),
                num(d["difference"], d["unit"]),
                f"{num(d['low'])} – {num(d['high'])}",
                format_p(d["p_value"]),
                format_p(d["q_value"]).removeprefix("p "),
                "by construction"
                if d["by_construction"]
                else verdict_text(verdicts.get((c["players"], c["arm"], d["quantity"]))),
            ]
            for d in c["differences"]
            if keep.quantity(d["quantity"])
        ]
        parts.append(
            f"<details><summary>{html.escape(c['arm'])} against {html.escape(c['against'])}, "
            f"{c['players']} players, line-up {html.escape(c['lineup'])} ({c['pairs']} paired "
            "games)</summary>"
            + _table(
                [
                    "Quantity",
                    "Reference",
                    "Arm",
                    "Difference",
                    "95% CI",
                    "p",
                    "q",
                    "Across line-ups",
                ],
                body,
            )
            + "</details>"
        )
    for rated in (r for r in found.ratings if keep.arm(r["arm"])):
        parts.append(
            f"<details><summary>Agents' ratings, arm {html.escape(rated['arm'])} (Elo)</summary>"
            "<p>Elo scale (mean 1500; 400 points = ten times the odds of finishing ahead), "
            "from a Bradley-Terry model fitted with choix to every pair of seats.</p>"
            + _table(["Agent", "Elo"], ([n, f"{v:.0f}"] for n, v in rated["elo"].items()))
            + _table(
                ["Stronger", "Weaker", "Meetings", "Stronger ahead (%)", "95% CI (%)"],
                (
                    [
                        k["stronger"],
                        k["weaker"],
                        f"{k['meetings']:g}",
                        pct(k["rate"]),
                        f"{pct(k['low'])} – {pct(k['high'])}",
                    ]
                    for k in rated["skill"]
                ),
            )
            + "</details>"
        )
    for w in (w for w in found.winning if keep.arm(w["arm"]) and (w["items"] or w["amounts"])):
        shown = w["items"] if len(w["items"]) <= 16 else w["items"][:8] + w["items"][-8:]
        parts.append(
            f"<details><summary>What goes with winning: arm {html.escape(w['arm'])}, "
            f"{w['players']} players, line-up {html.escape(w['lineup'])}</summary>"
            "<p>Associations, not causes: a strong player may simply pick what it wins with.</p>"
            + _table(
                ["Had it (seats)", "Win share with (%)", "95% CI (%)", "Without (%)", "Lift (pts)"],
                (
                    [
                        f"{i['item']} ({i['seats_with']})",
                        pct(i["share_with"]),
                        f"{pct(i['low'])} – {pct(i['high'])}",
                        pct(i["share_without"]),
                        f"{i['lift']:+.1f}",
                    ]
                    for i in shown
                ),
            )
            + _table(
                ["Amount", "Rank correlation with win share", "p", "Win share by range (%)"],
                (
                    [
                        a["item"],
                        f"{a['rho']:+.2f}" if math.isfinite(a["rho"]) else "n/a",
                        format_p(a["p_value"]),
                        "; ".join(
                            f"{b['low_value']:g}-{b['high_value']:g}: {pct(b['share'])}"
                            for b in a["bins"]
                        ),
                    ]
                    for a in w["amounts"]
                ),
            )
            + "</details>"
        )
    if found.errors:
        parts.append(f"<h2>Crashed games ({len(found.errors)})</h2>")
        parts.append(
            _table(
                ["Players", "Line-up", "Arm", "Game", "Seed", "Error"],
                (
                    [e["players"], e["lineup"], e["arm"], e["index"], e["seed"], e["error"]]
                    for e in found.errors[:100]
                ),
            )
        )
    return parts


def write_html(
    found: Analysis,
    rows: list[dict[str, Any]] | None,
    path: Path | str,
    *,
    arms: Sequence[str] | None = None,
    metrics: Sequence[str] | None = None,
) -> Path:
    """Write the self-contained report (plots embedded as PNG) to ``path``. ``rows`` is
    not needed any more (every figure is in ``found``); it is accepted for old callers."""
    del rows
    keep = Filter(arms, metrics)
    s = found.study
    title = f"Potluck study: {html.escape(s['game'])}"
    arms_text = "; ".join(arm_text(n, spec) for n, spec in s["arms"].items() if keep.arm(n))
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{title}</title><style>{_CSS}</style></head><body>",
        f"<h1>{title}</h1>",
        "<p>"
        + html.escape(
            f"{s['games']} games per arm, line-up and table size; players {s['players']}; "
            f"seed {s['seed']}; line-ups (bot specs as written, cycled to fill the table, "
            f"turned one seat a game): {lineups_text(s)}; arms: baseline (the game's "
            f"defaults)" + (f"; {arms_text}" if arms_text else "")
        )
        + ".</p>",
        "<p class='small'>"
        + "<br>".join(html.escape(x) for x in provenance_lines(found.provenance))
        + "</p>",
        "<h2>Win shares</h2><p>The focal seat (table position 0, which turns round the table: a "
        "strategy arm's bot sits there) in each arm, and the compared arm's focal seat in the same "
        "games; % of games with 95% intervals, differences in pts.</p>",
        _win_html(found, keep),
    ]
    parts += _sweep_html(found, keep)
    parts += _findings_html(found, keep)
    parts += _details_html(found, keep)
    parts.append("</body></html>")
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(parts), "utf-8")
    return out
