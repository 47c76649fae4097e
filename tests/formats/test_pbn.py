"""PBN/LIN boards: the 450 real boards round-trip through endplay with their auctions and
alert notes; boards bid by a system carry the alert decisions and meanings explain gives."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import bidbox
from bidbox.api import get_regulation
from bidbox.core.seats import Side
from bidbox.formats.pbn import (
    BoardFormatError,
    annotated_board,
    bid_boards,
    board_auction,
    note_text,
    read_boards,
    write_boards,
)

REAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "real-pbn"
FILES = sorted(REAL.glob("*.pbn"))


def _key(board: Any) -> tuple[object, ...]:
    return (board.deal.to_pbn(), int(board.dealer), int(board.vul), board.board_num,
            [(str(b), b.alertable, note_text(b.announcement)) for b in board.auction])


@pytest.fixture(scope="module")
def real_boards() -> list[tuple[Path, list[Any]]]:
    if not FILES:
        pytest.fail(f"no real boards in {REAL}")
    return [(path, read_boards(path)) for path in FILES]


def test_all_real_boards_round_trip_through_pbn_and_lin(real_boards: list[tuple[Path, list[Any]]],
                                                        tmp_path: Path) -> None:
    total = notes = 0
    for path, boards in real_boards:
        for suffix in (".pbn", ".lin"):
            out = tmp_path / (path.stem + suffix)
            write_boards(boards, out)
            again = read_boards(out)
            assert len(again) == len(boards)
            for a, b in zip(boards, again, strict=True):
                ka, kb = _key(a), _key(b)
                if suffix == ".lin":  # LIN carries no board number tag of its own here
                    ka, kb = ka[:3] + ka[4:], kb[:3] + kb[4:]
                assert ka == kb, (path.name, a.board_num, suffix)
        total += len(boards)
        notes += sum(1 for b in boards for c in b.auction if c.announcement)
    assert total == 450
    assert notes > 1000


def test_a_system_bids_the_real_boards_with_notes_from_its_meanings(
        real_boards: list[tuple[Path, list[Any]]], tmp_path: Path) -> None:
    sbu = bidbox.load_system("tosr")  # a relay system: most of its calls are alerted
    boards = real_boards[0][1][:12]
    out = bid_boards(boards, sbu.compiled, sbu.compiled, get_regulation("sbu"))
    assert len(out) == 2 * len(boards)
    ours = out[0::2]
    write_boards(out, tmp_path / "ours.pbn")
    again = read_boards(tmp_path / "ours.pbn")
    alerted = 0
    for board, back in zip(ours, again[0::2], strict=True):
        assert _key(board) == _key(back)
        auction = board_auction(board)
        explained = sbu.explain(auction)
        for call, bid in zip(explained.calls, board.auction, strict=True):
            assert bid.alertable == call.alert, str(auction)
            assert (bid.announcement or None) == (call.meaning if call.alert else None)
            alerted += call.alert
        assert board.info["Room"] == "bidbox"
    assert again[1].info["Room"] == "original"
    assert alerted > 0


def test_stayman_note_on_a_board(tmp_path: Path) -> None:
    sbu = bidbox.load_system("sbu-level1")
    auction = bidbox.Auction.parse("1NT P 2C P 2H P 4H P P P")
    deal = "N:KJ4.Q974.AJ62.K8 T876.J82.9543.72 AQ53.AK63.T7.J54 92.T5.KQ8.AQT963"
    board = annotated_board(deal, auction, {Side.NS: sbu.compiled, Side.EW: sbu.compiled},
                            get_regulation("sbu"), 1)
    write_boards([board], tmp_path / "b.pbn")
    text = (tmp_path / "b.pbn").read_text()
    assert "2C =1=" in text and '[Note "1:Stayman: asks for a four-card major"]' in text
    assert '[Contract "4H"]' in text
    write_boards([board], tmp_path / "b.lin")
    assert "mb|2C!|an|Stayman: asks for a four-card major|" in (tmp_path / "b.lin").read_text()


def test_bad_board_files_are_named(tmp_path: Path) -> None:
    with pytest.raises(BoardFormatError, match=r"\.pbn or \.lin"):
        read_boards(tmp_path / "x.txt")
    with pytest.raises(BoardFormatError, match="cannot read"):
        read_boards(tmp_path / "missing.pbn")
