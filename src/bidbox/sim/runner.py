"""Running a match end to end: the store, the batches, the workers, the report, the plots.

The boards still missing from the store are cut into batches, the batches go to the
workers, and each finished batch is stored at once. The report is then built from the
store, so a run that was killed and started again reports exactly what one uninterrupted
run would have, without playing any board twice.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path

from bidbox.files import describe_error, write_file
from bidbox.sim.deals import Boards
from bidbox.sim.match import BoardResult, MatchSpec
from bidbox.sim.parallel import Task, run_batches
from bidbox.sim.plots import write_plots
from bidbox.sim.report import MatchReport, RunInfo, build_report
from bidbox.sim.store import STORE_NAME, ResultStore, StoreError

REPORT_NAME = "report.json"


@dataclass
class MatchRun:
    """A finished (or stopped) run: its report, the board results, the files written."""

    report: MatchReport
    results: list[BoardResult]
    files: list[Path] = field(default_factory=list)
    write_errors: list[str] = field(default_factory=list)
    """Files that could not be written (the board results are in the store all the same)."""
    saved: str = ""
    """What the output folder holds complete, for a message about a failed write:
    "'DIR': sim.sqlite (3 boards), report.json"."""


def batch_size_for(remaining: int, workers: int) -> int:
    """Boards per batch: large, since the batch bidder's cost per board falls with the
    number of deals that share an auction, and DDS takes up to 200 boards in one call;
    with several workers, small enough that each gets a few batches to balance the load.
    At most 200, so that a kill loses little work."""
    if workers <= 1:
        return max(1, min(200, remaining))
    return max(32, min(200, math.ceil(remaining / (workers * 3))))


def run_match(spec: MatchSpec, boards: Boards, out: Path | None = None, workers: int = 1,
              scheduler: str | None = None, batch_size: int | None = None,
              progress: bool | None = None, limit: int | None = None,
              plots: bool = True) -> MatchRun:
    """Play ``boards`` in the match ``spec``, resuming from the store in ``out`` if any.

    ``limit`` stops after that many new boards (the rest stay for a later run, as if the
    run had been killed there). With ``out``, the store, ``report.json`` and the plots go
    in that folder; without it the results live in memory for this call only.
    ``progress`` None shows a progress bar only on a terminal.
    """
    from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

    started = time.perf_counter()
    info = RunInfo(spec, boards.source, len(boards), workers=workers, scheduler=scheduler,
                   out=str(out) if out else None)
    with ResultStore(out) as store:
        store.register(spec.key, {**spec.describe(), "source": boards.source})
        done = store.finished(spec.key, boards.source)
        todo = [row for row in range(len(boards)) if int(boards.indices[row]) not in done]
        info.boards_from_store = len(boards) - len(todo)
        if limit is not None:
            todo = todo[:max(0, limit)]
        if todo and store.read_only:  # say so before playing boards that could not be kept
            store.refuse_new(len(todo))
        size = batch_size or batch_size_for(len(todo), workers)
        tasks: list[Task] = []
        for start in range(0, len(todo), size):
            batch = boards.take(todo[start:start + size])
            known = ({} if spec.needs_full_tables else
                     store.known_cells([batch.pbn(i) for i in range(len(batch))]))
            tasks.append((batch, known))
        bar = tqdm(total=len(boards), initial=info.boards_from_store, unit="board",
                   desc="simulate", disable=(not progress) if progress is not None else None)
        try:
            for chunk in run_batches(spec, tasks, workers, scheduler):
                try:
                    info.boards_computed += store.save(spec.key, boards.source,
                                                       chunk.boards, chunk.new_cells)
                except StoreError as err:  # a full disk: what is stored stays, say how much
                    kept = info.boards_from_store + info.boards_computed
                    raise StoreError(f"{err}; {kept:,} of {len(boards):,} boards are stored "
                                     "(a rerun plays only the rest)") from None
                info.bidding_seconds += chunk.bidding_seconds
                info.dds_seconds += chunk.dds_seconds
                info.cells_solved += chunk.cells_solved
                info.tables_solved += chunk.tables_solved
                bar.update(len(chunk.boards))
        finally:
            bar.close()
        results = store.load(spec.key, boards.source, len(boards))
    info.seconds = time.perf_counter() - started
    report = build_report(results, info)
    files: list[Path] = []
    errors: list[str] = []
    if out is not None:
        # The boards are stored by now. The report is written first, then the optional
        # plots, each file whole or not at all: a file that cannot be written (a full
        # disk, a folder where report.json should be) is reported with what was saved.
        report.extra["match"] = f"{spec.key}:{boards.source}"
        path = report_path(out, report.extra["match"])
        report.extra["files"] = [path.name]
        wrote_report = _write_report(report, path, errors)
        if plots:
            try:
                write_plots(results, report, out, files)
            except OSError as err:
                errors.append(f"plots in '{out}': {describe_error(err)}")
            if files:  # the report lists the plots that are complete
                report.extra["files"] = [f.name for f in files] + [path.name]
                if wrote_report:  # if this fails, the first one stands, without the plots
                    _write_report(report, path, errors, " again, to list the plots")
        if wrote_report:
            files.append(path)
        else:
            report.extra["files"].remove(path.name)
    saved = _saved(out, len(results), files) if out is not None else ""
    return MatchRun(report, results, files, errors, saved)


def _write_report(report: MatchReport, path: Path, errors: list[str], why: str = "") -> bool:
    """Write ``report.json`` whole; a failure is added to ``errors``, not raised."""
    try:
        write_file(path, json.dumps(report.to_json(), indent=2))
    except OSError as err:
        errors.append(f"'{path}'{why}: {describe_error(err)}")
        return False
    return True


def _saved(out: Path, boards: int, files: list[Path]) -> str:
    """The complete files of a results folder, the store first."""
    names = [f"{STORE_NAME} ({boards:,} board{'s' if boards != 1 else ''})",
             *(f.name for f in files)]
    return f"'{out}': {', '.join(names)}"


def report_path(out: Path, match: str) -> Path:
    """``report.json``, unless it holds the report of another match (other systems,
    options or deals): then ``report-KEY.json``, so a second match into the same folder
    does not silently replace the first one's report (issue 17)."""
    path = out / REPORT_NAME
    try:
        held = json.loads(path.read_text(encoding="utf-8")).get("match", match)
    except (OSError, ValueError, AttributeError):
        return path  # none there, or not a report: written (or its error reported) as is
    if held == match:
        return path
    return out / f"report-{match.split(':')[0][:8]}.json"


__all__ = ["REPORT_NAME", "MatchRun", "batch_size_for", "report_path", "run_match"]
