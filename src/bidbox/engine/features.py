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
