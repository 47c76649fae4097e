"""Are the slam decisions calibrated? Predicted P(12+ tricks) at each decision, against DDS.

The trick model and its ace and shape corrections were checked on solved deals with both
hands known. The captain decides with partner's hand estimated from the auction, so a
bias that the held-out checks cannot see (partner's spread, the ace weights, the
estimate itself) shows only at the decision points. This benchmark deals the boards of
``bench_slams.py`` (one partnership with ``--min-hcp``+ HCP), bids each with a shipped
system at all four seats (the batch bidder), then replays every call of the side with
the values through the one-hand step (``engine.decide.decide``) with a hook on the
judgement functions. At every judged decision where a slam is weighed (the placement,
past the notes' game sign-off, the choice after a Blackwood answer) whose best strain is
within the slam tries' reach (``judgement.TRY_REACH`` tricks) it recomputes the captain's
prospects for that hand and records the predicted P(12+) in the strain a slam would be
played in (the slam bid, else the trump suit the captain would ask in, else the best of
no-trump and the known fits), on the distribution the decision uses (``ace_mixed``; after
the answer the ace-known one). The outcome is the double-dummy tricks of that strain for
the partnership, the better declarer, as the trick model is built
(``sim.double_dummy.full_tables``).

The deals are not filtered by default (``--min-hcp 0``): a filter on the partnership's
true combined HCP, which the captain cannot see, makes every estimate look pessimistic
(600 dealt, seed 5, 27+ HCP: 0.26 predicted, 0.46 observed; unfiltered, the points-only
odds are calibrated). A decision is kept when its best strain's estimate reaches the
slam tries' reach, so the filter the benchmark applies is one the captain applies too.

Printed per system: the reliability table by predicted-probability bins (count, mean
predicted, observed rate with its 95% Wilson interval), the Brier score, and the same
for the points-only distribution (``_prospects``' own: points, lengths and, since
2026-12-04, the positive all-levels shape correction) beside it.

    PYTHONPATH=src python benchmarks/bench_slam_calibration.py [--system sbu-level1] \\
        [--deals 4000] [--seed 31] [--min-hcp 0] [--tables PATH.npz] [--json PATH]
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bidbox.core.auction import Auction
from bidbox.core.calls import Call, Strain
from bidbox.core.seats import Seat, Side
from bidbox.engine import as_systems
from bidbox.engine import decide as decide_module
from bidbox.engine import judgement as jm
from bidbox.engine.features import Features, HandFeatures
from bidbox.engine.walk import TableState, advance, start
from bidbox.evaluate.dealer import DealBatch
from bidbox.evaluate.holdings import tables as holding_tables
from bidbox.lang import load_system
from bidbox.lang.system import System
from bidbox.sim.deals import board_dealer, board_vulnerability
from bidbox.sim.double_dummy import full_tables

sys.path.insert(0, str(Path(__file__).parent))
from bench_canary_relays import wilson  # the same 95% interval, one copy
from bench_slams import MIN_HCP, bid_all, slam_zone_deals  # the same deals

BINS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0001)
"""Reliability bins of the predicted P(12+)."""

_STRAIN_OF_COLUMN = (Strain.S, Strain.H, Strain.D, Strain.C, Strain.NT)


def _kind(state: TableState, call: Call) -> str:
    """What the decision was, in the captain's terms."""
    if call.is_bid and call.level >= 6:
        return "slam"
    if call == jm.BLACKWOOD and jm.asks_aces(state):
        return "ask"
    if call in jm.slam_tries_now(state):
        return "try"
    return "below slam"


def _record_point(state: TableState, hands: Features, call: Call, where: str
                  ) -> dict[str, Any] | None:
    """The captain's prediction for the single hand of ``hands`` at ``state``, or None
    when no slam is in reach there."""
    p = jm._prospects(state, hands)
    if jm._answered_ask(state) is not None:
        answer = jm._answered_ask(state)
        assert answer is not None
        own = int(np.asarray(hands.value("aces"))[0])
        shown = jm.ANSWERS.index(answer)
        total = 4 if (shown == 0 and own == 0) else own + shown
        trumps = int(jm._trumps(state, hands, p)[0])
        column = trumps if trumps >= 0 else int(np.argmax(p.combined_len[0]))
        if call.is_bid and call.level >= 6 and call.strain is not None:
            column = jm._COLUMN[call.strain]
        probs = jm._ace_prospects(p, np.array([total]))
        kind = "after answer"
    else:
        if p.tricks.max() < jm.TRY_REACH:
            return None
        probs = jm.ace_mixed(p, hands)
        fits = jm._known_fits(state, hands, p.seats)[0]
        if call.is_bid and call.level >= 6 and call.strain is not None:
            column = jm._COLUMN[call.strain]
        elif call == jm.BLACKWOOD and jm.asks_aces(state):
            column = int(jm._trumps(state, hands, p)[0])
        else:
            twelve = probs[0, :, 12:].sum(axis=1)
            allowed = np.append(fits, True)
            column = int(np.argmax(np.where(allowed, twelve, -1.0)))
        kind = where if where == "beyond game" else _kind(state, call)
    k = np.arange(14)
    mixed_mean = float((probs[0, column] * k).sum())
    weights = jm._ace_weights(p, hands, np.array([0]))[0]
    return {"kind": kind, "column": column, "call": str(call),
            "mean": mixed_mean,
            "sd": float(math.sqrt(max((probs[0, column] * (k - mixed_mean) ** 2).sum(), 0.0))),
            "shape": float(jm._shape_shift(p)[0, column]),
            "expected_aces": float((weights * np.arange(5)).sum()),
            "p12": float(probs[0, column, 12:].sum()),
            "p12_points": float(p.probs[0, column, 12:].sum()),
            "estimate": float(p.tricks[0, column]),
            "own_hcp": float(p.own_hcp[0]), "partner_hcp": float(p.view.hcp[0]),
            "partner_sd": float(p.view.hcp_sd),
            "auction": " ".join(map(str, state.auction.calls))}


def _made(judged: list[jm.Judgement]) -> Call:
    """The call of the one hand of a batch of one."""
    return next(j.call for j in judged if j.mask[0])


@contextmanager
def recording(into: list[dict[str, Any]]) -> Iterator[None]:
    """Judgement's entry points in the step, wrapped so that each records its decision."""
    real_judge, real_beyond = decide_module.judge, decide_module.beyond_game

    def judge(state: TableState, hands: Features, *args: Any, **kwargs: Any
              ) -> list[jm.Judgement]:
        out = real_judge(state, hands, *args, **kwargs)
        if hands.n == 1 and out and not jm._pending_ask(state.steps):
            point = _record_point(state, hands, _made(out), "placement")
            if point is not None:
                into.append(point)
        return out

    def beyond(state: TableState, hands: Features, *args: Any, **kwargs: Any
               ) -> list[jm.Judgement]:
        out = real_beyond(state, hands, *args, **kwargs)
        if hands.n == 1 and out:
            point = _record_point(state, hands, _made(out), "beyond game")
            if point is not None:
                into.append(point)
        return out

    decide_module.judge = judge  # type: ignore[assignment]
    decide_module.beyond_game = beyond  # type: ignore[assignment]
    try:
        yield
    finally:
        decide_module.judge, decide_module.beyond_game = real_judge, real_beyond


def decision_points(masks: np.ndarray, auction: Auction, systems: Mapping[Side, System],
                    side: Side) -> tuple[list[dict[str, Any]], int]:
    """Every recorded decision of ``side`` on one deal (``masks``: (4 seats, 4 suits)),
    replayed call by call, and how many replayed calls differ from the batch auction."""
    points: list[dict[str, Any]] = []
    state = start(systems, Auction(auction.dealer, auction.vul))
    differ = 0
    for call in auction.calls:
        seat = state.next_seat
        if seat.side is side:
            hand = HandFeatures(masks[int(seat)][None, :].astype(np.int16))
            found: list[dict[str, Any]] = []
            with recording(found):
                made = next(d for d in decide_module.decide(state, hand, systems)
                            if d.mask[0]).call
            differ += made != call
            for point in found:
                point["seat"] = seat.name
            points.extend(found)
        state = advance(state, call)
    return points, differ


def reliability(pred: np.ndarray, made: np.ndarray) -> list[dict[str, Any]]:
    """Per bin of the predicted probability: count, mean predicted, observed and its 95%."""
    rows = []
    for low, high in itertools.pairwise(BINS):
        at = (pred >= low) & (pred < high)
        n = int(at.sum())
        hits = int(made[at].sum())
        lo, hi = wilson(hits, n)
        rows.append({"bin": [low, min(high, 1.0)], "count": n,
                     "predicted": float(pred[at].mean()) if n else math.nan,
                     "observed": hits / n if n else math.nan, "ci95": [lo, hi]})
    return rows


def summary(pred: np.ndarray, made: np.ndarray) -> dict[str, Any]:
    return {"count": len(pred), "brier": float(np.mean((pred - made) ** 2)) if len(pred) else
            math.nan, "mean_predicted": float(pred.mean()) if len(pred) else math.nan,
            "observed": float(made.mean()) if len(pred) else math.nan,
            "bins": reliability(pred, made)}


def solved_tables(deals: DealBatch, used: list[int], key: str, cache: Path | None
                  ) -> npt.NDArray[np.int64]:
    """The double-dummy tables of the deals ``used`` (n, 5 strains, 4 seats), solved once:
    with ``cache``, deals solved by an earlier run on the same deals (``key``) are read
    back, so a second system or a second engine on the same deals solves nothing twice."""
    known: dict[int, npt.NDArray[np.int64]] = {}
    if cache is not None and cache.exists():
        kept = np.load(cache)
        if str(kept["key"]) == key:
            known = dict(zip(kept["index"].tolist(), kept["tables"], strict=True))
    missing = [i for i in used if i not in known]
    if missing:
        solved, _ = full_tables([deals.pbn(i) for i in missing])
        known.update(zip(missing, solved, strict=True))
        if cache is not None:
            index = sorted(known)
            np.savez(cache, key=key, index=np.array(index),
                     tables=np.array([known[i] for i in index]))
    return np.array([known[i] for i in used], dtype=np.int64).reshape(len(used), 5, 4)


def calibrate(system: str, deals_count: int, seed: int, min_hcp: int,
              cache: Path | None = None, progress: Callable[[str], None] = print
              ) -> dict[str, Any]:
    deals, numbers = slam_zone_deals(deals_count, seed, min_hcp)
    began = time.perf_counter()
    auctions = bid_all(deals, numbers, system)
    systems = as_systems(load_system(system))
    hcp = holding_tables()["hcp"][deals.masks].sum(axis=2)
    aces = (deals.masks >> 12 & 1).sum(axis=2)
    points: list[dict[str, Any]] = []
    differ = 0
    for i, text in enumerate(auctions):
        number = int(numbers[i])
        auction = Auction.parse(text, board_dealer(number), board_vulnerability(number))
        side = Side.NS if hcp[i, 0] + hcp[i, 2] >= hcp[i, 1] + hcp[i, 3] else Side.EW
        found, d = decision_points(deals.masks[i], auction, systems, side)
        differ += d
        for point in found:
            point["deal"] = i
            point["board"] = number
            seat = Seat[point["seat"]]
            point["true_partner_hcp"] = int(hcp[i, int(seat.partner)])
            point["true_combined_hcp"] = int(hcp[i, int(seat)] + hcp[i, int(seat.partner)])
            point["true_aces"] = int(aces[i, int(seat)] + aces[i, int(seat.partner)])
        points.extend(found)
        if (i + 1) % 500 == 0:
            progress(f"  {system}: {i + 1} of {len(deals)} deals replayed, "
                     f"{len(points)} decisions")
    replay_seconds = time.perf_counter() - began
    used = sorted({pt["deal"] for pt in points})
    tables = solved_tables(deals, used, f"{seed}-{deals_count}-{min_hcp}", cache)
    row_of = {deal: k for k, deal in enumerate(used)}
    for pt in points:
        seats = (Seat.N, Seat.S) if Seat[pt["seat"]].side is Side.NS else (Seat.E, Seat.W)
        strain = int(_STRAIN_OF_COLUMN[pt["column"]])
        pt["tricks"] = int(max(tables[row_of[pt["deal"]], strain, int(s)] for s in seats))
        pt["strain"] = _STRAIN_OF_COLUMN[pt["column"]].name
    pred = np.array([pt["p12"] for pt in points], dtype=np.float64)
    points_only = np.array([pt["p12_points"] for pt in points], dtype=np.float64)
    made = np.array([pt["tricks"] >= 12 for pt in points], dtype=np.float64)
    kinds = sorted({pt["kind"] for pt in points})
    by_kind = {}
    for kind in kinds:
        at = np.array([pt["kind"] == kind for pt in points])
        by_kind[kind] = summary(pred[at], made[at])
    return {"system": system, "seed": seed, "dealt": deals_count, "kept": len(deals),
            "min_hcp": min_hcp, "replayed_calls_differing": differ,
            "seconds": round(replay_seconds, 1), "decisions": summary(pred, made),
            "points_only": summary(points_only, made), "by_kind": by_kind,
            "points": points}


def _print_table(title: str, s: dict[str, Any]) -> None:
    print(f"  {title}: {s['count']} decisions, Brier {s['brier']:.4f}, mean predicted "
          f"{s['mean_predicted']:.3f}, observed {s['observed']:.3f}")
    print("    predicted    count  mean pred  observed  95%")
    for row in s["bins"]:
        if row["count"] == 0:
            continue
        lo, hi = row["ci95"]
        print(f"    {row['bin'][0]:.1f}-{row['bin'][1]:.1f}  {row['count']:7d}  "
              f"{row['predicted']:9.3f}  {row['observed']:8.3f}  [{lo:.3f}, {hi:.3f}]")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--system", action="append",
                        help="a shipped system (repeatable; default sbu-level1 and tosr)")
    parser.add_argument("--deals", type=int, default=4000, help="boards dealt (default 4000)")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--min-hcp", type=int, default=0,
                        help=f"keep only deals with this many HCP in one partnership (bench_slams"
                             f".py uses {MIN_HCP}; it biases the observed rates upwards)")
    parser.add_argument("--json", type=Path, help="also write the figures and every decision")
    parser.add_argument("--tables", type=Path,
                        help="an .npz file keeping the solved tables between runs")
    args = parser.parse_args(argv)
    out = []
    for system in args.system or ["sbu-level1", "tosr"]:
        result = calibrate(system, args.deals, args.seed, args.min_hcp, args.tables)
        out.append(result)
        print(f"{system}: {result['kept']} of {args.deals} dealt boards with "
              f"{args.min_hcp}+ HCP in one partnership (seed {args.seed}); "
              f"{result['replayed_calls_differing']} replayed calls differ from the batch")
        _print_table("decision-point P(12+), as the captain decides", result["decisions"])
        _print_table("the points-only distribution at the same points", result["points_only"])
        for kind, s in result["by_kind"].items():
            print(f"    {kind}: {s['count']}, Brier {s['brier']:.4f}, predicted "
                  f"{s['mean_predicted']:.3f}, observed {s['observed']:.3f}")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
