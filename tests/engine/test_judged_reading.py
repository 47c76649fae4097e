"""A bid judgement makes outside the notes is read by the hands judgement makes it with.

Such a bid has no line in the notes, so it used to show at most a suit length
(``walk.described``); partner then read a competitive overcall as any hand, and passed it
with game values. The table now reads it as what it is: the hands of the seat's range
for which judgement, in the state the bid was made in, makes that bid."""

from __future__ import annotations

from functools import cache

import numpy as np

from bidbox.core import Auction, Hand, Seat, Side, Vulnerability
from bidbox.core.calls import GAME_LEVEL, Call, Strain
from bidbox.engine import as_systems, choose_call
from bidbox.engine.decide import decide
from bidbox.engine.estimate import (
    JUDGED_FEWEST,
    JUDGED_SAMPLE,
    _estimate_pool,
    estimate_seats,
    judged_filter,
)
from bidbox.engine.features import HandFeatures
from bidbox.engine.walk import read_call, replay
from bidbox.lang import System, load_system


@cache
def tosr() -> dict[Side, System]:
    return as_systems(load_system("tosr"))


def _state(text: str):  # type: ignore[no-untyped-def]
    return replay(Auction.parse(text, Seat.E, Vulnerability.NS), tosr())[1]


def test_a_judged_bid_keeps_the_state_it_was_judged_in_and_a_pass_does_not() -> None:
    state = _state("2C")
    overcall = read_call(state, Call.bid(2, Strain.H))
    assert overcall.entry is None and overcall.before is state
    assert read_call(state, Call.parse("P")).before is None


def test_the_filter_keeps_exactly_the_hands_judgement_bids_the_call_with() -> None:
    state = _state("2C")
    step = read_call(state, Call.bid(2, Strain.H))
    pool = _estimate_pool()
    everyone = np.ones(pool.n, dtype=bool)
    kept = judged_filter(step, everyone)
    tried = np.arange(JUDGED_SAMPLE)
    assert JUDGED_FEWEST <= kept.sum() < JUDGED_SAMPLE // 4  # an overcall, not every hand
    assert not kept[JUDGED_SAMPLE:].any()  # only the hands tried are read
    calls = np.empty(len(tried), dtype=object)
    for decision in decide(state, HandFeatures(pool.masks[tried]), {}):
        calls[decision.mask] = decision.call
    made = np.array([c == Call.bid(2, Strain.H) for c in calls])
    assert np.array_equal(made, kept[tried])


def test_partner_reads_the_judged_overcall_as_hearts_and_values() -> None:
    before = estimate_seats(_state("2C"))[Seat.S]
    after = estimate_seats(_state("2C 2H P"))[Seat.S]
    hearts = 1
    # Judgement overcalls with a long suit and some points: more than the four cards a
    # new suit shows by itself, and a narrower range of points than any hand's.
    assert after.lengths[hearts] >= 5.5 > before.lengths[hearts]
    assert after.min_lengths[hearts] >= 5
    assert after.hcp > before.hcp and after.min_hcp > 0
    assert after.hcp_sd < before.hcp_sd - 0.5


def test_partner_bids_the_game_the_overcall_makes_worth_bidding() -> None:
    # A 16-count opposite partner's judged 2H overcall of their 2C: read as a hand of any
    # kind, it was passed (board 2 of ben-friends-daily-2024-06-10, 4H made).
    result = choose_call(Hand.parse("KJ74.A4.AKJT4.43"),
                         Auction.parse("2C 2H P", Seat.E, Vulnerability.NS), tosr())
    call = result.call
    assert call.is_bid and call.strain is not None
    assert call.level >= GAME_LEVEL[call.strain]


def test_two_judged_bids_at_the_same_point_are_estimated_apart() -> None:
    # Neither 3NT nor 4S over their 2C has an entry or a described suit: only the call
    # tells them apart, so the estimates' cache must key it (the batch bidder, which
    # keeps them across auctions, read one for the other before it did).
    no_trump = estimate_seats(_state("2C 3NT P"))[Seat.S]
    spades = estimate_seats(_state("2C 4S P"))[Seat.S]
    assert spades.lengths[0] > no_trump.lengths[0] + 1.5
    assert estimate_seats(_state("2C 3NT P"))[Seat.S] == no_trump
