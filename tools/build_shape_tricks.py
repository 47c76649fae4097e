"""Build the shape correction that the captain adds to the trick model for slam decisions.

The trick model (``engine/data/trick_model.json``) reads combined HCP and combined suit
lengths: it cannot tell a 4-4 fit with two flat hands from one with a singleton opposite
it, and at slam level that is most of the difference (on the slam-zone deals below, P(12
tricks) is about 0.2 with no side singleton or void in the partnership and 0.45-0.6
with two or three). So, on the same solved deals the trick model and the ace correction
were built from, and on the same slam-zone rows as ``tools/build_ace_tricks.py``
(estimate 10+; suits: the longest combined suit when it is a fit of eight or more;
no-trump: 26+ HCP), the error left after the ace correction (tricks minus estimate minus
the shift for the aces held) is measured per shape group:

- suits: ``shortness``, the partnership's short-suit count outside trumps: per side suit,
  3 minus the shorter of the two holdings, doubleton 1, singleton 2, void 3 (a player's
  short-suit points, read from both hands);
- no-trump: ``longest``, the longest suit in either hand (4 to 8): a five- or six-card
  suit runs tricks that the points do not count.

The result is ``engine/data/shape_tricks.json``; its held-out check scores the chance of
twelve tricks (Brier score) with the ace correction alone and with both, on the held-out
fifth of the deals. The same file's ``all_levels`` table is the suits' error at every
level, by the fit (seven, eight, nine or more) and the same short-suit count, with the
held-out error in tricks with and without it (:func:`level_table`); the placement adds
its positive part to every suit estimate.

Usage (from the repository root; reuses the trick model's checkpoint of solved tables,
``out/trick_model_tables.npz``, or solves the deals again when it is missing)::

    .venv/bin/python tools/build_shape_tricks.py [--cache PATH]
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_ace_tricks import MIN_ROWS, SLAM_ZONE, _p_at_least, parse_options, slam_rows
from build_trick_model import partnerships

from bidbox.engine.tricks import estimate_tricks
from bidbox.evaluate.holdings import tables as holding_tables

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "src" / "bidbox" / "engine" / "data" / "shape_tricks.json"
ACE_FILE = ROOT / "src" / "bidbox" / "engine" / "data" / "ace_tricks.json"
GROUPS = {"suit": ("shortness", 0, 7), "nt": ("longest", 4, 8)}
"""Per kind: the feature, its lowest and highest group (values beyond join the end ones)."""

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def shortness(own: IntArray, other: IntArray, trump: IntArray) -> IntArray:
    """Per row: the short-suit count outside ``trump`` of two hands' lengths ``(m, 4)``:
    per side suit 3 minus the shorter holding (doubleton 1, singleton 2, void 3)."""
    short = np.maximum(0, 3 - np.minimum(own, other))
    side = np.ones_like(short, dtype=bool)
    side[np.arange(len(trump)), trump] = False
    return np.asarray((short * side).sum(axis=1), dtype=np.int64)


FITS = (7, 8, 9)
"""The fit groups of the all-levels correction: seven, eight, nine or more trumps. Shorter
"fits" (the opponents' suit, for us) are not corrected: no one plays there."""


def level_table(solved: Any, first: IntArray, second: IntArray, cut: int
                ) -> dict[str, Any]:
    """The trick model's error in suit contracts at every level (not only the slam zone),
    by the fit (seven, eight, nine or more) and the partnership's short-suit count outside
    trumps: every suit with a fit of seven or more of every partnership of the training
    deals is a row. The placement adds it to every suit estimate (games and partscores
    on shape: a 5-5 with a void plays a trick or more above its points). Checked on the
    held-out deals' rows: the model's error in tricks with and without it."""
    p = partnerships(solved)
    est = estimate_tricks(p.hcp, p.lengths)
    train, held = p.deal < cut, p.deal >= cut
    low, high = GROUPS["suit"][1:]
    groups: dict[int, list[dict[str, Any]]] = {}
    tables: dict[int, FloatArray] = {}
    cols = []
    for suit in range(4):
        trump = np.full(len(p.hcp), suit)
        cols.append((p.tricks[:, suit] - est[:, suit], np.clip(
            shortness(first, second, trump), low, high), p.lengths[:, suit]))
    resid = np.concatenate([c[0] for c in cols])
    short = np.concatenate([c[1] for c in cols])
    fit = np.minimum(np.concatenate([c[2] for c in cols]), FITS[-1])
    in_train, in_held = np.tile(train, 4), np.tile(held, 4)
    for f in FITS:
        row = []
        for v in range(low, high + 1):
            m = in_train & (fit == f) & (short == v)
            row.append({"shortness": v, "rows": int(m.sum()),
                        "mean": float(resid[m].mean()) if m.any() else 0.0})
        middle = int(np.argmax([g["rows"] for g in row]))
        for k in sorted(range(len(row)), key=lambda k: abs(k - middle)):
            if row[k]["rows"] < MIN_ROWS and k != middle:
                row[k]["mean"] = row[k + (1 if k < middle else -1)]["mean"]
        groups[f] = [{"shortness": g["shortness"], "rows": g["rows"],
                      "mean": round(g["mean"], 3)} for g in row]
        tables[f] = np.array([g["mean"] for g in groups[f]])
    m = in_held & (fit >= FITS[0])
    shift = np.zeros(len(resid))
    for f in FITS:
        at = m & (fit == f)
        shift[at] = tables[f][short[at] - low]
    before, after = resid[m], resid[m] - shift[m]
    check = {"rows": int(m.sum()),
             "mae_without": round(float(np.abs(before).mean()), 4),
             "mae_with": round(float(np.abs(after).mean()), 4),
             "rmse_without": round(float(np.sqrt((before ** 2).mean())), 4),
             "rmse_with": round(float(np.sqrt((after ** 2).mean())), 4)}
    return {"feature": "shortness", "fits": [
        {"fit": f, "groups": groups[f]} for f in FITS], "holdout_check": check}


def build(deals: int, seed: int, threads: int, cache: Path | None) -> dict[str, Any]:
    data = slam_rows(deals, seed, threads, cache)
    solved, aces, cut, train, held = data.solved, data.aces, data.cut, data.train, data.held
    hand_len = holding_tables()["length"][solved.masks].astype(np.int64)  # (n, 4, 4 suits)
    first = np.stack([hand_len[:, 0], hand_len[:, 1]], axis=1).reshape(-1, 4)  # N, E
    second = np.stack([hand_len[:, 2], hand_len[:, 3]], axis=1).reshape(-1, 4)  # S, W
    ace_data = json.loads(ACE_FILE.read_text(encoding="utf-8"))
    features = {"suit": shortness(first, second, data.fit),
                "nt": np.maximum(first.max(axis=1), second.max(axis=1))}
    kinds = {kind: (*data.kinds[kind], features[kind]) for kind in ("suit", "nt")}
    out: dict[str, Any] = {}
    check: dict[str, Any] = {}
    for kind, (tricks, est, eligible, feature) in kinds.items():
        name, low, high = GROUPS[kind]
        by_aces = ace_data["by_aces"][kind]
        ace_shift = np.array([g["mean"] for g in by_aces])[aces]
        ace_sd = np.array([g["sd"] for g in by_aces])[aces]
        cap = float(ace_data["missing_two_aces"][kind]["made_12"])
        group = np.clip(feature, low, high)
        zone = eligible & (est >= SLAM_ZONE)
        resid = tricks - est - ace_shift
        groups: list[dict[str, Any]] = []
        for v in range(low, high + 1):
            m = zone & train & (group == v)
            groups.append({name: v, "rows": int(m.sum()),
                           "mean": float(resid[m].mean()) if m.any() else 0.0})
        # Thin groups at either end take their inner neighbour's figure.
        middle = int(np.argmax([g["rows"] for g in groups]))
        for k in sorted(range(len(groups)), key=lambda k: abs(k - middle)):
            if groups[k]["rows"] < MIN_ROWS and k != middle:
                groups[k]["mean"] = groups[k + (1 if k < middle else -1)]["mean"]
        out[kind] = {"feature": name, "groups": [
            {name: g[name], "rows": g["rows"], "mean": round(g["mean"], 3)} for g in groups]}
        m = zone & held
        made = (tricks[m] >= 12).astype(np.float64)
        shift = np.array([g["mean"] for g in groups])[group[m] - low]
        briers = []
        for extra in (0.0, shift):
            prob = _p_at_least(est[m] + ace_shift[m] + extra, ace_sd[m], 12)
            prob = np.where(aces[m] <= 2, np.minimum(prob, cap), prob)
            briers.append(round(float(((prob - made) ** 2).mean()), 4))
        check[kind] = {"boards": int(m.sum()), "brier_aces": briers[0],
                       "brier_aces_and_shape": briers[1],
                       "made_12": round(float(made.mean()), 3)}
    return {
        "schema": "bidbox-shape-tricks/1",
        "description": (
            "The trick model's error left after the ace correction (double-dummy tricks "
            "minus its estimate minus the aces' shift), by the partnership's shape, on "
            f"deals where slam is in question (estimate {SLAM_ZONE:g}+): added to the "
            "estimate in every slam decision."),
        "build": {"script": "tools/build_shape_tricks.py", "seed": seed,
                  "deals": len(solved.tables), "train_deals": cut,
                  "date": dt.date.today().isoformat()},
        "by_shape": out,
        "holdout_check": check,
        "all_levels": level_table(solved, first, second, cut),
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_options((__doc__ or "").split("\n\n")[0], DEFAULT_OUT, argv)
    data = build(args.deals, args.seed, args.threads, args.cache)
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    for kind, c in data["holdout_check"].items():
        print(f"{kind}: held-out slam-zone boards {c['boards']}, P(12 tricks) Brier "
              f"{c['brier_aces']} with the ace correction, {c['brier_aces_and_shape']} "
              f"with aces and shape")
    c = data["all_levels"]["holdout_check"]
    print(f"suits at every level (fits of seven or more): held-out rows {c['rows']}, MAE "
          f"{c['mae_without']} -> {c['mae_with']} tricks, RMSE {c['rmse_without']} -> "
          f"{c['rmse_with']}")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
