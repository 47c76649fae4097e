"""Recursive-descent parser for constraints: ``hcp 12-14, balanced | 6+C, hcp 10-14``.

``,`` (or ``&``, ``and``) binds tighter than ``|`` (or ``or``), so a list of hand
types reads the way players write them. Nothing is evaluated: text becomes a tree.
"""

from __future__ import annotations

import re

from bidbox.errors import NotationError
from bidbox.evaluate import Measure, all_measures, get_measure
from bidbox.lang.constraints import (
    ANY,
    CONTEXT_WORDS,
    MAX_NESTING,
    NOTHING,
    RANKED_SUITS,
    SUIT_VARIABLES,
    Constraint,
    Context,
    Flag,
    Longest,
    MeasureRange,
    NameRef,
    PatternIs,
    ShapeIs,
    SuitCompare,
    SuitFlag,
    SuitIs,
    SuitRange,
    bound_relation,
    conjoin,
    disjoin,
    negate,
)
from bidbox.lang.diagnostics import ConstraintSyntaxError
from bidbox.lang.lexer import Token, tokenize

SUIT_TOKENS = ("S", "H", "D", "C", *SUIT_VARIABLES, *RANKED_SUITS)
ALIASES = {
    "points": "hcp", "qt": "quick_tricks", "pt": "playing_tricks", "stopper": "stoppers",
    "stop": "stoppers", "len": "lengths", "length": "lengths", "semibalanced": "semi_balanced",
    "bal": "balanced", "losers": "roman_losers", "honours": "top_honours",
    "hcp_in": "suit_hcp",
}
KEYWORDS = ("and", "or", "not", "pattern", "shape", "seat", "longest", "strictly_longest",
            "any", "none", "requires", "is", "below", "above")
_SUIT_PARAM = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")
_RANGE = re.compile(r"^(\d+(?:\.\d+)?)(?:(\+)|-(\d+(?:\.\d+)?))?$")


_MEASURES: dict[str, Measure] = {}

# The most a thirteen-card hand can hold of each number measure (its least is 0), so that
# a range nobody can hold is a mistake at its place rather than a call nobody makes (write
# `none` for that). tests/lang/test_constraints.py derives each from the measure's tables.
MEASURE_LIMITS: dict[str, tuple[float, str]] = {
    "hcp": (37, "a hand has 0-37 HCP"),
    "controls": (12, "a hand has 0-12 controls"),
    "aces": (4, "there are four aces"),
    "kings": (4, "there are four kings"),
    "queens": (4, "there are four queens"),
    "ltc": (12, "a hand has 0-12 losers"),
    "roman_losers": (12, "a hand has 0-12 Roman losers"),
    "quick_tricks": (8, "a hand has 0-8 quick tricks"),
    "playing_tricks": (13, "a hand has 0-13 playing tricks"),
    "rule_points": (44, "a hand has at most 44 rule points"),
    "suit_hcp": (10, "a suit has 0-10 HCP"),
    "suit_controls": (3, "a suit has 0-3 controls"),
    "top_honours": (3, "a suit has 0-3 of the ace, king and queen"),
    "stops": (4, "a suit stops a run at most four times (AKQJ)"),
}


def check_possible(name: str, lo: float | None, hi: float | None, quoted: str,
                   col: int) -> None:
    """Refuse a range of measure ``name`` with an end beyond what any hand holds: no hand
    meets `hcp 38+`, and `hcp 10-40` is a typo rather than 'at least 10'."""
    limit = MEASURE_LIMITS.get(name)
    if limit is None:
        return
    top, why = limit
    if lo is not None and lo > top:
        raise ConstraintSyntaxError(
            f"impossible range '{quoted}': {why} (for a call nobody makes write none)", col)
    if hi is not None and (hi > top or hi < 0):
        raise ConstraintSyntaxError(f"impossible range '{quoted}': {why}", col)


def find_measure(name: str) -> Measure | None:
    """The registered measure called ``name``, or None (a def name, most often): without
    building the suggestion that get_measure's error carries, which is slow."""
    if name not in _MEASURES:
        _MEASURES.update((m.name, m) for m in all_measures())
    return _MEASURES.get(name)


def measure_name(word: str) -> str:
    key = word.replace("-", "_")
    key = key if key in ("M", "m") else key.lower()
    return ALIASES.get(key, key)


class ConstraintParser:
    def __init__(self, tokens: list[Token], end_col: int) -> None:
        self.tokens = tokens
        self.i = 0
        self.end_col = end_col
        self.depth = 0  # open parentheses: the grammar recurses once per level

    # --- helpers ------------------------------------------------------------
    def peek(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.tokens[j] if j < len(self.tokens) else None

    def next(self) -> Token:
        tok = self.peek()
        if tok is None:
            raise ConstraintSyntaxError("the constraint ends too early", self.end_col)
        self.i += 1
        return tok

    def at(self, *texts: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.text.lower() in texts and tok.kind in ("OP", "IDENT")

    def expect(self, text: str) -> Token:
        tok = self.next()
        if tok.text != text:
            raise ConstraintSyntaxError(f"expected '{text}' but found '{tok.text}'", tok.col)
        return tok

    def quote(self, first: Token | None, start: int) -> str:
        """The text of ``first`` and the tokens read since ``start``, for a message."""
        words = [first.text] if first is not None else []
        return " ".join(words + [t.text for t in self.tokens[start:self.i]])

    # --- grammar --------------------------------------------------------------
    def parse(self) -> Constraint:
        if not self.tokens:
            return ANY
        result = self.expr()
        tok = self.peek()
        if tok is not None:
            raise ConstraintSyntaxError(
                f"unexpected '{tok.text}': join conditions with ',' (and) or '|' (or)", tok.col)
        return result

    def expr(self) -> Constraint:
        items = [self.conj()]
        while self.at("|", "or"):
            self.next()
            items.append(self.conj())
        return disjoin(items) if len(items) > 1 else items[0]

    def conj(self) -> Constraint:
        items = [self.unary()]
        while self.at(",", "&", "and"):
            self.next()
            items.append(self.unary())
        return conjoin(items) if len(items) > 1 else items[0]

    def unary(self) -> Constraint:
        # A loop, not recursion: 'not not ... x' is as long as the user makes it.
        nots = 0
        while self.at("not", "!"):
            self.next()
            nots += 1
        item = self.atom()
        return negate(item) if nots % 2 else item

    def range(self, what: str) -> tuple[float | None, float | None]:
        tok = self.next()
        if tok.kind == "OP" and tok.text in ("<=", ">=", "<", ">", "="):
            num = self.next()
            if num.kind != "NUM" or not re.fullmatch(r"\d+(\.\d+)?", num.text):
                raise ConstraintSyntaxError(f"expected a number after '{tok.text}'", num.col)
            x = float(num.text)
            return {"<=": (None, x), ">=": (x, None), "<": (None, x - 1),
                    ">": (x + 1, None), "=": (x, x)}[tok.text]
        if tok.kind != "NUM":
            raise ConstraintSyntaxError(
                f"{what} needs a range such as 12-14, 12+, <=11 or =4, not '{tok.text}'", tok.col)
        return self.num_range(tok)

    @staticmethod
    def num_range(tok: Token) -> tuple[float | None, float | None]:
        m = _RANGE.match(tok.text)
        if not m:
            raise ConstraintSyntaxError(f"cannot read range '{tok.text}'", tok.col)
        lo = float(m.group(1))
        if m.group(2):
            return lo, None
        if m.group(3) is not None:
            hi = float(m.group(3))
            if hi < lo:
                raise ConstraintSyntaxError(
                    f"impossible range '{tok.text}': the low end is above the high end", tok.col)
            return lo, hi
        return lo, lo

    def suit(self) -> str:
        tok = self.next()
        if tok.kind == "PARAM" and _SUIT_PARAM.fullmatch(tok.text):
            return tok.text  # a module's suit parameter, bound at each use
        if tok.text not in SUIT_TOKENS:
            raise ConstraintSyntaxError(
                f"expected a suit (S, H, D, C, a variable M, oM, m, om, Z, Y, or L1-L4 for the "
                f"hand's longest to shortest suit), not '{tok.text}'",
                tok.col)
        return tok.text

    def atom(self) -> Constraint:
        tok = self.next()
        if tok.text == "(":
            if self.depth >= MAX_NESTING:
                raise ConstraintSyntaxError(
                    f"constraint nests too deeply (more than {MAX_NESTING} levels of "
                    "parentheses)", tok.col)
            self.depth += 1
            inner = self.expr()
            self.expect(")")
            self.depth -= 1
            return inner
        if tok.kind == "SUITLEN":
            return self.suit_length(tok)
        if tok.kind == "SHAPE":
            return self.shape(tok)
        if tok.kind == "NUM":
            after = self.peek()
            if after is not None and after.kind == "IDENT" and after.text.lower() not in KEYWORDS:
                self.next()
                name = self.numeric_measure(after)
                lo, hi = self.num_range(tok)
                check_possible(name, lo, hi, f"{tok.text} {after.text}", tok.col)
                return MeasureRange(name, lo, hi)
            raise ConstraintSyntaxError(
                f"a number needs a measure: write 'hcp {tok.text}' or '{tok.text} hcp'", tok.col)
        if tok.kind == "STRING":
            raise ConstraintSyntaxError("a description must come after the constraint", tok.col)
        if tok.kind == "PARAM":
            after = self.peek()
            if (after is not None and after.text in (">", ">=", "<", "<=", "==")
                    and _SUIT_PARAM.fullmatch(tok.text)):
                self.next()
                return SuitCompare(tok.text, after.text, self.suit())
            if (after is not None and after.text.lower() in ("is", "below", "above")
                    and _SUIT_PARAM.fullmatch(tok.text)):
                return self.relation(tok)
            # A module parameter standing for a whole constraint: bound at each use as if
            # it were written in parentheses.
            return NameRef(tok.text)
        if tok.kind != "IDENT":
            raise ConstraintSyntaxError(f"unexpected '{tok.text}'", tok.col)
        word = tok.text
        low = word.lower()
        if low == "any":
            return ANY
        if low == "none":
            return NOTHING
        if low == "pattern":
            return self.pattern(tok)
        if low == "shape":
            shape = self.next()
            if shape.kind != "SHAPE":
                raise ConstraintSyntaxError("write an exact shape as S-H-D-C, e.g. 3-1-4-5",
                                            shape.col)
            return self.shape(shape)
        if low == "seat":
            return self.seat(tok)
        if low in ("longest", "strictly_longest"):
            self.expect("(")
            where = self.peek()
            suit = self.suit()
            self.expect(")")
            if suit in RANKED_SUITS:
                raise ConstraintSyntaxError(f"{low}({suit}) says nothing: {suit} is already "
                                            "ranked by length", where.col if where else tok.col)
            return Longest(suit, strict=low == "strictly_longest")
        if word in SUIT_TOKENS:
            after = self.peek()
            if after is not None and after.text.lower() in ("is", "below", "above"):
                return self.relation(tok)
            op = self.next()
            if op.text not in (">", ">=", "<", "<=", "=="):
                raise ConstraintSyntaxError(
                    f"after a suit write a comparison with another suit (H > S), not '{op.text}'",
                    op.col)
            return SuitCompare(word, op.text, self.suit())
        if low in CONTEXT_WORDS:
            return Context(low)
        name = measure_name(word)
        after = self.peek()
        if after is not None and after.text == "(":
            return self.suit_measure(tok, name)
        found = find_measure(name)
        if found is None:
            if after is not None and (after.kind == "NUM" or after.text in ("<=", ">=", "<",
                                                                            ">", "=")):
                # A name followed by a range can only be a misspelt measure.
                try:
                    get_measure(name)
                except NotationError as err:
                    raise ConstraintSyntaxError(str(err).split("; known")[0],
                                                tok.col) from None
            return NameRef(word)  # a def name; the compiler checks it exists
        measure = found
        if measure.per_suit:
            raise ConstraintSyntaxError(
                f"'{word}' is measured per suit: write {name}(H) ...", tok.col)
        if measure.numeric:
            start = self.i
            lo, hi = self.range(f"'{word}'")
            check_possible(name, lo, hi, self.quote(tok, start), tok.col)
            return MeasureRange(name, lo, hi)
        return Flag(name)

    def relation(self, tok: Token) -> Constraint:
        """``Z is H``, ``Z is not H``, ``Y below Z``, ``Y above Z``: which suits the
        variables stand for (``Z == H`` compares their lengths)."""
        op = self.next().text.lower()
        if op == "is" and self.at("not"):
            self.next()
            op = "is not"
        where = self.peek()
        right = self.suit()
        for suit, col in ((tok.text, tok.col), (right, where.col if where else tok.col)):
            if suit in RANKED_SUITS:
                raise ConstraintSyntaxError(
                    f"'{suit} {op}' asks which suit is the hand's {suit}, a question about "
                    "its cards: write longest(H) or H > S", col)
        return bound_relation(SuitIs(tok.text, op, right))

    def numeric_measure(self, tok: Token) -> str:
        name = measure_name(tok.text)
        try:
            measure = get_measure(name)
        except NotationError as err:
            raise ConstraintSyntaxError(str(err), tok.col) from None
        if not measure.numeric or measure.per_suit:
            raise ConstraintSyntaxError(f"'{tok.text}' is not a number to put a range on",
                                        tok.col)
        return name

    def suit_measure(self, tok: Token, name: str) -> Constraint:
        try:
            measure = get_measure(name)
        except NotationError as err:
            raise ConstraintSyntaxError(str(err), tok.col) from None
        if not measure.per_suit:
            raise ConstraintSyntaxError(f"'{tok.text}' is not measured per suit", tok.col)
        self.expect("(")
        suit = self.suit()
        self.expect(")")
        if measure.numeric:
            start = self.i
            lo, hi = self.range(f"'{tok.text}({suit})'")
            check_possible(name, lo, hi, f"{tok.text}({suit}) " + self.quote(None, start),
                           tok.col)
            return SuitRange(name, suit, lo, hi)
        return SuitFlag(name, suit)

    def suit_length(self, tok: Token) -> Constraint:
        m = re.fullmatch(r"(=?)(\d+)(?:(\+)|-(\d+))?(oM|om|L[1-4]|[SHDCMmZY]|\{\w+\})",
                         tok.text)
        assert m is not None
        exact, lo_s, plus, hi_s, suit = m.groups()
        lo = int(lo_s)
        if plus:
            hi: int | None = None
        elif hi_s is not None:
            hi = int(hi_s)
            if hi < lo:
                raise ConstraintSyntaxError(
                    f"impossible range '{tok.text}': the low end is above the high end", tok.col)
        elif exact:
            hi = lo
        else:
            raise ConstraintSyntaxError(
                f"'{tok.text}' is ambiguous: write {lo}+{suit} (at least) or ={lo}{suit} (exactly)",
                tok.col)
        if lo > 13 or (hi is not None and hi > 13):
            raise ConstraintSyntaxError(f"impossible length '{tok.text}': a suit has 0-13 cards",
                                        tok.col)
        return SuitRange("lengths", suit, lo, hi)

    def shape(self, tok: Token) -> Constraint:
        parts = tok.text.split("-")
        lengths = tuple(None if p == "x" else int(p) for p in parts)
        fixed = sum(n for n in lengths if n is not None)
        if fixed > 13 or (None not in lengths and fixed != 13):
            raise ConstraintSyntaxError(f"impossible shape '{tok.text}': lengths must total 13",
                                        tok.col)
        return ShapeIs((lengths[0], lengths[1], lengths[2], lengths[3]))

    def pattern(self, tok: Token) -> Constraint:
        patterns: list[tuple[int, int, int, int]] = []
        while (nxt := self.peek()) is not None and nxt.kind == "NUM":
            self.next()
            # A signed number ('-4333') is not four lengths.
            digits = tuple(int(d) for d in nxt.text) if nxt.text.isdigit() else ()
            if len(digits) != 4 or sum(digits) != 13 or list(digits) != sorted(digits,
                                                                                 reverse=True):
                raise ConstraintSyntaxError(
                    f"impossible pattern '{nxt.text}': four lengths, longest first, totalling 13",
                    nxt.col)
            patterns.append((digits[0], digits[1], digits[2], digits[3]))
        if not patterns:
            raise ConstraintSyntaxError("'pattern' needs one or more patterns, e.g. pattern 4432",
                                        tok.col)
        return PatternIs(tuple(patterns))

    def seat(self, tok: Token) -> Constraint:
        num = self.next()
        if num.kind != "NUM":
            raise ConstraintSyntaxError("'seat' needs seats, e.g. seat 1-2 or seat 3+", num.col)
        lo, hi = self.num_range(num)
        assert lo is not None
        top = 4 if hi is None else int(hi)
        seats = tuple(range(int(lo), top + 1))
        if not seats or seats[0] < 1 or seats[-1] > 4:
            raise ConstraintSyntaxError(f"seats are 1 to 4, not '{num.text}'", num.col)
        return Context("seat", seats)


def parse_constraint(text: str, offset: int = 0) -> Constraint:
    """Parse a constraint; errors carry the 1-based column (plus ``offset``)."""
    tokens = tokenize(text, offset)
    return ConstraintParser(tokens, offset + len(text) + 1).parse()


def parse_tokens(tokens: list[Token], end_col: int) -> Constraint:
    return ConstraintParser(tokens, end_col).parse()
