"""The SBU handbook's own alerting and licensing examples get the handbook's verdicts.

Examples live in tests/rules/data/sbu-handbook.examples, each a small system fragment;
where the handbook contradicts itself the file records the reading chosen (a '!!' line).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from bidbox.core import Auction, Hand
from bidbox.engine import as_systems, explain
from bidbox.lang import System, compile_text
from bidbox.rules import SBU, CheckReport, decide_alerts
from bidbox.rules.meaning import DEFAULT_CONTEXT
from bidbox.rules.sbu import SBU_NT_EXTENDED

DATA = Path(__file__).parent / "data" / "sbu-handbook.examples"


@dataclass(frozen=True)
class Check:
    section: str
    title: str
    system: str
    kind: str
    args: tuple[str, ...]
    line: int
    reading: str

    @property
    def id(self) -> str:
        return f"{self.section} {self.kind} {' '.join(self.args)} (line {self.line})"


def read_examples() -> list[Check]:
    checks: list[Check] = []
    section = title = ""
    lines: list[str] = []
    pending: list[tuple[str, tuple[str, ...], int]] = []
    reading = ""

    def flush() -> None:
        nonlocal pending, reading
        for kind, args, line in pending:
            checks.append(Check(section, title, "\n".join(lines), kind, args, line, reading))
        pending = []
        reading = ""

    for number, raw in enumerate(DATA.read_text(encoding="utf-8").splitlines(), start=1):
        if raw.startswith("== "):
            flush()
            section, _, title = raw[3:].partition(" | ")
            lines = []
        elif raw.startswith("-- "):
            kind, *args = [part.strip() for part in raw[3:].split(" | ")]
            pending.append((kind, tuple(args), number))
        elif raw.startswith("!! "):
            reading = raw[3:]
        elif not raw.startswith("#"):
            lines.append(raw)
    flush()
    return checks


CHECKS = read_examples()


@cache
def compiled(text: str) -> System:
    return compile_text(text, "example.bbx")


@cache
def report(text: str) -> CheckReport:
    return SBU().check(compiled(text))


@pytest.mark.parametrize("check", CHECKS, ids=[c.id for c in CHECKS])
def test_handbook_example(check: Check) -> None:
    system = compiled(check.system)
    if check.kind in ("alert", "stop"):
        auction_text, number, expected = check.args
        auction = Auction.parse(auction_text)
        decision = decide_alerts(explain(auction, as_systems(system)), SBU())[int(number) - 1]
        got = decision.alert if check.kind == "alert" else decision.stop_card
        assert got == (expected == "yes"), (
            f"{check.section} {check.title}: call {number} of '{auction_text}': "
            f"{decision.rule} ({decision.section}): {decision.reason}")
        return
    call, expected, *where = check.args
    found = [f for f in report(check.system).findings if f.call == call
             and (not where or f.auction == where[0])]
    assert found, f"no finding for {call} {where}"
    levels = [f.level for f in found]
    verdict = None if None in levels else max(level for level in levels if level is not None)
    if expected.startswith("<="):
        assert verdict is not None and verdict <= int(expected[2:]), (
            check.section, check.title, [f.to_json() for f in found])
        return
    want = None if expected == "none" else int(expected)
    assert verdict == want, (check.section, check.title, [f.to_json() for f in found])
    if want is None:
        assert any(f.witness for f in found if f.level is None), "a violation needs a witness"


def test_every_section_listed_in_the_issue_is_covered() -> None:
    sections = {c.section.split()[0] for c in CHECKS}
    for needed in ("2.3.2", "2.3.3", "2.3.4", "2.3.5", "2.3.6", "2.3.7", "2.4", "6.2", "6.3"):
        assert needed in sections


def test_rule_of_18_witness_fits_the_meaning_and_breaks_the_rule() -> None:
    text = "1H hcp 8+, 6+H\n"
    finding = next(f for f in report(text).findings if f.rule == "Rule of 18")
    hand = Hand.parse(finding.witness or "")
    from bidbox.evaluate import evaluate_hand

    values = evaluate_hand(hand)
    points, hcp = values["rule_points"], values["hcp"]
    assert isinstance(points, int | float) and isinstance(hcp, int | float)
    assert points <= 17 and hcp >= 8
    assert isinstance(values["lengths"], list) and values["lengths"][1] >= 6


def test_one_nt_witness_is_unbalanced_or_too_weak() -> None:
    finding = next(f for f in report("1NT hcp 15-19\n").findings if f.level is None)
    hand = Hand.parse(finding.witness or "")
    import numpy as np

    from bidbox.engine.features import HandFeatures
    from bidbox.engine.predicates import compile_predicate

    features = HandFeatures(np.array([hand.suits], dtype=np.int16))
    assert not compile_predicate(SBU_NT_EXTENDED)(features, DEFAULT_CONTEXT)[0]


def test_system_flag_overrides_are_reported() -> None:
    system = compile_text("1NT hcp 12-14, balanced\n  2C hcp 11+, 4+M [noalert]\n", "o.bbx")
    decision = decide_alerts(explain(Auction.parse("1NT P 2C"), as_systems(system)), SBU())[2]
    assert decision.override and not decision.alert and "system file says no alert" in \
        decision.reason


def test_a_judged_control_bid_is_alerted_as_a_cue_bid_and_a_natural_one_is_not() -> None:
    """2.3.3 §1: side-suit controls shown in a slam auction are alerted, judgement's own
    control bids too; a new suit our side may still play in is natural."""
    from bidbox.core import Call
    from bidbox.lang import load_system
    from bidbox.rules.alerts import decide_call_alert
    sbu = as_systems(load_system("sbu-level1"))
    cue = decide_call_alert(Auction.parse("1NT P 3S P"), Call.parse("4D"), sbu, SBU())
    assert cue.alert and cue.section == "2.3.3 §1", cue
    natural = decide_call_alert(Auction.parse("1H P 1S P 2C P 3S P"), Call.parse("4H"), sbu,
                                SBU())
    assert not natural.alert, natural


def test_the_least_length_a_meaning_states() -> None:
    from bidbox.lang.constraints import And, MeasureRange, Or, SuitRange
    four = SuitRange("lengths", "S", 4, None)
    assert And((MeasureRange("hcp", 10, 12), four)).least_length("S") == 4
    assert Or((four, SuitRange("lengths", "S", 2, 3))).least_length("S") == 2
    assert Or((four, MeasureRange("hcp", 0, 7))).least_length("S") == 0
    assert four.least_length("H") == 0


def test_a_forcing_pass_is_read_one_way_by_alert_card_and_judgement() -> None:
    """A pass tagged forcing-pass, or written with a forcing word, is a forcing pass for
    every reader: alerted, on the card's unusual methods, binding partner (judgement reads
the same property)."""
    from bidbox.rules.card import convention_card
    tagged = compiled("system fp\n1NT hcp 12-14, balanced\n  (X)\n"
                      "    P  hcp 0-7 [forcing-pass, artificial] \"forcing pass\"\n")
    worded = compiled("system fw\n1NT hcp 12-14, balanced\n  (X)\n"
                      "    P  hcp 0-7 [f1] \"forcing: opener decides\"\n")
    for system in (tagged, worded):
        passes = [e for node in system.nodes() for e in node.calls if e.call.kind.name == "PASS"]
        assert passes and all(e.is_forcing_pass for e in passes), system.name
        unusual = convention_card(system, SBU())["unusual"]
        assert isinstance(unusual, list) and "forcing passes" in unusual, system.name
        alerts = decide_alerts(explain(Auction.parse("1NT X P"), as_systems(system)), SBU())
        assert alerts[-1].alert and alerts[-1].section == "2.3.4 §6", system.name


def test_judgements_penalty_double_is_read_as_penalty_and_explained_so() -> None:
    """Judgement doubles for penalty only where penalty is the default (2.3.4 §2), so its
    double of their game is not alerted; explain names it a penalty double."""
    from bidbox.core import Call
    from bidbox.engine.bidder import PENALTY_DOUBLE_TEXT
    from bidbox.lang import load_system
    from bidbox.rules.alerts import decide_call_alert
    sbu = as_systems(load_system("sbu-level1"))
    decision = decide_call_alert(Auction.parse("1S 2H 2S 4H 4S P P"), Call.parse("X"), sbu,
                                 SBU())
    assert not decision.alert and "penalty" in decision.rule, decision
    told = explain(Auction.parse("1S 2H 2S 4H 4S P P X"), sbu)
    assert told.calls[-1].meaning == PENALTY_DOUBLE_TEXT
