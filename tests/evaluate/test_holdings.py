"""Per-suit measures: known holdings, and the scalar and table forms agreeing everywhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from bidbox.core.hand import parse_holding
from bidbox.evaluate import holdings as hd

DATA = Path(__file__).parent / "data"
SMALL = "98765432"


def _expand(pattern: str, extra: int) -> str:
    """Replace each 'x' by a distinct small card not already used, then add ``extra`` more."""
    body = pattern.replace("10", "T")
    spots = iter(c for c in SMALL if c not in body)
    out = "".join(next(spots) if ch == "x" else ch for ch in body)
    return out + "".join(next(spots) for _ in range(extra))


def _roman_cases() -> list[tuple[str, float]]:
    cases = []
    for line in (DATA / "roman_losers.tsv").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        holding, losers, extends = line.split("\t")
        for extra in range(int(extends) + 1):
            cases.append((_expand(holding, extra), float(losers)))
    return cases


@pytest.mark.parametrize(("holding", "losers"), _roman_cases())
def test_roman_losers_match_the_canary_table(holding: str, losers: float) -> None:
    mask = parse_holding(holding)
    assert hd.roman_losers_quarters(mask) / 4 == losers
    assert hd.tables()["roman_quarters"][mask] / 4 == losers


def test_roman_losers_never_exceed_three_per_suit_or_the_length() -> None:
    for mask in range(8192):
        assert hd.roman_losers_quarters(mask) <= 4 * min(hd.length(mask), 3)


@pytest.mark.parametrize(("holding", "ltc", "qt", "pt"), [
    ("", 0, 0, 0), ("A", 0, 1, 1), ("K", 1, 0, 0), ("AK", 0, 2, 2), ("Kx", 1, 0.5, 1),
    ("Qx", 2, 0, 0), ("AQx", 1, 1.5, 2), ("KQx", 1, 1, 2), ("xxx", 3, 0, 0),
    ("AKQJxxx", 0, 2, 7), ("Axxxx", 2, 1, 3), ("QJT9", 2, 0, 2),
])
def test_losing_tricks_quick_tricks_and_playing_tricks(holding: str, ltc: int, qt: float,
                                                       pt: int) -> None:
    mask = parse_holding(_expand(holding, 0) if holding else "-")
    assert hd.ltc_losers(mask) == ltc
    assert hd.quick_tricks_halves(mask) / 2 == qt
    assert hd.playing_tricks(mask) == pt


@pytest.mark.parametrize(("holding", "solid", "semi_solid"), [
    ("AKQJ", True, True), ("AKQxxxx", True, True), ("AKQxxx", False, True),
    ("AKJxxx", False, True), ("KQJxxx", False, True), ("AQTxxx", False, True),
    ("AKxxxx", False, False), ("KJTxxx", False, False), ("QJTxxx", False, False),
])
def test_solid_and_semi_solid(holding: str, solid: bool, semi_solid: bool) -> None:
    mask = parse_holding(_expand(holding, 0))
    assert hd.is_solid(mask) is solid
    assert hd.is_semi_solid(mask) is semi_solid


@pytest.mark.parametrize(("holding", "stopper"), [
    ("A", True), ("K", False), ("Kx", True), ("Qx", False), ("Qxx", True),
    ("Jxx", False), ("Jxxx", True), ("xxxxx", False), ("", False),
])
def test_stoppers(holding: str, stopper: bool) -> None:
    mask = parse_holding(_expand(holding, 0) if holding else "-")
    assert hd.has_stopper(mask) is stopper


SCALAR = {
    "length": hd.length, "hcp": hd.hcp, "controls": hd.controls, "aces": hd.aces,
    "kings": hd.kings,
    "roman_quarters": hd.roman_losers_quarters, "ltc": hd.ltc_losers,
    "quick_halves": hd.quick_tricks_halves, "top_honours": hd.top_honours,
    "solid": hd.is_solid, "semi_solid": hd.is_semi_solid, "stopper": hd.has_stopper,
    "playing_tricks": hd.playing_tricks,
}


@pytest.mark.parametrize("name", sorted(SCALAR))
def test_tables_agree_with_scalar_forms_on_every_holding(name: str) -> None:
    table = hd.tables()[name]
    scalar = SCALAR[name]
    wrong = [m for m in range(8192) if int(table[m]) != int(scalar(m))]
    assert not wrong, f"{name} differs on {len(wrong)} holdings, e.g. mask {wrong[0]}"
