"""Problems found in a system file, each with its place, the line, and what to do."""

from __future__ import annotations

from dataclasses import dataclass

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
