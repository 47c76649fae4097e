"""Knowledge as a player states it: what each seat has shown, in the words of the table.

The engine's ranges are measurements (the smallest and largest value among the hands
that fit); a player states bounds ("15+ HCP", "=4 spades", "2 aces") and only for what
the auction spoke of. Three things make the difference:

- **Bounds from the meanings.** Every meaning is relaxed to what the exact profile space
  can read (a card-level term becomes "any hand" where it restricts and "no hand" where
  its negation would): the relaxed facts admit every hand the real ones do, so their
  exact ranges are true bounds, never a sampled maximum. Card-level measures (playing
  tricks, suit quality) are bounded by interval reasoning over the constraints.
- **The table.** 40 HCP and 13 cards a suit: a seat's bounds are narrowed by what the
  other three have shown, which is all a silent seat tells.
- **Hand types.** An either/or meaning (Stayman: 4+ hearts or 4+ spades) is stated as
  its alternatives when their union would say nothing the alternatives say.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from bidbox.core.seats import Seat, Side
from bidbox.engine.features import Array
from bidbox.engine.inference import Facts
from bidbox.engine.predicates import TableContext, compile_predicate
from bidbox.engine.profiles import EXACT_MEASURES, profile_space
from bidbox.evaluate import get_measure
from bidbox.lang.constraints import (
    ANY,
    RANKED_SUITS,
    SUIT_NAMES,
    Always,
    And,
    Constraint,
    Flag,
    MeasureRange,
    Or,
    SuitFlag,
    SuitRange,
    conjoin,
)
from bidbox.lang.constraints import (
    relax as relax_terms,
)

SUIT_KEYS = ("S", "H", "D", "C")
DECK_HCP = 40
MAX_HCP = 37
OPEN_LENGTH = 8  # a suit known to be this long or longer is stated as "N+"
MAX_TYPES = 6  # alternatives beyond this are stated as their union
WORTH_CAPPING = 30  # a maximum of 30 HCP or more never decides a call: stated open
TABLE_CAP_WORTH = 22  # a silent seat's cap from the table is worth saying below this
_SHAPE_FLAGS = {"balanced", "semi_balanced", "pattern", "shape", "lengths", "context", "hcp"}
_COUNT_LABELS = {
    "controls": ("control", "controls"), "aces": ("ace", "aces"), "kings": ("king", "kings"),
    "playing_tricks": ("playing trick", "playing tricks"),
    "quick_tricks": ("quick trick", "quick tricks"), "ltc": ("loser (LTC)", "losers (LTC)"),
    "roman_losers": ("Roman loser", "Roman losers"), "rule_points": ("rule point",
                                                                     "rule points"),
    "suit_hcp": ("HCP", "HCP"), "suit_controls": ("control", "controls"),
    "top_honours": ("top honour", "top honours"),
}
_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six",
                 7: "seven", 8: "eight", 9: "nine"}


# --- relaxing meanings to the exact space ---------------------------------------------
def is_exact_term(c: Constraint) -> bool:
    return c.measures() <= EXACT_MEASURES and not _ranked(c)


def _ranked(c: Constraint) -> bool:
    return bool(c.suits() & set(RANKED_SUITS)) and not c.measures() <= {"lengths"}


def relax(c: Constraint) -> Constraint:
    """A constraint the profile space can read that every hand meeting ``c`` meets: its
    card-level terms relaxed away (lang.constraints.relax)."""
    return relax_terms(c, is_exact_term)


def relaxed_mask(facts: Facts) -> Array:
    """The points of the profile space that every relaxed fact admits."""
    mask = np.ones(profile_space().n, dtype=bool)
    for c, ctx in facts:
        mask &= _relaxed_one(c, ctx)
    return mask


@lru_cache(maxsize=1024)
def _relaxed_one(c: Constraint, ctx: TableContext) -> Array:
    # Kept: the same meanings come back call after call (each denial, each hand type).
    space = profile_space()
    mask = compile_predicate(relax(c))(space, ctx)
    mask.setflags(write=False)
    return mask


Bound = tuple[float | None, float | None]


def symbolic_bounds(c: Constraint, measure: str, suit: str | None) -> Bound:
    """Bounds on one measure (per suit when ``suit``) that every hand meeting ``c``
    respects, by interval reasoning: a conjunction meets its parts' bounds, a
    disjunction their hull; a negation is not read (no bound)."""
    if isinstance(c, And):
        lo: float | None = None
        hi: float | None = None
        for item in c.items:
            a, b = symbolic_bounds(item, measure, suit)
            if a is not None:
                lo = a if lo is None else max(lo, a)
            if b is not None:
                hi = b if hi is None else min(hi, b)
        return lo, hi
    if isinstance(c, Or):
        spans = [symbolic_bounds(i, measure, suit) for i in c.items]
        los = [a for a, _ in spans]
        his = [b for _, b in spans]
        return (None if any(a is None for a in los) else min(a for a in los if a is not None),
                None if any(b is None for b in his) else max(b for b in his if b is not None))
    if isinstance(c, Always) and not c.value:
        return None, None
    if isinstance(c, MeasureRange) and suit is None and c.measure == measure:
        return c.lo, c.hi
    if isinstance(c, SuitRange) and c.measure == measure and c.suit == suit:
        return c.lo, c.hi
    return None, None


def required_flags(c: Constraint) -> list[Constraint]:
    """The yes/no terms every hand meeting ``c`` has: those standing in its conjunction."""
    if isinstance(c, And):
        return [f for i in c.items for f in required_flags(i)]
    if isinstance(c, (Flag, SuitFlag)) and not (set(c.suits()) & set(RANKED_SUITS)):
        return [c]
    return []


# --- one seat's view ------------------------------------------------------------------
@dataclass
class SeatView:
    """What one seat is bound to hold: HCP and lengths as (lo, hi), plus other measures."""

    hcp: tuple[float, float]
    lengths: dict[str, tuple[float, float]]
    balanced: bool
    measures: dict[tuple[str, str | None], tuple[float, float]] = field(default_factory=dict)
    flags: list[str] = field(default_factory=list)
    hcp_open: bool = False  # no meaning sets its maximum (only the cards do): "N+"
    table_bound: bool = False  # its maximum is what the other three seats leave

    @property
    def shows_anything(self) -> bool:
        return self.hcp[0] > 0 or any(lo > 0 for lo, _ in self.lengths.values()) or bool(
            self.measures or self.flags)


def view_of(facts: Facts, extra: Sequence[tuple[Constraint, TableContext]] = ()
            ) -> SeatView | None:
    """The seat's bounds from its facts (None: no hand fits even the relaxed meanings)."""
    everything = list(facts) + list(extra)
    mask = relaxed_mask(everything) if everything else np.ones(profile_space().n, dtype=bool)
    if not mask.any():
        return None
    space = profile_space()
    hcp = space.value("hcp")[mask]
    lengths = space.value("lengths")[mask]
    view = SeatView((float(hcp.min()), float(hcp.max())),
                    {k: (float(lengths[:, i].min()), float(lengths[:, i].max()))
                     for i, k in enumerate(SUIT_KEYS)},
                    bool(space.value("balanced")[mask].all()))
    view.hcp_open = view.hcp[1] >= _most_hcp(view.lengths)
    whole = conjoin([c for c, _ in everything]) if everything else ANY
    for name in sorted(_measures_named(whole)):
        measure = get_measure(name)
        if not measure.numeric:
            continue
        for suit in (SUIT_KEYS if measure.per_suit else (None,)):
            lo, hi = symbolic_bounds(whole, name, suit)
            if lo is None and hi is None:
                continue
            full_lo, full_hi = _full_range(name, suit)
            if name in EXACT_MEASURES and not measure.per_suit:
                values = space.value(name)[mask]
                lo, hi = float(values.min()), float(values.max())
            lo = full_lo if lo is None else max(lo, full_lo)
            hi = full_hi if hi is None else min(hi, full_hi)
            if (lo, hi) != (full_lo, full_hi):
                view.measures[(name, suit)] = (lo, hi)
    seen: set[str] = set()
    for flag in required_flags(whole):
        if flag.measures() & _SHAPE_FLAGS:
            continue
        text = flag.describe().replace(" suited", "-suited").replace("semi balanced",
                                                                           "semi-balanced")
        if text not in seen:
            seen.add(text)
            view.flags.append(text)
    return view


def hcp_statement(facts: Facts) -> str | None:
    """The HCP a seat's facts bound, as its "Known now" line says it ("10-22 HCP",
    "19+ HCP"; None: no bound; "no hand fits" when none does). The HCP part of
    :func:`view_of` alone, for a reader such as the convention card that needs no other
    measure (view_of also bounds every measure a meaning names, on the dealt pool)."""
    mask = relaxed_mask(facts) if facts else np.ones(profile_space().n, dtype=bool)
    if not mask.any():
        return "no hand fits"
    space = profile_space()
    hcp = space.hcp[mask]
    lengths = space.lengths[mask]
    bounds = {k: (float(lengths[:, i].min()), float(lengths[:, i].max()))
              for i, k in enumerate(SUIT_KEYS)}
    lo, hi = float(hcp.min()), float(hcp.max())
    return hcp_words(lo, hi, hi >= _most_hcp(bounds))


def _most_hcp(lengths: Mapping[str, tuple[float, float]]) -> float:
    """The most HCP any hand with lengths in these bounds holds: a maximum no meaning
    set (31 with seven hearts) is not worth stating."""
    space = profile_space()
    box = np.ones(space.n, dtype=bool)
    for i, k in enumerate(SUIT_KEYS):
        lo, hi = lengths[k]
        box &= (space.lengths[:, i] >= lo) & (space.lengths[:, i] <= hi)
    return float(space.hcp[box].max()) if box.any() else float(MAX_HCP)


def _measures_named(c: Constraint) -> set[str]:
    return c.measures() - _SHAPE_FLAGS


_FULL: dict[tuple[str, str | None], tuple[float, float]] = {}


def _full_range(name: str, suit: str | None) -> tuple[float, float]:
    """The range a measure takes over all hands (from the dealt pool, or the exact space)."""
    key = (name, suit)
    if key not in _FULL:
        if name in EXACT_MEASURES and suit is None:
            values = profile_space().value(name)
        else:
            from bidbox.engine.features import sample_hands

            values = sample_hands().value(name)
            if suit is not None:
                values = values[:, SUIT_KEYS.index(suit)]
        _FULL[key] = (float(values.min()), float(values.max()))
    return _FULL[key]


def apply_table(views: Mapping[Seat, SeatView | None]) -> None:
    """Narrow each seat by the others: 40 HCP in the deck, 13 cards in each suit."""
    seats = [s for s in Seat if views.get(s) is not None]
    for _ in range(2):
        for seat in seats:
            view = views[seat]
            assert view is not None
            others = [views[s] for s in seats if s is not seat]
            lo_others = sum(v.hcp[0] for v in others if v is not None)
            hi_others = sum(v.hcp[1] for v in others if v is not None)
            missing = 4 - len(seats)
            table_hi = DECK_HCP - lo_others
            table_lo = DECK_HCP - hi_others - MAX_HCP * missing
            lo, hi = view.hcp
            if table_hi < hi:
                view.table_bound = True
                hi = table_hi
            view.hcp = (max(lo, table_lo, 0.0), hi)
            for suit in SUIT_KEYS:
                s_lo = sum(v.lengths[suit][0] for v in others if v is not None)
                s_hi = sum(v.lengths[suit][1] for v in others if v is not None) + 13 * missing
                lo, hi = view.lengths[suit]
                view.lengths[suit] = (max(lo, 13 - s_hi, 0.0), min(hi, 13 - s_lo))


# --- words ------------------------------------------------------------------------------
def _n(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def hcp_words(lo: float, hi: float, is_open: bool, table_bound: bool = False,
              cap: float = WORTH_CAPPING) -> str | None:
    """'14 HCP', '15+ HCP', '12-14 HCP', 'at most 16 HCP' (None: nothing known).

    A seat that has shown a minimum keeps an open range when only the cards or the
    other seats cap it (a player says "11+", not "11-28"); a seat that has shown no
    minimum is worth its cap only when the other seats set it (the silent hand).
    """
    if lo == hi:
        return f"{_n(lo)} HCP"
    if lo <= 0:
        if hi >= cap or (is_open and not table_bound):
            return None
        if is_open and hi > TABLE_CAP_WORTH:
            return None  # "at most 29" opposite a 1NT opening tells nobody anything
        return f"at most {_n(hi)} HCP"
    if is_open or table_bound or hi >= cap:
        return f"{_n(lo)}+ HCP"
    return f"{_n(lo)}-{_n(hi)} HCP"


def length_words(suit: str, lo: float, hi: float, balanced: bool) -> str | None:
    """A suit's length as a player says it, or None when it tells nothing worth saying."""
    name = SUIT_NAMES[suit]
    if lo == hi:
        return f"no {name}" if lo == 0 else f"={_n(lo)} {name}"
    if lo < 3 and hi > 3:
        return None  # 2-5 in a balanced hand, 0-9 in a long-suit denial: nothing to say
    if balanced and lo < 4 and hi > 3:
        return None  # 3-5 beside a known doubleton: what "balanced" already says
    if hi >= OPEN_LENGTH:
        return f"{_n(lo)}+ {name}"
    if lo <= 0:
        return f"at most {_n(hi)} {name}"
    return f"{_n(lo)}-{_n(hi)} {name}"


def count_words(name: str, suit: str | None, lo: float, hi: float,
                full: tuple[float, float]) -> str:
    one, many = _COUNT_LABELS.get(name, (name.replace("_", " "), name.replace("_", " ")))
    where = f" in {SUIT_NAMES[suit]}" if suit else ""
    if name == "suit_controls" and suit and hi == 0:
        return f"neither ace nor king of {SUIT_NAMES[suit]}"
    if lo == hi:
        return f"{_n(lo)} {one if lo == 1 else many}{where}"
    if hi >= full[1]:
        return f"{_n(lo)}+ {many}{where}"
    if lo <= full[0]:
        return f"at most {_n(hi)} {one if hi == 1 else many}{where}"
    return f"{_n(lo)}-{_n(hi)} {many}{where}"


Item = tuple[str, str]  # (what it speaks of, the words)


def items_of(view: SeatView) -> list[Item]:
    items: list[Item] = []
    hcp = hcp_words(*view.hcp, view.hcp_open, view.table_bound)
    if hcp:
        items.append(("hcp", hcp))
    exact_shape = all(lo == hi for lo, hi in view.lengths.values())
    if exact_shape:
        items.append(("shape", "shape " + "-".join(_n(view.lengths[k][0])
                                                   for k in SUIT_KEYS)))
    else:
        if view.balanced:
            items.append(("balanced", "balanced"))
        for suit in SUIT_KEYS:
            said = length_words(suit, *view.lengths[suit], view.balanced)
            if said:
                items.append((suit, said))
    for (name, where), (lo, hi) in view.measures.items():
        items.append((f"{name}:{where or ''}",
                      count_words(name, where, lo, hi, _full_range(name, where))))
    items.extend(("flag:" + f, f) for f in view.flags)
    return items


def _join(items: Sequence[Item]) -> str:
    return ", ".join(text for _, text in items)


def _alternatives_text(types: Sequence[Sequence[Item]]) -> str:
    """Hand types with what they share said once: '11+ HCP with a four-card major',
    '5+ spades and 5+ in a minor'. A short suit that only completes one type's picture
    ("at most 3 diamonds" beside "5+ clubs") is left out of the alternatives."""
    common = [i for i in types[0] if all(i in t for t in types[1:])]
    rests = [[i for i in t if i not in common] for t in types]
    trimmed = [[i for i in r if not (i[0] in SUIT_KEYS and i[1].startswith("at most"))]
               for r in rests]
    if all(trimmed):
        rests = trimmed
    named = _named_group([r[0][1] for r in rests]) if all(len(r) == 1 for r in rests) else None
    if named:
        inner = named
    else:
        inner = " or ".join(f"({_join(r)})" if len(r) > 1 else _join(r) for r in rests)
        if common:
            inner = f"either {inner}"  # "4+ spades and either 5+ clubs or 4+ diamonds"
    if not common:
        return inner
    joiner = "and" if common[-1][0] in SUIT_KEYS and not inner.startswith("a ") else "with"
    return f"{_join(common)} {joiner} {inner}"


def _named_group(texts: Sequence[str]) -> str | None:
    """'4+ hearts or 4+ spades' -> 'a four-card major'; '5+ clubs or 5+ diamonds' ->
    '5+ in a minor'; '4-5 hearts or 4-5 spades' -> 'a four- or five-card major'."""
    for group, word in ((("hearts", "spades"), "major"), (("clubs", "diamonds"), "minor")):
        for count in range(1, 10):
            for form in (f"{count}+ {{}}", f"={count} {{}}", f"{count}-{count + 1} {{}}"):
                if sorted(texts) != sorted(form.format(s) for s in group):
                    continue
                number = _NUMBER_WORDS.get(count, str(count))
                if "-" in form:
                    more = _NUMBER_WORDS.get(count + 1, str(count + 1))
                    return f"a {number}- or {more}-card {word}"
                if count == 4 or form.startswith("="):
                    return f"a {number}-card {word}"
                return f"{count}+ in a {word}"
    return None


# --- the auction --------------------------------------------------------------------
@dataclass
class Stated:
    """A seat's knowledge in words: the statement, and its hand types if kept apart."""

    text: str
    hand_types: list[str] = field(default_factory=list)
    consistent: bool = True
    view: SeatView | None = None


def _alternatives(c: Constraint) -> list[Constraint] | None:
    if isinstance(c, Or):
        return list(c.items)
    if isinstance(c, And):
        ors = [i for i in c.items if isinstance(i, Or)]
        if len(ors) == 1:
            rest = [i for i in c.items if i is not ors[0]]
            return [conjoin([*rest, branch]) for branch in ors[0].items]
    return None


def state_knowledge(facts: Mapping[Seat, Facts],
                    shown: Mapping[Seat, list[tuple[Constraint, TableContext]]]
                    ) -> tuple[dict[Seat, Stated], dict[Side, str]]:
    """Each seat's statement, and each partnership's combined one where both have shown."""
    views: dict[Seat, SeatView | None] = {s: view_of(facts[s]) for s in Seat}
    apply_table(views)
    out: dict[Seat, Stated] = {}
    for seat in Seat:
        view = views[seat]
        if view is None:
            out[seat] = Stated("inconsistent: no hand fits every call", consistent=False)
            continue
        items = items_of(view)
        types = _hand_types(seat, facts[seat], shown.get(seat, []), views, items)
        text = _alternatives_text(types) if types else _join(items)
        out[seat] = Stated(text or "nothing shown", [_join(t) for t in types], True, view)
    return out, _partnerships(views)


def _hand_types(seat: Seat, facts: Facts, shown: list[tuple[Constraint, TableContext]],
                views: Mapping[Seat, SeatView | None], union: list[Item]) -> list[list[Item]]:
    """The alternatives of the seat's either/or meanings, when saying them apart tells
    what their union cannot (each names something the union leaves open)."""
    choices = []
    for c, ctx in shown:
        alts = _alternatives(c)
        if alts:
            choices.append([(a, ctx) for a in alts])
    if not choices:
        return []
    total = 1
    for options in choices:
        total *= len(options)
    if total > MAX_TYPES:
        return []
    union_keys = {k for k, _ in union}
    found: list[list[Item]] = []
    for combination in itertools.product(*choices):
        view = view_of(facts, combination)
        if view is None:
            continue
        table = {s: (view if s is seat else copy.deepcopy(v)) for s, v in views.items()}
        apply_table(table)
        items = items_of(view)
        if items not in found:
            found.append(items)
    if len(found) < 2:
        return []
    if not all({k for k, _ in t} - union_keys for t in found):
        return []
    return found


def _partnerships(views: Mapping[Seat, SeatView | None]) -> dict[Side, str]:
    out: dict[Side, str] = {}
    for side in Side:
        pair = [views[s] for s in Seat if s.side is side]
        if any(v is None or not v.shows_anything for v in pair):
            continue
        a, b = pair[0], pair[1]
        assert a is not None and b is not None
        parts = []
        lo = a.hcp[0] + b.hcp[0]
        if a.hcp_open or b.hcp_open:
            words = hcp_words(lo, MAX_HCP, True)
        else:
            # Two hands' maximum matters up to the grand slam: no cap.
            words = hcp_words(lo, min(a.hcp[1] + b.hcp[1], DECK_HCP), False, cap=DECK_HCP)
        if words:
            parts.append(words)
        for suit in SUIT_KEYS:
            s_lo = a.lengths[suit][0] + b.lengths[suit][0]
            if s_lo >= 7:
                parts.append(f"{_n(s_lo)}+ {SUIT_NAMES[suit]}")
        if parts:
            out[side] = ", ".join(parts)
    return out


def shape_words(shown: Constraint, ctx: TableContext) -> str | None:
    """The suits a call shows, as a player names them ('5+ spades and 5+ in a minor'),
    for a convention whose description does not say (None: it shows no length)."""
    facts = [(shown, ctx)]
    base = view_of(facts)
    if base is None:
        return None

    def lengths(view: SeatView) -> list[Item]:
        return [i for i in items_of(view) if i[0] in SUIT_KEYS and not i[1].startswith("at most")]

    alts = _alternatives(shown)
    types: list[list[Item]] = []
    if alts and len(alts) <= MAX_TYPES:
        for alt in alts:
            view = view_of([(alt, ctx)])
            if view is not None and lengths(view) not in types:
                types.append(lengths(view))
    if len(types) >= 2 and all(types):
        return _alternatives_text(types)
    items = lengths(base)
    return _join(items) if items else None


__all__ = [
    "SeatView",
    "Stated",
    "hcp_statement",
    "hcp_words",
    "relax",
    "relaxed_mask",
    "shape_words",
    "state_knowledge",
    "symbolic_bounds",
    "view_of",
]
