"""TOSR's defence to one-level openings chosen by what the opening means: the defence to
transfer openings (section 13.5) over a 1D/1H that shows the next suit, Appendix 3's
Overcall Structure over a natural one."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from bidbox.core import Auction, Call, Hand, Seat, Side, Vulnerability
from bidbox.engine import choose_call
from bidbox.lang import System, load_system
from tests.systems.cases import Case, read_cases

# The dealer's side plays the system the file is named after, with the file's OPTIONS.
AGAINST = [case for path in sorted((Path(__file__).parent / "data" / "tosr-against")
                                   .glob("*.cases")) for case in read_cases(path)]


@cache
def _system(name: str) -> System:
    return load_system(name)


def _bid(hand: str, auction: str, opener: str) -> tuple[Call, str]:
    """Our call (East, TOSR) after North's ``auction`` in the system ``opener``."""
    systems = {Side.NS: _system(opener), Side.EW: _system("tosr")}
    result = choose_call(Hand.parse(hand), Auction.parse(auction, Seat.N, Vulnerability.NONE),
                         systems)
    return result.call, result.meaning or ""


def test_a_transfer_opening_gets_the_transfer_defence() -> None:
    # TOSR's own 1H shows spades: a cue bid of the suit shown (1S) is takeout. 13 HCP,
    # two spades, support for the rest: 13.5's takeout, not a pass for want of an
    # Appendix 3 call (their "1H" is no heart suit).
    call, meaning = _bid("QJ.AJ75.Q62.QJ54", "1H", "tosr")
    assert call == Call.parse("1S") and "takeout of the spades shown" in meaning
    # Their 1D shows hearts: 1H is the takeout cue.
    call, meaning = _bid("QJ4.J2.AK73.KJ54", "1D", "tosr")
    assert call == Call.parse("1H") and "takeout of the hearts shown" in meaning


def test_a_natural_opening_keeps_the_overcall_structure() -> None:
    # Over a natural 1H (sbu-level1), Appendix 3 stands: 1S is a simple overcall, and
    # the takeout-of-spades hand above has no 1S there.
    call, meaning = _bid("KQJ84.432.K7.J54", "1H", "sbu-level1")
    assert call == Call.parse("1S") and "simple overcall" in meaning
    call, _ = _bid("QJ.AJ75.Q62.QJ54", "1H", "sbu-level1")
    assert call != Call.parse("1S")
    # The same overcall hand over TOSR's 1H (spades shown) does not bid the takeout cue.
    call, _ = _bid("KQJ84.432.K7.J54", "1H", "tosr")
    assert call != Call.parse("1S")


def test_the_option_still_plays_the_transfer_defence_over_natural_openings() -> None:
    transfer = load_system("tosr", {"defence": "transfer"})
    systems = {Side.NS: _system("sbu-level1"), Side.EW: transfer}
    result = choose_call(Hand.parse("QJ.AJ75.Q62.QJ54"),
                         Auction.parse("1H", Seat.N, Vulnerability.NONE), systems)
    assert result.call == Call.parse("1S") and "takeout" in (result.meaning or "")


@pytest.mark.parametrize("case", AGAINST, ids=[c.id for c in AGAINST])
def test_defence_against_another_system(case: Case) -> None:
    assert case.hand is not None, f"{case.id}: the against-files hold bidding cases only"
    theirs = load_system(Path(case.file).stem, dict(case.options))
    dealer_side = case.dealer.side
    other = Side.EW if dealer_side is Side.NS else Side.NS
    auction = Auction.parse(case.auction, case.dealer, case.vul)
    result = choose_call(Hand.parse(case.hand), auction,
                         {dealer_side: theirs, other: _system("tosr")})
    assert result.call == Call.parse(case.expect), (
        f"{case.id}: bid {result.call} ({result.meaning}; {result.reason}), "
        f"expected {case.expect}")
