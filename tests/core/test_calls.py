"""Call and strain notation: every spelling the issue lists, and round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidbox.core import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call, Seat, Strain, Vulnerability
from bidbox.errors import NotationError


@pytest.mark.parametrize(("text", "canonical"), [
    ("1C", "1C"), ("1c", "1C"), ("1n", "1NT"), ("1NT", "1NT"), ("3nt", "3NT"), ("7S", "7S"),
    ("P", "P"), ("Pass", "P"), ("pass", "P"), ("X", "X"), ("D", "X"), ("Dbl", "X"),
    ("XX", "XX"), ("R", "XX"), ("Rdbl", "XX"), ("rdbl", "XX"), ("2♥", "2H"),
])
def test_parse_spellings(text: str, canonical: str) -> None:
    assert str(Call.parse(text)) == canonical


@pytest.mark.parametrize("text", ["8C", "0H", "1Z", "", "XXX", "1", "NT"])
def test_bad_calls_are_clear_errors(text: str) -> None:
    with pytest.raises(NotationError, match="cannot read call"):
        Call.parse(text)


@given(st.sampled_from([*ALL_BIDS, PASS, DOUBLE, REDOUBLE]))
def test_round_trip_and_repr(call: Call) -> None:
    assert Call.parse(str(call)) == call
    assert Call.parse(str(call).lower()) == call
    assert eval(repr(call)) == call  # repr evaluates back, as python-chess does


@given(st.integers(0, 34))
def test_rank_orders_the_ladder(rank: int) -> None:
    bid = Call.from_rank(rank)
    assert bid.rank == rank
    if rank:
        assert Call.from_rank(rank - 1).rank < bid.rank


def test_seats_and_vulnerability() -> None:
    assert Seat.N.partner is Seat.S and Seat.N.lho is Seat.E and Seat.N.rho is Seat.W
    assert Seat.parse("west") is Seat.W
    assert Vulnerability.parse("NS").is_vulnerable(Seat.S)
    assert not Vulnerability.parse("ns").is_vulnerable(Seat.E)
    assert Vulnerability.parse("All").is_vulnerable(Seat.E)
    assert not Vulnerability.parse("None").is_vulnerable(Seat.N)
    with pytest.raises(NotationError, match="unknown seat"):
        Seat.parse("Q")
    assert Strain.H.suit_index == 1 and Strain.from_suit_index(3) is Strain.C
