"""What a study found: the figures (``analyse``), a console summary and an HTML report.

    >>> from potluck.lab import analyse, load_results, write_html   # doctest: +SKIP
    >>> study, rows = load_results("results/")                      # doctest: +SKIP
    >>> found = analyse(study, rows)                                # doctest: +SKIP
    >>> print(console_summary(found)); write_html(found, rows, "report.html")  # doctest: +SKIP

Every interval is 95%. Win rates count a shared win ``1/k`` to each of ``k``
winners. Arms are compared game by game over the games that both finished (same
seed, same seating), so the differences are free of the deal's luck.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from potluck.lab.stats import (
    bradley_terry,
    elo_from_strengths,
    paired_difference,
    proportion_test,
    wilson_interval,
)
from potluck.lab.study import BASELINE, Study

__all__ = ["Analysis", "analyse", "console_summary", "write_html"]

#: "What goes with winning" lists only things that at least this many seats had and lacked.
MIN_SEATS = 20
#: How many rows the "what goes with winning" tables show at each end.
TOP = 10


@dataclass
class Analysis:
    """Every figure of the report, JSON-ready (``dataclasses.asdict`` works)."""

    study: dict[str, Any]
    #: Per player count, per arm: seat win rates, first-player advantage, scores, lengths.
    tables: list[dict[str, Any]] = field(default_factory=list)
    #: Per player count, per non-baseline arm: paired differences against the baseline.
    comparisons: list[dict[str, Any]] = field(default_factory=list)
    #: Elo ratings from a Bradley-Terry fit on the baseline's head-to-head finishes.
    ratings: dict[str, float] = field(default_factory=dict)
    #: Per pair of agents, how often the higher rated one finished ahead.
    skill: list[dict[str, Any]] = field(default_factory=list)
    #: Per player count: which seat metrics (dishes, cards...) go with winning.
    winning: list[dict[str, Any]] = field(default_factory=list)
    #: Crashed games: seed, arm, players and the error.
    errors: list[dict[str, Any]] = field(default_factory=list)

    def to_json_text(self) -> str:
        """Every figure as JSON text; a figure that cannot be computed (NaN) is ``null``."""

        def clean(value: Any) -> Any:
            if isinstance(value, float) and not math.isfinite(value):
                return None
            if isinstance(value, dict):
                return {str(k): clean(v) for k, v in value.items()}
            if isinstance(value, list | tuple):
                return [clean(v) for v in value]
            return value

        return json.dumps(clean(asdict(self)), indent=1) + "\n"


def _ok(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rows if r["error"] is None]


def _shares(row: dict[str, Any]) -> list[float]:
    """Each seat's share of the win: 1/k for each of k winners."""
    shares = [0.0] * row["players"]
    for seat in row["winners"]:
        shares[seat] = 1.0 / len(row["winners"])
    return shares


def _numeric(metrics: dict[str, Any]) -> dict[str, float]:
    return {
        k: float(v)
        for k, v in metrics.items()
        if isinstance(v, int | float) and not isinstance(v, bool)
    }


def _describe(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"mean": math.nan, "sd": math.nan, "min": math.nan, "median": math.nan, "max": 0}
    return {
        "mean": statistics.fmean(values),
        "sd": statistics.stdev(values) if len(values) > 1 else 0.0,
        "min": min(values),
        "median": statistics.median(values),
        "max": max(values),
    }


def _table(players: int, arm: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    ok = _ok(rows)
    n = len(ok)
    wins = [0.0] * players
    scores: list[list[float]] = [[] for _ in range(players)]
    metric_values: dict[str, list[float]] = {}
    for row in ok:
        for seat, share in enumerate(_shares(row)):
            wins[seat] += share
            scores[seat].append(row["scores"][seat])
        for key, value in _numeric(json.loads(row["metrics"])).items():
            metric_values.setdefault(key, []).append(value)
    seats = []
    for seat in range(players):
        low, high = wilson_interval(wins[seat], n)
        seats.append(
            {
                "seat": seat,
                "wins": wins[seat],
                "rate": wins[seat] / n if n else math.nan,
                "low": low,
                "high": high,
                "mean_score": statistics.fmean(scores[seat]) if scores[seat] else math.nan,
            }
        )
    fair = 1 / players
    first = seats[0]
    return {
        "players": players,
        "arm": arm,
        "games": n,
        "errors": len(rows) - n,
        "seats": seats,
        "first_player": {
            "advantage": first["rate"] - fair,
            "low": first["low"] - fair,
            "high": first["high"] - fair,
            "p_value": proportion_test(wins[0], n, fair),
        },
        "scores": _describe([s for seat in scores for s in seat]),
        "length": _describe([float(r["length"]) for r in ok]),
        "metrics": {k: statistics.fmean(v) for k, v in sorted(metric_values.items())},
    }


def _quantities(row: dict[str, Any], agents: Sequence[str]) -> dict[str, float]:
    """What the arms are compared on, for one finished game."""
    shares = _shares(row)
    found = {
        "length (steps)": float(row["length"]),
        "mean score": statistics.fmean(row["scores"]),
        "first player's win share": shares[0],
    }
    if len(set(agents)) > 1:
        for agent in sorted(set(agents)):
            seats = [s for s, a in enumerate(row["agents"]) if a == agent]
            if seats:
                found[f"{agent}'s win share"] = sum(shares[s] for s in seats) / len(seats)
    for key, value in _numeric(json.loads(row["metrics"])).items():
        found[f"metric {key}"] = value
    return found


def _compare(
    players: int, arm: str, base: list[dict[str, Any]], other: list[dict[str, Any]], agents: Any
) -> dict[str, Any]:
    by_index = {r["index"]: r for r in _ok(base)}
    pairs = [(by_index[r["index"]], r) for r in _ok(other) if r["index"] in by_index]
    base_q = [_quantities(b, agents) for b, _ in pairs]
    arm_q = [_quantities(a, agents) for _, a in pairs]
    keys = [k for k in (base_q[0] if base_q else {}) if all(k in q for q in arm_q + base_q)]
    differences = []
    for key in keys:
        d = paired_difference([q[key] for q in arm_q], [q[key] for q in base_q])
        differences.append(
            {
                "quantity": key,
                "baseline": statistics.fmean(q[key] for q in base_q),
                "arm": statistics.fmean(q[key] for q in arm_q),
                "difference": d.mean,
                "low": d.low,
                "high": d.high,
                "p_value": d.p_value,
            }
        )
    return {"players": players, "arm": arm, "pairs": len(pairs), "differences": differences}


def _head_to_head(rows: Iterable[dict[str, Any]]) -> dict[tuple[str, str], float]:
    """``wins[(a, b)]``: how often a seat of ``a`` finished ahead of a seat of ``b``."""
    wins: dict[tuple[str, str], float] = {}
    for row in rows:
        places, agents = row["places"], row["agents"]
        for i in range(len(agents)):
            for j in range(i + 1, len(agents)):
                a, b = agents[i], agents[j]
                if a == b:
                    continue
                if places[i] < places[j]:
                    wins[(a, b)] = wins.get((a, b), 0.0) + 1
                    wins.setdefault((b, a), 0.0)
                elif places[j] < places[i]:
                    wins[(b, a)] = wins.get((b, a), 0.0) + 1
                    wins.setdefault((a, b), 0.0)
                else:
                    wins[(a, b)] = wins.get((a, b), 0.0) + 0.5
                    wins[(b, a)] = wins.get((b, a), 0.0) + 0.5
    return wins


def _winning(players: int, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per seat metric: the win rate of seats that had it against those that did not."""
    seats: list[tuple[dict[str, float], float]] = []
    for row in _ok(rows):
        per_seat = json.loads(row["seat_metrics"])
        if not per_seat:
            continue
        shares = _shares(row)
        seats.extend((_numeric(m), shares[s]) for s, m in enumerate(per_seat))
    keys = sorted({k for m, _ in seats for k in m})
    items: list[dict[str, Any]] = []
    for key in keys:
        with_ = [(m.get(key, 0.0), share) for m, share in seats if m.get(key, 0.0) > 0]
        without = [share for m, share in seats if m.get(key, 0.0) <= 0]
        winners = [m.get(key, 0.0) for m, share in seats if share > 0]
        others = [m.get(key, 0.0) for m, share in seats if share == 0]
        rate_with = sum(s for _, s in with_) / len(with_) if with_ else math.nan
        rate_without = sum(without) / len(without) if without else math.nan
        low, high = wilson_interval(sum(s for _, s in with_), len(with_))
        items.append(
            {  # a dict[str, Any]: the report reads it as JSON-ready data
                "item": key,
                "seats_with": len(with_),
                "seats_without": len(without),
                "win_rate_with": rate_with,
                "low": low,
                "high": high,
                "win_rate_without": rate_without,
                "lift": rate_with - rate_without,
                "mean_winners": statistics.fmean(winners) if winners else math.nan,
                "mean_others": statistics.fmean(others) if others else math.nan,
            }
        )
    # Only things some seats had and others lacked can be related to winning.
    usable = [i for i in items if i["seats_with"] >= MIN_SEATS and i["seats_without"] >= MIN_SEATS]
    usable.sort(key=lambda i: (-i["lift"], i["item"]))
    always = [i for i in items if i not in usable]
    always.sort(key=lambda i: (float(i["mean_others"]) - float(i["mean_winners"]), i["item"]))
    return {"players": players, "seats": len(seats), "items": usable, "counted": always}


def analyse(study: Study, rows: list[dict[str, Any]]) -> Analysis:
    """Every figure of the report from a study's rows (see :func:`load_results`)."""
    found = Analysis(study=study.to_json())
    by_key: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for row in rows:
        by_key.setdefault((row["players"], row["arm"]), []).append(row)
        if row["error"] is not None:
            found.errors.append(
                {k: row[k] for k in ("players", "arm", "index", "seed", "agents", "error")}
            )
    for players in study.players:
        base = by_key.get((players, BASELINE), [])
        for arm in study.arm_names:
            found.tables.append(_table(players, arm, by_key.get((players, arm), [])))
            if arm != BASELINE:
                other = by_key.get((players, arm), [])
                found.comparisons.append(_compare(players, arm, base, other, study.agents))
        found.winning.append(_winning(players, base))
    baseline_rows = _ok(r for r in rows if r["arm"] == BASELINE)
    wins = _head_to_head(baseline_rows)
    if wins:
        found.ratings = dict(
            sorted(elo_from_strengths(bradley_terry(wins)).items(), key=lambda kv: (-kv[1], kv[0]))
        )
        ranked = list(found.ratings)
        for i, strong in enumerate(ranked):
            for weak in ranked[i + 1 :]:
                ahead, behind = wins.get((strong, weak), 0.0), wins.get((weak, strong), 0.0)
                total = ahead + behind
                low, high = wilson_interval(ahead, total)
                found.skill.append(
                    {
                        "stronger": strong,
                        "weaker": weak,
                        "meetings": total,
                        "rate": ahead / total if total else math.nan,
                        "low": low,
                        "high": high,
                    }
                )
    return found


# ------------------------------------------------------------------ console


def _pct(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{100 * x:.1f}%"


def _p(x: float) -> str:
    if math.isnan(x):
        return "n/a"
    return "<0.001" if x < 0.001 else f"{x:.3f}"


def _num(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{x:+.3f}" if abs(x) < 100 else f"{x:+.1f}"


def console_summary(found: Analysis) -> str:
    """The headline numbers as plain text (what ``potluck lab report`` prints)."""
    s = found.study
    lines = [
        f"Study of {s['game']}: {s['games']} games per arm and player count, "
        f"players {s['players']}, agents {', '.join(s['agents'])}, seed {s['seed']}"
    ]
    for table in found.tables:
        fp = table["first_player"]
        lines.append("")
        lines.append(
            f"{table['players']} players, arm {table['arm']}: {table['games']} games"
            + (f" ({table['errors']} crashed)" if table["errors"] else "")
        )
        seat_text = "; ".join(
            f"seat {x['seat']} {_pct(x['rate'])} [{_pct(x['low'])}, {_pct(x['high'])}]"
            for x in table["seats"]
        )
        lines.append(f"  win rate by seat: {seat_text}")
        lines.append(
            f"  first-player advantage {_pct(fp['advantage'])} "
            f"[{_pct(fp['low'])}, {_pct(fp['high'])}], p = {_p(fp['p_value'])}"
        )
        lines.append(
            f"  score mean {table['scores']['mean']:.2f} (sd {table['scores']['sd']:.2f}); "
            f"length mean {table['length']['mean']:.1f} steps "
            f"(min {table['length']['min']:g}, max {table['length']['max']:g})"
        )
    for comparison in found.comparisons:
        lines.append("")
        lines.append(
            f"{comparison['players']} players, {comparison['arm']} - baseline "
            f"({comparison['pairs']} paired games):"
        )
        for d in comparison["differences"]:
            lines.append(
                f"  {d['quantity']}: {_num(d['difference'])} "
                f"[{_num(d['low'])}, {_num(d['high'])}], p = {_p(d['p_value'])}"
            )
    if found.ratings:
        lines.append("")
        lines.append(
            "Ratings (Elo from Bradley-Terry): "
            + ", ".join(f"{name} {elo:.0f}" for name, elo in found.ratings.items())
        )
        for k in found.skill:
            lines.append(
                f"  {k['stronger']} finished ahead of {k['weaker']} in {_pct(k['rate'])} "
                f"[{_pct(k['low'])}, {_pct(k['high'])}] of {k['meetings']:g} meetings"
            )
    for w in found.winning:
        if not w["items"]:
            continue
        lines.append("")
        lines.append(f"{w['players']} players, baseline: what goes with winning (win rate lift)")
        for item in w["items"][:5]:
            lines.append(
                f"  + {item['item']}: {_pct(item['win_rate_with'])} with vs "
                f"{_pct(item['win_rate_without'])} without ({item['seats_with']} seats)"
            )
        for item in w["items"][-5:][::-1]:
            if item in w["items"][:5]:
                continue
            lines.append(
                f"  - {item['item']}: {_pct(item['win_rate_with'])} with vs "
                f"{_pct(item['win_rate_without'])} without ({item['seats_with']} seats)"
            )
    if found.errors:
        lines.append("")
        lines.append(
            f"{len(found.errors)} games crashed; first: seed {found.errors[0]['seed']} "
            f"({found.errors[0]['arm']}, {found.errors[0]['players']} players): "
            f"{found.errors[0]['error']}"
        )
    return "\n".join(lines)


# ------------------------------------------------------------------ HTML

_CSS = """
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:3px 8px;
text-align:right}th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}
img{max-width:100%}h2{border-bottom:2px solid #444;margin-top:2em}.sig{font-weight:bold}
"""


def _arm_text(spec: dict[str, Any]) -> str:
    """``no_repeat_dishes=True, data my.toml`` for an arm's options and data file."""
    parts = [f"{k}={v!r}" for k, v in spec.get("options", {}).items()]
    if spec.get("data"):
        parts.append(f"data {spec['data']}")
    return ", ".join(parts) or "the defaults"


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


def _plots_for(players: int, found: Analysis, rows: list[dict[str, Any]]) -> str:
    import matplotlib

    matplotlib.use("Agg")  # no display: the report is a file
    import matplotlib.pyplot as plt

    tables = [t for t in found.tables if t["players"] == players]
    figure, axes = plt.subplots(1, 3, figsize=(15, 3.8))
    width = 0.8 / max(1, len(tables))
    for k, table in enumerate(tables):
        xs = [x["seat"] + k * width for x in table["seats"]]
        rates = [x["rate"] for x in table["seats"]]
        errors = [
            [x["rate"] - x["low"] for x in table["seats"]],
            [x["high"] - x["rate"] for x in table["seats"]],
        ]
        axes[0].bar(xs, rates, width, yerr=errors, capsize=3, label=table["arm"])
    axes[0].axhline(1 / players, color="k", linestyle="--", linewidth=1, label="fair share")
    axes[0].set(title=f"Win rate by seat, {players} players", xlabel="seat", ylabel="win rate")
    axes[0].legend(fontsize=8)
    for table in tables:
        mine = _ok(r for r in rows if r["players"] == players and r["arm"] == table["arm"])
        scores = [s for r in mine for s in r["scores"]]
        lengths = [r["length"] for r in mine]
        if scores:
            axes[1].hist(scores, bins=30, histtype="step", label=table["arm"])
        if lengths:
            axes[2].hist(lengths, bins=30, histtype="step", label=table["arm"])
    axes[1].set(title="Scores", xlabel="final score", ylabel="seats")
    axes[2].set(title="Game length", xlabel="steps", ylabel="games")
    axes[1].legend(fontsize=8)
    axes[2].legend(fontsize=8)
    return _png(figure)


def _winning_plot(w: dict[str, Any]) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    items = w["items"]
    shown = items if len(items) <= 2 * TOP else items[:TOP] + items[-TOP:]
    figure, axis = plt.subplots(figsize=(8, 0.28 * len(shown) + 1))
    labels = [i["item"] for i in shown][::-1]
    lifts = [100 * i["lift"] for i in shown][::-1]
    axis.barh(labels, lifts, color=["tab:green" if x > 0 else "tab:red" for x in lifts])
    axis.axvline(0, color="k", linewidth=1)
    axis.set(
        title=f"{w['players']} players: win rate with it minus without (points)",
        xlabel="percentage points",
    )
    axis.tick_params(axis="y", labelsize=7)
    return _png(figure)


def write_html(found: Analysis, rows: list[dict[str, Any]], path: Path | str) -> Path:
    """Write the self-contained report (plots embedded as PNG) to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    s = found.study
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>Potluck study: {html.escape(s['game'])}</title><style>{_CSS}</style></head><body>",
        f"<h1>Potluck study: {html.escape(s['game'])}</h1>",
        "<p>"
        + html.escape(
            f"{s['games']} games per arm and player count; players {s['players']}; agents "
            f"{', '.join(s['agents'])} (cycled to fill the table, the line-up turned one "
            f"seat per game); seed {s['seed']}; arms: baseline (the game's defaults)"
            + "".join(f", {name} ({_arm_text(spec)})" for name, spec in s["arms"].items())
        )
        + ". Intervals are 95%; a shared win counts 1/k to each of k winners.</p>",
    ]
    for players in s["players"]:
        parts.append(f"<h2>{players} players</h2>")
        parts.append(_plots_for(players, found, rows))
        for table in (t for t in found.tables if t["players"] == players):
            fp = table["first_player"]
            parts.append(
                f"<h3>Arm {html.escape(table['arm'])}: {table['games']} games"
                + (f", {table['errors']} crashed" if table["errors"] else "")
                + "</h3>"
            )
            parts.append(
                _html_table(
                    ["Seat", "Wins", "Win rate", "95% CI", "Mean score"],
                    (
                        [
                            x["seat"],
                            f"{x['wins']:g}",
                            _pct(x["rate"]),
                            f"{_pct(x['low'])} – {_pct(x['high'])}",
                            f"{x['mean_score']:.2f}",
                        ]
                        for x in table["seats"]
                    ),
                )
            )
            parts.append(
                f"<p>First-player advantage (seat 0's win rate minus 1/{players}): "
                f"<b>{_pct(fp['advantage'])}</b> [{_pct(fp['low'])}, {_pct(fp['high'])}], "
                f"p = {_p(fp['p_value'])}. Scores: mean {table['scores']['mean']:.2f}, sd "
                f"{table['scores']['sd']:.2f}, median {table['scores']['median']:g}. Length: "
                f"mean {table['length']['mean']:.1f} steps, min {table['length']['min']:g}, "
                f"max {table['length']['max']:g}.</p>"
            )
            if table["metrics"]:
                parts.append(
                    _html_table(
                        ["Game metric", "Mean per game"],
                        ([k, f"{v:.3f}"] for k, v in table["metrics"].items()),
                    )
                )
        for comparison in (c for c in found.comparisons if c["players"] == players):
            parts.append(
                f"<h3>{html.escape(comparison['arm'])} against baseline "
                f"({comparison['pairs']} paired games)</h3>"
            )
            parts.append(
                _html_table(
                    ["Quantity", "Baseline", "Arm", "Difference", "95% CI", "p"],
                    (
                        [
                            d["quantity"],
                            f"{d['baseline']:.3f}",
                            f"{d['arm']:.3f}",
                            _num(d["difference"]),
                            f"{_num(d['low'])} – {_num(d['high'])}",
                            _p(d["p_value"]),
                        ]
                        for d in comparison["differences"]
                    ),
                )
            )
        for w in (w for w in found.winning if w["players"] == players):
            if not w["items"] and not w["counted"]:
                continue
            parts.append("<h3>What goes with winning (baseline)</h3>")
            parts.append(
                "<p>For each thing the game reports per seat (dishes eaten, cards played...): "
                "the win rate of seats that had it against seats that did not. An association, "
                "not a cause: strong players may simply pick it.</p>"
            )
            if w["items"]:
                parts.append(_winning_plot(w))
                parts.append(
                    _html_table(
                        ["Item", "Seats with", "Win rate with", "95% CI", "Without", "Lift"],
                        (
                            [
                                i["item"],
                                i["seats_with"],
                                _pct(i["win_rate_with"]),
                                f"{_pct(i['low'])} – {_pct(i['high'])}",
                                _pct(i["win_rate_without"]),
                                f"{100 * i['lift']:+.1f} pts",
                            ]
                            for i in w["items"]
                        ),
                    )
                )
            if w["counted"]:
                parts.append(
                    _html_table(
                        ["Item (too common or rare for a split)", "Mean, winners", "Mean, others"],
                        (
                            [i["item"], f"{i['mean_winners']:.3f}", f"{i['mean_others']:.3f}"]
                            for i in w["counted"]
                        ),
                    )
                )
    if found.ratings:
        parts.append("<h2>Agents</h2>")
        figure, axis = plt.subplots(figsize=(6, 0.4 * len(found.ratings) + 1))
        # Bars from the mean rating (1500): only differences of Elo mean anything.
        gaps = [elo - 1500 for elo in found.ratings.values()][::-1]
        axis.barh(list(found.ratings)[::-1], gaps, left=1500)
        axis.axvline(1500, color="k", linewidth=1)
        axis.set(title="Elo (Bradley-Terry on head-to-head finishes, baseline)", xlabel="Elo")
        parts.append(_png(figure))
        parts.append(
            _html_table(["Agent", "Elo"], ([n, f"{e:.0f}"] for n, e in found.ratings.items()))
        )
        parts.append(
            "<p>Skill against luck: how often the higher rated agent finished ahead of the "
            "lower rated one when both sat at the same table (50% = pure luck).</p>"
        )
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
                    for k in found.skill
                ),
            )
        )
    if found.errors:
        parts.append(f"<h2>Crashed games ({len(found.errors)})</h2>")
        parts.append(
            _html_table(
                ["Players", "Arm", "Game", "Seed", "Error"],
                (
                    [e["players"], e["arm"], e["index"], e["seed"], e["error"]]
                    for e in found.errors[:100]
                ),
            )
        )
    parts.append("</body></html>")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(parts), "utf-8")
    return path
