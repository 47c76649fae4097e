"""Forcing calls the notes leave open: what happens after them is judgement's.

A forcing or artificial call obliges partner to bid again, but notes often stop right
there (a game-forcing jump shift with nothing written after it). Such a place is not an
error: the engine's forcing discipline and the captain's placement carry on. It is still
worth a finding, so a system designer sees where the notes end and who takes over: the
natural base when it has this auction, else the placement.
"""

from __future__ import annotations

from bidbox.core.auction import Auction
from bidbox.core.calls import PASS
from bidbox.core.findings import Finding
from bidbox.core.seats import Side
from bidbox.engine.predicates import compile_predicate
from bidbox.engine.walk import replay
from bidbox.lang.system import CallEntry, System
from bidbox.verify.lint import _context, _space_for, _witness

_ASKING = frozenset({"relay", "ask", "puppet", "stayman", "blackwood", "gerber", "keycard"})
"""Tags of calls that partner must answer, forcing written or not (an answer is not one)."""


def _base_covers(system: System, entry: CallEntry) -> bool:
    """Whether the system's base has calls for partner after ``entry``'s auction."""
    if system.base is None:
        return False
    auction = Auction().extend(entry.auction)  # the compiler made every call legal here
    if auction.is_ended:
        return False
    _, state = replay(auction.add(PASS), {Side.NS: system, Side.EW: system})
    base = state.side(state.next_seat).base
    return base is not None and bool(base.calls)


def _maker(entry: CallEntry) -> tuple[str | None, str]:
    """A hand that makes the call (its own meaning, in the first seat's context)."""
    space, method = _space_for([entry.choose])
    auction = Auction().extend(entry.auction[:-1])
    mask = compile_predicate(entry.choose)(space, _context(entry.node, auction))
    return (_witness(space, mask) if mask.any() else None), method


def open_forcing_calls(system: System) -> list[Finding]:
    """Every forcing call (or ask, relay, transfer) after which the notes give partner no
    call."""
    findings = []
    for entry in (e for node in system.nodes() for e in node.calls):
        forcing = entry.forcing is not None and entry.forcing.is_forcing
        asks = bool(_ASKING.intersection(entry.tags)) or any(
            t.startswith("transfer") for t in entry.tags)
        if not (forcing or asks) or entry.node.calls or entry.node.opp:
            continue
        kind = str(entry.forcing) if forcing and entry.forcing else "artificial"
        who = "the natural base" if _base_covers(system, entry) else "the captain's placement"
        label = " ".join(map(str, entry.auction))  # with the passes, as the CLI reads it
        witness, method = _maker(entry)
        findings.append(Finding(
            "info", "open-forcing",
            f"{label} ({kind}) has no continuation in the notes: {who} decides partner's "
            "next call", label, str(entry.call), str(entry.location), witness, method))
    return findings
