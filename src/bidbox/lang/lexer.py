"""Tokens of the system language, each with its column, for precise error messages."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bidbox.lang.diagnostics import ConstraintSyntaxError


@dataclass(frozen=True)
class Token:
    kind: str  # STRING SHAPE SUITLEN NUM OP IDENT PARAM
    text: str
    col: int  # 1-based column in the line


# A module parameter may stand where a suit goes: ``=5{long}``, ``semi_solid({M})``.
_SUIT = r"(?:oM|om|L[1-4]|[SHDCMmZY]|\{[A-Za-z_][A-Za-z0-9_]*\})"
_TOKEN = re.compile(
    r"""
    (?P<STRING>"(?:[^"\\]|\\.)*")
  | (?P<SHAPE>(?:\d+|x)(?:-(?:\d+|x)){3}(?![\w.]))
  | (?P<SUITLEN>=?\d+(?:\+|-\d+)?""" + _SUIT + r"""(?![\w]))
  | (?P<NUM>-?\d+(?:\.\d+)?(?:\+|-\d+(?:\.\d+)?)?)
  | (?P<PARAM>\{[^{}"\n]*\})
  | (?P<OP><=|>=|==|<|>|=|,|\||&|!|\(|\)|\[|\]|;|:)
  | (?P<IDENT>[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*)
  | (?P<SPACE>\s+)
    """,
    re.VERBOSE,
)


def tokenize(text: str, offset: int = 0) -> list[Token]:
    """Split ``text`` into tokens; ``offset`` is added to columns (text's place in its line)."""
    tokens: list[Token] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ConstraintSyntaxError(f"unexpected character '{text[pos]}'", offset + pos + 1)
        kind = m.lastgroup or ""
        if kind != "SPACE":
            tokens.append(Token(kind, m.group(), offset + pos + 1))
        pos = m.end()
    return tokens


def strip_comment(line: str) -> str:
    """The line without a '#' comment (a '#' inside a quoted string is kept)."""
    if "#" not in line:
        return line.rstrip()
    in_string = False
    for i, ch in enumerate(line):
        if ch == '"' and (i == 0 or line[i - 1] != "\\"):
            in_string = not in_string
        elif ch == "#" and not in_string:
            return line[:i].rstrip()
    return line.rstrip()
