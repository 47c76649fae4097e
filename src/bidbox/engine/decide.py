"""One auction step for every bidder: which call each hand of a batch makes next.

The notes first (the first call in priority order whose meaning fits), then the natural
base (its calls that the notes do not define here), then judgement (forcing discipline
and the captain's placement). The one-hand bidder asks with a batch of one, the batch
bidder with every deal that has reached the same auction; both then advance the walk
with the chosen call, so the two cannot disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from bidbox.core.auction import Auction
from bidbox.core.calls import GAME_LEVEL, PASS, Call, Strain
from bidbox.core.seats import Side
from bidbox.engine.estimate import SeatEstimate, estimate_seat
from bidbox.engine.features import Array, Features, HandFeatures, SubFeatures
from bidbox.engine.judgement import (
    Judgement,
    beyond_game,
    judge,
    major_game,
    notes_slam_try,
    past_slam_try,
    sets_no_ceiling,
    slam_explored,
)
from bidbox.engine.kernels import COLUMN
from bidbox.engine.predicates import TableContext, compile_predicate
from bidbox.engine.walk import BASE, SYSTEM, TableState, candidates, table_context
from bidbox.lang.constraints import Constraint
from bidbox.lang.system import CallEntry, Forcing, Node, System

PLACEMENT = "placement"
"""The source of a call that judgement made where neither the notes nor the base speak."""


@dataclass(frozen=True)
class Decision:
    """A call, the hands of the batch that make it, and who decided it."""

    call: Call
    mask: Array
    entry: CallEntry | None
    source: str  # SYSTEM, BASE or PLACEMENT
    reason: str


def choose_at_node(node: Node, hands: Features, ctx: TableContext, auction: Auction,
                   skip: frozenset[Call] = frozenset()) -> list[tuple[CallEntry, Array]]:
    """For each call at ``node``, the hands (a bool mask) that choose it: priority order,
    first fitting meaning wins. Hands in no mask have no call here. Calls in ``skip``
    (the notes' default pass; at the base's node, every call the notes define) are not
    tried."""
    remaining = np.ones(hands.n, dtype=bool)
    out: list[tuple[CallEntry, Array]] = []
    for entry in candidates(node, ctx):
        if not remaining.any():
            break
        if entry.call in skip or not auction.is_legal(entry.call):
            continue
        hit = remaining & compile_predicate(entry.choose)(hands, ctx)
        if hit.any():
            out.append((entry, hit))
            remaining &= ~hit
    return out


def _defined(entries: list[CallEntry], default_pass: CallEntry | None) -> frozenset[Call]:
    """The calls defined here with a meaning (the notes' default pass aside): judgement
    never makes them, since the table would read them with that meaning, which the hand
    does not fit (it would have chosen the call otherwise).

    Natural game bids that do not force are the exception (:func:`_game_floors`)."""
    return frozenset(e.call for e in entries if e is not default_pass
                     and not _natural_game(e))


def _game_floors(entries: list[CallEntry], ctx: TableContext) -> dict[Call, int]:
    """The natural, non-forcing no-trump games defined here, each with the fewest HCP its
    meaning shows. Judgement may bid such a game for a hand that has the strength but not
    the rest (3NT shown as 19 balanced, for a 19-count with a singleton): partner reads it
    as the placement it is, and without it that hand passes partner's 1NT. A hand below
    the strength has been told by the notes to stop (a minimum declines 2NT), and may not;
    for suit games a hand a little short with the shape is the exception (:func:`_shape_games`)."""
    return {e.call: _fewest_hcp(e.shows, ctx) for e in entries if _natural_game(e)}


def _fewest_hcp(shows: Constraint, ctx: TableContext) -> int:
    """The fewest HCP a meaning shows (asked at every auction step that reaches it)."""
    return _estimate(shows, ctx).min_hcp


@lru_cache(maxsize=4096)
def _estimate(shows: Constraint, ctx: TableContext) -> SeatEstimate:
    """What a meaning shows by itself, kept: asked at every auction step that reaches it."""
    return estimate_seat([(shows, ctx)])


def _shape_games(entries: list[CallEntry], ctx: TableContext) -> dict[Call, tuple[int, int]]:
    """The natural suit games defined here as a sign-off (accepting an invitation, to
    play), each with the fewest HCP and the fewest cards in its suit that its meaning
    shows, which judgement may bid for a hand a little short of the HCP that has the shape
    (:func:`engine.judgement._shape_game_rows`)."""
    out: dict[Call, tuple[int, int]] = {}
    for e in entries:
        call = e.call
        if (call.is_bid and call.strain is not None and call.strain is not Strain.NT
                and GAME_LEVEL[call.strain] <= call.level < 6 and not e.is_artificial
                and not e.is_default_pass
                and e.forcing in (Forcing.SIGNOFF, Forcing.NONFORCING, None)):
            est = _estimate(e.shows, ctx)
            out[call] = (est.min_hcp, est.min_lengths[COLUMN[call.strain]])
    return out


class _OneLonger:
    """The features of ``hands`` with one card more in the suit of ``column``: what a
    meaning that asks for length says of a hand one card short of it."""

    def __init__(self, hands: Features, column: int) -> None:
        self._hands = hands
        self._column = column

    @property
    def n(self) -> int:
        return self._hands.n

    def value(self, name: str) -> Array:
        values = self._hands.value(name)
        if name != "lengths":
            return values
        longer = np.array(values, copy=True)
        longer[:, self._column] += 1
        return longer


def _rescues(entries: list[CallEntry], hands: Features, ctx: TableContext,
             state: TableState) -> dict[Call, Array]:
    """Where our contract has been doubled, the notes' natural sign-offs in a suit (a weak
    rescue, "five or more clubs") with the hands that fit their meaning but for one card
    in the suit, which judgement may bid as a rescue (:func:`engine.judgement.judge`).
    The notes' rescues ask for five cards; a hand with two four-card suits and no points
    had passed 1NT doubled out for 1100 (real boards), where the recorded tables played in
    a suit. Partner reads the call as the notes' sign-off and passes."""
    out: dict[Call, Array] = {}
    auction = state.auction
    last = auction.last_bid_index()
    if (auction.doubled != 1 or last < 0
            or auction.seat_of(last).side is not auction.next_seat.side):
        return out
    # Only a natural contract of ours is rescued: a doubled transfer or relay is answered
    # as the notes say (the pass that denies support is not a contract to escape from).
    doubled = state.steps[last].entry
    if doubled is None or doubled.is_artificial:
        return out
    for e in entries:
        call = e.call
        if (not call.is_bid or call.strain is None or call.strain is Strain.NT
                or e.is_artificial or e.is_default_pass or not auction.is_legal(call)
                or e.forcing not in (Forcing.SIGNOFF, Forcing.NONFORCING)):
            continue
        meaning = compile_predicate(e.choose)
        rows = (meaning(_OneLonger(hands, COLUMN[call.strain]), ctx)
                & ~meaning(hands, ctx))
        if rows.any():
            out[call] = rows
    return out


def _slam_floor(entries: list[CallEntry], ctx: TableContext) -> int | None:
    """The fewest HCP among the natural slams defined here (6NT for a maximum after a
    quantitative 4NT), None when there are none. A hand with fewer has been told by the
    notes to stop below slam, in every strain: a minimum that declines the invitation to
    6NT does not bid 6S instead."""
    floors = [_fewest_hcp(e.shows, ctx) for e in entries
              if e.call.is_bid and e.call.level >= 6 and not e.is_artificial]
    return min(floors) if floors else None


def _natural_game(entry: CallEntry) -> bool:
    """A natural no-trump game that does not force. Only no-trump: a suit game's meaning
    is mostly its fit (4H with support), which a hand without it has not got at all."""
    call = entry.call
    return (call.is_bid and call.strain is Strain.NT
            and GAME_LEVEL[call.strain] <= call.level < 6 and not entry.is_artificial
            and entry.forcing in (Forcing.SIGNOFF, Forcing.NONFORCING, None))


def _system_reason(entry: CallEntry) -> str:
    where = " ".join(map(str, entry.auction[:-1])) or "the opening"
    return (f"{entry.call} after {where}: the first call in priority order whose meaning "
            f"fits ({entry.location})")


def _beyond_game(state: TableState, hands: HandFeatures | SubFeatures, hit: Array,
                 entry: CallEntry, defined: set[Call]) -> list[Decision]:
    """The notes' game sign-off for the hands in ``hit``, except those for which the
    captain bids a slam the notes do not define here."""
    rows = np.flatnonzero(hit)
    judged = beyond_game(state, hands.take(rows), entry.call, defined)
    return _as_decisions(judged, rows, hands.n, entry,
                         f"(the notes sign off in {entry.call} and name no slam route: "
                         f"{entry.location})")


def _past_slam_try(state: TableState, hands: HandFeatures | SubFeatures, hit: Array,
                   entry: CallEntry, slam: Call) -> list[Decision]:
    """The notes' slam try for the hands in ``hit``, except those whose captain bids the
    slam at once (:func:`engine.judgement.past_slam_try`)."""
    rows = np.flatnonzero(hit)
    judged = past_slam_try(state, hands.take(rows), entry.call, slam)
    return _as_decisions(judged, rows, hands.n, entry,
                         f"(the notes' {entry.call} at {entry.location})")


def _as_decisions(judged: list[Judgement], rows: Array, n: int, entry: CallEntry,
                  where: str) -> list[Decision]:
    """Judgements over the hands ``rows`` of a batch of ``n`` as its decisions: the notes'
    own call where judgement kept it, else a placement that says where the notes stood."""
    out = []
    for j in judged:
        mask = np.zeros(n, dtype=bool)
        mask[rows[j.mask]] = True
        if j.call == entry.call:
            out.append(Decision(entry.call, mask, entry, SYSTEM, _system_reason(entry)))
        else:
            out.append(Decision(j.call, mask, None, PLACEMENT, f"{j.reason} {where}"))
    return out


def _major_game(state: TableState, hands: HandFeatures | SubFeatures, hit: Array,
                entry: CallEntry, defined: set[Call]) -> tuple[list[Decision], Array]:
    """The hands of ``hit`` whose captain plays four of a known major fit rather than the
    notes' 3NT sign-off, or the notes' pass of partner's 3NT
    (:func:`engine.judgement.major_game`), and the hands left to the notes' call."""
    if entry.forcing is not Forcing.SIGNOFF or not hit.any():
        return [], hit  # a 3NT that describes (a fit, a maximum) lets partner choose
    if entry.call == THREE_NT:
        calls = entry.node.calls
        if any(e.call != PASS for e in calls) and not any(e.call == PASS for e in calls):
            return [], hit  # partner must answer it: 3NT is never the contract
        # TOSR's weak relay (partner passes with fewer than five controls) is mostly
        # played in 3NT: a known major fit plays there instead, as over any 3NT sign-off.
    elif entry.call == PASS:
        # The notes' pass of partner's 3NT (a relayer playing a shape answer in 3NT): the
        # same choice, the game being the contract the pass leaves.
        auction = state.auction
        last = auction.last_bid_index()
        if (last < 0 or auction.calls[last] != THREE_NT or auction.doubled
                or auction.seat_of(last) is not auction.next_seat.partner):
            return [], hit
    else:
        return [], hit
    rows = np.flatnonzero(hit)
    out = []
    left = hit.copy()
    sub = hands.take(rows)
    # Four of the major is a game like the notes' 3NT: where our side has not explored
    # for slam, the captain still looks past it (a 7-4 heart fit after TOSR's relays
    # stopped in 4H, 6H made).
    explored = slam_explored(state)
    for j in major_game(state, sub, THREE_NT, defined) or []:
        if j.call == THREE_NT:
            continue
        left[rows[j.mask]] = False
        fit = ("" if j.call.strain is Strain.NT else
               f"; the partnership holds eight or more cards in {j.call.strain}")
        if explored:
            past, over = [j], rows
        else:
            picked = np.flatnonzero(j.mask)
            past = [replace(k, reason=j.reason) if k.call == j.call else k
                    for k in beyond_game(state, sub.take(picked), j.call, defined)]
            over = rows[picked]
        # The notes' call here is 3NT or the pass of it, so every call made is a placement.
        out.extend(_as_decisions(past, over, hands.n, entry,
                                 f"(the notes' {entry.call} is at {entry.location}{fit})"))
    return out, left


THREE_NT = Call.bid(3, Strain.NT)


def decide(state: TableState, hands: HandFeatures | SubFeatures,
           systems: Mapping[Side, System]) -> list[Decision]:
    """The calls of the next seat for every hand in ``hands``; the masks partition it."""
    auction = state.auction
    seat = auction.next_seat
    ctx = table_context(auction, len(auction.calls))
    here = state.side(seat)
    remaining = np.ones(hands.n, dtype=bool)
    out: list[Decision] = []
    defined: frozenset[Call] = frozenset()
    judged_entries: list[CallEntry] = []  # whose games judgement may still bid (the notes' last)
    default_pass = None
    if here.node is not None:
        entries = candidates(here.node, ctx)
        judged_entries = entries
        default_pass = next((e for e in entries if e.is_default_pass), None)
        skip = frozenset() if default_pass is None else frozenset({default_pass.call})
        defined = _defined(entries, default_pass)
        for entry, hit in choose_at_node(here.node, hands, ctx, auction, skip):
            remaining &= ~hit
            fitted, hit = _major_game(state, hands, hit, entry, set(defined))
            out.extend(fitted)
            if fitted and not hit.any():
                continue
            if sets_no_ceiling(entry.call, entry.forcing, state):
                out.extend(_beyond_game(state, hands, hit, entry, set(defined)))
                continue
            slam = notes_slam_try(entry)
            if slam is not None:
                out.extend(_past_slam_try(state, hands, hit, entry, slam))
                continue
            out.append(Decision(entry.call, hit, entry, SYSTEM, _system_reason(entry)))
    if remaining.any() and here.base is not None and state.opened:
        rest = np.flatnonzero(remaining)
        base_entries = candidates(here.base, ctx)
        # The base's catch-all pass says "nothing natural to add": judgement decides.
        base_pass = next((e for e in base_entries if e.is_default_pass), None)
        base_skip = defined | ({base_pass.call} if base_pass is not None else set())
        for entry, hit in choose_at_node(here.base, hands.take(rest), ctx, auction,
                                         frozenset(base_skip)):
            mask = np.zeros(hands.n, dtype=bool)
            mask[rest[hit]] = True
            out.append(Decision(entry.call, mask, entry, BASE,
                                f"natural base: {_system_reason(entry)}"))
            remaining &= ~mask
        defined = defined | _defined(base_entries, base_pass)
        judged_entries = base_entries + judged_entries
        if default_pass is None and base_pass is not None:
            default_pass = base_pass
    if remaining.any():
        rest = np.flatnonzero(remaining)
        left = hands.take(rest)
        floors = _game_floors(judged_entries, ctx)
        for judged in judge(state, left, systems, set(defined),
                            default_pass is not None, floors,
                            _slam_floor(judged_entries, ctx),
                            _shape_games(judged_entries, ctx),
                            _rescues(judged_entries, left, ctx, state)):
            mask = np.zeros(hands.n, dtype=bool)
            mask[rest[judged.mask]] = True
            # A judged pass where the notes give a default pass is read as that pass.
            read_as = default_pass if judged.call == PASS else None
            out.append(Decision(judged.call, mask, read_as, PLACEMENT, judged.reason))
    return out
