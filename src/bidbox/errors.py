"""The one error tree of bidbox.

Every error a user can cause derives from :class:`BidboxError`, names the place
of the problem (file:line:col, or the auction and the call), quotes the input and
says what to do. The CLI prints these in one or two lines; anything else is a bug.

The classes live here, not beside the code that raises them, so a caller can catch any
of them without importing (and so loading) the layer that raises it; the raising modules
re-export their own. The system language's errors too: a system file's problems
(``Diagnostic``) are ``bidbox.lang``'s, but the error that lists them reads each one only
as its text, so it needs no import of the language.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for the annotation only: errors imports nothing of bidbox at run time
    from bidbox.lang.diagnostics import Diagnostic


class BidboxError(Exception):
    """Root of every user-facing bidbox error."""


class NotationError(BidboxError, ValueError):
    """A call, hand, seat or other notation that cannot be read."""


class HandError(NotationError):
    """A hand that is not 13 distinct cards in PBN ``S.H.D.C`` order."""


class IllegalCallError(BidboxError):
    """A call that the Laws do not allow at this point of the auction."""

    def __init__(self, auction: str, position: int, call: str, reason: str) -> None:
        self.auction = auction
        self.position = position
        self.call = call
        self.reason = reason
        where = f"after '{auction}'" if auction else "as the opening call"
        super().__init__(f"call {position} '{call}' {where} is illegal: {reason}")


ECHO_LIMIT = 60
"""Characters of the user's input an error message quotes: enough to recognise it, and a
100,000-character argument or a file of binary bytes does not flood the terminal."""


def shown(text: str, most: int = ECHO_LIMIT) -> str:
    """``text`` as an error message quotes it: cut to ``most`` characters (with '...' and
    the full length), control characters and other unprintable ones as escapes."""
    cut = text if len(text) <= most else f"{text[:most - 3]}... ({len(text):,} characters)"
    if cut.isprintable():
        return cut
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in cut)


_PYTHON_WORDS = (
    (re.compile(r"invalid literal for int\(\) with base \d+: (.*)"), r"\1 is not a whole number"),
    (re.compile(r"could not convert string to float: (.*)"), r"\1 is not a number"),
    (re.compile(r".*index out of range.*"), "something is missing or cut short"),
    (re.compile(r"^'?(\w+)'?$"), r"unexpected value \1"),
)


def plain_reason(err: BaseException) -> str:
    """What a library's exception says, in words for a user: "invalid literal for int()
    with base 10: 'two'" becomes "'two' is not a whole number". A reader that wraps a
    library (endplay's PBN and LIN parsers) says this instead of Python's own text."""
    text = str(err).strip() or type(err).__name__
    for pattern, words in _PYTHON_WORDS:
        m = pattern.fullmatch(text)
        if m:
            return shown(m.expand(words))
    if type(err).__name__ in ("KeyError", "IndexError", "TypeError", "AttributeError",
                              "RecursionError"):
        return "it is not in the form the format takes"
    return shown(text, 120)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """A ' (did you mean X?)' suffix for a misspelt name, or '' when nothing is close."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


# --- raised by bidbox.lang ------------------------------------------------------------

MAX_PROBLEMS_SHOWN = 50
"""Problems printed in full; the rest are counted ('and K more'): the first ones are the
ones to fix, and a file of thousands of broken lines must not print megabytes."""


class SystemFileError(BidboxError):
    """A system file with one or more mistakes; the first MAX_PROBLEMS_SHOWN are listed."""

    def __init__(self, diagnostics: Sequence[Diagnostic], stopped: bool = False) -> None:
        self.diagnostics = diagnostics
        self.stopped = stopped  # the compile gave up at bidbox.lang's MAX_PROBLEMS
        count = len(diagnostics)
        lines = [str(d) for d in diagnostics[:MAX_PROBLEMS_SHOWN]]
        more = count - len(lines)
        if stopped:
            summary = (f"{count:,} problems in system file, the limit: the compile stopped "
                       "there")
            lines.append(f"... and {more:,} more before the compile stopped")
        else:
            summary = f"{count:,} problem{'s' if count != 1 else ''} in system file"
            if more:
                lines.append(f"... and {more:,} more")
        super().__init__(summary + ":\n" + "\n".join(lines))


class ConstraintSyntaxError(BidboxError):
    """A constraint that cannot be read; ``col`` is 1-based within the text given."""

    def __init__(self, message: str, col: int) -> None:
        self.col = col
        # What the message quotes of the input is cut short: a token may be thousands of
        # characters long (a run of digits, a name), and the column already says where.
        super().__init__(_LONG_QUOTE.sub(lambda m: f"'{shown(m.group(1))}'", message))


_LONG_QUOTE = re.compile(r"'([^'\n]{" + str(ECHO_LIMIT + 1) + r",})'")


class UnknownSystemError(BidboxError):
    """A --system argument that is neither a shipped system nor a readable file."""


class OptionError(BidboxError):
    """An option that the system does not declare, or a value it does not allow."""


# --- raised by bidbox.sim.double_dummy -----------------------------------------------


class DoubleDummyError(BidboxError):
    """DDS refused a deal or failed; the message names the deal."""


# --- raised by bidbox.sim.deals ------------------------------------------------------


class BoardFileError(NotationError):
    """A PBN file (or one of its boards) that cannot be used for a simulation."""


class DealConstraintError(BidboxError):
    """A ``--where`` constraint that cannot be read, or that no dealt hand meets."""


# --- raised by bidbox.sim.store ------------------------------------------------------


class StoreError(BidboxError):
    """An output folder whose store cannot be opened or written."""


# --- raised by bidbox.sim.parallel ---------------------------------------------------


class ClusterError(BidboxError):
    """A Dask scheduler that cannot be reached, or Dask not installed."""


# --- raised by bidbox.formats.bboalert -----------------------------------------------


class BBOalertError(BidboxError):
    """A BBOalert file that does not follow the record grammar."""


# --- raised by bidbox.formats.pbn ----------------------------------------------------


class BoardFormatError(BidboxError):
    """A PBN or LIN file that cannot be read or written."""


# --- raised by bidbox.core.boardtext -------------------------------------------------


class LinTextError(NotationError):
    """Text in a LIN file that is not a ``key|value|`` pair; ``line`` is 1-based."""

    def __init__(self, line: int, text: str) -> None:
        super().__init__(f"not a LIN 'key|value|' pair: {text!r}")
        self.line = line


class LinFileError(NotationError):
    """A LIN file, or one of its boards, that cannot be read: the message names the
    file, the line and the board (``formats`` and ``sim`` raise it again as their own)."""


# --- raised by bidbox.formats.draft --------------------------------------------------


class DraftError(BidboxError):
    """Notes that cannot become a draft (an unreadable call, a bad indentation)."""


# --- raised by bidbox.formats.html ---------------------------------------------------


class PublishError(BidboxError):
    """A document that cannot be rendered (a missing template, no browser for PDF)."""


# --- raised by bidbox.api ------------------------------------------------------------


class AuctionEndedError(BidboxError):
    """A call asked for after the auction has ended."""


class UnknownRegulationError(BidboxError):
    """A regulation name bidbox does not know."""


class DealError(NotationError):
    """A deal that is not four hands of 13 distinct cards in PBN ``N:S.H.D.C ...`` form."""


class TableMismatchError(BidboxError):
    """An :class:`Auction` given together with a dealer or vulnerability it does not have."""


# --- raised by bidbox.cli.diff_commands ----------------------------------------------


class DiffArgumentError(BidboxError):
    """Arguments of ``bidbox diff`` that cannot be used."""


# --- raised by bidbox.cli.sim_commands -----------------------------------------------


class SimulationArgumentError(BidboxError):
    """Command-line arguments of ``simulate`` or ``deal`` that do not fit together."""


# --- raised by bidbox.cli.web_commands -----------------------------------------------


class ServeError(BidboxError):
    """A ``serve`` argument that cannot be used (port out of range, unusable --db)."""


# --- raised by bidbox.engine.tricks --------------------------------------------------


class TrickModelError(BidboxError):
    """The trick-model file is missing or malformed; the message names the file."""


# --- raised by bidbox.verify.diff ----------------------------------------------------


class DiffInputError(BidboxError):
    """A ``diff`` argument that cannot be read: a missing file, git or revision."""


# --- raised by bidbox.web.table ------------------------------------------------------


class TableError(BidboxError):
    """A request the table cannot carry out: bad input, with the reason."""


class TableConflictError(BidboxError):
    """A request that does not fit the table's state: out of turn, auction over, no undo."""


# --- raised by bidbox.web.browser ----------------------------------------------------


class NodeNotFoundError(TableError):
    """An auction that is not a node of the system's tree."""


# --- raised by bidbox.web.reports ----------------------------------------------------


class ReportNotFoundError(BidboxError):
    """No report of that name under the results root (answered 404)."""


class NotAResultsFolderError(BidboxError):
    """A name that points at something that is not a lab results folder or report (400)."""


# --- raised by bidbox.web.store ------------------------------------------------------


class StaleTableError(BidboxError):
    """A change to a table that another request changed first (answered 409)."""


# --- raised by bidbox.cli.main ----------------------------------------------------------


class IllegalAuctionError(BidboxError):
    """``bidbox auction`` given an auction the Laws do not allow: the auction, then the call."""

    def __init__(self, auction: str, reason: str) -> None:
        self.auction = auction
        self.reason = reason
        super().__init__(f"auction '{shown(auction)}': {reason}")
