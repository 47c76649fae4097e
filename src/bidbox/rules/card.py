"""Convention card content (SBU 2.1) generated from the compiled system.

The card is the disclosure a partnership owes its opponents: the basic system, what is
unusual about it, the alertable agreements of the first rounds, and the card play.
Everything here is read from the meanings and the regulation's alert decisions.
"""

from __future__ import annotations

from bidbox.core.auction import Auction
from bidbox.core.calls import Call, CallKind, Strain
from bidbox.core.seats import Side
from bidbox.lang.system import Node, System
from bidbox.rules.alerts import decide_call_alert
from bidbox.rules.meaning import DEFAULT_CONTEXT, is_strong, stats
from bidbox.rules.regulation import Regulation
from bidbox.rules.sbu import read_bid, tags_of

ALERT_DEPTH = 3  # calls deep into the tree for the list of alertable agreements


def convention_card(system: System, regulation: Regulation) -> dict[str, object]:
    openings = [e for e in system.root.ordered() if e.call.is_bid]
    basic = []
    for entry in openings:
        st = stats(entry.shown, DEFAULT_CONTEXT)
        basic.append(f"{entry.call}: {entry.text()} ({st.hcp[0]}-{st.hcp[1]} HCP)")
    unusual = sorted(_unusual(system))
    alertable = _alertable(system, regulation)
    return {
        "title": f"{system.title} ({system.name})",
        "source": system.source,
        "options": {k: v for k, v in system.selected.items()},
        "basic": basic,
        "unusual": unusual,
        "alertable": alertable,
        "leads": system.notes.get("leads", ""),
        "signals": system.notes.get("signals", ""),
        "discards": system.notes.get("discards", ""),
    }


def _unusual(system: System) -> set[str]:
    out: set[str] = set()
    for entry in system.root.ordered():
        call = entry.call
        if not call.is_bid or call.strain is None:
            continue
        reading = read_bid(entry, call, None, DEFAULT_CONTEXT)
        st = stats(entry.shown, DEFAULT_CONTEXT)
        if call == Call.parse("1C") and not reading.natural and st.hcp[0] >= 15:
            out.add(f"strong club: 1C shows {st.hcp[0]}+ HCP")
        if call.level == 1 and call.strain.is_minor and reading.natural and \
                st.min_length(call.strain.suit_index) < 4:
            out.add(f"{call} may be a {st.min_length(call.strain.suit_index)}-card suit")
        if call.level == 1 and call.strain.is_major and \
                st.min_length(call.strain.suit_index) >= 5:
            out.add("five-card majors")
        if "transfer" in tags_of(entry):
            out.add(f"transfer opening: {call}")
        if call.level == 2 and call.strain is not Strain.NT and reading.natural \
                and not is_strong(entry.shown, DEFAULT_CONTEXT):
            out.add(f"weak two: {call}")
    for node in system.nodes():
        for entry in node.calls:
            tags = tags_of(entry)
            if "canape" in tags:
                out.add("canape: shorter suit bid before a longer one")
            if entry.call.kind is CallKind.PASS and entry.forcing is not None \
                    and entry.forcing.is_forcing:
                out.add("forcing passes")
            if "relay" in tags:
                out.add("relay methods")
    return out


def _alertable(system: System, regulation: Regulation) -> list[dict[str, str]]:
    """The alerted calls of the first ``ALERT_DEPTH`` rounds of the tree, each with the
    auction written as the CLI reads it (every call, passes included)."""
    rows: list[dict[str, str]] = []
    systems = {Side.NS: system, Side.EW: system}

    def visit(node: Node, depth: int) -> None:
        if depth > ALERT_DEPTH:
            return
        for entry in node.ordered():
            before = Auction().extend(entry.auction[:-1])
            # Only the call's reading is needed, not what every seat is known to hold,
            # which is most of what explaining an auction costs.
            decision = decide_call_alert(before, entry.call, systems, regulation)
            if decision.alert:
                rows.append({"auction": str(before.add(entry.call)), "meaning": entry.text(),
                             "rule": f"{decision.rule} ({decision.section})"})
            visit(entry.node, depth + 1)
        for opp in node.opp:
            if opp.pattern in ("any", "bid"):
                continue
            visit(opp.node, depth + 1)

    visit(system.root, 1)
    return rows
