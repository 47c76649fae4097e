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

