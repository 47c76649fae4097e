"""The double-dummy trick model: monotone, calibrated on held-out boards, one code path.

The anchors are checked against the held-out boards shipped in the data file (deals
solved double dummy that the tables were not fitted on), not against numbers wished for.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from bidbox.engine.tricks import (
    STRAINS,
    TrickModelError,
    decode_boards,
    estimate_tricks,
    holdout_boards,
    load_model,
    trick_model_info,
)
from bidbox.evaluate import deal_batch
from bidbox.evaluate.holdings import tables as holding_tables

ROOT = Path(__file__).parents[2]
SHIPPED = ROOT / "src" / "bidbox" / "engine" / "data" / "trick_model.json"
SCRIPT = ROOT / "tools" / "build_trick_model.py"


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_trick_model", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def shipped() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SHIPPED.read_text(encoding="utf-8"))
    return data


def dealt_partnerships(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Realistic inputs: North-South's combined HCP and lengths on dealt boards."""
    hd = holding_tables()
    masks = deal_batch(n, seed=seed).masks
    hcp = hd["hcp"][masks[:, [0, 2]]].sum(axis=(1, 2)).astype(np.float64)
    lengths = hd["length"][masks[:, [0, 2]]].sum(axis=1).astype(np.float64)
    return hcp, lengths


def test_shape_dtype_and_columns() -> None:
    hcp, lengths = dealt_partnerships(500, seed=1)
    est = estimate_tricks(hcp, lengths)
    assert est.shape == (500, 5) and est.dtype == np.float64
    assert STRAINS == ("S", "H", "D", "C", "NT")
    assert np.all((est >= 0) & (est <= 13))
    # A suit's estimate follows its own length: swapping the spade and club lengths
    # swaps the S and C columns (double dummy does not know suits apart).
    swapped = estimate_tricks(hcp, lengths[:, [3, 1, 2, 0]])
    np.testing.assert_allclose(swapped[:, [3, 1, 2, 0, 4]], est)


def test_bad_shapes_are_refused_with_the_shapes_named() -> None:
    with pytest.raises(ValueError, match=r"\(N, 4\).*\(3,\) and \(3, 3\)"):
        estimate_tricks(np.zeros(3), np.zeros((3, 3)))
    with pytest.raises(ValueError, match="combined_hcp"):
        estimate_tricks(np.zeros((3, 1)), np.zeros((3, 4)))


def test_more_hcp_never_fewer_tricks() -> None:
    _, lengths = dealt_partnerships(200, seed=2)
    steps = np.arange(0, 40.01, 0.25)
    for row in lengths:
        est = estimate_tricks(steps, np.tile(row, (len(steps), 1)))
        assert np.all(np.diff(est, axis=0) >= -1e-9), row


def test_longer_fit_never_fewer_tricks() -> None:
    hcp, lengths = dealt_partnerships(2000, seed=3)
    hcp = hcp + np.random.default_rng(3).uniform(-1, 1, len(hcp))  # fractional, as bid
    base = estimate_tricks(hcp, lengths)
    for suit in range(4):
        for extra in (0.3, 1.0, 2.5):
            longer = lengths.copy()
            longer[:, suit] += extra
            est = estimate_tricks(hcp, longer)
            assert np.all(est[:, suit] >= base[:, suit] - 1e-9), (suit, extra)


def test_tables_are_monotone_along_their_declared_axes(shipped: dict[str, Any]) -> None:
    for kind in ("suit", "nt"):
        spec = shipped["models"][kind]
        table = np.asarray(spec["table"])
        assert "hcp" in spec["monotone"]
        assert kind == "nt" or "fit" in spec["monotone"]
        for name in spec["monotone"]:
            assert np.all(np.diff(table, axis=spec["features"].index(name)) >= 0), name


def test_vectorised_agrees_with_a_loop_of_single_hands() -> None:
    hcp, lengths = dealt_partnerships(300, seed=4)
    hcp = hcp + 0.37
    lengths = lengths + np.random.default_rng(4).uniform(-0.5, 0.5, lengths.shape)
    batch = estimate_tricks(hcp, lengths)
    one_by_one = np.array([estimate_tricks(hcp[i:i + 1], lengths[i:i + 1])[0]
                           for i in range(len(hcp))])
    np.testing.assert_allclose(batch, one_by_one, rtol=0, atol=1e-12)


def test_few_hands_read_in_python_floats_give_the_same_bits() -> None:
    # One or two hands are read point by point (tricks._Table._few); the values must be
    # numpy's bit for bit, or an auction could change with the size of its group.
    rng = np.random.default_rng(6)
    hcp, lengths = dealt_partnerships(400, seed=6)
    hcp = np.where(rng.random(len(hcp)) < 0.5, hcp, hcp + rng.uniform(-3, 3, len(hcp)))
    lengths = lengths + rng.choice([0.0, 0.5, -0.7, 1.3], lengths.shape)  # some off the tables
    batch = estimate_tricks(hcp, lengths)  # 400 hands: the numpy form
    for i in range(0, len(hcp), 2):
        pair = estimate_tricks(hcp[i:i + 2], lengths[i:i + 2])
        one = estimate_tricks(hcp[i:i + 1], lengths[i:i + 1])
        assert pair.tobytes() == batch[i:i + 2].tobytes(), i
        assert one.tobytes() == batch[i:i + 1].tobytes(), i


def test_interpolates_between_cells_and_clips_beyond_them() -> None:
    lengths = np.array([[9.0, 7, 6, 4]] * 3)
    lo, mid, hi = estimate_tricks(np.array([25.0, 25.5, 26.0]), lengths)
    np.testing.assert_allclose(mid, (lo + hi) / 2, atol=1e-12)
    top = estimate_tricks(np.array([40.0, 47.0]), np.array([[13.0, 0, 0, 13], [15, -2, 0, 13]]))
    np.testing.assert_allclose(top[0], top[1])


def test_heldout_errors_recomputed_through_the_runtime_path(
        shipped: dict[str, Any], tool: ModuleType) -> None:
    """The errors stored by the build come back from estimate_tricks on the same boards."""
    hcp, lengths, tricks = holdout_boards()
    assert len(hcp) == 2 * shipped["build"]["holdout_deals"]
    est = estimate_tricks(hcp, lengths)
    held = shipped["evaluation"]["holdout"]
    suit_err = np.abs(est[:, :4] - tricks[:, :4]).mean()
    nt_err = np.abs(est[:, 4] - tricks[:, 4]).mean()
    # The shipped table is rounded to 0.001 trick, so the two may differ by that much.
    assert suit_err == pytest.approx(held["suit"]["model"]["mae"], abs=2e-3)
    assert nt_err == pytest.approx(held["nt"]["model"]["mae"], abs=2e-3)
    ints = hcp.astype(np.int64)
    suit_rule = tool.baseline_suit(np.repeat(ints, 4), lengths.reshape(-1).astype(np.int64))
    assert np.abs(suit_rule - tricks[:, :4].reshape(-1)).mean() == pytest.approx(
        held["suit"]["baseline"]["mae"], abs=1e-3)
    nt_rule = tool.baseline_nt(ints)
    assert np.abs(nt_rule - tricks[:, 4]).mean() == pytest.approx(
        held["nt"]["baseline"]["mae"], abs=1e-3)
    # The point of the model: it beats the rules of thumb on boards it never saw.
    assert suit_err < held["suit"]["baseline"]["mae"]
    assert nt_err < held["nt"]["baseline"]["mae"]


@pytest.mark.parametrize(("strain", "hcp_range", "fit"), [
    ("suit", (25, 27), 9), ("suit", (24, 26), 8), ("suit", (20, 22), 8),
    ("suit", (28, 32), 8), ("nt", (24, 26), None), ("nt", (27, 30), None),
])
def test_calibrated_on_heldout_boards(strain: str, hcp_range: tuple[int, int],
                                      fit: int | None) -> None:
    """Mean estimate and mean double-dummy result agree within sampling error in the cells
    a captain decides games in."""
    hcp, lengths, tricks = holdout_boards()
    est = estimate_tricks(hcp, lengths)
    in_hcp = (hcp >= hcp_range[0]) & (hcp <= hcp_range[1])
    if strain == "suit":
        sel = in_hcp[:, None] & (lengths == fit)
        got, want = est[:, :4][sel], tricks[:, :4][sel].astype(np.float64)
    else:
        got, want = est[in_hcp, 4], tricks[in_hcp, 4].astype(np.float64)
    assert len(want) >= 40, "too few held-out boards for a calibration check"
    se = want.std(ddof=1) / np.sqrt(len(want))
    assert abs(got.mean() - want.mean()) <= 3 * se + 0.1, (got.mean(), want.mean(), se)


def test_unbiased_over_all_heldout_boards() -> None:
    hcp, lengths, tricks = holdout_boards()
    err = estimate_tricks(hcp, lengths) - tricks
    assert abs(err[:, :4].mean()) < 0.1 and abs(err[:, 4].mean()) < 0.1


def test_info_says_what_the_model_is(shipped: dict[str, Any]) -> None:
    info = trick_model_info()
    assert info["features"]["suit"][:2] == ["hcp", "fit"]
    assert info["features"]["nt"][0] == "hcp"
    assert info["build"]["deals"] == shipped["build"]["deals"]
    assert info["build"]["seed"] == shipped["build"]["seed"]
    assert info["table_cells"]["suit"] == np.asarray(shipped["models"]["suit"]["table"]).size
    assert "holdout_boards" not in info  # the boards stay out of the summary
    info["build"]["deals"] = -1  # the caller's copy; the model's own is untouched
    assert trick_model_info()["build"]["deals"] == shipped["build"]["deals"]


def test_holdout_rows_round_trip(tool: ModuleType) -> None:
    solved = tool.Solved(deal_batch(6, seed=5).masks,
                         np.arange(6 * 20).reshape(6, 5, 4) % 14, 0.0)
    p = tool.partnerships(solved)
    hcp, lengths, tricks = decode_boards(tool.encode_boards(p, np.arange(12)))
    np.testing.assert_array_equal(hcp, p.hcp)
    np.testing.assert_array_equal(lengths, p.lengths)
    np.testing.assert_array_equal(tricks, p.tricks)
    assert np.all(lengths.sum(axis=1) == 26)


def test_isotonic_fit_matches_pool_adjacent_violators(tool: ModuleType) -> None:
    def pava(values: list[float], weights: list[float]) -> list[float]:
        blocks: list[list[float]] = []  # [mean, weight, count]
        for v, w in zip(values, weights, strict=True):
            blocks.append([v, w, 1])
            while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
                (m1, w1, c1), (m2, w2, c2) = blocks[-2], blocks.pop()
                blocks[-1] = [(m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2, c1 + c2]
        return [m for m, _, c in blocks for _ in range(int(c))]

    rng = np.random.default_rng(6)
    values = rng.normal(size=(50, 15)).cumsum(axis=1) * 0.2 + rng.normal(size=(50, 15))
    weights = rng.uniform(0.1, 5, size=(50, 15))
    got = tool.isotonic_rows(values, weights)
    want = [pava(list(v), list(w)) for v, w in zip(values, weights, strict=True)]
    np.testing.assert_allclose(got, want, atol=1e-10)
    grid = rng.normal(size=(20, 9)) + np.add.outer(np.arange(20) * 0.3, np.arange(9) * 0.5)
    table = tool.monotone(grid, rng.uniform(1, 3, size=grid.shape), (0, 1))
    assert np.all(np.diff(table, axis=0) >= 0) and np.all(np.diff(table, axis=1) >= 0)


def _schema(value: Any) -> Any:
    """The shape of a JSON value: dict keys and value types, not the numbers."""
    if isinstance(value, dict):
        return {k: _schema(v) for k, v in value.items()}
    if isinstance(value, list):
        return ["list"]
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float) or value is None:
        return "number"  # cv_mae is null when a quick build fixes the features
    return type(value).__name__


def test_a_tiny_build_writes_the_shipped_schema(shipped: dict[str, Any],
                                                tmp_path: Path) -> None:
    """The script that made the shipped file still makes files of the same form."""
    out = tmp_path / "tm.json"
    models = shipped["models"]
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--deals", "10", "--cache", "none", "--out", str(out),
         "--suit-features", ",".join(models["suit"]["features"]),
         "--nt-features", ",".join(models["nt"]["features"]),
         "--shrink", str(models["suit"]["shrink"])],
        capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stderr
    fresh = json.loads(out.read_text(encoding="utf-8"))
    shipped_schema, fresh_schema = _schema(shipped), _schema(fresh)
    # Candidates are one entry in a quick build, several in a full one: compare the rest.
    for schema in (shipped_schema, fresh_schema):
        schema["evaluation"].pop("candidates")
    assert fresh_schema == shipped_schema
    model = load_model(out)
    for kind in ("suit", "nt"):
        assert fresh["models"][kind]["shape"] == models[kind]["shape"]
        assert np.asarray(fresh["models"][kind]["table"]).shape == tuple(models[kind]["shape"])
    est = model.estimate(np.array([25.0]), np.array([[8.0, 7, 6, 5]]))
    assert est.shape == (1, 5)


def test_a_broken_model_file_is_named(tmp_path: Path, shipped: dict[str, Any]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(TrickModelError, match=r"bad\.json"):
        load_model(bad)
    data = json.loads(json.dumps(shipped))
    table = np.asarray(data["models"]["nt"]["table"])
    table.flat[0] = 14.0
    data["models"]["nt"]["table"] = table.tolist()
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(TrickModelError, match=r"models\.nt: tricks outside 0-13"):
        load_model(bad)
    data = json.loads(json.dumps(shipped))
    data["models"]["nt"] = {"features": ["hcp", "stoppers"], "low": [0, 0],
                            "table": np.full((41, 3), 5.0).tolist()}
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(TrickModelError, match="unknown feature 'stoppers'"):
        load_model(bad)
