"""Canary relay decoding: after the relays end, does ``explain`` state opener's hand?

    python benchmarks/bench_canary_relays.py [--hands 5000] [--seed 12] [--json PATH]

Dealt hands are kept when Canary opens them 1D, 1H, 1S, 2H or 2S in first seat (the
openings whose development the notes write as relays). South relays at every turn: the
forcing 1NT after a one-bid (n.423-452), then the second relay (n.686-814), and after
2H/2S the relays of n.1155-1540; the relay is the cheapest call of South's that the file
tags ``relay``. North answers with the engine's bidder (``choose_at_node``, the batch
form of ``choose_call``). When South has no relay left, the auction is explained once
and every hand that bid it is checked against what ``explain`` states for North:

- exact: ``explain`` gives the full shape and it is the hand's;
- mismatch: a suit length or the HCP of the hand lie outside the stated ranges (a wrong
  statement; must be 0);
- suits: the mean number of suits whose exact length ``explain`` states;
- left to judgement: North's hand fits no answer of the notes somewhere on the way (the
  notes' catch-all pass, or no line), so nothing is decoded.

The share decoded exactly is over the hands whose relays ran to the end in the notes,
with a 95% Wilson interval; a per-opening table and the commonest inexact auctions
follow. The shape is the target: after a one-bid the notes show strength only in some
sequences (maximum 2NT rebids, the 4-loser jumps), so HCP are checked, not required.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import numpy.typing as npt

from bidbox.core import Auction, Call, Seat, Vulnerability
from bidbox.engine import as_systems, explain
from bidbox.engine.decide import choose_at_node
from bidbox.engine.features import HandFeatures
from bidbox.engine.walk import table_context
from bidbox.evaluate import deal_batch
from bidbox.lang import System, load_system
from bidbox.lang.system import CallEntry, Node

OPENINGS = ("1D", "1H", "1S", "2H", "2S")
PASS = Call.parse("P")
MAX_RELAYS = 5

IntArray = npt.NDArray[np.int64]


@cache
def canary() -> System:
    return load_system("canary")


@dataclass
class Tally:
    """Counts for one opening (or all)."""

    dealt: int = 0
    judged: int = 0
    decoded: int = 0
    exact: int = 0
    mismatches: int = 0
    suits_known: int = 0  # suits whose exact length explain states, summed over hands
    inexact: Counter[str] = field(default_factory=Counter)
    wrong: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.dealt += other.dealt
        self.judged += other.judged
        self.decoded += other.decoded
        self.exact += other.exact
        self.mismatches += other.mismatches
        self.suits_known += other.suits_known
        self.inexact.update(other.inexact)
        self.wrong.extend(other.wrong)


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share (a plain normal interval is wrong near 1)."""
    if n == 0:
        return 0.0, 1.0
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def relay_entry(node: Node, auction: Auction) -> CallEntry | None:
    """South's relay at ``node``: the cheapest legal call the file tags ``relay``."""
    relays = [e for e in node.calls if "relay" in e.tags and e.call.is_bid
              and auction.is_legal(e.call)]
    return min(relays, key=lambda e: e.call.rank) if relays else None


def north_answers(node: Node, feats: HandFeatures, index: IntArray, auction: Auction
                  ) -> tuple[list[tuple[CallEntry, IntArray]], IntArray]:
    """North's calls at ``node`` for the hands ``index``; the hands the notes leave to
    judgement (their catch-all pass, or no line fits) come back separately."""
    ctx = table_context(auction, len(auction.calls))
    chosen = choose_at_node(node, feats.take(index), ctx, auction)
    taken = np.zeros(len(index), dtype=bool)
    out: list[tuple[CallEntry, IntArray]] = []
    for entry, hit in chosen:
        taken |= hit
        if entry.is_default_pass:
            continue
        out.append((entry, index[hit]))
    judged = index[~taken]
    judged = np.concatenate([judged] + [index[hit] for e, hit in chosen if e.is_default_pass])
    return out, judged


def relay_auctions(feats: HandFeatures, opened: dict[str, IntArray]
                   ) -> tuple[list[tuple[str, Auction, IntArray]], dict[str, int]]:
    """Each final auction (South has no relay left) with its hands, per opening; and the
    hands per opening that judgement took over on the way."""
    system = canary()
    done: list[tuple[str, Auction, IntArray]] = []
    judged: dict[str, int] = defaultdict(int)
    for opening, index in opened.items():
        entry = next(e for e in system.root.calls if str(e.call) == opening)
        auction = Auction(Seat.N, Vulnerability.NONE).add(entry.call).add(PASS)
        stack: list[tuple[Auction, Node, IntArray, int]] = [(auction, entry.node, index, 0)]
        while stack:
            auction, node, hands, depth = stack.pop()
            relay = relay_entry(node, auction) if depth < MAX_RELAYS else None
            if relay is None:
                done.append((opening, auction, hands))
                continue
            asked = auction.add(relay.call).add(PASS)
            answers, left = north_answers(relay.node, feats, hands, asked)
            judged[opening] += len(left)
            for answer, sub in answers:
                stack.append((asked.add(answer.call).add(PASS), answer.node, sub, depth + 1))
    return done, judged


def deal_openers(count: int, seed: int) -> tuple[HandFeatures, dict[str, IntArray], list[str]]:
    """Deal until ``count`` North hands open one of OPENINGS; their features, the hands
    per opening, and each hand's S.H.D.C text."""
    system = canary()
    empty = Auction(Seat.N, Vulnerability.NONE)
    ctx = table_context(empty, 0)
    masks: list[npt.NDArray[np.int16]] = []
    texts: list[str] = []
    calls: list[str] = []
    batch = 0
    while len(calls) < count:
        pool = deal_batch(max(count * 4, 2000), seed=seed + batch)
        north = pool.hands(Seat.N)
        opening = np.full(len(pool), "", dtype=object)
        for entry, hit in choose_at_node(system.root, HandFeatures(north), ctx, empty):
            opening[hit] = str(entry.call)
        for i in np.flatnonzero(np.isin(opening, OPENINGS))[:count - len(calls)]:
            masks.append(north[i])
            texts.append(str(pool.hand(int(i), Seat.N)))
            calls.append(str(opening[i]))
        batch += 1
    feats = HandFeatures(np.array(masks, dtype=np.int16))
    by_call = {o: np.array([i for i, c in enumerate(calls) if c == o], dtype=np.int64)
               for o in OPENINGS}
    return feats, {o: ix for o, ix in by_call.items() if len(ix)}, texts


def measure(count: int, seed: int) -> dict[str, Tally]:
    feats, opened, texts = deal_openers(count, seed)
    lengths = feats.value("lengths")
    hcp = feats.value("hcp")
    done, judged = relay_auctions(feats, opened)
    tallies: dict[str, Tally] = {o: Tally(dealt=len(ix), judged=judged[o])
                                 for o, ix in opened.items()}
    systems = as_systems(canary())
    for opening, auction, hands in done:
        tally = tallies[opening]
        known = explain(auction, systems).to_json()["knowledge"]
        assert isinstance(known, dict)
        north = known["N"]
        shape = north.get("shape")
        lo_hi = [north.get(s, [0, 13]) for s in "SHDC"]
        points = north.get("hcp", [0, 37])
        text = " ".join(str(c) for c in auction.calls)
        pinned = sum(1 for lo, hi in lo_hi if lo == hi)
        for i in hands.tolist():
            tally.decoded += 1
            tally.suits_known += pinned
            have = [int(x) for x in lengths[i]]
            wrong = any(not (lo <= n <= hi) for n, (lo, hi) in zip(have, lo_hi, strict=True))
            wrong |= not (points[0] <= hcp[i] <= points[1])
            if wrong:
                tally.mismatches += 1
                tally.wrong.append(f"{text}: {texts[i]} against {north.get('text')}")
            elif shape == "-".join(map(str, have)):
                tally.exact += 1
            else:
                tally.inexact[text] += 1
    return tallies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=5000,
                        help="North hands opening 1D/1H/1S/2H/2S (default 5000)")
    parser.add_argument("--seed", type=int, default=12, help="dealing seed (default 12)")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    tallies = measure(args.hands, args.seed)
    total = Tally()
    for t in tallies.values():
        total.add(t)
    print(f"Canary relay decoding: {total.dealt} hands opened {', '.join(OPENINGS)} "
          f"(seed {args.seed}), {time.perf_counter() - start:.1f} s")
    print(f"{'opening':>8} {'hands':>6} {'judged':>7} {'decoded':>8} {'exact':>7} "
          f"{'share':>7} {'95% interval':>16} {'suits':>6} {'wrong':>6}")
    rows: dict[str, dict[str, object]] = {}
    for name, t in [*tallies.items(), ("all", total)]:
        lo, hi = wilson(t.exact, t.decoded)
        share = t.exact / t.decoded if t.decoded else 0.0
        suits = t.suits_known / t.decoded if t.decoded else 0.0
        print(f"{name:>8} {t.dealt:>6} {t.judged:>7} {t.decoded:>8} {t.exact:>7} "
              f"{share:>7.1%} {f'{lo:.1%} - {hi:.1%}':>16} {suits:>6.2f} {t.mismatches:>6}")
        rows[name] = {"hands": t.dealt, "judged": t.judged, "decoded": t.decoded,
                      "exact": t.exact, "share": share, "interval": [lo, hi], "suits_known": suits,
                      "mismatches": t.mismatches}
    print("\ncommonest auctions that end without the full shape:")
    for text, n in total.inexact.most_common(8):
        print(f"  x{n:<5} {text}")
    for line in total.wrong[:10]:
        print(f"  MISMATCH {line}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"seed": args.seed, "rows": rows}, out, indent=2)
    return 1 if total.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
