"""End to end in headless Chromium (Debian's ``chromium``, driven by Playwright): deal a
board, bid it to the end by clicking, see the robots' replies, an explanation, the alert
and the Stop card, the double-dummy review, export PBN, and replay it from the history.

The server is the real one: uvicorn on a free loopback port in a thread, over a fresh
SQLite file. ``BIDBOX_SCREENSHOTS=DIR`` also saves the pictures the README shows.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import DEAL
from .support import free_port

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

if not Path(CHROMIUM).exists() and not os.environ.get("CI"):
    pytest.skip(f"no {CHROMIUM} here (.ci/run installs it; apt-get install chromium)",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    import uvicorn

    from bidbox.web.app import create_app

    app = create_app(tmp_path_factory.mktemp("web") / "tables.sqlite")
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not uv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    uv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=shutil.which(CHROMIUM) or CHROMIUM,
                                     args=FLAGS)
        yield chromium
        chromium.close()


def shoot(page: Any, name: str) -> None:
    folder = os.environ.get("BIDBOX_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def calls_shown(page: Any) -> list[str]:
    return [b.inner_text().replace("!", "").strip()
            for b in page.query_selector_all("#auction button.call")]


def test_bid_a_board_to_the_end_review_export_and_replay(server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1000, "height": 1200})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.set_default_timeout(60_000)
    page.goto(server + "/")

    page.fill("#deal", DEAL)
    page.select_option("#dealer", "N")
    page.select_option("#vul", "none")
    page.select_option("#seat", "S")
    page.click("#deal-button")
    page.wait_for_selector("#table", state="visible")
    assert calls_shown(page) == ["1NT", "Pass"]  # the robots' calls before the person's turn
    assert page.is_disabled("#box button[data-call='1C']")  # insufficient: not offered
    assert page.is_disabled("#box button[data-call='XX']")
    assert page.is_enabled("#box button[data-call='2C']")

    # Stayman: the preview says partner alerts it; no Stop card for a non-jump
    page.click("#box button[data-call='2C']")
    page.wait_for_selector("#preview", state="visible")
    assert "Alert" in page.inner_text("#preview") and "Stayman" in page.inner_text("#preview")
    assert not page.is_visible("#stop-card")
    page.click("#confirm")
    page.wait_for_function("document.querySelectorAll('#auction button.call').length >= 6")
    assert calls_shown(page)[:6] == ["1NT", "Pass", "2\u2663", "Pass", "2\u2666", "Pass"]
    assert page.is_visible("#auction button.call.alerted[data-index='2']")

    # an explanation of the robot's answer and of the person's own alerted call
    page.click("#auction button.call[data-index='4']")
    assert "decided by the notes" in page.inner_text("#explain")
    page.hover("#auction button.call[data-index='2']")
    explained = page.inner_text("#explain")
    assert "Stayman" in explained and "Alert: conventional" in explained
    # as `bidbox explain` says it: what the hand lacks, and each seat's bounds in words
    assert "denies 13+ HCP with 5+ in a major" in explained and "denies: " not in explained
    page.wait_for_function("document.getElementById('knowledge').innerText"
                           ".includes('N 12-14 HCP, balanced')")
    assert "0-37" not in page.inner_text("#knowledge")
    shoot(page, "table")

    # 3NT is a jump: the Stop card comes up before the call is made
    page.click("#box button[data-call='3NT']")
    page.wait_for_selector("#stop-card", state="visible")
    page.click("#confirm")
    page.wait_for_selector("#your-calls")  # the review, once DDS has solved the deal
    assert "Final contract 3NT by N" in page.inner_text("#status")
    assert "3NT by N, 10 tricks, +430" in page.inner_text("#result")
    assert len(page.query_selector_all("#dd tbody tr")) == 5
    assert "0 IMPs" in page.inner_text("#robot-table")
    assert page.inner_text("#your-calls").count("\u2714") == 2  # both calls as the system
    assert all(page.is_disabled(f"#box button[data-call='{c}']") for c in ("P", "7NT"))
    assert "undefined" not in page.inner_text("#table")
    shoot(page, "review")

    href = page.get_attribute("#export", "href")
    exported = context.request.get(server + href).text()
    assert f'[Deal "{DEAL}"]' in exported and '[Contract "3NT"]' in exported
    assert "Stayman" in exported  # the alert note
    lin_href = page.get_attribute("#export-lin", "href")
    assert "an|Stayman" in context.request.get(server + lin_href).text()

    # history: the board is listed; play it again, bid, and undo
    page.click("#show-history")
    page.wait_for_selector("#history-list li .replay")
    assert "3NT" in page.inner_text("#history-list")
    page.click("#history-list li .replay")
    page.wait_for_selector("#table", state="visible")
    page.wait_for_function("document.querySelectorAll('#auction button.call').length === 2")
    assert page.inner_text("#hand").replace("\n", " ").count("AQ53") == 1
    page.click("#box button[data-call='2C']")
    page.click("#confirm")
    page.wait_for_function("document.querySelectorAll('#auction button.call').length >= 6")
    page.click("#undo")
    page.wait_for_function("document.querySelectorAll('#auction button.call').length === 2")
    assert errors == []
    context.close()


def test_an_error_is_shown_and_the_phone_layout_fits(server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 800})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(server + "/")
    page.fill("#constraint", "hcp 15-17,, balanced")
    page.click("#deal-button")
    page.wait_for_function("document.getElementById('setup-error').textContent.length > 0")
    assert "constraint" in page.inner_text("#setup-error")
    page.fill("#constraint", "hcp 15-17, balanced")
    page.click("#deal-button")
    page.wait_for_selector("#box", state="visible")
    for selector in ("#box button[data-call='7NT']", "#box button[data-call='XX']"):
        box = page.query_selector(selector).bounding_box()
        assert box["x"] + box["width"] <= 375, selector
    shoot(page, "phone")
    context.close()


def test_the_system_browser_deals_a_board_to_practise_a_node(server: str, browser: Any
                                                             ) -> None:
    context = browser.new_context(viewport={"width": 1000, "height": 1200})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.set_default_timeout(90_000)
    page.goto(server + "/")
    page.click("#show-browser")
    page.wait_for_selector("#node-calls a.node-link[data-path='1NT']")
    page.click("#node-calls a.node-link[data-path='1NT']")
    page.wait_for_selector("#node-calls a.node-link[data-path='1NT 2C']")
    row = page.query_selector("#node-calls tr:has(a.node-link[data-path='1NT 2C'])")
    assert "Stayman" in row.inner_text() and "alert" in row.inner_text()
    assert "undefined" not in page.inner_text("#browser")  # e.g. a wildcard drawn as a call
    shoot(page, "system")
    row.query_selector("button.practise").click()  # a board where the robots bid 1NT P 2C
    page.wait_for_selector("#table", state="visible")
    assert calls_shown(page) == ["1NT", "Pass"]
    assert "Your call" in page.inner_text("#status")
    assert "reaches '1NT P 2C'" in page.inner_text("#board-info")
    page.click("#box button[data-call='2C']")
    page.click("#confirm")
    page.wait_for_function("document.querySelectorAll('#auction button.call').length >= 5")
    assert errors == []
    context.close()
