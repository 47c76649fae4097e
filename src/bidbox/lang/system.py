"""The compiled system: a tree of auction nodes, each with its calls and their meanings."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from bidbox.core.calls import Call, CallKind
from bidbox.lang.constraints import ANY, Constraint, conjoin
from bidbox.lang.diagnostics import Location


class Forcing(Enum):
    """How far a call obliges partner to keep bidding."""

    NONFORCING = "nf"
    INVITATIONAL = "inv"
    FORCING = "f1"
    GAME_FORCING = "gf"
    SIGNOFF = "signoff"
    PASS_OR_CORRECT = "poc"

    def __str__(self) -> str:
        return {"nf": "non-forcing", "inv": "invitational", "f1": "forcing one round",
                "gf": "game forcing", "signoff": "sign-off",
                "poc": "pass or correct"}[self.value]

    @property
    def is_forcing(self) -> bool:
        return self in (Forcing.FORCING, Forcing.GAME_FORCING)


FORCING_WORDS = {
    "nf": Forcing.NONFORCING, "nonforcing": Forcing.NONFORCING, "non-forcing": Forcing.NONFORCING,
    "inv": Forcing.INVITATIONAL, "invitational": Forcing.INVITATIONAL,
    "f1": Forcing.FORCING, "forcing": Forcing.FORCING, "f": Forcing.FORCING,
    "gf": Forcing.GAME_FORCING, "game-forcing": Forcing.GAME_FORCING,
    "so": Forcing.SIGNOFF, "signoff": Forcing.SIGNOFF, "sign-off": Forcing.SIGNOFF,
    "poc": Forcing.PASS_OR_CORRECT, "pass-or-correct": Forcing.PASS_OR_CORRECT,
}

FORCING_ASKS: dict[str, frozenset[Forcing]] = {
    Forcing.NONFORCING.value: frozenset({Forcing.NONFORCING, Forcing.INVITATIONAL,
                                         Forcing.SIGNOFF, Forcing.PASS_OR_CORRECT}),
    **{f.value: frozenset({f}) for f in Forcing if f is not Forcing.NONFORCING}}
"""What a forcing word on an opponents' line asks of their call's status. ``[nf]`` takes
every call their partner may pass (non-forcing, invitational, sign-off, pass or correct):
the calls they may be left to play in."""

FORCING_PASS = "forcing-pass"
"""The tag of a pass that obliges partner to call: the regulation alerts it, and
judgement does not pass over it."""

TAGS = frozenset({
    "artificial", "natural", "relay", "ask", "answer", "transfer", "puppet", "control",
    "cue", "preempt", "conventional", "stayman", "blackwood", "gerber", "takeout", "penalty",
    "negative", "waiting", "splinter", "michaels", "unusual", "limit", "strong", "weak",
    "canape", "raise", "cuebid", "optional", "lead-directing", "competitive", "balancing",
    "two-suited", "quantitative", "keycard", "fourth-suit", "baron", "denial", "step",
    "sign-off", "game-try", "opening", "overcall", "jump", "fit", "multi", FORCING_PASS,
    "rescue", "responsive", "lightner", "support", "inquiry", "exclusion",
})
"""Tags a call may carry; ``transfer(H)`` style tags name a suit."""


@dataclass(frozen=True)
class OptionDecl:
    """A named partnership option: on/off, or one of several values (first is default)."""

    name: str
    values: tuple[str, ...]  # () for an on/off option
    description: str
    location: Location

    @property
    def default(self) -> str | bool:
        return self.values[0] if self.values else False


@dataclass
class CallEntry:
    """One call at a node and its meaning."""

    call: Call
    shows: Constraint
    requires: Constraint | None
    guard: Constraint  # table context (seat, vulnerability) under which this entry applies
    forcing: Forcing | None
    tags: tuple[str, ...]
    alert: bool | None  # as written; None means: let the rules decide
    description: str | None
    priority: int
    order: int
    location: Location
    node: Node
    auction: tuple[Call, ...]  # the calls up to and including this one (implicit passes in)

    @property
    def choose(self) -> Constraint:
        """What a hand needs for the bidder to choose this call."""
        # Asked at every step that reaches the node: one object while the parts stay the
        # same ones, so its predicate and masks are found by a kept hash (core.hashing).
        kept = self.__dict__.get("_choose")
        if (kept is not None and kept[0] is self.guard and kept[1] is self.requires
                and kept[2] is self.shows):
            return kept[3]  # type: ignore[no-any-return]
        out = conjoin([self.guard, self.requires if self.requires is not None else self.shows])
        self.__dict__["_choose"] = (self.guard, self.requires, self.shows, out)
        return out

    @property
    def shown(self) -> Constraint:
        """What the call tells partner and opponents (before negative inference)."""
        kept = self.__dict__.get("_shown")
        if kept is not None and kept[0] is self.guard and kept[1] is self.shows:
            return kept[2]  # type: ignore[no-any-return]
        out = conjoin([self.guard, self.shows])
        self.__dict__["_shown"] = (self.guard, self.shows, out)
        return out

    def __getstate__(self) -> dict[str, Any]:
        # The kept constraints are not part of the entry: a compiled system in the disk
        # cache stays what it was.
        return {k: v for k, v in self.__dict__.items() if k not in ("_choose", "_shown")}

    @property
    def is_forcing_pass(self) -> bool:
        """A pass that obliges partner to call: tagged ``forcing-pass``, or written with a
        forcing word (``f1``, ``gf``). One reading for every reader: the regulation
        alerts it, the convention card lists it, judgement binds partner by it."""
        return self.call.kind is CallKind.PASS and (
            FORCING_PASS in self.tags or (self.forcing is not None and self.forcing.is_forcing))

    @property
    def is_artificial(self) -> bool:
        return "artificial" in self.tags or "relay" in self.tags or any(
            t.startswith("transfer") for t in self.tags)

    @property
    def is_default_pass(self) -> bool:
        """A pass of any hand tried last ('P any [priority -N]'): the notes stop here and
        leave the decision to judgement, which passes where passing is right."""
        return (self.call.kind.name == "PASS" and self.shows == ANY and self.requires is None
                and self.priority < 0)

    def text(self) -> str:
        """The description as written, or one generated from the constraint."""
        if self.description:
            return self.description
        return self.shows.describe() if self.shows != ANY else "any hand"


@dataclass
class OppEntry:
    """An opponents' call (or wildcard) after which our side's methods continue."""

    pattern: str  # a canonical call like "1H", or a wildcard: "any", "bid"
    call: Call | None
    location: Location
    node: Node
    meaning: tuple[str, ...] = ()  # tags their call must carry: (1C) [strong], (1D) [natural]
    # and a forcing status it must have ((3C) [nf]: a call their partner may pass)

    def fits(self, theirs: CallEntry | None) -> bool:
        """Whether the opponents' call, as their own notes read it (None: their notes do
        not define it, so it is taken as natural), carries every tag this line asks."""
        for tag in self.meaning:
            statuses = FORCING_ASKS.get(tag)
            if statuses is not None:  # a status needs their notes: unknown is no match
                if theirs is None or theirs.forcing not in statuses:
                    return False
            elif tag == "natural":
                if theirs is not None and theirs.is_artificial:
                    return False
            elif tag == "artificial":
                if theirs is None or not theirs.is_artificial:
                    return False
            elif theirs is None or tag not in theirs.tags:
                return False
        return True

    def matches(self, call: Call) -> bool:
        if self.call is not None:
            return self.call == call
        if self.pattern == "any":
            return call.kind.name != "PASS"
        if self.pattern == "bid":
            return call.is_bid
        return False


@dataclass
class Node:
    """A point in our side's auction tree: the calls we may make next."""

    auction: tuple[Call, ...]  # actual calls so far, implicit opponents' passes included
    ours_last: bool  # whether the last call in ``auction`` was ours
    label: str = ""  # the tree path as written: opponents' calls in parentheses
    calls: list[CallEntry] = field(default_factory=list)
    opp: list[OppEntry] = field(default_factory=list)

    def ordered(self) -> list[CallEntry]:
        """Calls in the order the bidder tries them: higher priority first, then file order."""
        return sorted(self.calls, key=lambda e: (-e.priority, e.order))

    def opp_child(self, call: Call, theirs: CallEntry | None = None) -> OppEntry | None:
        """Where our methods continue after the opponents' ``call`` (``theirs``: its
        meaning in their notes). A written call wins over a wildcard, and a line that asks
        for a meaning ((1C) [strong]) wins over one that does not when the call has it."""
        for exact in (True, False):
            found = [o for o in self.opp if (o.call is not None) is exact and o.matches(call)
                     and o.fits(theirs)]
            if found:
                return max(found, key=lambda o: len(o.meaning))
        return None

    def walk(self) -> list[Node]:
        out = [self]
        for entry in self.calls:
            out.extend(entry.node.walk())
        for opp in self.opp:
            out.extend(opp.node.walk())
        return out


@dataclass
class System:
    """A compiled bidding system with the options it was compiled for."""

    name: str
    title: str
    source: str
    file: str
    options: dict[str, OptionDecl]
    selected: dict[str, str | bool]
    root: Node
    notes: dict[str, str]
    fallback: str = "natural"
    base: System | None = None  # the shared natural base, tried where these notes are silent

    def nodes(self) -> list[Node]:
        return self.root.walk()
