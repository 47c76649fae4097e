"""Following an auction through each side's system tree.

For every call the walk records which node the caller's side was at, the table
context, and the entry that accounts for the call (None when the system does not),
which is what the bidder, the explainer and the batch bidder all need.
"""

from __future__ import annotations

from dataclasses import dataclass

from bidbox.core.auction import Auction
from bidbox.core.calls import Call, CallKind
from bidbox.core.seats import Seat, Side
from bidbox.engine.predicates import TableContext
from bidbox.lang.compiler import TableContext as GuardContext
from bidbox.lang.compiler import context_holds
from bidbox.lang.system import CallEntry, Node, System


def table_context(auction: Auction, index: int) -> TableContext:
    """The context of call number ``index`` (0-based) of ``auction``."""
    seat = auction.seat_of(index)
    passed = any(auction.calls[i].kind is CallKind.PASS
                 for i in range(index) if auction.seat_of(i) is seat)
    return TableContext(seat=(int(seat) - int(auction.dealer)) % 4 + 1,
                        vul=auction.vul.is_vulnerable(seat),
                        they_vul=auction.vul.is_vulnerable(seat.lho), passed=passed)


def guard_holds(entry: CallEntry, ctx: TableContext) -> bool:
    return context_holds(entry.guard, GuardContext(ctx.seat, ctx.vul, ctx.they_vul, ctx.passed))


def candidates(node: Node, ctx: TableContext) -> list[CallEntry]:
    """The calls at ``node`` that apply in this table context, in the order tried."""
    return [e for e in node.ordered() if guard_holds(e, ctx)]


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


def step_theirs(node: Node | None, call: Call) -> Node | None:
    """Our node after an opponent's call: a pass is implicit unless written as (P)."""
    if node is None:
        return None
    opp = node.opp_child(call)
    if opp is not None:
        return opp.node
    return node if call.kind is CallKind.PASS else None


@dataclass(frozen=True)
class WalkStep:
    index: int
    seat: Seat
    call: Call
    context: TableContext
    node: Node | None  # where the caller's side stood before the call
    entry: CallEntry | None  # what accounts for the call; None = outside the system


def walk(auction: Auction, systems: dict[Side, System]
         ) -> tuple[list[WalkStep], dict[Side, Node | None]]:
    """Each call with the caller's node and entry, and where each side stands at the end.

    Passes before the opening do not move a side along its tree (the root holds the
    openings for every seat; seat and passed-hand differences are table context).
    """
    nodes: dict[Side, Node | None] = {side: systems[side].root for side in Side}
    opened = False
    steps: list[WalkStep] = []
    for i, call in enumerate(auction.calls):
        seat = auction.seat_of(i)
        ctx = table_context(auction, i)
        side = seat.side
        other = Side.EW if side is Side.NS else Side.NS
        before = nodes[side]
        if not opened and call.kind is CallKind.PASS:
            entry = None if before is None else next(
                (e for e in candidates(before, ctx) if e.call == call), None)
            steps.append(WalkStep(i, seat, call, ctx, before, entry))
            continue
        opened = True
        nodes[side], entry = step_ours(before, call, ctx)
        nodes[other] = step_theirs(nodes[other], call)
        steps.append(WalkStep(i, seat, call, ctx, before, entry))
    return steps, nodes
