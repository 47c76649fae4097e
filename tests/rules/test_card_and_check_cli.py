"""The convention card content and the `check` / `card` commands' JSON contracts."""

from __future__ import annotations

import json
import re

import pytest

from bidbox.cli.main import main
from bidbox.core.findings import Finding
from bidbox.lang import compile_text
from bidbox.rules import SBU
from bidbox.rules.card import convention_card

SYSTEM = """
system cardtest
title "Card test"
1C hcp 16+ [artificial, f1]
  1D hcp 0-7 [artificial]
1H hcp 11-15, 5+H
1S hcp 11-15, 5+S
1NT hcp 12-14, balanced
  2C hcp 11+, 4+M [ask]
2H hcp 6-10, 6+H [preempt]
notes leads
  Top of a sequence, fourth highest from length.
notes signals
  Odd cards encourage; high even cards ask for the higher suit.
"""


def test_card_content_is_read_from_the_meanings() -> None:
    card = convention_card(compile_text(SYSTEM, "card.bbx"), SBU())
    unusual = card["unusual"]
    assert isinstance(unusual, list)
    assert "strong club: 1C shows 16+ HCP" in unusual
    assert "five-card majors" in unusual and "weak two: 2H" in unusual
    alertable = card["alertable"]
    assert isinstance(alertable, list)
    assert {row["auction"] for row in alertable} >= {"1C", "1C P 1D", "1NT P 2C", "2H"}
    assert "fourth highest" in str(card["leads"])


def test_check_json_contract_and_odd_even_signals(tmp_path: object,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "card.bbx"
    path.write_text(SYSTEM)
    assert main(["check", "--system", str(path), "--regulation", "sbu", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] is None  # odd/even signals with a second meaning (6.5 §2)
    for finding in data["findings"]:
        # The keys check printed before stay (a public contract); the finding type it
        # shares with lint adds lint's keys, so one reader serves both commands.
        assert {"call", "auction", "rule", "section", "level", "witness",
                "message"} <= set(finding)
        assert set(finding) == set(Finding("info", "x", "y").to_json())
        assert finding["code"] == "licence"
        assert finding["severity"] == ("error" if finding["level"] is None else "info")
    levels = {f["call"]: f["level"] for f in data["findings"] if f["auction"] == "(opening)"}
    assert levels["1C"] == 3 and levels["2H"] == 2 and levels["1NT"] == 1
    assert main(["check", "--system", str(path), "--level", "3"]) == 1
    capsys.readouterr()
    assert main(["card", "--system", str(path), "--json"]) == 0
    card = json.loads(capsys.readouterr().out)
    assert card["title"] == "Card test (cardtest)" and card["basic"]


def test_count_signals_are_not_parity_signals() -> None:
    text = SYSTEM.replace("Odd cards encourage; high even cards ask for the higher suit.",
                          "High shows an even number of cards; suit preference when ruffing.")
    report = SBU().check(compile_text(text, "count.bbx"))
    signals = [f for f in report.findings if f.call == "signals"]
    assert signals and signals[0].level == 1


def test_conventions_beyond_the_first_round_are_graded() -> None:
    text = "1H hcp 12+, 5+H\n  4C hcp 12+, 4+H, 0-1C [splinter]\n  2S hcp 12+ [relay]\n"
    report = SBU().check(compile_text(text, "conv.bbx"))
    rules = {f.rule: f.level for f in report.findings}
    assert rules["splinter bids"] == 2 and rules["relay methods"] == 3
    assert report.verdict == 3


@pytest.mark.parametrize("name, natural", [
    ("sbu-level1", ["1S P 2S P 3S", "1S P 2S P 4S", "1H P 3H P 4H", "1H P 2C", "1S P 2C",
                    "1C P 1D", "1C X P 2S", "1H X P 1S", "2NT P 4H"]),
    ("tosr", ["5H P 6H", "5S P 6S"]),
])
def test_shipped_card_lists_only_alerted_calls(name: str, natural: list[str]) -> None:
    """Issue 11: the natural calls of the issue are off the card, every row is an auction
    the CLI reads (passes written) whose last call the regulation alerts."""
    from bidbox.core import Auction
    from bidbox.engine import as_systems, explain
    from bidbox.lang import load_system
    from bidbox.rules import decide_alerts

    system = load_system(name)
    rows = convention_card(system, SBU())["alertable"]
    assert isinstance(rows, list) and rows
    auctions = [row["auction"] for row in rows]
    assert not set(natural) & set(auctions)
    for text in auctions[:: max(1, len(auctions) // 12)]:
        auction = Auction.parse(text)
        assert decide_alerts(explain(auction, as_systems(system)), SBU())[-1].alert, text


def test_card_ranges_are_worded_as_explain_states_them() -> None:
    """Issue 11: the card's HCP are the bounds explain states (negative inference in,
    open ranges, '14 HCP'), never a measured maximum ('1S (10-28 HCP)' while explain said
    10-22); its texts are the ones explain prints (no errata readings)."""
    from bidbox.api import load_system as load_api_system

    text = ("system words\n2C hcp 22+ \"strong (our reading: any shape)\"\n"
            "1NT hcp 14, balanced\n1S hcp 11+, 5+S\n  2S hcp 6-9, 3+S\n"
            "  3S hcp 10-12, 3+S\n")
    card = convention_card(compile_text(text, "words.bbx"), SBU())
    assert "1NT: 14 HCP, balanced (14 HCP)" in card["basic"]
    assert "2C: strong (22+ HCP)" in card["basic"]  # no reading, an open range
    assert "1S: 11+ HCP, 5+ spades (11-21 HCP)" in card["basic"]  # 2C tried first
    assert card["responses"] == ["1S P 2S: 6-9 HCP, 3+ spades (6-9 HCP)",
                                 "1S P 3S: 10-12 HCP, 3+ spades (10-12 HCP)"]
    sbu = load_api_system("sbu-level1")
    card = sbu.card()
    basic = card["basic"]
    assert isinstance(basic, list)
    one_spade = next(line for line in basic if line.startswith("1S:"))
    stated = sbu.explain("1S").knowledge[bidbox_seat("N")].summary()
    assert one_spade.endswith(f"({stated.split(', ')[0]})") and "10-22 HCP" in one_spade
    assert next(line for line in basic if line.startswith("2C:")).endswith("(19+ HCP)")
    assert "1S P 2S: simple raise: 6-9, four trumps (6-9 HCP)" in card["responses"]
    tosr = load_api_system("tosr").card()
    assert not any("our reading" in line for line in tosr["basic"])
    assert not any(re.search(r"\((\d+)-\1 HCP\)", line) for line in tosr["basic"])
    assert not any("-37 HCP" in line or "-30 HCP" in line for line in tosr["basic"])


def bidbox_seat(name: str) -> object:
    from bidbox.core.seats import Seat

    return Seat.parse(name)
