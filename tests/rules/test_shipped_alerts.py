"""SBU alert decisions on the shipped systems, from tests/rules/data/shipped-alerts.cases."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from bidbox.core import Auction, Hand
from bidbox.engine import as_systems, choose_call, explain
from bidbox.lang import System, load_system, parse_options
from bidbox.rules import SBU, decide_alerts

DATA = Path(__file__).parent / "data" / "shipped-alerts.cases"


@dataclass(frozen=True)
class AlertCase:
    line: int
    section: str
    system: str
    options: tuple[str, ...]
    auction: str
    call: str  # a call number, or "bid HAND"
    expect: str

    @property
    def id(self) -> str:
        return f"line {self.line}: {self.system} [{self.auction}] {self.call} -> {self.expect}"


def read_cases() -> list[AlertCase]:
    cases = []
    for number, raw in enumerate(DATA.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(" | ")]
        if len(fields) != 6:
            raise ValueError(f"{DATA}:{number}: a case needs six fields separated by ' | '")
        section, system, options, auction, call, expect = fields
        opts = () if options == "-" else tuple(o.strip() for o in options.split(","))
        cases.append(AlertCase(number, section, system, opts, auction, call, expect))
    return cases


CASES = read_cases()


@cache
def system_for(name: str, options: tuple[str, ...]) -> System:
    return load_system(name, parse_options(list(options)))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_shipped_alert(case: AlertCase) -> None:
    system = system_for(case.system, case.options)
    systems = as_systems(system)
    auction = Auction.parse(case.auction)
    expected = case.expect.split()
    if case.call.startswith("bid "):
        call = choose_call(Hand.parse(case.call[4:]), auction, systems).call
        assert str(call) == expected[0], f"{case.section}: the system bids {call}"
        auction, number = auction.add(call), len(auction.calls) + 1
    else:
        number = int(case.call)
    decision = decide_alerts(explain(auction, systems), SBU())[number - 1]
    assert decision.alert == (expected[-1] == "yes"), (
        f"{case.section}: call {number} of '{auction}': {decision.rule} ({decision.section}): "
        f"{decision.reason}")
