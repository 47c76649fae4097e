"""What every jurisdiction's rules produce: alert decisions and licensing findings (the
one ``core.findings.Finding`` type lint also uses, with the rule, section and level).

A regulation is data plus small code behind the Regulation protocol; the engine
knows nothing of it. Add a jurisdiction by writing a module like ``sbu.py`` and
registering it in ``REGULATIONS``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from bidbox.core.auction import Auction
from bidbox.core.calls import Call
from bidbox.core.findings import Finding
from bidbox.engine.predicates import TableContext
from bidbox.lang.constraints import Constraint
from bidbox.lang.system import CallEntry, System


@dataclass(frozen=True)
class CallSituation:
    """One call of an auction with what the regulation needs to judge it."""

    auction: Auction  # the whole auction
    index: int  # 0-based position of the call
    entries: tuple[CallEntry | None, ...]  # the meaning of every call (None: outside the system)
    context: TableContext
    meanings: tuple[Constraint | None, ...] = ()  # each call's meaning with negative inference

    def meaning(self, index: int | None = None) -> Constraint | None:
        """What call ``index`` (default: this one) shows, negative inference included."""
        i = self.index if index is None else index
        if i < len(self.meanings) and self.meanings[i] is not None:
            return self.meanings[i]
        entry = self.entries[i]
        return entry.shown if entry is not None else None

    @property
    def call(self) -> Call:
        return self.auction.calls[self.index]

    @property
    def entry(self) -> CallEntry | None:
        return self.entries[self.index]

    @property
    def before(self) -> Auction:
        return Auction(self.auction.dealer, self.auction.vul, self.auction.calls[:self.index])


@dataclass(frozen=True)
class AlertDecision:
    alert: bool
    rule: str  # e.g. "conventional", "unexpectedly weak", "takeout double (default)"
    section: str  # where the regulation says so, e.g. "2.3.2 §1"
    reason: str
    override: bool = False  # the system file's [alert]/[noalert] overrode the rule
    stop_card: bool = False  # a jump bid: the Stop card is due

    def to_json(self) -> dict[str, object]:
        return {"alert": self.alert, "rule": self.rule, "section": self.section,
                "reason": self.reason, "override": self.override, "stop_card": self.stop_card}


def licence_finding(call: str, auction: str, rule: str, section: str, level: int | None,
                    witness: str | None, message: str, location: str | None = None,
                    method: str = "exact") -> Finding:
    """A licensing verdict on one call as a Finding: an error when no level permits it,
    else information naming the lowest level that does (whether that is a violation
    depends on the level asked, see CheckReport.violations)."""
    return Finding("error" if level is None else "info", "licence", message, auction, call,
                   location, witness, method, rule=rule, section=section, level=level)


LicenceFinding = Finding
"""The old name of the regulation's finding type, now the one Finding (build it with
``licence_finding``: Finding's own field order is lint's)."""


@dataclass
class CheckReport:
    regulation: str
    system: str
    findings: list[Finding] = field(default_factory=list)

    @property
    def verdict(self) -> int | None:
        """The lowest level at which everything is legal; None: not permitted at any level."""
        levels = [f.level for f in self.findings]
        if any(level is None for level in levels):
            return None
        return max((level for level in levels if level is not None), default=1)

    def violations(self, level: int) -> list[Finding]:
        return [f for f in self.findings if f.level is None or f.level > level]

    def to_json(self, level: int | None = None) -> dict[str, object]:
        shown = self.findings if level is None else self.violations(level)
        return {"regulation": self.regulation, "system": self.system, "verdict": self.verdict,
                "level": level, "permitted": None if level is None else not shown,
                "findings": [f.to_json() for f in shown]}


class Regulation(Protocol):
    name: str
    title: str
    levels: tuple[int, ...]

    def alert(self, situation: CallSituation) -> AlertDecision: ...

    def check(self, system: System) -> CheckReport: ...
