"""The one error tree of bidbox.

Every error a user can cause derives from :class:`BidboxError`, names the place
of the problem (file:line:col, or the auction and the call), quotes the input and
says what to do. The CLI prints these in one or two lines; anything else is a bug.
"""

from __future__ import annotations

import difflib
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


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """A ' (did you mean X?)' suffix for a misspelt name, or '' when nothing is close."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
