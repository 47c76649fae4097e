"""The one error tree of bidbox.

Every error a user can cause derives from :class:`BidboxError`, names the place
of the problem (file:line:col, or the auction and the call), quotes the input and
says what to do. The CLI prints these in one or two lines; anything else is a bug.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable


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
