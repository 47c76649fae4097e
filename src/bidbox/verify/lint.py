"""Lint a compiled system: calls no hand can reach, and hands with no call.

At every node the seat to call is known to hold what its earlier calls showed (with
negative inferences). Within that, a call is unreachable when no hand fits it after
the calls tried before it, and a hole is a hand that fits no call at all. Both are
decided exactly on the profile space when the meanings allow, else on a pool of
dealt hands; each finding carries a witness hand and the method used.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from bidbox.core.auction import Auction
from bidbox.core.calls import PASS
from bidbox.core.hand import Hand
from bidbox.core.seats import Seat, Side
from bidbox.engine.explain import Facts, seat_facts
from bidbox.engine.features import Array, Features, HandFeatures, sample_hands
from bidbox.engine.predicates import TableContext, compile_predicate
from bidbox.engine.profiles import EXACT_MEASURES, ProfileSpace, profile_space
from bidbox.engine.walk import guard_holds
from bidbox.evaluate.holdings import tables
from bidbox.lang.constraints import Constraint
from bidbox.lang.system import Node, System


@dataclass(frozen=True)
class Finding:
    severity: str  # "error", "warning", "info"
    code: str  # "unreachable", "hole", "compile"
    message: str
    auction: str
    call: str | None
    location: str | None
    witness: str | None  # a PBN hand
    method: str

    def to_json(self) -> dict[str, object]:
        return {"severity": self.severity, "code": self.code, "message": self.message,
                "auction": self.auction, "call": self.call, "location": self.location,
                "witness": self.witness, "method": self.method}


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
    """A concrete hand with these suit lengths, HCP and controls (search over holdings)."""
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


def _space_for(constraints: list[Constraint]) -> tuple[Features, str]:
    used: set[str] = set()
    for c in constraints:
        used |= c.measures()
    if used <= EXACT_MEASURES:
        return profile_space(), "exact"
    pool = sample_hands()
    return pool, f"sampled ({pool.n:,} hands)"


def _witness(space: Features, mask: Array) -> str | None:
    i = int(np.flatnonzero(mask)[0])
    if isinstance(space, ProfileSpace):
        i = int(np.argmax(np.where(mask, space.count, -1.0)))  # the likeliest such hand
        hand = witness_hand(space.lengths[i], int(space.hcp[i]), int(space.controls[i]))
        return None if hand is None else hand.pbn()
    assert isinstance(space, HandFeatures)
    row = space.masks[i]
    return Hand((int(row[0]), int(row[1]), int(row[2]), int(row[3]))).pbn()


def _context(node: Node, auction: Auction) -> TableContext:
    seat = auction.next_seat
    passed = any(c.kind.name == "PASS" for c in auction.calls_by(seat))
    return TableContext(seat=len(auction.calls) % 4 + 1, vul=False, they_vul=False,
                        passed=passed)


class _Masks:
    """Each (constraint, context) evaluated once per space: siblings share their history
    and modules repeat the same meanings at many nodes. Stored packed (one bit a hand)."""

    def __init__(self) -> None:
        self._memo: dict[tuple[int, Constraint, TableContext], tuple[Array, int]] = {}

    def get(self, space: Features, c: Constraint, ctx: TableContext) -> Array:
        key = (id(space), c, ctx)
        hit = self._memo.get(key)
        if hit is not None:
            packed, n = hit
            return np.unpackbits(packed, count=n).astype(bool)
        mask = compile_predicate(c)(space, ctx)
        if len(self._memo) < 20_000:
            self._memo[key] = (np.packbits(mask), space.n)
        return mask


def lint_system(system: System) -> list[Finding]:
    """Unreachable calls and holes at every node of ``system`` (both sides play it)."""
    systems = {Side.NS: system, Side.EW: system}
    findings: list[Finding] = []
    masks = _Masks()
    for node in system.nodes():
        if not node.calls:
            continue
        auction = Auction(Seat.N).extend(node.auction)
        if node.ours_last and not auction.is_ended:
            auction = auction.add(PASS)  # the opponents' implicit pass before our next call
        if auction.is_ended:
            continue
        ctx = _context(node, auction)
        facts: Facts = seat_facts(auction, systems)[auction.next_seat]
        entries = [e for e in node.ordered() if guard_holds(e, ctx) and auction.is_legal(e.call)]
        if not entries:
            continue
        constraints = [c for c, _ in facts] + [e.choose for e in entries]
        space, method = _space_for(constraints)
        reach = np.ones(space.n, dtype=bool)
        for c, fctx in facts:
            reach &= masks.get(space, c, fctx)
        if not reach.any():
            continue  # the auction itself cannot happen; explain reports that
        taken = np.zeros(space.n, dtype=bool)
        where = node.label or "the start"
        for entry in entries:
            fits = masks.get(space, entry.choose, ctx) & reach
            fresh = fits & ~taken
            if not fresh.any():
                some = "no hand" if method == "exact" else "no sampled hand"
                earlier = f"{some} fits it" if not fits.any() else \
                    f"every {'' if method == 'exact' else 'sampled '}hand that fits it takes " \
                    "an earlier call"
                findings.append(Finding("warning", "unreachable", f"{entry.call} after {where}: "
                                        f"{earlier}", where, str(entry.call),
                                        str(entry.location), None, method))
            taken |= fits
        hole = reach & ~taken
        if hole.any():
            share = _share(space, hole, reach)
            findings.append(Finding("warning", "hole", f"after {where}: {share} of the hands "
                                    "that reach this point fit no call (the fallback bids them)",
                                    where, None, str(node.calls[0].location),
                                    _witness(space, hole), method))
    from bidbox.verify.forcing import open_forcing_calls  # it builds on Finding, defined here

    return findings + open_forcing_calls(system)


def _share(space: Features, part: Array, whole: Array) -> str:
    if isinstance(space, ProfileSpace):
        p = space.probability
        ratio = float(p[part].sum() / p[whole].sum())
    else:
        ratio = float(part.sum() / whole.sum())
    return f"{ratio:.1%}"
