"""Following an auction through each side's system tree (and its natural base).

For every call the walk records which node the caller's side was at, the table
context, and the entry that accounts for the call (None when neither the notes nor
the base do), which is what the bidder, the explainer and the batch bidder all need.
The walk is one function, :func:`advance`, applied call by call: the one-hand bidder
replays an auction with it, the batch bidder advances each group of deals with it, so
both read every call, and every side's forcing state, the same way.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field

from bidbox.core.auction import Auction
from bidbox.core.calls import GAME_LEVEL, Call, CallKind, Strain
from bidbox.core.seats import Seat, Side, Vulnerability
from bidbox.engine.predicates import TableContext
from bidbox.lang.constraints import Constraint, SuitRange, context_holds
from bidbox.lang.system import CallEntry, Forcing, Node, System


def table_context(auction: Auction, index: int) -> TableContext:
    """The context of call number ``index`` (0-based) of ``auction``.

    The step, judgement and the walk each ask it of the same auction object at every
    node, so the last few thousand are kept by the auction's identity."""
    key = (id(auction), index)
    kept = _CONTEXTS.get(key)
    if kept is not None and kept[0] is auction:
        return kept[1]
    ctx = _table_context(auction, index)
    _CONTEXTS[key] = (auction, ctx)  # the auction held with it: its id stays its own
    if len(_CONTEXTS) > _CONTEXTS_KEPT:
        # An OrderedDict: a plain dict's first key is found by scanning past every slot
        # popped before it, thousands of them in a long walk.
        _CONTEXTS.popitem(last=False)
    return ctx


_CONTEXTS: OrderedDict[tuple[int, int], tuple[Auction, TableContext]] = OrderedDict()
_CONTEXTS_KEPT = 4096


def _table_context(auction: Auction, index: int) -> TableContext:
    seat = auction.seat_of(index)
    calls = auction.calls
    # Plain loops: the generator expressions cost more than the few calls they scan.
    passed = False
    for i in range(index % 4, index, 4):
        if calls[i].kind is CallKind.PASS:
            passed = True
            break
    opening = index
    for i in range(index):
        if calls[i].kind is CallKind.BID:
            opening = i
            break
    partner_first = (index + 2) % 4  # partner's first turn
    return TableContext(seat=index % 4 + 1,  # the seat counted from the dealer
                        vul=auction.vul.is_vulnerable(seat),
                        they_vul=auction.vul.is_vulnerable(seat.after(1)), passed=passed,
                        passed_before_opening=passed and opening > index % 4,
                        partner_passed=partner_first < index and opening > partner_first)


def guard_holds(entry: CallEntry, ctx: TableContext) -> bool:
    return context_holds(entry.guard, ctx)


def candidates(node: Node, ctx: TableContext) -> list[CallEntry]:
    """The calls at ``node`` that apply in this table context, in the order tried (a kept
    list: not to be changed).

    Every step, reading and walk through a node asks for them (a sort and a guard test
    per call each time), so they are kept per node and context; a node whose calls the
    compiler has added to since is sorted again."""
    key = (id(node), ctx)
    kept = _CANDIDATES.get(key)
    if kept is not None and kept[0] is node and kept[1] == len(node.calls):
        return kept[2]
    out = [e for e in node.ordered() if guard_holds(e, ctx)]
    _CANDIDATES[key] = (node, len(node.calls), out)  # the node held: its id stays its own
    if len(_CANDIDATES) > _CANDIDATES_KEPT:
        _CANDIDATES.popitem(last=False)
    return out


_CANDIDATES: OrderedDict[tuple[int, TableContext], tuple[Node, int, list[CallEntry]]] = (
    OrderedDict())
_CANDIDATES_KEPT = 65536


def tried_before(node: Node, chosen: CallEntry | None, ctx: TableContext,
                 before: Auction | None = None) -> list[CallEntry]:
    """The calls the bidder tries before ``chosen`` at ``node`` (all of them when ``chosen``
    is None), legal after ``before`` when given: what a call denies by negative inference."""
    out = []
    for entry in candidates(node, ctx):
        if chosen is not None and entry is chosen:
            break
        if before is None or before.is_legal(entry.call):
            out.append(entry)
    return out


def step_ours(node: Node | None, call: Call, ctx: TableContext) -> tuple[Node | None,
                                                                         CallEntry | None]:
    if node is None:
        return None, None
    entry = next((e for e in candidates(node, ctx) if e.call == call), None)
    return (entry.node if entry else None), entry


def step_theirs(node: Node | None, call: Call, theirs: CallEntry | None = None
                ) -> Node | None:
    """Our node after an opponent's call (``theirs``: what their notes say it shows, for
    defences chosen by meaning): a pass is implicit unless written as (P)."""
    if node is None:
        return None
    opp = node.opp_child(call, theirs)
    if opp is not None:
        return opp.node
    return node if call.kind is CallKind.PASS else None


SYSTEM = "system"
BASE = "base"
"""Where a call's meaning comes from: the system's own notes or the natural base."""


@dataclass(frozen=True)
class SideState:
    """Where one side stands: in its notes, in its natural base, and what binds it."""

    node: Node | None
    base: Node | None
    game_forced: bool = False  # a game-forcing call was made and game is not reached


@dataclass(frozen=True)
class WalkStep:
    index: int
    seat: Seat
    call: Call
    context: TableContext
    node: Node | None  # where the caller's side stood in its notes before the call
    entry: CallEntry | None  # what accounts for the call; None = outside notes and base
    source: str | None = None  # SYSTEM, BASE, or None when neither defines the call
    base_node: Node | None = None  # where the caller's side stood in its base
    judged: Constraint | None = None  # what a call outside both shows (described_suit)
    before: TableState | None = field(default=None, compare=False, repr=False)
    """For a bid outside the notes and base (judgement's): the state it was made in, so
    that the table reads it by the hands judgement makes it with
    (``estimate.judged_filter``). Left out of comparisons: a step is compared by what it
    reads, and the state is the auction before it."""


@dataclass(frozen=True)
class TableState:
    """Everything the next call depends on besides the hand: the auction and each side's
    place in its notes and base, and each seat's last call as the walk read it."""

    auction: Auction
    sides: Mapping[Side, SideState]
    last: Mapping[Seat, WalkStep | None]
    opened: bool = False
    steps: tuple[WalkStep, ...] = ()  # every call so far as read (shared by the batch's groups)

    @property
    def next_seat(self) -> Seat:
        return self.auction.next_seat

    def side(self, seat: Seat) -> SideState:
        return self.sides[seat.side]


def start(systems: Mapping[Side, System], auction: Auction) -> TableState:
    """The state before the first call of ``auction``'s table (dealer and vulnerability).

    The same systems at the same table get the same state object, so that the states
    :func:`advance` keeps are found again by every later auction at that table."""
    ns, ew = systems[Side.NS], systems[Side.EW]
    key = (id(ns), id(ew), auction.dealer, auction.vul)
    kept = _STARTS.get(key)
    if kept is not None and kept[0] is ns and kept[1] is ew:
        return kept[2]
    empty = Auction(auction.dealer, auction.vul)
    sides = {side: SideState(systems[side].root, _base_root(systems[side])) for side in Side}
    state = TableState(empty, sides, dict.fromkeys(Seat))
    _STARTS[key] = (ns, ew, state)  # the systems kept with it: their ids stay theirs
    if len(_STARTS) > _STARTS_KEPT:
        _STARTS.popitem(last=False)
    return state


_STARTS: OrderedDict[tuple[int, int, Seat, Vulnerability], tuple[System, System, TableState]] = (
    OrderedDict())
_STARTS_KEPT = 256


def _base_root(system: System) -> Node | None:
    return system.base.root if system.base is not None else None


def read_call(state: TableState, call: Call) -> WalkStep:
    """How the walk reads ``call`` made next: the entry of the caller's notes that has it,
    else its base's; the notes always win, so a base entry is never read for a call the
    notes define at that point."""
    auction = state.auction
    seat = auction.next_seat
    ctx = table_context(auction, len(auction.calls))
    here = state.side(seat)
    index = len(auction.calls)
    if not state.opened and call.kind is CallKind.PASS:
        _, entry = step_ours(here.node, call, ctx)
        return WalkStep(index, seat, call, ctx, here.node, entry,
                        SYSTEM if entry is not None else None, here.base)
    _, entry = step_ours(here.node, call, ctx)
    if entry is not None:
        return WalkStep(index, seat, call, ctx, here.node, entry, SYSTEM, here.base)
    _, base_entry = step_ours(here.base, call, ctx)
    if base_entry is not None:
        return WalkStep(index, seat, call, ctx, here.node, base_entry, BASE, here.base)
    told = described(state, call)
    shows = None if told is None else _DESCRIBES[told]
    read_by_hands = state.opened and call.kind is CallKind.BID and call.level < JUDGED_READ_BELOW
    return WalkStep(index, seat, call, ctx, here.node, None, None, here.base, shows,
                    state if read_by_hands else None)


JUDGED_READ_BELOW = 6
"""Judged bids below this level are read by the hands judgement bids them with
(``WalkStep.before``); slams end the auction's description."""


DESCRIBE_LENGTH = 5
"""The length a new suit bid below 3NT under a game force shows (:func:`described`)."""
REBID_LENGTH = 6
"""The length the bidder's own natural suit bid again shows there."""
SUPPORT_LENGTH = 3
"""The support a judged raise of partner's natural suit below 3NT shows."""
JUDGED_LENGTH = 4
"""The length a new suit bid below 3NT outside the notes and base shows without a game
force: judgement bids such a suit with four cards or more (``judgement.judge``)."""

_DESCRIBES = {(s, n): SuitRange("lengths", s.name, n, None)
              for s in (Strain.S, Strain.H, Strain.D, Strain.C)
              for n in (SUPPORT_LENGTH, JUDGED_LENGTH, DESCRIBE_LENGTH, REBID_LENGTH)}
_THREE_NT = Call.bid(3, Strain.NT)


def described(state: TableState, call: Call) -> tuple[Strain, int] | None:
    """The suit and least length a bid outside the notes and base shows, as every player
    reads it: a bid below 3NT in a suit the opponents have not bid is natural. Under its
    side's game force: five or more cards in a suit the side has not bid naturally, six
    or more in one the bidder alone has; without one, four or more in a new suit. A raise
    of partner's natural suit shows three or more, with or without the force. Under
    the force there is no hurry to guess the game: the auction stays open, so the bidder
    describes and partner, who then knows more, places (judgement bids so:
    ``judgement.describe``). A preference (a suit both partners have bid) and every
    other call outside both show nothing by themselves.
    """
    if call.kind is not CallKind.BID or call.strain is None or call.strain is Strain.NT:
        return None
    if call.rank >= _THREE_NT.rank or not state.opened:
        return None
    seat = state.auction.next_seat
    forced = state.side(seat).game_forced
    mine = partners = False
    for step in state.steps:
        if step.call.kind is not CallKind.BID or step.call.strain is not call.strain:
            continue
        if step.seat.side is not seat.side:
            return None  # their suit: a cue bid, which nothing here defines
        if step.entry is None or not step.entry.is_artificial:
            if step.seat is seat:
                mine = True
            else:
                partners = True
    if partners:
        # Partner's suit: a raise shows support; a preference after both have bid it
        # says nothing by itself.
        return None if mine else (call.strain, SUPPORT_LENGTH)
    if not forced:
        # Without a force the bid may be the contract: a new suit is still natural, four
        # or more; the bidder's own suit again says no more than it did.
        return None if mine else (call.strain, JUDGED_LENGTH)
    return call.strain, REBID_LENGTH if mine else DESCRIBE_LENGTH


def described_suit(state: TableState, call: Call) -> Strain | None:
    """The suit of :func:`described`, or None."""
    told = described(state, call)
    return None if told is None else told[0]


def advance(state: TableState, call: Call, step: WalkStep | None = None) -> TableState:
    """The state after ``call``; ``step`` is :func:`read_call`'s reading when already known.

    A state depends only on the state before and the call, so each one is made once and
    kept (the last :data:`_CHILDREN_KEPT`): the batch bidder's groups and its later
    batches, and the one-hand bidder's replays, walk the same auctions again and again."""
    if step is not None:
        return _advance(state, call, step)
    key = (id(state), call)
    kept = _CHILDREN.get(key)
    if kept is not None and kept[0] is state:
        _CHILDREN.move_to_end(key)
        return kept[1]
    child = _advance(state, call, read_call(state, call))
    _CHILDREN[key] = (state, child)  # the parent kept alive with it: its id stays its own
    if len(_CHILDREN) > _CHILDREN_KEPT:
        _CHILDREN.popitem(last=False)
    return child


_CHILDREN: OrderedDict[tuple[int, Call], tuple[TableState, TableState]] = OrderedDict()
_CHILDREN_KEPT = 20_000  # about 1.2 KB a state: some 25 MB at most


def _advance(state: TableState, call: Call, step: WalkStep) -> TableState:
    seat = step.seat
    auction = state.auction.add(call)
    steps = (*state.steps, step)
    if not state.opened and call.kind is CallKind.PASS:
        last = {**state.last, seat: step}
        return TableState(auction, state.sides, last, False, steps)
    ours, theirs = seat.side, (Side.EW if seat.side is Side.NS else Side.NS)
    mine = state.sides[ours]
    if step.source == SYSTEM:
        assert step.entry is not None
        node: Node | None = step.entry.node
        # The base follows a natural call of the notes (its own reading of it), never an
        # artificial one: its natural continuations would misread the hand.
        base = None if step.entry.is_artificial else step_ours(mine.base, call, step.context)[0]
    elif step.source == BASE:
        assert step.entry is not None
        node, base = None, step.entry.node
    else:
        node, base = None, step_ours(mine.base, call, step.context)[0]
    forcing = step.entry.forcing if step.entry is not None else None
    # A game force holds until game, unless a later call of the side is explicitly not
    # forcing (the notes' exception, as Acol's 2C-2D-2NT).
    forced = (forcing is Forcing.GAME_FORCING
              or (mine.game_forced and forcing not in _RELEASES))
    # The opponents' notes and base both answer the call by its name and, where a line
    # asks ((1H) [natural]), by what it means in our notes.
    # A double that is itself the game-forcing relay, or a takeout or negative double, is
    # not a penalty double: the side still owes its game (TOSR's 1D (1H) X passed out in
    # 1S otherwise).
    asks = (call.kind is CallKind.DOUBLE and step.entry is not None
            and (step.entry.is_artificial or bool(_NOT_PENALTY & set(step.entry.tags))))
    reached = _game_reached(auction, ours) and not asks
    other = state.sides[theirs]  # built directly: dataclasses.replace costs a dozen calls
    sides = {ours: SideState(node, base, forced and not reached),
             theirs: SideState(step_theirs(other.node, call, step.entry),
                               step_theirs(other.base, call, step.entry), other.game_forced)}
    last = {**state.last, seat: step}
    return TableState(auction, sides, last, True, steps)


def _game_reached(auction: Auction, side: Side) -> bool:
    """Whether ``side`` has bid game, or doubled the opponents for penalty (which ends the
    obligation: defending doubled is a game-forcing side's right)."""
    last = auction.last_bid
    if last is None:
        return False
    if auction.seat_of(auction.last_bid_index()).side is not side:
        return auction.doubled > 0
    assert last.strain is not None
    return last.level >= GAME_LEVEL[last.strain]


_RELEASES = (Forcing.NONFORCING, Forcing.INVITATIONAL, Forcing.SIGNOFF)
_NOT_PENALTY = frozenset({"takeout", "negative", "responsive", "support"})


def replay(auction: Auction, systems: Mapping[Side, System]) -> tuple[list[WalkStep],
                                                                       TableState]:
    """Each call of ``auction`` as the walk reads it, and the state after the last."""
    state = start(systems, auction)
    for call in auction.calls:
        state = advance(state, call)
    return list(state.steps), state


def walk(auction: Auction, systems: dict[Side, System]
         ) -> tuple[list[WalkStep], dict[Side, Node | None]]:
    """Each call with the caller's node and entry, and where each side stands at the end.

    Passes before the opening do not move a side along its tree (the root holds the
    openings for every seat; seat and passed-hand differences are table context).
    """
    steps, state = replay(auction, systems)
    return steps, {side: state.sides[side].node for side in Side}
