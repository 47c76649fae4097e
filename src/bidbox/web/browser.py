"""The system browser: one node of a system's auction tree at a time, with the meaning,
forcing, alert and a sample hand of every call there, and the regulation and lint reports.

The tree is the compiled ``bidbox.lang.System`` itself (``System.nodes()``); alerts come
from ``rules.alerts`` like everywhere else, and sample hands are drawn from one fixed pool
of dealt hands with the same compiled predicates the bidder uses.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from bidbox.api import System, get_regulation
from bidbox.core.auction import Auction
from bidbox.core.hand import Hand
from bidbox.core.seats import Seat, Side
from bidbox.engine.explain import seat_facts
from bidbox.engine.features import HandFeatures
from bidbox.engine.inference import fitting
from bidbox.engine.predicates import compile_predicate
from bidbox.engine.walk import table_context
from bidbox.engine.wording import call_meaning, constraint_words
from bidbox.errors import BidboxError
from bidbox.errors import NodeNotFoundError as NodeNotFoundError
from bidbox.evaluate.dealer import deal_batch
from bidbox.lang.system import Node
from bidbox.rules.alerts import alert_rule, decide_call_alert
from bidbox.rules.meaning import DEFAULT_CONTEXT

SAMPLE_DEALS = 5_000
"""Deals in the pool sample hands come from (20,000 hands; seeded, so pages are stable)."""


def _key(calls: tuple[Any, ...]) -> str:
    return " ".join(str(c) for c in calls)


@lru_cache(maxsize=16)
def _index(system: System) -> tuple[dict[str, Node], dict[str, str]]:
    """Every node of the tree by its label (the path as written, opponents' calls in
    parentheses: unique per node), and each label's parent."""
    nodes: dict[str, Node] = {}
    parents: dict[str, str] = {}
    for node in system.compiled.nodes():
        nodes.setdefault(node.label, node)
        for child in [e.node for e in node.calls] + [o.node for o in node.opp]:
            parents.setdefault(child.label, node.label)
    return nodes, parents


@lru_cache(maxsize=1)
def _pool() -> tuple[np.ndarray[Any, Any], HandFeatures]:
    masks = deal_batch(SAMPLE_DEALS, 20261201).masks.reshape(-1, 4)
    return masks, HandFeatures(masks)


def _sample(before: Auction, call: Any, sides: dict[Side, Any]) -> str | None:
    """A hand of the pool that fits everything its seat has shown once it makes ``call``
    (each of its calls with the negative inference of the calls tried before it)."""
    masks, features = _pool()
    after = before.add(call)
    facts = seat_facts(after, sides)[before.next_seat]
    try:
        hit = np.flatnonzero(fitting(facts, features,
                                     lambda c, ctx: compile_predicate(c)(features, ctx)))
    except (BidboxError, KeyError, ValueError, TypeError):
        return None  # a constraint the pool cannot read
    if not hit.size:
        return None
    row = masks[int(hit[0])]
    return Hand((int(row[0]), int(row[1]), int(row[2]), int(row[3]))).pbn()


def node_view(system: System, path: str) -> dict[str, Any]:
    """The calls at the node ``path`` (its label: ``1NT 2C``, ``(1H) X``; empty for the
    openings), each explained, with where to go next. Auctions start with North dealing
    and our side opening as the tree is written; opponents' passes are written ``P``."""
    text = " ".join(path.split())
    nodes, parents = _index(system)
    node = nodes.get(text)
    if node is None:
        near = [k for k in nodes if k and k.startswith(text.rsplit(" ", 1)[0])][:5]
        hint = f"; nodes near it: {', '.join(repr(k) for k in near)}" if near and text else ""
        raise NodeNotFoundError(f"'{path}' is not a node of {system.name}'s tree (write the "
                                f"path as in the system file, e.g. '1NT 2C'){hint}")
    sides = {Side.NS: system.compiled, Side.EW: system.compiled}
    regulation = get_regulation("sbu")
    # after our own call the notes go on over the opponents' (implicit) pass
    before = Auction.parse(_key(node.auction) + (" P" if node.ours_last else ""), Seat.N)
    calls = []
    for entry in node.ordered():
        seat = before.next_seat
        try:
            decision = decide_call_alert(before, entry.call, sides, regulation)
            alert: bool | None = decision.alert
            rule: str | None = alert_rule(decision)
            stop = decision.stop_card
        except BidboxError:
            alert, rule, stop = None, None, False
        after = _key(entry.auction)
        # What the table reads (explain's words): errata readings out, suits named.
        try:
            ctx = table_context(before.add(entry.call), len(before.calls))
        except BidboxError:
            ctx = DEFAULT_CONTEXT
        calls.append({
            "call": str(entry.call), "seat": str(seat), "meaning": call_meaning(entry, ctx),
            "description": entry.text(), "shows_text": constraint_words(entry.shown, ctx),
            "shows": str(entry.shows), "forcing": None if entry.forcing is None
            else entry.forcing.value, "tags": list(entry.tags), "priority": entry.priority,
            "location": str(entry.location), "alert": alert, "alert_rule": rule,
            "stop_card": stop, "sample_hand": _sample(before, entry.call, sides),
            "auction": after, "path": entry.node.label,
            "continues": bool(entry.node.calls or entry.node.opp),
            "practise": {"reach": after, "seat": str(seat), "dealer": "N"},
        })
    return {
        "system": system.name, "path": node.label, "auction": _key(before.calls),
        "calls": calls,
        "opponents": [{"call": o.pattern if o.call is None else str(o.call),
                       "path": o.node.label, "calls": len(o.node.calls)} for o in node.opp],
        "up": parents.get(node.label),
    }


@lru_cache(maxsize=16)
def check_report(system: System) -> dict[str, Any]:
    """``bidbox check --regulation sbu --json`` for the system (cached per compile)."""
    return system.check("sbu").to_json(None)


@lru_cache(maxsize=16)
def lint_report(system: System) -> dict[str, Any]:
    """``bidbox lint --json`` for the system (cached per compile)."""
    return {"errors": [], "findings": [f.to_json() for f in system.lint()]}


__all__ = ["NodeNotFoundError", "check_report", "lint_report", "node_view"]
