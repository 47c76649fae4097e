"""The constraint language's syntax tree: what a call shows about the hand.

Constraints are frozen values with a canonical ``__str__`` in the system language
(so a printed constraint parses back) and ``describe()`` for people. Suits may be
variables (M, oM, m, om, Z, Y) until the compiler binds them; a variable still free
at the end means "some suit" and becomes a disjunction (4+M: 4+H or 4+S).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from bidbox.core.calls import Strain
from bidbox.core.hashing import keep_hash

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_VARIABLES = ("oM", "om", "M", "m", "Z", "Y")
RANKED_SUITS = ("L1", "L2", "L3", "L4")
"""The longest, second-longest ... suit of the hand itself (ties: the higher-ranking first)."""
VARIABLE_NAMES = {"M": "a major", "oM": "the other major", "m": "a minor",
                  "om": "the other minor", "Z": "a suit", "Y": "another suit"}


def variable_values(var: str, binding: dict[str, str]) -> list[str]:
    """The suits a variable may stand for, given the variables already bound."""
    if var == "M":
        return ["H", "S"]
    if var == "m":
        return ["C", "D"]
    if var == "oM":
        return [s for s in ("H", "S") if s != binding.get("M")]
    if var == "om":
        return [s for s in ("C", "D") if s != binding.get("m")]
    if var == "Z":
        return ["C", "D", "H", "S"]
    if var == "Y":
        return [s for s in ("C", "D", "H", "S") if s != binding.get("Z")]
    raise KeyError(var)


def suit_word(suit: str) -> str:
    ranked = {"L1": "the longest suit", "L2": "the second-longest suit",
              "L3": "the third-longest suit", "L4": "the shortest suit"}
    return SUIT_NAMES.get(suit) or VARIABLE_NAMES.get(suit) or ranked.get(suit, suit)


def suit_index(suit: str) -> int:
    """Column in hand arrays (S, H, D, C) of a bound suit."""
    return Strain.parse(suit).suit_index


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def range_text(lo: float | None, hi: float | None) -> str:
    """'12-14', '12+', '<=7', '=5' in the language's own notation."""
    if lo is not None and hi is not None:
        return f"={_fmt(lo)}" if lo == hi else f"{_fmt(lo)}-{_fmt(hi)}"
    if lo is not None:
        return f"{_fmt(lo)}+"
    if hi is not None:
        return f"<={_fmt(hi)}"
    return "any"


def range_words(lo: float | None, hi: float | None) -> str:
    if lo is not None and hi is not None:
        return _fmt(lo) if lo == hi else f"{_fmt(lo)}-{_fmt(hi)}"
    if lo is not None:
        return f"{_fmt(lo)}+"
    if hi is not None:
        return f"at most {_fmt(hi)}"
    return "any"


class Constraint:
    """Base of every constraint node."""

    precedence: ClassVar[int] = 3  # 1 or, 2 and, 3 atoms (for parenthesising)

    def describe(self) -> str:
        return str(self)

    def children(self) -> tuple[Constraint, ...]:
        return ()

    def suits(self) -> set[str]:
        """Suit names and variables mentioned."""
        out: set[str] = set()
        for child in self.children():
            out |= child.suits()
        return out

    def measures(self) -> set[str]:
        """Registry measure names (and 'context') this constraint reads."""
        out: set[str] = set()
        for child in self.children():
            out |= child.measures()
        return out

    def least_length(self, suit: str) -> int:
        """The fewest cards of ``suit`` every fitting hand holds, as the text says it
        (``4+S`` in every branch); 0 where it does not say. Read without the profile
        space, so that a reader with only the calls (the regulation) can tell a bid that
        shows its suit from one that names it."""
        return 0


@dataclass(frozen=True)
class Always(Constraint):
    value: bool = True

    def __str__(self) -> str:
        return "any" if self.value else "none"

    def describe(self) -> str:
        return "any hand" if self.value else "no hand"


ANY = Always(True)
NOTHING = Always(False)


@dataclass(frozen=True)
class And(Constraint):
    items: tuple[Constraint, ...]
    precedence: ClassVar[int] = 2

    def children(self) -> tuple[Constraint, ...]:
        return self.items

    def least_length(self, suit: str) -> int:
        return max((c.least_length(suit) for c in self.items), default=0)

    def __str__(self) -> str:
        return ", ".join(_wrap(c, 2) for c in self.items)

    def describe(self) -> str:
        return ", ".join(_wrap_words(c, 2) for c in self.items)


@dataclass(frozen=True)
class Or(Constraint):
    items: tuple[Constraint, ...]
    precedence: ClassVar[int] = 1

    def children(self) -> tuple[Constraint, ...]:
        return self.items

    def least_length(self, suit: str) -> int:
        return min((c.least_length(suit) for c in self.items), default=0)

    def __str__(self) -> str:
        return " | ".join(_wrap(c, 1) for c in self.items)

    def describe(self) -> str:
        # Factor out what every hand type shares: "11+ HCP, 4+ hearts or 4+ spades".
        parts = [list(c.items) if isinstance(c, And) else [c] for c in self.items]
        common = [c for c in parts[0] if all(c in p for p in parts[1:])]
        if common and all(len(p) > len(common) for p in parts):
            rests = [[c for c in p if c not in common] for p in parts]
            inner = " or ".join(", ".join(_wrap_words(c, 2) for c in r) if len(r) == 1
                                else "(" + ", ".join(_wrap_words(c, 2) for c in r) + ")"
                                for r in rests)
            return ", ".join(_wrap_words(c, 2) for c in common) + ", " + inner
        return "; or ".join(_wrap_words(c, 1) for c in self.items)


@dataclass(frozen=True)
class Not(Constraint):
    item: Constraint

    def children(self) -> tuple[Constraint, ...]:
        return (self.item,)

    def __str__(self) -> str:
        return f"not {_wrap(self.item, 3)}"

    def describe(self) -> str:
        return f"not {_wrap_words(self.item, 3)}"


def _wrap(c: Constraint, outer: int) -> str:
    return f"({c})" if c.precedence < outer or (outer == 3 and c.precedence < 3) else str(c)


def _wrap_words(c: Constraint, outer: int) -> str:
    text = c.describe()
    return f"({text})" if c.precedence < outer else text


@dataclass(frozen=True)
class MeasureRange(Constraint):
    """A numeric hand measure within an inclusive range: ``hcp 12-14``."""

    measure: str
    lo: float | None
    hi: float | None

    def measures(self) -> set[str]:
        return {self.measure}

    def __str__(self) -> str:
        return f"{self.measure} {range_text(self.lo, self.hi)}"

    def describe(self) -> str:
        label = {"hcp": "HCP", "roman_losers": "Roman losers", "ltc": "losers (LTC)",
                 "quick_tricks": "quick tricks", "playing_tricks": "playing tricks",
                 "rule_points": "rule points"}.get(self.measure, self.measure)
        return f"{range_words(self.lo, self.hi)} {label}"


@dataclass(frozen=True)
class SuitRange(Constraint):
    """A per-suit measure within a range; for lengths written ``4+H``, ``1-3C``, ``=4S``."""

    measure: str
    suit: str
    lo: float | None
    hi: float | None

    def suits(self) -> set[str]:
        return {self.suit}

    def measures(self) -> set[str]:
        return {self.measure}

    def least_length(self, suit: str) -> int:
        if self.measure == "lengths" and self.suit == suit and self.lo is not None:
            return int(self.lo)
        return 0

    def __str__(self) -> str:
        if self.measure == "lengths":
            if self.lo is not None and self.hi is None:
                return f"{_fmt(self.lo)}+{self.suit}"
            if self.lo is None and self.hi is not None:
                return f"0-{_fmt(self.hi)}{self.suit}"
            return f"{range_text(self.lo, self.hi)}{self.suit}"
        return f"{self.measure}({self.suit}) {range_text(self.lo, self.hi)}"

    def describe(self) -> str:
        if self.measure == "lengths":
            return f"{range_words(self.lo, self.hi)} {suit_word(self.suit)}"
        label = {"suit_hcp": "HCP in", "top_honours": "of the top three honours in"}.get(
            self.measure, f"{self.measure} in")
        return f"{range_words(self.lo, self.hi)} {label} {suit_word(self.suit)}"


@dataclass(frozen=True)
class Flag(Constraint):
    """A yes/no hand measure: ``balanced``, ``two_suited``, ``rule_of_18``."""

    measure: str

    def measures(self) -> set[str]:
        return {self.measure}

    def __str__(self) -> str:
        return self.measure

    def describe(self) -> str:
        return self.measure.replace("_", " ").replace("rule of", "Rule of")


@dataclass(frozen=True)
class SuitFlag(Constraint):
    """A yes/no per-suit measure: ``stoppers(H)``, ``solid(S)``, ``semi_solid(M)``."""

    measure: str
    suit: str

    def suits(self) -> set[str]:
        return {self.suit}

    def measures(self) -> set[str]:
        return {self.measure}

    def __str__(self) -> str:
        return f"{self.measure}({self.suit})"

    def describe(self) -> str:
        word = {"stoppers": "a stopper in", "solid": "solid", "semi_solid": "semi-solid"}.get(
            self.measure, self.measure)
        if self.measure == "stoppers":
            return f"{word} {suit_word(self.suit)}"
        return f"{word} {suit_word(self.suit)}"


@dataclass(frozen=True)
class PatternIs(Constraint):
    """The hand pattern (lengths longest first) is one of these: ``pattern 4432 5332``."""

    patterns: tuple[tuple[int, int, int, int], ...]

    def measures(self) -> set[str]:
        return {"lengths"}

    def __str__(self) -> str:
        return "pattern " + " ".join("".join(map(str, p)) for p in self.patterns)

    def describe(self) -> str:
        return "pattern " + " or ".join("".join(map(str, p)) for p in self.patterns)


@dataclass(frozen=True)
class ShapeIs(Constraint):
    """The exact shape S-H-D-C, with None for 'any length': ``shape 4-4-x-x``."""

    lengths: tuple[int | None, int | None, int | None, int | None]

    def measures(self) -> set[str]:
        return {"lengths"}

    def __str__(self) -> str:
        return "shape " + "-".join("x" if n is None else str(n) for n in self.lengths)

    def describe(self) -> str:
        return "exactly " + "-".join("x" if n is None else str(n) for n in self.lengths)


@dataclass(frozen=True)
class SuitCompare(Constraint):
    """Length comparison between two suits: ``H > S``, ``D >= C``."""

    left: str
    op: str
    right: str

    def suits(self) -> set[str]:
        return {self.left, self.right}

    def measures(self) -> set[str]:
        return {"lengths"}

    def __str__(self) -> str:
        return f"{self.left} {self.op} {self.right}"

    def describe(self) -> str:
        words = {">": "longer than", ">=": "at least as long as", "==": "as long as",
                 "<": "shorter than", "<=": "no longer than"}[self.op]
        return f"{suit_word(self.left)} {words} {suit_word(self.right)}"


@dataclass(frozen=True)
class Longest(Constraint):
    """The suit is a longest suit (``longest(H)``); ``strict`` forbids a tie."""

    suit: str
    strict: bool = False

    def suits(self) -> set[str]:
        return {self.suit}

    def measures(self) -> set[str]:
        return {"lengths"}

    def __str__(self) -> str:
        return f"{'strictly_longest' if self.strict else 'longest'}({self.suit})"

    def describe(self) -> str:
        return f"{suit_word(self.suit)} {'strictly ' if self.strict else ''}longest"


SUIT_RANK = {"C": 0, "D": 1, "H": 2, "S": 3}
SUIT_RELATIONS = ("is", "is not", "below", "above")


@dataclass(frozen=True)
class SuitIs(Constraint):
    """Which suit a variable stands for, not its length: ``Z is H``, ``Z is not C``,
    ``Y below Z`` (ranks lower: clubs below diamonds below hearts below spades). Settled
    when the suits are bound (``bound_relation``), so no hand is ever tested on it."""

    left: str
    op: str
    right: str

    def suits(self) -> set[str]:
        return {self.left, self.right}

    def __str__(self) -> str:
        return f"{self.left} {self.op} {self.right}"

    def describe(self) -> str:
        return f"{suit_word(self.left)} {self.op} {suit_word(self.right)}"


def bound_relation(c: SuitIs) -> Constraint:
    """``c`` itself while a side is still a variable; once both are suits, any or none."""
    if c.left not in SUIT_RANK or c.right not in SUIT_RANK:
        return c
    left, right = SUIT_RANK[c.left], SUIT_RANK[c.right]
    holds = {"is": left == right, "is not": left != right, "below": left < right,
             "above": left > right}[c.op]
    return ANY if holds else NOTHING


CONTEXT_WORDS = {
    "vul": "vulnerable", "nonvul": "not vulnerable", "they_vul": "opponents vulnerable",
    "they_nonvul": "opponents not vulnerable", "fav": "favourable vulnerability",
    "unfav": "unfavourable vulnerability", "passed": "a passed hand",
    "unpassed": "not a passed hand",
    "passed_before_opening": "passed before the opening",
    "partner_passed": "partner passed before the opening",
}


@dataclass(frozen=True)
class Context(Constraint):
    """A condition on the table, not the hand: vulnerability, seat, passed hand.

    ``kind`` is one of CONTEXT_WORDS or 'seat' (with ``seats``, 1 = dealer).
    """

    kind: str
    seats: tuple[int, ...] = ()

    def measures(self) -> set[str]:
        return {"context"}

    def __str__(self) -> str:
        if self.kind == "seat":
            first, last = self.seats[0], self.seats[-1]
            return f"seat {first}" if first == last else f"seat {first}-{last}"
        return self.kind

    def describe(self) -> str:
        if self.kind == "seat":
            return "in seat " + " or ".join(map(str, self.seats))
        return CONTEXT_WORDS[self.kind]

    def holds(self, ctx: TableContext) -> bool:
        """Whether the table situation ``ctx`` meets this condition."""
        return {
            "seat": ctx.seat in self.seats, "vul": ctx.vul, "nonvul": not ctx.vul,
            "they_vul": ctx.they_vul, "they_nonvul": not ctx.they_vul,
            "fav": not ctx.vul and ctx.they_vul, "unfav": ctx.vul and not ctx.they_vul,
            "passed": ctx.passed, "unpassed": not ctx.passed,
            "passed_before_opening": ctx.passed_before_opening,
            "partner_passed": ctx.partner_passed,
        }[self.kind]


@dataclass(frozen=True)
class TableContext:
    """What the table tells a hand beyond its cards when it calls: one table situation.
    The compiler checks guards over all of them; the engine evaluates meanings in one."""

    seat: int  # 1 = dealer ... 4
    vul: bool
    they_vul: bool
    passed: bool  # this hand has passed before (a passed hand)
    # ... and one of those passes came before anyone bid: a hand that passed in first or
    # second seat (Drury, third- and fourth-seat agreements), not one that passed at a
    # later turn of a contested auction.
    passed_before_opening: bool = False
    # Partner is a passed hand: partner passed before anyone bid (the responses of a
    # third- or fourth-seat opening, an overcall opposite a partner who passed first).
    partner_passed: bool = False


def context_holds(c: Constraint, ctx: TableContext) -> bool:
    """Evaluate a context-only constraint (a guard) in one table situation; hand terms
    count as true."""
    if isinstance(c, Always):
        return c.value
    if isinstance(c, And):
        return all(context_holds(i, ctx) for i in c.items)
    if isinstance(c, Or):
        return any(context_holds(i, ctx) for i in c.items)
    if isinstance(c, Not):
        return not context_holds(c.item, ctx)
    if isinstance(c, Context):
        return c.holds(ctx)
    return True


@dataclass(frozen=True)
class NameRef(Constraint):
    """A reference to a ``def`` (named hand class); the compiler replaces it."""

    name: str

    def __str__(self) -> str:
        return self.name


def conjoin(items: list[Constraint]) -> Constraint:
    """And of the items, flattening and dropping 'any'."""
    flat: list[Constraint] = []
    for c in items:
        if isinstance(c, And):
            flat.extend(c.items)
        elif c != ANY:
            flat.append(c)
    if any(c == NOTHING for c in flat):
        return NOTHING
    if not flat:
        return ANY
    return flat[0] if len(flat) == 1 else And(tuple(flat))


def disjoin(items: list[Constraint]) -> Constraint:
    flat: list[Constraint] = []
    for c in items:
        if isinstance(c, Or):
            flat.extend(c.items)
        elif c != NOTHING:
            flat.append(c)
    if any(c == ANY for c in flat):
        return ANY
    if not flat:
        return NOTHING
    return flat[0] if len(flat) == 1 else Or(tuple(flat))


def negate(c: Constraint) -> Constraint:
    if isinstance(c, Not):
        return c.item
    if isinstance(c, Always):
        return Always(not c.value)
    return Not(c)


# --- the one walk over and/or/not ------------------------------------------------------
class Term(NamedTuple):
    """A term of a constraint as ``map_terms`` meets it: a node that is not and/or/not,
    whether it counts for the hand (``positive``: under an even number of nots) and how
    many and/or/not levels hold it (``depth``)."""

    c: Constraint
    positive: bool
    depth: int


def map_terms(c: Constraint, change: Callable[[Term], Constraint], positive: bool = True,
              depth: int = 0) -> Constraint:
    """``c`` with each term replaced by ``change(term)`` and its and/or/not rebuilt with
    conjoin/disjoin/negate, so a term turned into any or none folds away. Every rewrite of
    a constraint's terms (binding suits, resolving names, relaxing) is this walk; the
    recursion is bounded by MAX_NESTING, which parser and compiler enforce."""
    if isinstance(c, And):
        return conjoin([map_terms(i, change, positive, depth + 1) for i in c.items])
    if isinstance(c, Or):
        return disjoin([map_terms(i, change, positive, depth + 1) for i in c.items])
    if isinstance(c, Not):
        return negate(map_terms(c.item, change, not positive, depth + 1))
    return change(Term(c, positive, depth))


def terms(c: Constraint) -> Iterator[Constraint]:
    """The terms of ``c`` (what is not and/or/not), left to right, without recursion."""
    stack = [c]
    while stack:
        node = stack.pop()
        if isinstance(node, And | Or | Not):
            stack.extend(reversed(node.children()))
        else:
            yield node


def relax(c: Constraint, keep: Callable[[Constraint], bool]) -> Constraint:
    """A constraint of only the terms ``keep`` accepts that every hand meeting ``c`` meets:
    another term counts as any hand where it restricts the hand and as no hand under a
    negation (so ``not stoppers(H)`` relaxes to any, not to none)."""
    return map_terms(c, lambda t: t.c if keep(t.c) else ANY if t.positive else NOTHING)


def substitute(c: Constraint, binding: dict[str, str]) -> Constraint:
    """Replace bound suit variables; a free variable means "some suit" over the smallest
    part of the constraint that holds all its uses: ``not 4+M`` is "no four-card major",
    ``5+M, semi_solid(M)`` is "a semi-solid five-card major" (the same major twice)."""
    return _expand_free(_subst(c, binding), binding)


_BINDING_ORDER = ("M", "oM", "m", "om", "Z", "Y")
"""Variables bound before the ones that name "the other" of them."""
_OTHER = {"M": "oM", "m": "om", "Z": "Y"}


def _expand_free(c: Constraint, binding: dict[str, str]) -> Constraint:
    free = [v for v in _BINDING_ORDER if v in c.suits()]
    if not free:
        return c
    var = free[0]
    # M ranges over every part that names M or oM: '5+M, 5+oM' is both majors, not
    # "a five-card major, and a five-card major" (issue 17).
    linked = {var, _OTHER.get(var, var)}
    holders = [i for i, child in enumerate(c.children()) if linked & child.suits()]
    if len(holders) == 1 and isinstance(c, And | Or | Not):
        # Every use of the variable is inside one part: let it range there.
        i = holders[0]
        parts = list(c.children())
        parts[i] = _expand_free(parts[i], binding)
        if isinstance(c, Not):
            rebuilt = negate(parts[0])
        elif isinstance(c, And):
            rebuilt = conjoin(parts)
        else:
            rebuilt = disjoin(parts)
        return _expand_free(rebuilt, binding)
    options = [_expand_free(_subst(c, {var: s}), {**binding, var: s})
               for s in variable_values(var, binding)]
    return disjoin(options)


def _subst(c: Constraint, b: dict[str, str]) -> Constraint:
    return map_terms(c, lambda t: _subst_term(t.c, b))


def _subst_term(c: Constraint, b: dict[str, str]) -> Constraint:
    def s(x: str) -> str:
        return b.get(x, x)

    if isinstance(c, SuitRange):
        return SuitRange(c.measure, s(c.suit), c.lo, c.hi)
    if isinstance(c, SuitFlag):
        return SuitFlag(c.measure, s(c.suit))
    if isinstance(c, SuitCompare):
        return SuitCompare(s(c.left), c.op, s(c.right))
    if isinstance(c, Longest):
        return Longest(s(c.suit), c.strict)
    if isinstance(c, SuitIs):
        return bound_relation(SuitIs(s(c.left), c.op, s(c.right)))
    return c


MAX_NESTING = 50
"""How deeply a constraint may nest (parentheses, or and/or/not levels through defs).
Players write a handful; the limit keeps the recursive walks over a constraint (describe,
substitute, the engine's predicates) far from Python's recursion limit."""


def nesting_depth(c: Constraint) -> int:
    """The number of and/or/not levels in ``c`` (0 for an atom), found without recursion
    so that a tree too deep to walk recursively can still be measured and refused."""
    deepest = 0
    stack = [(c, 0)]
    while stack:
        node, depth = stack.pop()
        kids = node.children()
        if kids:
            stack.extend((kid, depth + 1) for kid in kids)
        elif depth > deepest:
            deepest = depth
    return deepest


def _keep_hashes(cls: type[Constraint]) -> None:
    # Every meaning is hashed at each look-up of the predicate and mask caches, its whole
    # tree each time; each kind of node keeps its hash instead (core.hashing).
    for sub in cls.__subclasses__():
        if "__hash__" in sub.__dict__ and sub.__dict__["__hash__"] is not None:
            keep_hash(sub)
        _keep_hashes(sub)


_keep_hashes(Constraint)
keep_hash(TableContext)
