"""Benchmark bidbox's vectorised hand measures and batch dealer against endplay.

What is compared, in one run on one machine:

* Hand measures. bidbox evaluates a whole ``(N, 4)`` array of suit masks at once
  (``get_measure(name).batch(masks)``: one table look-up per suit); endplay evaluates
  one ``endplay.types.Hand`` at a time from Python. Pairs timed:

  ==============  ==========================================================
  bidbox          endplay
  ==============  ==========================================================
  hcp             ``endplay.evaluate.hcp(hand)``
  lengths         ``[len(hand.spades), len(hand.hearts), ...]``
  controls        ``endplay.evaluate.controls(hand)``
  roman_losers    ``endplay.evaluate.losers(hand)`` (the losing trick count:
                  endplay has no Roman losers, this is its closest analogue)
  ==============  ==========================================================

  The endplay sample is converted to ``Hand`` objects before timing, so only the
  evaluation itself is measured on both sides.

* Dealing. ``deal_batch(n, seed)`` against endplay's ``generate_deal()`` with no
  constraints, called once per deal, and against its bulk generator
  ``generate_deals(produce=n)``. Each ``generate_deal()`` call builds endplay's
  constraint-language parser afresh (pyparsing; about 25 ms, nearly all of its cost),
  so it gets its own, smaller sample (``--ref-single-deals``); the bulk generator
  pays that once and is the like-for-like comparison with a batch dealer.

* Agreement. On the endplay sample, bidbox's batch ``hcp``, ``controls`` and
  ``lengths`` must equal endplay's values hand for hand, and bidbox's ``ltc`` must
  equal ``endplay.evaluate.losers``; the script stops with an error otherwise.

Why the ratio is the claim: absolute rates depend on the CPU, its clock and load,
and the Python and numpy builds, so a number of hands per second from one machine
says little about another. Both sides run here under the same conditions, so their
ratio (bidbox rate / endplay rate) is what carries over, and it is what the target
(at least 100x per measure) is stated in. endplay's per-hand cost does not depend
on how many hands it is given, which is why a smaller sample (``--ref-hands``) is
enough to measure its rate. Every timing is the best of ``--repeats`` runs with
``time.perf_counter``, the usual way to discount interruptions by other processes.

Run: ``python benchmarks/bench_evaluate.py [--hands N] [--ref-hands N]
[--ref-deals N] [--json PATH]``; ``--help`` lists every option.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from endplay import evaluate as ep_eval
from endplay.dealer import generate_deal, generate_deals
from endplay.types import Hand as EpHand

from bidbox.core import Seat
from bidbox.evaluate import DealBatch, deal_batch, get_measure

SEAT = Seat.N


@dataclass(frozen=True)
class Pair:
    """One bidbox measure and the endplay per-hand function it is timed against."""

    measure: str
    endplay_label: str
    endplay_fn: Callable[[EpHand], Any]


def _ep_lengths(hand: EpHand) -> list[int]:
    return [len(hand.spades), len(hand.hearts), len(hand.diamonds), len(hand.clubs)]


PAIRS: tuple[Pair, ...] = (
    Pair("hcp", "evaluate.hcp", ep_eval.hcp),
    Pair("lengths", "len(hand.<suit>) x4", _ep_lengths),
    Pair("controls", "evaluate.controls", ep_eval.controls),
    Pair("roman_losers", "evaluate.losers (LTC)", ep_eval.losers),
)


@dataclass(frozen=True)
class MeasureResult:
    measure: str
    endplay_function: str
    bidbox_hands_per_s: float
    endplay_hands_per_s: float
    ratio: float
    meets_target: bool


@dataclass(frozen=True)
class DealResult:
    endplay_function: str
    bidbox_deals_per_s: float
    endplay_deals_per_s: float
    ratio: float


def best_time(fn: Callable[[], object], repeats: int) -> float:
    """The shortest of ``repeats`` wall-clock timings of ``fn()``, in seconds."""
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def apply_each(fn: Callable[[EpHand], Any], hands: list[EpHand]) -> list[Any]:
    """The per-hand way: call ``fn`` on every hand in turn."""
    return [fn(h) for h in hands]


def endplay_hands(batch: DealBatch) -> list[EpHand]:
    """The ``SEAT`` hand of every deal of ``batch`` as an endplay ``Hand``."""
    return [EpHand(batch.hand(i, SEAT).pbn()) for i in range(len(batch))]


def bench_measures(masks: npt.NDArray[np.int16], ref: list[EpHand], repeats: int,
                   target: float) -> list[MeasureResult]:
    results = []
    for pair in PAIRS:
        batch_fn = get_measure(pair.measure).batch
        batch_fn(masks[:16])  # warm the look-up tables outside the timing
        bidbox_s = best_time(partial(batch_fn, masks), repeats)
        ep_s = best_time(partial(apply_each, pair.endplay_fn, ref), repeats)
        bidbox_rate = len(masks) / bidbox_s
        ep_rate = len(ref) / ep_s
        ratio = bidbox_rate / ep_rate
        results.append(MeasureResult(pair.measure, pair.endplay_label, bidbox_rate, ep_rate,
                                     ratio, ratio >= target))
    return results


def bench_dealing(hands: int, ref_single: int, ref_deals: int, seed: int,
                  repeats: int) -> list[DealResult]:
    bidbox_rate = hands / best_time(lambda: deal_batch(hands, seed), repeats)
    single_rate = ref_single / best_time(lambda: [generate_deal() for _ in range(ref_single)],
                                         repeats)
    bulk_rate = ref_deals / best_time(
        lambda: list(generate_deals(produce=ref_deals, seed=seed)), repeats)
    return [
        DealResult("generate_deal() per deal", bidbox_rate, single_rate,
                   bidbox_rate / single_rate),
        DealResult("generate_deals(produce=n)", bidbox_rate, bulk_rate, bidbox_rate / bulk_rate),
    ]


def _require_equal(name: str, ours: npt.NDArray[Any], theirs: npt.NDArray[Any]) -> None:
    if ours.shape != theirs.shape:
        raise AssertionError(f"{name}: shape {ours.shape} (bidbox) vs {theirs.shape} (endplay)")
    rows = np.flatnonzero((ours != theirs).reshape(len(ours), -1).any(axis=1))
    if rows.size:
        i = int(rows[0])
        raise AssertionError(f"{name}: {rows.size} hands disagree; first is hand {i}: "
                             f"bidbox {ours[i].tolist()} vs endplay {theirs[i].tolist()}")


def check_agreement(masks: npt.NDArray[np.int16], ref: list[EpHand]) -> list[str]:
    """Stop with an error unless bidbox and endplay give the same values; the names checked."""
    checks: dict[str, Callable[[EpHand], Any]] = {
        "hcp": ep_eval.hcp,
        "controls": ep_eval.controls,
        "lengths": _ep_lengths,
        "ltc": ep_eval.losers,
    }
    for name, ep_fn in checks.items():
        ours = np.asarray(get_measure(name).batch(masks))
        theirs = np.array(apply_each(ep_fn, ref))
        _require_equal(name, ours, theirs)
    return ["hcp", "controls", "lengths", "ltc = evaluate.losers"]


def _rate(x: float) -> str:
    return f"{x:,.0f}"


def print_report(args: argparse.Namespace, measures: list[MeasureResult],
                 deals: list[DealResult], agreed: list[str]) -> None:
    line = "-" * 92
    print("bidbox vs endplay: vectorised hand measures and dealing (rates are per second)")
    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"endplay {version('endplay')}, bidbox {version('bidbox')}, {platform.machine()}")
    print(f"bidbox: {args.hands:,} hands and deals; seed {args.seed}; "
          f"each timing best of {args.repeats}")
    print(f"endplay: {args.ref_hands:,} hands, {args.ref_single_deals:,} generate_deal calls, "
          f"{args.ref_deals:,} deals from generate_deals")
    print()
    print(f"{'measure':<14}{'bidbox hands/s':>16}  {'endplay function':<24}"
          f"{'endplay hands/s':>16}{'ratio':>10}  target {args.target:g}x")
    print(line)
    for m in measures:
        verdict = "PASS" if m.meets_target else "BELOW TARGET"
        print(f"{m.measure:<14}{_rate(m.bidbox_hands_per_s):>16}  {m.endplay_function:<24}"
              f"{_rate(m.endplay_hands_per_s):>16}{m.ratio:>9,.0f}x  {verdict}")
    print()
    print(f"{'dealing':<14}{'bidbox deals/s':>16}  {'endplay function':<27}"
          f"{'endplay deals/s':>16}{'ratio':>10}")
    print(line)
    for d in deals:
        print(f"{'deal_batch':<14}{_rate(d.bidbox_deals_per_s):>16}  {d.endplay_function:<27}"
              f"{_rate(d.endplay_deals_per_s):>16}{d.ratio:>9,.0f}x")
    print()
    print(f"agreement on {args.ref_hands:,} hands ({', '.join(agreed)}): agree")
    passed = sum(m.meets_target for m in measures)
    print(f"target >= {args.target:g}x: {passed}/{len(measures)} measures PASS")


def write_json(path: Path, args: argparse.Namespace, measures: list[MeasureResult],
               deals: list[DealResult], agreed: list[str]) -> None:
    data = {
        "config": {"hands": args.hands, "ref_hands": args.ref_hands,
                   "ref_deals": args.ref_deals,
                   "ref_single_deals": args.ref_single_deals, "seed": args.seed,
                   "repeats": args.repeats,
                   "target_ratio": args.target, "seat": str(SEAT)},
        "environment": {"python": platform.python_version(), "numpy": np.__version__,
                        "endplay": version("endplay"), "bidbox": version("bidbox"),
                        "machine": platform.machine(), "platform": platform.platform()},
        "measures": [asdict(m) for m in measures],
        "dealing": [asdict(d) for d in deals],
        "agreement": {"hands": args.ref_hands, "checked": agreed, "agree": True},
    }
    path.write_text(json.dumps(data, indent=2) + "\n")


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Time bidbox's batch hand measures and dealer against endplay's "
                    "per-hand functions and report the speed ratios.")
    parser.add_argument("--hands", type=_positive, default=1_000_000,
                        help="hands for bidbox's batch measures and deals for deal_batch "
                             "(default: %(default)s)")
    parser.add_argument("--ref-hands", type=_positive, default=20_000,
                        help="hands for endplay's per-hand functions and the agreement check "
                             "(default: %(default)s)")
    parser.add_argument("--ref-deals", type=_positive, default=20_000,
                        help="deals for endplay's generate_deals (default: %(default)s)")
    parser.add_argument("--ref-single-deals", type=_positive, default=500,
                        help="calls of endplay's generate_deal, about 25 ms each "
                             "(default: %(default)s)")
    parser.add_argument("--repeats", type=_positive, default=3,
                        help="timings per item, the best is kept (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=2024, help="deal seed (default: %(default)s)")
    parser.add_argument("--target", type=float, default=100.0,
                        help="ratio each measure should reach (default: %(default)s)")
    parser.add_argument("--json", type=Path, metavar="PATH",
                        help="also write the rates and ratios to PATH as JSON")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    masks = deal_batch(args.hands, args.seed).hands(SEAT)
    ref_batch = deal_batch(args.ref_hands, args.seed + 1)
    ref = endplay_hands(ref_batch)  # conversion is not part of any timing
    agreed = check_agreement(ref_batch.hands(SEAT), ref)
    measures = bench_measures(masks, ref, args.repeats, args.target)
    deals = bench_dealing(args.hands, args.ref_single_deals, args.ref_deals, args.seed,
                          args.repeats)
    print_report(args, measures, deals, agreed)
    if args.json is not None:
        write_json(args.json, args, measures, deals, agreed)
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
