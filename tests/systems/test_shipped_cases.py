"""Known answers for every shipped system: tests/systems/data/<system>.cases."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from bidbox.core import Auction, Call, Hand
from bidbox.engine import as_systems, choose_call, explain
from bidbox.lang import System, load_system
from tests.systems.cases import Case, parse_expectation, read_cases

DATA = Path(__file__).parent / "data"
CASES = [case for path in sorted(DATA.glob("*.cases")) for case in read_cases(path)]


@cache
def system(name: str, options: tuple[tuple[str, str | bool], ...]) -> System:
    return load_system(name, dict(options))


def _system_for(case: Case) -> System:
    return system(Path(case.file).stem, case.options)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case: Case) -> None:
    sys_ = _system_for(case)
    auction = Auction.parse(case.auction, case.dealer, case.vul)
    if case.hand is not None:
        result = choose_call(Hand.parse(case.hand), auction, as_systems(sys_))
        assert result.call == Call.parse(case.expect), (
            f"{case.id}: bid {result.call} ({result.meaning}; {result.reason}), "
            f"expected {case.expect}")
        return
    knowledge = explain(auction, as_systems(sys_)).to_json()["knowledge"]
    assert isinstance(knowledge, dict)
    for (seat, key), want in parse_expectation(case.expect).items():
        got = knowledge[seat].get(key)
        if isinstance(want, str):
            assert got == want, f"{case.id}: {seat}.{key} is {got}, expected {want}"
        else:
            assert got is not None and (float(got[0]), float(got[1])) == want, (
                f"{case.id}: {seat}.{key} is {got}, expected {list(want)}")
