"""Files that cannot be written (issue 17): a full disk, a folder where the file should be,
a read-only folder. Each is said in one or two lines with what was saved, status 2, no
traceback; a file is whole or absent, and an earlier complete one is never destroyed."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from bidbox.cli.main import main
from bidbox.files import write_file

Capsys = pytest.CaptureFixture[str]
SIMULATE = ["simulate", "--a", "sbu-level1", "--b", "sbu-level1", "--deals", "3",
            "--seed", "4", "--workers", "1"]
FULL = Path("/dev/full")
needs_dev_full = pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full")


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory,
                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BIDBOX_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def two_lines(capsys: Capsys, code: int) -> tuple[str, list[str]]:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert code == 2, captured.err
    assert "Traceback" not in captured.err and 1 <= len(lines) <= 2, captured.err
    return captured.out, lines


def no_part_files(folder: Path) -> bool:
    return not list(folder.glob(".*.part"))


# --- write_file: whole or not at all ---------------------------------------------------
def test_failed_write_keeps_the_earlier_file(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "report.json"
    write_file(path, "complete")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space left"):
        write_file(path, "x" * 10_000)
    assert path.read_text() == "complete" and no_part_files(tmp_path)


def test_write_file_refuses_a_folder_and_keeps_modes_and_links(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    with pytest.raises(IsADirectoryError):
        write_file(tmp_path / "dir", "x")
    target = tmp_path / "real.txt"
    write_file(target, "one")
    target.chmod(0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_file(link, "two")
    assert link.is_symlink() and target.read_text() == "two"
    assert target.stat().st_mode & 0o777 == 0o640
    fresh = tmp_path / "fresh.txt"
    write_file(fresh, b"\x00\x01")
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask and fresh.read_bytes() == b"\x00\x01"


@needs_dev_full
def test_write_file_writes_a_device_in_place() -> None:
    with pytest.raises(OSError) as caught:
        write_file(FULL, "x")
    assert caught.value.errno == errno.ENOSPC and FULL.is_char_device()


# --- simulate: the store and what was saved ---------------------------------------------
def test_disk_full_half_way_through_the_plots(tmp_path: Path, capsys: Capsys,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import bidbox.sim.plots as plots

    real = plots.write_file
    calls = []

    def full_on_the_third(path: Path, data: bytes) -> None:
        calls.append(path.name)
        if len(calls) >= 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, data)

    monkeypatch.setattr(plots, "write_file", full_on_the_third)
    out = tmp_path / "run"
    _, (first, saved) = two_lines(capsys, main([*SIMULATE, "--out", str(out)]))
    assert first == (f"bidbox simulate: error: cannot write plots in '{out}': No space left "
                     "on device")
    assert saved.strip().startswith(f"saved complete in '{out}': sim.sqlite (3 boards), "
                                    "imps.png, report.json;")
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["files"] == ["imps.png", "report.json"]  # the plots that are complete
    assert sorted(p.name for p in out.iterdir()) == ["imps.png", "report.json", "sim.sqlite"]


def test_report_rewritten_to_list_the_plots_fails(tmp_path: Path, capsys: Capsys,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The report is written before the plots and again to list them; when the second
    write fails, the first one stands, complete."""
    import bidbox.sim.runner as runner

    def one_plot(results: object, report: object, folder: Path, written: list[Path]
                 ) -> list[Path]:
        (folder / "imps.png").write_bytes(b"png")
        written.append(folder / "imps.png")
        return written

    real = runner.write_file
    writes = []

    def full_on_the_second(path: Path, data: str) -> None:
        writes.append(path)
        if len(writes) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, data)

    monkeypatch.setattr(runner, "write_plots", one_plot)
    monkeypatch.setattr(runner, "write_file", full_on_the_second)
    out = tmp_path / "run"
    _, (first, saved) = two_lines(capsys, main([*SIMULATE, "--out", str(out)]))
    assert first.endswith(f"'{out / 'report.json'}' again, to list the plots: No space left "
                          "on device")
    assert "sim.sqlite (3 boards), imps.png, report.json;" in saved
    assert json.loads((out / "report.json").read_text(encoding="utf-8"))["files"] == [
        "report.json"]


def test_store_full_during_the_match_keeps_the_boards_stored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bidbox.errors import StoreError
    from bidbox.sim.deals import deal_boards
    from bidbox.sim.match import MatchSpec, SystemRef
    from bidbox.sim.runner import run_match
    from bidbox.sim.store import ResultStore

    real = ResultStore.save
    saves = []

    def full_on_the_second(self: ResultStore, *args: object, **kwargs: object) -> int:
        saves.append(1)
        if len(saves) == 2:
            raise StoreError(f"cannot write to the results store {self.path}: database or "
                             "disk is full")
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    spec = MatchSpec(SystemRef.resolve("sbu-level1", {}), SystemRef.resolve("sbu-level1", {}))
    boards = deal_boards(4, 7)
    out = tmp_path / "run"
    monkeypatch.setattr(ResultStore, "save", full_on_the_second)
    with pytest.raises(StoreError, match=r"disk is full; 2 of 4 boards are stored \(a rerun "
                                         r"plays only the rest\)"):
        run_match(spec, boards, out, batch_size=2, plots=False)
    monkeypatch.setattr(ResultStore, "save", real)
    again = run_match(spec, boards, out, batch_size=2, plots=False)
    played = again.report.extra
    assert (played["boards_from_store"], played["boards_computed"]) == (2, 2)


@needs_dev_full
def test_pbn_to_a_full_disk_after_the_match(tmp_path: Path, capsys: Capsys) -> None:
    out = tmp_path / "run"
    full = tmp_path / "full.pbn"
    full.symlink_to(FULL)
    printed, (first, saved) = two_lines(capsys, main([*SIMULATE, "--no-plots", "--out",
                                                      str(out), "--pbn", str(full)]))
    assert "IMPs per board" in printed  # the report was printed
    assert first == (f"bidbox simulate: error: cannot write '{full}': No space left on "
                     "device (nothing written there)")
    assert f"'{out}': sim.sqlite (3 boards), report.json;" in saved
    assert (out / "report.json").is_file()


def test_pbn_with_another_extension_is_refused_before_the_match(tmp_path: Path,
                                                                capsys: Capsys) -> None:
    code = main([*SIMULATE, "--no-plots", "--pbn", str(tmp_path / "boards.txt")])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == "" and "ends in .pbn or .lin" in captured.err


def test_pbn_into_a_missing_folder_without_out(tmp_path: Path, capsys: Capsys) -> None:
    target = tmp_path / "no" / "such" / "boards.pbn"
    printed, (first, second) = two_lines(capsys, main([*SIMULATE, "--no-plots", "--pbn",
                                                       str(target)]))
    assert "IMPs per board" in printed and f"'{target}': No such file or directory" in first
    assert "give --out DIR to keep the results" in second


# --- the other commands that write a file ------------------------------------------------
@needs_dev_full
@pytest.mark.parametrize("argv", [["deal", "--count", "2", "--seed", "1", "-o", str(FULL)]])
def test_file_to_a_full_disk(capsys: Capsys, argv: list[str]) -> None:
    _, lines = two_lines(capsys, main(argv))
    assert lines[0].endswith("cannot write '/dev/full': No space left on device "
                             "(nothing written there)"), lines


@pytest.mark.parametrize("argv", [
    ["deal", "--count", "2", "--seed", "1", "-o", "{dir}"],
    ["publish", "--system", "sbu-level1", "--format", "bss", "-o", "{dir}"],
])
def test_file_where_a_folder_is(tmp_path: Path, capsys: Capsys, argv: list[str]) -> None:
    argv = [a.replace("{dir}", str(tmp_path)) for a in argv]
    _, lines = two_lines(capsys, main(argv))
    assert f"cannot write '{tmp_path}': Is a directory (nothing written there)" in lines[0]


def test_read_only_folder_keeps_the_earlier_file(tmp_path: Path, capsys: Capsys,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder one may not write (refused as mkstemp would be refused: root ignores chmod)."""
    import tempfile

    path = tmp_path / "boards.pbn"
    assert main(["deal", "--count", "2", "--seed", "1", "-o", str(path)]) == 0
    before = path.read_text(encoding="utf-8")
    capsys.readouterr()

    def refused(*_: object, **__: object) -> tuple[int, str]:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refused)
    _, lines = two_lines(capsys, main(["deal", "--count", "3", "--seed", "2", "-o",
                                       str(path)]))
    assert f"cannot write '{path}': Permission denied (nothing written there)" in lines[0]
    assert path.read_text(encoding="utf-8") == before


# --- deals per run against the free memory ------------------------------------------------
@pytest.mark.parametrize(("argv", "said", "fit"), [
    (["deal", "--count", "20000", "--seed", "1", "-o", "x.pbn"], "--count 20,000",
     13_107),  # 4 KB a board
    (["simulate", "--a", "sbu-level1", "--b", "sbu-level1", "--deals", "5000", "--no-plots"],
     "--deals 5,000", 3_276),  # 16 KB a board: the results are held until the report
])
def test_more_boards_than_the_free_memory_holds(capsys: Capsys, monkeypatch: pytest.MonkeyPatch,
                                                argv: list[str], said: str, fit: int) -> None:
    import bidbox.sim.deals as deals

    monkeypatch.setattr(deals, "available_memory", lambda: 64 << 20)
    _, lines = two_lines(capsys, main(argv))
    assert f"{said} needs about" in lines[0]
    assert f"and 64.0 MB is free: {fit:,} boards fit" in lines[0]


def test_free_memory_is_read_from_proc() -> None:
    from bidbox.sim.deals import available_memory

    free = available_memory()
    if Path("/proc/meminfo").exists():
        assert free is not None and free > 1 << 20
    else:
        assert free is None


# --- nothing written into the user's folder -------------------------------------------------
@pytest.mark.parametrize("call", ["solve_cells", "full_tables"])
def test_dds_failure_leaves_no_dump_in_the_working_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, call: str) -> None:
    """DDS writes its input to ./dump.txt when a call fails; the user's folder never sees it
    (and their own dump.txt is not overwritten)."""
    from bidbox.core.calls import Strain
    from bidbox.core.seats import Seat
    from bidbox.errors import DoubleDummyError
    from bidbox.sim import double_dummy

    monkeypatch.chdir(tmp_path)
    (tmp_path / "dump.txt").write_text("the user's own", encoding="utf-8")
    suits = "AKQJT98765432"
    bad = f"N:{suits}... {suits}... ..{suits}. ...{suits}"  # spades twice, no hearts
    with pytest.raises(DoubleDummyError, match="Cards duplicated"):
        if call == "solve_cells":
            double_dummy.solve_cells([bad], [[(Strain.S, Seat.N)]])
        else:
            double_dummy.full_tables([bad])
    assert os.getcwd() == str(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dump.txt"]
    assert (tmp_path / "dump.txt").read_text(encoding="utf-8") == "the user's own"
