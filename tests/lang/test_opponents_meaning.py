"""Defences chosen by what the opponents' call means, not only by its name."""

from __future__ import annotations

from pathlib import Path

import pytest

from bidbox.core import Auction, Call, Hand, Side
from bidbox.engine import choose_call
from bidbox.lang import System, SystemFileError, compile_text

OURS = """system ours
1D  hcp 11-15, 4+D          [natural]
(1C)                        [strong]
  1H  hcp 6-15, 4+H, 4+S    [artificial, two-suited] "both majors over their strong club"
(1C)
  1H  hcp 8-16, 5+H         [overcall, natural] "natural overcall"
(1D)                        [natural]
  X   hcp 12+, 0-1D         [takeout]
"""

HAND = Hand.parse("KQ32.AJ542.32.32")  # both majors, five hearts: fits both 1H meanings


def _against(theirs: str) -> dict[Side, System]:
    return {Side.NS: compile_text(f"system theirs\n{theirs}\n", "theirs.bbx"),
            Side.EW: compile_text(OURS, "ours.bbx")}


@pytest.mark.parametrize(("theirs", "meaning"), [
    ("1C hcp 16+ [artificial, strong, f1]", "both majors over their strong club"),
    ("1C hcp 12-19, 3+C [natural]", "natural overcall"),
])
def test_the_defence_follows_the_meaning_of_their_call(theirs: str, meaning: str) -> None:
    result = choose_call(HAND, Auction.parse("1C"), _against(theirs))
    assert result.call == Call.parse("1H")
    assert result.meaning == meaning


def test_a_line_for_natural_calls_does_not_answer_an_artificial_one() -> None:
    # Their 1D is a transfer: our takeout double of a natural 1D does not apply.
    systems = _against("1D hcp 11-15, 4+H [artificial, transfer(H)]")
    result = choose_call(Hand.parse("AKQ2.KQ32.2.A432"), Auction.parse("1D"), systems)
    assert result.source != "system"


def test_two_lines_for_one_call_need_different_meanings(tmp_path: Path) -> None:
    text = "system twice\n(1C) [strong]\n  X hcp 10+\n(1C) [strong]\n  X hcp 12+\n"
    with pytest.raises(SystemFileError) as err:
        compile_text(text, str(tmp_path / "twice.bbx"))
    assert "twice.bbx:4:1" in str(err.value) and "[strong] appears twice" in str(err.value)



OVER_MULTI = """system ours
(2D)                        [artificial]
  P   any                   [priority -100]
    (2H)                    [nf]
      X   hcp 13+, 0-2H, 3+S "takeout of the suit they may play in"
"""


@pytest.mark.parametrize(("their_2h", "takes_out"), [
    ("2H hcp 0-9, 3+H [poc]", True),          # pass or correct: they may play 2H
    ("2H hcp 0-9, 3+H [relay, nf]", True),    # a relay partner passes with hearts
    ("2H hcp 10+ [relay, artificial, f1]", False),  # forcing: nobody plays 2H
    ("2H hcp 0-9, 3+H", False),               # no status written: not known to be passable
])
def test_a_forcing_word_asks_for_their_calls_status(their_2h: str, takes_out: bool) -> None:
    theirs = compile_text("system theirs\n2D hcp 5-10, 6+H [artificial]\n"
                          f"  {their_2h}\n", "theirs.bbx")
    systems = {Side.NS: theirs, Side.EW: compile_text(OVER_MULTI, "ours.bbx")}
    result = choose_call(Hand.parse("AQ32.2.KQ32.A432"), Auction.parse("2D P 2H"), systems)
    assert (result.call == Call.parse("X") and result.source == "system") is takes_out


def test_a_status_ask_tells_two_lines_apart() -> None:
    text = ("system ours\n(2D) [artificial]\n  P any [priority -100]\n"
            "    (2H) [nf]\n      X hcp 13+\n    (2H) [f1]\n      X hcp 16+\n")
    system = compile_text(text, "ours.bbx")
    assert system.root.opp  # compiled: [nf] and [f1] are different meanings
