"""Measures of one suit holding, in two independent forms.

Scalar forms read a single 13-bit mask with plain Python, the way a player counts.
Table forms compute the same measure for all 8192 possible holdings at once with
numpy bit arithmetic; batch evaluation is then one table look-up per suit, which is
what makes a million hands per second cheap. The two forms are written separately
so that tests comparing them check something.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from bidbox.core.hand import ACE, JACK, KING, QUEEN, TEN

ALL_MASKS = np.arange(8192, dtype=np.int32)


def _has(mask: int, rank: int) -> bool:
    return bool(mask >> rank & 1)


def length(mask: int) -> int:
    return bin(mask).count("1")


def hcp(mask: int) -> int:
    """Milton Work points: A=4, K=3, Q=2, J=1."""
    return 4 * _has(mask, ACE) + 3 * _has(mask, KING) + 2 * _has(mask, QUEEN) + _has(mask, JACK)


def controls(mask: int) -> int:
    """Controls: A=2, K=1."""
    return 2 * _has(mask, ACE) + _has(mask, KING)


def aces(mask: int) -> int:
    return int(_has(mask, ACE))


def kings(mask: int) -> int:
    return int(_has(mask, KING))


def queens(mask: int) -> int:
    return int(_has(mask, QUEEN))


def stops_halves(mask: int) -> int:
    """How often the suit stops the opponents' run, in halves: each honour with enough
    guards (A, Kx, Qxx, Jxxx) stops it once, so AK or KQx is a double stopper; without
    one, Qx or Jxx is a half stopper (a stopper if partner holds a card to help)."""
    n = length(mask)
    full = sum(_has(mask, rank) and n >= guards
               for rank, guards in ((ACE, 1), (KING, 2), (QUEEN, 3), (JACK, 4)))
    if full:
        return 2 * full
    return int((_has(mask, QUEEN) and n == 2) or (_has(mask, JACK) and n == 3))


def roman_losers_quarters(mask: int) -> int:
    """Roman (Courtney, as modified by Belladonna and Avarelli) losers, in quarter losers.

    The Canary notes' four rules, read so that every holding in their table comes out:
    the top min(length, 3) of A, K, Q are looked at and each missing one is a loser;
    a king without another honour above the ten (A, Q or J) adds a quarter, a queen
    without one (A, K or J) adds a half; and a suit never has more losers than
    min(length, 3), which is why a singleton king is one loser, not 1¼.
    """
    n = length(mask)
    if n == 0:
        return 0
    top = (ACE, KING, QUEEN)[: min(n, 3)]
    quarters = 4 * sum(not _has(mask, r) for r in top)
    a, k, q, j = (_has(mask, r) for r in (ACE, KING, QUEEN, JACK))
    if k and not (a or q or j):
        quarters += 1
    if q and not (a or k or j):
        quarters += 2
    return min(quarters, 4 * min(n, 3))


def ltc_losers(mask: int) -> int:
    """Losing trick count: missing A, K, Q among the top min(length, 3) places.

    Singleton: A is 0 losers, anything else 1. Doubleton: AK 0, Ax/Kx/AQ/KQ 1, Qx/xx 2.
    Three or more cards: one loser for each of A, K, Q not held.
    """
    n = length(mask)
    top = (ACE, KING, QUEEN)[: min(n, 3)]
    return sum(not _has(mask, r) for r in top)


def quick_tricks_halves(mask: int) -> int:
    """Quick (defensive) tricks in half tricks: AK 2, AQ 1½, A 1, KQ 1, Kx ½."""
    a, k, q = (_has(mask, r) for r in (ACE, KING, QUEEN))
    if a and k:
        return 4
    if a and q:
        return 3
    if a:
        return 2
    if k and q:
        return 2
    if k and length(mask) >= 2:
        return 1
    return 0


def top_honours(mask: int) -> int:
    """How many of A, K, Q the suit holds."""
    return sum(_has(mask, r) for r in (ACE, KING, QUEEN))


def is_solid(mask: int) -> bool:
    """Runs without loss opposite a void on a normal break: AKQJ, or AKQ with 7+ cards."""
    return (_has(mask, ACE) and _has(mask, KING) and _has(mask, QUEEN)
            and (_has(mask, JACK) or length(mask) >= 7))


def is_semi_solid(mask: int) -> bool:
    """At most one loser opposite a singleton (the Canary notes' wording), read as:
    two of the top three honours and three of the top five (AKQJT).
    AKJxxx, AQJxxx, KQJxxx, KQTxxx qualify; AKxxxx does not. Solid suits qualify
    too (semi-solid means 'semi-solid or better'). Length is a separate constraint.
    """
    return top_honours(mask) >= 2 and sum(
        _has(mask, r) for r in (ACE, KING, QUEEN, JACK, TEN)) >= 3


def has_stopper(mask: int) -> bool:
    """A no-trump stopper: A, Kx, Qxx or Jxxx (the honour with enough guards)."""
    n = length(mask)
    return (_has(mask, ACE) or (_has(mask, KING) and n >= 2)
            or (_has(mask, QUEEN) and n >= 3) or (_has(mask, JACK) and n >= 4))


def playing_tricks(mask: int) -> int:
    """Playing tricks of a suit: its length less its losing-trick-count losers.

    AKQJxxx is 7, Axxxx 3, KQx 2, xx 0. The seeds use 'playing tricks' (the SBU
    strong-hand test of 8+) without defining it; this is the usual count.
    """
    return length(mask) - ltc_losers(mask)


# --- the same measures for all 8192 holdings, with numpy ------------------------
def _bit(rank: int) -> npt.NDArray[np.int32]:
    return (ALL_MASKS >> rank) & 1


@cache
def tables() -> dict[str, npt.NDArray[np.int16]]:
    """Look-up tables indexed by suit mask; values in the units of the scalar forms."""
    a, k, q, j, t = (_bit(r) for r in (ACE, KING, QUEEN, JACK, TEN))
    n = np.zeros(8192, dtype=np.int32)
    for r in range(13):
        n += _bit(r)
    top3 = np.minimum(n, 3)
    # missing of A (if n>=1), K (if n>=2), Q (if n>=3)
    missing = ((n >= 1) & (a == 0)).astype(np.int32) + ((n >= 2) & (k == 0)) + (
        (n >= 3) & (q == 0))
    roman = 4 * missing + (k & (1 - (a | q | j))) + 2 * (q & (1 - (a | k | j)))
    roman = np.minimum(roman, 4 * top3)
    conds = [a & k, a & q, a, k & q, k & (n >= 2)]
    qt = np.select([c.astype(bool) for c in conds], [4, 3, 2, 2, 1], 0)
    full = a + (k & (n >= 2)) + (q & (n >= 3)) + (j & (n >= 4))
    half = (q & (n == 2)) | (j & (n == 3))
    out = {
        "length": n,
        "queens": q,
        "stops_halves": np.where(full > 0, 2 * full, half),
        "hcp": 4 * a + 3 * k + 2 * q + j,
        "controls": 2 * a + k,
        "aces": a,
        "kings": k,
        "roman_quarters": roman,
        "ltc": missing,
        "quick_halves": qt,
        "top_honours": a + k + q,
        "solid": a & k & q & (j | (n >= 7)),
        "semi_solid": ((a + k + q) >= 2) & ((a + k + q + j + t) >= 3),
        "stopper": a | (k & (n >= 2)) | (q & (n >= 3)) | (j & (n >= 4)),
        "playing_tricks": n - missing,
    }
    return {name: np.asarray(v, dtype=np.int16) for name, v in out.items()}
