"""Game misses and failing games of a real-board replay, and how often the recorded tables
double a contested partscore that goes down.

Reads the JSON that ``benchmarks/bench_real_boards.py --json PATH`` writes (no bidding, no
solving: seconds) and lists per system

- **missed**: boards where the recorded table bid a game (below slam) that makes double
  dummy and bidbox stopped in a partscore (or passed it out);
- **failing**: boards where bidbox bid a game that fails double dummy and the recorded
  table bid no game;

each with the board's par gap (bidbox's loss to par minus the recorded table's, IMPs), both
auctions and the par contracts, and the sum of the gaps of each list. Then, from the
recorded tables alone, the contracts below slam that went two or more down in an auction
both sides bid in, and how many of them were doubled: the rate judgement's doubling model
was checked against (docs/DESIGN.md, "Competing where the notes stop").

    python benchmarks/game_misses.py RESULT.json [--system NAME]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

GAME_LEVEL = {"NT": 3, "S": 4, "H": 4, "D": 5, "C": 5}
_CONTRACT = re.compile(r"^([1-7])(NT|S|H|D|C)(X{0,2})([NESW])$")


class Contract:
    """A final contract as the replay's JSON writes it: ``4HXS`` is four hearts doubled
    by South; anything else (a pass-out) reads as None."""

    def __init__(self, level: int, strain: str, doubled: int, declarer: str) -> None:
        self.level, self.strain, self.doubled, self.declarer = level, strain, doubled, declarer

    @classmethod
    def parse(cls, text: str | None) -> Contract | None:
        match = _CONTRACT.match(text or "")
        if match is None:
            return None
        return cls(int(match[1]), match[2], len(match[3]), match[4])

    @property
    def is_game(self) -> bool:
        return GAME_LEVEL[self.strain] <= self.level < 6

    @property
    def at_game_or_above(self) -> bool:
        return self.level >= GAME_LEVEL[self.strain]

    def declarer_score(self, ns_score: int) -> int:
        return ns_score if self.declarer in "NS" else -ns_score


def _vulnerable(vul: str, declarer: str) -> bool:
    return vul == "both" or (vul == "ns" and declarer in "NS") or (vul == "ew" and declarer in "EW")


def undertricks(contract: Contract, score: int, vul: bool) -> int:
    """How many down a contract went, from the declarer's (negative) score."""
    if contract.doubled == 0:
        return -score // (100 if vul else 50)
    steps = [200, 500, 800, 1100, 1400, 1700] if vul else [100, 300, 500, 800, 1100, 1400]
    factor = 2 if contract.doubled == 2 else 1
    lost = -score // factor
    return next((i + 1 for i, s in enumerate(steps) if s >= lost), len(steps))


def both_sides_bid(auction: str) -> bool:
    """Whether both sides made a call other than pass (seats alternate sides)."""
    return len({i % 2 for i, call in enumerate(auction.split()) if call != "P"}) == 2


def classify(boards: Iterable[Mapping[str, Any]]) -> tuple[list[Mapping[str, Any]],
                                                         list[Mapping[str, Any]]]:
    """The missed and the failing games of one system's boards."""
    missed, failing = [], []
    for board in boards:
        ours = Contract.parse(board["contract"])
        theirs = Contract.parse(board["recorded_contract"])
        if (theirs is not None and theirs.is_game
                and theirs.declarer_score(board["recorded_ns"]) > 0
                and (ours is None or not ours.at_game_or_above)):
            missed.append(board)
        if (ours is not None and ours.is_game and ours.declarer_score(board["ns"]) < 0
                and (theirs is None or not theirs.is_game)):
            failing.append(board)
    return missed, failing


def doubling_rate(boards: Iterable[Mapping[str, Any]]) -> dict[str, tuple[int, int]]:
    """Per level group ('partscore', 'game'): contested contracts of the recorded tables
    two or more down (double dummy), and how many of them were doubled."""
    out = {"partscore": (0, 0), "game": (0, 0)}
    for board in boards:
        contract = Contract.parse(board["recorded_contract"])
        if contract is None or contract.level >= 6 or not both_sides_bid(board["recorded_auction"]):
            continue
        score = contract.declarer_score(board["recorded_ns"])
        vul = _vulnerable(board["vul"], contract.declarer)
        if score >= 0 or undertricks(contract, score, vul) < 2:
            continue
        group = "game" if contract.at_game_or_above else "partscore"
        total, doubled = out[group]
        out[group] = (total + 1, doubled + (contract.doubled > 0))
    return out


def _line(board: Mapping[str, Any]) -> str:
    return (f"  {board['gap']:+3d}  {board['board']}  (dealer {board['dealer']}, vul "
            f"{board['vul']})\n        bidbox:   {board['auction']} -> {board['contract']}\n"
            f"        recorded: {board['recorded_auction']} -> {board['recorded_contract']}, "
            f"par {board['par_contracts']}")


def report(result: Mapping[str, Any], systems: Sequence[str]) -> str:
    out = []
    for name in systems:
        boards = result["systems"][name]["per_board"]
        missed, failing = classify(boards)
        for title, rows in (("recorded game makes, bidbox in a partscore", missed),
                            ("bidbox's game fails, the recorded table bid none", failing)):
            out.append(f"{name}: {title}: {len(rows)} boards, par gap "
                       f"{sum(r['gap'] for r in rows):+d} IMPs")
            out.extend(_line(r) for r in rows)
    first = next(iter(result["systems"].values()))["per_board"]
    for group, (total, doubled) in doubling_rate(first).items():
        share = f"{doubled / total:.0%}" if total else "-"
        out.append(f"recorded tables, contested {group}s two or more down: {total}, "
                   f"doubled {doubled} ({share})")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("result", type=Path, help="JSON of bench_real_boards.py --json")
    parser.add_argument("--system", action="append", metavar="NAME",
                        help="only this system (repeatable; default: every one in the file)")
    args = parser.parse_args(argv)
    try:
        result = json.loads(args.result.read_text())
    except (OSError, ValueError) as err:
        print(f"game_misses: cannot read {args.result}: {err}", file=sys.stderr)
        return 2
    names = args.system or list(result["systems"])
    unknown = [n for n in names if n not in result["systems"]]
    if unknown:
        print(f"game_misses: {args.result} has no system {', '.join(unknown)} "
              f"(it has {', '.join(result['systems'])})", file=sys.stderr)
        return 2
    print(report(result, names))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
