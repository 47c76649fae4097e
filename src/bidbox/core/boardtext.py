"""The text of a board file (PBN or LIN) as the readers need it, whatever wrote it.

Board files come from many programs: with or without a byte-order mark, in UTF-8 or
latin-1, with LF, CRLF or old Mac CR line ends, and PBN boards sometimes without the
blank line between them. endplay's parsers expect LF lines and blank-line separated
boards (a CR-only file read as no boards, and unseparated boards as one), so the text is
put in that form here, once, for every reader.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bidbox.core.seats import Seat, Vulnerability
from bidbox.errors import LinFileError, NotationError, plain_reason, shown
from bidbox.errors import LinTextError as LinTextError

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
_VULNERABLE = re.compile(r'(\[\s*Vulnerable\s+")([^"]*)(")', re.IGNORECASE)
_ENDPLAY_VUL = {Vulnerability.NONE: "None", Vulnerability.NS: "NS", Vulnerability.EW: "EW",
                Vulnerability.BOTH: "All"}
"""endplay takes only None, NS, EW, All, Both and -: a file that wrote the PBN standard's
Love was left out whole. So every name ``Vulnerability.parse`` reads (Love, N-S, lower
case, ...) is written as endplay's."""


def _standard_vulnerability(m: re.Match[str]) -> str:
    try:
        value = _ENDPLAY_VUL[Vulnerability.parse(m.group(2))]
    except NotationError:
        value = m.group(2)  # endplay's own error names it
    return m.group(1) + value + m.group(3)


def pbn_for_endplay(text: str) -> tuple[str, list[int]]:
    """:func:`separate_pbn_boards`, with what other programs write that endplay misreads
    made plain. In the auction and play sections: annotation glyphs (``$n``, which
    world-championship records carry) and comments (``{...}``, also over several lines,
    and ``;`` to the line's end) are dropped, since endplay reads every token there as a
    call or a card; ``-`` before the first call (a table that starts with a seat before
    the dealer) is dropped and the ``[Auction]`` seat moved on, since endplay read such an
    auction as none. In tags: the vulnerability's other names (:data:`_ENDPLAY_VUL`)
    and a ten written ``10`` in ``[Deal]``. Line numbers stay those of
    :func:`separate_pbn_boards`'s result: a line left empty by a comment becomes ``%``,
    which endplay skips, not a blank line, which would end the board."""
    out: list[str] = []
    inside = comment = False
    auction_tag: int | None = None  # the [Auction] line before the first call
    for line in text.split("\n"):
        stripped = line.strip()
        calls = inside and not stripped.startswith("[")
        if comment or (calls and ("{" in line or ";" in line)):
            calls = True  # a comment opens only among the calls
            line, comment = _drop_comments(line, comment)
            stripped = line.strip()
            if not stripped:
                out.append("%")
                continue
        if calls and stripped:
            if "$" in line:
                line = _NAG.sub("", line)
            if auction_tag is not None:
                line = _before_dealer(out, auction_tag, line)
                auction_tag = None
        elif not stripped or stripped.startswith("["):
            m = _TAG.match(stripped)
            name = m.group(1).lower() if m is not None else ""
            inside = name in _SECTIONS
            auction_tag = len(out) if name == "auction" else None
            if name == "vulnerable":
                line = _VULNERABLE.sub(_standard_vulnerability, line, count=1)
            elif name == "deal" and "10" in line:
                line = _DEAL.sub(lambda d: d.group(0).replace("10", "T"), line, count=1)
        out.append(line)
    return separate_pbn_boards("\n".join(out))


_DEAL = re.compile(r'\[\s*Deal\s+"[^"]*"', re.IGNORECASE)
_AUCTION_SEAT = re.compile(r'"\s*([NESWnesw])\s*"')


def _drop_comments(line: str, open_comment: bool) -> tuple[str, bool]:
    """``line`` without its comments, and whether a ``{`` comment goes on past it."""
    kept: list[str] = []
    k = 0
    while k < len(line):
        if open_comment:
            close = line.find("}", k)
            if close < 0:
                return "".join(kept), True
            open_comment, k = False, close + 1
        elif line[k] == "{":
            open_comment, k = True, k + 1
        elif line[k] == ";":
            break
        else:
            kept.append(line[k])
            k += 1
    return "".join(kept), open_comment


def _before_dealer(out: list[str], tag: int, line: str) -> str:
    """The first line of calls without its leading ``-`` (no call), the ``[Auction]``
    tag at ``out[tag]`` moved on one seat for each."""
    tokens = line.split()
    skip = 0
    while skip < len(tokens) and tokens[skip] == "-":
        skip += 1
    m = _AUCTION_SEAT.search(out[tag])
    if not skip or m is None:
        return line
    seat = Seat.parse(m.group(1)).after(skip)
    out[tag] = out[tag][:m.start(1)] + str(seat) + out[tag][m.end(1):]
    return " ".join(tokens[skip:]) or "%"


def original_line(line: int, added: list[int]) -> int:
    """A line number of :func:`separate_pbn_boards`'s result as a line of the file."""
    return line - sum(1 for a in added if a < line)


# --- LIN ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class LinBoard:
    """One board of a LIN file, as endplay's LIN reader takes a board.

    ``text``: ``pn|S,W,N,E|`` then the board's own pairs; ``line``: the file's line on
    which the board starts (1-based); ``label``: the vugraph room and board (``o12``: open
    room, board 12; ``c12``: closed room), else the board number, else empty."""

    text: str
    line: int
    label: str


_PAIR = re.compile(r"\s*([A-Za-z]{2})\|([^|]*)\|")
_DIGITS = re.compile(r"\d+")
_HEADER = frozenset(("vg", "rs", "bn", "pw", "mn", "tu"))
"""Vugraph header pairs: the event, the results, the board list; no board's own."""
_PLAY = frozenset(("pc", "mc", "up"))
_TOKENS = frozenset(("md", "mb", "pc", "mc"))
"""Pairs whose value is one token (a deal, a call, a card, a claim)."""
_VUL = {"o": "o", "0": "o", "-": "o", "n": "n", "e": "e", "b": "b"}


def lin_boards(text: str, play: bool = True) -> list[LinBoard]:
    """The boards of a LIN file (:func:`decode_board_bytes`'s text), one
    :class:`LinBoard` each, for a single table's record and a vugraph file alike.

    endplay reads a LIN file as boards that each begin with ``pn|``. A BBO hand record
    is written so; a vugraph file (the world championships' records) is not: one ``pn|``
    with eight names (the open room's four, then the closed room's) heads the file, and
    ``qx|o12|`` / ``qx|c12|`` begin the boards. So each board is cut out here and given
    its room's four names and its number (``ah|Board 12|``). Commentary (``nt|``, which
    endplay would read as an explanation of the call before it, and which comes before
    any call too) and explanations with no call before them are dropped; a vulnerability
    written ``0`` or ``-`` is ``o`` (none), a deal without its dealer digit has its
    number's dealer. ``play=False`` leaves out the play (cards, claims, undos), for a
    reader of the auctions only: endplay follows the play to score it, and a vugraph
    record's play may be cut short or undone. Raises :class:`LinTextError` for text that
    is not a ``key|value|`` pair."""
    names: list[str] = []
    out: list[LinBoard] = []
    pairs: list[tuple[str, str]] = []
    start: int | None = None  # the current board's first line
    label = ""
    vugraph = False  # boards begin at qx|; a pn| there only changes the players

    def dealt() -> bool:
        return any(k == "md" for k, _ in pairs)

    def flush() -> None:
        nonlocal start, label
        if dealt():
            room = label[:1].lower()
            four = names[4:8] if room == "c" and len(names) >= 8 else names[:4]
            four = (four + [""] * 4)[:4]
            number = _DIGITS.search(label)
            kept = [(k, v) for k, v in pairs if play or k not in _PLAY]
            if number:
                # A deal written without its dealer digit has the board number's dealer.
                lin_dealer = "3412"[(int(number.group()) - 1) % 4]
                kept = [(k, lin_dealer + v if k == "md" and v[:1] not in "1234" else v)
                        for k, v in kept]
            body = "".join(f"{k}|{v}|" for k, v in kept)
            if number and not any(k == "ah" for k, _ in pairs):
                body = f"ah|Board {int(number.group())}|" + body
            out.append(LinBoard(f"pn|{','.join(four)}|" + body, start or 1, label))
        # A label or names with no deal (a room announced, not played) start nothing.
        pairs.clear()
        start, label = None, ""

    pos, line = 0, 1
    while True:
        m = _PAIR.match(text, pos)
        if m is None:
            rest = text[pos:]
            if rest.strip():
                bad = line + rest[:len(rest) - len(rest.lstrip())].count("\n")
                raise LinTextError(bad, rest.strip().split("\n")[0][:60])
            break
        at = line + text.count("\n", pos, m.start(1))
        line += text.count("\n", pos, m.end())
        pos = m.end()
        key, value = m.group(1).lower(), m.group(2).replace("\n", "")
        if key == "qx":
            flush()
            start, label = at, value.split(",")[0].strip()
            vugraph = True
            continue
        if key == "pn":
            if dealt() and not vugraph:
                flush()  # a hand record: each board begins with its players
            names = [n.strip() for n in value.split(",")]
            start = at if start is None else start
            continue
        if key in _TOKENS:
            # Other programs pad a call or card with spaces and write a ten as 10.
            value = value.strip().replace("10", "T") if key == "md" else value.strip()
        if key == "md" and dealt():
            flush()  # boards written one after another with nothing between
        if key in _HEADER or key == "nt" or (
                key == "an" and not any(k == "mb" for k, _ in pairs)):
            continue
        start = at if start is None else start
        if key == "ah":
            number = _DIGITS.search(value)
            if number:
                pairs.append((key, f"Board {int(number.group())}"))
                label = label or number.group()
        elif key == "sv":
            vul = _VUL.get(value.strip().lower())
            if vul is not None:
                pairs.append((key, vul))
        else:
            pairs.append((key, value))
    flush()
    return out


_LIN_DEAL = re.compile(r"md\|([^|]*)\|")
_LIN_HANDS = "SWNE"
"""The seats of a LIN deal's hands, in the order ``md|`` writes them."""


def _card_written_twice(board: str) -> str | None:
    """What is wrong when a board's deal (``md|``) writes a card twice in one hand, or
    None. endplay keeps one of the two and fills the hand left out from what remains, so
    a mistyped deal was bid as another one (the PBN readers check the same, as written)."""
    m = _LIN_DEAL.search(board)
    if m is None:
        return None
    for seat, hand in zip(_LIN_HANDS, m.group(1).lstrip("1234").split(","), strict=False):
        suit, seen = "", set()
        for ch in hand.upper():
            if ch in "SHDC":
                suit = ch
            elif (suit, ch) in seen:
                return (f"{seat}'s hand in md|{shown(m.group(1))}| has the card {suit}{ch} "
                        "twice: a deal has each of the 52 cards once")
            else:
                seen.add((suit, ch))
    return None


def read_lin_records(text: str, name: str, play: bool = True) -> list[tuple[LinBoard, Any]]:
    """Each board of :func:`lin_boards` with the endplay Board read from it; a board
    without a vulnerability takes its number's. ``name``: the file, for messages. Raises
    :class:`LinFileError` naming the file, the line and the board for text that is not
    LIN or a board endplay cannot read (endplay raises many kinds for bad input; the
    reason is its message in plain words)."""
    from endplay.parsers.lin import LINDecoder
    from endplay.types import Vul

    try:
        cut = lin_boards(text, play)
    except LinTextError as err:
        raise LinFileError(f"{name}:{err.line}: not a readable LIN file: {err}") from None
    decoder = LINDecoder()  # type: ignore[no-untyped-call]
    out = []
    for board in cut:
        twice = _card_written_twice(board.text)
        if twice:
            label = f" (board {board.label})" if board.label else ""
            raise LinFileError(f"{name}:{board.line}{label}: not a readable LIN board: "
                               f"{twice}")
        try:
            record = decoder.parse_line(board.text)
        except Exception as err:  # endplay raises many kinds for bad input
            label = f" (board {board.label})" if board.label else ""
            raise LinFileError(f"{name}:{board.line}{label}: not a readable LIN board: "
                               f"{plain_reason(err)}") from None
        if record.vul is None and record.board_num:
            record.vul = Vul.from_board(record.board_num)
        out.append((board, record))
    return out


__all__ = [
    "LinBoard",
    "LinFileError",
    "LinTextError",
    "decode_board_bytes",
    "lin_boards",
    "original_line",
    "pbn_for_endplay",
    "read_lin_records",
    "separate_pbn_boards",
]
