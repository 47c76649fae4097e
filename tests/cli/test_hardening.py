"""Hostile and careless input through the command line (issue 17): each case ends with
exit status 2 and a short message naming the place, never a traceback."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from bidbox.cli.main import main

Capsys = pytest.CaptureFixture[str]


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory,
                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Compiles here go to a cache of their own, never the user's."""
    monkeypatch.setenv("BIDBOX_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def fails_cleanly(capsys: Capsys, *argv: str) -> str:
    """Run the CLI, check it refused with status 2 in one or two lines (besides the quoted
    source line and its caret), and return the message (stderr)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    err = captured.err
    assert code == 2, (code, captured.out, err)
    assert "Traceback" not in err and "Error:" not in err.split("error:", 1)[0]
    said = [line for line in err.strip().splitlines() if not line.startswith("    ")]
    assert 1 <= len(said) <= 2, err
    return err


# --- 1. system files that are not UTF-8 text, or cannot be read ------------------------
NOT_UTF8 = {
    "latin-1": "system x\n# café\n".encode("latin-1"),
    "utf-16": "system x\n".encode("utf-16"),
    "utf-16-le": "system x\n".encode("utf-16-le"),
    "binary": bytes(range(256)),
}


@pytest.mark.parametrize("kind", sorted(NOT_UTF8))
def test_system_file_not_utf8(tmp_path: Path, capsys: Capsys, kind: str) -> None:
    path = tmp_path / "sys.bbx"
    path.write_bytes(NOT_UTF8[kind])
    err = fails_cleanly(capsys, "lint", "--system", str(path))
    assert re.search(re.escape(str(path)) + r":\d+:\d+: error: not (UTF-8 )?text \(byte "
                     r"0x[0-9a-f]{2} at offset \d+", err), err


def test_not_utf8_names_line_column_and_offset(tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / "sys.bbx"
    path.write_bytes(b"system x\ndef a = hcp 12+ # caf\xe9\n")
    err = fails_cleanly(capsys, "lint", "--system", str(path))
    assert f"{path}:2:22: error: not UTF-8 text (byte 0xe9 at offset 30)" in err


@pytest.mark.parametrize("directive", ["include", "base"])
def test_not_utf8_through_include_or_base(tmp_path: Path, capsys: Capsys,
                                          directive: str) -> None:
    (tmp_path / "sys.bbx").write_text(f'system x\n{directive} "other.bbx"\n1C  hcp 12+\n',
                                      encoding="utf-8")
    (tmp_path / "other.bbx").write_bytes(b"def a = hcp 12+\n\xff\xfe\n")
    err = fails_cleanly(capsys, "lint", "--system", str(tmp_path / "sys.bbx"))
    assert "other.bbx:2:1: error: not UTF-8 text (byte 0xff at offset 16)" in err


@pytest.mark.parametrize("command", [["lint"], ["card"], ["bid", "--hand", "AKQ2.J54.T9.8765"]])
def test_not_utf8_in_every_command(tmp_path: Path, capsys: Capsys, command: list[str]) -> None:
    path = tmp_path / "sys.bbx"
    path.write_bytes(NOT_UTF8["latin-1"])
    err = fails_cleanly(capsys, *command, "--system", str(path))
    assert "not UTF-8 text" in err


def test_not_utf8_in_simulate(tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / "sys.bbx"
    path.write_bytes(NOT_UTF8["latin-1"])
    err = fails_cleanly(capsys, "simulate", "--a", str(path), "--b", "sbu-level1",
                        "--deals", "1", "--workers", "1")
    assert f"{path}:2:6: error: not UTF-8 text" in err


def test_unreadable_system_file(tmp_path: Path, capsys: Capsys,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    # Tests may run as root, for whom chmod 000 still reads: refuse the read instead.
    path = tmp_path / "sys.bbx"
    path.write_text("system x\n1C  hcp 12+\n", encoding="utf-8")
    real = Path.read_bytes

    def refuse(self: Path) -> bytes:
        if self.name == "sys.bbx":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", refuse)
    err = fails_cleanly(capsys, "lint", "--system", str(path))
    assert f"{path}:1:1: error: cannot read the file: Permission denied" in err


def test_include_that_is_a_folder(tmp_path: Path, capsys: Capsys) -> None:
    (tmp_path / "sys.bbx").write_text('system x\ninclude "other.bbx"\n1C  hcp 12+\n',
                                      encoding="utf-8")
    (tmp_path / "other.bbx").mkdir()
    err = fails_cleanly(capsys, "lint", "--system", str(tmp_path / "sys.bbx"))
    assert "sys.bbx:2:" in err and "other.bbx" in err


def test_utf8_system_file_still_loads(tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / "sys.bbx"
    path.write_text("system x\n# café, naïve\n1C  hcp 12+ \"opening\"\n", encoding="utf-8")
    assert main(["lint", "--system", str(path)]) in (0, 1)
    assert "Traceback" not in capsys.readouterr().err


# --- 2. constraints nesting too deeply -------------------------------------------------
def write_system(tmp_path: Path, body: str) -> str:
    path = tmp_path / "deep.bbx"
    path.write_text("system deep\n" + body + '1C  hcp 12+ "opening"\n', encoding="utf-8")
    return str(path)


def test_deep_parentheses_in_a_def(tmp_path: Path, capsys: Capsys) -> None:
    path = write_system(tmp_path, "def a = " + "(" * 300 + "hcp 12+" + ")" * 300 + "\n")
    err = fails_cleanly(capsys, "lint", "--system", path)
    # The 51st parenthesis, after 'def a = ' (8 characters) and 50 more.
    assert f"{path}:2:59: error: constraint nests too deeply (more than 50 levels" in err


def test_deep_parentheses_in_a_call_line(tmp_path: Path, capsys: Capsys) -> None:
    path = write_system(tmp_path, "1D  " + "(" * 260 + "hcp 12+" + ")" * 260 + ' "x"\n')
    err = fails_cleanly(capsys, "lint", "--system", path)
    assert f"{path}:2:" in err and "nests too deeply" in err


def test_parentheses_at_the_limit_still_compile(tmp_path: Path, capsys: Capsys) -> None:
    nested = "hcp 12+"
    for i in range(50):  # alternating and/or: every level is a level of the tree
        nested = f"(4+S {',' if i % 2 else '|'} {nested})"
    path = write_system(tmp_path, f"def a = {nested}\n")
    assert main(["lint", "--system", path]) in (0, 1)
    assert "error" not in capsys.readouterr().err


def test_a_thousand_nots(tmp_path: Path, capsys: Capsys) -> None:
    """'not' is read in a loop: any number of them is a valid constraint, and an even
    number cancels out (450 fill a line to near the 2,000-character limit)."""
    path = write_system(tmp_path, "def a = " + "not " * 450 + "hcp 12+\n"
                        + "def b = " + "not " * 451 + "hcp 12+\n")
    assert main(["lint", "--system", path]) in (0, 1)
    assert "Traceback" not in capsys.readouterr().err
    from bidbox.lang import load_system

    system = load_system(path)
    assert system.root is not None
    from bidbox.lang.compiler import compile_text

    compiled = compile_text(Path(path).read_text(encoding="utf-8")
                            + "1H  a \"x\"\n1S  b \"y\"\n", path)
    shows = {str(e.call): str(e.shows) for e in compiled.root.calls}
    assert shows["1H"] == "hcp 12+" and shows["1S"] == "not hcp 12+"


@pytest.mark.parametrize("shape", [
    "def d{i} = d{j}\n",                                 # a plain chain
    "def d{i} = hcp 1+ | (4+S, (3+H | (d{j}, 2+C)))\n",  # each def three levels deeper
    "def d{i} = not (d{j}, 4+S)\n",
])
def test_long_def_chains(tmp_path: Path, capsys: Capsys, shape: str) -> None:
    body = "".join(shape.format(i=i, j=i + 1) for i in range(1000)) + "def d1000 = hcp 12+\n"
    path = write_system(tmp_path, body)
    err = fails_cleanly(capsys, "lint", "--system", path)
    assert f"{path}:2:1: error: constraint nests too deeply (more than 50 levels through " \
           "the defs d0 -> ... -> d" in err
    assert "1 problem in system file" in err  # one message for the chain, not one per def


def test_def_chain_within_the_limit(tmp_path: Path, capsys: Capsys) -> None:
    body = "".join(f"def d{i} = d{i + 1}\n" for i in range(40)) + "def d40 = hcp 12+\n"
    path = write_system(tmp_path, body)
    assert main(["lint", "--system", path]) in (0, 1)
    assert "error" not in capsys.readouterr().err


@pytest.mark.parametrize(("where", "column"), [
    ("(" * 300 + "hcp 12+" + ")" * 300, 51),             # the 51st parenthesis
    ("(hcp 12+ | " * 300 + "4+S" + ")" * 300, 50 * 11 + 1),
])
def test_deep_where(tmp_path: Path, capsys: Capsys, where: str, column: int) -> None:
    out = tmp_path / "x.pbn"
    err = fails_cleanly(capsys, "deal", "--count", "2", "--seed", "1", "--where", where,
                        "-o", str(out))
    assert f"at column {column}: constraint nests too deeply" in err
    assert len(err) < 400  # the constraint is not echoed whole
    assert not out.exists()


def test_many_nots_in_where(tmp_path: Path, capsys: Capsys) -> None:
    out = tmp_path / "x.pbn"
    assert main(["deal", "--count", "2", "--seed", "1", "--where",
                 "not " * 1001 + "hcp 12+", "-o", str(out)]) == 0
    assert "where North has not hcp 12+" in capsys.readouterr().err


# --- 3. seeds and counts the dealer cannot take ---------------------------------------
@pytest.mark.parametrize(("argv", "expected"), [
    (["--count", "2", "--seed", "-1"], "--seed must be a whole number from 0 to 2**64-1, not -1"),
    (["--count", "2", "--seed", str(2**64)], "--seed must be a whole number from 0 to 2**64-1"),
    (["--count", "-3"], "--count must be 0 or more, not -3"),
    (["--count", "1000000000"], "--count 1,000,000,000 is more than the 1,000,000 boards"),
])
def test_deal_count_and_seed(tmp_path: Path, capsys: Capsys, argv: list[str],
                             expected: str) -> None:
    out = tmp_path / "x.pbn"
    err = fails_cleanly(capsys, "deal", *argv, "-o", str(out))
    assert expected in err
    assert not out.exists()


def test_deal_count_cap_says_why(tmp_path: Path, capsys: Capsys) -> None:
    err = fails_cleanly(capsys, "deal", "--count", "1000001", "--seed", "1",
                        "-o", str(tmp_path / "x.pbn"))
    assert "held in memory" in err and "different seeds" in err


def test_deal_largest_seed_works(tmp_path: Path, capsys: Capsys) -> None:
    out = tmp_path / "x.pbn"
    assert main(["deal", "--count", "2", "--seed", str(2**64 - 1), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").count("[Deal ") == 2


@pytest.mark.parametrize(("argv", "expected"), [
    (["--deals", "2", "--seed", "-1"], "--seed must be a whole number"),
    (["--deals", "1000000000"], "--deals 1,000,000,000 is more than the 1,000,000 boards"),
])
def test_simulate_count_and_seed(capsys: Capsys, argv: list[str], expected: str) -> None:
    err = fails_cleanly(capsys, "simulate", "--a", "sbu-level1", "--b", "sbu-level1",
                        "--workers", "1", "--no-plots", *argv)
    assert expected in err


# --- 4. board numbers out of range in a PBN file ---------------------------------------
def pbn_with_board_number(tmp_path: Path, number: str) -> Path:
    source = tmp_path / "dealt.pbn"
    assert main(["deal", "--count", "3", "--seed", "5", "-o", str(source)]) == 0
    path = tmp_path / "boards.pbn"
    path.write_text(source.read_text(encoding="utf-8").replace('[Board "2"]',
                                                               f'[Board "{number}"]'),
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("number", ["99999999999999999999", "2147483648", "-5"])
def test_pbn_board_number_out_of_range(tmp_path: Path, capsys: Capsys, number: str) -> None:
    path = pbn_with_board_number(tmp_path, number)
    capsys.readouterr()
    err = fails_cleanly(capsys, "simulate", "--a", "sbu-level1", "--b", "sbu-level1",
                        "--boards", str(path), "--workers", "1", "--no-plots")
    assert re.search(re.escape(str(path)) + r":\d+ \(board 2 of the file\): \[Board \""
                     + re.escape(number) + r"\"\]: a board number is 1 to 2,147,483,647", err)


def test_pbn_largest_board_number_is_read(tmp_path: Path) -> None:
    from bidbox.sim.deals import read_pbn_boards

    boards = read_pbn_boards(pbn_with_board_number(tmp_path, str(2**31 - 1)))
    assert [int(n) for n in boards.numbers] == [1, 2**31 - 1, 3]


# --- 5. stdout that cannot be written --------------------------------------------------
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["systems"], ["eval", "AKQ2.J54.T9.8765", "--json"]])
def test_stdout_full(argv: list[str]) -> None:
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "bidbox.cli.main", *argv], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (f"bidbox {argv[0]}: error: cannot write the output: "
                                   "No space left on device")


def test_stdout_closed_early() -> None:
    """A reader that stops early (`bidbox systems | head -1`) is not an error."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "bidbox.cli.main", "systems"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # nothing read: the first write meets a closed pipe
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0 and err == ""


# --- 6. results that cannot be written -------------------------------------------------
SIMULATE = ["simulate", "--a", "sbu-level1", "--b", "sbu-level1", "--deals", "3",
            "--seed", "4", "--workers", "1"]


def test_report_json_is_a_folder(tmp_path: Path, capsys: Capsys) -> None:
    out = tmp_path / "run"
    (out / "report.json").mkdir(parents=True)
    code = main([*SIMULATE, "--no-plots", "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 2
    assert "IMP" in captured.out or "imp" in captured.out.lower()  # the report was printed
    first, saved = captured.err.strip().splitlines()
    assert first == (f"bidbox simulate: error: cannot write '{out / 'report.json'}': "
                     "Is a directory")
    assert saved.strip().startswith(f"saved complete in '{out}': sim.sqlite (3 boards);")
    # The boards are kept: a rerun plays none again.
    (out / "report.json").rmdir()
    assert main([*SIMULATE, "--no-plots", "--out", str(out), "--json"]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert data == json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert main([*SIMULATE, "--no-plots", "--out", str(out)]) == 0
    assert "0 boards played now, 3 from the store" in capsys.readouterr().out


def test_plots_cannot_be_written(tmp_path: Path, capsys: Capsys,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import bidbox.sim.runner as runner

    def full_disk(*_: object) -> list[Path]:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(runner, "write_plots", full_disk)
    out = tmp_path / "run"
    code = main([*SIMULATE, "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err.strip().splitlines() == [
        f"bidbox simulate: error: cannot write plots in '{out}': No space left on device",
        f"  saved complete in '{out}': sim.sqlite (3 boards), report.json; a rerun writes "
        "the rest without playing the boards again"]
    assert (out / "report.json").is_file()  # the report is not lost with the plots
    assert "written to" in captured.out and "report.json" in captured.out


# --- 7. a read-only results folder that already holds every board ---------------------
def _store_read_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The store opened read-only, as SQLite opens it in a folder one may not write: as
    root chmod does not stop writes, so the refusal is made by SQLite itself."""
    import sqlite3

    import bidbox.sim.store as store

    real = sqlite3.connect

    class ReadOnly:
        Error = sqlite3.Error
        OperationalError = sqlite3.OperationalError

        @staticmethod
        def connect(path: str) -> sqlite3.Connection:
            return real(f"file:{path}?mode=ro", uri=True)

    monkeypatch.setattr(store, "sqlite3", ReadOnly)


def test_read_only_store_still_reports(tmp_path: Path, capsys: Capsys,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "run"
    assert main([*SIMULATE, "--no-plots", "--out", str(out)]) == 0
    first = capsys.readouterr().out
    _store_read_only(monkeypatch)
    assert main([*SIMULATE, "--no-plots", "--out", str(out)]) == 0
    again = capsys.readouterr()
    assert "0 boards played now, 3 from the store" in again.out
    imps = [line for line in first.splitlines() if line.startswith("IMPs per board")]
    assert imps and imps[0] in again.out  # the same report, read from the store
    # More boards than the store holds: said before any board is played, one line.
    err = fails_cleanly(capsys, *SIMULATE[:-4], "--deals", "5", "--seed", "4", "--workers",
                        "1", "--no-plots", "--out", str(out))
    assert "cannot store 2 new board(s)" in err and "read-only" in err


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="chmod does not stop root from writing")
def test_read_only_folder_still_reports(tmp_path: Path, capsys: Capsys) -> None:
    out = tmp_path / "run"
    assert main([*SIMULATE, "--no-plots", "--out", str(out)]) == 0
    capsys.readouterr()
    for path in (out / "sim.sqlite", out / "report.json", out):
        path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        code = main([*SIMULATE, "--no-plots", "--out", str(out)])
        captured = capsys.readouterr()
    finally:
        out.chmod(0o755)
    assert "0 boards played now, 3 from the store" in captured.out
    assert "readonly database" not in captured.err and "Traceback" not in captured.err
    assert code in (0, 2)  # 2 only for a report.json that cannot be rewritten, said in a line


def test_second_match_into_one_folder_keeps_the_first_report(tmp_path: Path,
                                                             capsys: Capsys) -> None:
    import json

    out = tmp_path / "run"
    assert main([*SIMULATE, "--no-plots", "--out", str(out)]) == 0
    first = json.loads((out / "report.json").read_text(encoding="utf-8"))
    other = ["simulate", "--a", "sbu-level1", "--b", "sbu-level1", "--deals", "3",
             "--seed", "5", "--workers", "1", "--no-plots", "--out", str(out)]
    assert main(other) == 0
    said = capsys.readouterr().out
    assert json.loads((out / "report.json").read_text(encoding="utf-8")) == first
    written = [p.name for p in out.glob("report-*.json")]
    assert len(written) == 1 and written[0] in said


# --- 8. limits on system files -----------------------------------------------------------
def test_fifty_megabyte_system_file_is_refused_at_once(tmp_path: Path, capsys: Capsys) -> None:
    import time

    path = tmp_path / "big.bbx"
    with path.open("wb") as out:  # sparse: nothing is written, the size is what counts
        out.truncate(50 * 2**20)
    started = time.perf_counter()
    err = fails_cleanly(capsys, "lint", "--system", str(path))
    assert time.perf_counter() - started < 10
    assert (f"{path}:1:1: error: the file is 52,428,800 bytes, more than the limit of "
            "2,000,000 for a system file") in err


def test_repeated_lines_stop_at_the_problem_limit(tmp_path: Path, capsys: Capsys) -> None:
    """A file of repeated lines once wrote 1.7 GB of errors (one per pair of copies)."""
    path = tmp_path / "rep.bbx"
    path.write_text("system x\n" + '1C  hcp 12+ "o"\n' * 1100, encoding="utf-8")
    err = capsys.readouterr().err if main(["lint", "--system", str(path)]) != 2 else ""
    err = err or capsys.readouterr().err
    assert err.startswith("bidbox lint: error: 1,000 problems in system file, the limit: "
                          "the compile stopped there"), err[:300]
    assert err.count(" is defined twice at this point") == 50
    assert err.strip().endswith("... and 950 more before the compile stopped")
    assert len(err) < 20_000


def test_problems_beyond_fifty_are_counted(tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / "rep.bbx"
    path.write_text("system x\n" + '1C  hcp 12+ "o"\n' * 80, encoding="utf-8")
    assert main(["lint", "--system", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bidbox lint: error: 79 problems in system file:")
    assert err.count(" is defined twice at this point") == 50  # n copies: n-1 problems
    assert err.strip().endswith("... and 29 more")


def test_line_too_long(tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / "long.bbx"
    path.write_text('system x\n1C  hcp 12+ "' + "x" * 2100 + '"\n', encoding="utf-8")
    err = fails_cleanly(capsys, "lint", "--system", str(path))
    assert (f"{path}:2:2001: error: line 2 is 2,114 characters long, more than the limit "
            "of 2,000") in err


# --- 9. byte-order mark and line ends ----------------------------------------------------
SMALL = '1C  hcp 12+, 3+C "opening"\n  1D  hcp 6+ "response"\n1NT  hcp 15-17, balanced "x"\n'


@pytest.mark.parametrize(("kind", "data"), [
    ("bom", b"\xef\xbb\xbf" + ("system x\n" + SMALL).encode()),
    ("cr", ("system x\n" + SMALL).replace("\n", "\r").encode()),
    ("crlf", ("system x\n" + SMALL).replace("\n", "\r\n").encode()),
    ("bom-crlf", b"\xef\xbb\xbf" + ("system x\n" + SMALL).replace("\n", "\r\n").encode()),
])
def test_system_file_bom_and_line_ends(tmp_path: Path, kind: str, data: bytes) -> None:
    from bidbox.lang import load_system

    path = tmp_path / f"{kind}.bbx"
    path.write_bytes(data)
    system = load_system(str(path))
    assert system.name == "x"
    calls = {str(e.call) for e in system.root.calls}
    assert calls == {"1C", "1NT"}
    [one_club] = [e for e in system.root.calls if str(e.call) == "1C"]
    assert one_club.location.line == 2  # the lines counted as the file has them


def test_error_line_in_a_cr_file(tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / "cr.bbx"
    path.write_bytes(b"system x\r1C  hcp 12+ \"o\"\r1D  hcpp 10+ \"d\"\r")
    err = fails_cleanly(capsys, "lint", "--system", str(path))
    assert f"{path}:3:5: error: unknown measure 'hcpp'" in err


def test_not_utf8_in_a_cr_file_names_the_line(tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / "cr.bbx"
    path.write_bytes(b"system x\r1C  hcp 12+ \"caf\xe9\"\r")
    err = fails_cleanly(capsys, "lint", "--system", str(path))
    assert f"{path}:2:17: error: not UTF-8 text (byte 0xe9 at offset 25)" in err


@pytest.mark.parametrize("ending", ["\r", "\r\n"])
def test_pbn_line_ends(tmp_path: Path, ending: str) -> None:
    from bidbox.formats.pbn import read_boards
    from bidbox.sim.deals import read_pbn_boards

    source = CORPUS / "cr-line-ends.pbn"
    text = source.read_bytes().decode().replace("\r", "\n")
    path = tmp_path / "boards.pbn"
    path.write_bytes(text.replace("\n", ending).encode())
    boards = read_pbn_boards(path)
    assert [int(n) for n in boards.numbers] == [1, 2, 3]
    assert len(read_boards(path)) == 3


# --- 10. the system a file says -------------------------------------------------------
@pytest.mark.parametrize("text", ["", "system x\n", 'system x\ntitle "t"\n# nothing\n',
                                  'module m\n  1C  hcp 12+ "x"\n'])
def test_empty_system_is_an_error(tmp_path: Path, capsys: Capsys, text: str) -> None:
    path = tmp_path / "empty.bbx"
    path.write_text(text, encoding="utf-8")
    err = fails_cleanly(capsys, "check", "--system", str(path))
    assert f"{path}:1:1: error: the system defines no calls" in err
    assert "level" not in capsys.readouterr().out


@pytest.mark.parametrize(("where", "suits"), [
    ("5+M, 5+oM", (0, 1)), ("5+m, 5+om", (2, 3)), ("4+M, 4+oM, hcp 0+", (0, 1))])
def test_where_both_suits_of_a_pair(tmp_path: Path, capsys: Capsys, where: str,
                                    suits: tuple[int, int]) -> None:
    """A variable and its 'other' name two different suits of one hand: both majors."""
    from bidbox.core.hand import Hand

    out = tmp_path / "x.pbn"
    assert main(["deal", "--count", "20", "--seed", "3", "--where", where, "-o", str(out)]) == 0
    least = int(where[0])
    norths = [Hand.parse(line.split('"')[1][2:].split()[0])
              for line in out.read_text(encoding="utf-8").splitlines()
              if line.startswith("[Deal ")]
    assert len(norths) == 20
    for hand in norths:
        lengths = [bin(m).count("1") for m in hand.suits]
        assert all(lengths[s] >= least for s in suits), (hand, where)


def test_where_any_two_suits(tmp_path: Path) -> None:
    from bidbox.core.hand import Hand

    out = tmp_path / "x.pbn"
    assert main(["deal", "--count", "20", "--seed", "3", "--where", "5+Z, 5+Y",
                 "-o", str(out)]) == 0
    for line in out.read_text(encoding="utf-8").splitlines():
        if line.startswith("[Deal "):
            hand = Hand.parse(line.split('"')[1][2:].split()[0])
            assert sum(bin(m).count("1") >= 5 for m in hand.suits) >= 2, hand


def test_system_file_reads_both_majors_the_same_way(tmp_path: Path) -> None:
    from bidbox.lang import load_system

    path = tmp_path / "x.bbx"
    path.write_text('system x\n2C  5+M, 5+oM "both majors"\n', encoding="utf-8")
    [entry] = load_system(str(path)).root.calls
    assert str(entry.shows) in ("5+H, 5+S | 5+S, 5+H", "5+H, 5+S")


def test_impossible_length_is_an_error(tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / "x.bbx"
    path.write_text('system x\n1C  9999999999+S "x"\n', encoding="utf-8")
    err = fails_cleanly(capsys, "lint", "--system", str(path))
    assert f"{path}:2:5: error: impossible length '9999999999+S'" in err


def test_broken_module_never_used_is_an_error(tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / "x.bbx"
    path.write_text('system x\nmodule never\n  8C  hcpp 99-1 "x"\n1C  hcp 12+ "x"\n',
                    encoding="utf-8")
    err = fails_cleanly(capsys, "lint", "--system", str(path))
    assert f"{path}:3:" in err


def test_impossible_hcp_is_an_error(tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / "x.bbx"
    path.write_text('system x\n1C  hcp 99999999999999+ "x"\n', encoding="utf-8")
    err = fails_cleanly(capsys, "lint", "--system", str(path))
    assert f"{path}:2:5: error: impossible range 'hcp 99999999999999+'" in err


# --- 11. boards -------------------------------------------------------------------------
CORPUS = Path(__file__).parents[1] / "data" / "fuzz"


def test_boards_without_blank_lines_are_all_read(capsys: Capsys) -> None:
    from bidbox.formats.pbn import read_boards
    from bidbox.sim.deals import read_pbn_boards

    path = CORPUS / "no-blank-lines.pbn"
    boards = read_pbn_boards(path)
    assert [int(n) for n in boards.numbers] == [1, 2, 3]
    assert boards.places == (f"{path}:3", f"{path}:18", f"{path}:33")  # the file's lines
    assert len(read_boards(path)) == 3


@pytest.mark.parametrize(("name", "expected"), [
    ("card-in-two-hands.pbn", "(board 1): the card SK is in both N's and E's hands"),
    ("card-twice-in-a-suit.pbn", "(board 1): N's hand: hand 'KJ972K.A9.QJ4.A9': card 'K' "
                                 "appears twice in suit 'KJ972K'"),
    ("card-missing.pbn", "(board 1): N's hand:"),
])
def test_bad_deal_named_before_dds(capsys: Capsys, name: str, expected: str) -> None:
    path = CORPUS / name
    err = fails_cleanly(capsys, "simulate", "--a", "sbu-level1", "--b", "sbu-level1",
                        "--boards", str(path), "--workers", "1", "--no-plots")
    assert f"{path}:3 {expected}" in err
    assert "DDS" not in err


def test_pbn_errors_in_plain_words(capsys: Capsys) -> None:
    path = CORPUS / "text-board-number.pbn"
    err = fails_cleanly(capsys, "simulate", "--a", "sbu-level1", "--b", "sbu-level1",
                        "--boards", str(path), "--workers", "1", "--no-plots")
    assert "'two' is not a whole number" in err and "invalid literal" not in err


# --- 12. messages -----------------------------------------------------------------------
@pytest.mark.parametrize("hand", ["A" * 100_000, "AK\x01\x02\x7f.QJ.\x00.x", "K" * 5000 + "."])
def test_long_or_binary_hand_is_quoted_short(capsys: Capsys, hand: str) -> None:
    err = fails_cleanly(capsys, "eval", hand)
    assert len(err) < 300 and "\x01" not in err and "\x00" not in err


def test_long_auction_is_quoted_short(capsys: Capsys) -> None:
    err = fails_cleanly(capsys, "explain", "--system", "sbu-level1", "--auction",
                        "1C " + "(" * 50_000)
    assert len(err) < 400


def test_hand_starting_with_a_void(capsys: Capsys) -> None:
    assert main(["eval", "-.AKQJT98765432.-.-"]) == 0
    assert "hand .AKQJT98765432.." in capsys.readouterr().out


def test_hand_starting_with_a_void_as_an_option_value(capsys: Capsys) -> None:
    assert main(["bid", "--system", "sbu-level1", "--hand", "-.AKQJT98765432.-.-"]) == 0
    assert "N bids" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["eval", "-Z"], ["eval", "AKQ2.J54.T9.8765", "-Z"],
                                  ["bid", "--system", "sbu-level1", "--hand", "-Z"]])
def test_unknown_option_says_how_to_pass_a_void_hand(capsys: Capsys, argv: list[str]) -> None:
    assert run_cli(argv) == 2
    err = capsys.readouterr().err
    assert "'-.AKQJT98765432.-.-'" in err and "'--'" in err and "Traceback" not in err


def test_unknown_arguments_are_quoted_short(capsys: Capsys) -> None:
    """argparse quotes unrecognised arguments whole (found by the command-line fuzzer)."""
    assert run_cli(["eval", "AKQ2.J54.T9.8765", "not " * 5000]) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("bidbox: error: unrecognized arguments: not not") and len(err) < 300


def test_options_still_parse_beside_a_void_hand(capsys: Capsys) -> None:
    assert main(["eval", "-.AKQJT98765432.-.-", "--json"]) == 0
    assert '"hcp": 10' in capsys.readouterr().out


def test_illegal_auction_is_exit_2(capsys: Capsys) -> None:
    err = fails_cleanly(capsys, "auction", "1C 1C")
    assert "auction '1C 1C': call 2 '1C'" in err and "insufficient" in err
    assert capsys.readouterr().out == ""


def test_illegal_auction_json_still_gives_the_legal_prefix(capsys: Capsys) -> None:
    import json

    code = main(["auction", "1S P 1H", "--json"])
    captured = capsys.readouterr()
    assert code == 2 and "call 3 '1H'" in captured.err
    assert json.loads(captured.out)["next_seat"] == "S"


def run_cli(argv: list[str]) -> int:
    """main's status, also when argparse refuses a value (it exits with status 2)."""
    try:
        return main(argv)
    except SystemExit as stop:
        return int(stop.code or 0)


@pytest.mark.parametrize("level", ["0", "6", "99"])
def test_check_level_is_1_to_5(capsys: Capsys, level: str) -> None:
    code = run_cli(["check", "--system", "sbu-level1", "--level", level])
    captured = capsys.readouterr()
    assert code == 2 and "permitted" not in captured.out
    assert "--level" in captured.err


@pytest.mark.parametrize("argv", [
    ["deal", "--count", "2", "--seed", "1", "--where", ""],
    ["simulate", "--a", "sbu-level1", "--b", "sbu-level1", "--deals", "2", "--workers", "1",
     "--no-plots", "--out", ""],
    ["check", "--system", "sbu-level1", "--regulation", ""],
])
def test_empty_arguments_are_refused(tmp_path: Path, capsys: Capsys, argv: list[str]) -> None:
    if argv[0] == "deal":
        argv = [*argv, "-o", str(tmp_path / "x.pbn")]
    code = run_cli(argv)
    captured = capsys.readouterr()
    assert code == 2, captured.out[:300]
    assert "must not be empty" in captured.err or "unknown regulation ''" in captured.err


def test_lint_compiles_every_option_value(tmp_path: Path, capsys: Capsys) -> None:
    """A mistake only in an option's branch is found with the default options too (19
    broken variants once passed until the option was switched on)."""
    path = tmp_path / "opt.bbx"
    path.write_text('system x\noption strong-nt "a strong no-trump"\n1C  hcp 12+ "x"\n'
                    '1NT  hcp 12-14, balanced "weak" [unless strong-nt]\n'
                    '1NT  hcp 15-17, balanced "strong" [if strong-nt]\n'
                    '1NT  hcp 15-17, balanced "again" [if strong-nt]\n', encoding="utf-8")
    main(["lint", "--system", str(path)])
    out = capsys.readouterr().out
    assert f"{path}:6:1: error: compile: with --option strong-nt: 1NT is defined twice" in out


def test_repeated_note_tags_stay_in_their_board() -> None:
    """Only a second [Event], [Board] or [Deal] starts a board: [Note] tags repeat."""
    from bidbox.core.boardtext import original_line, separate_pbn_boards

    board = ('[Board "1"]\n[Deal "N:AKQJ.T98.765.432 - - -"]\n[Auction "N"]\n1C =1= 1D =2=\n'
             '[Note "1:clubs"]\n[Note "2:diamonds"]\n')
    text, added = separate_pbn_boards(board + board.replace('"1"]', '"2"]', 1))
    assert added == [7] and text.split("\n")[6] == ""
    assert original_line(8, added) == 7  # the second [Board] tag, as the file numbers it


def test_pbn_annotation_glyphs_are_read_past(tmp_path: Path) -> None:
    """World-championship records annotate calls and cards with ``$n`` glyphs; endplay
    reads each as a call ("'$' is not a whole number"). They are dropped from the auction
    and play sections only, so a board's calls and line numbers stay as written."""
    from bidbox.core.boardtext import pbn_for_endplay
    from bidbox.formats.pbn import read_boards
    from bidbox.sim.deals import read_pbn_boards

    board = ('[Event "$1 trials"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "All"]\n'
             '[Deal "N:K8.KJT953.9.JT63 QJ93..876543.742 T65.Q42.QT.AKQ85 '
             'A742.A876.AKJ2.9"]\n[Auction "N"]\n3H! $1 Pass Pass $12 X\nPass Pass Pass\n'
             '[Contract "3HX"]\n[Declarer "N"]\n[Result "9"]\n')
    text, added = pbn_for_endplay(board)
    assert added == [] and text.count("\n") == board.count("\n")
    assert "3H! Pass Pass X" in text and '[Event "$1 trials"]' in text  # tags untouched
    path = tmp_path / "nag.pbn"
    path.write_text(board, encoding="utf-8")
    assert len(read_pbn_boards(path)) == 1
    [record] = read_boards(path)
    assert [str(b) for b in record.auction] == ["3♥", "P", "P", "X", "P", "P", "P"]


def test_pbn_comments_tens_and_no_calls_of_other_programs(tmp_path: Path) -> None:
    """Files from other programs comment calls (``{...}``, over several lines too, and
    ``;`` to the line's end), write a ten as ``10`` and start the auction table with a
    seat before the dealer, writing ``-`` for no call. endplay failed on the comments and
    the ``10`` ("'{' is not a whole number") and read the ``-`` auction as none; the calls,
    the alert notes and the line numbers now come through as written."""
    from bidbox.core import Hand, Seat
    from bidbox.core.boardtext import pbn_for_endplay
    from bidbox.formats.pbn import read_boards
    from bidbox.sim.deals import read_pbn_boards

    board = ('[Board "2"]\n[Dealer "E"]\n[Vulnerable "NS"]\n'
             '[Deal "N:K8.KJ10953.9.J1063 QJ93..876543.742 1065.Q42.Q10.AKQ85 '
             'A742.A876.AKJ2.9"]\n[Auction "N"]\n- 1C =1= {short\nclub, maybe} Pass 1S\n'
             '{a comment line} ; and another\nPass 4S Pass Pass ; the end\nPass\n'
             '[Note "1:3+ clubs; 11-21"]\n[Contract "4S"]\n[Declarer "W"]\n[Result "10"]\n')
    text, added = pbn_for_endplay(board)
    assert added == [] and text.count("\n") == board.count("\n")  # lines kept
    assert '[Auction "E"]' in text and '[Note "1:3+ clubs; 11-21"]' in text
    path = tmp_path / "other.pbn"
    path.write_text(board, encoding="utf-8")
    boards = read_pbn_boards(path)
    assert boards.deals().hand(0, Seat.N) == Hand.parse("K8.KJT953.9.JT63")
    [record] = read_boards(path)
    assert [str(b).rstrip("!*") for b in record.auction] == [
        "1♣", "P", "1♠", "P", "4♠", "P", "P", "P"]
    assert record.auction[0].alertable and "3+ clubs" in record.auction[0].announcement


_VUGRAPH_DEAL = "3S3456H567D567C567,S2H234JD234JC24JQ,SJQKAHQKADQKAC3KA,"
"""North deals; South, West, North given, East completed by the reader."""


def _vugraph(deal: str = _VUGRAPH_DEAL) -> str:
    return (f"vg|Test Cup,Final,I,1,2,Alpha,0,Beta,0|\nrs|3NE+1,4SW-1,,|\n"
            f"pn|s1,w1,n1,e1,s2,w2,n2,e2|pg||\n"
            f"qx|o1|st||md|{deal}|sv|0|nt|commentary before any call|"
            f"mb|1C!|an|strong|mb|p|mb|1D|nt|and after one|mb|d|mb|r|mb|2N|mb|p|mb|3N|"
            f"mb|p|mb|p|mb|p|pg||\npc|S2|pc|SA|pg||mc|10|pg||\n"
            f"qx|c1|md|{deal}|sv|o|pn|s2,w2,n2,x2|mb|p|mb|1S|mb|p|mb|4S|mb|p|mb|p|mb|p|pg||\n"
            f"qx|o2|\n")


def test_a_vugraph_lin_file_reads_as_one_board_per_room(tmp_path: Path) -> None:
    """World-championship records are vugraph LIN files: one ``pn|`` with both rooms'
    eight players heads the file and ``qx|o1|``/``qx|c1|`` begin the boards. endplay
    splits a LIN file at ``pn|`` only, so it read the whole match as one board (the last
    deal, every room's calls in one auction); and it reads commentary (``nt|``) as the
    explanation of the call before it, failing before the first call."""
    from bidbox.core.boardtext import lin_boards
    from bidbox.formats.pbn import read_boards, read_lin_boards

    text = _vugraph()
    cut = lin_boards(text)
    assert [(b.label, b.line) for b in cut] == [("o1", 4), ("c1", 6)]  # o2: no deal
    assert cut[0].text.startswith("pn|s1,w1,n1,e1|ah|Board 1|")
    assert cut[1].text.startswith("pn|s2,w2,n2,x2|ah|Board 1|")
    assert "nt|" not in cut[0].text and "sv|o|" in cut[0].text
    path = tmp_path / "match.lin"
    path.write_text(text, encoding="utf-8")
    open_room, closed_room = read_boards(path)
    assert [str(b) for b in open_room.auction] == [
        "1♣!*", "P", "1♦", "X", "XX", "2NT", "P", "3NT", "P", "P", "P"]
    assert open_room.auction[0].alertable and open_room.auction[0].announcement == "strong"
    assert open_room.auction[2].announcement is None  # the commentary is not an alert
    assert [str(b) for b in closed_room.auction] == ["P", "1♠", "P", "4♠", "P", "P", "P"]
    assert open_room.deal.to_pbn() == closed_room.deal.to_pbn() and open_room.board_num == 1
    assert open_room.info["South"] == "s1" and closed_room.info["South"] == "s2"
    assert closed_room.info["East"] == "x2"  # a substitute named after the deal
    assert [b.line for b, _ in read_lin_boards(path)] == [4, 6]


def test_a_bbo_hand_record_lin_still_reads_board_by_board(tmp_path: Path) -> None:
    """A hand record begins each board with its players (``pn|``), one board a line, as
    endplay writes them: each ``pn|`` after a deal starts the next board."""
    from bidbox.core.boardtext import lin_boards
    from bidbox.formats.pbn import read_boards

    one = f"pn|a,b,c,d|st||md|{_VUGRAPH_DEAL}|sv|b|ah|Board 7|mb|1N|mb|p|mb|p|mb|p|pg||\n"
    text = one + one.replace("Board 7", "Board 8").replace("sv|b|", "")
    assert [(b.label, b.line) for b in lin_boards(text)] == [("7", 1), ("8", 2)]
    path = tmp_path / "record.lin"
    path.write_text(text, encoding="utf-8")
    first, second = read_boards(path)
    assert (first.board_num, second.board_num) == (7, 8)
    assert str(first.vul) != str(second.vul)  # board 8's own, from its number


def test_a_bad_lin_file_names_the_line(tmp_path: Path) -> None:
    from bidbox.formats.pbn import BoardFormatError, read_boards

    path = tmp_path / "bad.lin"
    path.write_text(_vugraph() + "\nthis is not lin\n", encoding="utf-8")
    with pytest.raises(BoardFormatError, match=r"bad\.lin:9: not a readable LIN file"):
        read_boards(path)
    path.write_text(_vugraph(_VUGRAPH_DEAL.replace("S3456", "S3455")), encoding="utf-8")
    with pytest.raises(BoardFormatError, match=r"bad\.lin:4 \(board o1\): not a readable"):
        read_boards(path)


def test_a_vugraph_board_is_read_for_its_auction_past_a_play_endplay_cannot_follow(
        tmp_path: Path) -> None:
    """Vugraph play may be cut short or undone (``up|``); endplay follows the play to
    score it and fails. The replay reads the auctions only, so it leaves the play out; a
    deal written without its dealer digit has its board number's dealer."""
    from bidbox.formats.pbn import BoardFormatError, read_boards, read_lin_boards

    deal = _VUGRAPH_DEAL[1:]  # no dealer digit: board 2 is East's
    text = (f"pn|s1,w1,n1,e1,s2,w2,n2,e2|\nqx|o2|md|{deal}|sv|n|mb|1S|mb|p|mb|p|mb|p|"
            f"pc|D2|up|1|pc|D3|pg||\n")
    path = tmp_path / "cut.lin"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BoardFormatError, match=r"cut\.lin:2 \(board o2\)"):
        read_boards(path)  # the play kept: endplay's error, with the place
    [(cut, record)] = read_lin_boards(path, play=False)
    assert "pc|" not in cut.text and "up|" not in cut.text
    assert record.dealer.abbr == "E" and [str(b) for b in record.auction] == [
        "1♠", "P", "P", "P"]
