"""The words a player reads for a call: its description without the notes' working, one
forcing word, conventions that name what they show, and denials as what the hand lacks.

The system file's description is written for its maintainers as much as for players:
errata readings ("our reading: ...") stay in the file and in the JSON's ``description``,
not in what the table is told.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from bidbox.engine.inference import Facts
from bidbox.engine.predicates import TableContext
from bidbox.engine.profiles import profile_space
from bidbox.engine.statement import (
    MAX_TYPES,
    _alternatives,
    _alternatives_text,
    _join,
    items_of,
    relaxed_mask,
    shape_words,
    view_of,
)
from bidbox.lang.constraints import Constraint
from bidbox.lang.system import CallEntry, Forcing

ERRATA = re.compile(r"\bour reading\b", re.IGNORECASE)
SUIT_WORDS = re.compile(r"\b(spades?|hearts?|diamonds?|clubs?|majors?|minors?|suits?|"
                        r"[SHDC]|both|other)\b", re.IGNORECASE)
CONVENTION_TAGS = frozenset({"michaels", "unusual", "two-suited"})
FORCING_SAID = {
    Forcing.NONFORCING: ("non-forcing", "not forcing", "nonforcing"),
    Forcing.INVITATIONAL: ("invitational", "invites", "invitation"),
    Forcing.FORCING: ("forcing",),
    Forcing.GAME_FORCING: ("game forcing", "game-forcing", "forcing to game", "game force"),
    Forcing.SIGNOFF: ("sign-off", "signoff", "to play"),
    Forcing.PASS_OR_CORRECT: ("pass or correct", "pass-or-correct"),
}
DENIALS_SHOWN = 3  # the most telling denials named; the rest counted
DENIAL_CHARS = 60  # a denial longer than this (many hand types) is counted, not spelt out
TELLING_SHARE = 0.005  # a denial that removes fewer of the call's hands is only counted


def clean_description(text: str) -> str:
    """The description without the notes' errata readings. A reading runs from "our
    reading" to the end of its parenthesis (or of the text); what precedes it stays
    ("(Lissabon order, our reading)" -> "(Lissabon order)"). A description that is only
    a reading keeps it without the label."""
    def inner(match: re.Match[str]) -> str:
        kept = _before_reading(match.group(1))
        return f" ({kept})" if kept else ""

    out = re.sub(r"\s*\(([^()]*)\)", lambda m: inner(m) if ERRATA.search(m.group(1))
                 else m.group(0), text)
    if ERRATA.search(out):
        kept = _before_reading(out)
        out = kept if kept else re.sub(r"^\s*our reading(?: of [^:]*)?:\s*", "", out,
                                       flags=re.IGNORECASE)
    out = re.sub(r"\s+([,;:)])", r"\1", out).strip()
    return out or text


def _before_reading(text: str) -> str:
    head = ERRATA.split(text, maxsplit=1)[0]
    return head.strip().rstrip(",;:(").strip()


def forcing_said(text: str, forcing: Forcing | None) -> bool:
    """Whether the meaning already says how forcing the call is (then it is not said
    twice: "11-12 balanced, invitational" needs no second "invitational")."""
    if forcing is None:
        return False
    lowered = text.lower()
    if forcing is Forcing.FORCING:  # "forcing" but not "non-forcing" / "game forcing"
        return bool(re.search(r"(?<![-\w])(?<!non-)(?<!not )(?<!game )forcing(?! to game)",
                              lowered))
    return any(w in lowered for w in FORCING_SAID[forcing])


def call_meaning(entry: CallEntry, ctx: TableContext) -> str:
    """What a player reads for the call: the cleaned description, and for a convention
    that does not name its suits, the suits its meaning shows."""
    text = clean_description(entry.text())
    if set(entry.tags) & CONVENTION_TAGS and not SUIT_WORDS.search(text):
        suits = shape_words(entry.shown, ctx)
        if suits:
            text = f"{text}, {suits}"
    return text


@lru_cache(maxsize=4096)
def constraint_words(c: Constraint, ctx: TableContext) -> str | None:
    """A meaning in a player's words, its hand types kept apart when they differ."""
    view = view_of([(c, ctx)])
    if view is None:
        return None
    union = items_of(view)
    alts = _alternatives(c)
    if alts and len(alts) <= MAX_TYPES:
        types = []
        for alt in alts:
            v = view_of([(alt, ctx)])
            if v is not None and items_of(v) not in types:
                types.append(items_of(v))
        if len(types) >= 2:
            return _alternatives_text(types)
    return _join(union) or None


def denial_words(denied: Sequence[CallEntry], shown: Constraint | None, before: Facts,
                 ctx: TableContext) -> list[str]:
    """The denials that tell something: calls tried first whose hands the call's own
    meaning (and what the seat showed before) would otherwise include, most telling
    first (the larger share of those hands they remove), as what the hand lacks."""
    if shown is None:
        return []
    space = profile_space()
    own = relaxed_mask([*before, (shown, ctx)])
    if not own.any():
        return []
    weight = space.count
    own_weight = float(np.sum(weight[own]))
    scored: list[tuple[float, int, str]] = []
    seen: set[str] = set()
    for order, entry in enumerate(denied):
        overlap = own & relaxed_mask([(entry.choose, ctx)])
        if not overlap.any():
            continue  # no hand that makes this call could have made that one
        words = constraint_words(entry.choose, ctx) or clean_description(entry.text())
        if words in seen:
            continue
        seen.add(words)
        scored.append((-float(np.sum(weight[overlap])), order, words))
    scored.sort(key=lambda s: (len(s[2]) > DENIAL_CHARS, s[0], s[1]))
    named = [w for share, _, w in scored if len(w) <= DENIAL_CHARS
             and -share >= TELLING_SHARE * own_weight][:DENIALS_SHOWN]
    out = [f"denies {w}" for w in named]
    rest = len(scored) - len(named)
    if rest > 0 and out:  # only counted: the JSON's "denies" lists every call
        out.append(f"and {rest} more call{'s' if rest > 1 else ''}")
    return out


__all__ = ["call_meaning", "clean_description", "constraint_words", "denial_words",
           "forcing_said"]
