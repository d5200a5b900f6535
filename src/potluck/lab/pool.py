"""Where chunks of games are played: this process, local worker processes, or Ray tasks.

A :class:`Pool` stays open while a study or a search runs, so a search that plays
many small batches of chunks starts its workers once::

    >>> from potluck.lab.worker import Chunk
    >>> with Pool(workers=1) as pool:
    ...     done = list(pool.play([Chunk("cafe-carnage", None, {}, 4, "baseline", 0, 1, 7,
    ...                                  ("greedy",))]))
    >>> [len(rows) for _, rows, _ in done]
    [2]

Each result is ``(chunk, rows, seconds)``: the seconds are the worker's CPU time
for the chunk, which the progress bar's ETA weighs per arm and line-up.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing import get_all_start_methods, get_context
from multiprocessing.context import BaseContext
from types import TracebackType
from typing import Any

from potluck.engine.errors import PotluckError
from potluck.lab.study import StudyError
from potluck.lab.worker import Chunk, timed_chunk

__all__ = ["BACKENDS", "Pool"]

BACKENDS = ("local", "ray")
Played = tuple[Chunk, list[dict[str, Any]], float]


class Pool:
    """Plays chunks on ``workers`` local processes (default: every core; 1: this process)
    or, with ``backend="ray"``, as Ray tasks on the cluster at ``address``."""

    def __init__(
        self, workers: int | None = None, backend: str = "local", address: str | None = None
    ) -> None:
        if backend not in BACKENDS:
            raise StudyError(f"unknown backend {backend!r}: use 'local' or 'ray'")
        self.workers = workers or os.cpu_count() or 1
        if self.workers < 1:
            raise StudyError(f"--workers must be at least 1, not {self.workers}")
        self.backend = backend
        self.address = address
        self._executor: ProcessPoolExecutor | None = None
        self._remote: Any = None

    def __enter__(self) -> Pool:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    @property
    def parallel(self) -> int:
        """How many chunks play at once."""
        if self.backend == "ray":
            import ray

            return max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
        return self.workers

    def play(self, chunks: Iterable[Chunk]) -> Iterator[Played]:
        """Play ``chunks``, yielding each as it finishes (in no fixed order)."""
        todo = list(chunks)
        if not todo:
            return iter(())
        if self.backend == "ray":
            return self._play_ray(todo)
        if self.workers == 1 or (len(todo) == 1 and self._executor is None):
            return ((c, *timed_chunk(c)) for c in todo)
        return self._play_local(todo)

    def _play_local(self, todo: list[Chunk]) -> Iterator[Played]:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(self.workers, mp_context=_context())
        pool = self._executor
        queue = iter(todo)
        running: dict[Future[tuple[list[dict[str, Any]], float]], Chunk] = {}

        def submit() -> None:
            chunk = next(queue, None)
            if chunk is not None:
                running[pool.submit(timed_chunk, chunk)] = chunk

        for _ in range(2 * self.workers):  # two per worker so none waits between chunks
            submit()
        while running:
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                chunk = running.pop(future)
                rows, seconds = future.result()
                yield chunk, rows, seconds
                submit()

    def _play_ray(self, todo: list[Chunk]) -> Iterator[Played]:
        try:
            import ray
        except ImportError:
            raise PotluckError(
                "the ray backend needs Ray: pip install 'potluck[lab]' (or pip install ray)"
            ) from None
        if not ray.is_initialized():
            # No address: join the cluster named by RAY_ADDRESS, or start a local one.
            ray.init(address=self.address, log_to_driver=False)
        if self._remote is None:
            self._remote = ray.remote(timed_chunk)
        in_flight = max(2, 2 * self.parallel)
        queue = iter(todo)
        running: dict[Any, Chunk] = {}

        def submit() -> None:
            chunk = next(queue, None)
            if chunk is not None:
                running[self._remote.remote(chunk)] = chunk

        for _ in range(in_flight):
            submit()
        while running:
            ready, _ = ray.wait(list(running), num_returns=1)
            for ref in ready:
                chunk = running.pop(ref)
                rows, seconds = ray.get(ref)
                yield chunk, rows, seconds
                submit()


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
