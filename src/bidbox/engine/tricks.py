"""Expected double-dummy tricks of a partnership from its combined HCP and suit lengths.

The captain's placement needs a number of tricks per strain from what a bidder knows or
estimates about the partnership: combined high-card points and combined length in each
suit. Rules of thumb ("25 for game", "a trick per trump") are coarse, so the estimate
comes from data: ``tools/build_trick_model.py`` deals random boards, solves them double
dummy and fits small smoothed tables (mean tricks per feature cell, monotone in HCP and
in fit length), shipped as ``data/trick_model.json``. The tables are read once; an
estimate interpolates linearly between their cells, so it takes fractional inputs
(own HCP plus partner's expected HCP) and works on whole batches without Python loops.
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bidbox.errors import TrickModelError as TrickModelError

SCHEMA = "bidbox-trick-model/1"
DATA_FILE = "trick_model.json"
STRAINS = ("S", "H", "D", "C", "NT")
"""Column order of :func:`estimate_tricks`'s result: the suits in PBN order, then NT."""

FloatArray = npt.NDArray[np.float64]

# Index of the three other suits of each suit, to compute per-suit features at once.
_OTHERS = np.array([[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]])


@dataclass(frozen=True)
class _Table:
    features: tuple[str, ...]
    low: tuple[int, ...]
    table: FloatArray

    def __call__(self, coords: list[FloatArray]) -> FloatArray:
        """Multilinear interpolation at ``coords`` (one array per feature), clipped to range.

        The cells are read from the flattened table by one offset per corner (the same
        sums and products, in the same order, as indexing each corner's cell by its
        coordinates, so the values are bit for bit those of that form, only cheaper on
        the small batches the bidder sends at each node)."""
        shape = self.table.shape
        if coords[0].size <= _FEW_POINTS:
            return self._few(coords)
        flat = self.table.reshape(-1)
        strides, corners = _corners(shape)
        start: npt.NDArray[np.intp] | None = None
        frac: list[FloatArray] = []
        for k, c in enumerate(coords):
            n = shape[k]
            # np.clip's own value, without its wrapper's cost on small arrays
            x = np.minimum(np.maximum(c - self.low[k], 0.0), n - 1.0)
            i = np.minimum(np.floor(x).astype(np.intp), max(n - 2, 0))
            start = i * strides[k] if start is None else start + i * strides[k]
            frac.append(x - i if n > 1 else np.zeros_like(x))
        assert start is not None
        rest = [1.0 - f for f in frac]
        out = np.zeros(np.shape(coords[0]), dtype=np.float64)
        for corner, offset in corners:
            weight = frac[0] if corner[0] else rest[0]
            for k in range(1, len(corner)):
                weight = weight * (frac[k] if corner[k] else rest[k])
            out += weight * flat[start + offset]
        return out


    def _few(self, coords: list[FloatArray]) -> FloatArray:
        """:meth:`__call__` point by point in Python floats, for the one or two hands a
        contested auction's step weighs: the same IEEE operations in the same order (a
        float64 sum, product or floor is the same in numpy and in Python), so the same
        values, without the dozens of numpy calls whose fixed cost is most of the time."""
        shape = self.table.shape
        flat = _flat_list(self.table)
        strides, corners = _corners(shape)
        columns = [c.reshape(-1).tolist() for c in coords]
        out = []
        for point in zip(*columns, strict=True):
            start = 0
            frac = []
            for k, c in enumerate(point):
                n = shape[k]
                x = min(max(c - self.low[k], 0.0), n - 1.0)
                i = min(math.floor(x), max(n - 2, 0))
                start += i * strides[k]
                frac.append(x - i if n > 1 else 0.0)
            rest = [1.0 - f for f in frac]
            total = 0.0
            for corner, offset in corners:
                weight = frac[0] if corner[0] else rest[0]
                for k in range(1, len(corner)):
                    weight = weight * (frac[k] if corner[k] else rest[k])
                total += weight * flat[start + offset]
            out.append(total)
        return np.array(out, dtype=np.float64).reshape(np.shape(coords[0]))


_FEW_POINTS = 8
"""Points (hands times suits) up to which a table is read in Python floats: one or two
hands; above it numpy's per-call cost is paid back."""


_FLAT: dict[int, tuple[FloatArray, list[float]]] = {}


def _flat_list(table: FloatArray) -> list[float]:
    """The table's cells as Python floats, once per table (held with it: its id stays its
    own)."""
    kept = _FLAT.get(id(table))
    if kept is None or kept[0] is not table:
        kept = _FLAT[id(table)] = (table, table.reshape(-1).tolist())
    return kept[1]


@cache
def _corners(shape: tuple[int, ...]) -> tuple[list[int],
                                              list[tuple[tuple[int, ...], int]]]:
    """A table's strides, and the corners of its cells in ``itertools.product`` order
    (without those stepping along a feature of one value), each with its flat offset."""
    strides = [int(np.prod(shape[k + 1:])) for k in range(len(shape))]
    corners = [(c, sum(strides[k] for k, bit in enumerate(c) if bit))
               for c in itertools.product((0, 1), repeat=len(shape))
               if not any(bit and shape[k] == 1 for k, bit in enumerate(c))]
    return strides, corners


@dataclass(frozen=True)
class _Model:
    suit: _Table
    nt: _Table
    info: dict[str, Any]

    def estimate(self, combined_hcp: npt.ArrayLike, combined_lengths: npt.ArrayLike
                 ) -> FloatArray:
        """:func:`estimate_tricks` with this model's tables."""
        hcp = np.asarray(combined_hcp, dtype=np.float64)
        lengths = np.asarray(combined_lengths, dtype=np.float64)
        if hcp.ndim != 1 or lengths.shape != (hcp.shape[0], 4):
            raise ValueError(f"estimate_tricks: combined_hcp must be (N,) and "
                             f"combined_lengths (N, 4); got {hcp.shape} and {lengths.shape}")
        hcp = np.clip(hcp, 0.0, 40.0)
        lengths = np.clip(lengths, 0.0, 13.0)
        out = np.empty((hcp.shape[0], 5), dtype=np.float64)
        suit_coords = [np.repeat(hcp[:, None], 4, axis=1), lengths]
        suit_coords += [_FEATURES[name](lengths) for name in self.suit.features[2:]]
        out[:, :4] = self.suit(suit_coords)
        nt_coords = [hcp] + [_FEATURES[name](lengths) for name in self.nt.features[1:]]
        out[:, 4] = self.nt(nt_coords)
        return out


def _table(data: Any, where: str) -> _Table:
    try:
        features = tuple(str(f) for f in data["features"])
        low = tuple(int(v) for v in data["low"])
        table = np.asarray(data["table"], dtype=np.float64)
    except (KeyError, TypeError, ValueError) as err:
        raise TrickModelError(f"{where}: not a trick table ({err})") from None
    if table.ndim != len(features) or len(low) != len(features):
        raise TrickModelError(f"{where}: table of {table.ndim} dimensions for features "
                              f"{', '.join(features)}")
    if not np.all(np.isfinite(table)) or table.min() < 0 or table.max() > 13:
        raise TrickModelError(f"{where}: tricks outside 0-13")
    return _Table(features, low, table)


def load_model(path: Path) -> _Model:
    """Read and check a trick-model file (the shipped one, or a fresh build's)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise TrickModelError(f"{path}: cannot read the trick model: {err}") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise TrickModelError(f"{path}: not a {SCHEMA} file")
    models = data.get("models", {})
    suit = _table(models.get("suit"), f"{path}: models.suit")
    nt = _table(models.get("nt"), f"{path}: models.nt")
    if suit.features[:2] != ("hcp", "fit") or nt.features[0] != "hcp":
        raise TrickModelError(f"{path}: tables must start with hcp (and fit for suits)")
    for name in suit.features[2:] + nt.features[1:]:
        if name not in _FEATURES:
            raise TrickModelError(f"{path}: unknown feature '{name}'; known: "
                                  f"{', '.join(sorted(_FEATURES))}")
    info = {k: v for k, v in data.items() if k not in ("models", "holdout_boards")}
    info["table_cells"] = {"suit": int(suit.table.size), "nt": int(nt.table.size)}
    info["features"] = {"suit": list(suit.features), "nt": list(nt.features)}
    return _Model(suit, nt, info)


@cache
def _shipped() -> _Model:
    ref = resources.files("bidbox.engine") / "data" / DATA_FILE
    with resources.as_file(ref) as path:
        return load_model(Path(path))


def _longest(lengths: FloatArray) -> FloatArray:
    return np.asarray(lengths.max(axis=-1), dtype=np.float64)


def _shortest(lengths: FloatArray) -> FloatArray:
    return np.asarray(lengths.min(axis=-1), dtype=np.float64)


def _second_fit(lengths: FloatArray) -> FloatArray:
    """Per suit, the longest combined length among the other three suits: ``(N, 4)``."""
    return np.asarray(lengths[:, _OTHERS].max(axis=2), dtype=np.float64)


def _short(lengths: FloatArray) -> FloatArray:
    """Per suit, the shortest combined length among the other three suits: ``(N, 4)``."""
    return np.asarray(lengths[:, _OTHERS].min(axis=2), dtype=np.float64)


_FEATURES = {"longest": _longest, "shortest": _shortest, "second_fit": _second_fit,
             "short": _short}
"""Extra features, each computed from the ``(N, 4)`` combined lengths."""


def estimate_tricks(combined_hcp: npt.ArrayLike, combined_lengths: npt.ArrayLike
                    ) -> FloatArray:
    """Expected double-dummy tricks of a partnership in S, H, D, C and NT.

    ``combined_hcp`` is ``(N,)`` (fractional values welcome), ``combined_lengths`` is
    ``(N, 4)`` in PBN suit order; the result is ``(N, 5)``, columns in :data:`STRAINS`.
    The tricks are those of the better-placed of the two partners as declarer. Inputs
    beyond the tables (HCP 0-40, lengths 0-13) are clipped to them.
    """
    return _shipped().estimate(combined_hcp, combined_lengths)


def trick_model_info() -> dict[str, Any]:
    """What the shipped model is: features, table sizes, how it was built, held-out errors."""
    info: dict[str, Any] = json.loads(json.dumps(_shipped().info))  # a copy to change
    return info


def holdout_boards() -> tuple[FloatArray, FloatArray, npt.NDArray[np.int64]]:
    """The held-out partnerships the shipped model was scored on (not fitted on).

    ``(hcp (M,), lengths (M, 4), tricks (M, 5))``, for checks of calibration.
    """
    ref = resources.files("bidbox.engine") / "data" / DATA_FILE
    data = json.loads(ref.read_text(encoding="utf-8"))
    return decode_boards(data["holdout_boards"]["rows"])


def decode_boards(rows: list[str]) -> tuple[FloatArray, FloatArray, npt.NDArray[np.int64]]:
    """Rows of 11 hex digits: HCP (2), the four combined lengths, tricks in S H D C NT."""
    raw = np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8).astype(np.int64)
    digits = np.where(raw >= ord("a"), raw - ord("a") + 10, raw - ord("0")).reshape(-1, 11)
    hcp = (digits[:, 0] * 16 + digits[:, 1]).astype(np.float64)
    return hcp, digits[:, 2:6].astype(np.float64), digits[:, 6:11]


def interpolate(table: FloatArray, low: tuple[int, ...], coords: list[FloatArray]
                ) -> FloatArray:
    """Multilinear interpolation of ``table`` (its cells at integer steps from ``low`` per
    axis) at ``coords``, one array per axis, clipped to its range: the trick model's own
    reading of its tables, for the corrections other modules keep beside it."""
    return _Table(tuple(str(k) for k in range(table.ndim)), low, table)(coords)


__all__ = ["STRAINS", "TrickModelError", "decode_boards", "estimate_tricks",
           "holdout_boards", "interpolate", "load_model", "trick_model_info"]
