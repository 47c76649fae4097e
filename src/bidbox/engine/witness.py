"""Concrete hands for points of the exact profile space.

A point of the profile space (engine/profiles.py) is a shape with an HCP and a control
count; it stands for many real hands. Lint, the regulation checks and the system diff all
show one of them as the witness of what they found, so the search lives here, below all
three (verify and rules both import engine, never each other).
"""

from __future__ import annotations

from functools import cache

from bidbox.core.hand import Hand
from bidbox.engine.features import Array
from bidbox.evaluate.holdings import tables


@cache
def _holdings_by_profile() -> dict[tuple[int, int, int], int]:
    """One holding (mask) for each (length, hcp, controls) that exists."""
    t = tables()
    out: dict[tuple[int, int, int], int] = {}
    for mask in range(8192):
        key = (int(t["length"][mask]), int(t["hcp"][mask]), int(t["controls"][mask]))
        out.setdefault(key, mask)
    return out


def witness_hand(lengths: Array, hcp: int, controls: int) -> Hand | None:
    """A concrete hand with these suit lengths (S, H, D, C), HCP and controls, or None
    when no hand has them (a depth-first search over one holding per suit profile)."""
    options = _holdings_by_profile()

    def search(i: int, hcp_left: int, ctrl_left: int) -> list[int] | None:
        if i == 4:
            return [] if hcp_left == 0 and ctrl_left == 0 else None
        n = int(lengths[i])
        for (length, h, c), mask in options.items():
            if length == n and h <= hcp_left and c <= ctrl_left:
                rest = search(i + 1, hcp_left - h, ctrl_left - c)
                if rest is not None:
                    return [mask, *rest]
        return None

    masks = search(0, hcp, controls)
    return None if masks is None else Hand((masks[0], masks[1], masks[2], masks[3]))
