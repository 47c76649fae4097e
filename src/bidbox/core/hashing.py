"""A frozen dataclass that works its hash out once.

A frozen dataclass hashes all its fields again at every look-up, recursively: an auction
hashes each call, each call its kind's name, a constraint its whole tree. The bidder's
caches look the same calls, auctions and meanings up thousands of times per auction node,
so that work was a few per cent of the bidding time. Equality and the hash value itself
are unchanged (it is the generated hash, kept); only its recomputation goes.

The kept value is left out of pickles: a string's hash differs between processes, and a
system compiled to the disk cache or a result sent from a worker must not carry a hash
of another process.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
_KEY = "_kept_hash"


def keep_hash(cls: type[T]) -> type[T]:
    """Class decorator, above ``@dataclass(frozen=True)``: the generated ``__hash__``
    runs once per object, and pickles carry no hash."""
    generated: Callable[[Any], int] = cls.__hash__

    def __hash__(self: Any) -> int:
        kept: int | None = self.__dict__.get(_KEY)
        if kept is None:
            kept = generated(self)
            self.__dict__[_KEY] = kept  # outside the fields: equality and repr untouched
        return kept

    def __getstate__(self: Any) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop(_KEY, None)
        return state

    cls.__hash__ = __hash__  # type: ignore[method-assign]
    cls.__getstate__ = __getstate__  # type: ignore[method-assign]
    return cls


__all__ = ["keep_hash"]
