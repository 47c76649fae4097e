"""Bridge judgement where the notes stop: forcing discipline and the captain's placement.

Every set of notes assumes its players know bridge. Where neither the notes nor the
natural base give a hand a call, a player still decides, and decides by what it holds
and what partner has shown:

- **Obligations first.** Partner's forcing call (with the right-hand opponent silent),
  partner's artificial call as our contract, or a game force not yet fulfilled: pass is
  not an option. Partner's sign-off, or partner's own judgement call (partner placed the
  contract), is respected: pass, unless the opponents have bid since.
- **The captain's placement.** Otherwise the hand weighs every contract it may still
  name, and passing, by its expected score: tricks in each strain estimated by the trick
  model (``engine.tricks``, built from double-dummy solutions) from the partnership's
  combined HCP and suit lengths (own cards plus partner's expectation, ``engine.estimate``),
  spread by the model's error and partner's uncertainty, then scored with the real
  scoring table at the table's vulnerability. Defending the opponents' contract is
  weighed the same way from our tricks in their strain.
- Calls that the notes or the base define here with another meaning are not used for a
  placement, so the walk reads every call the way the bidder meant it.

All of it runs on a batch of hands at once, so the one-hand and the batch bidder share it.
"""

from __future__ import annotations

import json
import math
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from importlib import resources
from typing import TypeVar

import numpy as np

from bidbox.core.auction import Auction
from bidbox.core.calls import ALL_BIDS, DOUBLE, GAME_LEVEL, PASS, Call, CallKind, Strain
from bidbox.core.scoring import imps_array, score_table
from bidbox.core.seats import Seat, Side
from bidbox.engine import kernels
from bidbox.engine.estimate import (
    SHOWN_FIT,
    PartnerView,
    SeatEstimate,
    estimate_seats,
    partner_view,
    side_shown_length,
)
from bidbox.engine.features import Array, Features
from bidbox.engine.predicates import TableContext
from bidbox.engine.tricks import (
    TrickModelError,
    estimate_tricks,
    interpolate,
    trick_model_info,
)
from bidbox.engine.walk import (
    DESCRIBE_LENGTH,
    JUDGED_LENGTH,
    TableState,
    WalkStep,
    described,
    table_context,
)
from bidbox.lang.system import CallEntry, Forcing, System

_COLUMN = kernels.COLUMN
"""Strain -> column of the trick model's output (S, H, D, C, NT), and for a suit, of the
per-suit measures (``lengths``, ``stoppers``: S, H, D, C)."""


@dataclass(frozen=True)
class Judgement:
    """The calls judgement makes for a batch of hands, each with the hands and why."""

    call: Call
    mask: Array
    reason: str


def obligation(state: TableState, pass_defined: bool = False) -> str:
    """What binds the next seat: 'free', 'forced' (may not pass), 'respect' (pass: partner
    has placed or signed off) or 'invited' (partner's judged game try: pass or game), from
    its side's calls as the walk read them.
    ``pass_defined``: the notes list a pass here, so partner's artificial call may be
    passed (a transfer opening that responder may leave in, say). Kept per walk state:
    it reads only the calls so far, and every group and later batch judging there asks."""
    kept = _OBLIGATIONS.get(id(state))
    if kept is not None and kept[0] is state and pass_defined in kept[1]:
        return kept[1][pass_defined]
    out = _obligation(state, pass_defined)
    if kept is not None and kept[0] is state:
        kept[1][pass_defined] = out
    else:
        _keep(_OBLIGATIONS, state, {pass_defined: out})
    return out


def _obligation(state: TableState, pass_defined: bool) -> str:
    auction = state.auction
    seat = auction.next_seat
    if not state.opened:
        return "respect"  # openings are the notes' alone
    n = len(auction.calls)
    if n >= 2 and not auction.calls[-1].is_bid and _is_cue_try(state.steps, n - 2):
        # Partner's control bid, doubled or not, under a game force or not: answered as
        # a slam try (on towards slam, or four of the major).
        return "invited"
    if state.side(seat).game_forced:
        return "forced"
    if _own_placement_doubled(state):
        return "respect"
    partner = state.last[seat.partner]
    rho_quiet = bool(auction.calls) and auction.calls[-1] == PASS
    rho_no_bid = bool(auction.calls) and not auction.calls[-1].is_bid
    last_index = auction.last_bid_index()
    contract_ours = _contract_ours(auction)
    if (partner is not None and partner.call.kind is CallKind.PASS and rho_quiet
            and partner.entry is not None and partner.entry.is_forcing_pass):
        # Partner's forcing pass (TOSR's positive pass over interference of the strong
        # club) is a call like any forcing one: where the notes give no continuation we
        # still may not pass (opener had passed it, defending 1S undoubled with 26 HCP).
        return "forced"
    if partner is not None and partner.call.kind is not CallKind.PASS:
        if (partner.entry is None and rho_quiet
                and (is_invitation(auction.calls[:partner.index], partner.call)
                     or _is_slam_try(state.steps, partner.index))):
            return "invited"
        if (partner.entry is None and rho_no_bid
                and _spoke_before(auction, seat, partner.index)
                and not _forced_answer(state, partner)
                and not _competing(state, partner)):
            # Partner's own judgement placed the contract; a double of it does not
            # release us (running from a doubled placement starts a rescue war). Only
            # a placement made after hearing us, though: partner's overcall before our
            # first call guessed at our hand, and we may still bid the game it missed.
            # Nor a call our forcing call made partner find: it answered, it did not
            # choose the contract, and we who forced are the captain. Partner's penalty
            # double is left in too: judging it freely instead changed 430 of 8,000
            # dealt deals and no IMPs (bench_doubles.py, sbu-level1, seeds 61 and 62).
            return "respect"
        if partner.entry is not None:
            forcing = partner.entry.forcing
            if rho_quiet and forcing is not None and forcing.is_forcing:
                return "forced"
            if rho_quiet and forcing is Forcing.SIGNOFF:
                return "respect"
            if (contract_ours and auction.seat_of(last_index) is seat.partner
                    and partner.entry.is_artificial and auction.doubled < 2
                    and not pass_defined):
                return "forced"  # never leave partner in an artificial call
    own = state.steps[last_index].entry if last_index >= 0 else None
    if (contract_ours and auction.seat_of(last_index) is seat and own is not None
            and own.is_artificial and _unshown_suit(state, auction.calls[last_index])):
        # Nor our own, in a suit we have not shown, even where the notes end in a
        # catch-all pass: the strong club doubled and partner's redouble (0-4) came back
        # to the opener, who passed and played 1C redoubled on four clubs between us.
        return "forced"
    return "free"


def _unshown_suit(state: TableState, call: Call) -> bool:
    """Whether ``call`` names a suit in which our side's calls have not shown seven cards
    between us (the least each partner promises): a relay passed by partner with the
    suit names a contract, a strong club does not."""
    if call.strain is None or call.strain is Strain.NT:
        return False
    return side_shown_length(estimate_seats(state), state.next_seat, call.strain) < SHOWN_FIT


def _own_placement_doubled(state: TableState) -> bool:
    """Whether the contract is our side's judged bid, doubled, and its bidder is to call
    or has passed the double: he chose it knowing what he held (a sacrifice, a competitive
    bid), sat for the double, and running from it now only starts a rescue war (4S X,
    5C X, 5S X on dealt deals once sacrifices over a game force were doubled)."""
    auction = state.auction
    calls = auction.calls
    last_index = auction.last_bid_index()
    if auction.doubled != 1 or last_index < 0 or state.steps[last_index].entry is not None:
        return False
    bidder = auction.seat_of(last_index)
    if bidder.side is not auction.next_seat.side:
        return False
    double = max(i for i, c in enumerate(calls) if c.kind is CallKind.DOUBLE)
    return bidder is auction.next_seat or any(
        auction.seat_of(i) is bidder for i in range(double + 1, len(calls)))


def _answers_our_ask(state: TableState) -> bool:
    """Whether partner's last call, artificial, answered an artificial forcing call of
    ours (Stayman, a relay, an ask) with the opponent between passing: the answer tells
    us partner's hand, not a strain to play, and the asker places the contract (canary's
    1NT-2C-2D was passed by an 8-count; real boards)."""
    partner = state.last[state.next_seat.partner]
    if partner is None or partner.entry is None or not partner.entry.is_artificial:
        return False
    if not _forced_answer(state, partner):
        return False
    ours = state.steps[partner.index - 2].entry  # not None: _forced_answer read it
    return ours is not None and ours.is_artificial


def _forced_answer(state: TableState, partner: WalkStep) -> bool:
    """Whether partner's judged call answered a forcing call of ours: our last call
    before it forced one round (or more) and the opponent between passed."""
    if partner.index < 2:
        return False
    ours = state.steps[partner.index - 2]  # seats alternate: two calls back is ours
    if ours.entry is None:
        return False
    forcing = ours.entry.forcing
    return (forcing is not None and forcing.is_forcing
            and state.auction.calls[partner.index - 1] == PASS)


def _competing(state: TableState, partner: WalkStep) -> bool:
    """Whether partner's judged call is a suit bid below game in an auction the opponents
    have bid in: partner competed with length and values, not a final choice."""
    call = partner.call
    if not call.is_bid or call.strain in (None, Strain.NT) or call.level >= GAME_LEVEL[call.strain]:
        return False
    side = partner.seat.side
    return any(step.seat.side is not side and step.call.is_bid
               for step in state.steps[:partner.index])


def _spoke_before(auction: Auction, seat: Seat, index: int) -> bool:
    """Whether ``seat`` made a call (a pass included) before the call at ``index``."""
    return any(auction.seat_of(i) is seat for i in range(index))


def trick_distribution(mean: Array, sd: Array) -> Array:
    """P(tricks = k), k = 0..13, for normal estimates ``mean``/``sd`` of any shape (...)."""
    return kernels.trick_distribution(mean, sd)


@cache
def _model_rmse() -> tuple[float, float]:
    """The trick model's own error on deals it was not built from (suit, NT)."""
    held_out = trick_model_info()["evaluation"]["holdout"]
    return float(held_out["suit"]["model"]["rmse"]), float(held_out["nt"]["model"]["rmse"])


def _sd_for(view: PartnerView, n: int) -> Array:
    """Per hand and strain: the model's own error and what partner's spread adds to it."""
    suit, nt = _model_rmse()
    rmse = np.array([suit] * 4 + [nt], dtype=np.float64)
    sd = np.sqrt(rmse ** 2 + _partner_variance(view))
    return np.broadcast_to(sd, (n, 5)).copy()


def _partner_variance(view: PartnerView) -> Array:
    """Per strain (5,): the variance in tricks that partner's unknown cards add."""
    hcp_part = (view.hcp_sd / 3.0) ** 2  # about a trick per three HCP
    length_part = np.concatenate([(view.lengths_sd * 0.5) ** 2, [0.0]])
    out: Array = hcp_part + length_part
    return out


def expected_scores(auction: Auction, options: list[Call], probs: Array, vul: bool,
                    they_vul: bool, contested: bool) -> Array:
    """(n, len(options)) expected score for our side of each option, given ``probs``
    (n, 5, 14): the distribution of our tricks by strain column."""
    return kernels.expected_scores(options, probs, auction.last_bid, auction.doubled,
                                   _contract_ours(auction), vul, they_vul, contested)


def judge(state: TableState, hands: Features, systems: Mapping[Side, System],
          defined: set[Call], default_pass: bool = False,
          floors: Mapping[Call, int] | None = None,
          slam_floor: int | None = None,
          shape_games: Mapping[Call, tuple[int, int]] | None = None,
          rescues: Mapping[Call, Array] | None = None) -> list[Judgement]:
    """The call for each hand of ``hands`` that neither the notes nor the base give one.
    ``defined``: the calls the notes and base define here with a meaning the hand did not
    fit (not used for a placement); ``default_pass``: the notes end here with a pass of
    any hand, which judgement may make; ``floors``: games the notes define for other
    hands that a hand with at least these HCP may still bid as a placement;
    ``shape_games``: the notes' suit games by (fewest HCP, fewest cards in the suit),
    which a hand a little short of the HCP may bid on shape (:func:`_shape_game_rows`);
    ``rescues``: the notes' natural sign-offs out of our doubled contract, with the hands
    one card short of the length they ask for, which may bid them where the estimate
    prefers that suit to the doubled contract (``engine.decide._rescues``)."""
    auction = state.auction
    everyone = np.ones(hands.n, dtype=bool)
    if _pending_ask(state.steps):
        return _answer_aces(hands)
    if _answered_ask(state) is not None:
        return after_ace_answer(state, hands)
    # The notes' catch-all pass lets partner's artificial call stand (a transfer opening
    # left in by a weak hand), but not an answer to our own ask: we asked, we place.
    duty = obligation(state, PASS in defined or (default_pass and not _answers_our_ask(state)))
    if duty == "respect" or hands.n == 0:
        partner = state.last[auction.next_seat.partner]
        why = ("no opening fits: pass" if not state.opened else
               "partner doubled them for penalty: pass, we defend"
               if partner is not None and partner.call == DOUBLE and partner.entry is None
               else "partner has placed the contract (or signed off): pass")
        return [Judgement(PASS, everyone, why)]
    if duty == "invited":
        return _answer_invitation(state, hands, defined)
    options = _options(state, duty, defined)
    if not options:
        return [Judgement(PASS, everyone, "no legal call is left: pass")]
    p = _prospects(state, hands)
    shaped = _shape_game_rows(state, hands, p, shape_games or {}, options)
    rescued = {c: rows for c, rows in (rescues or {}).items()
               if c not in options and c not in shaped}
    options = options + list(shaped) + list(rescued)
    # The defined bids are weighed too, as ceilings: a hand whose best contract is one the
    # notes reserve for other hands (6NT for a maximum) stays below it rather than jumping
    # past it.
    reserved = [b for b in _reserved_bids(auction, defined) if b not in options]
    weighed = options + reserved
    ev = expected_scores(auction, weighed, p.probs, p.ctx.vul, p.ctx.they_vul, p.contested)
    mixed = ace_mixed(p, hands)
    # A slam is valued on the distribution that sees the aces and the shape, which the
    # points-only one cannot: a singleton opposite a fit is a trick, two flat hands lose one.
    slams = [j for j, c in enumerate(weighed) if c.is_bid and c.level >= 6]
    if slams:
        ev[:, slams] = expected_scores(auction, [weighed[j] for j in slams], mixed, p.ctx.vul,
                                       p.ctx.they_vul, p.contested)
    tries = _tries_in_reach(state, p)
    invitations = [j for j, c in enumerate(options) if is_invitation(auction.calls, c)]
    try_columns = [options.index(c) for c in sorted(tries, key=lambda c: c.rank)
                   if c in options]
    invitations += try_columns
    for j in invitations:
        ev[:, j] = _invitation_value(auction, options[j], p, p.seats[auction.next_seat.partner],
                                     hands, _try_contracts(state, options[j]))
    top = np.argmax(ev, axis=1)
    ranks = np.array([c.rank for c in weighed])  # -1 for pass and double
    ceiling = np.where(top >= len(options), ranks[top], 99)
    for call, rows in shaped.items():
        # For the hands without the shape it is still the notes' game for stronger hands.
        j = options.index(call)
        ceiling = np.where((top == j) & ~rows, np.minimum(ceiling, call.rank), ceiling)
    allowed = ranks[None, :len(options)] < ceiling[:, None]
    for call, rows in (shaped | rescued).items():  # only the hands they were added for
        allowed[~rows, options.index(call)] = False
    # A slam only where it is odds-on, as past the notes' game (beyond_game): the
    # expected score alone bids 50% slams, which the spread of partner's cards makes
    # worse than they look.
    allowed &= _blind_slam_ok(options, mixed, _all_aces_told(p, hands))
    allowed &= _slam_fit(state, hands, p, options)
    for j in try_columns:
        allowed[:, j] &= _try_ok(state, p, hands, options[j])
    # A control bid is a slam try whenever partner reads it so: never a contract.
    for j, call in enumerate(options):
        if j not in try_columns and call in cue_tries_now(state):
            allowed[:, j] = False
    # A game the notes give only to stronger hands is a ceiling for the weaker ones, as
    # any call the notes reserve: what is not enough for their 3NT is not enough for 4NT.
    # And a misfit is not the shape to relax: a singleton in partner's long suit keeps
    # the notes' no-trump game for the hands they give it to (3NT over partner's 3H).
    # No-trump in competition needs their suit stopped: the trick model counts the
    # partnership's points, not a suit the opponents run first (3NT with 43 in their
    # clubs, 4H cold). The hand bidding it holds the stopper, unless partner has bid
    # no-trump over their suit.
    unstopped = _unstopped(state, hands)
    if unstopped is not None:
        # A strong partner (a strong club, a 2C opener) holds most stoppers himself.
        unstopped &= p.view.hcp < STRONG_PARTNER
        no_trump = np.array([c.is_bid and c.strain is Strain.NT for c in options])
        allowed[unstopped] &= ~no_trump[None, :]
    if floors:
        misfit = _short_in_partners_suits(p.seats[auction.next_seat.partner], hands)
        for call, floor in floors.items():
            weaker = (p.own_hcp < floor) | misfit
            allowed[weaker] &= ranks[None, :len(options)] < call.rank
    if slam_floor is not None:
        # The notes give their slam to stronger hands (accept a quantitative 4NT with a
        # maximum): a weaker hand stops below slam in every strain (6S on a minimum
        # opposite 1NT-2C-2H-4NT went down; real boards).
        levels = np.array([c.level if c.is_bid else 0 for c in options])
        allowed[p.own_hcp < slam_floor] &= levels[None, :] < 6
    _natural_lengths(state, hands, options, allowed)
    _takeout_kept(state, hands, options, allowed)
    ev_allowed = np.where(allowed, ev[:, :len(options)], -np.inf)
    best = np.argmax(ev_allowed, axis=1)
    out = _judgements(options, best, duty, p, _contract_ours(auction),
                      {options[j] for j in invitations})
    out = _name_cues(state, p, out)
    out = [replace(j, reason=f"rescue from {auction.last_bid} doubled, a card short of "
                   f"the notes' sign-off in {j.call.strain}: {j.reason}")
           if j.call in rescued else j for j in out]
    if DOUBLE not in defined and sacrifice_over_our_game(state):
        out = [_doubled_sacrifice(j, auction) if j.call == PASS else j for j in out]
    elif DOUBLE not in defined:
        out = _penalty_doubles(state, p, out)
    may_ask = None if slam_floor is None else p.own_hcp >= slam_floor
    out = _with_ace_ask(state, hands, p, defined, out, may_ask)
    out = explore_major(state, hands, p, defined, out, duty)
    return describe(state, hands, p, defined, out)


TAKEOUT_TAGS = frozenset({"takeout", "negative", "responsive"})
"""Tags of a double that asks partner to bid: partner passes it only to defend."""


def _takeout_standing(state: TableState) -> Call | None:
    """Their suit contract when partner's last call doubled it for takeout (a takeout,
    negative or responsive double) and the opponent after passed: the contract that a
    pass would leave in, doubled. A double two calls back with a pass since is of their
    bid, and the contract stands doubled, so neither needs checking."""
    auction = state.auction
    partner = state.last[auction.next_seat.partner]
    if (partner is None or partner.call.kind is not CallKind.DOUBLE or partner.entry is None
            or not TAKEOUT_TAGS & set(partner.entry.tags) or auction.calls[-1] != PASS
            or partner.index != len(auction.calls) - 2):
        return None
    last = auction.last_bid
    if last is None or last.strain in (None, Strain.NT):
        return None
    return last


def _takeout_kept(state: TableState, hands: Features, options: list[Call],
                  allowed: Array) -> None:
    """Partner's takeout double is left in only by a hand that wants to defend with their
    suit as trumps: five of it at the one level, four at the two and three. The trick
    model reads our length in their suit as the partnership's, and three small with
    values behind it looked like a penalty (1S 2C X passed by opener with K32: 2C doubled
    made). Without the length we bid, as every partnership expects of a takeout double.
    From the four level up a double is as much for penalty as for takeout (their
    pre-empt doubled: partner passes with defence and no suit), so judgement decides.
    Dealt deals (8,000, seed 61, against the engine before): magic-dlight +0.022
    [+0.008, +0.035] IMPs a deal, canary +0.011 [+0.005, +0.017], sbu-level1 and tosr
    +0.009 [-0.002, +0.019] and [-0.001, +0.019]."""
    if PASS not in options:
        return
    theirs = _takeout_standing(state)
    if theirs is None or theirs.level >= 4:
        return
    assert theirs.strain is not None
    length = hands.value("lengths")[:, _COLUMN[theirs.strain]]
    need = 5 if theirs.level == 1 else 4
    allowed[:, options.index(PASS)] &= length >= need


def _natural_lengths(state: TableState, hands: Features, options: list[Call],
                     allowed: Array) -> None:
    """Bar (in place) each judged bid that partner reads as natural length
    (:func:`walk.described`: a new suit below 3NT) for the hands short of that length, so
    that what partner reads is what the hand holds. A hand left with no allowed call
    keeps its calls (a forced bid with nothing natural to say)."""
    if state.side(state.auction.next_seat).game_forced:
        return  # describe() makes those bids, with their lengths
    lengths = None
    barred = np.zeros_like(allowed)
    for j, call in enumerate(options):
        told = described(state, call) if call.is_bid else None
        if told is None:
            continue
        if lengths is None:
            lengths = np.asarray(hands.value("lengths"), dtype=np.int64)
        barred[:, j] = lengths[:, _COLUMN[told[0]]] < told[1]
    if lengths is None:
        return
    keeps = (allowed & ~barred).any(axis=1)
    allowed[keeps] &= ~barred[keeps]


def describe(state: TableState, hands: Features, p: _Prospects, defined: set[Call],
             judged: list[Judgement]) -> list[Judgement]:
    """``judged`` with a suit described first, under a game force, by the hands that would
    place a game below slam with no known major fit, as :func:`walk.described` reads it:
    a five-card suit the side has not bid, or a six-card suit of the bidder's own bid
    again, at the cheapest level below 3NT (a new major first, then a rebid six-card suit,
    then a new minor; the longer, then the higher). Placing 3NT at once left a 5-3 major
    fit unfound and told partner nothing to judge a slam on (magic-dlight's 1D positives
    placed 3NT or a blind 6NT on the first rebid); described, the suit is partner's to
    raise, and partner, captain then, places with the fit known. Slams, the ace ask and
    hands with nothing to describe stay as judged; so does a raise of partner's suit
    below game (with the fit known the placement bids the game or weighs the slam)."""
    auction = state.auction
    if not state.side(auction.next_seat).game_forced or auction.last_bid is None:
        return judged
    last = auction.last_bid
    assert last.strain is not None
    shown: list[tuple[Strain, int, Call]] = []
    for strain in _SUIT_OF_COLUMN:  # S, H, D, C
        level = _cheapest_level(last, strain)
        if level > 3:
            continue
        call = Call.bid(level, strain)
        if call in defined or not auction.is_legal(call):
            continue
        told = described(state, call)
        if told is not None and told[1] >= DESCRIBE_LENGTH:  # not a raise: see the docstring
            shown.append((strain, told[1], call))
    if not shown:
        return judged
    lengths = np.asarray(hands.value("lengths"), dtype=np.int64)
    fits = _known_fits(state, hands, p.seats)
    free = ~(fits[:, 0] | fits[:, 1])
    placing = np.zeros(hands.n, dtype=bool)
    for j in judged:
        c = j.call
        if (c.is_bid and c.strain is not None and c != BLACKWOOD
                and GAME_LEVEL[c.strain] <= c.level < 6):
            placing |= j.mask
    score = np.full((hands.n, len(shown)), -1, dtype=np.int64)
    for k, (strain, least, _) in enumerate(shown):
        length = lengths[:, _COLUMN[strain]]
        major = strain in (Strain.S, Strain.H)
        order = 100 if major and least == DESCRIBE_LENGTH else 50 if least > DESCRIBE_LENGTH else 0
        score[:, k] = np.where(length >= least, order + 10 * length + int(strain), -1)
    best = np.argmax(score, axis=1)
    shows = placing & free & (score.max(axis=1) >= 0)
    if not shows.any():
        return judged
    out = [replace(j, mask=j.mask & ~shows) for j in judged if (j.mask & ~shows).any()]
    for k, (strain, least, call) in enumerate(shown):
        rows = shows & (best == k)
        if rows.any():
            what = "rebids" if least > DESCRIBE_LENGTH else "shows"
            out.append(Judgement(call, rows, f"under the game force: {_held(p, rows)}, no "
                                 f"known major fit; {what} {least} or more {strain.name} "
                                 f"before placing the game"))
    return out


def _cheapest_level(last: Call, strain: Strain) -> int:
    """The level of the cheapest bid of ``strain`` over the bid ``last`` (8 past 7NT)."""
    assert last.strain is not None
    return last.level if strain > last.strain else last.level + 1


def explore_major(state: TableState, hands: Features, p: _Prospects, defined: set[Call],
                  judged: list[Judgement], duty: str) -> list[Judgement]:
    """``judged`` with a four-card major shown first by the hands that must bid (partner's
    forcing call, no game force) and would bid no-trump below 4NT with no known major fit:
    the major at the one or two level below that no-trump bid, in a suit nobody has
    named, hearts first with both. Partner
    reads a judged new suit as four or more (:func:`walk.described`) and places with the
    fit known; no-trump at once left a 4-4 major fit unfound (canary
    1C P 1D P 2D P: 9874.AJ5.T8.J975 tried 2NT, partner bid 3NT, 4S made)."""
    auction = state.auction
    if (duty != "forced" or state.side(auction.next_seat).game_forced
            or auction.last_bid is None):
        return judged
    # Partner's own natural forcing call: partner, unlimited, is the captain and places
    # over the major. After partner's artificial answer to our ask we are the captain and
    # place ourselves (1NT 2C 2D: the asker's 2S was passed, 3NT was on).
    partner = state.last[auction.next_seat.partner]
    if (partner is None or partner.entry is None or partner.entry.is_artificial
            or partner.entry.forcing is not Forcing.FORCING):
        return judged
    last = auction.last_bid
    assert last.strain is not None
    nt = np.zeros(hands.n, dtype=bool)
    nt_rank = np.full(hands.n, 99)
    for j in judged:
        c = j.call
        if c.is_bid and c.strain is Strain.NT and c.level <= 3:  # not 4NT: an ask
            nt |= j.mask
            nt_rank = np.where(j.mask, c.rank, nt_rank)
    if not nt.any():
        return judged
    fits = _known_fits(state, hands, p.seats)
    lengths = np.asarray(hands.value("lengths"), dtype=np.int64)
    shows = np.zeros(hands.n, dtype=bool)
    out = list(judged)
    named = {c.strain for c in auction.calls if c.is_bid}
    for strain in (Strain.H, Strain.S):
        level = _cheapest_level(last, strain)
        # Only at the two level and in a suit nobody has named, artificially or not: at
        # the three level partner's raise with three cards is a game on a 4-3 fit, and
        # after partner's artificial answer in the suit the fit is a guess.
        if level > 2 or strain in named:
            continue
        call = Call.bid(level, strain)
        if call in defined or not auction.is_legal(call):
            continue
        told = described(state, call)
        if told is None or told[1] != JUDGED_LENGTH:
            continue
        rows = (nt & ~shows & (call.rank < nt_rank) & ~fits[:, 0] & ~fits[:, 1]
                & (lengths[:, _COLUMN[strain]] >= JUDGED_LENGTH))
        if not rows.any():
            continue
        shows |= rows
        out = [replace(j, mask=j.mask & ~rows) for j in out if (j.mask & ~rows).any()]
        out.append(Judgement(call, rows, f"forced to bid: {_held(p, rows)}, no known major "
                             f"fit; shows four or more {strain.name} before no-trump"))
    return out


SHAPE_POINTS = 2
"""HCP below a suit game's floor that a hand with a known fit may still bid it for: a
fifth trump and a doubleton are worth about a king, which the notes' point counts for
accepting do not see (the trick model does, from the combined lengths)."""


def _shape_game_rows(state: TableState, hands: Features, p: _Prospects,
                     games: Mapping[Call, tuple[int, int]], options: list[Call]
                     ) -> dict[Call, Array]:
    """Per suit game the notes define here as a sign-off, the hands that may bid it as a
    placement although their HCP fall short of its meaning: at most :data:`SHAPE_POINTS`
    short, with the cards its meaning asks for in the suit, a known fit of eight or more
    and a fifth trump or a doubleton. The estimate then decides, as for any placement;
    partner reads the call as the sign-off it is. A hand with the HCP that still did not
    fit the meaning lacks something else the notes ask for and keeps their verdict. (After
    1H P 1S P 3S P, KT975.T2.A3.9653 is a point short of the notes' 8+ and bids 4S.)"""
    out: dict[Call, Array] = {}
    if not games:
        return out
    fits = _known_fits(state, hands, p.seats)
    lengths = hands.value("lengths")
    for call, (floor, length) in games.items():
        if call in options or not state.auction.is_legal(call):
            continue
        assert call.strain is not None
        column = _COLUMN[call.strain]
        # The shape that makes up for the points: a fifth trump or a doubleton (a flat
        # 4333 is worth its points and no more).
        shape = (lengths[:, column] >= 5) | (lengths.min(axis=1) <= 2)
        rows = (fits[:, column] & (lengths[:, column] >= length) & shape
                & (p.own_hcp >= floor - SHAPE_POINTS) & (p.own_hcp < floor))
        if rows.any():
            out[call] = rows
    return out


def sacrifice_over_our_game(state: TableState) -> bool:
    """Whether the opponents have bid over the game our game force reached, and the next
    call, a pass, would end the auction: a game-forcing side that bid its game does not
    let them play undoubled (the forcing pass, which partner's pass before this one was).
    Their bid is a sacrifice against a game both of us said we can make, so the last of
    us to speak doubles unless he bids on."""
    auction = state.auction
    calls = auction.calls
    last_index = auction.last_bid_index()
    side = auction.next_seat.side
    if (last_index < 0 or auction.doubled or len(calls) - last_index != 3
            or auction.seat_of(last_index).side is side
            or calls[-1] != PASS or calls[-2] != PASS):
        return False
    ours = [step for step in state.steps[:last_index] if step.seat.side is side]
    if not any(step.entry is not None and step.entry.forcing is Forcing.GAME_FORCING
               for step in ours):
        return False
    return any(step.call.is_bid and step.call.strain is not None
               and step.call.level >= GAME_LEVEL[step.call.strain] for step in ours)


def _doubled_sacrifice(judged: Judgement, auction: Auction) -> Judgement:
    last = auction.last_bid
    return Judgement(DOUBLE, judged.mask,
                     f"penalty: our game force bid game and they sacrificed in {last}; "
                     f"rather than let them play it undoubled ({judged.reason})")


PENALTY_GAIN = 1.5
"""Expected IMPs a judged penalty double must gain over a pass of the same contract."""
PENALTY_LEVEL = 2
"""The lowest level of their contract that judgement doubles for penalty."""
PENALTY_SIDES: frozenset[Side] = frozenset(Side)
"""The sides whose judgement makes penalty doubles. Both, in play; a match of the engine
against itself without them gives them to one team only (benchmarks/bench_doubles.py),
since a par-distance benchmark cannot score a double: it punishes the declarers' overbid
further, which moves the table away from par."""


def _penalty_doubles(state: TableState, p: _Prospects, judged: list[Judgement]
                     ) -> list[Judgement]:
    """``judged`` with a penalty double, in place of the pass, for the hands that expect
    to beat the opponents' contract by enough: where the notes and base give the double
    no meaning here and their bid looks like their contract (:func:`_final_looking`), a
    player who would defend anyway doubles when the expected IMPs of the double against
    the pass reach :data:`PENALTY_GAIN`. Their tricks are read from ours as declarer in
    their strain through the defence calibration (:func:`defence_tricks`): taken as they
    stand (13 less ours) they were overconfident, 60-80% "to beat" contracts that went
    down about half the time. Our own bids are already weighed as doubled when two down
    in a contested auction (kernels.score_rows); without the double the opponents'
    sacrifices cost them less than the same model charges ours."""
    auction = state.auction
    last = auction.last_bid
    if (last is None or last.strain is None or last.level < PENALTY_LEVEL
            or auction.next_seat.side not in PENALTY_SIDES or _contract_ours(auction)
            or auction.doubled or not auction.is_legal(DOUBLE) or not _final_looking(state)):
        return judged
    passing = next((j for j in judged if j.call == PASS), None)
    if passing is None:
        return judged
    theirs = defence_tricks(state, p.probs[:, _COLUMN[last.strain]])
    gain = theirs @ _double_gain(last, p.ctx.they_vul)
    doubling = passing.mask & (gain >= PENALTY_GAIN)
    if not doubling.any():
        return judged
    down = theirs[doubling, :last.level + 6].sum(axis=1)
    out = [replace(j, mask=j.mask & ~doubling) if j.call == PASS else j for j in judged]
    out = [j for j in out if j.mask.any()]
    out.append(Judgement(DOUBLE, doubling,
                         f"penalty: {_held(p, doubling)}; about {down.mean():.0%} to beat "
                         f"{last}, {gain[doubling].mean():+.1f} IMPs on average against "
                         f"passing it"))
    return out


def defence_features(state: TableState, ours: Array) -> Array:
    """(n, k): the defence calibration's features (``defence_tricks.json``, in its order)
    for the hands whose distribution of our tricks as declarer in the opponents' strain
    is ``ours`` (n, 14), their last bid standing: a constant, our raw estimate of their
    tricks (13 less our expected ones), whether judgement chose their contract, whether
    it is a game, a slam, at the five level, and whether our side has called (other than
    pass) in the auction."""
    auction = state.auction
    index = auction.last_bid_index()
    last = auction.calls[index]
    assert last.strain is not None
    side = auction.seat_of(index).side
    raw = 13.0 - ours @ np.arange(14.0)
    seats = [step.seat for step in state.steps]
    flags = [state.steps[index].entry is None,
             last.level >= GAME_LEVEL[last.strain],
             last.level >= 6,
             not _they_passed(auction.calls, seats, side),
             last.level == 5]
    out = np.empty((len(raw), 2 + len(flags)))
    out[:, 0] = 1.0
    out[:, 1] = raw
    out[:, 2:] = np.array(flags, dtype=np.float64)[None, :]
    return out


def defence_tricks(state: TableState, ours: Array) -> Array:
    """(n, 14): the chance of each number of tricks for the opponents' contract standing,
    from ``ours`` (n, 14), our tricks as declarer in their strain: the calibrated mean
    (:func:`defence_features` times the shipped coefficients) and the held-out spread."""
    coef, sd = _defence_model()
    mean = defence_features(state, ours) @ coef
    return trick_distribution(mean, np.full(len(mean), sd))


@cache
def _defence_model() -> tuple[Array, float]:
    """The coefficients and spread of ``data/defence_tricks.json``
    (tools/build_defence_tricks.py)."""
    ref = resources.files("bidbox.engine") / "data" / "defence_tricks.json"
    data = json.loads(ref.read_text(encoding="utf-8"))
    if data.get("schema") != DEFENCE_SCHEMA or data.get("features") != list(DEFENCE_FEATURES):
        raise TrickModelError("defence_tricks.json: not a defence calibration for features "
                              f"{', '.join(DEFENCE_FEATURES)}")
    coef = np.array(data["coefficients"], dtype=np.float64)
    coef.setflags(write=False)
    return coef, float(data["sd"])


DEFENCE_SCHEMA = "bidbox-defence-tricks/1"
DEFENCE_FEATURES = ("constant", "raw_estimate", "judged", "game", "slam", "competitive",
                    "five_level")
"""The defence calibration's features, in :func:`defence_features`' column order."""


def _final_looking(state: TableState) -> bool:
    """Whether the opponents' last bid looks like their contract, one a penalty double
    reads as final: natural (not artificial, not forcing, not judgement's Blackwood; a
    suit their calls promise five cards in), not placed after a relay of theirs, either
    passed round to us or a game, and not one a double of which is takeout by default
    (:func:`_takeout_by_default`). Doubling a bid in the middle of their auction (Stayman,
    a relay, a forcing new suit) only told them what we held, and every rescue from a
    double was doubled again (real boards). Five cards rather than a fit of seven: their
    judged raise (1H P 2H 2S 4H 4S) promises nothing, and it is the sacrifice most worth
    doubling (dealt deals, the match of bench_doubles.py: sbu-level1 +441 -> +621 IMPs,
    canary +320 -> +455, magic-dlight +552 -> +634 on 8,000 boards); but a relayer places
    the contract knowing the shape, and doubling it lost (tosr +98 with it, +355 without)."""
    auction = state.auction
    index = auction.last_bid_index()
    step = state.steps[index]
    last, entry = step.call, step.entry
    assert last.strain is not None
    if entry is not None and (entry.is_artificial
                              or (entry.forcing is not None and entry.forcing.is_forcing)):
        return False
    if entry is None and judged_meaning(state.steps, index) is not None:
        return False
    if (last.strain is not Strain.NT
            and side_shown_length(estimate_seats(state), step.seat, last.strain) < 5):
        return False
    if any(s.seat.side is step.seat.side and s.entry is not None and "relay" in s.entry.tags
           for s in state.steps[:index]):
        return False  # placed by a relayer who knows their shape, which we do not
    if _takeout_by_default(state, index):
        return False
    passed_round = len(auction.calls) - index == 3
    return passed_round or last.level >= GAME_LEVEL[last.strain]


def _takeout_by_default(state: TableState, index: int) -> bool:
    """Whether a double of the bid at ``index`` reads as takeout by default: a natural
    suit bid at the three level or below, with the doubler's partner having only passed
    (the regulation's default, SBU 2.3.4 §2, and every partnership's: the protective
    double of 1H P 2H P P). Judgement's double is for penalty, so it is made only where
    penalty is what partner and the opponents read."""
    call = state.auction.calls[index]
    if call.strain is Strain.NT or call.level > 3:
        return False
    partner = state.next_seat.partner
    return all(step.call.kind is CallKind.PASS for step in state.steps
               if step.seat is partner)


@lru_cache(maxsize=512)
def _double_gain(contract: Call, vul: bool) -> Array:
    """(14,): by the declarer's tricks in their ``contract``, the IMPs we gain by doubling
    it rather than passing it (``vul``: theirs)."""
    assert contract.strain is not None
    table = score_table()
    plain = table[contract.level - 1, int(contract.strain), 0, int(vul)].astype(np.int64)
    doubled = table[contract.level - 1, int(contract.strain), 1, int(vul)].astype(np.int64)
    out: Array = imps_array(plain - doubled).astype(np.float64)
    out.setflags(write=False)
    return out


def _with_ace_ask(state: TableState, hands: Features, p: _Prospects, defined: set[Call],
                  judged: list[Judgement], may_ask: Array | None = None) -> list[Judgement]:
    """``judged`` with Blackwood for the hands that ask (:func:`ace_ask`) in place of the
    call they would make without knowing partner's aces; ``may_ask``: only these."""
    asking = ace_ask(state, hands, p, defined)
    if may_ask is not None:
        asking &= may_ask
    if not asking.any():
        return judged
    out = [replace(j, mask=j.mask & ~asking) for j in judged if (j.mask & ~asking).any()]
    trumps = _trumps(state, hands, p)[asking]
    twelve = ace_mixed(p, hands)[asking][np.arange(len(trumps)), trumps, 12:].sum(axis=1).mean()
    out.append(Judgement(BLACKWOOD, asking, f"Blackwood: {_held(p, asking)}, a known fit, "
                         f"about {twelve:.0%} to make twelve tricks on what we know: "
                         f"asks for the aces"))
    return out


def _held(p: _Prospects, mask: Array) -> str:
    return (f"we hold {_num(p.own_hcp[mask].mean())} HCP, partner about "
            f"{_num(p.view.hcp[mask].mean())}")


INVITE_LEVEL = {Strain.NT: 2, Strain.H: 3, Strain.S: 3}
"""The level of a game try in each strain that has one: one below game. Minor-suit games
are tried through no-trump, as players do."""


def is_invitation(before: Sequence[Call], call: Call) -> bool:
    """Whether ``call``, made by judgement after the calls ``before``, is a game
    try: 2NT, or three of a major our side has bid, in an auction in which the opponents
    have only passed. A player reads a natural bid one below game that way when no
    opponent competes; in competition the same bid only competes."""
    if not call.is_bid or call.strain not in INVITE_LEVEL:
        return False
    if call.level != INVITE_LEVEL[call.strain]:
        return False
    # Seats alternate sides, so a call's side is the parity of its distance from ours.
    n = len(before)
    ours = before[n - 2::-2] if n >= 2 else ()
    theirs = before[n - 1::-2]
    if any(c.kind is not CallKind.PASS for c in theirs) or not any(c.is_bid for c in ours):
        return False
    return call.strain is Strain.NT or any(c.strain is call.strain for c in ours)


def _invitation_value(auction: Auction, call: Call, p: _Prospects,
                      partner: SeatEstimate, hands: Features,
                      contracts: tuple[Call, Call] | None = None) -> Array:
    """Per hand, the expected score of the game try ``call`` (or of a slam try):
    partner accepts with at least the middle of what partner has shown
    (:func:`_answer_invitation`), so the target is played on partner's better half and
    the try on the worse half. Normal halves stand in for partner's HCP above and below
    that point; a slam target is valued, as every slam, on the distribution that sees the
    aces and the shape. ``contracts``: the target and the contract the try is declined
    in (:func:`_try_contracts`), when not the target and the try itself."""
    target, declined = contracts if contracts is not None else (_target(call), call)
    below, (upper, lower) = _halves(p, partner)
    values = []
    for half, contract in ((upper, target), (lower, declined)):
        probs = half.probs if contract.level < 6 else ace_mixed(half, hands)
        values.append(expected_scores(auction, [contract], probs, p.ctx.vul,
                                      p.ctx.they_vul, False)[:, 0])
    out: Array = (1.0 - below) * values[0] + below * values[1]
    return out


def _target(call: Call) -> Call:
    """The contract a try invites: game, or the small slam over a slam try (6NT over a
    quantitative 4NT, six of the major over five)."""
    assert call.strain is not None
    if call.level >= 4 and call.level >= GAME_LEVEL[call.strain]:
        return Call.bid(6, call.strain)
    return Call.bid(GAME_LEVEL[call.strain], call.strain)


def _halves(p: _Prospects, partner: SeatEstimate) -> tuple[Array, tuple[_Prospects, _Prospects]]:
    """The chance that partner declines a try (holds less than the middle of what it has
    shown), and the prospects on partner's upper and lower halves (worked out once per
    prospects and partner: every try and slam of a step asks for the same halves)."""
    kept = p.kept.get("halves")
    if isinstance(kept, tuple) and kept[0] == partner:
        return kept[1]  # type: ignore[no-any-return]
    out = _halves_of(p, partner)
    p.kept["halves"] = (partner, out)
    return out


def _halves_of(p: _Prospects, partner: SeatEstimate
               ) -> tuple[Array, tuple[_Prospects, _Prospects]]:
    threshold = _accept_threshold(partner)
    mean = p.view.hcp
    sd = max(p.view.hcp_sd, 0.5)
    z = (threshold - 0.5 - mean) / sd
    below = _phi(z)
    density = np.exp(-0.5 * z ** 2) / math.sqrt(2.0 * math.pi)
    upper = mean + sd * density / np.maximum(1.0 - below, 1e-9)
    lower = mean - sd * density / np.maximum(below, 1e-9)
    out = []
    for partner_hcp in (upper, lower):
        view = replace(p.view, hcp=partner_hcp, hcp_sd=sd * 0.6)
        tricks = estimate_tricks(p.own_hcp + partner_hcp, p.combined_len) + p.shape
        probs = trick_distribution(tricks, _sd_for(view, len(mean)))
        half = replace(p, view=view, tricks=tricks, probs=probs)
        half.kept["shape"] = _shape_kept(p)  # partner's lengths, so the shape, are the same
        out.append(half)
    return below, (out[0], out[1])


TRY_REACH = 9.5
"""Tricks the best strain's estimate must reach for a hand to weigh a slam try: partner's
upper half and the aces and shape add about two at most, and a try needs an even-money
slam. Below it the try is not valued at all, which keeps the bidder's step cheap."""


def _tries_in_reach(state: TableState, p: _Prospects) -> frozenset[Call]:
    """:func:`slam_tries_now`, or none when no hand of the batch is near slam."""
    if not (p.base_tricks.max(axis=1) >= TRY_REACH).any():
        return frozenset()
    return slam_tries_now(state)


def _try_ok(state: TableState, p: _Prospects, hands: Features, call: Call) -> Array:
    """Per hand: whether the slam try ``call`` is worth making: its slam must be odds-on
    (:data:`SLAM_ODDS`) on partner's upper half, the hands that accept it, and gain IMPs
    there over the try left in; else partner's maximum is no slam either. A suit slam
    needs the known fit every suit slam needs (:func:`_slam_fit`)."""
    target, declined = _try_contracts(state, call)
    _, (upper, _) = _halves(p, p.seats[state.next_seat.partner])
    mixed = ace_mixed(upper, hands)
    odds: Array = _blind_slam_ok([target], mixed)[:, 0]
    gain: Array = _imp_gain(target, declined, mixed, bool(p.ctx.vul)) > 0
    out: Array = odds & gain & _slam_fit(state, hands, p, [target])[:, 0]
    out &= p.base_tricks.max(axis=1) >= TRY_REACH
    agreed = cue_tries_now(state).get(call)
    if agreed is not None:
        out &= _cue_rows(hands, call, agreed)
        own = p.seats[state.next_seat]
        if p.seats[state.next_seat.partner].hcp_sd > own.hcp_sd:
            # Partner's range is the wider one: partner is the captain and, with the top
            # of it, looks for slam over our game. From the narrower hand the control bid
            # shows a maximum with the fit, as over 1NT-3S (a flat 21 after 2NT-3H bids
            # 4H, as Acol does).
            out &= p.own_hcp >= own.hcp + own.hcp_sd
    return out


def _phi(z: Array) -> Array:
    return kernels.normal_cdf(z)


def _accept_threshold(seat: SeatEstimate) -> int:
    """The HCP from which a hand accepts a game try: the middle of what it has shown."""
    return math.floor(seat.hcp + 0.5)


def _answer_invitation(state: TableState, hands: Features, defined: set[Call]
                       ) -> list[Judgement]:
    """Partner's judged try (2NT or three of our major for game; a quantitative 4NT, or
    five of our major, for the small slam): the target with at least the middle of what
    we have shown, else pass; a control bid is answered by :func:`_answer_cue`. The notes'
    own calls here, if any, were tried first and did not fit."""
    auction = state.auction
    seat = auction.next_seat
    tried = state.last[seat.partner]
    assert tried is not None and tried.call.strain is not None
    agreed = _cue_agreed(state.steps, tried.index)
    if agreed is not None:
        return _answer_cue(state, hands, defined, tried.call, agreed)
    game = _target(tried.call)
    kind = ("quantitative 4NT" if game == SIX_NT else "slam try" if game.level == 6
            else "game try")
    threshold = _accept_threshold(estimate_seats(state)[seat])
    own = hands.value("hcp")
    accept = (own >= threshold) & auction.is_legal(game) & (game not in defined)
    out = []
    if accept.any():
        out.append(Judgement(game, accept, f"accepts partner's {kind}: {int(own[accept][0])}"
                             f" HCP, the upper half of what we have shown ({threshold}+)"
                             if accept.all() else f"accepts partner's {kind}: "
                             f"{threshold}+ HCP, the upper half of what we have shown"))
    if (~accept).any():
        out.append(Judgement(PASS, ~accept, f"declines partner's {kind}: fewer than "
                             f"{threshold} HCP, the lower half of what we have shown"))
    return out


def _answer_cue(state: TableState, hands: Features, defined: set[Call], cue: Call,
                agreed: Strain) -> list[Judgement]:
    """Partner's control bid, a slam try in ``agreed`` (:func:`_cue_tries_after`): on
    towards the slam with the upper half of what we have shown and a control of each side
    suit the try denied (two quick losers there beat any slam), through Blackwood where
    it is ours to ask, else the small slam at once; otherwise four of the major."""
    auction = state.auction
    seat = auction.next_seat
    threshold = _accept_threshold(estimate_seats(state)[seat])
    own = hands.value("hcp")
    accept = own >= threshold
    denied = _denied(cue, agreed)
    if denied:
        controls = _controls(hands)
        for suit in denied:
            accept &= controls[:, _COLUMN[suit]]
    game, slam = Call.bid(4, agreed), Call.bid(6, agreed)
    ask = (BLACKWOOD not in defined and auction.is_legal(BLACKWOOD) and asks_aces(state))
    on = BLACKWOOD if ask else slam
    if on in defined or not auction.is_legal(on):
        accept &= False
    held = (f"{threshold}+ HCP, the upper half of what we have shown"
            + (f", and a control in {' and '.join(s.name for s in denied)}" if denied else ""))
    out = []
    if accept.any():
        how = "asks for aces" if on == BLACKWOOD else "bids the small slam"
        out.append(Judgement(on, accept, f"accepts partner's slam try in {agreed.name} "
                             f"({cue}, a control bid): {held}; {how}"))
    if (~accept).any():
        out.append(Judgement(game, ~accept, f"declines partner's slam try in {agreed.name} "
                             f"({cue}): not {held}; signs off in game"))
    return out


def _accepted_cue(steps: Sequence[WalkStep]) -> Strain | None:
    """The major of partner's control bid that our Blackwood, answered at the end of
    ``steps``, accepted (partner made the try, we asked over the opponent's pass), or
    None."""
    k = len(steps) - 4  # our Blackwood; the try two calls before it
    if k < 2 or steps[k - 1].call != PASS:
        return None
    return _cue_agreed(steps, k - 2)


@dataclass(frozen=True)
class _Prospects:
    """What the captain works from, per hand of a batch: partner's expectation, the
    partnership's tricks by strain and their distribution."""

    ctx: TableContext
    contested: bool
    seats: dict[Seat, SeatEstimate]
    own_hcp: Array
    view: PartnerView
    combined_len: Array
    tricks: Array  # the trick model's estimate plus :func:`_level_shape` (``shape``)
    probs: Array
    shape: Array  # (n, 5): what the partnership's shape adds in suits, at every level
    partner_controls: tuple[float, ...] | None = None  # SeatEstimate.controls of partner
    partner_aces: tuple[float, ...] | None = None  # SeatEstimate.aces of partner
    kept: dict[str, object] = field(default_factory=dict, init=False, compare=False,
                                    repr=False)
    """What is worked out from these prospects more than once in a step (:func:`ace_mixed`,
    :func:`_halves`): a judgement weighs several tries and slams on the same halves and
    the same ace-aware distribution. Not an init field, so ``replace`` starts it empty."""

    @property
    def base_tricks(self) -> Array:
        """The trick model's own estimate, without the all-levels shape: what the slam
        corrections (aces, shape in the slam zone) were measured on, and what decides
        whether a hand is in that zone at all."""
        out: Array = self.tricks - self.shape
        return out


def _prospects(state: TableState, hands: Features,
               seats: dict[Seat, SeatEstimate] | None = None) -> _Prospects:
    """``seats``: the seats' estimates from ``state`` when the caller has them already."""
    auction = state.auction
    seat = auction.next_seat
    ctx = table_context(auction, len(auction.calls))
    own_hcp = hands.value("hcp").astype(np.float64)
    own_len = hands.value("lengths").astype(np.float64)
    if seats is None:
        seats = estimate_seats(state)
    view = partner_view(seats, seat, own_hcp, own_len)
    combined_hcp = own_hcp + view.hcp
    combined_len = own_len + view.lengths
    shape = _level_shape(own_len, view)
    tricks = estimate_tricks(combined_hcp, combined_len) + shape
    probs = trick_distribution(tricks, _sd_for(view, hands.n))
    contested = any(c.kind is not CallKind.PASS for i, c in enumerate(auction.calls)
                    if auction.seat_of(i).side is not seat.side)
    partner = seats[seat.partner]
    return _Prospects(ctx, contested, seats, own_hcp, view, combined_len, tricks, probs,
                      shape, partner.controls, partner.aces)


def _judgements(options: list[Call], best: Array, duty: str, p: _Prospects,
                ours_now: bool, invitations: set[Call] | None = None) -> list[Judgement]:
    out = []
    for j in np.unique(best):
        mask = best == j
        call = options[int(j)]
        reason = _reason(call, duty, p.combined_len[mask], p.tricks[mask], p.view.hcp[mask],
                         p.own_hcp[mask], ours_now, call in (invitations or set()))
        out.append(Judgement(call, mask, reason))
    return out


SLAM_ODDS = 0.5
"""The chance of making (double dummy) that judgement asks of a slam bid without asking
for aces, in a placement or past the notes' game, on the distribution that counts the
aces the partnership may hold (:func:`ace_mixed`). On the points-only distribution it
was 0.6: at 0.5 the real boards bought as many slams that failed as made (+11, +11, +13
against -11, -13, -13 IMPs), since that distribution cannot see two aces missing. The
ace-aware one can, and at 0.55 it bid them. Once it also saw the shape (a side
singleton opposite a fit, two flat hands: :func:`_shape_shift`, a held-out Brier score of
P(12) 0.155 -> 0.134) the margin went: even money is the IMP break-even of a small slam
against game at either vulnerability, and on 1,030 dealt slam-zone deals 0.5 gained
+0.089 [+0.020, +0.159] IMPs a deal for sbu-level1 (23 changed; -0.012 [-0.058, +0.035]
for tosr, 8 changed; benchmarks/bench_slams.py's deals), the real boards unchanged.
Below even money the systems part (2026-12-07, 0.42, 8,000 dealt deals, seed 61):
sbu-level1 +0.007 [-0.002, +0.015] IMPs a deal (17 slams added, 11 make), tosr -0.010
[-0.022, +0.002] (31 added, 9 make: minor-suit slams after relays, where 3NT was enough).
The slams bid at 0.5 make 72-76% double dummy on 20,000 dealt deals."""


_EXPLORED = frozenset({"blackwood", "gerber", "exclusion", "keycard", "control"})
"""Tags of calls that explore for slam: after one of ours the notes' sign-off is an
informed one (no key cards, no control) and stands. A relay is not among them: it asks
for shape, and a sign-off once the shape is told is the notes' game for every strength
the relayer may hold; the captain who knows partner's shape weighs the slam (dealt deals,
tosr: +0.16 and +0.10 IMPs a deal on two seeds, benchmarks/bench_slams.py)."""

_EXPLORED_HIGH = frozenset({"ask", "cue", "cuebid"})
"""Tags that explore for slam only from 3NT up. Below it an ask or a cue bid is about the
strain (Stayman, a stopper, a shape, a cue-bid raise): a 20-count that asked for a major
opposite 12-14 and found four has learnt the fit, not the slam."""


_THREE_NT_RANK = Call.bid(3, Strain.NT).rank


def _explores(step_call: Call, tags: Iterable[str]) -> bool:
    """Whether a call of ours with ``tags`` explored for slam (:data:`_EXPLORED`)."""
    tagged = set(tags)
    if _EXPLORED & tagged:
        return True
    return bool(_EXPLORED_HIGH & tagged) and step_call.is_bid and step_call.rank >= _THREE_NT_RANK


def sets_no_ceiling(call: Call, forcing: Forcing | None, state: TableState) -> bool:
    """A game sign-off below slam where our side has not explored for slam: the notes
    place the contract at game and say nothing of slam, so the captain may still look
    beyond it. A sign-off after an ace ask, a control ask or a cue bid of ours answers
    what the exploration found, and is kept; one after a relay is not (:data:`_EXPLORED`)."""
    if not (forcing is Forcing.SIGNOFF and call.is_bid and call.strain is not None
            and GAME_LEVEL[call.strain] <= call.level < 6):
        return False
    return not slam_explored(state)


def slam_explored(state: TableState) -> bool:
    """Whether the next seat's side has explored for slam (:data:`_EXPLORED`): an ace
    ask, a control ask or a cue bid of ours, whose answer a later game sign-off heeds."""
    side = state.next_seat.side
    return any(step.seat.side is side and step.entry is not None
               and _explores(step.entry.call, step.entry.tags) for step in state.steps)


def beyond_game(state: TableState, hands: Features, game: Call,
                defined: set[Call]) -> list[Judgement]:
    """For hands the notes send to ``game`` with a sign-off: the game, or a slam the notes
    do not define here where the captain's estimate scores it higher. Notes that sign off
    in game rarely mean "even with slam values"; where they have a slam route it is
    defined, and the hands that fit it never reach this point."""
    auction = state.auction
    slams = [b for b in ALL_BIDS if b.level >= 6 and b not in defined and auction.is_legal(b)]
    if not slams or hands.n == 0:
        return [Judgement(game, np.ones(hands.n, dtype=bool), "")]
    # A slam must beat every game, not only the notes' one: where another game scores
    # better than the notes' (5D rather than 3NT), the notes' strain stands and so does
    # their level.
    games = [b for b in ALL_BIDS if b.strain is not None and b != game and b.level < 6
             and b.level >= GAME_LEVEL[b.strain] and auction.is_legal(b)]
    options = [game, *slams]
    p = _prospects(state, hands)
    # Slam against game on the distribution that sees the aces and the shape.
    mixed = ace_mixed(p, hands)
    ev = expected_scores(auction, options, mixed, p.ctx.vul, p.ctx.they_vul, p.contested)
    # Teams score by IMPs, which a slam's bonus does not dominate as it does total points:
    # a slam is bid only where it gains IMPs on average against the notes' game and
    # against every other game, each scored on its own trick distribution.
    # And only where it is odds-on: the spread is partly partner's unknown cards, which a
    # slam try would have asked about, so a marginal slam is not worth the guess.
    makes = _blind_slam_ok(slams, mixed, _all_aces_told(p, hands))
    fit = _slam_fit(state, hands, p, slams)
    eligible = makes & fit
    vul = p.ctx.vul
    gains = np.full((hands.n, len(slams)), np.inf)
    # A slam's gains are read only where it makes and fits: one that no hand of the batch
    # may bid is not weighed against the games (most hands sent to game hold no slam).
    live = [j for j in range(len(slams)) if eligible[:, j].any()]
    for other in (game, *games):
        for j in live:
            gains[:, j] = np.minimum(gains[:, j], _imp_gain(slams[j], other, mixed, vul))
    slam_ev = np.where((gains > 0) & eligible, ev[:, 1:], -np.inf)
    pick = np.argmax(slam_ev, axis=1)
    best = np.where(np.isfinite(slam_ev.max(axis=1)), pick + 1, 0)
    invitations: set[Call] = set()
    for tried in sorted(_tries_in_reach(state, p), key=lambda c: c.rank):
        if (_try_contracts(state, tried)[0].strain is not game.strain or tried in defined
                or not auction.is_legal(tried)):
            continue
        # Past the notes' game (3NT opposite a no-trump range, four of an agreed major):
        # where no slam is sure enough to bid blind, the try asks partner for the top of
        # the range shown, if that gains IMPs over the game on average (the slam on the
        # upper half, the try left in on the lower).
        invite = (_try_gain(state, p, hands, tried, game) > 0) & (best == 0)
        invite &= _try_ok(state, p, hands, tried)
        if invite.any():
            options.append(tried)
            invitations.add(tried)
            best = np.where(invite, len(options) - 1, best)
    return _with_ace_ask(state, hands, p, defined,
                         _name_cues(state, p, _judgements(options, best, "free", p,
                                                          _contract_ours(auction),
                                                          invitations)))


def _name_cues(state: TableState, p: _Prospects, judged: list[Judgement]) -> list[Judgement]:
    """``judged`` with the reason of a control bid saying what it is: a slam try."""
    cues = cue_tries_now(state)
    out = []
    for j in judged:
        agreed = cues.get(j.call)
        if agreed is not None and j.call.strain is not None:
            col = _COLUMN[agreed]
            j = replace(j, reason=(
                f"{_held(p, j.mask)}, about {_num(p.combined_len[j.mask, col].mean())} "
                f"{agreed.name}: slam try, a control in {j.call.strain.name} (partner "
                f"goes on with the upper half of the range shown, else signs off in "
                f"{Call.bid(4, agreed)})"))
        out.append(j)
    return out


def notes_slam_try(entry: CallEntry) -> Call | None:
    """The small slam an invitational call of the notes asks partner to bid with a
    maximum (1NT-2C-2S-5S, a quantitative 4NT), or None: an invitational bid from 4NT up
    in whose answers the notes bid that slam."""
    call = entry.call
    if not (entry.forcing is Forcing.INVITATIONAL and call.is_bid and call.strain is not None
            and call.rank >= BLACKWOOD.rank and call.level < 6):
        return None
    slam = Call.bid(6, call.strain)
    node = entry.node
    if node is None or not any(e.call == slam for e in node.calls):
        return None
    return slam


def past_slam_try(state: TableState, hands: Features, tried: Call, slam: Call
                  ) -> list[Judgement]:
    """For hands the notes send to the slam try ``tried``: the try, or its ``slam`` bid
    at once where the captain's estimate, which sees the shape and the aces (the notes
    count points), makes the slam odds-on and worth more IMPs than asking partner. A
    20-count with four trumps and a singleton opposite 12-14 (the notes' 5S try, declined
    by a minimum: 6S made on the real boards) is past asking."""
    keep = [Judgement(tried, np.ones(hands.n, dtype=bool), "")]
    if hands.n == 0 or not state.auction.is_legal(slam):
        return keep
    assert slam.strain is not None
    p = _prospects(state, hands)
    mixed = ace_mixed(p, hands)
    game = Call.bid(GAME_LEVEL[slam.strain], slam.strain)
    # Both gains are against the same game, so they compare: the try is the slam on
    # partner's upper half and the try itself left in on the lower.
    gain = _imp_gain(slam, game, mixed, bool(p.ctx.vul))
    bid = gain > _try_gain(state, p, hands, tried, game)
    bid &= _blind_slam_ok([slam], mixed)[:, 0] & _slam_fit(state, hands, p, [slam])[:, 0]
    if not bid.any():
        return keep
    odds = _slam_odds([slam], mixed[bid])[:, 0].mean()
    estimate = _reason(slam, "free", p.combined_len[bid], p.tricks[bid], p.view.hcp[bid],
                       p.own_hcp[bid], False)
    why = f"{estimate} ({odds:.0%} for twelve tricks, counting shape and aces: past the notes' try)"
    out = [Judgement(slam, bid, why)]
    if (~bid).any():
        out.append(Judgement(tried, ~bid, ""))
    return out


def _try_gain(state: TableState, p: _Prospects, hands: Features, call: Call, game: Call
              ) -> Array:
    """Per hand, the IMPs the slam try ``call`` gains on average over ``game``: the slam
    on partner's upper half (the hands that accept), the try left in on the lower."""
    below, (upper, lower) = _halves(p, p.seats[state.next_seat.partner])
    vul = bool(p.ctx.vul)
    target, left = _try_contracts(state, call)
    accepted = _imp_gain(target, game, ace_mixed(upper, hands), vul)
    declined = _imp_gain(left, game, lower.probs, vul)
    out: Array = (1.0 - below) * accepted + below * declined
    return out


# --- Blackwood: the captain's ace ask ----------------------------------------------
BLACKWOOD = Call.bid(4, Strain.NT)
ANSWERS = (Call.bid(5, Strain.C), Call.bid(5, Strain.D), Call.bid(5, Strain.H),
           Call.bid(5, Strain.S))
"""Answers to Blackwood by steps: none or four aces, one, two, three."""
_ACE_WORDS = ("none or four aces", "one ace", "two aces", "three aces")
SIX_NT = Call.bid(6, Strain.NT)

ASKED_SLAM_ODDS = 0.5
"""The chance of making that a slam needs once the aces are known: the even-money line of
IMP scoring, since the ask has removed the main reason for caution (:data:`SLAM_ODDS`).
Held aces move the odds most: with the estimate at 11-11.5 tricks a fit makes twelve on
11% of deals missing two aces and 64% holding all four (tools/build_ace_tricks.py's
deals)."""

GRAND_ODDS = 0.7
"""The chance of thirteen tricks that a grand slam needs, with no ace missing."""

ASKED_GRAND_ODDS = 0.6
"""The chance of thirteen tricks that a grand slam needs once Blackwood has found all
four aces: the IMP break-even of a grand against the small slam is about 56%, and with
every ace known the estimate runs low (slam-zone deals, seed 23: small slams stopped at
50-70% predicted made thirteen tricks double dummy on 67-86%). Against 0.7, the blind
bar (:data:`GRAND_ODDS`), on dealt slam-zone deals (``bench_slams.py``, 12,000 dealt a
seed): sbu-level1 +55 and +18 IMPs on seeds 23 and 24, canary +66 and +10, magic-dlight
+27 (31 deals changed in all); tosr's notes answer their own ace asks."""


@cache
def _ace_tricks() -> dict[str, tuple[Array, Array, float]]:
    """Per kind (suit, nt): the trick model's error's mean and spread by aces held, and
    the rate of twelve tricks with two aces missing."""
    ref = resources.files("bidbox.engine") / "data" / "ace_tricks.json"
    data = json.loads(ref.read_text(encoding="utf-8"))
    return {kind: (np.array([g["mean"] for g in rows], dtype=np.float64),
                   np.array([g["sd"] for g in rows], dtype=np.float64),
                   float(data["missing_two_aces"][kind]["made_12"]))
            for kind, rows in data["by_aces"].items()}


def _natural_suit_bid(steps: Sequence[WalkStep], side: Side) -> bool:
    """Whether ``side`` has bid, in ``steps``, a suit that its notes or base read as
    natural: from then on a judged 4NT asks for aces, as every player plays it."""
    return _natural_suit_in([s.call for s in steps], [s.entry for s in steps],
                            [s.seat for s in steps], side)


def _natural_suit_in(calls: Sequence[Call], entries: Sequence[CallEntry | None],
                     seats: Sequence[Seat], side: Side) -> bool:
    return any(seat.side is side and entry is not None and call.is_bid
               and call.strain not in (None, Strain.NT) and not entry.is_artificial
               for call, entry, seat in zip(calls, entries, seats, strict=True))


def _is_ace_ask(steps: Sequence[WalkStep], index: int) -> bool:
    """Whether the call at ``index`` is judgement's Blackwood (:func:`_asks_at`)."""
    return _asks_at([s.call for s in steps[:index + 1]], [s.entry for s in steps[:index + 1]],
                    [s.seat for s in steps[:index + 1]], index)


def _asks_at(calls: Sequence[Call], entries: Sequence[CallEntry | None],
             seats: Sequence[Seat], i: int) -> bool:
    """A judged 4NT is Blackwood once its side has bid a natural suit."""
    return (i >= 0 and calls[i] == BLACKWOOD and entries[i] is None
            and _natural_suit_in(calls[:i], entries[:i], seats[:i], seats[i].side))


def _quantitative_after(calls: Sequence[Call], entries: Sequence[CallEntry | None],
                        seats: Sequence[Seat], seat: Seat) -> bool:
    """Whether a 4NT that ``seat`` makes after ``calls`` is quantitative, as players read
    it: it raises partner's natural no-trump bid of the notes (which shows a balanced
    range; a judged 3NT places the contract), the last bid made, with the opponents silent
    and no suit of ours bid naturally (then it asks for aces, :func:`_asks_at`). Only
    partner's range is then unknown, and 4NT asks for the top of it."""
    side = seat.side
    last = max((k for k, c in enumerate(calls) if c.is_bid), default=-1)
    if last < 0 or seats[last] is not seat.partner:
        return False
    call, entry = calls[last], entries[last]
    if call.strain is not Strain.NT or call.level > 3 or entry is None or entry.is_artificial:
        return False
    if any(c.kind is not CallKind.PASS for c, s in zip(calls, seats, strict=True)
           if s.side is not side):
        return False
    return not _natural_suit_in(calls, entries, seats, side)


def quantitative_now(state: TableState) -> bool:
    """Whether a 4NT judgement makes next is quantitative (:func:`_quantitative_after`)."""
    steps = state.steps
    return _quantitative_after([s.call for s in steps], [s.entry for s in steps],
                               [s.seat for s in steps], state.next_seat)


_ASKS = frozenset({"ask", "blackwood", "gerber"})
"""Tags of ace and key-card asks: a five of the major after one of ours is a sign-off."""


def _slam_tries_after(steps: Sequence[WalkStep], seat: Seat) -> frozenset[Call]:
    """The judged calls that ``seat``, next after ``steps``, makes as slam tries, read so
    by partner: a quantitative 4NT (:func:`_quantitative_after`), and five of a major
    partner has bid, with the opponents silent and no ace ask of ours before it (after
    one, five of the trump suit signs off). Partner bids the slam with the upper half of
    what it has shown, as over a game try."""
    calls = [s.call for s in steps]
    entries = [s.entry for s in steps]
    seats = [s.seat for s in steps]
    out = {BLACKWOOD} if _quantitative_after(calls, entries, seats, seat) else set()
    side = seat.side
    if not _they_passed(calls, seats, side) or _asked(calls, entries, seats, side, _ASKS):
        return frozenset(out)
    for strain in (Strain.H, Strain.S):
        if any(s.seat is seat.partner and s.call.is_bid and s.call.strain is strain
               for s in steps):
            out.add(Call.bid(5, strain))
    return frozenset(out)


def _they_passed(calls: Sequence[Call], seats: Sequence[Seat], side: Side) -> bool:
    """Whether the side other than ``side`` has only passed in ``calls``."""
    return all(s.side is side or c.kind is CallKind.PASS
               for c, s in zip(calls, seats, strict=True))


def _asked(calls: Sequence[Call], entries: Sequence[CallEntry | None], seats: Sequence[Seat],
           side: Side, tags: frozenset[str]) -> bool:
    """Whether ``side`` has made judgement's Blackwood, or a call of its notes with one of
    ``tags`` (an ace or key-card ask; a relay), in ``calls``."""
    return any(s.side is side and (_asks_at(calls, entries, seats, k) or (
        e is not None and bool(tags & set(e.tags))))
        for k, (e, s) in enumerate(zip(entries, seats, strict=True)))


_TRY_CALLS = frozenset({BLACKWOOD, Call.bid(5, Strain.H), Call.bid(5, Strain.S)})


def _cue_tries_after(steps: Sequence[WalkStep], seat: Seat) -> dict[Call, Strain]:
    """The control bids that ``seat``, next after ``steps``, makes as slam tries, each
    with the major it agrees: partner's natural bid of three of a major is the last bid,
    the opponents silent, ``seat`` has bid before, no ace ask of ours yet; then a new suit
    at the four level below four of the major is, as every player reads it, a try for
    slam in the major that shows a control of that suit (ace, king, singleton or void)
    and denies one in each cheaper side suit. It costs nothing when declined: partner
    signs off in the game the auction was heading for. Partner bids on towards the slam
    with the upper half of what it has shown and a control of each suit the try denies
    (:func:`_answer_invitation`)."""
    return _cue_tries([s.call for s in steps], [s.entry for s in steps],
                      [s.seat for s in steps], seat)


def _cue_tries(calls: Sequence[Call], entries: Sequence[CallEntry | None],
               seats: Sequence[Seat], seat: Seat) -> dict[Call, Strain]:
    bids = [k for k, c in enumerate(calls) if c.is_bid]
    if not bids:
        return {}
    last = bids[-1]
    call, entry = calls[last], entries[last]
    major = call.strain
    if (seats[last] is not seat.partner or call.level != 3
            or major not in (Strain.H, Strain.S)
            or (entry is not None and (entry.is_artificial
                                       or entry.shows.least_length(major.name) < SUPPORT))):
        return {}  # partner's bid must show the major: a relay's answer in it may not
    side = seat.side
    if not _they_passed(calls, seats, side):
        return {}
    if not any(s is seat and c.is_bid for c, s in zip(calls, seats, strict=True)):
        return {}  # partner's opening pre-empt: a new suit over it is not a cue bid
    # The major is agreed when we have bid it too, or when we have no suit of our own to
    # show (only no-trump and artificial bids: 1NT 3S, Stayman's asker): otherwise a new
    # suit of ours is natural (2C 2D 3C 3S 4H shows the hearts).
    own = [c.strain for c, e, s in zip(calls, entries, seats, strict=True)
           if s is seat and c.is_bid and (e is None or not e.is_artificial)]
    if major not in own and any(strain is not Strain.NT for strain in own):
        return {}
    if _asked(calls, entries, seats, side, _ASKS | {"relay"}):
        return {}  # after an ask, or relays (whose captain places), no control bids
    game = Call.bid(4, major)
    return {Call.bid(4, suit): major for suit in (Strain.C, Strain.D, Strain.H)
            if suit is not major and Call.bid(4, suit).rank < game.rank}


SUPPORT = 3
"""The length of the major that partner's three-level bid must show for a new suit over
it to agree the major: a relay's answer in the suit (two spades shown) is no fit."""


def _cue_in(calls: Sequence[Call], entries: Sequence[CallEntry | None],
            seats: Sequence[Seat], index: int) -> Strain | None:
    """The major that the judged control bid at ``index`` agrees, or None for another
    call (:func:`_cue_tries`)."""
    if entries[index] is not None or not calls[index].is_bid or calls[index].level != 4:
        return None
    return _cue_tries(calls[:index], entries[:index], seats[:index], seats[index]).get(
        calls[index])


def _is_cue_try(steps: Sequence[WalkStep], index: int) -> bool:
    """Whether the call at ``index`` is a judged control bid (:func:`_cue_tries_after`)."""
    return _cue_agreed(steps, index) is not None


def _cue_agreed(steps: Sequence[WalkStep], index: int) -> Strain | None:
    """The major the judged control bid at ``index`` agrees, or None for another call."""
    return _cue_in([s.call for s in steps[:index + 1]], [s.entry for s in steps[:index + 1]],
                   [s.seat for s in steps[:index + 1]], index)


def _is_slam_try(steps: Sequence[WalkStep], index: int) -> bool:
    """Whether the call at ``index`` is a judged slam try (:func:`_slam_tries_after`); a
    control bid is read first, by :func:`_obligation`."""
    return (steps[index].entry is None and steps[index].call in _TRY_CALLS
            and steps[index].call in _slam_tries_after(steps[:index], steps[index].seat))


def cue_tries_now(state: TableState) -> dict[Call, Strain]:
    """The control bids judgement may make next (:func:`_cue_tries_after`)."""
    kept = _CUES_NOW.get(id(state))
    if kept is not None and kept[0] is state:
        return kept[1]
    out = _cue_tries_after(state.steps, state.next_seat)
    _keep(_CUES_NOW, state, out)
    return out


def _controls(hands: Features) -> Array:
    """Per hand and column (S, H, D, C): first- or second-round control of the suit, an
    ace or king or at most one card, as a control bid shows it."""
    held = np.asarray(hands.value("suit_controls")) > 0
    short = np.asarray(hands.value("lengths")) <= 1
    out: Array = held | short
    return out


def _denied(cue: Call, agreed: Strain) -> list[Strain]:
    """The side suits a control bid ``cue`` in ``agreed`` passes over: it denies a control
    in each (cue bids go up the line, the cheapest control first)."""
    return [s for s in (Strain.C, Strain.D, Strain.H)
            if s is not agreed and Call.bid(4, s).rank < cue.rank]


def _cue_rows(hands: Features, cue: Call, agreed: Strain) -> Array:
    """Per hand: whether ``cue`` is the control bid it makes (a control there, none in
    the cheaper side suits)."""
    controls = _controls(hands)
    assert cue.strain is not None
    out: Array = controls[:, _COLUMN[cue.strain]].copy()
    for suit in _denied(cue, agreed):
        out &= ~controls[:, _COLUMN[suit]]
    return out


def _try_contracts(state: TableState, call: Call) -> tuple[Call, Call]:
    """The contracts a slam or game try ``call`` made next leads to: partner's acceptance
    (game, or the small slam) and the contract it is declined in (the try itself, left in;
    four of the major after a control bid)."""
    agreed = cue_tries_now(state).get(call)
    if agreed is not None:
        return Call.bid(6, agreed), Call.bid(4, agreed)
    return _target(call), call


def slam_tries_now(state: TableState) -> frozenset[Call]:
    """The slam tries judgement may make next: 4NT and 5M (:func:`_slam_tries_after`) and
    the control bids below game (:func:`cue_tries_now`)."""
    kept = _TRIES_NOW.get(id(state))
    if kept is not None and kept[0] is state:
        return kept[1]
    out = _slam_tries_after(state.steps, state.next_seat) | frozenset(cue_tries_now(state))
    _keep(_TRIES_NOW, state, out)
    return out


def _keep(table: OrderedDict[int, tuple[TableState, _T]], state: TableState, value: _T) -> None:
    """Keep ``value`` for the walk's ``state`` (held with it, so its id stays its own):
    a reading of the calls so far, which every group and every later batch that judges at
    the same state asks for again (the walk makes each state once)."""
    table[id(state)] = (state, value)
    if len(table) > _STATES_KEPT:
        table.popitem(last=False)


_T = TypeVar("_T")
_STATES_KEPT = 16384
_TRIES_NOW: OrderedDict[int, tuple[TableState, frozenset[Call]]] = OrderedDict()
_CUES_NOW: OrderedDict[int, tuple[TableState, dict[Call, Strain]]] = OrderedDict()
_ASKS_ACES: OrderedDict[int, tuple[TableState, bool]] = OrderedDict()
_OBLIGATIONS: OrderedDict[int, tuple[TableState, dict[bool, str]]] = OrderedDict()


def judged_convention(auction: Auction, entries: Sequence[CallEntry | None], index: int
                      ) -> str | None:
    """:func:`judged_meaning` from an auction and the entries that account for its calls
    (None: judgement's), for readers that hold no walk state (the regulation's)."""
    seats = [auction.seat_of(i) for i in range(len(auction.calls))]
    return _judged(auction.calls, entries, seats, index)


def judged_control_bid(auction: Auction, entries: Sequence[CallEntry | None], index: int
                       ) -> bool:
    """Whether the call at ``index``, made by judgement, is a control bid
    (:func:`_cue_tries`), for readers that hold no walk state (the regulation's)."""
    seats = [auction.seat_of(i) for i in range(len(auction.calls))]
    return _cue_in(auction.calls, entries, seats, index) is not None


def _judged(calls: Sequence[Call], entries: Sequence[CallEntry | None],
            seats: Sequence[Seat], index: int) -> str | None:
    """Judgement's Blackwood (:func:`_asks_at`), and a judged step answer to it after the
    opponent's pass, which shows aces."""
    if entries[index] is not None:
        return None
    if _asks_at(calls, entries, seats, index):
        return "Blackwood: asks for aces"
    agreed = _cue_in(calls, entries, seats, index)
    if agreed is not None:
        cue = calls[index]
        assert cue.strain is not None
        denied = _denied(cue, agreed)
        return (f"control bid: a slam try in {agreed.name}, a control (ace, king, singleton "
                f"or void) in {cue.strain.name}"
                + (f", none in {' or '.join(s.name for s in denied)}" if denied else ""))
    if (calls[index] in ANSWERS and index >= 2 and calls[index - 1] == PASS
            and _asks_at(calls, entries, seats, index - 2)):
        return f"answers Blackwood: {_ACE_WORDS[ANSWERS.index(calls[index])]}"
    return None


def asks_aces(state: TableState) -> bool:
    """Whether a 4NT judgement makes next would ask for aces (so it is no placement)."""
    kept = _ASKS_ACES.get(id(state))
    if kept is not None and kept[0] is state:
        return kept[1]
    out = _natural_suit_bid(state.steps, state.next_seat.side)
    _keep(_ASKS_ACES, state, out)
    return out


def _pending_ask(steps: Sequence[WalkStep]) -> bool:
    """Whether partner's Blackwood is the last call but the opponent's pass."""
    return (len(steps) >= 2 and steps[-1].call == PASS
            and _is_ace_ask(steps, len(steps) - 2))


def _answered_ask(state: TableState) -> Call | None:
    """Partner's step answer to our Blackwood, both with the opponents passing."""
    steps = state.steps
    if (len(steps) < 4 or steps[-1].call != PASS or steps[-3].call != PASS
            or steps[-2].call not in ANSWERS or steps[-2].entry is not None):
        return None
    return steps[-2].call if _is_ace_ask(steps, len(steps) - 4) else None


def judged_meaning(steps: Sequence[WalkStep], index: int) -> str | None:
    """What the call at ``index`` of ``steps``, made by judgement (no notes define it),
    means when it is a convention every player shares: Blackwood and its answers. None
    for a natural placement."""
    return _judged([s.call for s in steps], [s.entry for s in steps],
                   [s.seat for s in steps], index)


def _answer_aces(hands: Features) -> list[Judgement]:
    aces = np.asarray(hands.value("aces"), dtype=np.int64) % 4
    out = []
    for k in np.unique(aces):
        mask = aces == k
        out.append(Judgement(ANSWERS[int(k)], mask,
                             f"answers partner's Blackwood: {_ACE_WORDS[int(k)]}"))
    return out


ACE_SPREAD = 0.75
"""The share of its modelled spread that the trick distribution takes once Blackwood's
answer has told the partnership's aces (:func:`after_ace_answer`). The spread is the
ace table's error (measured with both hands known) and what partner's unknown cards add;
after the answer the double-dummy residuals spread only 0.66-0.83 as wide
(``benchmarks/bench_slam_calibration.py``), so a grand with every ace read as less sure
than it is. Dealt slam-zone deals (``bench_slams.py``, 12,000 dealt, 27+ HCP kept,
against the full spread), seed 23: sbu-level1 +0.010 [-0.004, +0.023], tosr +0.004
[-0.004, +0.013] IMPs a deal (3 changed: three grands bid and made where six was); seed
24 sbu-level1 +0.006 [-0.006, +0.019] (one more such grand), tosr unchanged. The ace ask
(:func:`ace_ask`) values each answer at the same spread, since it weighs the choice the
captain makes after it: against the answer's odds alone, seeds 23 and 24 pooled
sbu-level1 +0.030 [+0.009, +0.050] (23 of 4,082 changed: more asks, slams 13 bid and 11
make against 4 and 0), tosr -0.005 [-0.020, +0.010] (11 changed); unfiltered deals
(8,000, seed 61) sbu-level1 -0.000 [-0.006, +0.005], tosr -0.002 [-0.006, +0.001]; real
boards unchanged. Tried and not kept: the same for every ace-aware distribution, the
blind slams' too (seeds 23 and 24 pooled +0.030 [+0.001, +0.060], but a calibration a
little worse, Brier 0.1125 -> 0.1146 for sbu-level1, and blind grands and slams where a
player asks: 7NT with AKQJ76.K54.A2.A2 opposite a 12-14 1NT that may lack the heart
ace, 6NT rather than the quantitative 4NT with 12 opposite 20-22)."""


def _ace_prospects(p: _Prospects, total: Array, rows: Array | None = None,
                   shape: Array | None = None, spread_share: float = 1.0) -> Array:
    """The trick distribution once the partnership's aces (``total`` per hand) are known:
    the model's estimate moved by its error for that many aces, spread by that error and
    what partner's unknown cards add (tools/build_ace_tricks.py). ``rows``: only these
    hands of the batch (``total`` is then theirs); ``shape``: their
    :func:`_shape_shift`, when the caller has it already; ``spread_share``: the share of the
    spread taken (:data:`ACE_SPREAD` once the aces are told)."""
    table = _ace_tricks()
    idx = np.clip(total, 0, 4).astype(np.intp)
    shift = np.empty((len(idx), 5))
    spread = np.empty((len(idx), 5))
    cap = np.empty(5)
    for cols, kind in ((slice(0, 4), "suit"), (slice(4, 5), "nt")):
        mean, sd, rate = table[kind]
        shift[:, cols] = mean[idx][:, None]
        spread[:, cols] = sd[idx][:, None]
        cap[cols] = rate
    # The slam corrections were measured on the trick model's own estimate, so the shape
    # they add replaces the all-levels one (:func:`_level_shape`) rather than adding to it.
    tricks = p.base_tricks if rows is None else p.base_tricks[rows]
    tricks = tricks + (_shape_shift(p, rows) if shape is None else shape)
    out = trick_distribution(tricks + shift,
                             spread_share * np.sqrt(spread ** 2 + _partner_variance(p.view)))
    # Two aces missing: the defence cashes them, twelve tricks only as often as the
    # solved deals made them (a void, a discard); the rest is eleven.
    short = idx <= 2
    if short.any():
        high = out[short, :, 12:]
        total = high.sum(axis=2)
        scale = np.where(total > cap, cap / np.maximum(total, 1e-12), 1.0)
        out[short, :, 11] += total * (1.0 - scale)
        out[short, :, 12:] = high * scale[..., None]
    return out


@cache
def _shape_tricks() -> dict[str, Array]:
    """Per kind (suit: by short-suit count 0-7; nt: by the longest suit in either hand
    4-8): the trick model's error left after the ace correction, on slam-zone deals
    (tools/build_shape_tricks.py)."""
    ref = resources.files("bidbox.engine") / "data" / "shape_tricks.json"
    data = json.loads(ref.read_text(encoding="utf-8"))["by_shape"]
    return {kind: np.array([g["mean"] for g in data[kind]["groups"]], dtype=np.float64)
            for kind in ("suit", "nt")}


SHAPE_LOW = {"suit": 0, "nt": 4}
"""The feature value of each kind's first group in ``shape_tricks.json``."""


def _length_odds(p: _Prospects, rows: Array | None) -> tuple[Array, Array]:
    """Our lengths (m, 4) and the chance of each length of partner's (m, 4, 14): a normal
    around partner's expected length by its spread, so a shape partner has shown (a
    completed relay) is a certainty and an unknown one keeps its singletons' odds."""
    view_len = p.view.lengths if rows is None else p.view.lengths[rows]
    combined = p.combined_len if rows is None else p.combined_len[rows]
    return np.rint(combined - view_len), _partner_length_odds(view_len, p.view.lengths_sd)


def _partner_length_odds(view_len: Array, lengths_sd: Array) -> Array:
    """(m, 4, 14): the chance of each length of partner's, for :func:`_length_odds`."""
    sd = np.maximum(np.asarray(lengths_sd, dtype=np.float64), 0.05)
    k = np.arange(14)
    w = np.exp(-0.5 * ((k[None, None, :] - view_len[:, :, None]) / sd[None, :, None]) ** 2)
    w /= np.maximum(w.sum(axis=2, keepdims=True), 1e-12)
    return w


def _short_units(own: Array, odds: Array) -> Array:
    """(m, 4): the partnership's short-suit count outside each suit as trumps, averaged
    over partner's lengths (``odds``, :func:`_partner_length_odds`): per side suit 3
    minus the shorter holding (doubleton 1, singleton 2, void 3)."""
    k = np.arange(14)
    short_units = np.maximum(0, 3 - np.minimum(own[:, :, None], k[None, None, :]))
    per_suit = (odds * short_units).sum(axis=2)  # (m, 4): expected units in each suit
    out: Array = per_suit.sum(axis=1, keepdims=True) - per_suit
    return out


@cache
def _level_table() -> tuple[int, Array]:
    """The all-levels suit correction (tools/build_shape_tricks.py): the fit of its first
    row and the mean per fit (one card a row, the last for that many or more) and short-
    suit count, with a row of zeros a card below the first fit, so that shorter fits get
    none and a fractional fit between them gets part."""
    ref = resources.files("bidbox.engine") / "data" / "shape_tricks.json"
    fits = json.loads(ref.read_text(encoding="utf-8"))["all_levels"]["fits"]
    if [f["fit"] for f in fits] != list(range(fits[0]["fit"], fits[0]["fit"] + len(fits))):
        raise TrickModelError("shape_tricks.json: all_levels fits must be one card apart")
    rows = [[g["mean"] for g in f["groups"]] for f in fits]
    return (int(fits[0]["fit"]) - 1,
            np.array([[0.0] * len(rows[0]), *rows], dtype=np.float64))


def _level_shape(own_len: Array, view: PartnerView) -> Array:
    """(n, 5): what the partnership's shape adds to the trick model's suit estimates at
    every level: its error by the fit and the short-suit count outside trumps, measured
    on solved deals (eight trumps and four short-suit units: +0.45 tricks; nine and six:
    +1.2), where it is positive. The model reads combined lengths only, so 5-5 with a
    void played like 4-4 and two doubletons, and shape games stayed partscores.
    Partner's unknown lengths are weighed by their chances; no-trump is left as it is
    (its slam correction reads the longest suit where slam is in question)."""
    first, table = _level_table()
    units = _short_units(np.rint(own_len), _partner_length_odds(view.lengths,
                                                                view.lengths_sd))
    out = np.zeros((own_len.shape[0], 5))
    out[:, :4] = interpolate(table, (first, SHAPE_LOW["suit"]),
                             [own_len + view.lengths, units])
    # Only what shape adds: the flat side of the table (4-4 with two doubletons and no
    # shortness, -0.2 to -0.7) is as measured, but taken off the suit alone it moved
    # flat hands from four of a major to 3NT, and on dealt deals that lost (DESIGN.md).
    return np.maximum(out, 0.0)


def _shape_shift(p: _Prospects, rows: Array | None = None) -> Array:
    """(m, 5): what the partnership's shape adds to the trick model's slam estimate. Suits:
    the short-suit count outside trumps (per side suit 3 minus the shorter holding:
    doubleton 1, singleton 2, void 3); no-trump: the longest suit in either hand. Both
    measured on solved deals after the ace correction (:func:`_shape_tricks`); partner's
    unknown lengths are weighed by their chances (:func:`_length_odds`)."""
    table = _shape_tricks()
    own, w = _length_odds(p, rows)
    k = np.arange(14)
    side = _short_units(own, w)  # outside each trump suit
    suit = table["suit"]
    out = np.empty((len(own), 5))
    out[:, :4] = np.interp(side, np.arange(len(suit)) + SHAPE_LOW["suit"], suit)
    # Partner's longest suit: P(all four suits <= k), suits taken as independent.
    below = np.cumsum(w, axis=2).prod(axis=1)  # (m, 14)
    longest_odds = np.diff(below, prepend=0.0, axis=1)
    own_long = own.max(axis=1)
    nt = table["nt"]
    low = SHAPE_LOW["nt"]
    value = nt[np.clip(np.maximum(k[None, :], own_long[:, None]).astype(np.intp) - low,
                       0, len(nt) - 1)]
    out[:, 4] = (longest_odds * value).sum(axis=1)
    return out


SLAM_ZONE = 10.0
"""Hands whose best strain's estimate is below this many tricks are not weighed for slam
(the ace correction was measured from there up)."""


_COMB = np.array([[math.comb(n, r) for r in range(5)] for n in range(5)], dtype=np.float64)
"""math.comb(n, r) for n, r in 0-4, read by index instead of one call per hand."""


def _ace_weights(p: _Prospects, hands: Features, rows: Array) -> Array:
    """(len(rows), 5): the chance that the partnership holds 0-4 aces: our own counted,
    partner's spread over the others as a binomial with partner's share of the
    outstanding points; or, where partner's calls told its aces (a key-card answer), those
    odds, less what our own aces rule out; or, where they told its controls (a
    control-showing answer), each control count partner may hold split into aces and
    kings (:func:`_aces_from_controls`)."""
    own = np.asarray(hands.value("aces"), dtype=np.int64)[rows]
    left = 4 - own
    q = np.clip(p.view.hcp[rows] / np.maximum(40.0 - p.own_hcp[rows], 1.0), 0.0, 1.0)
    if p.partner_aces is not None:
        told = np.asarray(p.partner_aces)
        k = np.arange(5)
        fits = k[None, :] <= left[:, None]  # partner's count our aces leave possible
        odds = np.where(fits, told[None, :], 0.0)
        mass = odds.sum(axis=1, keepdims=True)
        if (mass > 0).all():
            odds = odds / mass
            out = np.zeros((len(rows), 5))
            for held in range(5):
                out[np.arange(len(rows)), np.clip(own + held, 0, 4)] += odds[:, held]
            return out
    if p.partner_controls is not None:
        kings = np.asarray(hands.value("controls"), dtype=np.int64)[rows] - 2 * own
        return _aces_from_controls(np.asarray(p.partner_controls), own, kings, q,
                                   p.own_hcp[rows], p.view.hcp[rows], p.view.hcp_sd)
    out = np.zeros((len(rows), 5))
    for total in range(5):
        k = total - own
        valid = (k >= 0) & (k <= left)
        kk = np.clip(k, 0, 4)
        comb = _COMB[left, kk]
        out[:, total] = np.where(valid, comb * q ** kk * (1.0 - q) ** (left - kk), 0.0)
    return out


def _aces_from_controls(told: Array, own: Array, kings: Array, q: Array, own_hcp: Array,
                        partner_hcp: Array, partner_sd: float) -> Array:
    """(m, 5): P(partnership aces = 0..4) when partner's control count (ace 2, king 1) is
    known as the distribution ``told`` (13,). Each count is split into the aces and kings
    it can be made of from the ones we do not hold, every such combination weighed by
    the number of ways to hold it, partner's share ``q`` of each outstanding card, and
    how well the points it makes (with partner's share of the outstanding queens and
    jacks) agree with partner's expected HCP: five controls in a 13-count are more often
    A A K than A K K K. Counts our own cards rule out are dropped; if nothing is left,
    the counts are ignored and every split is weighed as above."""
    m = len(own)
    left_a, left_k = 4 - own, 4 - kings
    # Queens and jacks hold 12 HCP; the ones we do not hold are shared like the rest.
    queens_jacks = np.clip(12.0 - (own_hcp - 4 * own - 3 * kings), 0.0, 12.0)
    rest_mean = q * queens_jacks
    spread2 = partner_sd ** 2 + 1.6 * q * (1.0 - q) * queens_jacks + 1.0
    by_count = np.zeros((m, 13, 5))  # weight of (partner count c, partnership aces)
    for a in range(5):
        for k in range(5):
            valid = (a <= left_a) & (k <= left_k)
            cards = a + k
            points = 4 * a + 3 * k + rest_mean
            w = np.where(valid, _COMB[left_a, np.minimum(a, left_a)]
                         * _COMB[left_k, np.minimum(k, left_k)]
                         * q ** cards * (1.0 - q) ** (left_a + left_k - cards)
                         * np.exp(-0.5 * (points - partner_hcp) ** 2 / spread2), 0.0)
            total = np.clip(own + a, 0, 4)
            by_count[np.arange(m), 2 * a + k, total] += w
    per_count = by_count.sum(axis=2, keepdims=True)
    split = np.divide(by_count, per_count, out=np.zeros_like(by_count), where=per_count > 0)
    prior = told[None, :] * (per_count[:, :, 0] > 0)
    mass = prior.sum(axis=1, keepdims=True)
    # No count partner showed is possible beside our cards: fall back to the shares alone.
    prior = np.where(mass > 0, prior / np.maximum(mass, 1e-300), per_count[:, :, 0]
                     / np.maximum(per_count[:, :, 0].sum(axis=1, keepdims=True), 1e-300))
    out: Array = (prior[:, :, None] * split).sum(axis=1)
    return out


def _prospects_by_aces(p: _Prospects, rows: Array, weights: Array,
                       spread_share: float = 1.0) -> dict[int, Array]:
    """:func:`_ace_prospects` of ``rows`` for each number of aces (0-4) that ``weights``
    gives a chance, in one call: the hands' shape is worked out once and every count's
    rows go through the trick distribution together, not five times over."""
    used = [total for total in range(5) if weights[:, total].any()]
    m = len(rows)
    if not used:
        return {}
    # The blocks stacked with concatenate: np.tile's own bookkeeping cost more than the
    # copy on the few rows a step sends.
    shape = _shape_rows(p, rows)
    stacked = _ace_prospects(p, np.repeat(np.array(used), m),
                             np.concatenate([rows] * len(used)),
                             np.concatenate([shape] * len(used)), spread_share)
    return {total: stacked[i * m:(i + 1) * m] for i, total in enumerate(used)}


def _shape_kept(p: _Prospects) -> tuple[Array, Array]:
    """The shape shift of each hand of ``p`` worked out so far, and which hands have it:
    shared by ``p`` and its halves (they differ in partner's HCP, not its lengths)."""
    kept = p.kept.get("shape")
    if not isinstance(kept, tuple):
        kept = p.kept["shape"] = (np.empty((len(p.tricks), 5)),
                                  np.zeros(len(p.tricks), dtype=bool))
    return kept


def _shape_rows(p: _Prospects, rows: Array) -> Array:
    """:func:`_shape_shift` of ``rows``, each hand's worked out once per prospects and
    halves: the shift of a hand reads that hand's row alone, so it is the same values."""
    shape, have = _shape_kept(p)
    need = rows[~have[rows]]
    if need.size:
        shape[need] = _shape_shift(p, need)
        have[need] = True
    out: Array = shape[rows]
    return out


def ace_mixed(p: _Prospects, hands: Features) -> Array:
    """The trick distribution for slam decisions made before the aces are known: the
    ace-corrected distributions (:func:`_ace_prospects`) weighed by how many aces the
    partnership may hold (:func:`_ace_weights`). A hand with no ace of its own does not
    bid a slam that partner's points alone seem to make. Hands out of the slam zone keep
    the plain distribution. Worked out once per prospects and hands (read-only: the
    judge, the ace ask, the tries and the slams past game all read the same one)."""
    kept = p.kept.get("mixed")
    if isinstance(kept, tuple) and kept[0] is hands:
        return kept[1]  # type: ignore[no-any-return]
    out = _ace_mixed(p, hands)
    out.setflags(write=False)
    p.kept["mixed"] = (hands, out)
    return out


def _ace_mixed(p: _Prospects, hands: Features) -> Array:
    out = p.probs.copy()
    rows, weights, by_aces = _zone(p, hands)
    if len(rows) == 0:
        return out
    mixed = np.zeros((len(rows), 5, 14))
    for total, probs in by_aces.items():
        mixed += weights[:, total, None, None] * probs
    out[rows] = mixed
    return out


def _zone(p: _Prospects, hands: Features) -> tuple[Array, Array, dict[int, Array]]:
    """The hands of the slam zone, their chances of each number of aces and their trick
    distributions by aces (:func:`_prospects_by_aces`), kept for the ace ask, which reads
    the same ones for its hands (all in the zone)."""
    kept = p.kept.get("zone")
    if isinstance(kept, tuple) and kept[0] is hands:
        return kept[1]  # type: ignore[no-any-return]
    rows = np.flatnonzero(p.base_tricks.max(axis=1) >= SLAM_ZONE)
    if len(rows) == 0:
        out: tuple[Array, Array, dict[int, Array]] = (rows, np.zeros((0, 5)), {})
    else:
        weights = _ace_weights(p, hands, rows)
        out = (rows, weights, _prospects_by_aces(p, rows, weights))
    p.kept["zone"] = (hands, out)
    return out


def _slam_fit(state: TableState, hands: Features, p: _Prospects, options: list[Call]
              ) -> Array:
    """(n, len(options)): False for a suit slam without a known fit of eight or more.
    The trick model reads expected lengths, and a suit partner may hold three of is no
    trump suit for twelve tricks (6C on four clubs opposite a balanced 1NT)."""
    fits = _known_fits(state, hands, p.seats)
    out = np.ones((hands.n, len(options)), dtype=bool)
    for j, call in enumerate(options):
        if call.is_bid and call.level >= 6 and call.strain not in (None, Strain.NT):
            out[:, j] = fits[:, _COLUMN[call.strain]]
    return out


def _known_fits(state: TableState, hands: Features, seats: Mapping[Seat, SeatEstimate]
                ) -> Array:
    """(n, 4) per hand: whether our length and the least partner has shown make 8+."""
    partner = seats[state.next_seat.partner]
    lengths = np.asarray(hands.value("lengths"), dtype=np.int64)
    return np.asarray(lengths + np.array(partner.min_lengths) >= 8)


def _trumps(state: TableState, hands: Features, p: _Prospects) -> Array:
    """Per hand: the column of the suit it would play a slam in (-1: no known fit), the
    known fit with the best chance of twelve tricks."""
    fits = _known_fits(state, hands, p.seats)
    twelve = p.probs[:, :4, 12:].sum(axis=2)
    best = np.argmax(np.where(fits, twelve, -1.0), axis=1)
    return np.where(fits.any(axis=1), best, -1)


_SUIT_OF_COLUMN = (Strain.S, Strain.H, Strain.D, Strain.C)


def _slam_after(probs: Array, total: int, five: Call, six: Call, vul: bool) -> Array:
    """Per hand: whether the captain bids six once the aces are known (``total``): at
    most one missing, odds-on by :data:`ASKED_SLAM_ODDS`, and gaining IMPs over five."""
    if total < 3:
        return np.zeros(probs.shape[0], dtype=bool)
    twelve = probs[:, _COLUMN[six.strain] if six.strain else 0, 12:].sum(axis=1)
    out: Array = (twelve >= ASKED_SLAM_ODDS) & (_imp_gain(six, five, probs, vul) > 0)
    return out


def ace_ask(state: TableState, hands: Features, p: _Prospects, defined: set[Call]) -> Array:
    """Per hand: whether the captain asks for aces now. Blackwood must be free (legal, not
    a call the notes give another meaning here, after a suit of ours so that partner reads
    it), the hand must hold a known fit of eight or more and an ace (so that 5C, none or
    four, is never in doubt), and five of the trump suit must be left over every answer
    that could show two aces missing. Then it asks where asking gains IMPs on average
    over the game in the trump suit and over a blind slam: for each number of aces the
    partnership may hold, the captain's choice after the answer (:func:`_slam_after`),
    weighed by the chance of that number."""
    none = np.zeros(hands.n, dtype=bool)
    auction = state.auction
    if (BLACKWOOD in defined or not auction.is_legal(BLACKWOOD) or not asks_aces(state)
            or hands.n == 0):
        return none
    trumps = _trumps(state, hands, p)
    own = np.asarray(hands.value("aces"), dtype=np.int64)
    ok: Array = (trumps >= 0) & (own >= 1) & (p.base_tricks.max(axis=1) >= SLAM_ZONE)
    # Missing two aces, we stop in five of the trump suit: it must not lie below the
    # answer that says so (1 ace held: 5D, the one-ace answer, is above 5C).
    for column, suit in enumerate(_SUIT_OF_COLUMN):
        five = Call.bid(5, suit)
        for held in range(1, 3):
            answer = ANSWERS[2 - held]  # partner's aces that leave two missing
            if answer.rank > five.rank:
                ok &= ~((trumps == column) & (own == held))
    vul = bool(p.ctx.vul)
    candidates = np.flatnonzero(ok)
    if len(candidates) == 0:
        return ok
    # The zone's own weights (these hands are all in the zone), and each answer valued as
    # the captain will see it after the answer, at the spread he will then read
    # (:data:`ACE_SPREAD`), so that asking is weighed by the choice it leads to: worked
    # out once for the hands that may ask, each row read by itself.
    zone_rows, zone_weights, _ = _zone(p, hands)
    asker_weights = zone_weights[np.searchsorted(zone_rows, candidates)]
    by_aces = _prospects_by_aces(p, candidates, asker_weights, ACE_SPREAD)
    for column, suit in enumerate(_SUIT_OF_COLUMN):
        rows = np.flatnonzero(ok & (trumps == column))
        if len(rows) == 0:
            continue
        game, five, six = (Call.bid(k, suit) for k in (GAME_LEVEL[suit], 5, 6))
        at = np.searchsorted(candidates, rows)
        weights = asker_weights[at]
        asked = np.zeros(len(rows))
        blind_slam = np.zeros(len(rows))
        for total in (t for t in range(5) if weights[:, t].any()):
            probs = by_aces[total][at]
            w = weights[:, total]
            slam = _slam_after(probs, total, five, six, vul)
            asked += w * np.where(slam, _imp_gain(six, game, probs, vul),
                                  _imp_gain(five, game, probs, vul))
            blind_slam += w * _imp_gain(six, game, probs, vul)
        keep = asked > np.maximum(blind_slam, 0.0) + ASK_GAIN
        ok[rows] = keep
    return ok


ASK_GAIN = 0.3
"""IMPs that asking must gain on average over the game and over a blind slam: the
estimate is rough, and going to the five level risks the game. At 0.1 (2026-12-06, with
the answers valued at :data:`ACE_SPREAD`) the extra asks lost: dealt slam-zone deals,
seed 23, against 0.3, sbu-level1 -0.046 [-0.077, -0.015] IMPs a deal (10 changed, 5
slams bid and none made), tosr +0.006 [-0.014, +0.025] (5 changed)."""


def after_ace_answer(state: TableState, hands: Features) -> list[Judgement]:
    """The captain's decision once partner has answered our Blackwood: two aces missing,
    five of the trump suit (or pass of an answer in it); one or none missing, the slam
    the ace-corrected estimate makes odds-on enough, a grand only with every ace."""
    answer = _answered_ask(state)
    assert answer is not None
    p = _prospects(state, hands)
    own = np.asarray(hands.value("aces"), dtype=np.int64)
    shown = ANSWERS.index(answer)
    partner_aces = np.where((shown == 0) & (own == 0), 4, shown)
    total = own + partner_aces
    trumps = _trumps(state, hands, p)
    # With no fit known any more (it was known when we asked), the longest combined suit.
    trumps = np.where(trumps >= 0, trumps, np.argmax(p.combined_len, axis=1))
    probs = _ace_prospects(p, total, spread_share=ACE_SPREAD)
    auction = state.auction
    vul = bool(p.ctx.vul)
    accepted = _accepted_cue(state.steps)
    if accepted is not None:  # the suit the try agreed, whatever else fits
        trumps = np.full(hands.n, _COLUMN[accepted])
    choice: dict[Call, Array] = {}
    reasons: dict[Call, str] = {}
    for column, suit in enumerate(_SUIT_OF_COLUMN):
        rows = trumps == column
        if not rows.any():
            continue
        five, six, seven = (Call.bid(k, suit) for k in (5, 6, 7))
        stop = five if auction.is_legal(five) else (PASS if answer == five else six)
        pick = np.full(hands.n, -1)
        pr = probs[:, column]
        twelve, thirteen = pr[:, 12:].sum(axis=1), pr[:, 13]
        small = np.zeros(hands.n, dtype=bool)
        for k in np.unique(total):
            at = total == k
            small[at] = (_slam_after(probs[at], int(k), five, six, vul) if stop.is_bid
                         and stop.level == 5 else (twelve[at] >= ASKED_SLAM_ODDS) & (k >= 3))
        if accepted is not None:
            # Partner's slam try and our acceptance already weighed the slam: the ace
            # ask only checks that two aces are not missing.
            small |= total >= 3
        grand = small & (total >= 4) & (thirteen >= ASKED_GRAND_ODDS) & (
            _imp_gain(seven, six, probs, vul) > 0)
        pick[rows] = 0
        pick[rows & (small | (stop == six))] = 1
        pick[rows & grand] = 2
        for j, call in enumerate((stop, six, seven)):
            mask = pick == j
            if not mask.any():
                continue
            choice[call] = choice.get(call, np.zeros(hands.n, dtype=bool)) | mask
            made = twelve[mask].mean() if j < 2 else thirteen[mask].mean()
            aces_words = f"{int(total[mask][0])} aces between us" if np.all(
                total[mask] == total[mask][0]) else "the aces between us"
            if j == 0 and (total[mask] < 3).all():
                reasons[call] = "after Blackwood: two aces are missing: signs off"
                continue
            if accepted is not None and j == 1:
                reasons[call] = (f"after Blackwood: {aces_words}; partner's slam try, "
                                 f"accepted, weighed the rest: small slam")
                continue
            reasons[call] = (f"after Blackwood: {aces_words}, about {made:.0%} to make "
                             f"{'thirteen' if j == 2 else 'twelve'} tricks in {suit}: "
                             + ("signs off" if j == 0 else "grand slam" if j == 2 else
                                "small slam"))
    return [Judgement(call, mask, reasons[call]) for call, mask in choice.items()]


STRONG_PARTNER = 15.0
"""Partner's expected HCP from which no-trump no longer needs our own stopper in their
suit: such a hand (a strong club) holds an ace or guarded king in most suits."""

def _unstopped(state: TableState, hands: Features) -> Array | None:
    """Per hand: whether it lacks a stopper in a suit the opponents have bid naturally,
    with partner not having bid no-trump since; None when no such suit was bid."""
    side = state.next_seat.side
    suits: set[Strain] = set()
    covered = False
    for step in state.steps:
        call = step.call
        if not call.is_bid or call.strain is None:
            continue
        if step.seat.side is side:
            if call.strain is Strain.NT and suits and step.seat is not state.next_seat:
                covered = True
            continue
        if call.strain is not Strain.NT and (step.entry is None
                                             or not step.entry.is_artificial):
            suits.add(call.strain)
            covered = False
    if not suits or covered:
        return None
    stops = np.asarray(hands.value("stoppers"), dtype=bool)
    cols = [_COLUMN[s] for s in sorted(suits)]
    out: Array = np.logical_not(stops[:, cols].all(axis=1))
    return out


def major_game(state: TableState, hands: Features, game: Call,
               defined: set[Call]) -> list[Judgement] | None:
    """For hands the notes send to 3NT (``game``): four of a major instead where the partnership is
    known to hold eight or more cards in it (our length and the least partner has shown)
    and the trick model gains IMPs on average by it. A player who knows of the fit plays
    there when the shape says so, whatever the notes' 3NT reads; a relayer who has heard
    partner's exact shape does. None when no hand holds such a fit."""
    auction = state.auction
    seats = estimate_seats(state)
    known = _known_fits(state, hands, seats)
    options = [b for b in (Call.bid(4, Strain.H), Call.bid(4, Strain.S))
               if auction.is_legal(b) and b not in defined]
    fits = {b: known[:, _COLUMN[b.strain]] for b in options if b.strain is not None}
    if not any(f.any() for f in fits.values()):
        return None
    p = _prospects(state, hands, seats)
    vul = p.ctx.vul
    choice = np.zeros(hands.n, dtype=int)  # 0: the notes' 3NT
    best_gain = np.full(hands.n, FIT_GAIN)
    for j, (bid, fit) in enumerate(fits.items(), start=1):
        gain = _imp_gain(bid, game, p.probs, vul)
        better = fit & (gain > best_gain)
        choice[better] = j
        best_gain[better] = gain[better]
    return _with_ace_ask(state, hands, p, defined,
                         _judgements([game, *fits], choice, "free", p, _contract_ours(auction)))


FIT_GAIN = 0.5
"""IMPs a major-suit game must gain on average over the notes' 3NT (by the trick model)
before the captain overrides them: the model's own error is about a trick."""


def _short_in_partners_suits(partner: SeatEstimate, hands: Features) -> Array:
    """Per hand: at most one card in a suit partner has shown six or more cards in (a
    pre-empt, a long suit rebid): the misfit in which no-trump has no entries."""
    lengths = hands.value("lengths")
    short = np.zeros(hands.n, dtype=bool)
    for column, shown in enumerate(partner.min_lengths):
        if shown >= 6:
            short |= lengths[:, column] <= 1
    return short


def _slam_odds(options: list[Call], probs: Array) -> Array:
    """(n, len(options)): each slam's chance of making, 1 for every other call."""
    return kernels.slam_odds(options, probs)


def _blind_slam_ok(options: list[Call], probs: Array, all_aces: Array | None = None
                   ) -> Array:
    """(n, len(options)): whether each call passes the bar of a slam bid without asking:
    :data:`SLAM_ODDS` for a small slam, :data:`GRAND_ODDS` for a grand (blind, the
    model's thin tail above 33 HCP made 7NT look 56% on 21 HCP opposite a 12-14 1NT);
    ``all_aces``: the hands whose partner's answers have told that no ace is missing
    (control or key-card answers), which meet the bar after Blackwood instead
    (:data:`ASKED_GRAND_ODDS`)."""
    odds = _slam_odds(options, probs)
    grand = np.array([c.is_bid and c.level == 7 for c in options])
    bar = np.where(grand, GRAND_ODDS, SLAM_ODDS)[None, :]
    if all_aces is not None:
        bar = np.where(all_aces[:, None] & grand[None, :], ASKED_GRAND_ODDS, bar)
    out: Array = odds >= bar
    return out


def _all_aces_told(p: _Prospects, hands: Features) -> Array | None:
    """Per hand: whether partner's answers (controls, key cards) leave no ace missing
    between us, as Blackwood would have told; None where partner has told neither."""
    if p.partner_aces is None and p.partner_controls is None:
        return None
    rows, weights, _ = _zone(p, hands)
    out = np.zeros(hands.n, dtype=bool)
    if len(rows):
        out[rows] = weights[:, 4] >= ALL_ACES_TOLD
    return out


ALL_ACES_TOLD = 0.99
"""The chance of holding all four aces from which partner's answers count as having told."""


def _imp_gain(a: Call, b: Call, probs: Array, vul: bool) -> Array:
    """Per hand, the expected IMPs of contract ``a`` against ``b`` (both ours, undoubled):
    in one strain on the same tricks, in two strains on independent trick counts."""
    assert a.strain is not None and b.strain is not None
    pa, pb = probs[:, _COLUMN[a.strain]], probs[:, _COLUMN[b.strain]]
    matrix = _imp_matrix(a, b, vul)
    if a.strain is b.strain:
        return pa @ matrix
    out: Array = np.einsum("nk,kl,nl->n", pa, matrix, pb)
    return out


@lru_cache(maxsize=4096)
def _imp_matrix(a: Call, b: Call, vul: bool) -> Array:
    """IMPs of ``a`` against ``b`` by tricks: (14,) in one strain, (14, 14) in two. The
    same few pairs are weighed at every step of every batch, so each is built once."""
    assert a.strain is not None and b.strain is not None
    table = score_table()
    sa = table[a.level - 1, int(a.strain), 0, int(vul)].astype(np.int64)
    sb = table[b.level - 1, int(b.strain), 0, int(vul)].astype(np.int64)
    if a.strain is b.strain:
        out: Array = imps_array(sa - sb).astype(np.float64)
    else:
        out = imps_array(sa[:, None] - sb[None, :]).astype(np.float64)
    out.setflags(write=False)
    return out


def _contract_ours(auction: Auction) -> bool:
    """Whether the last bid, the contract so far, is the side to call's."""
    last_index = auction.last_bid_index()
    return last_index >= 0 and auction.seat_of(last_index).side is auction.next_seat.side


def _reserved_bids(auction: Auction, defined: set[Call]) -> list[Call]:
    """The defined bids that cap a placement: games and slams only. Those the notes give
    to stronger hands (3NT for 19, 6NT for a maximum), so a weaker hand does not jump past
    them. A partscore the notes define is usually a shape (2C "clubs and diamonds" in a
    rescue), and a hand of another shape may still bid above it: capping there left
    1NT redoubled in with no points (benchmarks/bench_real_boards.py)."""
    return [c for c in sorted(defined, key=lambda c: c.rank) if c.is_bid
            and c.strain is not None and c.level >= GAME_LEVEL[c.strain]
            and auction.is_legal(c)]


def _options(state: TableState, duty: str, defined: set[Call]) -> list[Call]:
    """The calls the placement weighs: pass (unless forced) and every legal bid the notes
    and base do not define here; under a game force, only bids at game or higher. No
    double: a penalty double is weighed apart, against the pass, on the calibrated
    estimate of their tricks (:func:`_penalty_doubles`); as one more option beside the
    bids, on 13 less our tricks, it lost on the real boards."""
    auction = state.auction
    seat = auction.next_seat
    forced_game = state.side(seat).game_forced
    options: list[Call] = []
    if duty != "forced" and auction.is_legal(PASS) and PASS not in defined:
        options.append(PASS)
    last = auction.last_bid
    first = last.rank + 1 if last is not None else 0
    bids = [b for b in ALL_BIDS[first:] if b not in defined]
    if asks_aces(state):
        bids = [b for b in bids if b != BLACKWOOD]  # partner would read it as Blackwood
    if forced_game:
        # A control bid below game is a slam try that keeps the force (partner signs off
        # in the game or bids on): it is weighed with the games.
        cues = cue_tries_now(state)
        bids = [b for b in bids if b in cues
                or (b.strain is not None and b.level >= GAME_LEVEL[b.strain])]
    if not bids and duty == "forced":
        bids = list(ALL_BIDS[first:first + 5])  # everything natural is taken: still bid
    options.extend(bids)
    return options


def _reason(call: Call, duty: str, lengths: Array, tricks: Array, partner_hcp: Array,
            own: Array, ours: bool, game_try: bool = False) -> str:
    """One line a player reads: what partner shows, what we hold, the estimate."""
    strain = call.strain
    held = f"we hold {_num(own.mean())} HCP, partner about {_num(partner_hcp.mean())}"
    must = " (we may not pass here)" if duty == "forced" else ""
    if call == PASS and ours:
        return f"placement: {held}; no better contract than the one we are in"
    if strain is None:
        return f"placement{must}: {held}; better to defend than to bid on"
    col = _COLUMN[strain]
    fit = "" if strain is Strain.NT else f", about {_num(lengths[:, col].mean())} {strain}"
    level_word = ("grand slam" if call.level == 7 else "small slam" if call.level == 6
                  else "game" if call.level >= GAME_LEVEL[strain] else "partscore")
    estimate = (f"placement{must}: {held}{fit}: about {tricks[:, col].mean():.1f} tricks in "
                f"{strain}")
    if game_try and call == BLACKWOOD:
        return (f"placement: {held}: quantitative, no suit bid (partner bids 6NT with "
                f"the upper half of the range shown)")
    if game_try and call.level == 5:
        return (f"{estimate}: slam try (partner bids six with the upper half of the range "
                f"shown)")
    if game_try:
        return f"{estimate}: game try (partner bids game with the upper half of the range shown)"
    return f"{estimate}, {level_word}"


def _num(x: float) -> str:
    return f"{x:.0f}"


__all__ = ["Judgement", "expected_scores", "judge", "obligation",
           "trick_distribution"]

