"""The compiled auction tree read once for every outside format.

Each format (BBOalert, BML, BSS, HTML notes, cards) needs the same facts about every
call of our side: the calls before it (opponents' ones as the tree names them, a
wildcard included), the table contexts in which the notes reach it (seat and
vulnerability, from the guards along its path), the regulation's alert decision, and
what its meaning shows (strains, lengths, forcing). They are computed here, from the
compiled meanings, so no format writes a fact by hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from itertools import product

from bidbox.core.auction import Auction
from bidbox.core.calls import Call, CallKind, Strain
from bidbox.core.seats import Seat, Side, Vulnerability
from bidbox.engine.predicates import TableContext
from bidbox.engine.walk import guard_holds
from bidbox.formats.alerting import AlertReader
from bidbox.lang.system import CallEntry, Node, OppEntry, System
from bidbox.rules.meaning import MeaningStats, shape_stats
from bidbox.rules.regulation import AlertDecision, Regulation

Context = tuple[int, bool, bool]
"""The caller's seat (1 = dealer) and whether his side and the other side are vulnerable."""

ALL_CONTEXTS: frozenset[Context] = frozenset(
    product((1, 2, 3, 4), (False, True), (False, True)))

PASS = Call(CallKind.PASS)
WILDCARDS = ("any", "bid")
"""The opponents' wildcards of the language: any call but pass, any bid."""


@dataclass(frozen=True)
class Token:
    """One call of a path: ours (a call) or the opponents' (a call or a wildcard)."""

    ours: bool
    call: Call | None  # None for an opponents' wildcard
    pattern: str = ""  # the wildcard: "any" (any call but pass) or "bid" (any bid)
    implicit: bool = False  # an opponents' pass the tree leaves unwritten
    wildcard: str = ""  # "any" or "bid" when the call is one the notes' wildcard stands for
    unseen: bool = False
    """An opponents' line that asks what their call means (``(1D) [transfer(H)]``) in a way
    their call, read as natural, does not meet: only their notes can tell it applies."""

    def __str__(self) -> str:
        inner = str(self.call) if self.call is not None else self.pattern
        return inner if self.ours else f"({inner})"


@dataclass
class PublishedCall:
    """A call of our side at one place of the tree, with every fact a format writes."""

    entry: CallEntry
    path: tuple[Token, ...]  # the calls before this one, from the first call of the tree
    openers: frozenset[tuple[int, bool, bool]]  # (seat of the path's first caller, vul, they)
    regulation: Regulation
    system: System
    parent: PublishedCall | None = None
    children: list[PublishedCall] = field(default_factory=list)
    reader: AlertReader | None = field(default=None, repr=False)
    """Shared by the calls of one tree, so each decision reads only its own call."""

    @property
    def call(self) -> Call:
        return self.entry.call

    @property
    def reads_their_notes(self) -> bool:
        """Whether the path passes an opponents' line that only their notes can tell
        applies (a defence to their transfer 1D, say): a tool that matches the calls
        alone, as BBOalert does, cannot know it is in that auction."""
        return any(t.unseen for t in self.path)

    @property
    def depth(self) -> int:
        """How many of our calls lead here, this one included (an opening is 1)."""
        return 1 + sum(1 for t in self.path if t.ours)

    @cached_property
    def contexts(self) -> frozenset[Context]:
        """The caller's (seat, vul, they vul) in which the notes reach this call."""
        n = len(self.path)
        return frozenset(((f - 1 + n) % 4 + 1, v, t) for f, v, t in self.openers)

    @property
    def everywhere(self) -> bool:
        return self.contexts == ALL_CONTEXTS

    @property
    def text(self) -> str:
        return self.entry.text()

    @property
    def meaning_line(self) -> str:
        """The meaning on one line, with its forcing status when the text does not say it."""
        text = " ".join(self.text.split())
        forcing = self.entry.forcing
        said = {"f1": "forcing", "gf": "game forc", "inv": "invit", "signoff": "sign",
                "poc": "correct"}
        if forcing is not None and forcing.value in said and said[forcing.value] not in \
                text.lower():
            text = f"{text}; {forcing}"
        return text

    @property
    def auction_text(self) -> str:
        """The path and the call as the CLI reads an auction (opponents' calls bare)."""
        return " ".join([*(str(t.call) if t.call is not None else "?" for t in self.path),
                         str(self.call)])

    @cached_property
    def auction(self) -> Auction:
        """A real auction ending in this call, in the first context the notes allow
        (dealer North, the passes before the first call of the tree written)."""
        f, vul, they = min(self.openers)
        calls = [PASS] * (f - 1) + list(self.entry.auction)
        seat = Seat((f - 1 + len(self.entry.auction) - 1) % 4)
        ours, theirs = seat.side, seat.lho.side
        vulnerable = {side for side, flag in ((ours, vul), (theirs, they)) if flag}
        table = {frozenset(): Vulnerability.NONE, frozenset({Side.NS}): Vulnerability.NS,
                 frozenset({Side.EW}): Vulnerability.EW,
                 frozenset({Side.NS, Side.EW}): Vulnerability.BOTH}[frozenset(vulnerable)]
        return Auction(Seat.N, table).extend(calls)

    @cached_property
    def decision(self) -> AlertDecision:
        """The regulation's alert decision for this call, read in place (negative
        inference of the whole auction included), as `bidbox explain` decides it."""
        if self.reader is None:
            self.reader = AlertReader({Side.NS: self.system, Side.EW: self.system},
                                      self.regulation)
        return self.reader.decision(self.auction)

    @property
    def alert(self) -> bool:
        return self.decision.alert

    @cached_property
    def shape(self) -> MeaningStats:
        """HCP and suit-length ranges of the hands that show this meaning, in the first
        table context the notes reach it (a guard such as 'vul' holds there)."""
        ctx = _context_at(min(self.openers), self.path, len(self.path))
        return shape_stats(self.entry.shown, ctx)

    @property
    def is_artificial(self) -> bool:
        """Artificial as the system tags it, or a suit bid whose meaning speaks of shape
        but does not promise three cards of the suit (the regulations' line between
        natural and conventional). A meaning of strength only ("accepts") continues the
        suits already shown and counts as natural."""
        if self.entry.is_artificial or "conventional" in self.entry.tags:
            return True
        call = self.call
        if call.is_bid and call.strain is not None and call.strain.is_suit:
            st = self.shape
            speaks_of_shape = any(lo > 0 or hi < 13 for lo, hi in st.lengths)
            return st.possible and speaks_of_shape and \
                st.min_length(_suit_index(call.strain)) < 3
        return False

    def length_range(self, strain: Strain) -> tuple[int, int]:
        st = self.shape
        return st.lengths[_suit_index(strain)] if st.possible else (0, 13)

    def shown_strains(self) -> list[Strain]:
        """The suits this call promises four or more cards in, and its own strain when
        natural: where the partnership may play after it."""
        out = []
        for strain in (Strain.C, Strain.D, Strain.H, Strain.S):
            lo, _ = self.length_range(strain)
            own = self.call.strain is strain and not self.is_artificial
            if lo >= 4 or own:
                out.append(strain)
        if self.call.strain is Strain.NT and not self.is_artificial:
            out.append(Strain.NT)
        return out

    def walk(self) -> Iterator[PublishedCall]:
        yield self
        for child in self.children:
            yield from child.walk()


def call_order(call: Call) -> int:
    """Where a call sits in a printed list: pass, the bids upwards, double, redouble."""
    if call.is_bid:
        return call.rank
    return {CallKind.PASS: -1, CallKind.DOUBLE: 40, CallKind.REDOUBLE: 41}[call.kind]


def _suit_index(strain: Strain) -> int:
    """Index in the S, H, D, C order of hands and meaning statistics."""
    return {Strain.S: 0, Strain.H: 1, Strain.D: 2, Strain.C: 3}[strain]


@dataclass
class PublishedTree:
    system: System
    regulation: Regulation
    roots: list[PublishedCall]

    def calls(self) -> Iterator[PublishedCall]:
        for root in self.roots:
            yield from root.walk()


def read_tree(system: System, regulation: Regulation, max_depth: int | None = None
              ) -> PublishedTree:
    """Every call of our side in the tree, in the order the bidder tries them, down to
    ``max_depth`` of our calls (all when None). Calls the notes reach in no table context
    (a guard that never holds on their path) are left out, and so are the passes of any
    hand tried last, which only say that the notes stop."""
    roots: list[PublishedCall] = []
    reader = AlertReader({Side.NS: system, Side.EW: system}, regulation)

    def visit(node: Node, path: tuple[Token, ...], openers: frozenset[Context],
              parent: PublishedCall | None, out: list[PublishedCall]) -> None:
        ours_count = sum(1 for t in path if t.ours)
        if max_depth is not None and ours_count >= max_depth:
            return
        for entry in node.ordered():
            if entry.is_default_pass:
                continue
            index = len(path)
            kept = frozenset(o for o in openers
                             if guard_holds(entry, _context_at(o, path, index)))
            if not kept:
                continue
            published = PublishedCall(entry, path, kept, regulation, system, parent,
                                      reader=reader)
            out.append(published)
            after = (*path, Token(True, entry.call))
            follow(entry.node, after, kept, published, published.children)

    def follow(node: Node, path: tuple[Token, ...], openers: frozenset[Context],
               parent: PublishedCall | None, out: list[PublishedCall]) -> None:
        """After our call: the opponents' pass (implicit unless written) and their calls
        the tree names, each followed by our next calls."""
        explicit_pass = any(o.call == PASS for o in node.opp)
        if not explicit_pass:
            visit(node, (*path, Token(False, PASS, implicit=True)), openers, parent, out)
        for opp in node.opp:
            visit(opp.node, (*path, _opp_token(opp)), openers, parent, out)

    visit(system.root, (), ALL_CONTEXTS, None, roots)
    for opp in system.root.opp:  # the opponents open; our calls follow theirs
        visit(opp.node, (_opp_token(opp),), ALL_CONTEXTS, None, roots)
    return PublishedTree(system, regulation, roots)


def _opp_token(opp: OppEntry) -> Token:
    """An opponents' line as a path token; the compiler writes a wildcard line as one
    line per call it stands for, each keeping the wildcard as its pattern."""
    if opp.call is None:
        return Token(False, None, opp.pattern, unseen=not opp.fits(None))
    return Token(False, opp.call, wildcard=opp.pattern if opp.pattern in WILDCARDS else "",
                 unseen=not opp.fits(None))


def _context_at(opener: Context, path: tuple[Token, ...], index: int) -> TableContext:
    """The table context of the call at ``index`` of a path whose first call is made in
    seat ``opener[0]``: its seat, vulnerability and whether that hand has passed (before
    the tree began, or by a pass of ours earlier in the path)."""
    first, vul, they = opener
    seat = (first - 1 + index) % 4 + 1
    passed = seat < first or any(
        t.ours and t.call == PASS for i, t in enumerate(path[:index]) if i % 4 == index % 4)
    return TableContext(seat=seat, vul=vul, they_vul=they, passed=passed)


__all__ = ["ALL_CONTEXTS", "Context", "PublishedCall", "PublishedTree", "Token", "call_order",
           "read_tree"]
