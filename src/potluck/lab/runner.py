"""Running a study: chunks of games on local processes or a Ray cluster, streamed to Parquet.

    >>> from potluck.lab import parse_study, run_study          # doctest: +SKIP
    >>> study = parse_study({...})                              # doctest: +SKIP
    >>> run_study(study, "results/", workers=2)                 # doctest: +SKIP

The games of a study are cut into chunks (one arm, one player count, up to
``chunk_size`` consecutive game indices). Each finished chunk is written as one
Parquet file ``parts/<players>p-<arm>-<first>-<last>.parquet`` (to a temporary
name, then renamed, so a file is whole or absent). A study that stops for any
reason resumes where it stopped: the chunks whose files exist are skipped.

Results do not depend on the backend, the number of workers or the order in
which chunks finish: a game's row depends only on the study and its index.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from potluck.lab.pool import Pool
from potluck.lab.provenance import provenance
from potluck.lab.study import Study, StudyError, parse_study
from potluck.lab.worker import Chunk, play_chunk

__all__ = [
    "ROW_SCHEMA",
    "Chunk",
    "load_header",
    "load_results",
    "plan_chunks",
    "play_chunk",
    "run_study",
    "write_part",
]

#: One row per game. ``metrics`` and ``seat_metrics`` are JSON text because each
#: game names its own; ``error`` is set (and the scores empty) for a crashed game.
ROW_SCHEMA = pa.schema(
    [
        ("players", pa.int16()),
        ("lineup", pa.string()),
        ("arm", pa.string()),
        ("index", pa.int32()),
        ("seed", pa.int64()),
        ("agents", pa.list_(pa.string())),
        ("scores", pa.list_(pa.float64())),
        ("winners", pa.list_(pa.int16())),
        ("places", pa.list_(pa.int16())),
        ("length", pa.int32()),
        ("metrics", pa.string()),
        ("seat_metrics", pa.string()),
        ("error", pa.string()),
    ]
)

STUDY_FILE = "study.json"
PARTS = "parts"
DEFAULT_CHUNK = 50


def plan_chunks(study: Study, chunk_size: int = DEFAULT_CHUNK) -> list[Chunk]:
    """Every chunk of the study, in a fixed order (player count, game index, line-up, arm)."""
    if chunk_size < 1:
        raise StudyError(f"the chunk size must be at least 1, not {chunk_size}")
    chunks = []
    for players in study.players:
        for first in range(0, study.games, chunk_size):
            last = min(first + chunk_size, study.games) - 1
            for lineup, agents in study.lineups:
                for arm in study.arms:
                    chunks.append(
                        Chunk(
                            study.game,
                            arm.data,
                            dict(arm.options),
                            players,
                            arm.name,
                            first,
                            last,
                            study.seed,
                            agents,
                            lineup,
                            arm.agents,
                            tuple(arm.patch.items()),
                        )
                    )
    return chunks


def write_part(folder: Path, chunk: Chunk, rows: list[dict[str, Any]]) -> None:
    """Write a chunk's rows as ``folder/<chunk name>.parquet``, whole or not at all."""
    table = pa.Table.from_pylist(rows, schema=ROW_SCHEMA)
    final = folder / f"{chunk.name}.parquet"
    temporary = final.with_suffix(".tmp")
    pq.write_table(table, temporary)
    os.replace(temporary, final)  # atomic: a part file is whole or absent


def _prepare(study: Study, out: Path, chunk_size: int) -> None:
    """Create the results folder, or check that it holds this very study.

    ``study.json`` keeps the study, its fingerprint and the provenance of the run
    (``potluck.lab.provenance``); a run resumed by other code adds its own record.
    """
    (out / PARTS).mkdir(parents=True, exist_ok=True)
    header: dict[str, Any] = {
        "study": study.to_json(),
        "fingerprint": study.fingerprint(),
        "chunk": chunk_size,
    }
    path = out / STUDY_FILE
    record = provenance(study)
    if path.exists():
        saved = json.loads(path.read_text("utf-8"))
        if saved.get("fingerprint") != header["fingerprint"] or saved.get("chunk") != chunk_size:
            raise StudyError(
                f"{out} holds the results of a different study (or chunk size); "
                "give another --out folder or remove it"
            )
        first = saved.get("provenance", {})
        if record != first and record not in saved.get("resumed", []):
            saved.setdefault("resumed", []).append(record)
            _write_json(path, saved)
    else:
        header["provenance"] = record
        _write_json(path, header)
    for stale in (out / PARTS).glob("*.tmp"):
        stale.unlink()  # left by a run killed while writing


def _write_json(path: Path, value: dict[str, Any]) -> None:
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(value, indent=1) + "\n", "utf-8")
    os.replace(temporary, path)


def load_header(out: Path | str) -> dict[str, Any]:
    """``study.json`` of a results folder: the study, its fingerprint and provenance."""
    path = Path(out) / STUDY_FILE
    if not path.exists():
        raise StudyError(f"{out} is not a results folder of `potluck lab run` (no {STUDY_FILE})")
    loaded: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return loaded


def _pending(study: Study, out: Path, chunk_size: int) -> tuple[list[Chunk], int]:
    chunks = plan_chunks(study, chunk_size)
    done = {p.stem for p in (out / PARTS).glob("*.parquet")}
    todo = [c for c in chunks if c.name not in done]
    return todo, sum(c.size for c in chunks if c.name in done)


Progress = Callable[[int, int], None]
#: Called after each chunk with the chunk and its worker's CPU seconds (the ETA's weights).
Timing = Callable[[Chunk, float], None]


def run_study(
    study: Study,
    out: Path | str,
    *,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    progress: Progress | None = None,
    max_chunks: int | None = None,
    timing: Timing | None = None,
    pool: Pool | None = None,
    planned: Callable[[list[Chunk], int], None] | None = None,
) -> int:
    """Play every game of ``study`` not yet in ``out``; return how many games were played now.

    ``workers``: local processes (default: every core; 1 plays in this process).
    ``backend="ray"`` sends chunks to Ray tasks on the cluster at ``address``
    (default: a running local instance, or a new one). ``progress(done, total)``
    is called after each chunk, ``timing(chunk, cpu_seconds)`` too, and
    ``planned(todo, parallel)`` once with the chunks still to play. ``max_chunks``
    stops early (tests of resuming). ``pool`` plays on an open :class:`Pool` instead.
    """
    out = Path(out)
    _prepare(study, out, chunk_size)
    todo, done = _pending(study, out, chunk_size)
    if max_chunks is not None:
        todo = todo[:max_chunks]
    total = study.total_games
    if progress is not None:
        progress(done, total)
    played = 0
    own = pool is None
    pool = pool or Pool(workers, backend, address)
    try:
        if planned is not None:
            planned(todo, pool.parallel if todo else 1)
        for chunk, rows, seconds in pool.play(todo):
            write_part(out / PARTS, chunk, rows)
            played += len(rows)
            done += len(rows)
            if timing is not None:
                timing(chunk, seconds)
            if progress is not None:
                progress(done, total)
    finally:
        if own:
            pool.close()
    return played


def load_results(out: Path | str) -> tuple[Study, list[dict[str, Any]]]:
    """The study and every row of a results folder, sorted by (players, line-up, arm, index)."""
    out = Path(out)
    path = out / STUDY_FILE
    if not path.exists():
        raise StudyError(f"{out} is not a results folder of `potluck lab run` (no {STUDY_FILE})")
    header = json.loads(path.read_text("utf-8"))
    study = parse_study(header["study"], name=str(path))
    parts = sorted((out / PARTS).glob("*.parquet"))
    rows: list[dict[str, Any]] = []
    for part in parts:
        table = pq.read_table(part)
        if "lineup" not in table.column_names:  # written before studies had line-ups
            table = table.add_column(1, "lineup", pa.array(["default"] * table.num_rows))
        rows.extend(table.select(ROW_SCHEMA.names).cast(ROW_SCHEMA).to_pylist())
    order = {name: i for i, name in enumerate(study.arm_names)}
    lineups = {name: i for i, name in enumerate(study.lineup_names)}
    rows.sort(
        key=lambda r: (
            r["players"],
            lineups.get(r["lineup"], len(lineups)),
            order.get(r["arm"], len(order)),
            r["index"],
        )
    )
    return study, rows
