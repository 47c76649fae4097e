"""Fuzzing the constraint reader (``--where`` and the constraints of system files): any
text gives a constraint that evaluates on real hands, or an error naming the column."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidbox.engine.features import HandFeatures
from bidbox.engine.predicates import compile_predicate
from bidbox.errors import BidboxError
from bidbox.evaluate.dealer import deal_batch
from bidbox.lang.constraints import Constraint
from bidbox.sim.deals import _NORTH_DEALS, north_filter
from tests.fuzz.harness import (
    bounded,
    corpus_lines,
    fuzz_settings,
    mutated,
    result_or_located_error,
    text_of,
)

SHIPPED = Path(__file__).parents[2] / "src" / "bidbox" / "systems"
HANDS = HandFeatures(deal_batch(200, 11).masks[:, 0, :])
"""North's hands of 200 fixed deals: what a constraint read as valid is evaluated on."""


def _bases() -> list[bytes]:
    """The corpus lines and the written-out constraints of the shipped systems' defs."""
    found = {line for line in corpus_lines("where.txt") if len(line) < 200}
    for name in ("sbu-level1.bbx", "tosr.bbx"):
        text = (SHIPPED / name).read_text(encoding="utf-8")
        found.update(m.group(1).strip() for m in re.finditer(r"^def \w+ = ([^#\n]+)", text,
                                                              re.MULTILINE))
    return sorted(s.encode() for s in found)


BASES = _bases()
WORDS = st.sampled_from(["hcp", "controls", "losers", "balanced", "not", "|", ",", "(", ")",
                         "5+M", "4+oM", "=4S", "1-3C", "12+", "15-17", "longest", "S", "H",
                         "4432", "5m332", "3-4-3-3", "Z", "Y", "m", "om", "seat", "vul",
                         "99999999999999+", "-1", "0", "13+", "14", ">", ">=", "=", "&"])


def check_where(text: str) -> Constraint | BidboxError:
    """Read ``text`` as --where; a constraint read is evaluated on 200 hands."""
    found = result_or_located_error(lambda: north_filter(text))
    if isinstance(found, Constraint):
        hits = compile_predicate(found)(HANDS, _NORTH_DEALS)
        assert hits.shape == (200,) and hits.dtype == np.bool_
        # What it prints reads back as the same constraint (the same hands).
        again = north_filter(str(found))
        assert np.array_equal(compile_predicate(again)(HANDS, _NORTH_DEALS), hits), str(found)
    return found


@given(st.one_of(mutated(BASES, most=4).map(text_of),
                 st.lists(WORDS, max_size=12).map(" ".join)))
@fuzz_settings(ci_examples=150)
def test_fuzz_where(text: str) -> None:
    with bounded("constraint"):
        check_where(text)


@pytest.mark.parametrize("line", corpus_lines("where.txt"), ids=lambda s: s[:30])
def test_corpus_where(line: str) -> None:
    with bounded("constraint corpus"):
        check_where(line)


def test_pattern_with_a_sign_is_a_located_error() -> None:
    # Found by the long fuzz run: 'pattern -4333' raised ValueError in the parser.
    assert isinstance(check_where("pattern -4333 4432"), BidboxError)
