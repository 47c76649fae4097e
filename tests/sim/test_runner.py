"""Running a match: resuming after a kill, a local process pool, a Dask cluster, the files.

All runs play the same 16 boards (mini against weak), so each can be compared with one
uninterrupted run in this process.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bidbox.sim.deals import Boards, deal_boards
from bidbox.sim.match import BoardResult, MatchSpec, SystemRef
from bidbox.sim.runner import REPORT_NAME, MatchRun, run_match
from bidbox.sim.store import STORE_NAME, ResultStore

ROOT = Path(__file__).parents[2]
MINI = str(ROOT / "tests" / "data" / "mini.bbx")
WEAK = str(Path(__file__).parent / "data" / "weak.bbx")
COUNT = 16


@pytest.fixture(scope="module")
def spec() -> MatchSpec:
    return MatchSpec(SystemRef.resolve(MINI), SystemRef.resolve(WEAK))


@pytest.fixture(scope="module")
def boards() -> Boards:
    return deal_boards(COUNT, 404)


@pytest.fixture(scope="module")
def uninterrupted(spec: MatchSpec, boards: Boards,
                  tmp_path_factory: pytest.TempPathFactory) -> MatchRun:
    out = tmp_path_factory.mktemp("whole")
    return run_match(spec, boards, out, workers=1, batch_size=5, progress=False)


def _same(a: list[BoardResult], b: list[BoardResult]) -> None:
    assert [r.deal_index for r in a] == list(range(COUNT))
    assert a == b


def test_resume_after_a_kill_equals_an_uninterrupted_run(
        spec: MatchSpec, boards: Boards, uninterrupted: MatchRun, tmp_path: Path) -> None:
    # "Kill" the run after 7 boards: only finished batches reach the store.
    part = run_match(spec, boards, tmp_path, batch_size=5, limit=7, progress=False,
                     plots=False)
    assert part.report.boards == 7 and part.report.extra["complete"] is False
    with ResultStore(tmp_path) as store:
        assert store.finished(spec.key, boards.source) == set(range(7))
    rest = run_match(spec, boards, tmp_path, batch_size=5, progress=False, plots=False)
    assert rest.report.extra["boards_from_store"] == 7
    assert rest.report.extra["boards_computed"] == COUNT - 7
    _same(rest.results, uninterrupted.results)
    again = run_match(spec, boards, tmp_path, progress=False, plots=False)
    assert again.report.extra["boards_computed"] == 0
    assert again.report.extra["dds_cells_solved"] == 0
    _same(again.results, uninterrupted.results)
    assert rest.report.imps_per_board == uninterrupted.report.imps_per_board
    assert rest.report.ci95 == uninterrupted.report.ci95


def test_a_stored_board_is_never_stored_twice(spec: MatchSpec, uninterrupted: MatchRun,
                                              tmp_path: Path) -> None:
    with ResultStore(tmp_path) as store:
        assert store.save(spec.key, "seed:404", uninterrupted.results[:3]) == 3
        assert store.save(spec.key, "seed:404", uninterrupted.results[:5]) == 2
        assert len(store.load(spec.key, "seed:404", COUNT)) == 5


def test_dask_local_cluster_equals_the_local_run(spec: MatchSpec, boards: Boards,
                                                 uninterrupted: MatchRun,
                                                 tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        run = run_match(spec, boards, tmp_path, scheduler=cluster.scheduler_address,
                        batch_size=5, progress=False, plots=False)
    assert run.report.extra["scheduler"] == cluster.scheduler_address
    _same(run.results, uninterrupted.results)


def test_local_process_pool_equals_the_local_run(spec: MatchSpec, boards: Boards,
                                                 uninterrupted: MatchRun,
                                                 tmp_path: Path) -> None:
    run = run_match(spec, boards, tmp_path, workers=2, batch_size=10, progress=False,
                    plots=False)
    _same(run.results, uninterrupted.results)


def test_output_folder_holds_store_report_and_plots(uninterrupted: MatchRun) -> None:
    names = {f.name for f in uninterrupted.files}
    assert {"imps.png", "openings.png", "opening_hcp.png", REPORT_NAME} <= names
    folder = uninterrupted.files[0].parent
    assert (folder / STORE_NAME).is_file()
    for f in uninterrupted.files:
        assert f.stat().st_size > 1000, f
    data = json.loads((folder / REPORT_NAME).read_text(encoding="utf-8"))
    assert data["boards"] == COUNT and data["ci95"] == list(uninterrupted.report.ci95)


def test_another_match_in_the_same_folder_does_not_mix(boards: Boards,
                                                       tmp_path: Path) -> None:
    weak_vs_weak = MatchSpec(SystemRef.resolve(WEAK), SystemRef.resolve(WEAK))
    mini_vs_mini = MatchSpec(SystemRef.resolve(MINI), SystemRef.resolve(MINI))
    small = boards.take(range(4))
    run_match(weak_vs_weak, small, tmp_path, progress=False, plots=False)
    other = run_match(mini_vs_mini, small, tmp_path, progress=False, plots=False)
    assert other.report.extra["boards_computed"] == 4
    assert weak_vs_weak.key != mini_vs_mini.key
    assert MatchSpec(SystemRef.resolve(MINI, {"nt": "strong"}),
                     SystemRef.resolve(MINI)).key != mini_vs_mini.key
