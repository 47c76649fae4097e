"""The registry of hand measures: one name, a scalar form and a batch form.

A batch is an ``(N, 4)`` integer array of suit masks in PBN order (S, H, D, C).
``Measure.batch`` returns an ``(N,)`` array, or ``(N, 4)`` for per-suit measures;
``Measure.decode`` turns one row of it into the value the scalar form returns, so
``m.decode(m.batch(masks)[i]) == m.scalar(hand_i)`` for every measure (tested).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from bidbox.core.hand import Hand
from bidbox.errors import NotationError, did_you_mean, shown
from bidbox.evaluate import holdings as hd

Value = int | float | bool | str | list[int] | list[bool] | list[float]
Masks = npt.NDArray[np.integer[Any]]
Array = npt.NDArray[Any]


@dataclass(frozen=True)
class Measure:
    """A named hand measure with a per-hand and a vectorised form that agree."""

    name: str
    description: str
    scalar: Callable[[Hand], Value]
    batch: Callable[[Masks], Array]
    decode: Callable[[Any], Value]
    per_suit: bool = False
    numeric: bool = True
    """Whether constraints may compare it with numbers (hcp 12-14) rather than name it."""
    unit: float = 1.0
    """What one step of the batch form is worth: Roman losers are counted in quarters."""


_REGISTRY: dict[str, Measure] = {}


def register(measure: Measure) -> Measure:
    if measure.name in _REGISTRY:
        raise ValueError(f"measure {measure.name} registered twice")
    _REGISTRY[measure.name] = measure
    return measure


def get_measure(name: str) -> Measure:
    """The measure called ``name``; a misspelt name gets a suggestion."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise NotationError(f"unknown measure '{shown(name)}'{did_you_mean(name, _REGISTRY)}; "
                            f"known: {', '.join(sorted(_REGISTRY))}") from None


def all_measures() -> Iterator[Measure]:
    return iter(_REGISTRY.values())


def evaluate_hand(hand: Hand) -> dict[str, Value]:
    """Every registered measure of one hand, by name."""
    return {m.name: m.scalar(hand) for m in _REGISTRY.values()}


# --- helpers -----------------------------------------------------------------
def _table(name: str) -> npt.NDArray[np.int16]:
    return hd.tables()[name]


def _per_suit_table(name: str, masks: Masks) -> Array:
    return _table(name)[masks]


def _sum_table(name: str, masks: Masks) -> Array:
    return np.asarray(_table(name)[masks].sum(axis=1, dtype=np.int32))


def lengths_batch(masks: Masks) -> Array:
    return _per_suit_table("length", masks)


def _sorted_lengths(masks: Masks) -> Array:
    return -np.sort(-lengths_batch(masks), axis=1)


def _code(lengths: Array) -> Array:
    """Four lengths (0-13) packed base 14 into one int, first length most significant."""
    lengths = lengths.astype(np.int32)
    return ((lengths[:, 0] * 14 + lengths[:, 1]) * 14 + lengths[:, 2]) * 14 + lengths[:, 3]


def _uncode(code: int) -> list[int]:
    code = int(code)
    digits = []
    for _ in range(4):
        digits.append(code % 14)
        code //= 14
    return digits[::-1]


def pattern_name(lengths: list[int] | tuple[int, ...]) -> str:
    """'4432' for a hand pattern (longest first); '10-2-1-0' when a suit has 10+ cards."""
    ordered = sorted(lengths, reverse=True)
    if ordered[0] >= 10:
        return "-".join(str(x) for x in ordered)
    return "".join(str(x) for x in ordered)


def shape_name(lengths: list[int] | tuple[int, ...]) -> str:
    """Exact shape 'S-H-D-C', e.g. '3-1-4-5'."""
    return "-".join(str(x) for x in lengths)


BALANCED = ((4, 3, 3, 3), (4, 4, 3, 2), (5, 3, 3, 2))
SEMI_BALANCED = (*BALANCED, (5, 4, 2, 2), (6, 3, 2, 2))


def _pattern_in(masks: Masks, patterns: tuple[tuple[int, ...], ...]) -> Array:
    codes = _code(_sorted_lengths(masks))
    return np.asarray(np.isin(codes, _code(np.array(patterns))))


def _count_long(masks: Masks, at_least: int) -> Array:
    return np.asarray((lengths_batch(masks) >= at_least).sum(axis=1))


# --- scalar forms ------------------------------------------------------------------
def _suits(hand: Hand, f: Callable[[int], Any]) -> list[Any]:
    return [f(m) for m in hand.suits]


def _pattern_of(hand: Hand) -> tuple[int, ...]:
    return tuple(sorted(hand.lengths, reverse=True))


def _single_suited(hand: Hand) -> bool:
    lens = sorted(hand.lengths, reverse=True)
    return lens[0] >= 6 and lens[1] <= 3


def _two_suited(hand: Hand) -> bool:
    lens = sorted(hand.lengths, reverse=True)
    return lens[0] >= 5 and lens[1] >= 4 and lens[2] <= 3


def _three_suited(hand: Hand) -> bool:
    return sum(x >= 4 for x in hand.lengths) == 3


def _rule_points(hand: Hand) -> int:
    lens = sorted(hand.lengths, reverse=True)
    return sum(hd.hcp(m) for m in hand.suits) + lens[0] + lens[1]


def _rule_points_batch(masks: Masks) -> Array:
    top2 = _sorted_lengths(masks)[:, :2].sum(axis=1)
    return np.asarray(_sum_table("hcp", masks) + top2)


def _as_int(x: Any) -> int:
    return int(x)


def _as_bool(x: Any) -> bool:
    return bool(x)


def _as_quarters(x: Any) -> float:
    return int(x) / 4


def _as_halves(x: Any) -> float:
    return int(x) / 2


def _int_list(x: Any) -> list[int]:
    return [int(v) for v in x]


def _halves_list(x: Any) -> list[float]:
    return [int(v) / 2 for v in x]


def _bool_list(x: Any) -> list[bool]:
    return [bool(v) for v in x]


def _suit_measure(name: str, description: str, table: str, f: Callable[[int], Any],
                  decode: Callable[[Any], Value] = _int_list, numeric: bool = True) -> None:
    register(Measure(name, description, lambda h: _suits(h, f),
                     lambda m: _per_suit_table(table, m), decode, per_suit=True,
                     numeric=numeric))


register(Measure("hcp", "high-card points, A=4 K=3 Q=2 J=1",
                 lambda h: sum(_suits(h, hd.hcp)), lambda m: _sum_table("hcp", m), _as_int))
register(Measure("controls", "controls, A=2 K=1",
                 lambda h: sum(_suits(h, hd.controls)), lambda m: _sum_table("controls", m),
                 _as_int))
register(Measure("aces", "number of aces (for Blackwood and Gerber answers)",
                 lambda h: sum(_suits(h, hd.aces)), lambda m: _sum_table("aces", m), _as_int))
register(Measure("kings", "number of kings", lambda h: sum(_suits(h, hd.kings)),
                 lambda m: _sum_table("kings", m), _as_int))
register(Measure("queens", "number of queens (for queen asks)",
                 lambda h: sum(_suits(h, hd.queens)), lambda m: _sum_table("queens", m),
                 _as_int))
_suit_measure("lengths", "suit lengths [S, H, D, C]", "length", hd.length)
register(Measure("pattern", "hand pattern, longest suit first (e.g. 4432)",
                 lambda h: pattern_name(h.lengths), lambda m: _code(_sorted_lengths(m)),
                 lambda c: pattern_name(_uncode(c)), numeric=False))
register(Measure("shape", "exact shape S-H-D-C (e.g. 3-1-4-5)",
                 lambda h: shape_name(h.lengths), lambda m: _code(lengths_batch(m)),
                 lambda c: shape_name(_uncode(c)), numeric=False))
register(Measure("balanced", "4333, 4432 or 5332",
                 lambda h: _pattern_of(h) in BALANCED, lambda m: _pattern_in(m, BALANCED),
                 _as_bool, numeric=False))
register(Measure("semi_balanced", "balanced, 5422 or 6322",
                 lambda h: _pattern_of(h) in SEMI_BALANCED,
                 lambda m: _pattern_in(m, SEMI_BALANCED), _as_bool, numeric=False))
register(Measure("single_suited", "a 6+ card suit and no other suit of 4+ cards",
                 _single_suited,
                 lambda m: (_sorted_lengths(m)[:, 0] >= 6) & (_sorted_lengths(m)[:, 1] <= 3),
                 _as_bool, numeric=False))
register(Measure("two_suited", "exactly two suits of 4+ cards, the longer 5+ (5-4, 5-5, 6-4...)",
                 _two_suited,
                 lambda m: (_count_long(m, 4) == 2) & (_sorted_lengths(m)[:, 0] >= 5),
                 _as_bool, numeric=False))
register(Measure("three_suited", "three suits of 4+ cards (4441, 5440)", _three_suited,
                 lambda m: _count_long(m, 4) == 3, _as_bool, numeric=False))
register(Measure("rule_points", "hcp plus the lengths of the two longest suits",
                 _rule_points, _rule_points_batch, _as_int))
register(Measure("rule_of_18", "meets the Rule of 18 (rule_points >= 18)",
                 lambda h: _rule_points(h) >= 18, lambda m: _rule_points_batch(m) >= 18,
                 _as_bool, numeric=False))
register(Measure("rule_of_20", "meets the Rule of 20 (rule_points >= 20)",
                 lambda h: _rule_points(h) >= 20, lambda m: _rule_points_batch(m) >= 20,
                 _as_bool, numeric=False))
register(Measure("roman_losers", "Roman (Courtney) losers as the Canary notes count them",
                 lambda h: sum(_suits(h, hd.roman_losers_quarters)) / 4,
                 lambda m: _sum_table("roman_quarters", m), _as_quarters, unit=0.25))
register(Measure("ltc", "losing trick count", lambda h: sum(_suits(h, hd.ltc_losers)),
                 lambda m: _sum_table("ltc", m), _as_int))
register(Measure("quick_tricks", "quick tricks: AK 2, AQ 1.5, A 1, KQ 1, Kx 0.5",
                 lambda h: sum(_suits(h, hd.quick_tricks_halves)) / 2,
                 lambda m: _sum_table("quick_halves", m), _as_halves, unit=0.5))
register(Measure("playing_tricks", "sum over suits of length less LTC losers",
                 lambda h: sum(_suits(h, hd.playing_tricks)),
                 lambda m: _sum_table("playing_tricks", m), _as_int))
_suit_measure("suit_hcp", "high-card points per suit [S, H, D, C]", "hcp", hd.hcp)
_suit_measure("suit_controls", "controls per suit [S, H, D, C]: A=2, K=1", "controls",
              hd.controls)
_suit_measure("top_honours", "how many of A, K, Q per suit [S, H, D, C]", "top_honours",
              hd.top_honours)
_suit_measure("solid", "solid suits [S, H, D, C]: AKQJ, or AKQ with 7+", "solid",
              hd.is_solid, _bool_list, numeric=False)
_suit_measure("semi_solid", "semi-solid or better [S, H, D, C]", "semi_solid",
              hd.is_semi_solid, _bool_list, numeric=False)
_suit_measure("stoppers", "no-trump stoppers [S, H, D, C]: A, Kx, Qxx, Jxxx", "stopper",
              hd.has_stopper, _bool_list, numeric=False)
register(Measure("stops", "how often each suit stops a run [S, H, D, C]: 1 a stopper (A, Kx, "
                 "Qxx, Jxxx), 2 a double stopper (AK, KQx), 0.5 a half stopper (Qx, Jxx)",
                 lambda h: [v / 2 for v in _suits(h, hd.stops_halves)],
                 lambda m: _per_suit_table("stops_halves", m), _halves_list, per_suit=True,
                 unit=0.5))
