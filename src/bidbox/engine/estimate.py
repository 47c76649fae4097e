"""What a player expects the other three hands to hold, from what their calls showed.

The captain's placement needs numbers, not ranges: partner's expected HCP and suit
lengths, and how uncertain they are. Each seat's calls (with their negative inference)
select the hands that fit; their mean and spread are taken over the exact profile space
(weighted by how many real hands each point stands for) when the meanings speak only of
lengths, HCP and controls, and over the fixed pool of dealt hands otherwise. A seat whose
calls no hand fits is read as unconstrained rather than trusted.

A player then combines the seats with the deck: the three unseen hands share the HCP and
cards the bidder does not hold, so each seat's expectation is scaled to fit what is left
(:func:`partner_view`).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache, lru_cache

import numpy as np

from bidbox.core.calls import Call, Strain
from bidbox.core.hashing import keep_hash
from bidbox.core.seats import Seat
from bidbox.engine.features import Array, Features, HandFeatures, sample_hands
from bidbox.engine.inference import CallReading, Facts, fitting, is_exact, read_steps
from bidbox.engine.kernels import COLUMN
from bidbox.engine.predicates import TableContext, compile_predicate, compose
from bidbox.engine.profiles import EXACT_MEASURES, profile_space
from bidbox.engine.walk import TableState, WalkStep
from bidbox.lang.constraints import And, Constraint, Not, Or


@keep_hash  # looked up per trio of seats at every judgement (_shares)
@dataclass(frozen=True)
class SeatEstimate:
    """Expected HCP and suit lengths (S, H, D, C) of one seat, with their spread."""

    hcp: float
    hcp_sd: float
    lengths: tuple[float, float, float, float]
    lengths_sd: tuple[float, float, float, float]
    min_hcp: int
    min_lengths: tuple[int, int, int, int]
    controls: tuple[float, ...] | None = None
    """P(controls = 0..12) over the hands the calls leave, where the calls speak of
    controls (a control-showing answer, a denial of one); None where they do not, and
    partner's aces are then read from partner's share of the points."""
    aces: tuple[float, ...] | None = None
    """P(aces = 0..4) the same way, where the calls speak of aces (a key-card answer)."""


SHOWN_FIT = 7
"""The cards in a suit that a side's calls must promise between the partners for a
contract there to be a strain they chose, not an artificial call that names it."""


def side_shown_length(seats: Mapping[Seat, SeatEstimate], seat: Seat, strain: Strain) -> int:
    """The least number of cards of the suit ``strain`` that the calls of ``seat`` and its
    partner promise between them (0 for no-trump). Judgement reads it before leaving our
    artificial call in; the real-board benchmark counts final contracts by it."""
    if strain is Strain.NT:
        return 0
    column = COLUMN[strain]  # S, H, D, C: the lengths' order too
    return int(seats[seat].min_lengths[column] + seats[seat.partner].min_lengths[column])


ESTIMATE_SAMPLE = 40_000
"""Dealt hands for an estimate whose meanings need the cards: a mean and a spread need
far fewer hands than the explainer's exact-looking ranges, and the bidder asks often."""


@cache
def _estimate_pool() -> HandFeatures:
    return HandFeatures(sample_hands().masks[:ESTIMATE_SAMPLE])


def _fact_mask(c: Constraint, ctx: TableContext, exact: bool) -> Array:
    """The points of the space that fit ``c`` (never to be changed: it is kept).

    A call's facts are its meaning and the negation of every call tried before it, and
    the calls tried before are the same list at every auction through a node, so the
    facts of two readings share most of their parts. Each and/or/not is therefore put
    together from its parts' kept masks (the same booleans the whole predicate gives),
    and a part that reads no table context is kept once for every context."""
    key = (c, ctx if _reads_context(c) else None, exact)
    kept = _MASKS.get(key)
    if kept is not None:
        _MASKS.move_to_end(key)
        return kept
    if (isinstance(c, And | Or) and c.items) or isinstance(c, Not):
        out = compose(c, lambda item: _fact_mask(item, ctx, exact))
    else:
        space: Features = profile_space() if exact else _estimate_pool()
        out = np.asarray(compile_predicate(c)(space, ctx), dtype=bool)
    _MASKS[key] = out
    if len(_MASKS) > _MASKS_KEPT:
        _MASKS.popitem(last=False)
    return out


_MASKS: OrderedDict[tuple[Constraint, TableContext | None, bool], Array] = OrderedDict()
_MASKS_KEPT = 8192  # the bound the whole-fact cache had: up to 59 KB a mask


@lru_cache(maxsize=65536)
def _reads_context(c: Constraint) -> bool:
    return "context" in _measures_of(c)


@lru_cache(maxsize=65536)
def _measures_of(c: Constraint) -> frozenset[str]:
    """``c.measures()``, kept: a seat's estimate asks for the measures of each of its
    facts at every new call, and the walk over the constraint tree is most of that."""
    return frozenset(c.measures())


@cache
def _moments(exact: bool) -> tuple[Array, Array]:
    """Per point of the space: its weight, and its [hcp, S, H, D, C] with their squares."""
    space: Features = profile_space() if exact else _estimate_pool()
    values = np.column_stack([space.value("hcp"), space.value("lengths")]).astype(np.float64)
    weight = profile_space().probability if exact else np.ones(space.n)
    return weight, np.hstack([values, values ** 2])


def estimate_seat(facts: Facts) -> SeatEstimate:
    """The estimate of a seat whose calls showed ``facts``."""
    exact = is_exact(facts)
    space: Features = profile_space() if exact else _estimate_pool()
    mask = fitting(facts, space, lambda c, ctx: _fact_mask(c, ctx, exact))
    return _estimate_of_mask(mask, exact, space.n)


def _estimate_of_mask(mask: Array, exact: bool, size: int) -> SeatEstimate:
    """The estimate over the points of ``mask`` of the exact space or the pool."""
    # Different calls often leave the same hands (a denial that removes nothing new): the
    # estimate is a function of the mask alone, so it is kept by the mask's digest.
    digest = (exact, hashlib.blake2b(np.packbits(mask).tobytes(), digest_size=16).digest())
    kept = _BY_MASK.get(digest)
    if kept is not None:
        _BY_MASK.move_to_end(digest)
        return kept
    out = _moments_of(mask, exact, size)
    _BY_MASK[digest] = out
    if len(_BY_MASK) > _BY_MASK_KEPT:
        _BY_MASK.popitem(last=False)
    return out


_BY_MASK: OrderedDict[tuple[bool, bytes], SeatEstimate] = OrderedDict()
_BY_MASK_KEPT = 16384


def _histogram(mask: Array, exact: bool, measure: str, size: int) -> tuple[float, ...]:
    """P(``measure`` = 0..size-1) over the points of ``mask`` (all points when it holds
    none), weighted as the moments are."""
    weight, _ = _moments(exact)
    values = _values(exact, measure)
    index = np.flatnonzero(mask)
    if index.size == 0:
        index = np.arange(mask.size)
    hist = np.bincount(values[index], weights=weight[index], minlength=size)[:size]
    total = hist.sum()
    return tuple(float(x) for x in (hist / total if total > 0 else hist))


@cache
def _values(exact: bool, measure: str) -> Array:
    space: Features = profile_space() if exact else _estimate_pool()
    return np.asarray(space.value(measure), dtype=np.intp)


def _moments_of(mask: Array, exact: bool, size: int) -> SeatEstimate:
    """The estimate over the points of ``mask`` (all points when it holds none)."""
    weight, values = _moments(exact)
    index = np.flatnonzero(mask)
    if index.size == 0:
        index = np.arange(size)
    w = weight[index]
    chosen = np.take(values, index, axis=0)  # values[index], gathered faster
    first, second = np.split((w @ chosen) / w.sum(), 2)
    sd = np.sqrt(np.maximum(second - first ** 2, 0.0))
    if index.size * 8 > size and index.size < size:
        # The least HCP and lengths among many points: the first point of the mask in
        # each measure's order, cheaper than a minimum over the gathered rows' columns.
        low = [int(values[o[np.argmax(mask[o])], k]) for k, o in enumerate(_orders(exact))]
    else:
        low = [int(chosen[:, k].min()) for k in range(5)]
    return SeatEstimate(float(first[0]), float(sd[0]), _four(first[1:]), _four(sd[1:]),
                        low[0], (low[1], low[2], low[3], low[4]))


@cache
def _orders(exact: bool) -> list[Array]:
    """The space's points in order of HCP and of each suit's length (for the least)."""
    _, values = _moments(exact)
    return [np.argsort(values[:, k], kind="stable") for k in range(5)]


def _four(values: Array) -> tuple[float, float, float, float]:
    return (float(values[0]), float(values[1]), float(values[2]), float(values[3]))


_Judged = tuple[int, Call] | None
_Key = tuple[tuple[int, tuple[int, ...], TableContext, Constraint | None, _Judged], ...]
_CACHE: OrderedDict[_Key, tuple[list[CallReading], SeatEstimate]] = OrderedDict()
_CACHE_SIZE = 16384


def _reading_key(reading: CallReading
                 ) -> tuple[int, tuple[int, ...], TableContext, Constraint | None, _Judged]:
    # A call outside the notes has no entry: what it shows by itself is its judged reading
    # (walk.described_suit), which tells a described 2S from a placed 2S; and a judged bid
    # is read by the state it was judged in and the call (the hands judgement bids it with
    # there: judged_filter), which tells a placed 3NT from a placed 4H at the same point.
    step = reading.step
    return (id(reading.entry), tuple(id(e) for e in reading.denied), step.context,
            step.judged, None if step.before is None else (id(step.before), step.call))


def _same(a: CallReading, b: CallReading) -> bool:
    # Readings are kept (inference.read_state), so the same object is the common case.
    return a is b or (a.entry is b.entry and a.step.context == b.step.context
                      and a.step.judged == b.step.judged and a.step.before is b.step.before
                      and (a.step.before is None or a.step.call == b.step.call)
                      and len(a.denied) == len(b.denied)
                      and all(x is y for x, y in zip(a.denied, b.denied, strict=True)))


def estimate_seats(state: TableState) -> dict[Seat, SeatEstimate]:
    """Every seat's estimate from the calls of the walk's ``state`` (a fresh dict).

    The walk makes each state once (``walk.advance`` keeps them), so the estimates are
    kept per state object: every step that judges at that state, in this batch or a later
    one, reads them once."""
    kept = _BY_STATE.get(id(state))
    if kept is not None and kept[0] is state:
        return dict(kept[1])
    out = _estimate_seats(state)
    _BY_STATE[id(state)] = (state, out)  # the state held with it: its id stays its own
    if len(_BY_STATE) > _BY_STATE_KEPT:
        _BY_STATE.popitem(last=False)
    return dict(out)


_BY_STATE: OrderedDict[int, tuple[TableState, dict[Seat, SeatEstimate]]] = OrderedDict()
_BY_STATE_KEPT = 16384


def _estimate_seats(state: TableState) -> dict[Seat, SeatEstimate]:
    """Every seat's estimate from the calls of the walk's ``state``.

    A seat's estimate reads only its own calls, and a new state differs from the one
    before it by one call, so three of the four seats have the estimate they had one call
    earlier: each is kept by the seat's calls as step objects (a step is made once, by
    the walk's advance, and shared by every state after it), compared by identity, and
    only the seat that has called since is read (:func:`_seat_estimate`). In a contested
    auction almost every state is new, and this is most of what a state's estimates cost."""
    out = {}
    for seat in Seat:
        last = state.last[seat]
        if last is None:
            out[seat] = _seat_estimate(state, ())
            continue
        mine = state.steps[last.index::-4]  # seats call in turn: the seat's calls, last first
        kept = _BY_CALLS.get(id(last))
        if (kept is not None and len(kept[0]) == len(mine)
                and all(a is b for a, b in zip(kept[0], mine, strict=True))):
            out[seat] = kept[1]
            continue
        out[seat] = _seat_estimate(state, mine[::-1])
        _BY_CALLS[id(last)] = (mine, out[seat])  # the steps held: their ids stay theirs
        if len(_BY_CALLS) > _BY_STATE_KEPT:
            _BY_CALLS.popitem(last=False)
    return out


_BY_CALLS: OrderedDict[int, tuple[tuple[WalkStep, ...], SeatEstimate]] = OrderedDict()


def _seat_estimate(state: TableState, steps: tuple[WalkStep, ...]) -> SeatEstimate:
    """One seat's estimate from its calls (``steps``, in order). It is kept by what the
    calls say (each call's entry, the entries it denies, its table context), so every
    auction and every batch in which a seat has made the same calls asks once. A kept
    value holds its readings, and so the entries whose ids make its key: an id is never
    reused while it is kept."""
    readings = [r for r in read_steps(steps, state.auction)
                if r.shows is not None or r.step.before is not None]
    key = tuple(_reading_key(r) for r in readings)
    hit = _CACHE.get(key)
    if hit is not None and all(_same(a, b) for a, b in zip(hit[0], readings, strict=True)):
        _CACHE.move_to_end(key)
        return hit[1]
    exact, mask = _seat_mask(key, readings)
    out = _estimate_of_mask(mask, exact, mask.size)
    told = frozenset().union(*(_measures_of(r.shows) for r in readings
                               if r.shows is not None))
    if "controls" in told:
        out = replace(out, controls=_histogram(mask, exact, "controls", 13))
    if "aces" in told and not exact:  # aces are read on the pool, never exactly
        out = replace(out, aces=_histogram(mask, exact, "aces", 5))
    _CACHE[key] = (readings, out)
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return out


def _seat_mask(key: _Key, readings: list[CallReading]) -> tuple[bool, Array]:
    """The points that fit a seat's ``readings`` (all with a meaning), and whether they
    are the exact space's (:func:`inference.is_exact` of their facts) or the pool's.

    A seat's readings at an auction are its readings one call earlier and one more, so
    the mask is the earlier one's (kept, packed, by the same key as the estimates) and
    the new fact's: the same booleans as all the facts' masks together, without taking
    each earlier fact's mask again. Where the new fact needs the cards and the earlier
    ones did not, the space changes and every fact is read again on the pool."""
    kept = _SEAT_MASKS.get(key)
    if kept is not None and all(_same(a, b) for a, b in zip(kept[0], readings, strict=True)):
        _SEAT_MASKS.move_to_end(key)
        exact, size = kept[1], kept[3]
        return exact, np.unpackbits(kept[2], count=size).astype(bool)
    if not readings:
        exact = True
        mask = np.ones(profile_space().n, dtype=bool)
    else:
        last = readings[-1]
        before_exact, before = _seat_mask(key[:-1], readings[:-1])
        judged = last.step.before is not None
        exact = (before_exact and not judged
                 and (last.shows is None or _measures_of(last.shows) <= EXACT_MEASURES))
        if exact == before_exact:
            mask = before if last.shows is None else (
                before & _fact_mask(last.shows, last.step.context, exact))
        else:
            # The space changes to the pool: every fact is read again on it. No earlier
            # reading is judged here (a judged bid leaves the exact space for good).
            facts = [(r.shows, r.step.context) for r in readings if r.shows is not None]
            mask = fitting(facts, _estimate_pool(), lambda c, ctx: _fact_mask(c, ctx, False))
        if judged:
            mask = judged_filter(last.step, mask)
    _SEAT_MASKS[key] = (list(readings), exact, np.packbits(mask), mask.size)
    if len(_SEAT_MASKS) > _SEAT_MASKS_KEPT:
        _SEAT_MASKS.popitem(last=False)
    return exact, mask


_SEAT_MASKS: OrderedDict[_Key, tuple[list[CallReading], bool, Array, int]] = OrderedDict()
_SEAT_MASKS_KEPT = 4096  # packed: about 7 KB a mask, some 30 MB at most


@dataclass(frozen=True)
class PartnerView:
    """Per hand of a batch: partner's expected HCP and lengths given the bidder's cards."""

    hcp: Array  # (n,)
    hcp_sd: float
    lengths: Array  # (n, 4)
    lengths_sd: Array  # (4,)


def partner_view(seats: Mapping[Seat, SeatEstimate], me: Seat, own_hcp: Array,
                 own_lengths: Array) -> PartnerView:
    """Partner's expectation once the bidder's own cards are known: the three unseen hands
    share exactly what the bidder does not hold (40 HCP and 13 cards a suit).

    The surplus or shortfall is shared by how uncertain each seat is (the mean of three
    normal estimates given their sum): a partner who showed 6-9 stays near 7 opposite a
    19-count, and the opponents, whose passes said little, take the rest. Shares by size
    alone would have read that partner as 5 and the hand would not have moved."""
    partner = seats[me.partner]
    shares = _shares(partner, seats[me.lho], seats[me.rho])
    # Columns: HCP, then the four suits; what is left for the three unseen hands per hand.
    left = np.empty((own_hcp.shape[0], 5), dtype=np.float64)
    left[:, 0] = np.maximum(40.0 - own_hcp.astype(np.float64), 0.0)
    left[:, 1:] = np.maximum(13.0 - own_lengths.astype(np.float64), 0.0)
    expected = _conditioned_columns(shares, left)
    left_hcp, left_len = left[:, 0], left[:, 1:]
    # Never below what partner has shown for certain, never above what is left.
    partner_hcp = np.clip(expected[:, 0], np.minimum(partner.min_hcp, left_hcp), left_hcp)
    partner_len = np.clip(expected[:, 1:], np.minimum(shares.min_lengths, left_len), left_len)
    return PartnerView(partner_hcp, partner.hcp_sd, partner_len, shares.lengths_sd.copy())


@dataclass(frozen=True)
class _Shares:
    """What :func:`partner_view` needs of the three other seats' estimates, whatever the
    bidder holds: worked out once per trio of estimates (a node's judgement asks for it
    at every group, and the estimates are kept objects), not once per call."""

    first: Array  # partner's means (5,)
    mean_sum: Array
    coef: Array
    share: Array
    spread: Array
    min_lengths: Array
    lengths_sd: Array


@lru_cache(maxsize=4096)
def _shares(partner: SeatEstimate, lho: SeatEstimate, rho: SeatEstimate) -> _Shares:
    """Per column (HCP, then each suit): partner's share of the difference between what
    the three seats are expected to hold and what is left (its share of the variance;
    seats known exactly, with no spread at all, share by size)."""
    seats = (partner, lho, rho)
    means = np.array([[s.hcp, *s.lengths] for s in seats])  # (3, 5)
    sds = np.array([[s.hcp_sd, *s.lengths_sd] for s in seats])
    var = sds.astype(np.float64) ** 2
    var_sum = var.sum(axis=0)
    mean_sum = means.sum(axis=0)
    spread = var_sum > 1e-9
    coef = var[0] / np.where(spread, var_sum, 1.0)
    share = means[0] / np.maximum(mean_sum, 1e-9)
    out = _Shares(means[0], mean_sum, coef, share, spread, np.array(partner.min_lengths),
                  np.array(partner.lengths_sd))
    for array in (out.first, out.mean_sum, out.coef, out.share, out.spread,
                  out.min_lengths, out.lengths_sd):
        array.setflags(write=False)  # kept: shared by every view of these estimates
    return out


def _conditioned_columns(shares: _Shares, total: Array) -> Array:
    """Per column, partner's expected value given that the three seats sum to ``total``
    (per hand: (n, k))."""
    by_spread = shares.first + (total - shares.mean_sum) * shares.coef
    out: Array = np.where(shares.spread, by_spread, total * shares.share)
    return out


JUDGED_SAMPLE = 800
"""The pool hands a judged bid is tried on (:func:`judged_filter`): the first of the seat's
hands so far, in the pool's order. Judgement is vectorised over hands, so this many cost
about as much as one decision of the batch bidder."""
JUDGED_FEWEST = 12
"""Fewer of the tried hands than this making the call: the reading is not trusted (the
call is out of character for what the seat has shown) and the bid adds nothing."""


def judged_filter(step: WalkStep, mask: Array) -> Array:
    """The hands of ``mask`` (pool points) with which judgement makes ``step``'s bid in
    the state it was made in: the meaning such a bid has at this table. Players read an
    undiscussed bid by what they themselves would hold to make it; here the other seats
    read it by what the bidder's own judgement bids it with, which is exactly what it
    shows. At most :data:`JUDGED_SAMPLE` hands are tried, and the rest of ``mask`` drops
    out (the estimate is a mean and a spread, which that many read well)."""
    assert step.before is not None
    # decide imports this module (its prospects read the estimates): imported here.
    from bidbox.engine.decide import decide

    tried = np.flatnonzero(mask)[:JUDGED_SAMPLE]
    if tried.size == 0:
        return mask
    hands = HandFeatures(_estimate_pool().masks[tried])
    hit = np.zeros(tried.size, dtype=bool)
    for decision in decide(step.before, hands, {}):
        if decision.call == step.call:
            hit |= decision.mask
    if int(hit.sum()) < JUDGED_FEWEST:
        return mask
    out = np.zeros(mask.size, dtype=bool)
    out[tried[hit]] = True
    return out
