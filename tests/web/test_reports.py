"""The simulation report pages: a tiny real match into a results folder, shown by the app;
names that are unknown, outside the folder, or not the lab's get 404/400 with a reason."""

from __future__ import annotations

import json
import re
import sqlite3
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bidbox.sim.deals import deal_boards
from bidbox.sim.match import MatchSpec, SystemRef
from bidbox.sim.runner import MatchRun, run_match
from bidbox.sim.store import STORE_NAME
from bidbox.web.app import create_app

ROOT = Path(__file__).parents[2]
MINI = str(ROOT / "tests" / "data" / "mini.bbx")
WEAK = str(ROOT / "tests" / "sim" / "data" / "weak.bbx")


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, MatchRun]:
    """Six boards of the small test systems, with plots, in ``ROOT/set/run1``."""
    root = tmp_path_factory.mktemp("results")
    run = run_match(MatchSpec(SystemRef.resolve(MINI), SystemRef.resolve(WEAK)),
                    deal_boards(6, 5), root / "set" / "run1", workers=1, progress=False)
    (root / "notes").mkdir()
    (root / "notes" / "todo.txt").write_text("not a results folder")
    return root, run


@pytest.fixture
def reports(results: tuple[Path, MatchRun], tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "tables.sqlite", results[0])) as client:
        yield client


def test_the_list_names_the_run_with_its_figures(reports: TestClient,
                                                 results: tuple[Path, MatchRun]) -> None:
    report = results[1].report
    listed = reports.get("/api/reports").json()["reports"]
    assert [r["name"] for r in listed] == ["set/run1/report"]
    assert listed[0]["boards"] == 6 and listed[0]["ci95"] == list(report.ci95)
    page = reports.get("/reports")
    assert page.status_code == 200 and 'href="/reports/set/run1/report"' in page.text
    assert f"{report.imps_per_board:+.2f}" in page.text


def test_the_report_page_shows_its_figures_and_plots(reports: TestClient,
                                                     results: tuple[Path, MatchRun]) -> None:
    report = results[1].report
    data = reports.get("/api/reports/set/run1").json()  # the folder stands for report.json
    assert data["boards"] == 6 and data["web"]["name"] == "set/run1/report"
    assert set(data["web"]["plots"]) == {"imps.png", "openings.png", "opening_hcp.png",
                                        "hcp.png"}
    page = reports.get("/reports/set/run1/report").text
    lo, hi = report.ci95
    assert f'id="imps">{report.imps_per_board:+.2f}<' in page
    assert f'id="ci95">{lo:+.2f} to {hi:+.2f}<' in page
    for call, share in report.opening_frequencies["a"].items():
        row = re.search(rf'<tr class="opening"><th>{call}</th>\s*<td>([\d.]+)%', page)
        assert row is not None and float(row.group(1)) == round(100 * share, 1)
    # who decided the calls: the notes, the base (none in the test systems), judgement
    for key, words in (("system", "the notes"), ("placement", "judgement")):
        row = re.search(rf'<tr class="source"><th>calls by {words}</th>\s*<td>([\d.]+)%', page)
        share = report.extra["call_sources"]["a"][key]
        assert row is not None and float(row.group(1)) == round(100 * share, 1)
    swing = report.extra["swings"][0]
    assert f"Board {swing['board']}: {swing['imps']:+d} IMPs" in page
    for table in swing["tables"]:
        assert table["auction"] in page
    for url in data["web"]["plot_urls"]:
        assert f'src="{url}"' in page
        image = reports.get(url)
        assert image.status_code == 200 and image.content.startswith(b"\x89PNG")


def test_plots_of_a_later_match_are_not_shown_as_this_one(
        results: tuple[Path, MatchRun], tmp_path: Path) -> None:
    folder = tmp_path / "copy"
    folder.mkdir()
    source = results[0] / "set" / "run1"
    (folder / "report.json").write_text((source / "report.json").read_text())
    (folder / "imps.png").write_bytes((source / "imps.png").read_bytes())
    import os

    os.utime(folder / "report.json", (1_000_000, 1_000_000))  # the report is older
    with TestClient(create_app(tmp_path / "t.sqlite", tmp_path)) as client:
        data = client.get("/api/reports/copy/report").json()
        assert data["web"]["plots"] == [] and data["web"]["stale_plots"] == ["imps.png"]
        assert "belong to a later match" in client.get("/reports/copy").text


def test_a_report_without_plots_gets_them_drawn_from_its_store(
        results: tuple[Path, MatchRun], tmp_path: Path) -> None:
    source = results[0] / "set" / "run1"
    folder = tmp_path / "bare"  # what `simulate --no-plots` leaves
    folder.mkdir()
    for name in ("report.json", STORE_NAME):
        (folder / name).write_bytes((source / name).read_bytes())
    with TestClient(create_app(tmp_path / "t.sqlite", tmp_path)) as client:
        data = client.get("/api/reports/bare").json()
        assert data["web"]["rendered"] is True
        assert data["web"]["plot_urls"][0] == "/sim/render/bare/report/imps.png"
        assert 'id="rendered"' in client.get("/reports/bare").text
        drawn = client.get("/sim/render/bare/report/imps.png")
        assert drawn.status_code == 200 and drawn.headers["content-type"] == "image/png"
        assert drawn.content == (source / "imps.png").read_bytes()  # the lab's own figure
        with sqlite3.connect(folder / STORE_NAME) as db:  # a store that lost a board
            db.execute("DELETE FROM boards WHERE deal_index = 0")
        db.close()
        refused = client.get("/sim/render/bare/report/hcp.png")
        assert refused.status_code == 400 and "5 of the report's 6" in refused.json()["detail"]


def test_a_results_folder_given_as_the_root_itself(results: tuple[Path, MatchRun]) -> None:
    source = results[0] / "set" / "run1"
    with TestClient(create_app(source / "tables.sqlite", source)) as client:
        assert [r["name"] for r in client.get("/api/reports").json()["reports"]] == ["report"]
        urls = client.get("/api/reports/report").json()["web"]["plot_urls"]
        assert "/sim/plots/imps.png" in urls
        assert client.get("/sim/plots/imps.png").content == (source / "imps.png").read_bytes()


@pytest.mark.parametrize(("url", "status", "words"), [
    ("/api/reports/set/run2", 404, "no report 'set/run2'"),
    ("/api/reports/notes", 400, "not a simulation results folder"),
    ("/api/reports/notes/todo.txt", 400, "not a simulation report"),
    ("/api/reports/%2E%2E/%2E%2E/etc", 400, "outside the results folder"),
    ("/sim/plots/set/run1/sim.sqlite", 400, "not a plot"),
    ("/sim/plots/set/run1/missing.png", 404, "no plot 'missing.png'"),
    ("/sim/plots/notes/todo.png", 400, "not a simulation results folder"),
    ("/api/reports/" + "a" * 300, 400, "a...' is too long"),  # not echoed whole either
    ("/sim/plots/set/run1/" + "a" * 300 + ".png", 400, "not a plot"),
    ("/sim/render/set/run1/report/pie.png", 404, "no plot 'pie.png'"),
])
def test_bad_names_get_a_reason(reports: TestClient, url: str, status: int,
                                words: str) -> None:
    answer = reports.get(url)
    detail = answer.json()["detail"]
    assert answer.status_code == status and words in detail and len(detail) < 300


def test_the_html_page_says_why_too(reports: TestClient) -> None:
    page = reports.get("/reports/set/run2")
    assert page.status_code == 404 and "no report" in page.text and "<html" in page.text
    assert reports.get("/reports/notes").status_code == 400


def test_a_json_file_that_is_not_a_report(tmp_path: Path) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "report.json").write_text(json.dumps({"boards": 3}))
    with TestClient(create_app(tmp_path / "t.sqlite", tmp_path)) as client:
        answer = client.get("/api/reports/run")
        assert answer.status_code == 400 and "lacks imps_per_board" in answer.json()["detail"]
        assert "lacks" in client.get("/api/reports").json()["reports"][0]["error"]


def test_without_a_results_folder_the_pages_say_how(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "t.sqlite")) as client:
        answer = client.get("/api/reports")
        assert answer.status_code == 404 and "--results" in answer.json()["detail"]
