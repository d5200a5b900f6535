"""A study's report: the console summary and one self-contained HTML file.

    >>> from potluck.lab import analyse, console_summary, load_results, write_html  # doctest: +SKIP
    >>> study, rows = load_results("results/")                      # doctest: +SKIP
    >>> found = analyse(study, rows)                                # doctest: +SKIP
    >>> print(console_summary(found)); write_html(found, rows, "report.html")  # doctest: +SKIP

Both open with the findings (``Analysis.summary``), then the details. Win
shares are percentages of the games and their differences percentage points
(pts); p-values read ``p < 0.001`` or ``p = 0.03``.
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from potluck.lab.analysis import Analysis, analyse, ok_rows
from potluck.lab.stats import format_p

__all__ = ["Analysis", "analyse", "console_summary", "write_html"]

#: How many rows the "what goes with winning" lists show at each end.
TOP = 8


def _pct(x: float) -> str:
    return "n/a" if not math.isfinite(x) else f"{100 * x:.1f}%"


def _num(x: float) -> str:
    if not math.isfinite(x):
        return "n/a"
    return f"{x:+.2f}" if abs(x) < 10 else f"{x:+.1f}"


def _lineups_text(study: dict[str, Any]) -> str:
    return "; ".join(f"{name}: {', '.join(agents)}" for name, agents in study["lineups"].items())


def _arm_text(spec: dict[str, Any]) -> str:
    """``no_repeat_dishes=True, agents greedy:x=1, against baseline`` for an arm."""
    parts = [f"{k}={v!r}" for k, v in spec.get("options", {}).items()]
    if spec.get("data"):
        parts.append(f"data {spec['data']}")
    if spec.get("agents"):
        parts.append(f"focal agents {', '.join(spec['agents'])}")
    text = ", ".join(parts) or "the defaults"
    return f"{text}; compared with {spec.get('against', 'baseline')!s}"


def _verdicts(found: Analysis) -> dict[tuple[int, str, str], dict[str, Any]]:
    return {(r["players"], r["arm"], r["quantity"]): r for r in found.robustness}


def _verdict_text(entry: dict[str, Any] | None) -> str:
    if entry is None:
        return ""
    text = str(entry["verdict"])
    if entry["flips_in"]:
        text += f" (flips in {', '.join(entry['flips_in'])})"
    if entry["random_only"]:
        text += ", only with random bots"
    return text


# ------------------------------------------------------------------ console


def console_summary(found: Analysis) -> str:
    """The findings, then the headline details, as plain text (``potluck lab report``)."""
    s = found.study
    lines = [
        f"Study of {s['game']}: {s['games']} games per arm, line-up and player count; "
        f"players {s['players']}; line-ups {_lineups_text(s)}; seed {s['seed']}",
        "",
        "Findings (95% intervals; win shares in points):",
    ]
    lines += [f"  {k}. {f['text']}" for k, f in enumerate(found.summary, 1)] or ["  none"]
    for table in found.tables:
        lines.append("")
        lines.append(
            f"{table['players']} players, line-up {table['lineup']}, arm {table['arm']}: "
            f"{table['games']} games" + (f" ({table['errors']} crashed)" if table["errors"] else "")
        )
        seat_text = "; ".join(
            f"seat {x['seat']} {_pct(x['share'])} [{_pct(x['low'])}, {_pct(x['high'])}]"
            for x in table["seats"]
        )
        lines.append(f"  win share by seat (fair {_pct(table['fair_share'])}): {seat_text}")
        lines.append(
            f"  all seats equal: chi-square {table['equal_seats']['chi_square']:.2f} "
            f"(df {table['equal_seats']['df']}), {format_p(table['equal_seats']['p_value'])}"
        )
        lines.append(
            f"  score mean {table['scores']['mean']:.2f} (sd {table['scores']['sd']:.2f}); "
            f"length mean {table['length']['mean']:.1f} steps"
        )
    verdicts = _verdicts(found)
    for comparison in found.comparisons:
        lines.append("")
        lines.append(
            f"{comparison['players']} players, line-up {comparison['lineup']}: "
            f"{comparison['arm']} - {comparison['against']} ({comparison['pairs']} paired games)"
        )
        for d in comparison["differences"]:
            verdict = verdicts.get((comparison["players"], comparison["arm"], d["quantity"]))
            lines.append(
                f"  {d['quantity']}: {_num(d['difference'])} [{_num(d['low'])}, "
                f"{_num(d['high'])}], {format_p(d['p_value'])}; across line-ups: "
                f"{_verdict_text(verdict)}"
            )
    for rated in found.ratings:
        lines.append("")
        lines.append(
            f"Ratings, arm {rated['arm']} (Elo, Bradley-Terry fitted by choix): "
            + ", ".join(f"{name} {elo:.0f}" for name, elo in rated["elo"].items())
        )
        for k in rated["skill"]:
            lines.append(
                f"  {k['stronger']} finished ahead of {k['weaker']} in {_pct(k['rate'])} "
                f"[{_pct(k['low'])}, {_pct(k['high'])}] of {k['meetings']:g} meetings"
            )
    for w in found.winning:
        if not w["items"] and not w["amounts"]:
            continue
        lines.append("")
        lines.append(
            f"{w['players']} players, line-up {w['lineup']}, arm {w['arm']}: what goes with winning"
        )
        ends = w["items"][:3] + w["items"][3:][-3:][::-1]
        for item in ends:
            lines.append(
                f"  {item['item']}: {_pct(item['share_with'])} with vs "
                f"{_pct(item['share_without'])} without ({item['lift']:+.1f} pts, "
                f"{item['seats_with']} seats with it)"
            )
        for amount in w["amounts"][:4]:
            bins = ", ".join(
                f"{b['low_value']:g}-{b['high_value']:g}: {_pct(b['share'])}"
                for b in amount["bins"]
            )
            lines.append(
                f"  {amount['item']} (amount): rank correlation with winning "
                f"{amount['rho']:+.2f}, {format_p(amount['p_value'])}; win share by range {bins}"
            )
    if found.errors:
        first = found.errors[0]
        lines.append("")
        lines.append(
            f"{len(found.errors)} games crashed; first: seed {first['seed']} "
            f"({first['arm']}, line-up {first['lineup']}, {first['players']} players): "
            f"{first['error']}"
        )
    return "\n".join(lines)


# ------------------------------------------------------------------ HTML

_CSS = """
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:3px 8px;
text-align:right}th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}
img{max-width:100%}h2{border-bottom:2px solid #444;margin-top:2em}
.findings{background:#f6f8fa;border-left:4px solid #2a6;padding:.5em 1.5em}
.findings li{margin:.4em 0}.flag{color:#b00;font-weight:bold}
"""


def _png(figure: Any) -> str:
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    plt.close(figure)
    data = base64.b64encode(buffer.getvalue()).decode()
    return f'<img alt="plot" src="data:image/png;base64,{data}">'


def _html_table(headers: Sequence[str], body: Iterable[Sequence[Any]]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in body
    )
    return f"<table><tr>{head}</tr>{rows}</table>"


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


def _hist(axis: Any, values: Sequence[float], label: str) -> bool:
    bins = histogram_bins(values)
    if bins is None:
        return False
    axis.hist(values, bins=bins, histtype="step", label=label)
    return True


def _plots_for(players: int, found: Analysis, rows: list[dict[str, Any]]) -> str:
    import matplotlib

    matplotlib.use("Agg")  # no display: the report is a file
    import matplotlib.pyplot as plt

    tables = [t for t in found.tables if t["players"] == players and t["games"]]
    figure, axes = plt.subplots(1, 3, figsize=(15, 3.8))
    width = 0.8 / max(1, len(tables))
    for k, table in enumerate(tables):
        xs = [x["seat"] + k * width for x in table["seats"]]
        rates = [100 * x["share"] for x in table["seats"]]
        errors = [
            [max(0.0, 100 * (x["share"] - x["low"])) for x in table["seats"]],
            [max(0.0, 100 * (x["high"] - x["share"])) for x in table["seats"]],
        ]
        label = f"{table['lineup']} / {table['arm']}"
        axes[0].bar(xs, rates, width, yerr=errors, capsize=3, label=label)
    axes[0].axhline(100 / players, color="k", linestyle="--", linewidth=1, label="fair share")
    axes[0].set(
        title=f"Win share by seat, {players} players", xlabel="seat", ylabel="win share (%)"
    )
    axes[0].set_xticks(range(players))
    axes[0].legend(fontsize=7)
    drawn = [False, False]
    for table in tables:
        mine = ok_rows(
            r
            for r in rows
            if r["players"] == players
            and r["arm"] == table["arm"]
            and r["lineup"] == table["lineup"]
        )
        label = f"{table['lineup']} / {table['arm']}"
        drawn[0] |= _hist(axes[1], [s for r in mine for s in r["scores"]], label)
        drawn[1] |= _hist(axes[2], [float(r["length"]) for r in mine], label)
    axes[1].set(title="Final scores", xlabel="final score (points)", ylabel="seats")
    axes[2].set(title="Game length", xlabel="length (steps)", ylabel="games")
    for axis, shown in zip(axes[1:], drawn, strict=True):
        if shown:
            axis.legend(fontsize=7)
        else:
            only = [r["length"] for r in rows if r["players"] == players and not r["error"]][:1]
            words = "every game had the same value" + (
                f": {only[0]} steps" if only and axis is axes[2] else ""
            )
            axis.set_axis_off()
            axis.text(0.5, 0.5, words, ha="center", va="center", transform=axis.transAxes)
    return _png(figure)


def _amount_plot(w: dict[str, Any]) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = w["amounts"][:6]
    figure, axes = plt.subplots(1, len(shown), figsize=(3.2 * len(shown), 3), squeeze=False)
    for axis, amount in zip(axes[0], shown, strict=True):
        labels = [f"{b['low_value']:g}-{b['high_value']:g}" for b in amount["bins"]]
        values = [100 * b["share"] for b in amount["bins"]]
        errors = [
            [max(0.0, 100 * (b["share"] - b["low"])) for b in amount["bins"]],
            [max(0.0, 100 * (b["high"] - b["share"])) for b in amount["bins"]],
        ]
        axis.bar(labels, values, yerr=errors, capsize=3)
        axis.set(title=amount["item"], xlabel="range of the amount", ylabel="win share (%)")
        axis.tick_params(axis="x", labelsize=7)
    return _png(figure)


def _summary_html(found: Analysis) -> str:
    items = []
    for finding in found.summary:
        text = html.escape(finding["text"])
        for flag in ("FLIPS", "ONLY WITH RANDOM BOTS"):
            text = text.replace(flag, f"<span class='flag'>{flag}</span>")
        items.append(f"<li>{text}</li>")
    body = "".join(items) or "<li>No difference or seat effect stands out.</li>"
    return (
        "<div class='findings'><h2>Findings</h2><ol>" + body + "</ol><p>Each finding gives "
        "the effect with its 95% interval and the line-ups it is significant in (p &lt; 0.05). "
        "'Flips' marks a line-up where the effect is significant the other way; 'only with "
        "random bots' marks an effect that no line-up without a random bot shows. The bots "
        "that played are named in the study line; an answer may change with stronger bots."
        "</p></div>"
    )


def _winning_html(w: dict[str, Any]) -> list[str]:
    parts = [
        f"<h3>What goes with winning: line-up {html.escape(w['lineup'])}, "
        f"arm {html.escape(w['arm'])}</h3>",
        "<p>Associations, not causes: a strong player may simply pick what it wins with.</p>",
    ]
    if w["items"]:
        shown = w["items"] if len(w["items"]) <= 2 * TOP else w["items"][:TOP] + w["items"][-TOP:]
        parts.append(
            _html_table(
                ["Had it (seats)", "Win share with", "95% CI", "Without", "Lift (pts)"],
                (
                    [
                        f"{i['item']} ({i['seats_with']})",
                        _pct(i["share_with"]),
                        f"{_pct(i['low'])} – {_pct(i['high'])}",
                        _pct(i["share_without"]),
                        f"{i['lift']:+.1f}",
                    ]
                    for i in shown
                ),
            )
        )
    if w["amounts"]:
        parts.append(_amount_plot(w))
        parts.append(
            _html_table(
                ["Amount", "Rank correlation with win share", "p", "Win share by range"],
                (
                    [
                        a["item"],
                        f"{a['rho']:+.2f}" if math.isfinite(a["rho"]) else "n/a",
                        format_p(a["p_value"]),
                        "; ".join(
                            f"{b['low_value']:g}-{b['high_value']:g}: {_pct(b['share'])}"
                            for b in a["bins"]
                        ),
                    ]
                    for a in w["amounts"]
                ),
            )
        )
    return parts


def write_html(found: Analysis, rows: list[dict[str, Any]], path: Path | str) -> Path:
    """Write the self-contained report (plots embedded as PNG) to ``path``."""
    s = found.study
    title = f"Potluck study: {html.escape(s['game'])}"
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{title}</title><style>{_CSS}</style></head><body>",
        f"<h1>{title}</h1>",
        "<p>"
        + html.escape(
            f"{s['games']} games per arm, line-up and player count; players {s['players']}; "
            f"line-ups (bot specs as written, cycled to fill the table, turned one seat per "
            f"game) {_lineups_text(s)}; seed {s['seed']}; arms: baseline (the game's defaults)"
            + "".join(f", {name} ({_arm_text(spec)})" for name, spec in s["arms"].items())
        )
        + ".</p>",
        _summary_html(found),
    ]
    verdicts = _verdicts(found)
    for players in s["players"]:
        parts.append(f"<h2>{players} players</h2>")
        parts.append(_plots_for(players, found, rows))
        for table in (t for t in found.tables if t["players"] == players):
            parts.append(
                f"<h3>Line-up {html.escape(table['lineup'])}, arm {html.escape(table['arm'])}: "
                f"{table['games']} games"
                + (f", {table['errors']} crashed" if table["errors"] else "")
                + "</h3>"
            )
            parts.append(
                _html_table(
                    ["Seat", "Win share", "95% CI", "Against fair share (pts)", "p", "Mean score"],
                    (
                        [
                            x["seat"],
                            _pct(x["share"]),
                            f"{_pct(x['low'])} – {_pct(x['high'])}",
                            f"{100 * x['against_fair']:+.1f}",
                            format_p(x["p_value"]),
                            f"{x['mean_score']:.2f}",
                        ]
                        for x in table["seats"]
                    ),
                )
            )
            eq = table["equal_seats"]
            parts.append(
                f"<p>All seats equal (chi-square test of the seats' win shares against "
                f"{_pct(table['fair_share'])} each): chi-square {eq['chi_square']:.2f}, df "
                f"{eq['df']}, {format_p(eq['p_value'])}. Scores: mean "
                f"{table['scores']['mean']:.2f} points, sd {table['scores']['sd']:.2f}. Length: "
                f"mean {table['length']['mean']:.1f} steps.</p>"
            )
        for comparison in (c for c in found.comparisons if c["players"] == players):
            arm = comparison["arm"]
            parts.append(
                f"<h3>{html.escape(comparison['arm'])} against "
                f"{html.escape(comparison['against'])}, line-up "
                f"{html.escape(comparison['lineup'])} ({comparison['pairs']} paired games)</h3>"
            )
            parts.append(
                _html_table(
                    ["Quantity", "Reference", "Arm", "Difference", "95% CI", "p", "Line-ups"],
                    (
                        [
                            d["quantity"],
                            f"{d['reference']:.2f}",
                            f"{d['arm']:.2f}",
                            _num(d["difference"]),
                            f"{_num(d['low'])} – {_num(d['high'])}",
                            format_p(d["p_value"]),
                            _verdict_text(verdicts.get((players, arm, d["quantity"]))),
                        ]
                        for d in comparison["differences"]
                    ),
                )
            )
        for w in (w for w in found.winning if w["players"] == players):
            if w["items"] or w["amounts"]:
                parts.extend(_winning_html(w))
    for rated in found.ratings:
        parts.append(f"<h2>Agents, arm {html.escape(rated['arm'])}</h2>")
        parts.append(
            "<p>Elo scale (mean 1500; 400 points = ten times the odds of finishing ahead), "
            "from a Bradley-Terry model fitted with choix to every pair of seats at a table.</p>"
        )
        elo = ([name, f"{value:.0f}"] for name, value in rated["elo"].items())
        parts.append(_html_table(["Agent", "Elo"], elo))
        parts.append(
            _html_table(
                ["Stronger", "Weaker", "Meetings", "Stronger ahead", "95% CI"],
                (
                    [
                        k["stronger"],
                        k["weaker"],
                        f"{k['meetings']:g}",
                        _pct(k["rate"]),
                        f"{_pct(k['low'])} – {_pct(k['high'])}",
                    ]
                    for k in rated["skill"]
                ),
            )
        )
    if found.errors:
        parts.append(f"<h2>Crashed games ({len(found.errors)})</h2>")
        parts.append(
            _html_table(
                ["Players", "Line-up", "Arm", "Game", "Seed", "Error"],
                (
                    [e["players"], e["lineup"], e["arm"], e["index"], e["seed"], e["error"]]
                    for e in found.errors[:100]
                ),
            )
        )
    parts.append("</body></html>")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(parts), "utf-8")
    return path
