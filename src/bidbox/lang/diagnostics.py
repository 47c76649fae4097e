"""Problems found in a system file, each with its place, the line, and what to do."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bidbox.errors import BidboxError


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
        caret = " " * (max(self.location.col, 1) - 1) + "^"
        return f"{head}\n    {self.location.text}\n    {caret}"


class SystemFileError(BidboxError):
    """A system file with one or more mistakes; all of them are listed."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics
        count = len(diagnostics)
        lines = [str(d) for d in diagnostics]
        summary = f"{count} problem{'s' if count != 1 else ''} in system file"
        super().__init__(summary + ":\n" + "\n".join(lines))


class ConstraintSyntaxError(BidboxError):
    """A constraint that cannot be read; ``col`` is 1-based within the text given."""

    def __init__(self, message: str, col: int) -> None:
        self.col = col
        super().__init__(message)


def read_system_file(path: Path) -> str:
    """The text of a system file, or a SystemFileError naming the file and the place.

    Files are read as bytes and decoded here, so a latin-1, UTF-16 or binary file (or
    one that cannot be opened) is a located problem instead of a Python exception.
    """
    try:
        data = path.read_bytes()
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise SystemFileError([Diagnostic(Location(str(path), 1, 1),
                                          f"cannot read the file: {reason}")]) from None
    return decode_system_text(data, str(path))


def decode_system_text(data: bytes, file: str) -> str:
    """``data`` as UTF-8 text; a byte that is not UTF-8, or a NUL (UTF-16 and binary
    files have them; no text does), is an error at its line, column and byte offset."""
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
    return text


def _byte_problem(data: bytes, offset: int, file: str, message: str) -> Diagnostic:
    """A diagnostic at the line and column (in characters) of byte ``offset``; the line
    itself is not echoed, as it is not text."""
    start = data.rfind(b"\n", 0, offset) + 1
    col = len(data[start:offset].decode("utf-8", errors="replace")) + 1
    return Diagnostic(Location(file, data.count(b"\n", 0, offset) + 1, col), message)
