"""Constraints: canonical text parses back to the same tree; descriptions read as bridge."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidbox.lang import parse_constraint
from bidbox.lang.constraints import Or, SuitRange, substitute

EXAMPLES = [
    "hcp 12-14, balanced", "hcp 10-14, 6+C | hcp 6-9, 6+D", "not (5+H | 5+S)",
    "stoppers(H), H > S", "seat 3-4, vul", "pattern 4432 5332", "shape 4-4-x-x",
    "rule_of_18 | hcp 12+", "suit_hcp(S) 5+", "roman_losers 4.5-6", "=4S, 1-3C, 0-2D",
    "longest(H), strictly_longest(H)", "controls <=3", "any", "top_honours(D) 2+",
    "semi_solid(S), playing_tricks 8+", "passed, fav",
]


@pytest.mark.parametrize("text", EXAMPLES)
def test_canonical_text_round_trips(text: str) -> None:
    c = parse_constraint(text)
    assert parse_constraint(str(c)) == c


@pytest.mark.parametrize(("text", "words"), [
    ("12-14 hcp, balanced", "12-14 HCP, balanced"),
    ("hcp 10-14, 6+C | hcp 6-9, 6+D", "10-14 HCP, 6+ clubs; or 6-9 HCP, 6+ diamonds"),
    ("stoppers(H)", "a stopper in hearts"),
    ("H > S", "hearts longer than spades"),
])
def test_descriptions(text: str, words: str) -> None:
    assert parse_constraint(text).describe() == words


def test_free_variable_ranges_over_the_smallest_part_holding_its_uses() -> None:
    free = substitute(parse_constraint("4+M, hcp 11+"), {})
    assert free == parse_constraint("(4+H | 4+S), hcp 11+")
    assert substitute(parse_constraint("not 4+M"), {}) == parse_constraint("not (4+H | 4+S)")
    same = substitute(parse_constraint("5+M, semi_solid(M)"), {})
    assert same == parse_constraint("5+H, semi_solid(H) | 5+S, semi_solid(S)")
    assert isinstance(same, Or) and len(same.items) == 2
    bound = substitute(parse_constraint("4+M, hcp 11+"), {"M": "S"})
    assert SuitRange("lengths", "S", 4, None) in bound.children()
    other = substitute(parse_constraint("4+oM"), {"M": "H"})
    assert other == SuitRange("lengths", "S", 4, None)


@given(st.integers(0, 13), st.integers(0, 13), st.sampled_from("SHDC"))
def test_length_ranges_round_trip(lo: int, hi: int, suit: str) -> None:
    lo, hi = min(lo, hi), max(lo, hi)
    c = parse_constraint(f"{lo}-{hi}{suit}")
    assert parse_constraint(str(c)) == c
