"""Lint finds unreachable calls and holes, each with a witness that really is one."""

from __future__ import annotations

from bidbox.core import Auction, Hand
from bidbox.engine import as_systems, choose_call
from bidbox.lang import compile_text
from bidbox.verify import lint_system

SYSTEM = """
1NT hcp 15-17, balanced
  2C  hcp 8+             [ask]
  2H  hcp 0-7, 5+H
  2S  hcp 10+, 5+S       # unreachable: every such hand bids 2C first
  3NT hcp 10-15, balanced, 4+C  requires hcp 10-15, 4+C
"""


def test_unreachable_call_and_hole_with_witness() -> None:
    system = compile_text(SYSTEM, "lint.bbx")
    findings = lint_system(system)
    unreachable = [f for f in findings if f.code == "unreachable"]
    assert [f.call for f in unreachable] == ["2S", "3NT"]
    assert all(f.method == "exact" for f in unreachable)
    holes = [f for f in findings if f.code == "hole" and f.auction == "1NT"]
    assert len(holes) == 1
    assert [f.auction for f in findings if f.code == "hole"] == ["the start", "1NT"]
    # The witness is a hand that reaches 1NT's responses and gets the fallback.
    witness = Hand.parse(holes[0].witness or "")
    result = choose_call(witness, Auction.parse("1NT P"), as_systems(system))
    assert result.fallback


def test_clean_node_has_no_findings() -> None:
    system = compile_text("1NT hcp 15-17, balanced\n  P hcp 0-7\n  2C hcp 8+\n", "ok.bbx")
    assert [f for f in lint_system(system) if f.auction == "1NT"] == []


def test_lint_asks_the_right_seat_after_our_own_call() -> None:
    system = compile_text("1H hcp 12+, 5+H\n  1S hcp 6+, 4+S\n    1NT hcp 12-14\n"
                          "    2H hcp 12+, 6+H\n", "seat.bbx")
    holes = {f.auction: f for f in lint_system(system) if f.code == "hole"}
    witness = Hand.parse(holes["1H 1S"].witness or "")
    # The seat to call after 1H P 1S P is the opener: the witness must have opened 1H.
    assert witness.lengths[1] >= 5
