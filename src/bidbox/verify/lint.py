"""Lint a compiled system: calls no hand can reach, and hands with no call.

At every node the seat to call is known to hold what its earlier calls showed (with
negative inferences). Within that, a call is unreachable when no hand fits it after
the calls tried before it, and a hole is a hand that fits no call at all.

Every node is checked in each table situation it is reached in: the auction opened in
each of the four seats (so the passes before it, and what they deny, are in the facts)
and, when the system's guards or meanings speak of vulnerability, under each
vulnerability. A node that one seat variant's call leads to (1NT [seat 3-4]) is checked
only with the hands of that variant; a finding says in which situations it holds when
that is not all the situations the node is reached in.

Both kinds of finding are decided exactly on the profile space when the meanings speak
only of lengths, HCP and controls. Otherwise they come from dealt hands, and say so
(``sampled`` in the JSON): the common pool while enough of its hands reach the point,
else hands dealt to fit the auction so far (shapes drawn from the exact space by the
facts it can answer, then kept only when they fit every fact), so a finding on a rare
auction never rests on a handful of hands.

Lint also compiles the system under every value of every option (``compile`` findings),
so a variant that does not compile is found without switching the option on; the
compiler itself checks every module, used or not.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np

from bidbox.core.auction import Auction
from bidbox.core.calls import PASS, Call
from bidbox.core.findings import Finding
from bidbox.core.hand import Hand
from bidbox.core.seats import Seat, Side, Vulnerability
from bidbox.engine.features import Array, Features, HandFeatures, SubFeatures, sample_hands
from bidbox.engine.inference import denied_calls
from bidbox.engine.predicates import Predicate, TableContext, compile_predicate, compose
from bidbox.engine.profiles import EXACT_MEASURES, ProfileSpace, profile_space
from bidbox.engine.walk import (
    SYSTEM,
    TableState,
    WalkStep,
    advance,
    guard_holds,
    read_call,
    start,
    table_context,
)
from bidbox.engine.witness import witness_hand
from bidbox.evaluate.holdings import tables
from bidbox.lang.constraints import (
    ANY,
    NOTHING,
    Always,
    And,
    Constraint,
    Context,
    Not,
    Or,
    conjoin,
    disjoin,
)
from bidbox.lang.system import CallEntry, Node, System

POOL_HANDS = 100_000
"""Dealt hands (of the shared pool) a sampled verdict starts from; rare auctions get more."""
SAMPLE_MIN = 200
SUBSET_RATIO = 4
"""A sample that this many times fewer hands reach is cut to those hands (smaller masks)."""
"""Fewer hands than this reaching a point in the current sample: deal a targeted one."""
SAMPLE_TARGET = 1_000
"""Hands a targeted sample aims for (all fitting the auction so far)."""
SAMPLE_MAX_DRAWS = 100_000
"""Hands dealt at most for one targeted sample (then it keeps what it found)."""


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
    if isinstance(space, SubFeatures):
        row = space.parent.masks[int(space.index[i])]
    else:
        assert isinstance(space, HandFeatures)
        row = space.masks[i]
    return Hand((int(row[0]), int(row[1]), int(row[2]), int(row[3]))).pbn()


def _context(node: Node, auction: Auction) -> TableContext:
    """The context of the next call of ``auction`` (dealt by North, nobody vulnerable):
    what a call's own meaning is read in where no table situation is given."""
    return table_context(auction, len(auction.calls))


def auction_text(calls: Sequence[Call]) -> str:
    """Calls as the CLI reads them, passes written ("1H P 1S")."""
    return " ".join(map(str, calls))


# --- table situations ---------------------------------------------------------------
_DIMENSIONS = {"seat": ("seat",), "passed": ("passed",), "unpassed": ("passed",),
               "passed_before_opening": ("passed_before_opening",),
               "partner_passed": ("partner_passed",),
               "vul": ("vul",), "nonvul": ("vul",), "they_vul": ("they_vul",),
               "they_nonvul": ("they_vul",), "fav": ("vul", "they_vul"),
               "unfav": ("vul", "they_vul")}


def _dimensions(system: System, dims_of: Callable[[Constraint | None], frozenset[str]]
                ) -> frozenset[str]:
    """The parts of the table context any guard or meaning of the system reads
    (``dims_of``: those one constraint reads, ``_Masks.dims_of``)."""
    out: set[str] = set()
    for node in system.nodes():
        for e in node.calls:
            for c in (e.guard, e.shows, e.requires):
                if c is not None and not isinstance(c, Always):
                    out |= dims_of(c)
    return frozenset(out)


class Situation(NamedTuple):
    """One table situation a node is checked in, from the caller's side (a named tuple:
    the findings hash and sort it tens of thousands of times)."""

    opened: int  # the seat of the auction's first call (1 = dealer)
    vul: bool  # the caller's side vulnerable
    they_vul: bool

    def label(self, first: str | None, with_vul: bool) -> str:
        where = f"{first} opened in seat {self.opened}" if first else f"in seat {self.opened}"
        if not with_vul:
            return where
        return f"{where}, {_VUL_WORDS[self.vul, self.they_vul]}"


_VUL_WORDS = {(False, False): "neither side vulnerable", (True, True): "both vulnerable",
              (True, False): "vulnerable against not", (False, True): "not vulnerable against"
              " vulnerable"}


def _describe(holds: set[Situation], reached: set[Situation], first: str | None,
              with_vul: bool) -> tuple[str, ...]:
    """The situations where a finding holds, named as briefly as they allow."""
    if holds == reached:
        return ()
    seats = sorted({s.opened for s in holds})
    if holds == {s for s in reached if s.opened in seats}:
        names = (f"{seats[0]}-{seats[-1]}" if len(seats) > 1 and seats == list(
            range(seats[0], seats[-1] + 1)) else " or ".join(map(str, seats)))
        return (f"{first} opened in seat {names}" if first else f"in seat {names}",)
    if with_vul:
        pairs = {(s.vul, s.they_vul) for s in holds}
        if holds == {s for s in reached if (s.vul, s.they_vul) in pairs}:
            return tuple(_VUL_WORDS[p] for p in sorted(pairs))
    return tuple(s.label(first, with_vul) for s in sorted(holds))


# --- masks ----------------------------------------------------------------------------
@dataclass
class _Space:
    """Hands (or profile points) a verdict is taken on, with a token for the memo."""

    features: Features
    token: int
    exact: bool
    targeted: bool = False
    drawn: int = 0  # hands dealt to make a targeted sample
    weights: Array | None = None  # how many real hands each stands for (None: equal)
    points: Array | None = None  # the exact point of each hand (None: the profile space)


class _Masks:
    """Each (constraint, context) evaluated once per space: siblings share their history
    and modules repeat the same meanings at many nodes. Kept within a byte budget; a
    targeted sample's masks go with it."""

    BUDGET = 192 * 2**20
    UNPACKED = 128 * 2**20
    """Masks are kept as booleans up to ``UNPACKED`` bytes (most are read again and again:
    unpacking a profile-space mask cost more than the look-up), packed past it."""

    def __init__(self, dims: frozenset[str]) -> None:
        self.dims = dims
        self.profile = _Space(profile_space(), 0, True)
        # Masks keyed by the id of a constraint's canonical copy: equal constraints built
        # apart (a module's meaning at many nodes) share one, and a key never hashes or
        # compares a constraint tree (a deep walk each time).
        self._memo: dict[tuple[int, int, tuple[object, ...]], Array] = {}
        self._canon: dict[int, tuple[Constraint, Constraint]] = {}
        self._interned: dict[Constraint, Constraint] = {}
        self._predicates: dict[int, Predicate] = {}
        self._bytes = 0
        self._measures: dict[int, tuple[Constraint, bool]] = {}
        self._parts: dict[int, tuple[Constraint, Constraint | None]] = {}
        self._names: dict[frozenset[str], tuple[str, ...]] = {}
        self._dims: dict[int, tuple[Constraint, frozenset[str]]] = {}

    def project(self, ctx: TableContext, dims: frozenset[str] | None = None
                ) -> tuple[object, ...]:
        """The part of ``ctx`` that ``dims`` (default: every part the system reads) can
        tell apart: the rest cannot change a mask. Callers pair it with what fixes the
        dims (a constraint, a node), so the values alone make a key."""
        dims = self.dims if dims is None else dims
        if not dims:
            return ()
        names = self._names.get(dims)
        if names is None:
            names = self._names[dims] = tuple(sorted(dims))
        return tuple(getattr(ctx, d) for d in names)

    def dims_of(self, c: Constraint | None) -> frozenset[str]:
        """The parts of the table context ``c`` reads (a meaning that does not read the
        vulnerability has one mask for all four)."""
        if c is None:
            return frozenset()
        hit = self._dims.get(id(c))
        if hit is None or hit[0] is not c:
            # An and/or/not reads what its parts read: each part's answer is kept, so the
            # conjunctions built per call (choose, shown) cost a union, not a walk.
            if isinstance(c, And | Or | Not):
                dims = frozenset().union(*map(self.dims_of, c.children()))
            elif isinstance(c, Context):
                dims = frozenset(_DIMENSIONS.get(c.kind, ()))
            else:
                dims = frozenset()
            hit = self._dims[id(c)] = (c, dims)
        return hit[1]

    def exact(self, c: Constraint) -> bool:
        hit = self._measures.get(id(c))
        if hit is None or hit[0] is not c:
            hit = (c, c.measures() <= EXACT_MEASURES)
            self._measures[id(c)] = hit
        return hit[1]

    def exact_part(self, c: Constraint) -> Constraint | None:
        """A constraint on the exact measures that every hand fitting ``c`` fits (None:
        nothing exact can be said): the exact conjuncts of an And, an Or of such parts."""
        hit = self._parts.get(id(c))
        if hit is None or hit[0] is not c:
            hit = (c, self._part(c))
            self._parts[id(c)] = hit
        return hit[1]

    def _part(self, c: Constraint) -> Constraint | None:
        if self.exact(c):
            return c
        if isinstance(c, And):
            parts = [p for p in map(self._part, c.items) if p is not None]
            return conjoin(parts) if parts else None
        if isinstance(c, Or):
            alts = [self._part(i) for i in c.items]
            return None if any(a is None for a in alts) else disjoin(
                [a for a in alts if a is not None])
        return None

    def _compose(self, c: And | Or | Not, ctx: TableContext) -> Array:
        """``c`` on the profile space from its parts' kept masks: tosr's meanings are a few
        hundred ranges (4+H, 11-15 HCP) combined thousands of ways, and a range over the
        59,388 points costs twenty times an and of two masks."""
        profile = self.profile
        return compose(c, lambda item: self.get(profile, item, ctx))

    def evaluate(self, features: Features, points: Array, c: Constraint, ctx: TableContext
                 ) -> Array:
        """``c`` on hands at the exact ``points`` whose masks are not kept (a sample being
        dealt): exact meanings read from the profile mask, the rest evaluated."""
        if self.exact(c):
            return self.get(self.profile, c, ctx)[points]
        return self.predicate(c)(features, ctx)

    def canon(self, c: Constraint) -> Constraint:
        """The one kept copy of the constraints equal to ``c`` (each object is looked up
        by value once, then by its id)."""
        hit = self._canon.get(id(c))
        if hit is None or hit[0] is not c:
            hit = self._canon[id(c)] = (c, self._interned.setdefault(c, c))
        return hit[1]

    def predicate(self, c: Constraint) -> Predicate:
        """``compile_predicate(c)``, found by id (its own cache hashes the whole tree)."""
        c = self.canon(c)
        hit = self._predicates.get(id(c))
        if hit is None:
            hit = self._predicates[id(c)] = compile_predicate(c)
        return hit

    def get(self, space: _Space, c: Constraint, ctx: TableContext) -> Array:
        c = self.canon(c)
        key = (space.token, id(c), self.project(ctx, self.dims_of(c)))
        kept = self._memo.get(key)
        if kept is None:
            mask: Array
            if space.points is not None and self.exact(c):
                # A meaning on lengths, HCP and controls holds for a hand exactly when it
                # holds at the hand's exact point: one look-up in the profile mask.
                mask = self.get(self.profile, c, ctx)[space.points]
            elif space is self.profile and isinstance(c, And | Or | Not):
                mask = self._compose(c, ctx)
            else:
                mask = self.predicate(c)(space.features, ctx)
            if self._bytes + mask.nbytes <= self.UNPACKED:
                mask.flags.writeable = False  # handed out as it is: no caller may write it
                kept = mask
            else:
                kept = np.packbits(mask)
                if self._bytes + kept.nbytes > self.BUDGET:
                    return mask
            self._memo[key] = kept
            self._bytes += kept.nbytes
            return mask
        if kept.dtype == np.bool_:
            return kept
        # unpackbits gives 0/1 bytes: read them as booleans without a copy
        return np.unpackbits(kept, count=space.features.n).view(bool)


@dataclass(frozen=True)
class _Fact:
    """What one call of a seat showed: its meaning and the calls it denies."""

    shown: Constraint | None
    denied: tuple[Constraint, ...]
    ctx: TableContext


class _Sampler:
    """Dealt hands for verdicts the exact space cannot give: the common pool, and
    samples dealt to fit an auction when too few of the pool's hands reach it."""

    def __init__(self, masks: _Masks) -> None:
        self.masks = masks
        self.profile = masks.profile
        pool = sample_hands()
        base = pool.take(np.arange(min(POOL_HANDS, pool.n)))
        self.pool = _Space(base, 1, False, drawn=base.n, points=_exact_points(base))
        self._tokens = 2
        self._rng = np.random.default_rng(20261201)
        t = tables()
        length = t["length"].astype(np.int64)
        hcp, ctrl = t["hcp"].astype(np.int64), t["controls"].astype(np.int64)
        # counts[length, hcp, controls] of one suit's holdings, and the holdings grouped by
        # that key: one of them is drawn uniformly as _flat[_start[key] + u * counts[key]].
        self._counts = np.zeros((14, 11, 4), dtype=np.float64)
        np.add.at(self._counts, (length, hcp, ctrl), 1)
        key = (length * 11 + hcp) * 4 + ctrl
        self._flat = np.argsort(key, kind="stable").astype(np.int16)
        sizes = np.bincount(key, minlength=14 * 11 * 4)
        self._start = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        self._tail_grids: list[Array] = []
        self._lcodes: list[Array] = []
        # Hands dealt at each exact point, kept: a targeted sample takes the first ones of
        # every point it needs and deals only what a point lacks. Relay answers narrow the
        # shape step by step, so a child's points are mostly its parent's, and dealing
        # (the costliest part of a sample) happens about once per point and count.
        self._bank = np.zeros((profile_space().n, _DENSE, 4), dtype=np.int16)
        self._filled = np.zeros(profile_space().n, dtype=np.int64)
        self._reservoir: dict[int, Array] = {}
        self._drawn: dict[tuple[object, ...], tuple[_Space, int | None]] = {}

    def subset(self, space: _Space, mask: Array) -> _Space:
        """The hands of ``space`` in ``mask`` as a space of their own (masks on it are
        computed on those hands only)."""
        features = space.features
        assert isinstance(features, (HandFeatures, SubFeatures))
        token, self._tokens = self._tokens, self._tokens + 1
        index = np.flatnonzero(mask)
        return _Space(features.take(index), token, False, space.targeted, space.drawn,
                      None if space.weights is None else space.weights[mask],
                      None if space.points is None else space.points[index])

    def narrow(self, guide: Array, fact: _Fact) -> Array:
        """The exact points of ``guide`` (left as it is) that may fit one more fact: its
        meaning's exact part (the conjuncts on lengths, HCP, controls), and each denied
        call that is exact. Over a chain of facts, the guide of a targeted sample."""
        part = None if fact.shown is None else self.masks.exact_part(fact.shown)
        if part is not None:
            guide = guide & self.masks.get(self.profile, part, fact.ctx)
        for d in fact.denied:
            if self.masks.exact(d):
                guide = guide & ~self.masks.get(self.profile, d, fact.ctx)
        return guide

    def _tails(self) -> list[Array]:
        """ways[l..., hcp, controls]: how many ways the last 1, 2, 3 suits of these lengths
        make up that HCP and those controls (lengths summing past 13 left at zero)."""
        if not self._tail_grids:
            one = np.zeros((14, 41, 13), dtype=np.float64)
            one[:, :11, :4] = self._counts
            grids: list[Array] = [one]
            for _ in range(2):
                prev = grids[-1]
                nxt = np.zeros((14, *prev.shape))
                for first in range(14):
                    for h, c in zip(*np.nonzero(self._counts[first]), strict=True):
                        nxt[first, ..., h:, c:] += (self._counts[first, h, c]
                                                    * prev[..., :41 - h, :13 - c])
                grids.append(nxt)
            self._tail_grids = grids
        return self._tail_grids

    def _length_codes(self) -> list[Array]:
        """codes[s][point]: the lengths of suits s..3 at each exact point in base 14 (the
        last code all zeros): a hand's remaining suits as the tail tables index them."""
        if not self._lcodes:
            lengths = profile_space().lengths.astype(np.int64)
            code = np.zeros(lengths.shape[0], dtype=np.int64)
            codes = [code]
            for i in range(3, -1, -1):
                code = lengths[:, i] * 14 ** (3 - i) + code
                codes.append(code)
            self._lcodes = codes[::-1]
        return self._lcodes

    def deal(self, points: Array) -> Array:
        """One hand drawn uniformly among the hands of each exact point (its shape, HCP
        and controls): each suit's HCP and controls in turn, weighted by the ways the
        remaining suits can make up the rest, then a holding with those values."""
        space = profile_space()
        lengths = space.lengths[points].astype(np.int64)
        # What is left to make up, as one number (HCP * 13 + controls): the tables below
        # are indexed by it, so a suit costs a few look-ups instead of the arithmetic on
        # HCP and controls apart (a deal is a few hundred hands: its cost is the number of
        # array calls, not their size).
        left = space.hcp[points].astype(np.int64) * 13 + space.controls[points]
        n = points.shape[0]
        hands = np.empty((n, 4), dtype=np.int16)
        options = _SUIT_OPTIONS[0].shape[0]
        tails = self._tails()
        lcodes = self._length_codes()
        counts = self._counts.reshape(14, options)
        draws = self._rng.random(7 * n)  # the draws in the order the suits use them
        for suit in range(3):
            # The weights depend only on what is left to make up (the remaining
            # suits' lengths, HCP and controls), which many hands share: work them out
            # once per such state, then draw each hand's choice from its state's row.
            # (np.unique's steps written out: the call's overhead was most of a small
            # deal; inv is each hand's rank among the states, as np.unique gives it.)
            codes = lcodes[suit][points] * (41 * 13) + left
            perm = codes.argsort()
            aux = codes[perm]
            new_state = np.empty(n, dtype=bool)
            new_state[:1] = True
            np.not_equal(aux[1:], aux[:-1], out=new_state[1:])
            inv = np.empty(n, dtype=np.int64)
            inv[perm] = np.cumsum(new_state) - 1
            first = perm[new_state]  # a hand of each state, in the states' order
            state_left = left[first]
            index = lcodes[suit + 1][points[first], None] * (41 * 13) + _REST[state_left]
            ways = tails[2 - suit].take(index)
            weight = counts[lengths[first, suit]] * ways * _POSSIBLE[state_left]
            cum = np.cumsum(weight, axis=1)
            cum /= cum[:, -1:]
            cum += np.arange(cum.shape[0])[:, None]
            u = inv + draws[2 * suit * n:(2 * suit + 1) * n]
            choice = cum.reshape(-1).searchsorted(u) - inv * options
            # Only the lower bound can bite (a draw at its row's very start); np.clip's
            # Python wrapper cost more than the two ufuncs.
            np.maximum(choice, 0, out=choice)
            np.minimum(choice, options - 1, out=choice)
            key = lengths[:, suit] * options + choice  # the option is HCP * 4 + controls
            left = left - _TAKEN[choice]
            self._pick(hands, suit, key, draws[(2 * suit + 1) * n:(2 * suit + 2) * n])
        key = (lengths[:, 3] * 11 + left // 13) * 4 + left % 13  # the last suit takes the rest
        self._pick(hands, 3, key, draws[6 * n:])
        return hands

    def _pick(self, hands: Array, suit: int, key: Array, draws: Array) -> None:
        """A holding of ``suit`` for each hand, uniformly among those with its key (length,
        HCP and controls)."""
        pick = (draws * self._counts.reshape(-1)[key]).astype(np.int64)  # counts are whole
        hands[:, suit] = self._flat[self._start[key] + pick]

    def hands_at(self, points: Array, per: Array) -> tuple[Array, Array, Array]:
        """``per[i]`` hands at each of the distinct ``points[i]``: the first ones dealt at
        the point, dealing only what it lacks. Returns the hands, the point of each and
        the ``per`` of that point. The first ``_DENSE`` hands of every point sit in one
        array (taken by one fancy index); the rare points asked for more keep the rest
        in a list of their own."""
        dense = np.minimum(per, _DENSE)
        lacking = dense - self._filled[points]
        short = lacking > 0
        if short.any():
            where, count = points[short], lacking[short]
            rows = np.repeat(where, count)
            self._bank[rows, np.repeat(self._filled[where], count) + _ranks(count)] = \
                self.deal(rows)
            self._filled[where] += count
        rows = np.repeat(points, dense)
        hands = [self._bank[rows, _ranks(dense)]]
        at = [rows]
        each = [np.repeat(per, dense)]
        more = [(int(points[i]), int(per[i])) for i in np.flatnonzero(per > _DENSE).tolist()]
        if more:
            store = self._reservoir
            lack = [(p, k - _DENSE - (0 if p not in store else store[p].shape[0]))
                    for p, k in more]
            lack = [(p, k) for p, k in lack if k > 0]
            if lack:  # one deal for every point that lacks hands
                dealt = self.deal(np.repeat(np.array([p for p, _ in lack], dtype=np.int64),
                                            np.array([k for _, k in lack], dtype=np.int64)))
                start = 0
                for p, k in lack:
                    new, start = dealt[start:start + k], start + k
                    store[p] = new if p not in store else np.concatenate([store[p], new])
            for p, k in more:
                hands.append(store[p][:k - _DENSE])
                at.append(np.full(k - _DENSE, p, dtype=np.int64))
                each.append(np.full(k - _DENSE, k, dtype=np.int64))
        return np.concatenate(hands), np.concatenate(at), np.concatenate(each)

    def targeted(self, reach: _Reach, have: int) -> _Space | None:
        """Hands that fit every fact: a stratified sample of the exact points that fit the
        facts' exact parts (at each point hands in proportion to its count, at least one,
        each standing for count / hands-there real hands), kept when they fit the facts'
        other parts; more per point while too few fit. None when it would not give more
        hands than the ``have`` the current sample holds.

        The same facts reached by another chain of calls (a fifth of tosr's samples) get
        the same sample, masks and all: drawing it again would take the same hands from
        the kept ones and deal nothing."""
        facts = reach.facts()
        canon = self.masks.canon
        key = tuple((None if f.shown is None else id(canon(f.shown)),
                     tuple(id(canon(d)) for d in f.denied), f.ctx) for f in facts)
        hit = self._drawn.get(key)
        if hit is None:
            hit = self._drawn[key] = self._draw(facts, reach.guide(self))
        drawn, found = hit
        return None if found is not None and found <= have else drawn

    def _draw(self, facts: Sequence[_Fact], points: Array) -> tuple[_Space, int | None]:
        """The sample of ``targeted`` and how many of its dealt hands fit (None: no
        exact point fits, the sample is empty whatever the current one holds);
        ``points``: the exact points the facts allow (``_Reach.guide``)."""
        space = profile_space()
        guide = np.flatnonzero(points)
        # A hand dealt at a guide point fits every exact fact already.
        rest = [f for f in facts if not (f.shown is None or self.masks.exact(f.shown))
                or not all(self.masks.exact(d) for d in f.denied)]
        token, self._tokens = self._tokens, self._tokens + 1
        if not guide.shape[0]:
            return _Space(HandFeatures(np.zeros((0, 4), dtype=np.int16)), token, False,
                          True), None
        p = space.count[guide] / space.count[guide].sum()
        scale = float(SAMPLE_TARGET)
        while True:
            per = np.maximum(1, np.round(p * scale)).astype(np.int64)
            hands, points, each = self.hands_at(guide, per)
            features = HandFeatures(hands)
            ok = np.ones(hands.shape[0], dtype=bool)
            for fact in rest:
                if not ok.any():
                    break
                ok &= _fact_mask(fact, features, points, self.masks)
            found = int(ok.sum())
            if found >= SAMPLE_MIN or 2 * per.sum() > SAMPLE_MAX_DRAWS:
                break
            scale *= min(8.0, SAMPLE_TARGET / max(found, 1))
        weights = space.count[points] / each
        index = np.flatnonzero(ok)
        return _Space(features.take(index), token, False, True, int(per.sum()), weights[ok],
                      points[index]), found


_SUIT_OPTIONS = (np.repeat(np.arange(11), 4), np.tile(np.arange(4), 11))
"""Every (HCP, controls) one suit can hold, HCP major: the options a dealt suit draws from."""
_LEFT = np.arange(41 * 13)[:, None]  # what is left to make up: HCP * 13 + controls
_LEFT_HCP, _LEFT_CONTROLS = _LEFT // 13 - _SUIT_OPTIONS[0], _LEFT % 13 - _SUIT_OPTIONS[1]
_POSSIBLE = (_LEFT_HCP >= 0) & (_LEFT_CONTROLS >= 0)
"""[left, option]: whether a suit can take that option's HCP and controls."""
_REST = np.maximum(_LEFT_HCP, 0) * 13 + np.maximum(_LEFT_CONTROLS, 0)
"""[left, option]: what the other suits must make up after that option (0 where it
cannot be: those rows weigh nothing), as the tail tables index it."""
_TAKEN = _SUIT_OPTIONS[0] * 13 + _SUIT_OPTIONS[1]
"""[option]: what the option takes from what is left."""
_DENSE = 8
"""Hands per exact point kept in the sampler's dense bank (more go to a list per point)."""


def _ranks(counts: Array) -> Array:
    """0, 1, ..., c-1 for each c of ``counts``, concatenated."""
    starts: Array = np.repeat(np.cumsum(counts) - counts, counts)
    return np.arange(int(counts.sum()), dtype=np.int64) - starts


def _fact_mask(fact: _Fact, features: Features, points: Array, masks: _Masks) -> Array:
    out = np.ones(features.n, dtype=bool)
    if fact.shown is not None:
        out &= masks.evaluate(features, points, fact.shown, fact.ctx)
    for d in fact.denied:
        out &= ~masks.evaluate(features, points, d, fact.ctx)
    return out


def _exact_points(features: Features) -> Array:
    """The exact point (shape, HCP, controls) of each hand, as an index of the profile
    space."""
    space = profile_space()
    lengths = space.lengths.astype(np.int64)
    codes = (((lengths[:, 0] * 14 + lengths[:, 1]) * 14 + lengths[:, 2]) * 41
             + space.hcp) * 13 + space.controls
    order = np.argsort(codes)
    mine = features.value("lengths").astype(np.int64)
    wanted = (((mine[:, 0] * 14 + mine[:, 1]) * 14 + mine[:, 2]) * 41
              + np.rint(features.value("hcp")).astype(np.int64)) * 13 \
        + np.rint(features.value("controls")).astype(np.int64)
    found = order[np.searchsorted(codes[order], wanted)]
    assert np.array_equal(codes[found], wanted), "a hand outside the profile space"
    return found


class _Reach:
    """What one seat's calls so far allow: a chain of facts, with the fitting points of
    the exact space and of the current sample worked out on demand."""

    __slots__ = ("_exact_points", "_guide", "_sample", "exact", "fact", "key", "parent")

    def __init__(self, parent: _Reach | None, fact: _Fact | None, exact: bool,
                 key: tuple[object, ...]) -> None:
        self.parent, self.fact, self.exact, self.key = parent, fact, exact, key
        self._exact_points: Array | None = None
        self._guide: Array | None = None  # packed
        self._sample: tuple[_Space, Array] | None = None

    def then(self, fact: _Fact, masks: _Masks, key: object, exact: bool | None = None
             ) -> _Reach:
        """The reach after one more fact (``exact``: whether the fact reads only exact
        measures, when the caller knows)."""
        if exact is None:
            exact = all(masks.exact(c) for c in (
                *(() if fact.shown is None else (fact.shown,)), *fact.denied))
        return _Reach(self, fact, self.exact and exact, (*self.key, key))

    def facts(self) -> list[_Fact]:
        out: list[_Fact] = []
        r: _Reach | None = self
        while r is not None:
            if r.fact is not None:
                out.append(r.fact)
            r = r.parent
        return out[::-1]

    def _apply(self, masks: _Masks, space: _Space, base: Array) -> Array:
        assert self.fact is not None
        out = base.copy()
        if self.fact.shown is not None:
            out &= masks.get(space, self.fact.shown, self.fact.ctx)
        for d in self.fact.denied:
            if not out.any():
                break
            out &= ~masks.get(space, d, self.fact.ctx)
        return out

    def guide(self, sampler: _Sampler) -> Array:
        """The exact points that may fit this chain's facts (``_Sampler.narrow``), from the
        parent's: each fact narrows it once however many samples its chain draws. Kept
        packed, since most chains of a relay tree are drawn for."""
        n = sampler.profile.features.n
        if self._guide is not None:
            return np.unpackbits(self._guide, count=n).view(bool)
        if self.parent is None or self.fact is None:
            guide = np.ones(n, dtype=bool)
        else:
            guide = sampler.narrow(self.parent.guide(sampler), self.fact)
        self._guide = np.packbits(guide)
        return guide

    def exact_points(self, sampler: _Sampler) -> Array:
        """The profile points that fit every fact, as indices (ascending): a chain narrows
        them call by call, so each fact is read at its parent's few points, not at all
        59,388 (what ``_apply`` does on a sample's mask)."""
        if self._exact_points is None:
            if self.parent is None or self.fact is None:
                self._exact_points = np.arange(sampler.profile.features.n)
            else:
                masks, profile, fact = sampler.masks, sampler.profile, self.fact
                points = self.parent.exact_points(sampler)
                if fact.shown is not None:
                    points = points[masks.get(profile, fact.shown, fact.ctx)[points]]
                for d in fact.denied:
                    if not points.shape[0]:
                        break
                    points = points[~masks.get(profile, d, fact.ctx)[points]]
                self._exact_points = points
        return self._exact_points

    def sample(self, sampler: _Sampler) -> tuple[_Space, Array]:
        if self._sample is None:
            if self.parent is None:
                self._sample = (sampler.pool, np.ones(sampler.pool.features.n, dtype=bool))
            else:
                space, base = self.parent.sample(sampler)
                mask = self._apply(sampler.masks, space, base)
                have = int(mask.sum())
                if have < SAMPLE_MIN:
                    drawn = sampler.targeted(self, have)
                    if drawn is not None:
                        space, mask = drawn, np.ones(drawn.features.n, dtype=bool)
                elif have * SUBSET_RATIO < space.features.n:
                    space, mask = sampler.subset(space, mask), np.ones(have, dtype=bool)
                self._sample = (space, mask)
        return self._sample


# --- the walk over every situation ----------------------------------------------------
@dataclass
class _Verdict:
    """A node's check in one situation."""

    checked: frozenset[int]  # ids of the entries checked (guard holds, legal)
    unreachable: dict[int, bool]  # id(entry) -> no hand fits it at all
    hole: tuple[float, str | None] | None  # share, witness
    method: str
    sample: int | None


class _Denied(NamedTuple):
    """The calls a call denies: what each needs (``CallEntry.choose``), their ids, and the
    parts of the table context those read."""

    chooses: tuple[Constraint, ...]
    ids: tuple[int, ...]
    dims: frozenset[str]


@dataclass
class _Record:
    node: Node
    first: str | None
    caller_auction: tuple[Call, ...]
    verdicts: dict[Situation, _Verdict] = field(default_factory=dict)


class _Linter:
    def __init__(self, system: System) -> None:
        self.system = system
        self.systems = {Side.NS: system, Side.EW: system}
        self.masks = _Masks(frozenset())
        self.dims = self.masks.dims = _dimensions(system, self.masks.dims_of)
        self.sampler = _Sampler(self.masks)
        self.records: dict[int, _Record] = {}
        self._choose: dict[int, tuple[CallEntry, Constraint, Constraint]] = {}
        # A node's verdict depends only on these; a situation that brings the same ones
        # (seat 1 and seat 2 when no guard reads the seat) reuses it.
        # Each kept as the (start, end) of its verdicts in ``log``, which only grows: a
        # copy per subtree held every verdict once per node above it, which the cyclic
        # collector then traversed again and again.
        self._seen: dict[tuple[object, ...], tuple[int, int]] = {}
        # One reach per chain of facts, however many situations walk it (its exact mask
        # and its sample are then worked out once), and one verdict per node, reach and
        # context: opener's rebids are judged once for the four seats when only
        # responder's pass differs.
        self._reaches: dict[tuple[object, ...], _Reach] = {}
        self._verdicts: dict[tuple[object, ...], tuple[_Verdict, dict[int, bool]]] = {}
        self._subtree: dict[int, tuple[Node, frozenset[str]]] = {}
        self._legal: dict[int, tuple[Node, list[CallEntry]]] = {}
        self._choose_dims: dict[int, tuple[Node, frozenset[str]]] = {}
        self.log: list[tuple[_Record, _Verdict]] = []  # verdicts in the order filed

    def constraints(self, entry: CallEntry) -> tuple[Constraint, Constraint]:
        """(choose, shown) of an entry, built once (the properties build new objects)."""
        hit = self._choose.get(id(entry))
        if hit is None or hit[0] is not entry:
            meaning = entry.requires if entry.requires is not None else entry.shows
            hit = (entry, _conjoin(entry.guard, meaning), _conjoin(entry.guard, entry.shows))
            self._choose[id(entry)] = hit
        return hit[1], hit[2]

    def denial(self, denied: Sequence[CallEntry]) -> _Denied:
        chooses = tuple(self.constraints(d)[0] for d in denied)
        return _Denied(chooses, tuple(map(id, denied)),
                       frozenset().union(*map(self.masks.dims_of, chooses)))

    def legal(self, node: Node, auction: Auction) -> list[CallEntry]:
        """The node's calls, in the order tried, that the Laws allow after ``auction``: the
        same in every situation (the passes before the opening change no call's legality,
        and the calls since are the node's path), so worked out once per node."""
        hit = self._legal.get(id(node))
        if hit is None or hit[0] is not node:
            hit = self._legal[id(node)] = (node, [e for e in node.ordered()
                                                  if auction.is_legal(e.call)])
        return hit[1]

    def choose_dims(self, node: Node) -> frozenset[str]:
        """The parts of the table context the node's calls' own constraints read."""
        hit = self._choose_dims.get(id(node))
        if hit is None or hit[0] is not node:
            # The dims of a conjunction are its parts': no need to build every choose.
            dims = self.masks.dims_of
            hit = self._choose_dims[id(node)] = (node, frozenset().union(
                *(dims(e.guard) | dims(e.shows if e.requires is None else e.requires)
                  for e in node.calls)))
        return hit[1]

    def subtree_dims(self, node: Node) -> frozenset[str]:
        """The parts of the table context any guard or meaning at or below ``node`` reads:
        two situations that differ elsewhere walk the subtree alike (with the same facts)."""
        hit = self._subtree.get(id(node))
        if hit is None or hit[0] is not node:
            self._subtree[id(node)] = (node, frozenset())  # a cycle adds nothing
            dims: set[str] = set()
            for e in node.calls:
                for c in (e.guard, e.shows, e.requires):
                    dims |= self.masks.dims_of(c)
                dims |= self.subtree_dims(e.node)
            for opp in node.opp:
                dims |= self.subtree_dims(opp.node)
            hit = self._subtree[id(node)] = (node, frozenset(dims))
        return hit[1]

    def situations(self) -> Iterator[tuple[int, Vulnerability]]:
        vuls = list(Vulnerability) if self.dims & {"vul", "they_vul"} else [Vulnerability.NONE]
        for passes in range(4):
            for vul in vuls:
                yield passes, vul

    def run(self) -> None:
        for passes, vul in self.situations():
            state = start(self.systems, Auction(Seat.N, vul))
            root = self._reaches.setdefault((), _Reach(None, None, True, ()))
            reach = dict.fromkeys(Seat, root)
            for _ in range(passes):
                state, reach = self.step(state, reach, PASS)
            self.visit(self.system.root, state, reach, passes + 1)

    def step(self, state: TableState, reach: dict[Seat, _Reach], call: Call,
             step: WalkStep | None = None, ours: bool = True,
             denied: _Denied | None = None, exact: bool | None = None
             ) -> tuple[TableState, dict[Seat, _Reach]]:
        """The state after ``call``; what it shows joins the caller's facts unless it is an
        opponents' call inside our tree (their hands are not checked there). ``denied``:
        the calls it denies when the caller already knows them."""
        step = step or read_call(state, call)
        if not ours:
            return advance(state, call, step), reach
        if denied is None:
            denied = self.denial(denied_calls(step, state.auction))
        shown = None
        if step.entry is not None:
            shown = self.constraints(step.entry)[1]
        fact = _Fact(shown, denied.chooses, step.context)
        dims = self.masks.dims_of(shown) | denied.dims
        key = (id(step.entry), denied.ids, self.masks.project(step.context, dims))
        new = dict(reach)
        before = reach[step.seat]
        chain = (*before.key, key)
        after = self._reaches.get(chain)
        if after is None:
            after = self._reaches[chain] = before.then(fact, self.masks, key, exact)
        new[step.seat] = after
        return advance(state, call, step), new

    def visit(self, node: Node, state: TableState, reach: dict[Seat, _Reach],
              opened: int) -> None:
        if state.auction.is_ended:
            return
        if node.calls:
            here, here_reach = state, reach
            if node.ours_last:
                here, here_reach = self.step(state, reach, PASS, ours=False)
            seat = here.next_seat
            if not here.auction.is_ended and here.side(seat).node is node:
                self.check(node, here, here_reach, opened)
        for opp in node.opp:
            call = opp.call
            if call is None or not state.auction.is_legal(call):
                continue
            after, after_reach = self.step(state, reach, call, ours=False)
            ours = Side.EW if state.next_seat.side is Side.NS else Side.NS
            if after.sides[ours].node is opp.node:
                self.visit(opp.node, after, after_reach, opened)

    def check(self, node: Node, state: TableState, reach: dict[Seat, _Reach],
              opened: int) -> None:
        auction = state.auction
        seat = auction.next_seat
        ctx = table_context(auction, len(auction.calls))
        entries = [e for e in self.legal(node, auction) if guard_holds(e, ctx)]
        if not entries:
            return
        situation = Situation(opened, ctx.vul, ctx.they_vul)
        record = self.records.get(id(node))
        if record is None:
            first = str(node.auction[0]) if node.auction else None
            record = self.records[id(node)] = _Record(node, first, auction.calls[
                len(auction.calls) - len(node.auction) - (1 if node.ours_last else 0):])
        mine = reach[seat]
        partner = reach[seat.partner]
        their = state.side(seat.lho)
        key = (id(node), self.masks.project(ctx, self.subtree_dims(node)), mine.key,
               partner.key, id(their.node),
               id(their.base))
        seen = self._seen.get(key)
        if seen is not None:  # the same subtree: its verdicts hold in this situation too
            log = self.log
            for i in range(*seen):
                filed = log[i]  # filed again as the same pair: no new object per verdict
                verdicts = filed[0].verdicts
                if situation not in verdicts:
                    verdicts[situation] = filed[1]
                    log.append(filed)
            return
        mark = len(self.log)
        judged = (tuple(map(id, entries)), mine.key,
                  self.masks.project(ctx, self.choose_dims(node)))
        hit = self._verdicts.get(judged)
        if hit is None:
            hit = self._verdicts[judged] = self.judge(entries, mine, ctx)
        verdict, fresh = hit
        self.file(record, situation, verdict)
        made: set[Call] = set()
        base = state.side(seat).base
        exact_before = True  # whether every call tried so far reads only exact measures
        # What the calls tried so far deny, grown one call at a time (each call denies the
        # calls tried before it here, as inference.denied_calls has it).
        denied = after_denied = _Denied((), (), frozenset())
        for entry in entries:
            choose, shown = self.constraints(entry)
            exact_fact = exact_before and self.masks.exact(shown)
            denied = after_denied
            if not entry.is_default_pass:
                exact_before = exact_before and self.masks.exact(choose)
                after_denied = _Denied((*denied.chooses, choose), (*denied.ids, id(entry)),
                                       denied.dims | self.masks.dims_of(choose))
            if entry.call in made:
                continue  # the walk reads the call as the earlier entry for it
            made.add(entry.call)
            if not fresh.get(id(entry), False):
                continue  # no hand makes the call here: nothing below it can happen
            if not entry.node.calls and not entry.node.opp:
                continue  # nothing written below it: the walk there would check nothing
            # How the walk reads the call (read_call), without looking it up.
            step = WalkStep(len(auction.calls), seat, entry.call, ctx, node, entry, SYSTEM,
                            base)
            after, after_reach = self.step(state, reach, entry.call, step, denied=denied,
                                           exact=exact_fact)
            self.visit(entry.node, after, after_reach, opened)
        self._seen[key] = (mark, len(self.log))

    def file(self, record: _Record, situation: Situation, verdict: _Verdict) -> None:
        if situation not in record.verdicts:
            record.verdicts[situation] = verdict
            self.log.append((record, verdict))

    def judge(self, entries: list[CallEntry], mine: _Reach, ctx: TableContext
              ) -> tuple[_Verdict, dict[int, bool]]:
        chooses = [self.constraints(e)[0] for e in entries]
        exact = mine.exact and all(self.masks.exact(c) for c in chooses)
        if exact:
            space, where = self.sampler.profile, mine.exact_points(self.sampler)
        else:
            space, reach = mine.sample(self.sampler)
            where = np.flatnonzero(reach)
        n_reach = int(where.shape[0])
        method = "exact" if exact else _sample_method(space, n_reach)
        sample = None if exact else n_reach
        if n_reach == 0:
            return _Verdict(frozenset(), {}, None, method, sample), {}
        # Only the hands (points) that reach the node count: the calls are tried on those
        # alone (a relay answer's few hundred points of the 59,388), the hole spread back.
        taken = np.zeros(where.shape[0], dtype=bool)
        unreachable: dict[int, bool] = {}
        fresh_any: dict[int, bool] = {}
        for entry, choose in zip(entries, chooses, strict=True):
            fits = self.masks.get(space, choose, ctx)[where]
            made = bool((fits > taken).any())  # a hand that fits and took no earlier call
            fresh_any[id(entry)] = made
            if not made:
                unreachable[id(entry)] = not fits.any()
            taken |= fits
        hole = None
        if not taken.all():  # the masks of the whole space only for a hole
            hole_mask = np.zeros(space.features.n, dtype=bool)
            hole_mask[where[~taken]] = True
            reach = np.zeros(space.features.n, dtype=bool)
            reach[where] = True
            hole = (_share(space, hole_mask, reach),
                    _witness(space.features, hole_mask))
        return _Verdict(frozenset(map(id, entries)), unreachable, hole, method, sample), fresh_any


def _conjoin(guard: Constraint, meaning: Constraint) -> Constraint:
    """``conjoin([guard, meaning])`` (what ``CallEntry.choose`` and ``.shown`` build),
    telling 'any' and 'none' by type and value instead of a dataclass comparison with
    each item: the same constraint, at a fraction of the cost for 16,000 entries."""
    flat: list[Constraint] = []
    for c in (guard, meaning):
        if isinstance(c, And):
            flat.extend(c.items)
        elif not (type(c) is Always and c.value == ANY.value):
            flat.append(c)
    if any(type(c) is Always and c.value == NOTHING.value for c in flat):
        return NOTHING
    if not flat:
        return ANY
    return flat[0] if len(flat) == 1 else And(tuple(flat))


def _sample_method(space: _Space, n: int) -> str:
    if space.targeted:
        return f"sampled ({n:,} hands dealt to fit the auction)"
    return f"sampled ({n:,} of {space.drawn:,} dealt hands reach it)"


def _share(space: _Space, part: Array, whole: Array) -> float:
    features = space.features
    if isinstance(features, ProfileSpace):
        p = features.probability
        return float(p[part].sum() / p[whole].sum())
    if space.weights is not None:
        return float(space.weights[part].sum() / space.weights[whole].sum())
    return float(part.sum() / whole.sum())


def _findings(linter: _Linter) -> list[Finding]:
    with_vul = bool(linter.dims & {"vul", "they_vul"})
    out: list[Finding] = []
    for node in linter.system.nodes():
        record = linter.records.get(id(node))
        if record is None or not record.verdicts:
            continue
        reached = {s for s, v in record.verdicts.items() if v.checked}
        if not reached:
            continue
        # Most situations share a verdict object: each entry is looked up once per
        # distinct verdict, and an entry no verdict finds unreachable not at all.
        shared: dict[int, tuple[_Verdict, list[Situation]]] = {}
        for s in reached:
            shared.setdefault(id(record.verdicts[s]), (record.verdicts[s], []))[1].append(s)
        dead = set().union(*(v.unreachable for v, _ in shared.values()))
        if not dead and all(v.hole is None for v, _ in shared.values()):
            continue  # nothing to report here (most nodes): its auction is not written
        before = auction_text(record.caller_auction)
        where = before or "the start"
        for entry in node.ordered():
            if id(entry) not in dead:
                continue
            checked: set[Situation] = set()
            holds: set[Situation] = set()
            for verdict, situations in shared.values():
                if id(entry) in verdict.checked:
                    checked.update(situations)
                    if id(entry) in verdict.unreachable:
                        holds.update(situations)
            if not holds:
                continue
            first = min(holds)
            v = record.verdicts[first]
            exact = all(record.verdicts[s].method == "exact" for s in holds)
            if not exact:
                v = next(record.verdicts[s] for s in sorted(holds)
                         if record.verdicts[s].method != "exact")
            none_fit = all(record.verdicts[s].unreachable[id(entry)] for s in holds)
            some = "no hand" if exact else "no sampled hand"
            why = f"{some} fits it" if none_fit else \
                f"every {'' if exact else 'sampled '}hand that fits it takes an earlier call"
            contexts = _describe(holds, checked, record.first, with_vul)
            when = f" ({'; '.join(contexts)})" if contexts else ""
            # Dead in every situation the call is tried in: a warning. Dead only in some:
            # information, the situations named, when the call's own guard admits them (its
            # guard is wider than where it can be made); a call without a guard that a
            # passed hand cannot make (a slam try) is the table's inference, not a finding.
            if contexts and isinstance(entry.guard, Always):
                continue
            severity = "info" if contexts else "warning"
            out.append(Finding(severity, "unreachable", f"{entry.call} after {where}: "
                               f"{why}{when}", before, str(entry.call), str(entry.location),
                               None, v.method, contexts, v.sample))
        holes = {s for s in reached if record.verdicts[s].hole is not None}
        if holes:
            worst = max(sorted(holes), key=lambda s: record.verdicts[s].hole[0]  # type: ignore[index]
                        )
            v = record.verdicts[worst]
            assert v.hole is not None
            share, witness = v.hole
            contexts = _describe(holes, reached, record.first, with_vul)
            when = f" ({'; '.join(contexts)})" if contexts else ""
            method = v.method
            out.append(Finding("warning", "hole", f"after {where}: {share:.1%} of the hands "
                               f"that reach this point fit no call (the fallback bids them)"
                               f"{when}", before, None, str(node.calls[0].location),
                               witness, method, contexts, v.sample))
    return out


# --- options ---------------------------------------------------------------------------
def option_variants(system: System) -> list[dict[str, str | bool]]:
    """The selections to compile so that every value of every option is compiled once:
    each option's other values, the rest as selected."""
    out: list[dict[str, str | bool]] = []
    for name, decl in system.options.items():
        values: list[str | bool] = list(decl.values) if decl.values else [True, False]
        for value in values:
            if system.selected.get(name, decl.default) != value:
                out.append({**system.selected, name: value})
    return out


def compile_variants(system: System) -> list[Finding]:
    """Compile errors of the option values the system was not compiled with."""
    from bidbox.lang.diagnostics import SystemFileError
    from bidbox.lang.loader import load_system

    if not Path(system.file).is_file():
        return []  # compiled from text that is not on disk: nothing to compile again
    seen: set[tuple[str, str]] = set()
    out: list[Finding] = []
    for options in option_variants(system):
        changed = ", ".join(f"{k}={v}" if not isinstance(v, bool) else (k if v else f"no {k}")
                            for k, v in options.items()
                            if v != system.selected.get(k, system.options[k].default))
        try:
            load_system(system.file, {k: v for k, v in options.items() if v is not False})
        except SystemFileError as err:
            for d in err.diagnostics:
                key = (str(d.location), d.message)
                if key in seen:
                    continue
                seen.add(key)
                out.append(Finding("error", "compile", f"with --option {changed}: {d.message}",
                                   "", None, str(d.location), None, "exact"))
    return out


def lint_system(system: System, variants: bool = True) -> list[Finding]:
    """Unreachable calls and holes at every node of ``system`` (both sides play it) in
    every table situation, the forcing calls the notes leave open, and (``variants``) the
    compile errors of the option values it was not compiled with."""
    from bidbox.verify.forcing import open_forcing_calls  # it builds on this module

    with collector_paused():
        linter = _Linter(system)
        linter.run()
        out = _findings(linter) + open_forcing_calls(system)
        # Freed while the collector still sleeps: resumed, its first pass would otherwise
        # traverse every object the walk made, which reference counting frees anyway.
        del linter
    return (compile_variants(system) + out) if variants else out


class _Pauses:
    """How many walks have the cyclic collector paused, and whether to resume it after the
    last one (a lock, since the web app may lint in several threads at once)."""

    lock = threading.Lock()
    depth = 0
    resume = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the block, back as it was after it.

    The walk keeps hundreds of thousands of objects alive (states, chains of facts,
    masks' keys, the system's lazily read nodes) and makes almost no cycles (a few hundred
    objects for tosr), yet each full collection traversed all of them again: a sixth of
    tosr's walk and a third of magic-dlight's. Nested or concurrent pauses resume the
    collector once, when the last ends."""
    with _Pauses.lock:
        if _Pauses.depth == 0:
            _Pauses.resume = gc.isenabled()
            gc.disable()
        _Pauses.depth += 1
    try:
        yield
    finally:
        with _Pauses.lock:
            _Pauses.depth -= 1
            if _Pauses.depth == 0 and _Pauses.resume:
                gc.enable()
                # One pass now, over what survived the block (the walk's own objects are
                # freed by then): left to the allocation that next trips the collector,
                # it lands on whatever code runs next (a 300 ms stall in a later test).
                gc.collect()
