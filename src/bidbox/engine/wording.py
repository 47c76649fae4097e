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

from bidbox.engine.features import Array
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
from bidbox.lang.constraints import Constraint, disjoin
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
DENIALS_SHOWN = 4  # the most telling denials named; the rest counted
DENIAL_CHARS = 72  # a denial worded longer than this is said by the denied call's text
TELLING_SHARE = 0.01  # a denial removing fewer of the call's hands goes unsaid


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
    """The denials that tell something, as what the hand lacks: calls tried first whose
    hands the call's own meaning (and what the seat showed before) would otherwise
    include. Chosen greedily, most telling first: each next denial is the one removing
    the most of the call's hands that the denials already said leave in, so a denial
    implied by one said before ("13+ HCP, 6+ hearts" after "13+ HCP, 5+ hearts") is not
    said again. One removing fewer than ``TELLING_SHARE`` of the hands goes unsaid (the
    JSON's ``denies`` still lists every call); beyond ``DENIALS_SHOWN`` the rest are
    counted as hand types, never listed as calls.
    """
    if shown is None:
        return []
    space = profile_space()
    own = relaxed_mask([*before, (shown, ctx)])
    if not own.any():
        return []
    weight = space.count
    floor = TELLING_SHARE * float(np.sum(weight[own]))
    candidates: list[tuple[int, CallEntry, Array]] = []
    for order, entry in enumerate(denied):
        overlap = own & relaxed_mask([(entry.choose, ctx)])
        if float(np.sum(weight[overlap])) >= floor:
            candidates.append((order, entry, overlap))
    said: list[str] = []
    left = own.copy()
    rest = 0
    while candidates:
        gains = [float(np.sum(weight[overlap & left])) for _, _, overlap in candidates]
        best = max(range(len(candidates)), key=lambda i: (gains[i], -candidates[i][0]))
        if gains[best] < floor:
            break  # what is left is implied by the denials said
        _, entry, overlap = candidates.pop(best)
        left &= ~overlap
        if len(said) >= DENIALS_SHOWN:
            rest += 1
            continue
        words = denied_words(entry, ctx, own)
        if words not in said:
            said.append(words)
    out = [f"denies {w}" for w in said]
    if rest:
        out.append(f"and {rest} rarer hand type{'s' if rest > 1 else ''}")
    return out


def denied_words(entry: CallEntry, ctx: TableContext, own: Array | None = None) -> str:
    """What a hand that did not make ``entry`` lacks, in a line a player reads.

    Of an either/or meaning only the hand types the call's own hands (``own``, points of
    the profile space) could hold are said: a 10-14 opening denies the 6+ hearts type
    of a multi-way two, not its 6-9 types. The meaning's words are used, or, when its
    hand types make them too long ("16-22 HCP with either (6+ spades, 8+ playing tricks,
    single-suited) or ..."), the call's text as the notes write it ("strong two: 8+
    playing tricks, five or more spades"). Never the hull of the hand types: denying
    the hull would deny hands the call leaves out.
    """
    meaning = entry.choose
    narrowed = False
    alts = _alternatives(meaning)
    if alts and own is not None:
        kept = [a for a in alts if (own & relaxed_mask([(a, ctx)])).any()]
        if kept and len(kept) < len(alts):
            meaning, narrowed = disjoin(kept), True
    words = constraint_words(meaning, ctx)
    if words is not None and len(words) <= DENIAL_CHARS:
        return words
    text = clean_description(entry.text())
    if not narrowed and (words is None or len(text) < len(words)):
        return text
    return words if words is not None else text


__all__ = ["call_meaning", "clean_description", "constraint_words", "denial_words",
           "denied_words", "forcing_said"]
