"""The batch bidder's step on distinct hands, and the kept walk states and fact masks.

The batch bidder runs each step once per distinct combination of the measures it reads
and spreads the answers back; the walk keeps every state it made; the estimates keep
each fact's mask built from its parts. Each must give exactly what the plain form gives.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest

import bidbox.engine.batch as batch
from bidbox.core import Auction, Call, Seat, Side, Vulnerability
from bidbox.engine import as_systems, bid_batch
from bidbox.engine.decide import PLACEMENT, decide
from bidbox.engine.estimate import _fact_mask
from bidbox.engine.features import Array, DistinctFeatures, HandFeatures, UnkeyedMeasure
from bidbox.engine.inference import read_state
from bidbox.engine.predicates import compile_predicate
from bidbox.engine.profiles import profile_space
from bidbox.engine.walk import advance, replay, start
from bidbox.evaluate import deal_batch
from bidbox.evaluate.dealer import DealBatch
from bidbox.lang import load_system
from bidbox.lang.system import System


@pytest.fixture(scope="module")
def sbu() -> dict[Side, System]:
    return as_systems(load_system("sbu-level1"))


def test_codes_are_equal_exactly_for_equal_measures() -> None:
    hands = HandFeatures(deal_batch(3000, seed=5).hands(Seat.N))
    rows = np.column_stack([hands.value("hcp"), hands.value("lengths")])
    codes = hands.codes(frozenset({"hcp", "lengths"}), np.arange(hands.n))
    _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
    assert (rows[first[inverse.reshape(-1)]] == rows).all()  # one code, one value
    assert len(first) == len(np.unique(rows, axis=0))  # one value, one code
    assert len(first) < len(rows)  # the point of it: hands do repeat


def test_distinct_hands_refuse_a_measure_they_were_not_grouped_by() -> None:
    hands = HandFeatures(deal_batch(50, seed=6).hands(Seat.N))
    distinct = DistinctFeatures(hands, np.arange(10), frozenset({"hcp"}))
    assert (distinct.value("hcp") == hands.value("hcp")[:10]).all()
    sub = distinct.take(np.array([1, 2]))
    with pytest.raises(UnkeyedMeasure) as miss:
        sub.value("lengths")
    assert miss.value.name == "lengths"
    assert distinct.read == {"hcp"}  # a subset reports into its parent's record


@pytest.mark.parametrize("calls", ["", "1NT P", "1C P 1H P", "1H 2C", "1S X 2S"])
def test_the_step_on_distinct_hands_is_the_step_on_every_hand(
        sbu: dict[Side, System], calls: str) -> None:
    auction = Auction.parse(calls, Seat.N, Vulnerability.NS) if calls else Auction(
        Seat.N, Vulnerability.NS)
    _, state = replay(auction, sbu)
    seat = state.next_seat
    hands = HandFeatures(deal_batch(4000, seed=7).hands(seat)).take(np.arange(4000))
    batch._LEARNT.clear()  # learn the key afresh: the retry path runs too
    batch._MEMO.clear()
    plain = _by_call((d.call, d.source == PLACEMENT, d.mask) for d in decide(state, hands, sbu))
    for _ in range(2):  # decided, then read from the kept answers
        grouped = _by_call((d.call, d.placement, d.mask)
                           for d in batch._decide_distinct(state, hands, sbu))
        assert plain.keys() == grouped.keys()
        for key, mask in plain.items():
            assert (grouped[key] == mask).all(), key


def _by_call(decisions: Iterable[tuple[Call, bool, Array]]) -> dict[tuple[Call, bool], Array]:
    """The hands of each call and source (two parts of a step may make the same call)."""
    out: dict[tuple[Call, bool], Array] = {}
    for call, placement, mask in decisions:
        out[call, placement] = out[call, placement] | mask if (call, placement) in out else mask
    return out


def test_the_walk_makes_each_state_once(sbu: dict[Side, System]) -> None:
    root = start(sbu, Auction(Seat.E, Vulnerability.BOTH))
    assert start(sbu, Auction(Seat.E, Vulnerability.BOTH)) is root
    one = advance(root, Call.parse("1NT"))
    assert advance(root, Call.parse("1NT")) is one
    assert one.auction.calls == (Call.parse("1NT"),)
    _, again = replay(Auction.parse("1NT", Seat.E, Vulnerability.BOTH), sbu)
    assert again is one
    other = as_systems(load_system("tosr"))
    assert start(other, Auction(Seat.E, Vulnerability.BOTH)) is not root


@pytest.mark.parametrize("calls", ["1C P 1H P 1NT", "1H 2C X P 2D", "P P 1NT P 2C P 2H P 3H"])
def test_fact_masks_from_their_parts_equal_the_whole_predicate(
        sbu: dict[Side, System], calls: str) -> None:
    _, state = replay(Auction.parse(calls, Seat.N, Vulnerability.NONE), sbu)
    space = profile_space()
    checked = 0
    for reading in read_state(state):
        if reading.shows is None or not reading.shows.measures() <= {
                "hcp", "lengths", "controls", "balanced", "context", "pattern", "shape"}:
            continue
        ctx = reading.step.context
        whole = compile_predicate(reading.shows)(space, ctx)
        assert (_fact_mask(reading.shows, ctx, True) == whole).all(), str(reading.shows)
        checked += 1
    assert checked > 0


def test_kept_answers_give_the_auctions_of_a_fresh_start(sbu: dict[Side, System]) -> None:
    """Answers kept from earlier batches change no auction, on the same deals again or on
    new ones: each equals the auctions bid with nothing kept."""
    first, other = deal_batch(120, seed=11), deal_batch(120, seed=12)

    def bid(deals: DealBatch) -> list[Auction]:
        return bid_batch(deals, sbu, Seat.S, Vulnerability.EW, silent=Side.EW).auctions()

    batch._MEMO.clear()
    batch._LEARNT.clear()
    alone = bid(first)
    batch._MEMO.clear()
    batch._LEARNT.clear()
    other_alone = bid(other)
    sizes = []
    for _ in range(3):  # keys learnt, then answers kept and read back
        assert bid(first) == alone
        sizes.append(sum(m.size for m in batch._MEMO.values()))
    assert sizes[-1] > 0, "no answers were kept"
    assert sizes[-1] == sizes[-2]  # the same deals again: nothing new to decide
    assert bid(other) == other_alone  # partly from the answers kept for the first deals


def test_answers_kept_within_each_auctions_bound_give_the_same_auctions(
        sbu: dict[Side, System], monkeypatch: pytest.MonkeyPatch) -> None:
    """An auction keeps at most ``_MEMO_PLACE`` points (the opening seats' would fill the
    whole bound): the points left out are decided again, the auctions stay the same, and
    the answers kept from the first batch are kept (a first visit's too) and read back."""
    deals = deal_batch(2000, seed=13)

    def bid() -> list[Auction]:
        return bid_batch(deals, sbu, Seat.N, Vulnerability.NONE, silent=Side.EW).auctions()

    batch._MEMO.clear()
    batch._LEARNT.clear()
    alone = bid()
    monkeypatch.setattr(batch, "_MEMO_PLACE", 4)
    first_visits = []
    keep_first = batch._first_memo

    def first_memo(place: batch._Place, *args: object) -> batch._Memo:
        first_visits.append(place)
        return keep_first(place, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(batch, "_first_memo", first_memo)
    batch._MEMO.clear()
    batch._LEARNT.clear()
    assert bid() == alone
    after_first = {place: m.size for place, m in batch._MEMO.items()}
    # A first visit whose step read fewer measures than its key keeps its answers too.
    assert first_visits and all(after_first.get(place, 0) > 0 for place in first_visits)
    for _ in range(2):
        assert bid() == alone
    assert max(m.size for m in batch._MEMO.values()) <= 4
    assert all(batch._MEMO[place].size >= size for place, size in after_first.items()
               if place in batch._MEMO)
