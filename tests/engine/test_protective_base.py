"""The natural base's protection in the pass-out seat after their artificial two-level
opening is passed: they play in the suit they named, so our calls are natural again."""

from __future__ import annotations

from functools import cache

from bidbox.core import Auction, Call, Hand, Seat, Side, Vulnerability
from bidbox.engine import as_systems, choose_call
from bidbox.lang import System, compile_text, load_system

MULTI_LIKE = ('system theirs\n'
              '2D hcp 10-14, 6+D | hcp 6-9, =6H [artificial, opening] "diamonds or weak hearts"\n'
              '  P any [signoff] "to play"\n')


@cache
def _against() -> dict[Side, System]:
    """Their artificial 2D for North-South (who deal), TOSR with its base for East-West."""
    return {Side.NS: compile_text(MULTI_LIKE, "theirs.bbx"),
            Side.EW: as_systems(load_system("tosr"))[Side.EW]}


def _call(hand: str, auction: str) -> tuple[Call, str]:
    result = choose_call(Hand.parse(hand), Auction.parse(auction, Seat.N, Vulnerability.BOTH),
                         _against())
    return result.call, result.source


def test_the_pass_out_seat_protects_over_their_passed_artificial_two() -> None:
    # 14 HCP, five-four in the majors, two diamonds: a takeout double of the 2D they
    # play in (judgement alone defended it, scoring 2S two down as doubled).
    assert _call("AK763.AQJ4.43.95", "2D P P") == (Call.parse("X"), "base")
    # A five-card suit without the shape for a double: the protective overcall.
    assert _call("AQJ76.K42.432.K5", "2D P P") == (Call.parse("2S"), "base")
    # Too weak: defend.
    call, _ = _call("Q8763.J42.43.K95", "2D P P")
    assert call == Call.parse("P")


def test_the_direct_seat_is_not_the_base_s() -> None:
    # Over the opening itself "diamonds" is not their suit: no takeout double of it.
    call, source = _call("AK763.AQJ4.43.95", "2D")
    assert source != "base" and call != Call.parse("X")


def test_a_passed_transfer_opening_is_protected_too() -> None:
    # TOSR's own 1H shows spades; passed out, they play 1H, and 15 balanced with hearts
    # stopped protects with 1NT rather than defend with 24 HCP between us.
    tosr = as_systems(load_system("tosr"))
    result = choose_call(Hand.parse("K43.Q82.KT5.AKT3"),
                         Auction.parse("1H P P", Seat.S, Vulnerability.BOTH), tosr)
    assert (result.call, result.source) == (Call.parse("1NT"), "base")
