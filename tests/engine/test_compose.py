"""engine.predicates.compose: an and/or/not's mask from its parts' masks is the predicate's."""

from __future__ import annotations

import numpy as np
import pytest

from bidbox.engine.features import HandFeatures, sample_hands
from bidbox.engine.predicates import TableContext, compile_predicate, compose
from bidbox.lang.constraint_parser import parse_constraint
from bidbox.lang.constraints import And, Constraint, Not, Or

CTX = TableContext(1, False, False, False)
HANDS = HandFeatures(sample_hands().masks[:5000])

CASES = [
    "hcp 12-14, balanced, 0-3S",
    "hcp 15+ | 6+H, hcp 6-9 | 5+S, 5+H",
    "not (hcp 12-14, balanced | hcp 20-22, balanced)",
    "hcp 10-16, not (4+D | 4+H), 2-3S",
    "hcp 37, balanced, 4+S",  # an and that stops early: nothing is left after its first part
]


def _by_parts(c: Constraint, packed: bool) -> np.ndarray:
    """The mask of ``c`` built with compose all the way down (packed: as packed bytes)."""
    if isinstance(c, And | Or | Not):
        valid = np.packbits(np.ones(HANDS.n, dtype=bool))
        invert = (lambda m: valid & ~m) if packed else np.logical_not
        return compose(c, lambda item: _by_parts(item, packed), invert)
    mask = compile_predicate(c)(HANDS, CTX)
    return np.packbits(mask) if packed else mask


@pytest.mark.parametrize("text", CASES)
@pytest.mark.parametrize("packed", [False, True])
def test_compose_gives_the_predicates_mask(text: str, packed: bool) -> None:
    c = parse_constraint(text)
    want = compile_predicate(c)(HANDS, CTX)
    got = _by_parts(c, packed)
    if packed:
        got = np.unpackbits(got, count=HANDS.n).astype(bool)
    assert want.any() != text.startswith("hcp 37")  # each case selects hands but the last
    assert np.array_equal(got, want)


def test_compose_never_writes_a_part() -> None:
    kept = compile_predicate(parse_constraint("hcp 12+"))(HANDS, CTX)
    kept.flags.writeable = False  # a kept mask, as lint and the estimates hold them
    c = parse_constraint("hcp 12+ | 5+S")
    assert isinstance(c, Or)
    out = compose(c, lambda item: kept if str(item) == "hcp 12+" else
                  compile_predicate(item)(HANDS, CTX))
    assert out is not kept and out.flags.writeable
    assert np.array_equal(out, kept | compile_predicate(parse_constraint("5+S"))(HANDS, CTX))
