"""Convention card content (SBU 2.1) generated from the compiled system.

The card is the disclosure a partnership owes its opponents: the basic system, what is
unusual about it, the alertable agreements of the first rounds, and the card play.
Everything here is read from the meanings and the regulation's alert decisions, and is
worded as ``bidbox explain`` words it (issue 11): each call's text without the notes'
errata readings, and its HCP as the bounds the meanings set with what the call denies
("10-22 HCP", "19+ HCP", "14 HCP"), never a measured or sampled maximum.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bidbox.core.auction import Auction
from bidbox.core.calls import Call, CallKind, Strain
from bidbox.core.seats import Seat, Side, Vulnerability
from bidbox.engine.inference import CallReading, Facts, read_step
from bidbox.engine.statement import hcp_statement
from bidbox.engine.walk import TableState, advance, guard_holds, start, table_context
from bidbox.engine.wording import call_meaning
from bidbox.lang.constraints import ANY, TableContext, negate
from bidbox.lang.system import CallEntry, Node, System
from bidbox.rules.alerts import decide_reading_alert
from bidbox.rules.meaning import DEFAULT_CONTEXT, is_strong, stats
from bidbox.rules.regulation import Regulation
from bidbox.rules.sbu import read_bid, tags_of

ALERT_DEPTH = 3  # calls deep into the tree for the list of alertable agreements
RESPONSES_SHOWN = 12  # responses (after a pass) listed per opening, in the notes' order


def convention_card(system: System, regulation: Regulation) -> dict[str, object]:
    read = _Readings({Side.NS: system, Side.EW: system})
    basic = []
    responses: list[str] = []
    for entry in (e for e in system.root.ordered() if e.call.is_bid):
        opening = opening_auction(entry)
        if opening is None:
            continue
        basic.append(card_line(opening, read, entry))
        if entry.guard != ANY:  # a seat or vulnerability variant says which
            basic[-1] += f" [{entry.guard}]"
        if opening.dealer is not Seat.N or len(opening.calls) > 1:
            continue  # the responses are read once, after a first-seat opening
        kids = [k for k in entry.node.ordered() if k.call.kind is not CallKind.PASS]
        after = opening.add(Call.parse("P"))
        for kid in kids[:RESPONSES_SHOWN]:
            if after.is_legal(kid.call):
                responses.append(card_line(after.add(kid.call), read, kid))
    unusual = sorted(_unusual(system))
    alertable = _alertable(system, regulation, read)
    return {
        "title": f"{system.title} ({system.name})",
        "source": system.source,
        "options": {k: v for k, v in system.selected.items()},
        "basic": basic,
        "responses": responses,
        "unusual": unusual,
        "alertable": alertable,
        "leads": system.notes.get("leads", ""),
        "signals": system.notes.get("signals", ""),
        "discards": system.notes.get("discards", ""),
    }


CONTEXTS = tuple(TableContext(seat, vul, they, False) for seat in (1, 2, 3, 4)
                 for vul in (False, True) for they in (False, True))


def opening_auction(entry: CallEntry) -> Auction | None:
    """The auction (passes before it, dealer North) of an opening in the first table
    situation its guard admits: first seat, none vulnerable, unless it is a variant."""
    ctx = next((c for c in CONTEXTS if guard_holds(entry, c)), None)
    if ctx is None:
        return None
    vul = {(False, False): Vulnerability.NONE, (True, True): Vulnerability.BOTH}.get(
        (ctx.vul, ctx.they_vul))
    opener = Seat.N.after(ctx.seat - 1)
    if vul is None:
        vul = Vulnerability.NS if ctx.vul == (opener.side is Side.NS) else Vulnerability.EW
    return Auction.parse(" ".join(["P"] * (ctx.seat - 1)), Seat.N, vul).add(entry.call)


def card_line(auction: Auction, read: Callable[[Auction], Sequence[CallReading]],
              entry: CallEntry) -> str:
    """'1S: 12+ ..., four or more spades (10-22 HCP)': the last call of ``auction`` as
    explain reads it, with the HCP its caller has shown by then (negative inference
    included). The auction is written without the passes before the opening."""
    readings = read(auction)
    words = shown_hcp(readings)
    index = len(auction.calls) - 1
    meaning = call_meaning(entry, table_context(auction, index))
    calls = [str(c) for c in auction.calls]
    while calls and calls[0] == "P":
        calls.pop(0)
    label = " ".join(calls) if len(calls) > 1 else str(entry.call)
    return f"{label}: {meaning}" + (f" ({words})" if words else "")


def shown_hcp(readings: Sequence[CallReading]) -> str | None:
    """The HCP the last caller of the readings has shown, as explain's "Known now" says
    it ("15+ HCP"); None when its calls set no bound."""
    seat = readings[-1].step.seat
    # Each call's meaning and each denial as its own fact (their conjunction is the
    # reading's ``shows``): the profile-space mask of a denial is then worked out once
    # for every auction that denies it, not once per auction inside a new conjunction.
    facts: Facts = []
    for reading in readings:
        if reading.step.seat is not seat or reading.shows is None:
            continue
        ctx = reading.step.context
        if reading.entry is not None:
            facts.append((reading.entry.shown, ctx))
        facts.extend((negate(e.choose), ctx) for e in reading.denied)
    return hcp_statement(facts)


_Key = tuple[Seat, Vulnerability, tuple[Call, ...]]


class _Readings:
    """The table's readings of auctions sharing their beginnings, each prefix read once
    (the engine's walk, one ``advance`` and one ``read_step`` a call). The card reads a
    tree depth first, so replaying each auction from its first call would read the
    openings hundreds of times. (``formats.alerting.AlertReader`` does the same for the
    formats, which the rules layer may not import.)"""

    def __init__(self, systems: Mapping[Side, System]) -> None:
        self.systems = systems
        self._known: dict[_Key, tuple[TableState, tuple[CallReading, ...]]] = {}

    def __call__(self, auction: Auction) -> tuple[CallReading, ...]:
        calls = auction.calls
        known = len(calls)
        while known and (auction.dealer, auction.vul, calls[:known]) not in self._known:
            known -= 1
        if known:
            state, readings = self._known[(auction.dealer, auction.vul, calls[:known])]
        else:
            state, readings = start(self.systems, auction), ()
        for i in range(known, len(calls)):
            state = advance(state, calls[i])
            readings = (*readings, read_step(state.steps[-1], state.auction))
            self._known[(auction.dealer, auction.vul, calls[:i + 1])] = (state, readings)
        return readings


def opening_hcp(system: System, entry: CallEntry) -> str | None:
    """An opening's HCP for a card's column ("10-22", "19+", "14"): what ``bidbox
    explain`` states after it, in the first table situation its guard admits."""
    auction = opening_auction(entry)
    if auction is None:
        return None
    words = shown_hcp(_reader_of(system)(auction))
    return None if words is None else words.removesuffix(" HCP")


_READERS: dict[int, tuple[System, _Readings]] = {}


def _reader_of(system: System) -> _Readings:
    """One reader per compiled system, so a card's openings share their readings."""
    known = _READERS.get(id(system))
    if known is None or known[0] is not system:
        known = _READERS[id(system)] = (system, _Readings({Side.NS: system, Side.EW: system}))
    return known[1]




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
            if entry.is_forcing_pass:
                out.add("forcing passes")
            if "relay" in tags:
                out.add("relay methods")
    return out


def _alertable(system: System, regulation: Regulation,
               read: Callable[[Auction], Sequence[CallReading]] | None = None
               ) -> list[dict[str, str]]:
    """The alerted calls of the first ``ALERT_DEPTH`` rounds of the tree, each with the
    auction written as the CLI reads it (every call, passes included)."""
    rows: list[dict[str, str]] = []
    read = read or _Readings({Side.NS: system, Side.EW: system})

    def visit(node: Node, depth: int) -> None:
        if depth > ALERT_DEPTH:
            return
        for entry in node.ordered():
            after = Auction().extend(entry.auction)
            # Only the call's reading is needed, not what every seat is known to hold,
            # which is most of what explaining an auction costs.
            decision = decide_reading_alert(after, read(after), regulation)
            if decision.alert:
                ctx = table_context(after, len(after.calls) - 1)
                rows.append({"auction": str(after), "meaning": call_meaning(entry, ctx),
                             "rule": f"{decision.rule} ({decision.section})"})
            visit(entry.node, depth + 1)
        for opp in node.opp:
            if opp.pattern in ("any", "bid"):
                continue
            visit(opp.node, depth + 1)

    visit(system.root, 1)
    return rows
