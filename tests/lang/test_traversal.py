"""The one walk over and/or/not (lang.constraints.map_terms) and what is built on it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidbox.engine.features import HandFeatures
from bidbox.engine.predicates import compile_predicate
from bidbox.evaluate.dealer import deal_batch
from bidbox.lang import parse_constraint
from bidbox.lang.constraints import (
    ANY,
    NOTHING,
    And,
    Constraint,
    MeasureRange,
    Not,
    Or,
    SuitFlag,
    TableContext,
    Term,
    map_terms,
    relax,
    substitute,
    terms,
)


def test_each_term_is_met_once_with_its_polarity_and_depth() -> None:
    seen: list[Term] = []

    def note(t: Term) -> Constraint:
        seen.append(t)
        return t.c

    c = parse_constraint("hcp 12+, not (stoppers(H) | 5+S), balanced")
    assert map_terms(c, note) == c
    assert [(str(t.c), t.positive, t.depth) for t in seen] == [
        ("hcp 12+", True, 1), ("stoppers(H)", False, 3), ("5+S", False, 3),
        ("balanced", True, 1)]


def test_terms_turned_into_any_or_none_fold_away() -> None:
    c = parse_constraint("hcp 12+, stoppers(H) | 5+S")
    def drop_stoppers(t: Term) -> Constraint:
        return ANY if isinstance(t.c, SuitFlag) else t.c
    assert map_terms(c, drop_stoppers) == parse_constraint("hcp 12+ | 5+S")
    def no_spades(t: Term) -> Constraint:
        return NOTHING if "S" in t.c.suits() else t.c
    assert map_terms(c, no_spades) == parse_constraint("hcp 12+, stoppers(H)")


@pytest.mark.parametrize(("text", "relaxed"), [
    ("hcp 15+, stoppers(H)", "hcp 15+"),
    ("not stoppers(H)", "any"),                      # any hand may lack a stopper
    ("not (hcp 12-14, stoppers(H))", "any"),
    ("not (stoppers(H) | hcp 20+)", "not hcp 20+"),  # under a not, a dropped term is none
    ("solid(S) | hcp 22+", "any"),
])
def test_relax_keeps_only_accepted_terms_and_never_loses_a_hand(text: str,
                                                                relaxed: str) -> None:
    def exact(c: Constraint) -> bool:
        return not isinstance(c, SuitFlag)
    assert relax(parse_constraint(text), exact) == parse_constraint(relaxed)


def test_terms_are_read_left_to_right_without_recursion() -> None:
    c = parse_constraint("hcp 12+, (4+H | not 4+S), balanced")
    assert [str(t) for t in terms(c)] == ["hcp 12+", "4+H", "4+S", "balanced"]
    deep: Constraint = MeasureRange("hcp", 1, None)
    for _ in range(5000):  # far past the recursion limit: terms() still walks it
        deep = Not(And((deep, MeasureRange("hcp", 0, None))))
    assert sum(1 for _ in terms(deep)) == 5001


def test_substitute_binds_through_the_walk() -> None:
    c = parse_constraint("5+M, not stoppers(M) | Z is H")
    assert substitute(c, {"M": "S", "Z": "H"}) == ANY
    assert substitute(c, {"M": "S", "Z": "C"}) == parse_constraint("5+S, not stoppers(S)")


_HANDS = HandFeatures(np.ascontiguousarray(deal_batch(300, seed=9).masks[:, 0, :]))
_LEAVES = st.sampled_from([parse_constraint(t) for t in (
    "hcp 12+", "4+H", "stoppers(S)", "balanced", "controls =3", "solid(D)", "any", "none")])
_TREES = st.recursive(_LEAVES, lambda kids: st.one_of(
    st.lists(kids, min_size=2, max_size=3).map(lambda xs: And(tuple(xs))),
    st.lists(kids, min_size=2, max_size=3).map(lambda xs: Or(tuple(xs))),
    kids.map(Not)), max_leaves=8)


@given(_TREES)
@settings(max_examples=60, deadline=None)
def test_the_identity_walk_keeps_the_hands_and_is_settled_at_once(c: Constraint) -> None:
    once = map_terms(c, lambda t: t.c)
    assert map_terms(once, lambda t: t.c) == once
    ctx = TableContext(1, False, False, False)
    assert (compile_predicate(once)(_HANDS, ctx) == compile_predicate(c)(_HANDS, ctx)).all()


@given(_TREES)
@settings(max_examples=60, deadline=None)
def test_relaxing_never_loses_a_hand(c: Constraint) -> None:
    loose = relax(c, lambda t: not isinstance(t, SuitFlag) and "solid" not in t.measures())
    ctx = TableContext(1, False, False, False)
    fits, fits_loose = (compile_predicate(x)(_HANDS, ctx) for x in (c, loose))
    assert not (fits & ~fits_loose).any()
