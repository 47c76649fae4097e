"""What an Auction keeps on itself (its last bid, whether it has ended) agrees with the
calls it holds, however it was built: by add, by the constructor, parsed or unpickled."""

from __future__ import annotations

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from bidbox.core import Auction, CallKind, Seat


def _last_bid(auction: Auction) -> int:
    """The last bid's index read from the calls, as a player would."""
    bids = [i for i, c in enumerate(auction.calls) if c.kind is CallKind.BID]
    return bids[-1] if bids else -1


def _ended(auction: Auction) -> bool:
    calls = auction.calls
    if len(calls) == 4 and all(c.kind is CallKind.PASS for c in calls):
        return True
    return (len(calls) >= 4 and _last_bid(auction) >= 0
            and all(c.kind is CallKind.PASS for c in calls[-3:]))


@settings(max_examples=40, deadline=None)
@given(st.data(), st.sampled_from(list(Seat)))
def test_kept_state_matches_the_calls(data: st.DataObject, dealer: Seat) -> None:
    auction = Auction(dealer)
    for _ in range(data.draw(st.integers(0, 14))):
        legal = auction.legal_calls()
        if not legal:
            break
        # Passes and doubles often, so that auctions end and doubles stack.
        call = data.draw(st.one_of(st.sampled_from(legal[:3]), st.sampled_from(legal)))
        auction = auction.add(call)
        rebuilt = Auction(auction.dealer, auction.vul, auction.calls)  # nothing kept yet
        again = pickle.loads(pickle.dumps(auction))
        for a in (auction, rebuilt, again):
            assert a.last_bid_index() == _last_bid(auction)
            assert a.is_ended is _ended(auction)
            assert a == auction and hash(a) == hash(auction)  # the kept values are no field
        assert repr(rebuilt) == repr(auction)


def test_kept_values_stay_out_of_equality() -> None:
    asked = Auction.parse("1C P P P")
    assert asked.is_ended and asked.last_bid_index() == 0
    fresh = Auction.parse("1C P P P")
    assert asked == fresh and hash(asked) == hash(fresh)
    assert Auction.parse("P P P P").is_ended
    assert not Auction.parse("P P P").is_ended
    assert not Auction.parse("1C X P P").is_ended
