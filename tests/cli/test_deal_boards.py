"""`bidbox deal --boards`: a file's boards bid by a system, the played auction kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from bidbox.cli.main import main
from bidbox.formats.pbn import board_auction, read_boards

REAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "real-pbn"


def _a_real_file() -> Path:
    files = sorted(REAL.glob("*.pbn"))
    if not files:
        pytest.skip("the shared real boards are not beside this checkout")
    return files[0]


def test_every_board_is_bid_and_kept_beside_the_played_one(tmp_path: Path) -> None:
    source = _a_real_file()
    out = tmp_path / "bid.pbn"
    assert main(["deal", "--boards", str(source), "--system", "sbu-level1", "-o",
                 str(out)]) == 0
    played = read_boards(source)
    written = read_boards(out)
    assert len(written) == 2 * len(played)
    for ours, theirs, original in zip(written[0::2], written[1::2], played, strict=True):
        assert ours.deal.to_pbn() == original.deal.to_pbn()
        assert str(board_auction(theirs)) == str(board_auction(original))
        assert board_auction(ours).is_ended


def test_boards_need_a_system(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--boards", str(_a_real_file()), "-o",
                 str(tmp_path / "x.pbn")]) == 2
    assert "--system" in capsys.readouterr().err
