"""``potluck lab tune``: search a study's ``[search]`` parameters with Optuna, then confirm.

    >>> from potluck.lab import load_study                                  # doctest: +SKIP
    >>> from potluck.lab.tune import tune                                   # doctest: +SKIP
    >>> answer = tune(load_study("studies/cafe-budget-tune.toml"), "out/")  # doctest: +SKIP
    >>> answer["best"], answer["confirmation"]["value"]                     # doctest: +SKIP

How it deals with noise (a game is a noisy measurement of any metric):

- **Common random numbers.** Every trial plays the same deals (game ``i`` of every
  trial, table size and line-up is dealt from ``seed + i``, seated the same way), so
  two trials differ by their parameters, not by their luck.
- **Successive halving** (Optuna's ``SuccessiveHalvingPruner``). A trial plays a few
  games first (the first *rung*), then ``reduction`` times more at each rung while it
  stays in the best ``1/reduction`` of the trials measured there; the others stop
  (*pruned*). Only promising trials get the full ``games``.
- **Confirmation.** The best trial's own figure is the best of many noisy figures,
  so it is biased upward. The answer is a fresh run of the best point and of the
  arm the search builds on, on deals the search never saw (seeds from
  ``seed + CONFIRM_OFFSET``), with 95% intervals: a study of its own in
  ``OUT/confirmation`` that ``potluck lab report`` reads.

Optuna's storage is ``OUT/optuna.db`` (SQLite): run the same command again after an
interruption and the search goes on from the trials it finished (a trial cut off
mid-way is marked failed and its parameters tried again); ``optuna-dashboard
sqlite:///OUT/optuna.db`` shows it. The games themselves are kept in ``OUT/games``
by the parameters they were played with, so a repeated point costs nothing.
Trials are asked ``batch`` at a time and each rung's games of a batch are played
together over the workers (or Ray), so the search is the same on 1 or 16 workers.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from potluck.lab.metrics import Measure, by_cell, combine, measure, metric_unit, paired
from potluck.lab.parameters import Choices, Parameter, Range, apply_values
from potluck.lab.pool import Pool
from potluck.lab.provenance import provenance
from potluck.lab.runner import ROW_SCHEMA, load_results, run_study, write_part
from potluck.lab.study import BASELINE, Study, StudyError, parse_study
from potluck.lab.texts import answer_text
from potluck.lab.worker import Chunk

__all__ = ["CONFIRM_OFFSET", "TuneProgress", "answer_text", "base_point", "rungs", "tune"]

#: Confirmation deals start this far past the study's seed: the search never plays them.
CONFIRM_OFFSET = 10_000_000
STORAGE = "optuna.db"
TUNE_FILE = "tune.json"
GAMES = "games"
CONFIRMATION = "confirmation"
CONFIRMATION_LINEUPS = "confirmation-lineups"
ANSWER = "answer.json"
#: The name of the best point's arm in the confirmation study.
BEST = "best"


@dataclass
class TuneProgress:
    """What the progress bar shows."""

    stage: str  # "search" or "confirmation"
    trials_done: int
    trials: int
    games_played: int
    best: dict[str, Any] = field(default_factory=dict)
    best_value: float | None = None


def rungs(games: int, min_games: int | None, reduction: int) -> list[int]:
    """Successive halving's rungs: the games a trial has played (per table size and
    line-up) at each check; the first at least ``min_games`` (default: games over
    ``reduction`` squared, at least 10), each ``reduction`` times the one before.

        >>> rungs(270, None, 3)
        [30, 90, 270]
        >>> rungs(100, 30, 3)
        [33, 99]
        >>> rungs(8, None, 3)
        [8]
    """
    least = min_games or max(10, games // reduction**2)
    halvings = 0
    while games / reduction ** (halvings + 1) >= least * (1 - 1e-9) and halvings < 8:
        halvings += 1
    if games / reduction**halvings < least and halvings:
        halvings -= 1
    first = max(1, round(games / reduction**halvings))
    return [first * reduction**k for k in range(halvings + 1)]


def _distributions(study: Study) -> dict[str, Any]:
    import optuna.distributions as d

    assert study.search is not None
    found: dict[str, Any] = {}
    for parameter, domain in study.search.parameters:
        if isinstance(domain, Choices):
            found[str(parameter)] = d.CategoricalDistribution(list(domain.values))
        elif domain.integer:
            whole = 1 if domain.log or domain.step is None else int(domain.step)
            found[str(parameter)] = d.IntDistribution(
                int(domain.low), int(domain.high), log=domain.log, step=whole
            )
        elif domain.log:
            found[str(parameter)] = d.FloatDistribution(
                float(domain.low), float(domain.high), log=True
            )
        else:
            # a hundred-odd levels by default: values that read well in a spec and a report
            step = domain.step or 10 ** (math.floor(math.log10(domain.high - domain.low)) - 2)
            levels = math.floor((domain.high - domain.low) / step + 1e-9)
            found[str(parameter)] = d.FloatDistribution(
                float(domain.low), float(domain.low + step * levels), step=step
            )
    return found


def _values(study: Study, params: Mapping[str, Any]) -> dict[Parameter, Any]:
    assert study.search is not None
    found: dict[Parameter, Any] = {}
    for parameter, domain in study.search.parameters:
        value = params[str(parameter)]
        if isinstance(domain, Range) and not domain.integer and isinstance(value, float):
            value = round(value, 10)
        found[parameter] = value
    return found


def _arm_parts(study: Study, params: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """The searched arm's fields for these parameter values, and a key naming them."""
    assert study.search is not None
    base = study.arm(study.search.arm)
    parts = apply_values(base.parts, study.search.focal, _values(study, params))
    fields = {
        "options": parts.options,
        "data": base.data,
        "data_patch": parts.patch,
        "agents": list(parts.agents),
    }
    key = hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:12]
    return fields, key


class _Games:
    """The games of every point tried, on disk by point and chunk (played once each)."""

    def __init__(self, study: Study, folder: Path, chunk_size: int) -> None:
        self.study = study
        self.folder = folder
        self.chunk_size = chunk_size
        self.rows: dict[str, list[dict[str, Any]]] = {}
        folder.mkdir(parents=True, exist_ok=True)

    def chunks(self, fields: dict[str, Any], key: str, first: int, last: int) -> list[Chunk]:
        """The chunks of games ``first..last-1`` of the point ``key``, every cell."""
        found = []
        study = self.study
        for players in study.players:
            for lineup, agents in study.lineups:
                for start in range(first, last, self.chunk_size):
                    end = min(start + self.chunk_size, last) - 1
                    found.append(
                        Chunk(
                            study.game,
                            fields["data"],
                            dict(fields["options"]),
                            players,
                            key,
                            start,
                            end,
                            study.seed,
                            agents,
                            lineup,
                            tuple(fields["agents"]),
                            tuple(fields["data_patch"].items()),
                        )
                    )
        return found

    def missing(self, chunks: list[Chunk]) -> list[Chunk]:
        unique = {c.name: c for c in chunks}
        return [c for name, c in unique.items() if not (self.folder / f"{name}.parquet").exists()]

    def store(self, chunk: Chunk, rows: list[dict[str, Any]]) -> None:
        write_part(self.folder, chunk, rows)
        self.rows[chunk.name] = rows

    def load(self, chunks: list[Chunk]) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        for chunk in chunks:
            if chunk.name not in self.rows:
                table = pq.read_table(self.folder / f"{chunk.name}.parquet")
                self.rows[chunk.name] = table.cast(ROW_SCHEMA).to_pylist()
            found.extend(self.rows[chunk.name])
        return found

    def played(self) -> int:
        """Every game on disk: what the search has cost so far."""
        return sum(pq.read_metadata(p).num_rows for p in self.folder.glob("*.parquet"))


def _objective(study: Study, rows: list[dict[str, Any]], sides: tuple[str, ...]) -> Measure:
    assert study.search is not None
    cells = by_cell(rows)
    return combine([measure(cell, study.search.metric, sides) for cell in cells.values()])


def _score(study: Study, found: Measure) -> float:
    """What Optuna optimises: the metric, or its distance from the target."""
    assert study.search is not None
    if study.search.target is not None:
        return abs(found.value - study.search.target)
    return found.value


def _prepare(study: Study, out: Path, games: int, plan: list[int], chunk_size: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    header = {
        "study": study.to_json(),
        "fingerprint": study.fingerprint(),
        "games": games,
        "rungs": plan,
        "chunk": chunk_size,
    }
    path = out / TUNE_FILE
    if path.exists():
        saved = json.loads(path.read_text("utf-8"))
        if {k: saved.get(k) for k in header} != json.loads(json.dumps(header)):
            raise StudyError(
                f"{out} holds a search of a different study or with other --games; "
                "give another --out folder or remove it"
            )
    else:
        header["provenance"] = provenance(study)
        path.write_text(json.dumps(header, indent=1) + "\n", "utf-8")


def _open_study(study: Study, out: Path, first_rung: int) -> Any:
    import optuna

    assert study.search is not None
    optuna.logging.set_verbosity(logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    search = study.search
    sampler = optuna.samplers.TPESampler(
        seed=study.seed,
        multivariate=len(search.parameters) > 1,
        n_startup_trials=max(4, min(10, search.trials // 3)),
        constant_liar=True,
    )
    pruner = optuna.pruners.SuccessiveHalvingPruner(
        min_resource=first_rung, reduction_factor=search.reduction, min_early_stopping_rate=0
    )
    return optuna.create_study(
        study_name="potluck-lab-tune",
        storage=f"sqlite:///{(out / STORAGE).resolve()}",
        sampler=sampler,
        pruner=pruner,
        direction="maximize"
        if search.target is None and search.direction == "maximize"
        else "minimize",
        load_if_exists=True,
    )


def base_point(study: Study) -> dict[str, Any]:
    """The searched parameters' values in the arm the search builds on (the game's data,
    its options, the focal bot's weights as they are), those inside their domains: the
    first trial, so the search starts from the game as it is.

        >>> from potluck.lab import parse_study
        >>> base_point(parse_study({"game": "cafe-carnage", "players": 4, "games": 2,
        ...     "agents": ["greedy"], "search": {"parameters": {"data:table.budget": [20, 45]},
        ...     "metric": "iou_players", "target": 2.0}}))
        {'data:table.budget': 30}
    """
    from potluck.agents import agent_factories
    from potluck.engine.botspec import BotSpec, bot_params
    from potluck.lab.patches import game_data, patched_game

    assert study.search is not None
    base = study.arm(study.search.arm)
    game = patched_game(study.game, base.data, dict(base.patch))
    focal = BotSpec.parse(base.agents[0] if base.agents else study.search.focal)
    declared = {p.name: p for p in bot_params(agent_factories(game).get(focal.name, object))}
    found: dict[str, Any] = {}
    for parameter, domain in study.search.parameters:
        value: Any
        if parameter.kind == "data":
            value = game_data(game).model_dump(mode="python")
            for part in parameter.name.split("."):
                value = value[int(part)] if isinstance(value, list) else value[part]
        elif parameter.kind == "option":
            value = base.options.get(parameter.name, game.options[parameter.name].default)
        else:
            given = dict(focal.params)
            param = declared[parameter.name]
            value = param.parse(given[parameter.name]) if parameter.name in given else param.default
        inside = (
            value in domain.values
            if isinstance(domain, Choices)
            else isinstance(value, int | float) and domain.low <= value <= domain.high
        )
        if inside:
            found[str(parameter)] = value
    return found


def _counted(ostudy: Any) -> int:
    """Distinct points tried to the end or pruned. A point the sampler proposes again
    costs no games (they are kept) and does not count, so ``trials`` distinct points
    are measured (a small whole-number space is not spent on repeats)."""
    from optuna.trial import TrialState

    finished = ostudy.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED))
    return len({json.dumps(t.params, sort_keys=True) for t in finished})


def _space(study: Study) -> float:
    """How many distinct points the search space holds (infinite with a real range)."""
    assert study.search is not None
    size = 1.0
    for _, domain in study.search.parameters:
        if isinstance(domain, Choices):
            size *= len(domain.values)
        elif domain.integer and not domain.log:
            size *= (int(domain.high) - int(domain.low)) // int(domain.step or 1) + 1
        else:
            return math.inf
    return size


def _recover(ostudy: Any) -> None:
    """Trials cut off by an interruption: marked failed, their parameters tried again."""
    from optuna.trial import TrialState

    for trial in ostudy.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        ostudy.tell(trial.number, state=TrialState.FAIL)
        ostudy.enqueue_trial(dict(trial.params), skip_if_exists=False)


def tune(
    study: Study,
    out: Path | str,
    *,
    trials: int | None = None,
    games: int | None = None,
    confirm_games: int | None = None,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    chunk_size: int = 50,
    progress: Callable[[TuneProgress], None] | None = None,
    stop_after_batches: int | None = None,
) -> dict[str, Any]:
    """Search ``study.search`` and confirm the best point; the answer as a JSON-ready dict:
    ``best`` (parameter to value) and ``confirmation`` (``metric``, ``value``, ``low``,
    ``high``, ``games``) first, then the base arm's figures, the difference and the
    search's own record. ``stop_after_batches`` stops early (tests of resuming)."""
    search = study.search
    if search is None:
        raise StudyError("the study has no [search] table: `potluck lab tune` needs one")
    out = Path(out)
    total_trials = trials or search.trials
    full = games or search.games or study.games
    plan = rungs(full, search.min_games, search.reduction)
    chunk_size = max(1, min(chunk_size, plan[0]))
    _prepare(study, out, full, plan, chunk_size)
    ostudy = _open_study(study, out, plan[0])
    if not ostudy.trials:
        start = base_point(study)
        if len(start) == len(search.parameters):
            ostudy.enqueue_trial(start)  # the game as it is: the point to beat
    _recover(ostudy)
    store = _Games(study, out / GAMES, chunk_size)
    from potluck.engine.registry import load_game

    sides = load_game(study.game).side_names(max(study.players))
    distributions = _distributions(study)
    batches = 0
    cpu = [0.0]  # the workers' CPU seconds, this session

    def report(stage: str) -> None:
        if progress is None:
            return
        shown = TuneProgress(stage, _counted(ostudy), total_trials, store.played())
        with contextlib.suppress(ValueError):  # no finished trial yet
            shown.best = dict(ostudy.best_trial.params)
            shown.best_value = ostudy.best_trial.user_attrs.get("metric")
        progress(shown)

    with Pool(workers, backend, address) as pool:
        report("search")
        target = min(total_trials, _space(study))
        # repeats do not count, so bound the asking: a sampler may keep proposing known points
        while _counted(ostudy) < target and len(ostudy.trials) < 4 * total_trials + search.batch:
            if stop_after_batches is not None and batches >= stop_after_batches:
                return {}
            size = min(search.batch, max(1, int(target) - _counted(ostudy)))
            asked = [ostudy.ask(distributions) for _ in range(size)]
            points = {t.number: _arm_parts(study, t.params) for t in asked}
            alive = list(asked)
            previous = 0
            for step, rung in enumerate(plan):
                wanted = {t.number: store.chunks(*points[t.number], previous, rung) for t in alive}
                todo = store.missing([c for chunks in wanted.values() for c in chunks])
                for chunk, rows, seconds in pool.play(todo):
                    cpu[0] += seconds
                    store.store(chunk, rows)
                    report("search")
                survivors = []
                for trial in alive:
                    fields, key = points[trial.number]
                    # the chunks as played, rung by rung (their boundaries follow the rungs)
                    played = [
                        c
                        for first, last in zip([0, *plan[:step]], plan[: step + 1], strict=True)
                        for c in store.chunks(fields, key, first, last)
                    ]
                    rows = store.load(played)
                    found = _objective(study, rows, sides)
                    for name, value in found.to_json().items():
                        trial.set_user_attr("metric" if name == "value" else name, value)
                    trial.set_user_attr("point", key)
                    score = _score(study, found)
                    if not math.isfinite(score):
                        ostudy.tell(trial, state=_state("FAIL"))
                        continue
                    trial.report(score, rung)
                    if step < len(plan) - 1 and trial.should_prune():
                        ostudy.tell(trial, state=_state("PRUNED"))
                    elif step == len(plan) - 1:
                        ostudy.tell(trial, score)
                    else:
                        survivors.append(trial)
                alive = survivors
                previous = rung
                report("search")
            batches += 1
        search_cpu = cpu[0]
        answer = _confirm(study, out, ostudy, full, confirm_games, pool, report, sides, plan, cpu)
    answer["search"]["games_played"] = store.played()
    answer["cpu_seconds"] = {"search": search_cpu, "confirmation": cpu[0] - search_cpu}
    (out / ANSWER).write_text(json.dumps(answer, indent=1) + "\n", "utf-8")
    return answer


def _state(name: str) -> Any:
    from optuna.trial import TrialState

    return TrialState[name]


def _confirm(
    study: Study,
    out: Path,
    ostudy: Any,
    full: int,
    confirm_games: int | None,
    pool: Pool,
    report: Callable[[str], None],
    sides: tuple[str, ...],
    plan: list[int],
    cpu: list[float],
) -> dict[str, Any]:
    """Play the best point and the base arm on fresh deals; the answer is only this."""
    search = study.search
    assert search is not None
    best = ostudy.best_trial
    fields, _key = _arm_parts(study, best.params)
    base = study.arm(search.arm)
    count = confirm_games or search.confirm_games or 2 * full
    arms: dict[str, Any] = {}
    if base.name != BASELINE:
        arms[base.name] = {**base.to_json(), "against": BASELINE}
    arms[BEST] = {**fields, "against": base.name}
    lineups = {name: list(agents) for name, agents in study.lineups}
    extra = {name: list(agents) for name, agents in search.confirm_lineups}

    def confirmation_of(chosen: dict[str, list[str]], games: int) -> Study:
        return parse_study(
            {
                "game": study.game,
                "players": list(study.players),
                "games": games,
                "seed": study.seed + CONFIRM_OFFSET,
                "lineups": chosen,
                "arms": arms,
            },
            name="the confirmation study",
        )

    report("confirmation")

    def timed(_chunk: Chunk, seconds: float) -> None:
        cpu[0] += seconds

    confirmation = confirmation_of(lineups, count)
    run_study(confirmation, out / CONFIRMATION, pool=pool, chunk_size=50, timing=timed)
    _, rows = load_results(out / CONFIRMATION)
    if extra:
        # stronger line-ups cost more a game: they may play fewer (confirm_lineup_games)
        more = confirmation_of(extra, search.confirm_lineup_games or count)
        run_study(more, out / CONFIRMATION_LINEUPS, pool=pool, chunk_size=10, timing=timed)
        rows += load_results(out / CONFIRMATION_LINEUPS)[1]
    lineups.update(extra)
    searched = {name for name, _ in study.lineups}

    def arm_rows(arm: str, lineups: set[str]) -> list[dict[str, Any]]:
        return [r for r in rows if r["arm"] == arm and r["lineup"] in lineups]

    metric = search.metric

    def figure(arm: str, lineups: set[str]) -> Measure:
        cells = by_cell(arm_rows(arm, lineups))
        return combine([measure(cell, metric, sides) for cell in cells.values()])

    def difference(lineups: set[str]) -> Measure:
        mine, theirs = by_cell(arm_rows(BEST, lineups)), by_cell(arm_rows(base.name, lineups))
        return combine([paired(mine[k], theirs.get(k, []), metric, sides) for k in mine])

    confirmed = figure(BEST, searched)
    reference = figure(base.name, searched)
    cells = []
    for (players, lineup), _ in by_cell([r for r in rows if r["arm"] == BEST]).items():
        cells.append(
            {
                "players": players,
                "lineup": lineup,
                "searched": lineup in searched,
                "best": measure(_pick(rows, BEST, players, lineup), metric, sides).to_json(),
                "base": measure(_pick(rows, base.name, players, lineup), metric, sides).to_json(),
                "difference": paired(
                    _pick(rows, BEST, players, lineup),
                    _pick(rows, base.name, players, lineup),
                    metric,
                    sides,
                ).to_json(),
            }
        )
    best_trial = {
        "number": best.number,
        "value": best.user_attrs.get("metric"),
        "note": "the best trial's own figure (biased upward by the choice); not the answer",
    }
    from optuna.trial import TrialState

    states = [t.state for t in ostudy.get_trials(deepcopy=False)]
    points = len({json.dumps(t.params, sort_keys=True) for t in ostudy.trials if t.params})
    return {
        "best": {str(p): v for p, v in _values(study, best.params).items()},
        "confirmation": {
            "metric": metric,
            "value": confirmed.value,
            "low": confirmed.low,
            "high": confirmed.high,
            "games": confirmed.games,
        },
        "unit": metric_unit(metric),
        "goal": {"target": search.target}
        if search.target is not None
        else {"direction": search.direction},
        "base": {"arm": base.name, **reference.to_json()},
        "difference": difference(searched).to_json(),
        "cells": cells,
        "bots": {
            "focal": search.focal,
            "best_agents": fields["agents"],
            "lineups": lineups,
        },
        "search": {
            "trials": len(states),
            "points": points,
            "complete": states.count(TrialState.COMPLETE),
            "pruned": states.count(TrialState.PRUNED),
            "failed": states.count(TrialState.FAIL),
            "rungs": plan,
            "best_trial": best_trial,
            "storage": f"sqlite:///{(out / STORAGE).resolve()}",
        },
        "confirmation_results": str((out / CONFIRMATION).resolve()),
        "confirmation_lineups_results": str((out / CONFIRMATION_LINEUPS).resolve())
        if extra
        else None,
        "confirmation_seeds": [
            study.seed + CONFIRM_OFFSET,
            study.seed + CONFIRM_OFFSET + count - 1,
        ],
    }


def _pick(rows: list[dict[str, Any]], arm: str, players: int, lineup: str) -> list[dict[str, Any]]:
    return [r for r in rows if (r["arm"], r["players"], r["lineup"]) == (arm, players, lineup)]
