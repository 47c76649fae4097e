"""Lint names every forcing call the notes leave open, and who decides after it."""

from __future__ import annotations

from pathlib import Path

from bidbox.lang import compile_text, load_system
from bidbox.verify import lint_system
from bidbox.verify.forcing import open_forcing_calls

NOTES = """system t
1C hcp 16+ [f1, artificial]
  1D hcp 0-7 [artificial]
    1NT hcp 16-18, balanced
  1H hcp 8+, 5+H [gf]
1NT hcp 12-14, balanced
  2NT hcp 11-12 [inv]
"""


def test_open_forcing_calls_are_listed_with_the_line() -> None:
    found = {f.auction: f for f in open_forcing_calls(compile_text(NOTES, "t.bbx"))}
    assert set(found) == {"1C P 1H"}  # 1C and 1C-1D have continuations; 2NT is invitational
    finding = found["1C P 1H"]
    assert finding.code == "open-forcing" and finding.location == "t.bbx:5:3"
    assert "game forcing" in finding.message and "placement" in finding.message


def test_lint_reports_them_and_a_base_is_named_when_it_covers(tmp_path: Path) -> None:
    (tmp_path / "base.bbx").write_text("1C any\n  1H any\n    1S hcp 12+, 4+S\n"
                                       "1H any\n  2C any\n    2H any\n")
    (tmp_path / "t.bbx").write_text('base "base.bbx"\n' + NOTES
                                    + "1H hcp 12+, 5+H\n  2C hcp 12+, 4+C [gf]\n")
    system = load_system(str(tmp_path / "t.bbx"))
    found = {f.auction: f.message for f in open_forcing_calls(system)}
    # The base reads our artificial 1C as nothing, so it does not follow it: placement.
    assert "placement" in found["1C P 1H"]
    # Our natural 1H-2C is the base's 1H-2C too, and the base has opener's rebid.
    assert "the natural base" in found["1H P 2C"]
    codes = {f.code for f in lint_system(system)}
    assert "open-forcing" in codes
