"""Every shipped system loads (with each option), bids random deals to legal finished
auctions, lints and passes through the regulation check, in CI."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidbox.core import Auction, Seat, Vulnerability
from bidbox.engine import as_systems, bid_batch, bid_deal
from bidbox.evaluate import deal_batch
from bidbox.lang import System, load_system, shipped_systems
from bidbox.rules import SBU
from bidbox.verify import lint_system

SHIPPED = [s.name for s in shipped_systems()]
VARIANTS = [(s.name, name, values[-1] if values else True) for s in shipped_systems()
            for name, values, _ in s.options]


@cache
def system(name: str) -> System:
    return load_system(name)


@pytest.mark.parametrize("name", SHIPPED)
def test_loads_with_title_and_source(name: str) -> None:
    loaded = system(name)
    assert loaded.title and loaded.source and loaded.root.calls


@pytest.mark.parametrize(("name", "option", "value"), VARIANTS,
                         ids=[f"{n}-{o}" for n, o, _ in VARIANTS])
def test_every_option_compiles(name: str, option: str, value: str | bool) -> None:
    variant = load_system(name, {option: value})
    assert variant.selected[option] == value


@pytest.mark.parametrize("name", SHIPPED)
def test_dealt_boards_end_in_legal_auctions(name: str) -> None:
    # 1,000 boards reach the rarer branches yet keep the suite's slowest test short;
    # benchmarks/bench_agreement.py bids 10,000 with both sides and compares the bidders.
    deals = deal_batch(1_000, seed=31)
    for dealer, vul in ((Seat.N, Vulnerability.NONE), (Seat.W, Vulnerability.BOTH)):
        result = bid_batch(deals, as_systems(system(name)), dealer, vul)
        assert sum(len(index) for _, index, _ in result.groups) == len(deals)
        for auction, _, _ in result.groups:
            assert auction.is_ended
            # rebuilding from text re-checks every call under the Laws
            assert Auction.parse(str(auction), dealer, vul) == auction


@pytest.mark.parametrize("name", SHIPPED)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.sampled_from(list(Seat)),
       vul=st.sampled_from(list(Vulnerability)))
def test_hand_by_hand_bidding_is_legal_and_finishes(name: str, seed: int, dealer: Seat,
                                                    vul: Vulnerability) -> None:
    deals = deal_batch(1, seed=seed)
    auction, results = bid_deal({s: deals.hand(0, s) for s in Seat},
                                as_systems(system(name)), dealer, vul)
    assert auction.is_ended and len(results) == len(auction)


@pytest.mark.parametrize("name", SHIPPED)
def test_lint_and_regulation_check_run(name: str) -> None:
    findings = lint_system(system(name))
    assert all(f.witness or f.code in ("unreachable", "open-forcing") for f in findings)
    assert any(f.code == "open-forcing" for f in findings)
    report = SBU().check(system(name))
    assert report.findings
