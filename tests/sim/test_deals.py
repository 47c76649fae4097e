"""Boards: the 16-board cycle, dealing by seed and constraint, PBN out and in."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from bidbox.core import Hand, Seat, Vulnerability
from bidbox.evaluate import evaluate_hand
from bidbox.sim.deals import (
    BoardFileError,
    Boards,
    DealConstraintError,
    board_dealer,
    board_vulnerability,
    deal_boards,
    from_endplay_vul,
    north_filter,
    read_pbn_boards,
    write_pbn_boards,
)

REAL_PBN = Path(__file__).parents[2] / ".." / "shared" / "data" / "real-pbn"

# Boards 1-16 as printed on every duplicate board.
CYCLE = ("none", "ns", "ew", "both",
         "ns", "ew", "both", "none",
         "ew", "both", "none", "ns",
         "both", "none", "ns", "ew")


def test_board_cycle_is_the_standard_one() -> None:
    for number in range(1, 65):
        assert board_vulnerability(number) is Vulnerability.parse(CYCLE[(number - 1) % 16])
        assert board_dealer(number) is (Seat.N, Seat.E, Seat.S, Seat.W)[(number - 1) % 4]


def test_board_cycle_agrees_with_endplay() -> None:
    from endplay.types import Player, Vul

    for number in range(1, 33):
        assert board_vulnerability(number) is from_endplay_vul(Vul.from_board(number))
        assert int(board_dealer(number)) == int(Player.from_board(number))


def test_dealt_boards_are_fixed_by_the_seed_and_extend_a_shorter_run() -> None:
    long = deal_boards(50, 11)
    short = deal_boards(20, 11)
    assert np.array_equal(long.masks[:20], short.masks)
    assert not np.array_equal(deal_boards(20, 12).masks, short.masks)
    assert list(long.numbers[:17]) == list(range(1, 18))
    assert long.dealer(4) is Seat.N and long.vul(4) is Vulnerability.NS
    assert long.source == "seed:11"
    for i in range(50):  # every deal holds each card once
        assert np.bitwise_or.reduce(long.masks[i], axis=0).tolist() == [8191] * 4
        assert sum(bin(int(m)).count("1") for m in long.masks[i].ravel()) == 52


def test_take_keeps_deal_indices() -> None:
    boards = deal_boards(10, 1)
    part = boards.take([7, 3])
    assert list(part.indices) == [7, 3] and list(part.numbers) == [8, 4]
    assert part.pbn(0) == boards.pbn(7)


def test_where_keeps_only_deals_whose_north_fits() -> None:
    where = north_filter("hcp 15-17, balanced")
    boards = deal_boards(30, 5, where)
    assert len(boards) == 30
    for i in range(30):
        values = evaluate_hand(boards.deals().hand(i, Seat.N))
        assert 15 <= int(values["hcp"]) <= 17 and values["balanced"] is True
    again = deal_boards(30, 5, where)
    assert np.array_equal(boards.masks, again.masks)


def test_where_with_a_free_suit_variable_means_some_suit() -> None:
    boards = deal_boards(20, 2, north_filter("6+M"))
    for i in range(20):
        lengths = boards.deals().hand(i, Seat.N).lengths
        assert lengths[0] >= 6 or lengths[1] >= 6


@pytest.mark.parametrize(("text", "message"), [
    ("hcp 12+ |", "column"),
    ("opener", "'opener' is not a measure"),
])
def test_where_errors_quote_the_constraint(text: str, message: str) -> None:
    with pytest.raises(DealConstraintError, match=message) as info:
        north_filter(text)
    assert text in str(info.value)


def test_where_that_nothing_meets_stops_with_a_message() -> None:
    # 37 HCP is a legal range (the four hands with every ace, king and queen and a jack),
    # which no deal of a few thousand meets.
    with pytest.raises(DealConstraintError, match="only 0 of"):
        deal_boards(3, 1, north_filter("hcp 37"), max_deals=5000)


def test_pbn_round_trip(tmp_path: Path) -> None:
    boards = deal_boards(17, 3)
    path = tmp_path / "boards.pbn"
    write_pbn_boards(boards, path)
    text = path.read_text(encoding="utf-8")
    for tag in ("[Board \"17\"]", "[Dealer \"W\"]", "[Vulnerable \"NS\"]", "[Deal \"N:"):
        assert tag in text
    back = read_pbn_boards(path)
    assert np.array_equal(back.masks, boards.masks)
    assert list(back.numbers) == list(boards.numbers)
    assert list(back.dealers) == list(boards.dealers)
    assert list(back.vuls) == list(boards.vuls)
    assert back.source.startswith("pbn:") and "boards.pbn:" in back.place(0)


def test_pbn_dealer_tag_wins_over_the_cycle(tmp_path: Path) -> None:
    path = tmp_path / "one.pbn"
    hands = "N:AKQJ.T98.765.432 T987.654.32.AKQJ 6543.32.AKQJ.T98 2.AKQJ7.T984.765"
    path.write_text(f'[Board "1"]\n[Dealer "S"]\n[Vulnerable "EW"]\n[Deal "{hands}"]\n',
                    encoding="utf-8")
    boards = read_pbn_boards(path)
    assert boards.dealer(0) is Seat.S and boards.vul(0) is Vulnerability.EW
    assert boards.deals().hand(0, Seat.W) == Hand.parse("2.AKQJ7.T984.765")


def test_pbn_errors_name_the_file_and_board(tmp_path: Path) -> None:
    path = tmp_path / "short.pbn"
    path.write_text('[Board "4"]\n[Deal "N:AKQJ.T98.765.432 - - -"]\n', encoding="utf-8")
    with pytest.raises(BoardFileError, match=r"short\.pbn:\d+ \(board 4\)"):
        read_pbn_boards(path)
    empty = tmp_path / "empty.pbn"
    empty.write_text("% nothing here\n", encoding="utf-8")
    with pytest.raises(BoardFileError, match="no boards"):
        read_pbn_boards(empty)
    with pytest.raises(BoardFileError, match="cannot read"):
        read_pbn_boards(tmp_path / "missing.pbn")


def test_pbn_vulnerability_names_of_the_standard_and_of_other_programs(tmp_path: Path
                                                                      ) -> None:
    """PBN names no vulnerability "None", "Love" or "-", and both sides "All" or "Both";
    other programs write "N-S" or lower case. endplay reads only some of these, and a
    file that wrote "Love" was refused whole."""
    hands = "N:AKQJ.T98.765.432 T987.654.32.AKQJ 6543.32.AKQJ.T98 2.AKQJ7.T984.765"
    names = {"Love": Vulnerability.NONE, "-": Vulnerability.NONE, "neither": Vulnerability.NONE,
             "n-s": Vulnerability.NS, "E-W": Vulnerability.EW, "both": Vulnerability.BOTH,
             "All": Vulnerability.BOTH}
    path = tmp_path / "vul.pbn"
    path.write_text("".join(f'[Board "{k}"]\n[Dealer "N"]\n[Vulnerable "{name}"]\n'
                            f'[Deal "{hands}"]\n\n' for k, name in enumerate(names, 2)),
                    encoding="utf-8")  # board 2 is NS on the cycle: the tag must win
    boards = read_pbn_boards(path)
    assert [boards.vul(row) for row in range(len(names))] == list(names.values())


def test_a_board_the_parser_refuses_is_left_out_alone(tmp_path: Path) -> None:
    """endplay stops at the first board whose tag it cannot read; a replay of files from
    other programs reads the rest of the file and names the refused board's first line,
    and without ``skipped`` the whole file is an error naming that line."""
    boards = deal_boards(3, 9)
    path = tmp_path / "three.pbn"
    write_pbn_boards(boards, path)
    lines = path.read_text(encoding="utf-8").split("\n")
    starts = [k + 1 for k, line in enumerate(lines) if line.startswith("[Event")]
    second = starts[1] - 1  # each board's first line (1-based) and board 2's index
    bad = next(k for k in range(second, len(lines)) if lines[k].startswith("[Vulnerable"))
    lines[bad] = '[Vulnerable "sometimes"]'
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(BoardFileError, match=rf"three\.pbn:{second + 1}: .*sometimes"):
        read_pbn_boards(path)
    skipped: list[tuple[int, str]] = []
    records: list[object] = []
    read = read_pbn_boards(path, skipped=skipped, records=records)
    assert np.array_equal(read.masks, boards.masks[[0, 2]])
    assert list(read.numbers) == [1, 3] and read.place(1) == f"{path}:{starts[2]} (board 3)"
    assert len(skipped) == 1 and re.search(rf"three\.pbn:{starts[1]}: .*sometimes",
                                           skipped[0][1])
    assert [r.board_num for r in records] == [1, 3]  # endplay's boards of the rows read


def test_all_real_boards_are_read() -> None:
    if not REAL_PBN.is_dir():
        pytest.skip(f"real boards not found at {REAL_PBN} (shared/data beside the checkout)")
    from endplay.parsers import pbn

    total = 0
    for path in sorted(REAL_PBN.glob("*.pbn")):
        boards = read_pbn_boards(path)
        with path.open(encoding="utf-8") as f:
            theirs = pbn.load(f)
        # The [Dealer] tags as written (endplay itself keeps them only on boards with an
        # auction or a contract, and otherwise takes the dealer from the board number).
        dealer_tags = re.findall(r'^\[Dealer "([NESW])"\]', path.read_text(encoding="utf-8"),
                                 re.MULTILINE)
        assert len(boards) == len(theirs) == len(dealer_tags)
        for row, board in enumerate(theirs):
            assert boards.dealer(row) is Seat.parse(dealer_tags[row]), boards.place(row)
            assert boards.pbn(row) == board.deal.to_pbn(), boards.place(row)
            assert boards.vul(row) is from_endplay_vul(board.vul), boards.place(row)
        total += len(boards)
    assert total == 450


def test_boards_reject_mismatched_rows() -> None:
    masks = deal_boards(2, 1).masks
    with pytest.raises(ValueError, match="numbers"):
        Boards(masks, np.array([1], dtype=np.int32), np.zeros(2, np.int8),
               np.zeros(2, np.int8), "test")


def test_a_vugraph_lin_file_gives_each_deal_once(tmp_path: Path) -> None:
    """A vugraph match plays each deal in two rooms; a simulation plays each deal at its
    own two tables, so the file gives it once, with the dealer and vulnerability read,
    and a board of 51 cards is an error that names its line and room."""
    from bidbox.sim.deals import VULNERABILITIES, read_board_file

    write_pbn_boards(deal_boards(3, seed=5), tmp_path / "three.pbn")
    dealt = read_pbn_boards(tmp_path / "three.pbn")
    lines = ["vg|t,1,I,1,3,A,0,B,0|", "pn|a,b,c,d,e,f,g,h|"]
    for i in range(3):
        hands = [Hand(tuple(int(m) for m in dealt.masks[i, int(s)])) for s in Seat]
        lin = ",".join("".join(f"{suit}{cards}" for suit, cards in zip(
            "SHDC", h.pbn().split("."), strict=True)) for h in (
            hands[int(Seat.S)], hands[int(Seat.W)], hands[int(Seat.N)], hands[int(Seat.E)]))
        digit = "3412"[int(dealt.dealers[i])]
        for room in "oc":
            lines.append(f"qx|{room}{i + 1}|md|{digit}{lin}|sv|b|mb|p|mb|p|mb|p|mb|p|pg||")
    path = tmp_path / "match.lin"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    read = read_board_file(path)
    assert len(read) == 3 and read.source.startswith("lin:")
    assert (read.masks == dealt.masks).all() and (read.dealers == dealt.dealers).all()
    assert [VULNERABILITIES[v] for v in read.vuls] == [Vulnerability.BOTH] * 3
    assert read.places[1] == f"{path}:5"  # board 2's open room; its closed room skipped
    assert len(read_board_file(path, limit=2)) == 2
    south = lin.split(",")[0]  # the last deal's: a card short
    path.write_text("\n".join(lines).replace(south, south[:-1], 1), encoding="utf-8")
    with pytest.raises(BoardFileError, match=r"match\.lin:7 \(board o3\)"):
        read_board_file(path)
