"""One shape for what a check finds: lint's findings and a regulation's verdicts.

Work that can find many problems at once returns a list of findings rather than stopping
at the first (DESIGN §6). Lint (``verify``) and the regulation checks (``rules``) used to
have a type each; both now build this one, in the lowest layer so that neither imports
the other. Every finding has a severity, a code, a message, where in the system file it
comes from and, when a hand shows it, a witness hand; each reader fills the fields it
knows (lint: how the verdict was reached; a regulation: the rule, its section and the
level that permits the call) and leaves the others empty.

The JSON form has every key for every finding, so one reader serves both commands; the
keys ``bidbox lint --json`` and ``bidbox check --json`` printed before are kept as they
were (public contracts: keys are added, never renamed).
"""

from __future__ import annotations

from dataclasses import dataclass

SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True)
class Finding:
    """One thing a check found.

    Lint builds it positionally in this order, so the first ten fields keep lint's order.
    """

    severity: str  # one of SEVERITIES
    code: str  # lint: "unreachable", "hole", "open-forcing", "compile"; rules: "licence"
    message: str
    auction: str = ""  # the calls before the point, with the passes, as the CLI reads them
    call: str | None = None
    location: str | None = None  # file:line:col of the call or node in the system file
    witness: str | None = None  # a PBN hand that shows the finding
    method: str = "exact"  # "exact", or "sampled (...)" saying how many hands
    contexts: tuple[str, ...] = ()  # the table situations where it holds; () = all reached
    sample: int | None = None  # hands a sampled verdict rests on (None: exact)
    rule: str | None = None  # a regulation's rule, e.g. "Rule of 18"
    section: str | None = None  # where the regulation says so, e.g. "2.2 §5"
    level: int | None = None  # the lowest licensing level permitting it; None: none does

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"severity {self.severity!r} is not one of {SEVERITIES}")

    @property
    def sampled(self) -> bool:
        """Whether the verdict rests on dealt hands rather than the exact space."""
        return self.method != "exact"

    def to_json(self) -> dict[str, object]:
        return {"severity": self.severity, "code": self.code, "message": self.message,
                "auction": self.auction, "call": self.call, "location": self.location,
                "witness": self.witness, "method": self.method, "sampled": self.sampled,
                "sample_size": self.sample, "contexts": list(self.contexts),
                "rule": self.rule, "section": self.section, "level": self.level}
