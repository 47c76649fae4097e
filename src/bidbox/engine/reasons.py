"""Why a hand makes its call, in a player's words: the features of the hand that decided
it, the meaning they fit, and where the choice was close, the call tried just before and
the one thing the hand lacked for it.

"13 HCP, 4-3-3-3: 1NT shows 12-14 balanced" says what "the first call in priority order
whose meaning fits" does not: which of the hand's features the meaning read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bidbox.core.auction import Auction
from bidbox.core.hand import Hand
from bidbox.core.seats import Side
from bidbox.engine.features import HandFeatures
from bidbox.engine.predicates import TableContext, compile_predicate
from bidbox.engine.walk import BASE, SYSTEM, replay, table_context, tried_before
from bidbox.engine.wording import clean_description, constraint_words
from bidbox.evaluate import get_measure
from bidbox.lang.constraints import (
    SUIT_NAMES,
    And,
    Constraint,
    Context,
    Flag,
    MeasureRange,
    Not,
    Or,
    SuitFlag,
    SuitRange,
    conjoin,
)
from bidbox.lang.system import CallEntry, System

SUIT_KEYS = ("S", "H", "D", "C")
NEAR = 1  # a point or a card: a miss this small makes the choice close
_FLAG_WORDS = {"balanced": "balanced", "semi_balanced": "semi-balanced",
               "single_suited": "single-suited", "two_suited": "two-suited",
               "three_suited": "three-suited", "rule_of_18": "Rule of 18",
               "rule_of_20": "Rule of 20"}


@dataclass(frozen=True)
class Reason:
    """The features that decided a call and the sentence that says so."""

    text: str
    features: dict[str, object]
    closest: str | None = None  # the call tried just before that nearly fitted, and why not


def hand_features(hand: Hand, measures: set[str]) -> dict[str, object]:
    """HCP and shape always, then every other measure the deciding meanings read, each in
    the units a player counts (per suit as a mapping S/H/D/C)."""
    one = HandFeatures(np.array([hand.suits], dtype=np.int16))
    lengths = [int(x) for x in one.value("lengths")[0]]
    out: dict[str, object] = {"hcp": _plain(one.value("hcp")[0]),
                              "shape": "-".join(map(str, lengths))}
    for name in sorted(measures - {"hcp", "lengths", "context", "shape"}):
        measure = get_measure(name)
        value = one.value(name)[0]
        if name == "pattern":
            out[name] = "".join(map(str, sorted(lengths, reverse=True)))
        elif measure.per_suit:
            out[name] = {k: _plain(v) for k, v in zip(SUIT_KEYS, value, strict=True)}
        else:
            out[name] = _plain(value)
    return out


def _plain(value: object) -> object:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    number = float(value)  # type: ignore[arg-type]
    return int(number) if number.is_integer() else number


def explain_choice(hand: Hand, auction: Auction, systems: Mapping[Side, System],
                   entry: CallEntry | None, source: str, judged_reason: str,
                   partner_shows: str | None = None) -> Reason:
    """The reason for the call ``entry`` (None: judgement's own) that ``hand`` makes after
    ``auction``; ``judged_reason`` is the engine's reason, kept for judgement's calls;
    ``partner_shows``: what partner's calls have shown, as ``explain`` states it, which a
    placement names before its estimate (the captain decides on it)."""
    if entry is None or source not in (SYSTEM, BASE):
        features = hand_features(hand, {"hcp"})
        said = with_partner_shown(judged_reason, partner_shows)
        return Reason(f"{_lead(features)}: {said}", features)
    _, state = replay(auction, systems)
    seat = auction.next_seat
    here = state.side(seat)
    node = here.node if source == SYSTEM else here.base
    ctx = table_context(auction, len(auction.calls))
    one = HandFeatures(np.array([hand.suits], dtype=np.int16))
    deciding = conjoin(_deciding(entry.choose, one, ctx))
    features = hand_features(hand, deciding.measures())
    meaning = clean_description(entry.text())
    if not any(ch.isdigit() for ch in meaning):  # "invitational": say what it holds too
        words = constraint_words(entry.shown, ctx)
        if words:
            meaning = f"{meaning} ({words})"
    text = f"{_lead(features, deciding)}: {entry.call} shows {meaning}"
    closest = None
    if node is not None:
        before = [e for e in tried_before(node, entry, ctx, auction) if not e.is_default_pass]
        closest = _closest_miss(before, one, ctx)
    if closest:
        text += f"; {closest}"
    where = "the natural base" if source == BASE else "the notes"
    place = f"{Path(entry.location.file).name}:{entry.location.line}"
    return Reason(f"{text} ({where}, {place})", features, closest)


def with_partner_shown(reason: str, shown: str | None) -> str:
    """A placement's reason with what partner has shown put first: "placement: partner
    shows 10-12 HCP, 4+ spades; we hold 14 HCP ...". Other judged reasons (an answer to
    Blackwood, a pass after partner's sign-off) are left as they are."""
    head, sep, rest = reason.partition(": ")
    if not shown or not sep or not head.startswith("placement"):
        return reason
    return f"{head}: partner shows {shown}; {rest}"


def _deciding(c: Constraint, one: HandFeatures, ctx: TableContext) -> list[Constraint]:
    """The terms of ``c`` that the hand meets: all of a conjunction's, the first fitting
    hand type of a disjunction (the 10-11 HCP type of an opening does not decide a
    15-count)."""
    if isinstance(c, And):
        return [t for item in c.items for t in _deciding(item, one, ctx)]
    if isinstance(c, Or):
        for item in c.items:
            if bool(compile_predicate(item)(one, ctx)[0]):
                return _deciding(item, one, ctx)
        return []
    return [c]


def _lead(features: Mapping[str, object], choose: Constraint | None = None) -> str:
    """'13 HCP, 4-3-3-3' and, where the meaning read them, the other measures it used."""
    parts = [f"{features['hcp']} HCP", str(features["shape"])]
    if choose is not None:
        for name in sorted(choose.measures() - {"hcp", "lengths", "context", "shape",
                                                "pattern"}):
            value = features.get(name)
            if isinstance(value, bool):
                if value:
                    parts.append(_FLAG_WORDS.get(name, name.replace("_", " ")))
            elif isinstance(value, dict):
                label = {"suit_hcp": "HCP", "top_honours": "of the top three honours",
                         "suit_controls": "controls"}.get(name, name.replace("_", " "))
                parts.extend(f"{value[s]} {label} in {SUIT_NAMES[s]}"
                             for s in _suits_read(choose, name))
            elif value is not None:
                parts.append(f"{value} {name.replace('_', ' ')}")
    return ", ".join(parts)


def _suits_read(c: Constraint, name: str) -> list[str]:
    found: list[str] = []
    stack = [c]
    while stack:
        item = stack.pop()
        if isinstance(item, (SuitRange, SuitFlag)) and item.measure == name \
                and item.suit in SUIT_KEYS and item.suit not in found:
            found.append(item.suit)
        stack.extend(item.children())
    return sorted(found, key=SUIT_KEYS.index)


def _closest_miss(before: list[CallEntry], one: HandFeatures, ctx: TableContext
                  ) -> str | None:
    """The latest call tried before the chosen one that the hand missed by one term, and
    that term ("1NT needs 15-17 HCP: the hand has 14")."""
    for entry in reversed(before):
        missing = _one_missing(entry.choose, one, ctx)
        if missing is not None:
            return f"not {entry.call}: it needs {missing}"
    return None


def _one_missing(c: Constraint, one: HandFeatures, ctx: TableContext) -> str | None:
    """The single term of ``c`` (in its closest hand type) that the hand fails, in words
    with the hand's own value; None when it fails by more than one term, or fits."""
    if bool(compile_predicate(c)(one, ctx)[0]):
        return None
    branches = list(c.items) if isinstance(c, Or) else [c]
    for branch in branches:
        terms = list(branch.items) if isinstance(branch, And) else [branch]
        if any(isinstance(t, Context) and not bool(compile_predicate(t)(one, ctx)[0])
               for t in terms):
            continue  # another seat or vulnerability: not a near miss
        failing = [t for t in terms if not bool(compile_predicate(t)(one, ctx)[0])]
        if len(failing) == 1 and _near(failing[0], one):
            return _term_words(failing[0], one)
    return None


def _near(term: Constraint, one: HandFeatures) -> bool:
    """A miss by one point or one card: the choice was close."""
    if isinstance(term, MeasureRange) and term.measure in ("hcp", "controls"):
        value = float(one.value(term.measure)[0])
    elif isinstance(term, SuitRange) and term.measure == "lengths" and term.suit in SUIT_KEYS:
        value = float(one.value("lengths")[0][SUIT_KEYS.index(term.suit)])
    else:
        return False
    lo = term.lo if term.lo is not None else value
    hi = term.hi if term.hi is not None else value
    return max(lo - value, value - hi) <= NEAR


def _term_words(term: Constraint, one: HandFeatures) -> str:
    text = term.describe()
    if isinstance(term, Not):
        return f"no hand with {term.item.describe()} (this one has it)"
    if isinstance(term, MeasureRange):
        value = _plain(one.value(term.measure)[0])
        return f"{text} (the hand has {value})"
    if isinstance(term, SuitRange) and term.suit in SUIT_KEYS:
        value = _plain(one.value(term.measure)[0][SUIT_KEYS.index(term.suit)])
        return f"{text} (the hand has {value})"
    if isinstance(term, Flag):
        return f"{_FLAG_WORDS.get(term.measure, text)} (the hand is not)"
    return f"{text} (the hand does not have it)"


__all__ = ["Reason", "explain_choice", "hand_features"]
