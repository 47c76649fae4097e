"""``bidbox serve``: bad arguments are one line and exit 2; a real start prints the URL and
answers on it (what ``make run`` does, on a free port and a temporary store)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from bidbox.cli.main import main
from bidbox.web.app import NO_WARM_ENV

from .support import free_port


@pytest.mark.parametrize(("args", "words"), [
    (["--port", "70000"], "0 to 65535"),
    (["--db", "."], "is a folder"),
    (["--workers", "0"], "1 to 64"),
    (["--results", "no/such/folder"], "is not a folder"),
])
def test_bad_arguments_are_one_line(args: list[str], words: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", *args]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_file_that_is_not_sqlite_is_refused(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "notes.sqlite"
    db.write_text("not a database, just some words that are long enough" * 20)
    assert main(["serve", "--db", str(db), "--port", str(free_port())]) == 2
    assert "cannot use it as the store" in capsys.readouterr().err


@pytest.mark.parametrize("workers", [1, 2])
def test_serve_prints_the_url_and_answers(tmp_path: Path, workers: int) -> None:
    """One process, and two worker processes (uvicorn's supervisor starts them from the
    import string; they find the store in the environment)."""
    port = free_port()
    db = tmp_path / "store" / "bidbox.sqlite"
    server = subprocess.Popen([sys.executable, "-m", "bidbox", "serve", "--port", str(port),
                               "--db", str(db), "--workers", str(workers),
                               "--results", str(tmp_path)],
                              stderr=subprocess.PIPE, text=True,
                              env={**os.environ, NO_WARM_ENV: "1"})  # warm_up: test_api
    try:
        assert server.stderr is not None
        line = server.stderr.readline()
        assert f"http://127.0.0.1:{port}/" in line and str(db) in line
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/systems") as answer:
                    names = {s["name"] for s in json.load(answer)}
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.2)
        assert "sbu-level1" in names
        assert db.is_file()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/reports") as answer:
            assert json.load(answer) == {"root": str(tmp_path), "reports": []}
    finally:
        server.terminate()
        server.wait(timeout=20)
