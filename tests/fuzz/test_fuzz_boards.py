"""Fuzzing the PBN and LIN readers (issue 17): any bytes give boards that are whole deals,
or an error that names the file (and the board and line where it can)."""

from __future__ import annotations

from pathlib import Path

import endplay.parsers.lin
import endplay.parsers.pbn  # noqa: F401
import numpy as np
import pytest
from hypothesis import given

from bidbox.errors import BidboxError
from bidbox.formats.pbn import read_boards
from bidbox.sim.deals import Boards, read_pbn_boards
from tests.fuzz.harness import (
    bounded,
    corpus_files,
    fuzz_settings,
    mutated,
    result_or_located_error,
)

PBN_BASES = [p.read_bytes() for p in corpus_files(".pbn") if p.stat().st_size < 4000]
LIN_BASES = [p.read_bytes() for p in corpus_files(".lin")]
FULL_SUIT = (1 << 13) - 1


def check_pbn_for_simulation(path: Path) -> Boards | BidboxError:
    """The reader of `simulate --boards`: every board it gives is a whole deal."""
    found = result_or_located_error(lambda: read_pbn_boards(path), must_name=str(path))
    if isinstance(found, Boards):
        assert len(found) >= 1
        masks = found.masks.astype(np.int64)
        for row in range(len(found)):
            hands = masks[row]  # (4 seats, 4 suits)
            counts = [sum(bin(int(m)).count("1") for m in hand) for hand in hands]
            assert counts == [13, 13, 13, 13], (row, counts)
            for suit in range(4):
                together = 0
                for seat in range(4):
                    assert not together & int(hands[seat, suit]), f"board {row}: a card twice"
                    together |= int(hands[seat, suit])
                assert together == FULL_SUIT
            assert 1 <= int(found.numbers[row]) <= 2**31 - 1
    return found


def check_board_file(path: Path) -> object:
    """The reader of `deal --boards` and the exports (PBN or LIN by the extension)."""
    return result_or_located_error(lambda: read_boards(path), must_name=str(path))


@given(mutated(PBN_BASES))
@fuzz_settings(ci_examples=100)
def test_fuzz_pbn(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "fuzz.pbn"
    path.write_bytes(data)
    with bounded("pbn"):
        check_pbn_for_simulation(path)
        check_board_file(path)


@given(mutated(LIN_BASES))
@fuzz_settings(ci_examples=100)
def test_fuzz_lin(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "fuzz.lin"
    path.write_bytes(data)
    with bounded("lin"):
        check_board_file(path)


@pytest.mark.parametrize("path", corpus_files(".pbn"), ids=lambda p: p.name)
def test_corpus_pbn(path: Path) -> None:
    with bounded("pbn corpus"):
        check_pbn_for_simulation(path)
        check_board_file(path)


@pytest.mark.parametrize("path", corpus_files(".lin"), ids=lambda p: p.name)
def test_corpus_lin(path: Path) -> None:
    with bounded("lin corpus"):
        check_board_file(path)
