"""The text of a board file (PBN or LIN) as the readers need it, whatever wrote it.

Board files come from many programs: with or without a byte-order mark, in UTF-8 or
latin-1, with LF, CRLF or old Mac CR line ends, and PBN boards sometimes without the
blank line between them. endplay's parsers expect LF lines and blank-line separated
boards (a CR-only file read as no boards, and unseparated boards as one), so the text is
put in that form here, once, for every reader.
"""

from __future__ import annotations

import re

_TAG = re.compile(r"\[\s*([A-Za-z][\w]*)")
_ONCE = frozenset(("event", "board", "deal"))
"""Tags a board has once (others, such as [Note], repeat): seen again, a board begins."""


def decode_board_bytes(data: bytes) -> str:
    """UTF-8 (a byte-order mark dropped) or else latin-1, which every byte decodes as;
    line ends as LF."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def separate_pbn_boards(text: str) -> tuple[str, list[int]]:
    """``text`` with a blank line put before each board that did not have one (an
    [Event], [Board] or [Deal] already seen in the current board starts a new one), and
    the line numbers (1-based, in the result) of the blank lines put in, so that places
    can be told in the original file's lines with :func:`original_line`."""
    out: list[str] = []
    added: list[int] = []
    seen: set[str] = set()
    for line in text.split("\n"):
        stripped = line.strip()
        if not stripped:
            seen.clear()
        elif stripped.startswith("[") and not stripped.startswith("%"):
            m = _TAG.match(stripped)
            name = m.group(1).lower() if m else ""
            if name in _ONCE and name in seen:
                out.append("")
                added.append(len(out))
                seen.clear()
            seen.add(name)
        out.append(line)
    return "\n".join(out), added


_NAG = re.compile(r"\s*(?<!\S)\$\d+(?!\S)")
"""A numeric annotation glyph (``$1``, "good call"), which PBN allows after a call or a
card and endplay does not read."""
_SECTIONS = frozenset(("auction", "play"))


def pbn_for_endplay(text: str) -> tuple[str, list[int]]:
    """:func:`separate_pbn_boards`, with the annotation glyphs (``$n``) dropped from the
    auction and play sections: world-championship records carry them, and endplay reads
    every token there as a call or a card. Line numbers stay those of
    :func:`separate_pbn_boards`'s result."""
    out: list[str] = []
    inside = False
    for line in text.split("\n"):
        stripped = line.strip()
        if not stripped or stripped.startswith("["):
            m = _TAG.match(stripped)
            inside = m is not None and m.group(1).lower() in _SECTIONS
        elif inside and "$" in line:
            line = _NAG.sub("", line)
        out.append(line)
    return separate_pbn_boards("\n".join(out))


def original_line(line: int, added: list[int]) -> int:
    """A line number of :func:`separate_pbn_boards`'s result as a line of the file."""
    return line - sum(1 for a in added if a < line)


__all__ = ["decode_board_bytes", "original_line", "pbn_for_endplay", "separate_pbn_boards"]
