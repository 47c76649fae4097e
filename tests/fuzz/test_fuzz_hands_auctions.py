"""Fuzzing the hand and auction readers (issue 17): any text gives a valid hand or
auction, or a NotationError that quotes the input cut to a readable length."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidbox.core.auction import Auction
from bidbox.core.hand import Hand
from bidbox.errors import BidboxError
from tests.fuzz.harness import (
    bounded,
    corpus_lines,
    fuzz_settings,
    mutated,
    result_or_located_error,
    text_of,
)

HAND_BASES = sorted({line.encode() for line in corpus_lines("hands.txt")}
                    | {b"AKQ2.J54.T9.8765", b"-.AKQJT98765432.-.-", b"T9876.-.AKQJ.432"})
AUCTION_BASES = sorted({line.encode() for line in corpus_lines("auctions.txt")}
                       | {b"1C P 1H P 1NT P 3NT AP", b"P P 1S X XX 2C 2S X P P XX AP"})
CARDS = st.sampled_from(list("AKQJT98765432akqjt-.10 ♠♥♦♣xX"))
CALLS = st.sampled_from(["1C", "1D", "1H", "1S", "1NT", "1N", "2C", "7NT", "P", "X", "XX",
                         "AP", "8C", "0S", "pass", "dbl", "-", ",", "1♣"])


def check_hand(text: str) -> Hand | BidboxError:
    found = result_or_located_error(lambda: Hand.parse(text))
    if isinstance(found, Hand):
        cards = sum(bin(m).count("1") for m in found.suits)
        assert cards == 13 and all(0 <= m < 1 << 13 for m in found.suits)
        assert Hand.parse(found.pbn()) == found  # what it prints reads back
    else:
        assert len(str(found)) < 300, str(found)[:300]  # the input is quoted cut short
    return found


def check_auction(text: str) -> Auction | BidboxError:
    found = result_or_located_error(lambda: Auction.parse(text))
    if isinstance(found, Auction):
        again = Auction.parse(" ".join(str(c) for c in found.calls))
        assert again.calls == found.calls and again.is_ended == found.is_ended
        assert len(found.calls) <= 319  # the longest legal auction
    else:
        assert len(str(found)) < 400, str(found)[:400]
    return found


@given(st.one_of(mutated(HAND_BASES, most=3).map(text_of),
                 st.lists(CARDS, max_size=30).map("".join)))
@fuzz_settings(ci_examples=300)
def test_fuzz_hand(text: str) -> None:
    with bounded("hand"):
        check_hand(text)


@given(st.one_of(mutated(AUCTION_BASES, most=3).map(text_of),
                 st.lists(CALLS, max_size=40).map(" ".join)))
@fuzz_settings(ci_examples=300)
def test_fuzz_auction(text: str) -> None:
    with bounded("auction"):
        check_auction(text)


@pytest.mark.parametrize("line", corpus_lines("hands.txt"), ids=lambda s: s[:30])
def test_corpus_hand(line: str) -> None:
    with bounded("hand corpus"):
        check_hand(line)


@pytest.mark.parametrize("line", corpus_lines("auctions.txt"), ids=lambda s: s[:30])
def test_corpus_auction(line: str) -> None:
    with bounded("auction corpus"):
        check_auction(line)
