"""Reading known-answer case files for shipped systems.

One case a line, fields separated by ' | ':
    SECTION | AUCTION | HAND | EXPECT [| OPTIONS [| TABLE]]
- AUCTION: calls so far ('-' when the dealer is to call);
- HAND: PBN S.H.D.C of the seat to call (a bidding case), or '-' (a knowledge case);
- EXPECT: the call (bidding case), or items SEAT.KEY=LO-HI / SEAT.KEY=N / SEAT.shape=S-H-D-C
  (knowledge case; KEY is hcp, S, H, D, C, controls, ...);
- OPTIONS: comma-separated NAME or NAME=VALUE, or '-';
- TABLE: 'dealer=E vul=ns' (defaults N, none).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bidbox.core import Seat, Vulnerability


@dataclass(frozen=True)
class Case:
    file: str
    line: int
    section: str
    auction: str
    hand: str | None
    expect: str
    options: tuple[tuple[str, str | bool], ...]
    dealer: Seat
    vul: Vulnerability

    @property
    def id(self) -> str:
        what = f"bid {self.hand}" if self.hand else "knows"
        return f"{Path(self.file).name}:{self.line} {self.section} [{self.auction}] {what}"


def read_cases(path: Path) -> list[Case]:
    cases = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(" | ")]
        if len(fields) < 4:
            raise ValueError(f"{path}:{number}: a case needs SECTION | AUCTION | HAND | EXPECT")
        section, auction, hand, expect = fields[:4]
        options: list[tuple[str, str | bool]] = []
        if len(fields) > 4 and fields[4] not in ("-", ""):
            for item in fields[4].split(","):
                name, sep, value = item.strip().partition("=")
                options.append((name, value if sep else True))
        dealer, vul = Seat.N, Vulnerability.NONE
        if len(fields) > 5:
            for item in fields[5].split():
                key, _, value = item.partition("=")
                if key == "dealer":
                    dealer = Seat.parse(value)
                elif key == "vul":
                    vul = Vulnerability.parse(value)
        cases.append(Case(str(path), number, section, "" if auction == "-" else auction,
                          None if hand == "-" else hand, expect, tuple(options), dealer, vul))
    return cases


def parse_expectation(text: str) -> dict[tuple[str, str], tuple[float, float] | str]:
    """'N.hcp=12-14 S.H=4' -> {('N','hcp'): (12, 14), ('S','H'): (4, 4)}."""
    out: dict[tuple[str, str], tuple[float, float] | str] = {}
    for item in text.split():
        target, _, value = item.partition("=")
        seat, _, key = target.partition(".")
        if key == "shape":
            out[(seat, key)] = value
            continue
        lo, sep, hi = value.partition("-")
        out[(seat, key)] = (float(lo), float(hi if sep else lo))
    return out
