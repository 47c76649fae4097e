"""The auction under the Laws: sufficiency, doubles, the end, contract and declarer."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidbox.core import Auction, Call, CallKind, Seat, Vulnerability
from bidbox.errors import IllegalCallError


def test_turns_follow_the_dealer() -> None:
    auction = Auction.parse("1C P", dealer=Seat.W)
    assert auction.next_seat is Seat.E
    assert auction.seat_of(0) is Seat.W


@pytest.mark.parametrize(("calls", "reason"), [
    ("1H 1D", "insufficient"), ("1H 1H", "insufficient"), ("X", "no bid to double"),
    ("1C P X", "your own side"), ("1C X P X", "already doubled"), ("1C P XX", "not doubled"),
    ("1C XX", "bid by the opponents"), ("1C X XX P XX", "already redoubled"),
    ("P P P P 1C", "ended"), ("1C P P P P", "ended"),
])
def test_illegal_calls_name_the_call_position_and_reason(calls: str, reason: str) -> None:
    with pytest.raises(IllegalCallError, match=reason) as info:
        Auction.parse(calls)
    tokens = calls.split()
    assert info.value.position == len(tokens)
    assert info.value.call == str(Call.parse(tokens[-1]))


@pytest.mark.parametrize(("calls", "contract", "declarer"), [
    ("1C P P P", "1C", Seat.N),
    ("1H P 2H P 4H P P P", "4H", Seat.N),
    ("P 1S X XX P P P", "1SXX", Seat.E),
    ("1C 1H 2C X P P P", "2CX", Seat.N),
    ("1NT P 2C P 2H P 3NT P P P", "3NT", Seat.N),
    ("1D P 1H P 1NT P 2H P P P", "2H", Seat.S),
    ("1C X P P 1S P P P", "1S", Seat.N),
    ("1C P 1S P 2S X P P XX P P P", "2SXX", Seat.S),
])
def test_final_contract_and_declarer(calls: str, contract: str, declarer: Seat) -> None:
    auction = Auction.parse(calls)
    assert auction.is_ended
    assert str(auction.contract) == contract
    assert auction.declarer is declarer


def test_passed_out_and_all_pass_shorthand() -> None:
    auction = Auction.parse("P P P P")
    assert auction.is_ended and auction.is_passed_out and auction.contract is None
    assert Auction.parse("1C AP").calls[-1].kind is CallKind.PASS
    assert len(Auction.parse("1C AP")) == 4


def test_passed_hands_are_passes_before_the_opening() -> None:
    auction = Auction.parse("P P 1H P 2H", dealer=Seat.E)
    assert auction.passed_hands() == {Seat.E, Seat.S}
    assert auction.seats_that_passed() == {Seat.E, Seat.S, Seat.N}


def test_legal_calls_after_a_double() -> None:
    auction = Auction.parse("1S X")
    legal = [str(c) for c in auction.legal_calls()]
    assert legal[:2] == ["P", "XX"] and "X" not in legal and legal[2] == "1NT"


def test_vulnerability_of_a_seat() -> None:
    auction = Auction.parse("1C", vul=Vulnerability.EW)
    assert auction.is_vulnerable(Seat.E) and not auction.is_vulnerable(Seat.N)


@settings(max_examples=300)
@given(st.data(), st.sampled_from(list(Seat)))
def test_random_legal_calls_always_end_a_legal_auction(data: st.DataObject, dealer: Seat) -> None:
    auction = Auction(dealer)
    while not auction.is_ended:
        legal = auction.legal_calls()
        assert legal and all(auction.is_legal(c) for c in legal)
        # Weight passes so auctions end; bids keep it climbing.
        call = data.draw(st.one_of(st.just(legal[0]), st.sampled_from(legal)))
        auction = auction.add(call)
    assert auction.legal_calls() == []
    again = Auction.parse(str(auction), dealer=dealer)
    assert again == auction
    if auction.contract is not None:
        assert auction.contract.declarer.side is auction.seat_of(auction.last_bid_index()).side


@given(st.lists(st.sampled_from(["P", "X", "XX", "1C", "2H", "3NT", "1S", "7NT"]), max_size=12))
def test_every_call_is_legal_or_named_as_illegal(tokens: list[str]) -> None:
    auction = Auction()
    for position, token in enumerate(tokens, start=1):
        call = Call.parse(token)
        if auction.is_legal(call):
            auction = auction.add(call)
        else:
            with pytest.raises(IllegalCallError) as info:
                auction.add(call)
            assert info.value.position == position
            break
