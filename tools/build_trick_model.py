"""Build the double-dummy trick model that the captain's placement reads.

Deals seeded random boards with bidbox's batch dealer, solves every deal's full
double-dummy table with endplay's DDS (through ``bidbox.sim.double_dummy``), and fits
smoothed, monotone tables of the tricks a partnership takes in each strain from what a
bidder can know or estimate: the combined HCP and the combined suit lengths. Writes
``src/bidbox/engine/data/trick_model.json``, read at run time by
``bidbox.engine.tricks``.

Usage (from the repository root)::

    .venv/bin/python tools/build_trick_model.py               # the shipped model
    .venv/bin/python tools/build_trick_model.py --deals 40 --out /tmp/tm.json

Solving is the slow part: a full table takes about 0.15 s a deal with two DDS threads on
this two-core machine when it is idle (the default 6,000 deals: about 15 minutes) and up
to 0.75 s when other work shares the cores. Solved tables are checkpointed to
``--cache`` every chunk, so a killed run resumes and refitting does not solve again;
fitting and choosing the features take seconds.

The target is the better of the partnership's two declarers (what a double-dummy table
and par use); on held-out deals it exceeds the two declarers' average by only 0.04
tricks in suits and 0.05 in NT, so the choice hardly moves the tables.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bidbox.evaluate.dealer import deal_batch
from bidbox.evaluate.holdings import tables as holding_tables
from bidbox.sim.double_dummy import full_tables, set_dds_threads

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "src" / "bidbox" / "engine" / "data" / "trick_model.json"
DEFAULT_CACHE = ROOT / "out" / "trick_model_tables.npz"
CHUNK = 200
"""Deals solved between checkpoints."""

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

# bidbox's Strain order is C, D, H, S, NT; the model's output follows PBN order S, H, D, C
# and then NT, like every hand array in bidbox.
_TO_PBN_STRAINS = [3, 2, 1, 0, 4]


@dataclass(frozen=True)
class Solved:
    """Dealt boards and their double-dummy tables."""

    masks: npt.NDArray[np.int16]
    """``(n, 4 seats N E S W, 4 suits S H D C)`` suit masks."""
    tables: IntArray
    """``(n, 5 strains C D H S NT, 4 declarers N E S W)`` declarer's tricks."""
    solve_seconds: float


def solve(deals: int, seed: int, threads: int, cache: Path | None) -> Solved:
    """Deal and solve, reusing every deal ``cache`` already holds for this seed.

    The dealer gives the same first deals for a seed whatever the count, so a cache
    of a smaller or larger run serves its common prefix (checked deal by deal).
    """
    batch = deal_batch(deals, seed=seed)
    tables = np.full((deals, 5, 4), -1, dtype=np.int64)
    seconds = 0.0
    if cache is not None and cache.exists():
        with np.load(cache) as saved:
            if int(saved["seed"]) == seed:
                common = min(deals, len(saved["masks"]))
                same = np.all(saved["masks"][:common] == batch.masks[:common], axis=(1, 2))
                tables[:common][same] = saved["tables"][:common][same]
                known = int(np.count_nonzero(saved["tables"][:, 0, 0] >= 0))
                reused = int(np.count_nonzero(tables[:, 0, 0] >= 0))
                # Charge the reused deals their share of the time the cache took.
                seconds = float(saved["solve_seconds"]) * reused / max(known, 1)
    set_dds_threads(threads)
    todo = np.flatnonzero(tables[:, 0, 0] < 0)
    for start in range(0, len(todo), CHUNK):
        rows = todo[start:start + CHUNK]
        began = time.perf_counter()
        solved, _ = full_tables([batch.pbn(int(i)) for i in rows])
        seconds += time.perf_counter() - began
        tables[rows] = solved
        done = deals - len(todo) + start + len(rows)
        print(f"  solved {done}/{deals} deals, {seconds:.0f} s", file=sys.stderr, flush=True)
        if cache is not None:
            cache.parent.mkdir(parents=True, exist_ok=True)
            np.savez_compressed(cache, seed=seed, deals=deals, masks=batch.masks,
                                tables=tables, solve_seconds=seconds)
    return Solved(batch.masks, tables, seconds)


# --- samples ---------------------------------------------------------------------
@dataclass(frozen=True)
class Partnerships:
    """One row per (deal, partnership): NS rows then EW rows of each deal, interleaved."""

    hcp: IntArray
    """``(m,)`` combined HCP."""
    lengths: IntArray
    """``(m, 4)`` combined lengths, S H D C."""
    tricks: IntArray
    """``(m, 5)`` tricks in S H D C NT, the better of the two declarers."""
    tricks_mean: FloatArray
    """``(m, 5)`` the same, averaged over the two declarers."""
    deal: IntArray
    """``(m,)`` the deal each row comes from (held-out splits go by deal)."""


def partnerships(solved: Solved) -> Partnerships:
    hd = holding_tables()
    hand_hcp = hd["hcp"][solved.masks].sum(axis=2).astype(np.int64)  # (n, 4 seats)
    hand_len = hd["length"][solved.masks].astype(np.int64)  # (n, 4 seats, 4 suits)
    tables = solved.tables[:, _TO_PBN_STRAINS, :]  # (n, 5 strains S H D C NT, 4 seats)
    pairs = ((0, 2), (1, 3))
    hcp = np.stack([hand_hcp[:, a] + hand_hcp[:, b] for a, b in pairs], axis=1)
    lengths = np.stack([hand_len[:, a] + hand_len[:, b] for a, b in pairs], axis=1)
    best = np.stack([np.maximum(tables[:, :, a], tables[:, :, b]) for a, b in pairs], axis=1)
    mean = np.stack([(tables[:, :, a] + tables[:, :, b]) / 2 for a, b in pairs], axis=1)
    n = len(solved.tables)
    return Partnerships(hcp.reshape(-1), lengths.reshape(-1, 4), best.reshape(-1, 5),
                        mean.reshape(-1, 5).astype(np.float64),
                        np.repeat(np.arange(n), 2))


# --- smoothing -------------------------------------------------------------------
def isotonic_rows(values: FloatArray, weights: FloatArray) -> FloatArray:
    """The weighted least-squares non-decreasing fit of each row of a 2-D array.

    Uses the max-min formula ``fit[i] = max_{j<=i} min_{k>=i} mean(j..k)`` over all
    weighted interval means, which is vectorised over rows; rows here are at most 41
    long, so the ``(rows, n, n)`` interval table is small.
    """
    n = values.shape[1]
    cw = np.concatenate([np.zeros((len(values), 1)), np.cumsum(values * weights, 1)], 1)
    cs = np.concatenate([np.zeros((len(values), 1)), np.cumsum(weights, 1)], 1)
    # [r, j, k] is the mean of elements j..k of row r (k >= j), +inf elsewhere.
    num = cw[:, None, 1:] - cw[:, :-1, None]
    den = cs[:, None, 1:] - cs[:, :-1, None]
    valid = np.triu(np.ones((n, n), dtype=bool))
    means = np.where(valid, num / np.where(valid, den, 1.0), np.inf)
    upper = np.minimum.accumulate(means[:, :, ::-1], axis=2)[:, :, ::-1]  # min over k>=i
    lower = np.where(valid, upper, -np.inf)  # only j <= i
    return np.asarray(lower.max(axis=1), dtype=np.float64)


def monotone(grid: FloatArray, weights: FloatArray, axes: tuple[int, ...],
             rounds: int = 500, tol: float = 1e-4) -> FloatArray:
    """The weighted projection of ``grid`` onto tables non-decreasing along ``axes``.

    Dykstra's alternating projections, each one an isotonic fit along one axis; the result
    converges to the table closest to ``grid`` (in the weighted norm) that is monotone
    along every axis at once, where plain alternation would stop at an arbitrary one.
    """
    def along(x: FloatArray, axis: int) -> FloatArray:
        xm = np.moveaxis(x, axis, -1)
        wm = np.moveaxis(weights, axis, -1)
        flat = xm.reshape(-1, xm.shape[-1])
        wflat = wm.reshape(-1, wm.shape[-1])
        out = flat.copy()
        bad = np.any(np.diff(flat, axis=1) < 0, axis=1)  # monotone rows are their own fit
        if bad.any():
            out[bad] = isotonic_rows(flat[bad], wflat[bad])
        return np.moveaxis(out.reshape(xm.shape), -1, axis)

    x = grid.copy()
    residues = [np.zeros_like(grid) for _ in axes]
    for _ in range(rounds):
        before = x
        for k, axis in enumerate(axes):
            y = along(x + residues[k], axis)
            residues[k] = x + residues[k] - y
            x = y
        if np.max(np.abs(x - before)) < tol:
            break
    # Dykstra stops within a hair of monotone; make it exact so a test can rely on it.
    for axis in axes:
        x = np.maximum.accumulate(x, axis=axis)
    return x


def poly_terms(coords: list[FloatArray], degrees: tuple[int, ...]) -> FloatArray:
    """Products of powers of the (scaled) features up to each one's degree, total <= max."""
    top = max(degrees)
    cols = []
    for powers in np.ndindex(*(d + 1 for d in degrees)):
        if sum(powers) <= top:
            term = np.ones_like(coords[0])
            for c, p in zip(coords, powers, strict=True):
                term = term * c ** p
            cols.append(term)
    return np.stack(cols, axis=-1)


def logistic_fit(design: FloatArray, share: FloatArray, rounds: int = 50) -> FloatArray:
    """Coefficients of ``share ~ sigmoid(design @ coef)`` (binomial IRLS).

    Tricks are a share of 13, so a logistic curve is the natural smooth shape: it stays
    within 0-13 however far a sparse corner of the table lies from the data.
    """
    coef: FloatArray = np.zeros(design.shape[1])
    for _ in range(rounds):
        mu = np.clip(1 / (1 + np.exp(-(design @ coef))), 1e-6, 1 - 1e-6)
        w = mu * (1 - mu)
        z = design @ coef + (share - mu) / w
        step = np.asarray(np.linalg.solve(design.T @ (design * w[:, None])
                                          + 1e-9 * np.eye(len(coef)), design.T @ (w * z)),
                          dtype=np.float64)
        if np.max(np.abs(step - coef)) < 1e-8:
            return step
        coef = step
    return coef


@dataclass(frozen=True)
class Grid:
    """A table over integer feature values ``low[k] .. low[k] + shape[k] - 1``."""

    names: tuple[str, ...]
    low: tuple[int, ...]
    shape: tuple[int, ...]
    monotone_axes: tuple[int, ...]

    def index(self, features: list[IntArray]) -> tuple[IntArray, ...]:
        return tuple(np.clip(f - lo, 0, n - 1)
                     for f, lo, n in zip(features, self.low, self.shape, strict=True))

    def scaled(self, features: list[FloatArray]) -> list[FloatArray]:
        """Features mapped to [-1, 1] over the grid, so polynomial fits stay conditioned."""
        return [2 * (f - lo) / max(n - 1, 1) - 1
                for f, lo, n in zip(features, self.low, self.shape, strict=True)]


@dataclass(frozen=True)
class Fitted:
    grid: Grid
    table: FloatArray
    counts: IntArray
    means: FloatArray


def fit_table(grid: Grid, features: list[IntArray], y: FloatArray, shrink: float,
              degrees: tuple[int, ...]) -> Fitted:
    """Cell means shrunk toward a smooth logistic fit, then made monotone.

    A cell with ``c`` boards gets ``(sum + shrink * smooth) / (c + shrink)``: well-filled
    cells keep their own mean, sparse and empty ones lean on the curve through all the
    boards. The monotone projection weighs each cell by ``c + shrink``.
    """
    idx = grid.index(features)
    counts = np.zeros(grid.shape, dtype=np.int64)
    sums = np.zeros(grid.shape)
    np.add.at(counts, idx, 1)
    np.add.at(sums, idx, y)
    coef = logistic_fit(poly_terms(grid.scaled([f.astype(np.float64) for f in features]),
                                   degrees), y / 13)
    axes = [np.arange(lo, lo + n, dtype=np.float64) for lo, n in zip(grid.low, grid.shape,
                                                                      strict=True)]
    mesh = np.meshgrid(*axes, indexing="ij")
    prior = 13 / (1 + np.exp(-(poly_terms(grid.scaled(list(mesh)), degrees) @ coef)))
    shrunk = (sums + shrink * prior) / (counts + shrink)
    table = monotone(shrunk, (counts + shrink).astype(np.float64), grid.monotone_axes)
    means = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    return Fitted(grid, np.clip(table, 0, 13), counts, means)


def predict(fitted: Fitted, features: list[IntArray]) -> FloatArray:
    return np.asarray(fitted.table[fitted.grid.index(features)], dtype=np.float64)


# --- features and candidate models -----------------------------------------------
def suit_rows(p: Partnerships, rows: IntArray) -> tuple[dict[str, IntArray], FloatArray,
                                                        IntArray]:
    """Features and tricks of every (partnership, suit) pair of ``rows``, suits pooled.

    Double dummy does not know which suit is which, so spades from one deal and clubs
    from another are the same experiment: pooling the four suits gives four times the
    boards per cell.
    """
    lengths = p.lengths[rows]  # (r, 4)
    fit = lengths.reshape(-1)
    others = np.stack([np.delete(lengths, s, axis=1) for s in range(4)], axis=1)  # (r,4,3)
    feats = {"hcp": np.repeat(p.hcp[rows], 4), "fit": fit,
             "second_fit": others.max(axis=2).reshape(-1),
             "short": others.min(axis=2).reshape(-1)}
    return feats, p.tricks[rows, :4].reshape(-1).astype(np.float64), np.repeat(p.deal[rows], 4)


def nt_rows(p: Partnerships, rows: IntArray) -> tuple[dict[str, IntArray], FloatArray,
                                                      IntArray]:
    lengths = p.lengths[rows]
    feats = {"hcp": p.hcp[rows], "longest": lengths.max(axis=1),
             "shortest": lengths.min(axis=1)}
    return feats, p.tricks[rows, 4].astype(np.float64), p.deal[rows]


# Grids: every value a partnership can hold (26 cards in four suits bound the extras).
AXES: dict[str, tuple[int, int, bool]] = {
    # name: (lowest value, number of values, tricks non-decreasing along it)
    "hcp": (0, 41, True),
    "fit": (0, 14, True),
    "second_fit": (5, 9, False),
    "short": (0, 9, False),
    "longest": (7, 7, False),
    "shortest": (0, 7, True),
}
CANDIDATES: dict[str, list[tuple[str, ...]]] = {
    "suit": [("hcp", "fit"), ("hcp", "fit", "second_fit"), ("hcp", "fit", "short")],
    "nt": [("hcp",), ("hcp", "longest"), ("hcp", "shortest"), ("hcp", "longest", "shortest")],
}
DEGREES = {"hcp": 3}
"""Polynomial degree of the smoothing prior per feature (2 for the others)."""


def make_grid(names: tuple[str, ...]) -> Grid:
    return Grid(names, tuple(AXES[n][0] for n in names), tuple(AXES[n][1] for n in names),
                tuple(k for k, n in enumerate(names) if AXES[n][2]))


def fit_spec(names: tuple[str, ...], feats: dict[str, IntArray], y: FloatArray,
             shrink: float) -> Fitted:
    return fit_table(make_grid(names), [feats[n] for n in names], y, shrink,
                     tuple(DEGREES.get(n, 2) for n in names))


def errors(pred: FloatArray, y: FloatArray) -> dict[str, float]:
    err = pred - y
    return {"mae": round(float(np.mean(np.abs(err))), 4),
            "rmse": round(float(np.sqrt(np.mean(err ** 2))), 4),
            "bias": round(float(np.mean(err)), 4), "boards": len(y)}


def cross_validated(names: tuple[str, ...], feats: dict[str, IntArray], y: FloatArray,
                    deal: IntArray, shrink: float, folds: int = 4) -> float:
    """Mean absolute error of a candidate on the training deals, folds split by deal."""
    fold = deal % folds
    abs_err = np.empty_like(y)
    for k in range(folds):
        train, test = fold != k, fold == k
        fitted = fit_spec(names, {n: f[train] for n, f in feats.items()}, y[train], shrink)
        abs_err[test] = np.abs(predict(fitted, [feats[n][test] for n in names]) - y[test])
    return float(abs_err.mean())


# --- the rule-of-thumb baselines ---------------------------------------------------
NT_RULE = ((20, 7), (23, 8), (25, 9), (28, 10), (31, 11), (33, 12), (37, 13))
"""'Points for game' for no-trump: 25 for 3NT, 33 for 6NT, 37 for 7NT, 3 HCP a trick
between and below."""


def baseline_suit(hcp: IntArray, fit: IntArray) -> FloatArray:
    """'Points for game' in a suit: ten tricks at 26 HCP with an 8-card fit (4M), a trick
    per 3 HCP and per extra trump either side of it."""
    return np.asarray(np.clip(10 + (hcp - 26) / 3 + (fit - 8), 0, 13), dtype=np.float64)


def baseline_suit_book(hcp: IntArray, fit: IntArray) -> FloatArray:
    """The same slope counted from book: six tricks at 20 HCP with an 8-card fit."""
    return np.asarray(np.clip(6 + (hcp - 20) / 3 + (fit - 8), 0, 13), dtype=np.float64)


def baseline_nt(hcp: IntArray) -> FloatArray:
    xs = [h for h, _ in NT_RULE]
    ys = [t for _, t in NT_RULE]
    below = ys[0] - (xs[0] - hcp) / 3
    return np.asarray(np.clip(np.where(hcp < xs[0], below, np.interp(hcp, xs, ys)), 0, 13),
                      dtype=np.float64)


# --- the build ---------------------------------------------------------------------
SHRINKS = (10.0, 40.0, 160.0, 640.0, 2560.0)
NOTICEABLE = 0.02
"""An extra feature is kept only if it cuts the cross-validated error by this share."""
HOLDOUT = 0.2


def choose(kind: str, feats: dict[str, IntArray], y: FloatArray, deal: IntArray,
           fixed: tuple[str, ...] | None = None, shrink: float | None = None
           ) -> tuple[tuple[str, ...], float, list[dict[str, Any]]]:
    """The candidate and shrinkage with the least cross-validated error on training deals.

    The best candidate of each size competes with the best smaller one, and wins only
    by cutting the error by :data:`NOTICEABLE`, so the table stays small where extra
    features do not pay. ``fixed`` features and a given ``shrink`` skip the search (quick rebuilds).
    """
    if fixed is not None and shrink is not None:
        return fixed, shrink, [{"features": list(fixed), "shrink": shrink, "cv_mae": None}]
    tried: list[dict[str, Any]] = []
    scored: list[tuple[tuple[str, ...], float, float]] = []
    for names in [fixed] if fixed is not None else CANDIDATES[kind]:
        shrinks = SHRINKS if shrink is None else (shrink,)
        scores = {s: cross_validated(names, feats, y, deal, s) for s in shrinks}
        pick = min(scores, key=lambda s: scores[s])
        tried.append({"features": list(names), "shrink": pick,
                      "cv_mae": round(scores[pick], 4)})
        scored.append((names, pick, scores[pick]))
    # The best of each size; a larger table replaces a smaller one only by a clear margin.
    best: tuple[tuple[str, ...], float, float] | None = None
    for size in sorted({len(names) for names, _, _ in scored}):
        top = min((c for c in scored if len(c[0]) == size), key=lambda c: c[2])
        if best is None or top[2] < best[2] * (1 - NOTICEABLE):
            best = top
    assert best is not None
    return best[0], best[1], tried


def encode_boards(p: Partnerships, rows: IntArray) -> list[str]:
    """Held-out partnerships as rows of 11 hex digits (see tricks.decode_boards)."""
    out = []
    for r in rows.tolist():
        digits = [*divmod(int(p.hcp[r]), 16), *p.lengths[r].tolist(), *p.tricks[r].tolist()]
        out.append("".join(f"{d:x}" for d in digits))
    return out


def table_json(fitted: Fitted) -> dict[str, Any]:
    g = fitted.grid
    return {"features": list(g.names), "low": list(g.low), "shape": list(g.shape),
            "monotone": [g.names[k] for k in g.monotone_axes],
            "table": np.round(fitted.table, 3).tolist(),
            "train_boards": fitted.counts.tolist()}


def build(solved: Solved, seed: int, threads: int,
          fixed: dict[str, tuple[str, ...]] | None = None, shrink: float | None = None
          ) -> dict[str, Any]:
    began = time.perf_counter()
    p = partnerships(solved)
    n = len(solved.tables)
    cut = round(n * (1 - HOLDOUT))
    train_rows = np.flatnonzero(p.deal < cut)
    hold_rows = np.flatnonzero(p.deal >= cut)
    result: dict[str, Any] = {}
    holdout: dict[str, Any] = {}
    candidates: dict[str, Any] = {}
    for kind, rows_of in (("suit", suit_rows), ("nt", nt_rows)):
        feats, y, deal = rows_of(p, train_rows)
        names, k, tried = choose(kind, feats, y, deal, (fixed or {}).get(kind), shrink)
        hfeats, hy, _ = rows_of(p, hold_rows)
        for entry in tried:  # every candidate's held-out error, for the record
            cand = fit_spec(tuple(entry["features"]), feats, y, entry["shrink"])
            entry["holdout_mae"] = errors(predict(cand, [hfeats[f] for f in
                                                         entry["features"]]), hy)["mae"]
        fitted = fit_spec(names, feats, y, k)
        result[kind] = table_json(fitted) | {"shrink": k}
        pred = predict(fitted, [hfeats[f] for f in names])
        base = (baseline_suit(hfeats["hcp"], hfeats["fit"]) if kind == "suit"
                else baseline_nt(hfeats["hcp"]))
        holdout[kind] = {"model": errors(pred, hy), "baseline": errors(base, hy)}
        if kind == "suit":
            book = baseline_suit_book(hfeats["hcp"], hfeats["fit"])
            holdout[kind]["baseline_from_book"] = errors(book, hy)
            fit8 = hfeats["fit"] >= 8  # the strains a captain actually considers
            holdout["suit_fit_8_plus"] = {"model": errors(pred[fit8], hy[fit8]),
                                          "baseline": errors(base[fit8], hy[fit8])}
        candidates[kind] = tried
    # What modelling the better declarer costs when the declarer is in fact either one.
    gap = p.tricks[hold_rows].astype(np.float64) - p.tricks_mean[hold_rows]
    return {
        "schema": "bidbox-trick-model/1",
        "description": (
            "Double-dummy tricks of a partnership (the better of its two declarers) per "
            "strain, from combined HCP and combined suit lengths: cell means of solved "
            "random deals shrunk toward a polynomial fit and made monotone in HCP and fit."),
        "build": {
            "script": "tools/build_trick_model.py", "seed": seed, "deals": n,
            "holdout_fraction": HOLDOUT, "train_deals": cut, "holdout_deals": n - cut,
            "date": dt.date.today().isoformat(), "dds_threads": threads,
            "solve_seconds": round(solved.solve_seconds, 1),
            "fit_seconds": round(time.perf_counter() - began, 1),
            "target": "max over the partnership's two declarers",
        },
        "models": result,
        "evaluation": {
            "holdout": holdout,
            "candidates": candidates,
            "declarer_gap": {
                "suit": round(float(gap[:, :4].mean()), 4),
                "nt": round(float(gap[:, 4].mean()), 4),
                "note": "mean tricks of the better declarer minus the two declarers' "
                        "average, on the held-out deals"},
        },
        "holdout_boards": {
            "format": "11 hex digits: combined HCP (2), combined lengths S H D C, "
                      "tricks S H D C NT",
            "rows": encode_boards(p, hold_rows)},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--threads", type=int, default=2, help="DDS threads (default 2)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE,
                        help="checkpoint of solved tables ('none': keep nothing)")
    parser.add_argument("--suit-features", help="e.g. hcp,fit: fix the suit table's "
                        "features instead of choosing them by cross-validation")
    parser.add_argument("--nt-features", help="e.g. hcp,shortest: fix the NT table's")
    parser.add_argument("--shrink", type=float,
                        help="fix the shrinkage (boards) instead of cross-validating it")
    args = parser.parse_args(argv)
    fixed: dict[str, tuple[str, ...]] = {}
    for kind, text in (("suit", args.suit_features), ("nt", args.nt_features)):
        if text:
            names = tuple(t.strip() for t in text.split(","))
            first = ("hcp", "fit") if kind == "suit" else ("hcp",)
            if names[:len(first)] != first or any(n not in AXES for n in names):
                parser.error(f"--{kind}-features '{text}': must start with "
                             f"{','.join(first)}; features: {', '.join(AXES)}")
            fixed[kind] = names
    if args.deals < 10:
        parser.error("--deals: at least 10, so the held-out fifth is not empty")
    cache = None if str(args.cache) == "none" else args.cache
    began = time.perf_counter()
    solved = solve(args.deals, args.seed, args.threads, cache)
    model = build(solved, args.seed, args.threads, fixed, args.shrink)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(model, separators=(",", ":")) + "\n", encoding="utf-8")
    ev = model["evaluation"]["holdout"]
    for kind in ("suit", "suit_fit_8_plus", "nt"):
        m, b = ev[kind]["model"], ev[kind]["baseline"]
        print(f"{kind:16} held out: model MAE {m['mae']:.3f} RMSE {m['rmse']:.3f}   "
              f"baseline MAE {b['mae']:.3f} RMSE {b['rmse']:.3f}   ({m['boards']} boards)")
    print(f"features: suit {model['models']['suit']['features']}, "
          f"nt {model['models']['nt']['features']}")
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB) in "
          f"{time.perf_counter() - began:.0f} s (solving {solved.solve_seconds:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
