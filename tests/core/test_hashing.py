"""Kept hashes (core.hashing): the generated value, once, and never carried by a pickle."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bidbox.core import Auction, Call, Seat, Vulnerability
from bidbox.lang.constraints import And, MeasureRange, Not, SuitRange, TableContext

SRC = Path(__file__).resolve().parents[2] / "src"


def _meaning() -> And:
    return And((MeasureRange("hcp", 12, 14), Not(SuitRange("lengths", "H", 5, None))))


def test_kept_hash_is_the_value_of_an_equal_object() -> None:
    objects = [Call.parse("1H"), Auction.parse("1C P 1H", Seat.E, Vulnerability.BOTH),
               _meaning(), TableContext(1, False, True, False)]
    twins = [Call.parse("1H"), Auction.parse("1C P 1H", Seat.E, Vulnerability.BOTH),
             _meaning(), TableContext(1, False, True, False)]
    for obj, twin in zip(objects, twins, strict=True):
        first = hash(obj)
        assert hash(obj) == first == hash(twin)
        assert obj == twin
        assert "_kept_hash" not in repr(obj)


def test_a_pickle_carries_no_hash() -> None:
    meaning = _meaning()
    hash(meaning)
    assert "_kept_hash" in meaning.__dict__
    assert "_kept_hash" not in pickle.loads(pickle.dumps(meaning)).__dict__


def test_an_object_pickled_here_is_found_in_another_process() -> None:
    # Strings hash differently in every process: a hash carried over would miss there.
    objects = (Auction.parse("1C X", Seat.S), _meaning(), Call.parse("3NT"))
    for obj in objects:
        hash(obj)
    script = ("import pickle, sys\n"
              "from bidbox.core import Auction, Call, Seat\n"
              "from bidbox.lang.constraints import And, MeasureRange, Not, SuitRange\n"
              "objs = pickle.loads(sys.stdin.buffer.read())\n"
              "fresh = (Auction.parse('1C X', Seat.S), And((MeasureRange('hcp', 12, 14), "
              "Not(SuitRange('lengths', 'H', 5, None)))), Call.parse('3NT'))\n"
              "print(all(o in {f} and hash(o) == hash(f) for o, f in zip(objs, fresh)))\n")
    env = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONHASHSEED": "12345"}
    done = subprocess.run([sys.executable, "-c", script], input=pickle.dumps(objects),
                          env=env, capture_output=True, check=True)
    assert done.stdout.strip() == b"True"


@given(st.lists(st.sampled_from(["P", "1C", "1H", "X", "2S", "XX", "3NT", "P"]),
                max_size=12), st.integers(0, 14))
def test_prefix_is_the_auction_of_the_first_calls(tokens: list[str], count: int) -> None:
    auction = Auction(Seat.W, Vulnerability.NS)
    for token in tokens:
        call = Call.parse(token)
        if auction.is_legal(call):
            auction = auction.add(call)
    head = auction.prefix(count)
    expected = Auction(auction.dealer, auction.vul, auction.calls[:count])
    assert head == expected
    assert hash(head) == hash(expected)
    assert head.last_bid_index() == expected.last_bid_index()
    assert head.is_ended == expected.is_ended
