"""The Python examples of README.md and docs/api.md run as doctests.

Every fenced block marked python/pycon (or holding a ``>>>`` prompt) is one doctest; the
blocks of a file share their names in order, as a reader would type them. A Python block
without a prompt would be an example nobody runs, so it fails here too.
"""

from __future__ import annotations

import doctest
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = ["README.md", "docs/api.md"]
PYTHON_FENCES = {"python", "py", "pycon", "python3", "doctest"}
_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)


def python_blocks(text: str) -> list[tuple[int, str, str]]:
    """(line number of the block's first line, fence language, body) of each Python block."""
    out = []
    for match in _FENCE.finditer(text):
        language = match.group(1).strip().lower()
        body = match.group(2)
        if language in PYTHON_FENCES or ">>>" in body:
            line = text.count("\n", 0, match.start(2)) + 1
            out.append((line, language, body))
    return out


def run_examples(text: str, name: str) -> tuple[int, int, str]:
    """(examples run, failures, report); a Python block without examples is a failure."""
    parser = doctest.DocTestParser()
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs: dict[str, object] = {"__name__": name}
    attempted = failed = 0
    for line, _, body in python_blocks(text):
        test = parser.get_doctest(body, globs, f"{name}:{line}", name, line - 1)
        if not test.examples:
            report.write(f"{name}:{line}: a Python block with no '>>>' example\n")
            failed += 1
            continue
        result = runner.run(test, out=report.write, clear_globs=False)
        globs = test.globs  # DocTest copies its globals: carry them to the next block
        attempted += result.attempted
        failed += result.failed
    return attempted, failed, report.getvalue()


@pytest.mark.parametrize("document", DOCUMENTS)
def test_document_examples_run(document: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # examples may name files relative to the repository
    text = (ROOT / document).read_text(encoding="utf-8")
    attempted, failed, report = run_examples(text, document)
    assert attempted >= 5, f"{document} has too few examples to document the API"
    assert failed == 0, report


def test_a_wrong_example_fails() -> None:
    text = "intro\n\n```pycon\n>>> 1 + 1\n3\n```\n\n```python\nx = 1\n```\n"
    attempted, failed, report = run_examples(text, "fake.md")
    assert attempted == 1 and failed == 2
    assert "fake.md:4" in report and "no '>>>' example" in report


def test_shell_blocks_are_not_python() -> None:
    text = "```sh\nmake test\n```\n\n```\nbidbox bid --system tosr\n```\n"
    assert python_blocks(text) == []
