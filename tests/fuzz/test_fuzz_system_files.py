"""Fuzzing the system-file reader, parser and compiler (issue 17): any bytes give a
compiled System or a SystemFileError whose every problem has a file, line and column."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given

from bidbox.errors import BidboxError
from bidbox.lang.compiler import compile_text
from bidbox.lang.diagnostics import SystemFileError, decode_system_text, read_system_file
from bidbox.lang.system import System
from tests.fuzz.harness import (
    CORPUS,
    bounded,
    corpus_files,
    fuzz_settings,
    mutated,
    result_or_located_error,
)

SHIPPED = Path(__file__).parents[2] / "src" / "bidbox" / "systems"
FILE = str(CORPUS / "fuzz-input.bbx")  # not on disk: includes resolve in the corpus


def _bases() -> list[bytes]:
    small = [p.read_bytes() for p in corpus_files(".bbx") if p.stat().st_size < 4000]
    # Windows of a real system: its directives, modules, options and nesting.
    lines = (SHIPPED / "sbu-level1.bbx").read_bytes().split(b"\n")
    windows = [b"\n".join(lines[start:start + 60]) for start in (0, 120, 400, 800)]
    return small + windows


BASES = _bases()


def check_system_bytes(data: bytes, file: str = FILE) -> System | BidboxError:
    """Decode and compile ``data``; a valid result is walked, an error checked located."""
    def run() -> System:
        return compile_text(decode_system_text(data, file), file, base_dir=CORPUS)

    found = result_or_located_error(run)
    if isinstance(found, System):
        nodes = found.root.walk()
        assert nodes and all(str(entry.call) for node in nodes for entry in node.calls)
    elif isinstance(found, SystemFileError):
        assert found.diagnostics
        lines = data.count(b"\n") + data.count(b"\r") + 2
        for d in found.diagnostics:
            where = d.location
            assert where.file and where.line >= 1 and where.col >= 1, str(d)
            if where.file == file:
                assert where.line <= lines, (str(d), lines)
    return found


@given(mutated(BASES))
@fuzz_settings(ci_examples=150)
def test_fuzz_system_file(data: bytes) -> None:
    with bounded("system-file"):
        check_system_bytes(data)


@pytest.mark.parametrize("path", corpus_files(".bbx"), ids=lambda p: p.name)
def test_corpus_system_file(path: Path) -> None:
    """Every broken file of the seed corpus, as it is, through the file reader."""
    def run() -> System:
        return compile_text(read_system_file(path), str(path))

    with bounded("system-file corpus"):
        result_or_located_error(run, must_name=None)


def test_a_vertical_tab_is_not_a_line_break() -> None:
    # Found by the long fuzz run: str.splitlines broke lines at \v (and \f, \x1c-\x1e,
    # \x85, U+2028), so every line number after one was wrong.
    data = b'\x0bystem fuzz\n1C  hcp 12+ "x"\n    1D  hcp 6+ "y"\n  1H  hcp 6+ "z"\n'
    found = check_system_bytes(data)
    assert isinstance(found, SystemFileError)
    assert {d.location.line for d in found.diagnostics} <= {1, 4}, str(found)
