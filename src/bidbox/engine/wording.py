"""The words a player reads for a call: its description without the notes' working, one
forcing word, conventions that name what they show, and denials as what the hand lacks.

The system file's description is written for its maintainers as much as for players:
errata readings ("our reading: ...") stay in the file and in the JSON's ``description``,
not in what the table is told.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from bidbox.engine.features import Array
from bidbox.engine.inference import Facts
from bidbox.engine.predicates import TableContext
from bidbox.engine.profiles import profile_space
from bidbox.engine.statement import (
    MAX_TYPES,
    SUIT_KEYS,
    Item,
    _alternatives,
    _alternatives_text,
    _join,
    _named_group,
    items_of,
    relax,
    relaxed_mask,
    shape_words,
    view_of,
)
from bidbox.lang.constraints import And, Constraint, Or, conjoin, disjoin
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
BEYOND_SLACK = 0.02  # a term said by what is known may be dropped if it adds this few hands


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
    implied by one said before is not said again. One removing fewer than
    ``TELLING_SHARE`` of the hands goes unsaid (the JSON's ``denies`` still lists every
    call); beyond ``DENIALS_SHOWN`` the rest are counted as hand types, never listed as
    calls.

    Each denial says only what the hand lacks beyond what is already known of it: of a
    denied call's hand types, those that remove a telling share of the hands left, each
    without the terms those hands already meet (after a 2C opening of 10-14 HCP or 6-9
    HCP, an Acol two's "at most 14 HCP" goes unsaid; after "denies 10-14 HCP, 4+
    hearts", a 1H opening's "at most 3 hearts" does). Types that differ in one suit are
    said together ("10-14 HCP with a four-card major").
    """
    if shown is None:
        return []
    key = (tuple(map(id, denied)), shown, tuple(before), ctx)
    hit = _SAID.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], denied, strict=True)):
        return list(hit[1])
    out = _denial_words(denied, shown, before, ctx)
    if len(_SAID) >= _SAID_MAX:
        _SAID.clear()
    _SAID[key] = (tuple(denied), tuple(out))
    return out


# The same call after the same calls is worded again and again (the web table explains
# the whole auction at every call): kept, keyed by the denied entries' identities (the
# entries kept with the words, so an identity is never another entry's).
_SAID: dict[tuple[object, ...], tuple[tuple[CallEntry, ...], tuple[str, ...]]] = {}
_SAID_MAX = 4096


def _denial_words(denied: Sequence[CallEntry], shown: Constraint, before: Facts,
                  ctx: TableContext) -> list[str]:
    own = relaxed_mask([*before, (shown, ctx)])
    if not own.any():
        return []
    weight = profile_space().count
    floor = TELLING_SHARE * float(np.sum(weight[own]))
    candidates: list[tuple[int, CallEntry, Array]] = []
    for order, entry in enumerate(denied):
        overlap = own & relaxed_mask([(entry.choose, ctx)])
        if float(np.sum(weight[overlap])) >= floor:
            candidates.append((order, entry, overlap))
    said: list[tuple[int, list[Item] | str]] = []  # (denial, a type's items or its text)
    left = own.copy()
    rest = 0
    while candidates:
        gains = [float(np.sum(weight[overlap & left])) for _, _, overlap in candidates]
        best = max(range(len(candidates)), key=lambda i: (gains[i], -candidates[i][0]))
        if gains[best] < floor:
            break  # what is left is implied by the denials said
        _, entry, overlap = candidates.pop(best)
        number = len({n for n, _ in said})
        if number >= DENIALS_SHOWN:
            left &= ~overlap
            rest += 1
            continue
        types = _lacking(entry, ctx, left, floor)
        if types is None or sum(len(_join(t)) + 4 for t in types) > DENIAL_CHARS or (
                _said_by_text(entry, types)):
            words = denied_words(entry, ctx, own)
            if all(words != w for _, w in said):
                said.append((number, words))
        else:
            said.extend((number, t) for t in types if all(t != w for _, w in said))
        left &= ~overlap
    out = [f"denies {w}" for w in _merged(said)]
    if rest:
        out.append(f"and {rest} rarer hand type{'s' if rest > 1 else ''}")
    return out


def _said_by_text(entry: CallEntry, types: list[list[Item]]) -> bool:
    """Whether a denial of several hand types is better said by the call's own text: a
    two-suited convention whose text names its suits, every type of its meaning denied
    (so the text says no more than is denied), the text the shorter ("diamonds and
    hearts" for "6-15 HCP with either (4+ hearts, 5+ diamonds) or (5+ hearts, ...)")."""
    alts = _alternatives(entry.choose) or [entry.choose]
    if len(types) < 2 or len(types) != len(alts):
        return False
    text = clean_description(entry.text())
    return _names_its_suits(entry, text) and len(text) < len(_alternatives_text(types))


def _names_its_suits(entry: CallEntry, text: str) -> bool:
    """A two-suited convention whose text names its suits ("both majors"): its text says
    the hand types its meaning spells out one by one."""
    return bool(set(entry.tags) & CONVENTION_TAGS) and bool(SUIT_WORDS.search(text))


def _lacking(entry: CallEntry, ctx: TableContext, left: Array, floor: float
             ) -> list[list[Item]] | None:
    """The hand types of ``entry``'s meaning that remove at least ``floor`` of the hands
    ``left`` (points of the profile space), each as the items it says beyond what those
    hands already meet (None: a type says nothing the profile space can word)."""
    weight = profile_space().count
    alts = _alternatives(entry.choose) or [entry.choose]
    if len(alts) > MAX_TYPES:
        return None
    types: list[list[Item]] = []
    for alt in alts:
        removed = left & relaxed_mask([(alt, ctx)])
        if float(np.sum(weight[removed])) < floor:
            continue
        items = _type_items(_beyond(alt, ctx, left), ctx)
        if items is None:
            return None
        if items and list(items) not in types:
            types.append(list(items))
    return types or None


@lru_cache(maxsize=4096)
def _type_items(said: Constraint, ctx: TableContext) -> tuple[Item, ...] | None:
    """A denied hand type's items (None: it cannot be said as one hand type)."""
    if any(isinstance(t, Or) for t in (said.items if isinstance(said, And) else [said])):
        return None  # its words would be the hull of its types: more than it denies
    view = view_of([(said, ctx)])
    if view is None:
        return None
    named = said.suits()
    # "at most 3 spades" beside "5+ diamonds, 5+ clubs" only counts the cards left
    return tuple(i for i in items_of(view)
                 if not (i[0] in SUIT_KEYS and i[0] not in named and "at most" in i[1]))


def _beyond(alt: Constraint, ctx: TableContext, left: Array) -> Constraint:
    """``alt`` without the terms that the hands ``left`` meet wherever they meet the
    rest: dropping one may add at most ``BEYOND_SLACK`` of the hands it removes. A term
    the profile space cannot read (playing tricks) is always kept: relaxed away, it
    would seem implied."""
    parts = list(alt.items) if isinstance(alt, And) else [alt]
    masks = [relaxed_mask([(p, ctx)]) for p in parts]
    weight = profile_space().count
    exact = [relax(p) == p for p in parts]

    def removed(keep: list[int]) -> float:
        mask = left.copy()
        for i in keep:
            mask &= masks[i]
        return float(np.sum(weight[mask]))

    keep = list(range(len(parts)))
    target = removed(keep)
    for i in range(len(parts)):
        if not exact[i] or len(keep) == 1:
            continue
        trial = [k for k in keep if k != i]
        if removed(trial) <= target * (1 + BEYOND_SLACK):
            keep = trial
    return conjoin([parts[k] for k in keep])


def _merged(said: list[tuple[int, list[Item] | str]]) -> list[str]:
    """Each denial's words, its hand types joined by "or"; two types of any denials that
    differ only in one suit's length are said as one (denying either is denying each:
    "10-14 HCP, 4+ hearts" and "10-14 HCP, 4+ spades" are "10-14 HCP with a four-card
    major")."""
    clauses: list[tuple[int, list[list[Item]] | str]] = []
    done: set[int] = set()
    sizes = Counter(number for number, _ in said)
    for i, (number, one) in enumerate(said):
        if i in done:
            continue
        if isinstance(one, str):
            clauses.append((number, one))
            continue
        for j in range(i + 1, len(said)):
            other = said[j][1]
            if j in done or isinstance(other, str) or said[j][0] == number or (
                    sizes[number] > 1 and sizes[said[j][0]] > 1):
                continue  # a denial of several types is not taken apart for another's
            only_a = [x for x in one if x not in other]
            only_b = [x for x in other if x not in one]
            if (len(only_a) == 1 == len(only_b) and only_a[0][0] in SUIT_KEYS
                    and only_b[0][0] in SUIT_KEYS
                    and _named_group([only_a[0][1], only_b[0][1]]) is not None):
                clauses.append((-1, [one, other]))  # a clause of its own
                done.add(j)
                break
        else:
            last = clauses[-1] if clauses else None
            if last is not None and last[0] == number and not isinstance(last[1], str):
                last[1].append(one)  # another type of the same denial
            else:
                clauses.append((number, [one]))
    return [text if isinstance(text, str) else
            (_alternatives_text(text) if len(text) > 1 else _join(text[0]))
            for _, text in clauses if text]


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
    text = clean_description(entry.text())
    if alts and not narrowed and words is not None and _names_its_suits(entry, text) and (
            len(text) < len(words)):
        return text  # "both majors" for either five-four in the majors
    if words is not None and len(words) <= DENIAL_CHARS:
        return words
    if not narrowed and (words is None or len(text) < len(words)):
        return text
    return words if words is not None else text


__all__ = ["call_meaning", "clean_description", "constraint_words", "denial_words",
           "denied_words", "forcing_said"]
