"""The engine on a small system: bidding, batch = one hand at a time, exact knowledge."""

from __future__ import annotations

from pathlib import Path

import pytest

from bidbox.core import Auction, Call, Hand, Seat, Side, Vulnerability
from bidbox.engine import as_systems, bid_batch, bid_deal, choose_call, explain
from bidbox.evaluate import deal_batch
from bidbox.lang import compile_text, load_system

MINI = Path(__file__).parents[1] / "data" / "mini.bbx"


@pytest.fixture(scope="module")
def mini() -> dict[Side, object]:
    return as_systems(load_system(str(MINI)))


def test_bids_follow_priority_and_meaning(mini: dict) -> None:  # type: ignore[type-arg]
    def bid(hand: str, auction: str = "") -> str:
        return str(choose_call(Hand.parse(hand), Auction.parse(auction), mini).call)

    assert bid("AK2.Q32.K432.Q32") == "1NT"  # priority 5 beats 1C
    assert bid("AK2.Q32.K43.Q432") == "1NT"
    assert bid("AK2.Q32.K3.QJ432") == "1C"  # 15 HCP: too strong for the weak 1NT
    assert bid("K432.AQ32.32.K32", "1NT P") == "2C"
    assert bid("K4.Q10832.432.432", "1NT P") == "2H"
    assert bid("K42.Q1083.432.432", "1NT P") == "P"
    assert bid("AK2.Q32.K432.Q32", "1NT P 2C P") == "2D"
    assert bid("AK2.Q432.K32.Q32", "1NT P 2C P") == "2H"


def test_placement_is_flagged_with_its_reason(mini: dict) -> None:  # type: ignore[type-arg]
    # 14 HCP opposite a 12-14 no-trump: the notes stop after 2H, the captain bids game.
    result = choose_call(Hand.parse("AK2.Q32.K432.Q32"), Auction.parse("1NT P 2C P 2H P"), mini)
    assert result.fallback and result.source == "placement"
    assert result.call in (Call.parse("3NT"), Call.parse("4H"))
    assert "tricks in" in result.reason and "game" in result.reason


def test_partner_forcing_call_is_never_dropped() -> None:
    system = compile_text("1C hcp 16+ [f1, artificial]\n  1D hcp 0-7 [artificial, f1]\n",
                          "forcing.bbx")
    result = choose_call(Hand.parse("KQ2.AQ32.A32.K32"), Auction.parse("1C P 1D P"),
                         as_systems(system))
    assert result.fallback and result.source == "placement"
    assert result.call.is_bid and result.call.strain is not None


def test_options_switch_meanings() -> None:
    strong = as_systems(load_system(str(MINI), {"nt": "strong"}))
    assert str(choose_call(Hand.parse("AK2.QJ2.K432.Q32"), Auction(), strong).call) == "1NT"
    weak = as_systems(load_system(str(MINI)))
    assert str(choose_call(Hand.parse("AK2.QJ2.K432.Q32"), Auction(), weak).call) != "1NT"


STEPS = """
module answers
  +1  controls 0-1   "0-1 controls"
  +2  controls 2-3
  +3  controls 4+
2NT hcp 20-22, balanced
  4C hcp 12+ [ask]
    use answers
1NT hcp 15-17, balanced
  2C hcp 8+ [ask]
    use answers
2C hcp 6-9 [seat 1-2]
2C hcp 10-12 [seat 3-4]
"""


def test_steps_resolve_at_each_use_and_seat_variants_coexist() -> None:
    system = compile_text(STEPS, "steps.bbx")
    after_4c = [str(e.call) for e in system.root.ordered()[0].node.calls[0].node.calls]
    assert after_4c == ["4D", "4H", "4S"]
    after_2c = [str(e.call) for e in system.root.ordered()[1].node.calls[0].node.calls]
    assert after_2c == ["2D", "2H", "2S"]
    systems = as_systems(system)
    hand = Hand.parse("QJ2.Q32.J432.Q32")  # 8 HCP
    assert str(choose_call(hand, Auction.parse(""), systems).call) == "2C"  # seat 1
    assert str(choose_call(hand, Auction.parse("P P"), systems).call) == "P"  # seat 3: 10-12


def test_knowledge_is_exact_with_negative_inference(mini: dict) -> None:  # type: ignore[type-arg]
    known = explain(Auction.parse("1NT P 2C P 2D"), mini).to_json()["knowledge"]
    assert isinstance(known, dict)
    north = known["N"]
    assert north["hcp"] == [12, 14] and north["method"] == "exact"
    assert north["H"] == [2, 3] and north["S"] == [2, 3]  # 2D denies a four-card major
    assert north["D"] == [2, 5] and north["C"] == [2, 5]
    south = known["S"]
    assert south["hcp"] == [11, 37]
    shape = explain(Auction.parse("1NT P 2C P 2H"), mini).knowledge[Seat.N]
    assert shape.ranges["H"] == (4, 5)


def test_calls_outside_the_system_are_named_by_position(mini: dict) -> None:  # type: ignore
    e = explain(Auction.parse("1NT P 3C"), mini)
    assert e.calls[2].fallback and "call 3 (3C by S)" in str(e.calls[2].note)


def test_inconsistent_auction_is_reported() -> None:
    system = compile_text("1C hcp 12+ requires hcp 0-5\n  1D any\n    1H hcp 0-10\n",
                          "odd.bbx")
    known = explain(Auction.parse("1C P 1D P 1H"), as_systems(system)).knowledge[Seat.N]
    assert not known.consistent


@pytest.mark.parametrize("silent", [None, Side.EW])
def test_batch_bidding_equals_hand_by_hand(mini: dict, silent: Side | None) -> None:  # type: ignore
    deals = deal_batch(400, seed=11)
    batch = bid_batch(deals, mini, Seat.E, Vulnerability.NS, silent=silent)
    auctions = batch.auctions()
    for i in range(len(deals)):
        hands = {s: deals.hand(i, s) for s in Seat}
        auction, _ = bid_deal(hands, mini, Seat.E, Vulnerability.NS, silent=silent)
        assert auction == auctions[i], (i, str(auction), str(auctions[i]))


def test_every_real_hand_lies_within_what_explain_says(mini: dict) -> None:  # type: ignore
    deals = deal_batch(150, seed=5)
    for i, auction in enumerate(bid_batch(deals, mini).auctions()):
        e = explain(auction, mini)
        for seat in Seat:
            known = e.knowledge[seat]
            assert known.consistent, str(auction)
            hand = deals.hand(i, seat)
            lengths = dict(zip("SHDC", hand.lengths, strict=True))
            for key, (lo, hi) in known.ranges.items():
                if key in lengths:
                    assert lo <= lengths[key] <= hi, (str(auction), seat, key, hand)
