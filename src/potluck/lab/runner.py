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
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing import get_all_start_methods, get_context
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from potluck.engine.errors import PotluckError
from potluck.lab.study import Study, StudyError, parse_study
from potluck.lab.worker import Chunk, play_chunk

__all__ = ["ROW_SCHEMA", "Chunk", "load_results", "plan_chunks", "play_chunk", "run_study"]

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


def _write_part(out: Path, chunk: Chunk, rows: list[dict[str, Any]]) -> None:
    table = pa.Table.from_pylist(rows, schema=ROW_SCHEMA)
    final = out / PARTS / f"{chunk.name}.parquet"
    temporary = final.with_suffix(".tmp")
    pq.write_table(table, temporary)
    os.replace(temporary, final)  # atomic: a part file is whole or absent


def _prepare(study: Study, out: Path, chunk_size: int) -> None:
    """Create the results folder, or check that it holds this very study."""
    (out / PARTS).mkdir(parents=True, exist_ok=True)
    header = {"study": study.to_json(), "fingerprint": study.fingerprint(), "chunk": chunk_size}
    path = out / STUDY_FILE
    if path.exists():
        saved = json.loads(path.read_text("utf-8"))
        if saved.get("fingerprint") != header["fingerprint"] or saved.get("chunk") != chunk_size:
            raise StudyError(
                f"{out} holds the results of a different study (or chunk size); "
                "give another --out folder or remove it"
            )
    else:
        path.write_text(json.dumps(header, indent=1) + "\n", "utf-8")
    for stale in (out / PARTS).glob("*.tmp"):
        stale.unlink()  # left by a run killed while writing


def _pending(study: Study, out: Path, chunk_size: int) -> tuple[list[Chunk], int]:
    chunks = plan_chunks(study, chunk_size)
    done = {p.stem for p in (out / PARTS).glob("*.parquet")}
    todo = [c for c in chunks if c.name not in done]
    return todo, sum(c.size for c in chunks if c.name in done)


Progress = Callable[[int, int], None]


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
) -> int:
    """Play every game of ``study`` not yet in ``out``; return how many games were played now.

    ``workers``: local processes (default: every core; 1 plays in this process).
    ``backend="ray"`` sends chunks to Ray tasks on the cluster at ``address``
    (default: a running local instance, or a new one). ``progress(done, total)``
    is called after each chunk. ``max_chunks`` stops early (tests of resuming).
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
    if backend == "local":
        results = _run_local(todo, workers)
    elif backend == "ray":
        results = _run_ray(todo, address)
    else:
        raise StudyError(f"unknown backend {backend!r}: use 'local' or 'ray'")
    for chunk, rows in results:
        _write_part(out, chunk, rows)
        played += len(rows)
        done += len(rows)
        if progress is not None:
            progress(done, total)
    return played


def _context() -> BaseContext:
    """How worker processes start: from a fork server where there is one, else spawned.

    Never a plain fork of this process, whose other threads (the progress bar's)
    may hold locks. The fork server is a fresh single-threaded process that has
    imported ``potluck.lab.worker`` once; each worker is a cheap fork of it, so
    N workers cost one interpreter start, not N.
    """
    if "forkserver" in get_all_start_methods():
        context = get_context("forkserver")
        context.set_forkserver_preload(["potluck.lab.worker"])
        return context
    return get_context("spawn")  # Windows, and macOS builds without a fork server


def _run_local(todo: list[Chunk], workers: int | None) -> Iterator[tuple[Chunk, list[Any]]]:
    workers = workers or os.cpu_count() or 1
    if workers < 1:
        raise StudyError(f"--workers must be at least 1, not {workers}")
    if workers == 1 or len(todo) <= 1:
        for chunk in todo:
            yield chunk, play_chunk(chunk)
        return
    with ProcessPoolExecutor(workers, mp_context=_context()) as pool:
        queue = iter(todo)
        running: dict[Future[list[dict[str, Any]]], Chunk] = {}

        def submit() -> None:
            chunk = next(queue, None)
            if chunk is not None:
                running[pool.submit(play_chunk, chunk)] = chunk

        for _ in range(2 * workers):  # two per worker so none waits between chunks
            submit()
        while running:
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                chunk = running.pop(future)
                yield chunk, future.result()
                submit()


def _run_ray(todo: list[Chunk], address: str | None) -> Iterator[tuple[Chunk, list[Any]]]:
    try:
        import ray
    except ImportError:
        raise PotluckError(
            "the ray backend needs Ray: pip install 'potluck[lab]' (or pip install ray)"
        ) from None
    if not ray.is_initialized():
        # No address: join the cluster named by RAY_ADDRESS, or start a local one.
        ray.init(address=address, log_to_driver=False)
    remote = ray.remote(play_chunk)
    in_flight = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
    queue = iter(todo)
    running: dict[Any, Chunk] = {}

    def submit() -> None:
        chunk = next(queue, None)
        if chunk is not None:
            running[remote.remote(chunk)] = chunk

    for _ in range(in_flight):
        submit()
    while running:
        ready, _ = ray.wait(list(running), num_returns=1)
        for ref in ready:
            chunk = running.pop(ref)
            yield chunk, ray.get(ref)
            submit()


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
