"""``bidbox diff`` on the command line: the public JSON keys, the text and HTML reports,
and bad input as one line with exit status 2."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from bidbox.cli.main import main

STRONG = """system small
1NT hcp 15-17, balanced
1C hcp 12+
P hcp 0-11
"""
WEAK = STRONG.replace("15-17", "12-14")
CONTRACT = {"changed_share", "imps_per_board", "ci95", "imps_per_changed_board", "nodes",
            "changes"}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("diffcli")
    (folder / "strong.bbx").write_text(STRONG, encoding="utf-8")
    (folder / "weak.bbx").write_text(WEAK, encoding="utf-8")
    return {"strong": str(folder / "strong.bbx"), "weak": str(folder / "weak.bbx"),
            "store": str(folder / "store"), "html": str(folder / "diff.html")}


@pytest.fixture(scope="module")
def report(files: dict[str, str]) -> dict[str, Any]:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["diff", "--system", files["strong"], "--against", files["weak"],
                     "--deals", "64", "--out", files["store"], "--json",
                     "--html", files["html"]])
    assert code == 0
    data: dict[str, Any] = json.loads(out.getvalue())
    return data


def test_json_keys_are_the_public_contract(report: dict[str, Any]) -> None:
    assert set(report) >= CONTRACT
    assert 0 < report["changed_share"] < 1
    lo, hi = report["ci95"]
    assert lo <= report["imps_per_board"] <= hi
    assert report["imps_per_board"] == pytest.approx(
        report["imps_per_changed_board"] * report["changed_deals"] / report["deals"])
    assert [n["calls"][0]["call"] for n in report["nodes"]] == ["1NT"]
    for change in report["changes"]:
        assert {"auction", "was", "now", "probability", "witness"} <= set(change)
        assert len(change["witness"].split(".")) == 4
    dealer = [c for c in report["changes"] if c["auction"] == ""]
    assert {c["method"] for c in dealer} == {"exact"}


def test_identical_systems_give_an_empty_diff(files: dict[str, str],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "--system", files["weak"], "--against", files["weak"],
                 "--deals", "32", "--out", files["store"], "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["nodes"] == [] and data["changes"] == [] and data["changed_share"] == 0
    assert data["imps_per_board"] == 0 and data["ci95"] == [0, 0]


def test_text_report_and_options(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(["diff", "--system", "sbu-level1", "--option", "nt-range=15-17",
                 "--against-option", "nt-range=12-14", "--deals", "0"])
    text = capsys.readouterr().out
    assert code == 0
    assert "now sbu-level1 (nt-range=15-17) against was sbu-level1 (nt-range=12-14)" in text
    assert "(opening): 1NT changed" in text and "15-17" in text


@pytest.mark.parametrize(("argv", "said"), [
    (["--system", "nowhere.bbx", "--deals", "0"], "--system 'nowhere.bbx'"),
    (["--system", "{strong}", "--against", "{strong}@HEAD", "--deals", "0"], "--against"),
    (["--system", "{strong}", "--deals", "-1"], "--deals"),
    (["--system", "{strong}", "--deals", "5", "--seed", "-4"], "--seed"),
    (["--system", "sbu-level1", "--against-option", "nosuch", "--deals", "0"],
     "--against-option"),
    (["--system", "{strong}", "--deals", "0", "--html", "{missing}/x.html"], "--html"),
])
def test_bad_input_is_one_line_and_exit_2(files: dict[str, str], argv: list[str], said: str,
                                          capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    filled = [a.format(strong=files["strong"], missing=tmp_path / "no" / "dir") for a in argv]
    assert main(["diff", *filled]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bidbox diff: error: ") and said in err
    assert "Traceback" not in err and len(err.strip().splitlines()) <= 2


CHROMIUM = "/usr/bin/chromium"


def test_html_report_renders_in_headless_chromium(report: dict[str, Any],
                                                  files: dict[str, str],
                                                  tmp_path: Path) -> None:
    if not Path(CHROMIUM).exists() and not os.environ.get("CI"):
        pytest.skip(f"no {CHROMIUM} here")
    sync_api = pytest.importorskip("playwright.sync_api")
    shot = tmp_path / "diff.png"
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which(CHROMIUM) or CHROMIUM,
                                    args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.goto(Path(files["html"]).resolve().as_uri())
            headline = page.inner_text("p.big")
            rows = page.query_selector_all("table tr")
            page.screenshot(path=str(shot), full_page=True)
        finally:
            browser.close()
    assert f"{100 * report['changed_share']:.2f}% of 64 deals" in headline
    assert "IMPs per board" in headline
    assert len(rows) >= 1 + len(report["changes"])
    import numpy as np
    from PIL import Image

    pixels = np.asarray(Image.open(shot).convert("L"))
    assert pixels.shape[1] >= 1200 and pixels.shape[0] >= 900
    dark = int((pixels < 128).sum())
    assert dark > 2000  # text and table lines were drawn, not a blank page
