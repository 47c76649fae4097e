"""Hostile and careless input through the command line (issue 17): each case ends with
exit status 2 and a short message naming the place, never a traceback."""

from __future__ import annotations

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
