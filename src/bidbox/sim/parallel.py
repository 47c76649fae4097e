"""Where the work runs: this process, a local process pool, or a Dask cluster.

Every backend takes the same batches of boards and yields each batch's result as soon as
it is finished (in any order), so the caller can store it at once: that is what makes a
killed run resumable whatever ran it. Workers only compute; the caller alone writes.

Local pool workers are started with ``spawn`` (DDS keeps threads and memory that a
forked copy must not inherit) and each limits DDS to its share of the cores.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing import get_context

from bidbox.errors import ClusterError as ClusterError
from bidbox.sim.deals import Boards
from bidbox.sim.double_dummy import set_dds_threads
from bidbox.sim.match import ChunkResult, MatchSpec, play_boards

Task = tuple[Boards, Mapping[str, Mapping[str, int]]]
"""A batch of boards and the double-dummy cells already known for its deals."""


def default_workers() -> int:
    return os.cpu_count() or 1


def run_batches(spec: MatchSpec, tasks: Sequence[Task], workers: int = 1,
                scheduler: str | None = None) -> Iterator[ChunkResult]:
    """Play every batch; yield each result as it finishes.

    ``scheduler`` (a Dask address such as ``tcp://host:8786``) sends the batches to that
    cluster; otherwise ``workers`` > 1 uses a local process pool and 1 runs them here.
    """
    if scheduler:
        yield from _run_dask(spec, tasks, scheduler)
    elif workers > 1 and len(tasks) > 1:
        yield from _run_pool(spec, tasks, workers)
    else:
        for boards, known in tasks:
            yield play_boards(spec, boards, known)


def _init_worker(dds_threads: int) -> None:
    set_dds_threads(dds_threads)


def _run_pool(spec: MatchSpec, tasks: Sequence[Task], workers: int) -> Iterator[ChunkResult]:
    workers = min(workers, len(tasks))
    threads = max(1, default_workers() // workers)
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"),
                             initializer=_init_worker, initargs=(threads,)) as pool:
        pending: set[Future[ChunkResult]] = {
            pool.submit(play_boards, spec, boards, known) for boards, known in tasks}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        finally:
            for future in pending:
                future.cancel()


def _run_dask(spec: MatchSpec, tasks: Sequence[Task], address: str) -> Iterator[ChunkResult]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ClusterError("--scheduler needs Dask: pip install 'dask[distributed]'") from None
    try:
        client = Client(address, timeout="20s")  # type: ignore[no-untyped-call, unused-ignore]
    except (OSError, TimeoutError, ValueError) as err:
        raise ClusterError(f"cannot reach the Dask scheduler at '{address}': {err}") from None
    try:
        futures = [client.submit(play_boards, spec, boards, known, pure=False)
                   for boards, known in tasks]
        for future in as_completed(futures):  # type: ignore[no-untyped-call, unused-ignore]
            result: ChunkResult = future.result()
            yield result
    finally:
        client.close()  # type: ignore[no-untyped-call, unused-ignore]


__all__ = ["ClusterError", "Task", "default_workers", "run_batches"]
