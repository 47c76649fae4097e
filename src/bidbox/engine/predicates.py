"""Constraints compiled to predicates: functions of (features, table context) -> bool array.

The same compiled predicate serves one hand (a batch of one), a million dealt hands,
and the exact profile space, so the bidder, the simulator and the explainer cannot
disagree about what a meaning means.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import cache

import numpy as np

from bidbox.engine.features import Array, Features
from bidbox.lang.constraints import (
    RANKED_SUITS,
    Always,
    And,
    Constraint,
    Context,
    Flag,
    Longest,
    MeasureRange,
    NameRef,
    Not,
    Or,
    PatternIs,
    ShapeIs,
    SuitCompare,
    SuitFlag,
    SuitRange,
    suit_index,
)
from bidbox.lang.constraints import (
    TableContext as TableContext,  # re-exported: the engine evaluates meanings in it
)

Predicate = Callable[[Features, TableContext], Array]
_OPS = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le,
        "==": operator.eq}
_EPS = 1e-9


def _column(f: Features, values: Array, suit: str) -> Array:
    """The column of a per-suit array for a named suit, or, for L1-L4, each hand's
    longest (second, third, shortest) suit, ties going to the higher-ranking suit."""
    if suit in RANKED_SUITS:
        lengths = f.value("lengths").astype(np.int32)
        key = lengths * 4 + (3 - np.arange(4))
        order = np.argsort(-key, axis=1, kind="stable")
        return np.asarray(values[np.arange(values.shape[0]), order[:, int(suit[1]) - 1]])
    return np.asarray(values[:, suit_index(suit)])


def _range(values: Array, lo: float | None, hi: float | None) -> Array:
    # The first comparison is the result's array: lint reads thousands of ranges on the
    # profile space, where a third array call per range showed.
    if lo is None:
        return values <= hi + _EPS if hi is not None else np.ones(values.shape[0], dtype=bool)
    out = values >= lo - _EPS
    if hi is not None:
        out &= values <= hi + _EPS
    return out


def context_value(c: Context, ctx: TableContext) -> bool:
    return c.holds(ctx)  # one definition of every context word, beside the words


def compose(c: And | Or | Not, part: Callable[[Constraint], Array],
            invert: Callable[[Array], Array] = np.logical_not) -> Array:
    """An and/or/not's mask from its parts' masks (``part(item)``, typically kept ones),
    as a new array: the one traversal every reader that keeps masks per part (the seat
    estimates, lint, the regulation's readings) shares, so that a meaning built from
    parts a thousand ways costs an and of kept masks, never a predicate again. An and
    stops once nothing is left, as :func:`compile_predicate` does. ``invert`` is the
    negation for the mask's form (a packed mask must keep its padding bits clear)."""
    if isinstance(c, Not):
        return invert(part(c.item))
    items = c.items
    out = np.array(part(items[0]), copy=True)  # kept masks are never written
    if isinstance(c, And):
        for item in items[1:]:
            if not out.any():
                break
            out &= part(item)
    else:
        for item in items[1:]:
            out |= part(item)
    return out


@cache
def compile_predicate(c: Constraint) -> Predicate:
    """The predicate of a bound constraint (no free suit variables, no names)."""
    if isinstance(c, Always):
        value = c.value
        return lambda f, ctx: np.full(f.n, value, dtype=bool)
    if isinstance(c, And):
        parts = [compile_predicate(i) for i in c.items]

        def all_of(f: Features, ctx: TableContext) -> Array:
            out = parts[0](f, ctx)
            for p in parts[1:]:
                if not out.any():
                    break
                out = out & p(f, ctx)
            return out
        return all_of
    if isinstance(c, Or):
        parts = [compile_predicate(i) for i in c.items]

        def any_of(f: Features, ctx: TableContext) -> Array:
            out = parts[0](f, ctx)
            for p in parts[1:]:
                out = out | p(f, ctx)
            return out
        return any_of
    if isinstance(c, Not):
        inner = compile_predicate(c.item)
        return lambda f, ctx: ~inner(f, ctx)
    if isinstance(c, MeasureRange):
        name, lo, hi = c.measure, c.lo, c.hi
        return lambda f, ctx: _range(f.value(name), lo, hi)
    if isinstance(c, SuitRange):
        name, suit, lo, hi = c.measure, c.suit, c.lo, c.hi
        return lambda f, ctx: _range(_column(f, f.value(name), suit), lo, hi)
    if isinstance(c, Flag):
        name = c.measure
        return lambda f, ctx: f.value(name).astype(bool)
    if isinstance(c, SuitFlag):
        name, suit = c.measure, c.suit
        return lambda f, ctx: _column(f, f.value(name), suit).astype(bool)
    if isinstance(c, PatternIs):
        codes = np.array([((p[0] * 14 + p[1]) * 14 + p[2]) * 14 + p[3] for p in c.patterns])
        return lambda f, ctx: np.isin(f.value("pattern"), codes)
    if isinstance(c, ShapeIs):
        fixed = [(i, n) for i, n in enumerate(c.lengths) if n is not None]

        def shape(f: Features, ctx: TableContext) -> Array:
            lengths = f.value("lengths")
            out = np.ones(f.n, dtype=bool)
            for i, n in fixed:
                out &= lengths[:, i] == n
            return out
        return shape
    if isinstance(c, SuitCompare):
        a, b, op = c.left, c.right, _OPS[c.op]
        return lambda f, ctx: np.asarray(op(_column(f, f.value("lengths"), a),
                                            _column(f, f.value("lengths"), b)))
    if isinstance(c, Longest):
        col, strict = suit_index(c.suit), c.strict

        def longest(f: Features, ctx: TableContext) -> Array:
            lengths = f.value("lengths")
            mine = lengths[:, col]
            others = np.delete(lengths, col, axis=1).max(axis=1)
            return np.asarray(mine > others if strict else mine >= others)
        return longest
    if isinstance(c, Context):
        def table(f: Features, ctx: TableContext) -> Array:
            return np.full(f.n, context_value(c, ctx), dtype=bool)
        return table
    if isinstance(c, NameRef):
        raise ValueError(f"unresolved name '{c.name}' reached the engine")
    raise TypeError(f"no predicate for {type(c).__name__}")
