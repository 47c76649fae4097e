"""Hand features for predicates: measures of many hands, computed once, sliced cheaply.

A predicate never computes a measure itself; it asks a Features object, which
evaluates each registry measure once over all its hands (one table look-up per
suit) and hands out slices. Three kinds exist: real hands (HandFeatures), a subset
of them (a slice shares the parent's cache), and the exact profile space
(engine.profiles), which knows only what suit lengths, HCP and controls determine.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from bidbox.evaluate import get_measure

Array = npt.NDArray[Any]


class NeedsCards(Exception):
    """A measure that the exact profile space cannot answer (it depends on which cards)."""


class Features(Protocol):
    @property
    def n(self) -> int: ...

    def value(self, name: str) -> Array:
        """The measure in its own units: (n,) or (n, 4) for per-suit measures."""
        ...


class HandFeatures:
    """Features of real hands given as an ``(n, 4)`` array of suit masks."""

    def __init__(self, masks: Array) -> None:
        self.masks = masks
        self._cache: dict[str, Array] = {}
        self._columns: dict[str, list[tuple[Array, int]]] = {}
        self._distinct: dict[str, list[Array]] = {}
        self._stable: dict[str, list[Array]] = {}

    @property
    def n(self) -> int:
        return int(self.masks.shape[0])

    def value(self, name: str) -> Array:
        cached = self._cache.get(name)
        if cached is None:
            measure = get_measure(name)
            raw = measure.batch(self.masks)
            cached = raw * measure.unit if measure.unit != 1.0 else raw
            self._cache[name] = cached
        return cached

    def take(self, index: Array) -> SubFeatures:
        return SubFeatures(self, index)

    def codes(self, names: frozenset[str], index: Array) -> Array:
        """For the hands at ``index``, an int64 that is equal for two hands exactly when
        every measure in ``names`` has the same value for both: the key by which the batch
        bidder groups hands that no step reading only these measures can tell apart.
        Each measure's codes are worked out once for all the hands; a key costs only the
        rows asked for (a group is often a handful of the batch's deals)."""
        code = np.zeros(len(index), dtype=np.int64)
        radix = 1
        for name in sorted(names):
            for column, size in self._column_codes(name):
                if radix * size >= 1 << 62:  # keep the mixed radix inside int64
                    _, code = np.unique(code, return_inverse=True)
                    code = code.astype(np.int64).reshape(-1)
                    radix = int(code.max()) + 1 if code.size else 1
                code = code * size + column[index]
                radix *= size
        return code

    def _column_codes(self, name: str) -> list[tuple[Array, int]]:
        """Each column of a measure as small integer codes (0..size-1) and their count."""
        columns = self._columns.get(name)
        if columns is None:
            values = np.asarray(self.value(name)).reshape(self.n, -1)
            columns = []
            kept = []
            for k in range(values.shape[1]):
                distinct, inverse = np.unique(values[:, k], return_inverse=True)
                columns.append((inverse.astype(np.int64).reshape(-1), max(len(distinct), 1)))
                kept.append(distinct)
            self._columns[name] = columns
            self._distinct[name] = kept
        return columns

    def points(self, names: frozenset[str], index: Array) -> Array:
        """For the hands at ``index``, one int32 row per hand holding every measure in
        ``names`` (sorted by name, each column in order) as an id of its value that is the
        same in every batch of the process: equal rows, equal measures, whichever deals
        they come from. The batch bidder keeps its decisions by these rows."""
        columns = [column[index] for name in sorted(names)
                   for column in self._stable_columns(name)]
        if not columns:
            return np.zeros((len(index), 0), dtype=np.int32)
        return np.column_stack(columns)

    def _stable_columns(self, name: str) -> list[Array]:
        kept = self._stable.get(name)
        if kept is None:
            kept = []
            for k, (inverse, _) in enumerate(self._column_codes(name)):
                ids = _VALUE_IDS.setdefault((name, k), {})
                # A few dozen distinct values a column: the Python loop is over those.
                value_ids = np.array([ids.setdefault(v, len(ids))
                                      for v in self._distinct[name][k].tolist()],
                                     dtype=np.int32)
                kept.append(value_ids[inverse])
            self._stable[name] = kept
        return kept


_VALUE_IDS: dict[tuple[str, int], dict[object, int]] = {}
"""Per measure and column, each value ever seen and its id (:meth:`HandFeatures.points`):
a measure takes few values (HCP 0-37, lengths 0-13), so this stays small."""


class SubFeatures:
    """A subset of a HandFeatures: measures are computed on the parent once, then sliced."""

    def __init__(self, parent: HandFeatures, index: Array) -> None:
        self.parent = parent
        self.index = index
        self._cache: dict[str, Array] = {}

    @property
    def n(self) -> int:
        return int(self.index.shape[0])

    def value(self, name: str) -> Array:
        cached = self._cache.get(name)
        if cached is None:
            cached = self.parent.value(name)[self.index]
            self._cache[name] = cached
        return cached

    def take(self, index: Array) -> SubFeatures:
        return SubFeatures(self.parent, self.index[index])


class UnkeyedMeasure(Exception):
    """A step asked :class:`DistinctFeatures` for a measure its hands were not grouped by:
    hands with one representative may differ in it, so the step must run again with the
    measure in the key."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class DistinctFeatures(SubFeatures):
    """One representative hand per distinct value of the measures in ``keyed``.

    A step that reads only those measures (through :meth:`value`) treats every hand of a
    group as it treats its representative, so running it on the representatives and
    spreading the answers back is exact; reading any other measure raises
    :class:`UnkeyedMeasure` instead of answering for hands it does not describe. ``read``
    collects what the step did read (shared by every subset taken), which is the key to
    start from next time."""

    def __init__(self, parent: HandFeatures, index: Array, keyed: frozenset[str],
                 read: set[str] | None = None) -> None:
        super().__init__(parent, index)
        self.keyed = keyed
        self.read: set[str] = set() if read is None else read

    def value(self, name: str) -> Array:
        if name not in self.keyed:
            raise UnkeyedMeasure(name)
        self.read.add(name)
        return super().value(name)

    def take(self, index: Array) -> SubFeatures:
        return DistinctFeatures(self.parent, self.index[index], self.keyed, self.read)


SAMPLE_DEALS = 100_000


@cache
def sample_hands() -> HandFeatures:
    """A fixed pool of dealt hands (400,000) for measures the profile space cannot answer."""
    from bidbox.core.seats import Seat
    from bidbox.evaluate import deal_batch

    deals = deal_batch(SAMPLE_DEALS, seed=20261201)
    return HandFeatures(np.concatenate([deals.hands(s) for s in Seat]))


def shaped_hands(shapes: Array, weights: Array, count: int, seed: int = 20261202
                 ) -> HandFeatures:
    """``count`` random hands whose shapes (rows S-H-D-C of ``shapes``) are drawn in
    proportion to ``weights``, the cards of each suit uniform among its holdings of that
    length.

    A targeted sample: where a meaning is too rare for the fixed pool (a five-level
    opening), hands drawn from the shapes its exact part allows meet it far more often,
    and each is still a uniform hand of its shape.
    """
    rng = np.random.default_rng(seed)
    p = np.asarray(weights, dtype=np.float64)
    rows = rng.choice(shapes.shape[0], size=count, p=p / p.sum())
    lengths = np.asarray(shapes, dtype=np.int32)[rows]  # (count, 4)
    # The rank of each card among 13 random keys: the first L ranks form the holding.
    order = rng.random((count, 4, 13)).argsort(axis=2).argsort(axis=2)
    held = order < lengths[:, :, None]
    masks = (held.astype(np.int32) << np.arange(13, dtype=np.int32)).sum(axis=2)
    return HandFeatures(masks.astype(np.int16))
