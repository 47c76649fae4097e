"""Problems found in a system file, each with its place, the line, and what to do."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

# The errors are defined in bidbox.errors and re-exported here, where callers import them.
from bidbox.errors import MAX_PROBLEMS_SHOWN as MAX_PROBLEMS_SHOWN
from bidbox.errors import ConstraintSyntaxError as ConstraintSyntaxError
from bidbox.errors import SystemFileError as SystemFileError


@dataclass(frozen=True)
class Location:
    file: str
    line: int
    col: int  # 1-based
    text: str = ""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Diagnostic:
    location: Location
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        head = f"{self.location}: {self.severity}: {self.message}"
        if not self.location.text:
            return head
        text, col = self.location.text, max(self.location.col, 1)
        if len(text) > _SHOWN_LINE:  # a window around the column, not the whole line
            start = max(0, min(col - _SHOWN_LINE // 2, len(text) - _SHOWN_LINE))
            end = start + _SHOWN_LINE
            text = ("..." if start else "") + text[start:end] + ("..." if end < len(text) else "")
            col = col - start + (3 if start else 0)
        caret = " " * (col - 1) + "^"
        return f"{head}\n    {text}\n    {caret}"


_SHOWN_LINE = 160
"""Characters of a source line a problem quotes (lines may be 2,000 long)."""


MAX_PROBLEMS = 1_000
"""Problems collected before the compile stops: each one is work and memory, and a
file with this many is not worth reading further."""


class Problems(list[Diagnostic]):
    """The problems of one compile: a list that stops the compile (SystemFileError) once
    it holds MAX_PROBLEMS, so broken input costs bounded time and memory. A file of
    repeated lines once collected 5.6 million problems in 10 GB."""

    def append(self, item: Diagnostic) -> None:
        if len(self) >= MAX_PROBLEMS:
            raise SystemFileError(self, stopped=True)
        super().append(item)

    def extend(self, items: Iterable[Diagnostic]) -> None:
        for item in items:
            self.append(item)


MAX_FILE_BYTES = 2_000_000
"""The largest system file read (the biggest shipped one is 140 kB): a 50 MB file of
repeated lines once ran for minutes; now it is refused before it is read."""

MAX_LINE_CHARS = 2_000
"""The longest line of a system file (the shipped ones stay under 320 characters)."""


def read_system_file(path: Path) -> str:
    """The text of a system file, or a SystemFileError naming the file and the place.

    Files are read as bytes and decoded here, so a latin-1, UTF-16 or binary file (or
    one that cannot be opened, or one too big to be a system) is a located problem
    instead of a Python exception or a long wait.
    """
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise SystemFileError([Diagnostic(Location(str(path), 1, 1), (
                f"the file is {size:,} bytes, more than the limit of {MAX_FILE_BYTES:,} "
                "for a system file: split it with 'include'"))])
        data = path.read_bytes()
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise SystemFileError([Diagnostic(Location(str(path), 1, 1),
                                          f"cannot read the file: {reason}")]) from None
    return decode_system_text(data, str(path))


def decode_system_text(data: bytes, file: str) -> str:
    """``data`` as UTF-8 text; a byte that is not UTF-8, or a NUL (UTF-16 and binary
    files have them; no text does), is an error at its line, column and byte offset.

    A leading byte-order mark is dropped (editors on Windows write one), and CR or CRLF
    line ends become LF, so every later step sees one kind of line. A line longer than
    MAX_LINE_CHARS is an error at that line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise SystemFileError([_byte_problem(
            data, err.start, file, f"not UTF-8 text (byte 0x{data[err.start]:02x} at offset "
                                   f"{err.start}): save the file as UTF-8")]) from None
    nul = text.find("\x00")
    if nul >= 0:
        offset = len(text[:nul].encode("utf-8"))
        raise SystemFileError([_byte_problem(
            data, offset, file, f"not text (byte 0x00 at offset {offset}; UTF-16 or a "
                                "binary file?): save the file as UTF-8")])
    text = text.removeprefix("\ufeff")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if max(map(len, lines), default=0) > MAX_LINE_CHARS:
        number, line = next((n, line) for n, line in enumerate(lines, 1)
                            if len(line) > MAX_LINE_CHARS)
        raise SystemFileError([Diagnostic(Location(file, number, MAX_LINE_CHARS + 1), (
            f"line {number} is {len(line):,} characters long, more than the limit of "
            f"{MAX_LINE_CHARS:,}: break it into shorter lines"))])
    return text


def _byte_problem(data: bytes, offset: int, file: str, message: str) -> Diagnostic:
    """A diagnostic at the line and column (in characters) of byte ``offset``; the line
    itself is not echoed, as it is not text."""
    before = data[:offset].replace(b"\r\n", b"\n").replace(b"\r", b"\n")  # CR ends too
    start = before.rfind(b"\n") + 1
    col = len(before[start:].decode("utf-8", errors="replace")) + 1
    return Diagnostic(Location(file, before.count(b"\n") + 1, col), message)
