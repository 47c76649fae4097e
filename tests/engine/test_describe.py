"""Natural descriptive bids under a game force: judgement shows a five-card suit below
3NT instead of guessing the game, and partner reads it as five or more cards."""

from __future__ import annotations

from functools import cache

from bidbox.core import Auction, Hand, Seat, Side, Vulnerability
from bidbox.core.calls import GAME_LEVEL, Strain
from bidbox.engine import as_systems, bid_deal, choose_call
from bidbox.engine.estimate import estimate_seats
from bidbox.engine.walk import described, described_suit, replay
from bidbox.lang import System, compile_text

NOTES = """\
1C  hcp 16+                [artificial, f1] "16+, any shape"
  1D  hcp 0-7              [artificial, negative] "0-7"
  1H  hcp 8+               [artificial, gf] "8+, game forcing"
    1NT  hcp 16-18, pattern 4333 4432  [natural] "16-18 balanced"
"""


@cache
def strong_club() -> dict[Side, System]:
    return as_systems(compile_text(NOTES, "describe.bbx"))


def _state(text: str):  # type: ignore[no-untyped-def]
    return replay(Auction.parse(text), strong_club())[1]


def test_a_new_suit_below_3nt_under_a_game_force_is_read_as_five_cards() -> None:
    state = _state("1C P 1H P")
    assert described_suit(state, Auction.parse("1C P 1H P 1S").calls[-1]) is Strain.S
    assert described_suit(state, Auction.parse("1C P 1H P 2D").calls[-1]) is Strain.D
    assert described_suit(state, Auction.parse("1C P 1H P 3NT").calls[-1]) is None
    # Not forced to game: a new suit is still natural, four or more.
    assert described(_state("1C P 1D P"), Auction.parse("1C P 1D P 1S").calls[-1]) == (Strain.S, 4)
    after = _state("1C P 1H P 1S P")
    opener = estimate_seats(after)[Seat.N]
    assert opener.min_lengths[0] == 5  # S, H, D, C


def test_the_opponents_suit_and_our_own_natural_suit_are_not_new() -> None:
    state = _state("1C P 1H 2D")
    assert described_suit(state, Auction.parse("1C P 1H 2D 2S").calls[-1]) is Strain.S
    assert described_suit(state, Auction.parse("1C P 1H 2D 3D").calls[-1]) is None
    # Partner's suit: a raise shows support, three or more; a preference nothing.
    shown = _state("1C P 1H P 1S P")
    assert described(shown, Auction.parse("1C P 1H P 1S P 2S").calls[-1]) == (Strain.S, 3)
    both = _state("1C P 1H P 1S P 2S P")
    assert described(both, Auction.parse("1C P 1H P 1S P 2S P 3S").calls[-1]) is None
    # The bidder's own suit again: six or more.
    again = _state("1C P 1H P 1S P 2D P")
    assert described(again, Auction.parse("1C P 1H P 1S P 2D P 2S").calls[-1]) == (Strain.S, 6)
    assert described(again, Auction.parse("1C P 1H P 1S P 2D P 3D").calls[-1]) == (Strain.D, 3)


def test_judgement_shows_its_five_card_major_before_placing_the_game() -> None:
    result = choose_call(Hand.parse("AKJ74.K52.AQ3.K5"), Auction.parse("1C P 1H P"),
                         strong_club())
    assert str(result.call) == "1S" and result.source == "placement"
    assert "5 or more S" in result.reason
    # A flat hand without a five-card suit places the game at once.
    flat = choose_call(Hand.parse("AK74.K52.AQ3.KQ4"), Auction.parse("1C P 1H P"),
                       strong_club())
    assert flat.call.is_bid and flat.call.strain is not None
    assert flat.call.level >= GAME_LEVEL[flat.call.strain]


def test_the_fit_shown_is_found_and_the_game_reached() -> None:
    hands = {Seat.N: Hand.parse("AKJ74.K52.AQ3.K5"), Seat.E: Hand.parse("Q2.QJT9.KJ72.T93"),
             Seat.S: Hand.parse("T85.A876.T54.AQ2"), Seat.W: Hand.parse("963.43.986.J8764")}
    auction, _ = bid_deal(hands, strong_club(), Seat.N)
    contract = auction.contract
    assert contract is not None and contract.strain is Strain.S
    assert contract.level >= 4


def test_a_described_suit_and_a_placement_at_the_same_point_are_estimated_apart() -> None:
    # Neither call has an entry and both deny the same 1NT: the kept estimates must
    # still tell the described 1S (five or more spades) from the placed 3NT.
    placed = estimate_seats(_state("1C P 1H P 3NT P"))[Seat.N]
    described = estimate_seats(_state("1C P 1H P 1S P"))[Seat.N]
    again = estimate_seats(_state("1C P 1H P 3NT P"))[Seat.N]
    assert described.min_lengths[0] == 5
    # The placed 3NT is read by the hands judgement bids it with (a void in spades is
    # not one of them), never as the described suit's five.
    assert placed.min_lengths[0] == again.min_lengths[0] < 5
    assert placed == again


def test_judgement_rebids_a_six_card_suit_partner_has_not_raised() -> None:
    result = choose_call(Hand.parse("AKQ974.K52.A3.K5"), Auction.parse("1C P 1H P 1S P 2D P"),
                         strong_club())
    assert str(result.call) == "2S" and "rebids 6 or more S" in result.reason


def test_every_judged_suit_bid_holds_what_partner_reads() -> None:
    # Bid dealt deals with both sides, then replay each auction: every call whose walk
    # reading carries a judged length (a new suit, a rebid, a raise) is held by its bidder.
    from bidbox.engine import bid_batch
    from bidbox.engine.walk import advance, read_call, start
    from bidbox.evaluate import deal_batch
    from bidbox.lang import load_system

    checked = 0
    for name in ("sbu-level1", "tosr"):
        systems = as_systems(load_system(name))
        deals = deal_batch(300, seed=7)
        auctions = bid_batch(deals, systems, Seat.N, Vulnerability.NONE).auctions()
        for i, auction in enumerate(auctions):
            state = start(systems, auction)
            for call in auction.calls:
                step = read_call(state, call)
                if step.judged is not None:
                    told = described(state, call)
                    assert told is not None
                    strain, least = told
                    held = deals.hand(i, step.seat).lengths[3 - int(strain)]
                    assert held >= least, (name, str(auction), str(call))
                    checked += 1
                state = advance(state, call, step)
    assert checked > 50
