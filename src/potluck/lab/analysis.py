"""What a study found: every figure of the report, computed from the study's rows.

    >>> from potluck.lab import analyse, load_results   # doctest: +SKIP
    >>> found = analyse(*load_results("results/"))      # doctest: +SKIP

Every interval is 95%. Win shares count a shared win ``1/k`` to each of ``k``
winners; they are percentages of the games, and their differences percentage
points (pts). Every test's p-value is adjusted for the many tests of a report
(Benjamini-Hochberg, ``q_value``), and the verdicts use the adjusted values. An arm is
compared game by game with the arm it is set ``against`` (the baseline unless
it says otherwise), over the games that both finished with the same seed,
seating and line-up, so the differences are free of the deal's luck.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from potluck.lab.findings import CORRECTION, minimum_difference, robustness, summarise
from potluck.lab.metrics import measure, paired
from potluck.lab.stats import (
    adjust_p,
    binned_rates,
    equal_seats_test,
    paired_difference,
    pairwise_ratings,
    proportion_test,
    rank_correlation,
    wilson_interval,
)
from potluck.lab.study import BASELINE, Study
from potluck.lab.sweeps import analyse_sweep
from potluck.lab.worker import focal_seat, seating

__all__ = ["Analysis", "analyse"]

#: "What goes with winning" splits has/has-not only for things this many seats had and lacked.
MIN_SEATS = 20
#: A seat metric with more distinct values than this is an amount (chips, cash...):
#: it is related to winning over its range, not as has/has-not.
AMOUNT_VALUES = 3


@dataclass
class Analysis:
    """Every figure of the report, JSON-ready (``dataclasses.asdict`` works)."""

    study: dict[str, Any]
    #: At most five plain-language findings, after the win-share table.
    summary: list[dict[str, Any]] = field(default_factory=list)
    #: Where the run came from: version, commit, resolved bots, libraries (study.json).
    provenance: dict[str, Any] = field(default_factory=dict)
    #: The report's opening: the focal seat's absolute win share per arm, table size and
    #: line-up, with the compared arm's in the same games.
    win_table: list[dict[str, Any]] = field(default_factory=list)
    #: A sweep's metrics against the parameter's value, and the target's crossing.
    sweeps: list[dict[str, Any]] = field(default_factory=list)
    #: How p-values were adjusted for multiple testing, and the smallest differences reported.
    rules: dict[str, Any] = field(default_factory=dict)
    #: Per player count, line-up and arm: seat win shares, the equal-seats test, scores.
    tables: list[dict[str, Any]] = field(default_factory=list)
    #: Per player count, line-up and arm: paired differences against the arm's reference.
    comparisons: list[dict[str, Any]] = field(default_factory=list)
    #: Per player count, arm and quantity: whether the difference holds across line-ups.
    robustness: list[dict[str, Any]] = field(default_factory=list)
    #: Per arm: Elo-scale ratings of the agents (Bradley-Terry fitted by choix).
    ratings: list[dict[str, Any]] = field(default_factory=list)
    #: Per player count, line-up and arm: which seat metrics go with winning.
    winning: list[dict[str, Any]] = field(default_factory=list)
    #: Crashed games: seed, arm, line-up, players and the error.
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


def ok_rows(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The games that finished (a crashed game has an error and no scores)."""
    return [r for r in rows if r["error"] is None]


def shares(row: dict[str, Any]) -> list[float]:
    """Each seat's share of the win: 1/k for each of k winners."""
    found = [0.0] * row["players"]
    for seat in row["winners"]:
        found[seat] = 1.0 / len(row["winners"])
    return found


def _numeric(metrics: dict[str, Any]) -> dict[str, float]:
    return {
        k: float(v)
        for k, v in metrics.items()
        if isinstance(v, int | float) and not isinstance(v, bool)
    }


def _describe(values: Sequence[float]) -> dict[str, float]:
    if not values:
        nan = math.nan
        return {"mean": nan, "sd": nan, "min": nan, "median": nan, "max": nan}
    return {
        "mean": statistics.fmean(values),
        "sd": statistics.stdev(values) if len(values) > 1 else 0.0,
        "min": min(values),
        "median": statistics.median(values),
        "max": max(values),
    }


def _table(players: int, lineup: str, arm: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    ok = ok_rows(rows)
    n = len(ok)
    wins = [0.0] * players
    scores: list[list[float]] = [[] for _ in range(players)]
    metric_values: dict[str, list[float]] = {}
    for row in ok:
        for seat, share in enumerate(shares(row)):
            wins[seat] += share
            scores[seat].append(row["scores"][seat])
        for key, value in _numeric(json.loads(row["metrics"])).items():
            metric_values.setdefault(key, []).append(value)
    fair = 1 / players
    seats = []
    for seat in range(players):
        low, high = wilson_interval(wins[seat], n)
        seats.append(
            {
                "seat": seat,
                "wins": wins[seat],
                "share": wins[seat] / n if n else math.nan,
                "low": low,
                "high": high,
                "against_fair": (wins[seat] / n - fair) if n else math.nan,
                "p_value": proportion_test(wins[seat], n, fair),
                "mean_score": statistics.fmean(scores[seat]) if scores[seat] else math.nan,
            }
        )
    statistic, p_value = equal_seats_test(wins)  # q_value: adjusted later, over the report
    return {
        "players": players,
        "lineup": lineup,
        "arm": arm,
        "games": n,
        "errors": len(rows) - n,
        "fair_share": fair,
        "seats": seats,
        "equal_seats": {
            "chi_square": statistic,
            "df": players - 1,
            "p_value": p_value,
            "q_value": p_value,
        },
        "scores": _describe([s for seat in scores for s in seat]),
        "length": _describe([float(r["length"]) for r in ok]),
        "metrics": {k: statistics.fmean(v) for k, v in sorted(metric_values.items())},
    }


def _quantities(row: dict[str, Any], strategy: bool) -> dict[str, float]:
    """What arms are compared on, for one finished game. Win shares are in percent.

    When the arms compare strategies (either sets agents), the *focal seat* (table
    position 0, where a strategy arm's first agent sits) is followed too: its win
    share, score and seat metrics, and what the other seats score.
    """
    won = shares(row)
    found: dict[str, float] = {}
    focal = focal_seat(row["players"], row["index"])
    if strategy:
        others = [s for s in range(row["players"]) if s != focal]
        found["focal seat's win share"] = 100 * won[focal]
        found["focal seat's score"] = float(row["scores"][focal])
        found["other seats' mean score"] = statistics.fmean(row["scores"][s] for s in others)
    found["first player's win share"] = 100 * won[0]
    found["mean score"] = statistics.fmean(row["scores"])
    found["length"] = float(row["length"])
    agents = row["agents"]
    # In a strategy comparison the arms seat different agents, so an agent's win share
    # would mix seats; the focal and other seats' figures say it instead.
    if len(set(agents)) > 1 and not strategy:
        for agent in sorted(set(agents)):
            mine = [s for s, a in enumerate(agents) if a == agent]
            found[f"{agent}'s win share"] = 100 * sum(won[s] for s in mine) / len(mine)
    per_seat = json.loads(row["seat_metrics"])
    if per_seat and strategy:
        for key, value in _numeric(per_seat[focal]).items():
            if ":" not in key:  # per-card counts are too many to compare one by one
                found[f"focal seat's {key}"] = value
    for key, value in _numeric(json.loads(row["metrics"])).items():
        found[f"metric {key}"] = value
    return found


def _compare(
    players: int,
    lineup: str,
    arm: str,
    against: str,
    reference: list[dict[str, Any]],
    other: list[dict[str, Any]],
    strategy: bool,
) -> dict[str, Any]:
    by_index = {r["index"]: r for r in ok_rows(reference)}
    pairs = [(by_index[r["index"]], r) for r in ok_rows(other) if r["index"] in by_index]
    base_q = [_quantities(b, strategy) for b, _ in pairs]
    arm_q = [_quantities(a, strategy) for _, a in pairs]
    keys = [k for k in (base_q[0] if base_q else {}) if all(k in q for q in arm_q + base_q)]
    differences = []
    for key in keys:
        mine, theirs = [q[key] for q in arm_q], [q[key] for q in base_q]
        d = paired_difference(mine, theirs)
        sd_mine = statistics.stdev(mine) if len(mine) > 1 else 0.0
        sd_theirs = statistics.stdev(theirs) if len(theirs) > 1 else 0.0
        # true by construction: a quantity that never varies within an arm (Belles invited
        # in a game that never invites any), or a difference that is the same in every game
        constant = (sd_mine == 0 or sd_theirs == 0) and d.mean != 0
        differences.append(
            {
                "quantity": key,
                "unit": unit_of(key),
                "reference": statistics.fmean(theirs),
                "arm": statistics.fmean(mine),
                "difference": d.mean,
                "low": d.low,
                "high": d.high,
                "p_value": d.p_value,
                "q_value": d.p_value,
                "sd_reference": sd_theirs,
                "by_construction": constant or (d.low == d.high and d.mean != 0),
                "minimum": minimum_difference(key, sd_theirs),
            }
        )
    return {
        "players": players,
        "lineup": lineup,
        "arm": arm,
        "against": against,
        "pairs": len(pairs),
        "differences": differences,
    }


def unit_of(quantity: str) -> str:
    """A quantity's unit: ``%`` for win shares (their differences are pts), ``steps`` for
    the length, ``points`` for scores, nothing for the game's own counts.

        >>> unit_of("focal seat's win share"), unit_of("length"), unit_of("mean score")
        ('%', 'steps', 'points')
    """
    if quantity.endswith("win share"):
        return "%"
    if quantity == "length":
        return "steps"
    if quantity.endswith("score"):
        return "points"
    return ""


def _win_table(
    study: Study, groups: dict[tuple[int, str, str], list[dict[str, Any]]]
) -> list[dict[str, Any]]:
    """The focal seat's (table position 0's) win share in every arm, table size and line-up,
    and the compared arm's in the same games, with the paired difference."""
    found = []
    for arm in study.arms:
        for players in study.players:
            for lineup in study.lineup_names:
                mine = ok_rows(groups.get((players, lineup, arm.name), []))
                if not mine:
                    continue
                entry: dict[str, Any] = {
                    "arm": arm.name,
                    "players": players,
                    "lineup": lineup,
                    "focal_agent": seating(study.lineup(lineup), players, 0, arm.agents)[0],
                    "share": measure(mine, "focal_win_share").to_json(),
                    "fair": 100 / players,
                }
                if arm.name != BASELINE:
                    theirs = ok_rows(groups.get((players, lineup, arm.against), []))
                    other = study.arm(arm.against)
                    entry["against"] = arm.against
                    entry["against_agent"] = seating(
                        study.lineup(lineup), players, 0, other.agents
                    )[0]
                    entry["against_share"] = measure(theirs, "focal_win_share").to_json()
                    entry["difference"] = paired(mine, theirs, "focal_win_share").to_json()
                found.append(entry)
    return found


def _correct(found: Analysis) -> None:
    """Adjust every test's p-value for the number of tests in the report (``CORRECTION``)."""
    tests: list[dict[str, Any]] = []
    for comparison in found.comparisons:
        tests += [d for d in comparison["differences"] if not d["by_construction"]]
    seat_tests = [t["equal_seats"] for t in found.tables]
    adjusted = adjust_p([t["p_value"] for t in tests] + [t["p_value"] for t in seat_tests])
    for test, q in zip(tests + seat_tests, adjusted, strict=True):
        test["q_value"] = q


def _winning(players: int, lineup: str, arm: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per seat metric: how winning goes with it.

    A thing a seat had or lacked (a dish, a card) is split has/has-not; an amount
    (more than ``AMOUNT_VALUES`` distinct values: chips, cash) is related to the
    win share over its range: Spearman's rank correlation and the win share per
    quarter of the seats, lowest to highest.
    """
    seats: list[tuple[dict[str, float], float]] = []
    for row in ok_rows(rows):
        per_seat = json.loads(row["seat_metrics"])
        if per_seat:
            won = shares(row)
            seats.extend((_numeric(m), won[s]) for s, m in enumerate(per_seat))
    keys = sorted({k for m, _ in seats for k in m})
    items: list[dict[str, Any]] = []
    amounts: list[dict[str, Any]] = []
    counted: list[dict[str, Any]] = []
    for key in keys:
        values = [m.get(key, 0.0) for m, _ in seats]
        won = [share for _, share in seats]
        winners = [v for v, share in zip(values, won, strict=True) if share > 0]
        others = [v for v, share in zip(values, won, strict=True) if share == 0]
        mean_winners = statistics.fmean(winners) if winners else math.nan
        mean_others = statistics.fmean(others) if others else math.nan
        if len(set(values)) > AMOUNT_VALUES:
            rho, p_value = rank_correlation(values, won)
            amounts.append(
                {
                    "item": key,
                    "seats": len(values),
                    "rho": rho,
                    "p_value": p_value,
                    "bins": binned_rates(values, won),
                    "mean_winners": mean_winners,
                    "mean_others": mean_others,
                }
            )
            continue
        with_ = [share for v, share in zip(values, won, strict=True) if v > 0]
        without = [share for v, share in zip(values, won, strict=True) if v <= 0]
        share_with = statistics.fmean(with_) if with_ else math.nan
        share_without = statistics.fmean(without) if without else math.nan
        entry: dict[str, Any] = {
            "item": key,
            "seats_with": len(with_),
            "seats_without": len(without),
            "share_with": share_with,
            "share_without": share_without,
            "mean_winners": mean_winners,
            "mean_others": mean_others,
        }
        if len(with_) >= MIN_SEATS and len(without) >= MIN_SEATS:
            entry["low"], entry["high"] = wilson_interval(sum(with_), len(with_))
            entry["lift"] = 100 * (share_with - share_without)
            items.append(entry)
        else:
            counted.append(entry)
    items.sort(key=lambda i: (-float(i["lift"]), str(i["item"])))
    amounts.sort(key=lambda i: (-abs(i["rho"]) if math.isfinite(i["rho"]) else 0, i["item"]))
    return {
        "players": players,
        "lineup": lineup,
        "arm": arm,
        "seats": len(seats),
        "items": items,
        "amounts": amounts,
        "counted": counted,
    }


def _ratings(arm: str, rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Elo-scale ratings of the agents of one arm, from every pair of seats at a table."""
    pairs: list[tuple[str, str]] = []
    for row in ok_rows(rows):
        places, agents = row["places"], row["agents"]
        for i in range(len(agents)):
            for j in range(len(agents)):
                if agents[i] != agents[j] and places[i] < places[j]:
                    pairs.append((agents[i], agents[j]))
    if not pairs:
        return None
    ratings = pairwise_ratings(pairs)
    met: dict[tuple[str, str], list[float]] = {}
    for winner, loser in pairs:
        met.setdefault((winner, loser), [0.0])[0] += 1
    ranked = sorted(ratings, key=lambda name: -ratings[name])
    skill = []
    for i, strong in enumerate(ranked):
        for weak in ranked[i + 1 :]:
            ahead = met.get((strong, weak), [0.0])[0]
            behind = met.get((weak, strong), [0.0])[0]
            low, high = wilson_interval(ahead, ahead + behind)
            skill.append(
                {
                    "stronger": strong,
                    "weaker": weak,
                    "meetings": ahead + behind,
                    "rate": ahead / (ahead + behind) if ahead + behind else math.nan,
                    "low": low,
                    "high": high,
                }
            )
    return {"arm": arm, "elo": {name: ratings[name] for name in ranked}, "skill": skill}


def analyse(
    study: Study, rows: list[dict[str, Any]], provenance: dict[str, Any] | None = None
) -> Analysis:
    """Every figure of the report from a study's rows (see ``load_results``) and the run's
    provenance (``study.json``'s, see ``load_header``)."""
    found = Analysis(study=study.to_json(), provenance=dict(provenance or {}))
    groups: dict[tuple[int, str, str], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["players"], row["lineup"], row["arm"]), []).append(row)
        if row["error"] is not None:
            found.errors.append(
                {
                    k: row[k]
                    for k in ("players", "lineup", "arm", "index", "seed", "agents", "error")
                }
            )
    for players in study.players:
        for lineup in study.lineup_names:
            for arm in study.arms:
                mine = groups.get((players, lineup, arm.name), [])
                found.tables.append(_table(players, lineup, arm.name, mine))
                found.winning.append(_winning(players, lineup, arm.name, mine))
                if arm.name != BASELINE:
                    reference = groups.get((players, lineup, arm.against), [])
                    strategy = bool(arm.agents or study.arm(arm.against).agents)
                    found.comparisons.append(
                        _compare(players, lineup, arm.name, arm.against, reference, mine, strategy)
                    )
    for arm_name in study.arm_names:
        rated = _ratings(arm_name, [r for r in rows if r["arm"] == arm_name])
        if rated is not None:
            found.ratings.append(rated)
    _correct(found)
    found.rules = {"correction": CORRECTION, "tests": _count_tests(found)}
    found.robustness = robustness(found.comparisons, study)
    found.summary = summarise(found.tables, found.robustness, study)
    found.win_table = _win_table(study, groups)
    from potluck.engine.registry import load_game

    sides = load_game(study.game).side_names(max(study.players))
    found.sweeps = analyse_sweep(study, groups, sides)
    return found


def _count_tests(found: Analysis) -> int:
    counted = sum(
        1
        for c in found.comparisons
        for d in c["differences"]
        if not d["by_construction"] and math.isfinite(d["p_value"])
    )
    return counted + sum(1 for t in found.tables if math.isfinite(t["equal_seats"]["p_value"]))
