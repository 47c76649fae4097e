"""Ranges no hand can meet are located errors; `none` is the word for a call nobody makes."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from bidbox.evaluate import get_measure
from bidbox.lang import parse_constraint
from bidbox.lang.compiler import compile_text
from bidbox.lang.constraint_parser import MEASURE_LIMITS
from bidbox.lang.constraints import NOTHING
from bidbox.lang.diagnostics import ConstraintSyntaxError, SystemFileError

_HOLDINGS = np.arange(8192, dtype=np.int16)
_LENGTH = np.array([bin(h).count("1") for h in range(8192)])
_SHAPES = [s for s in itertools.product(range(14), repeat=4) if sum(s) == 13]


def _per_suit(name: str) -> np.ndarray:
    """The measure's value of each holding on its own, in the user's units (one suit of
    a hand whose other suits are void, less what the voids contribute)."""
    measure = get_measure(name)
    masks = np.zeros((8192, 4), dtype=np.int16)
    masks[:, 0] = _HOLDINGS
    values = np.asarray(measure.batch(masks), dtype=float)
    if values.ndim == 2:
        return values[:, 0] * measure.unit
    void = float(np.asarray(measure.batch(np.zeros((1, 4), dtype=np.int16)))[0]) / 4
    return (values - 3 * void) * measure.unit


def _most(name: str) -> float:
    """The largest value over all thirteen-card hands of a measure summed over suits."""
    if name == "rule_points":  # hcp plus the two longest suits' lengths
        best = [_per_suit("hcp")[np.equal(_LENGTH, n)].max() for n in range(14)]
        return float(max(sum(best[n] for n in s) + sum(sorted(s)[-2:]) for s in _SHAPES))
    values = _per_suit(name)
    if get_measure(name).per_suit:
        return float(values.max())
    best = [values[np.equal(_LENGTH, n)].max() for n in range(14)]
    return float(max(sum(best[n] for n in s) for s in _SHAPES))


@pytest.mark.parametrize("name", sorted(MEASURE_LIMITS))
def test_each_limit_is_the_most_a_hand_can_hold(name: str) -> None:
    assert MEASURE_LIMITS[name][0] == _most(name)


@pytest.mark.parametrize(("text", "quoted"), [
    ("hcp 99999999999999+", "hcp 99999999999999+"),
    ("hcp 38+", "hcp 38+"),
    ("hcp 10-40", "hcp 10-40"),
    ("12-40 hcp", "12-40 hcp"),
    ("hcp <= 40", "hcp <= 40"),
    ("hcp > 37", "hcp > 37"),
    ("hcp < 0", "hcp < 0"),
    ("aces 5+", "aces 5+"),
    ("suit_hcp(S) 11+", "suit_hcp(S) 11+"),
    ("balanced, controls =13", "controls = 13"),
])
def test_an_impossible_range_is_an_error_quoting_it(text: str, quoted: str) -> None:
    with pytest.raises(ConstraintSyntaxError) as info:
        parse_constraint(text)
    assert f"impossible range '{quoted}'" in str(info.value)
    assert info.value.col == text.index(quoted.split()[0]) + 1


@pytest.mark.parametrize("text", ["14+S", "=14H", "0-14C", "9999999999+S"])
def test_an_impossible_length_is_an_error(text: str) -> None:
    with pytest.raises(ConstraintSyntaxError, match="impossible length"):
        parse_constraint(text)


@pytest.mark.parametrize("text", ["hcp 37", "hcp 0-37", "controls 12", "aces =4",
                                  "suit_hcp(H) 10", "roman_losers 0-12", "quick_tricks 8"])
def test_the_edges_are_possible(text: str) -> None:
    parse_constraint(text)


def test_the_error_names_the_file_line_and_column() -> None:
    with pytest.raises(SystemFileError) as info:
        compile_text('system x\n1C  hcp 12+\n1D  hcp 11-15, 4+D | hcp 40+ "x"\n', "x.bbx")
    assert "x.bbx:3:22: error: impossible range 'hcp 40+'" in str(info.value)
    assert "write none" in str(info.value)


def test_none_turns_a_call_of_a_module_off() -> None:
    system = compile_text("""system x
module raises(slam: constraint)
  2H  hcp 6-9, 3+H
  4NT {slam}, 4+H    [ask]
1H  hcp 12+, 5+H
  use raises(hcp 16+)
1S  hcp 12+, 5+S
  use raises(none)
""", "x.bbx")
    by_call = {str(e.call): e for e in system.root.calls}
    on = {str(e.call): e.shows for e in by_call["1H"].node.calls}
    off = {str(e.call): e.shows for e in by_call["1S"].node.calls}
    assert on["4NT"] != NOTHING and off["4NT"] == NOTHING
    assert parse_constraint("none") == NOTHING
