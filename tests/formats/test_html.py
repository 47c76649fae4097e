"""HTML notes and convention cards: every call shown with its generated meaning and alert,
card fields filled from the meanings, rendered in headless Chromium, PDF read back."""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

import bidbox
from bidbox.api import get_regulation
from bidbox.cli.main import main
from bidbox.formats.html import (
    NOT_FILLED,
    card_data,
    card_html,
    find_browser,
    notes_html,
    notes_pdf,
    pdf_destinations,
    rendered_dom,
    screenshot,
    suit_html,
)
from bidbox.formats.tree import PublishedTree, read_tree

needs_browser = pytest.mark.skipif(find_browser() is None,
                                   reason="headless Chromium absent (.ci/run installs it)")


@cache
def tree(name: str, depth: int | None, *options: str) -> PublishedTree:
    system = bidbox.load_system(name, list(options) or None).compiled
    return read_tree(system, get_regulation("sbu"), depth)


@cache
def notes(name: str, depth: int | None) -> str:
    return notes_html(tree(name, depth))


def test_notes_show_every_call_with_meaning_alert_and_source() -> None:
    page = notes("sbu-level1", None)
    calls = list(tree("sbu-level1", None).calls())
    assert page.count('class="row ours"') == len(calls)
    for published in calls[::25]:
        assert f"{published.entry.location.line}</a>" in page
    stayman = next(c for c in calls if c.auction_text == "1NT P 2C")
    assert "Stayman: asks for a four-card major" in page
    assert f"alert: {stayman.decision.rule} ({stayman.decision.section})" in page
    assert "Errata: readings of the source" in page  # the errata file beside the system
    assert "<code>nt-range</code>" in page           # the options chosen
    assert 'id="search"' in page and "<details" in page


def test_suits_are_coloured_symbols() -> None:
    assert str(suit_html("2H over 1NT")) == \
        '2<span class="suit heart">♥</span> over 1NT'
    assert "<" not in str(suit_html("a < b")).replace("&lt;", "")


def test_card_fields_come_from_the_meanings() -> None:
    data = card_data(tree("sbu-level1", 2))
    [one_nt] = data["one_nt"]
    assert one_nt.hcp == "12-14"
    assert {o.call: o.min_length for o in data["openings"]}["1S"] == "4"
    # HCP as explain states them (issue 11): bounds with the negative inference, open
    # ranges; the card said "10-28" (a measured maximum) for 1S and "19-30" for 2C
    hcp = {o.call: o.hcp for o in data["openings"]}
    assert (hcp["1S"], hcp["2C"]) == ("10-22", "19+")
    strong = card_data(tree("sbu-level1", 2, "nt-range=15-17", "five-card-majors"))
    assert strong["one_nt"][0].hcp == "15-17"
    assert {o.call: o.min_length for o in strong["openings"]}["1S"] == "5"
    both = card_data(tree("sbu-level1", 2, "nt-range=weak-nv-strong-v"))
    assert sorted((o.contexts, o.hcp) for o in both["one_nt"]) == [
        ("not vulnerable", "12-14"), ("vulnerable", "15-17")]
    relay = card_data(tree("tosr", 1))
    assert {o.call: o.artificial for o in relay["openings"]}["1C"] is True
    assert relay["special"]


@pytest.mark.parametrize("layout", ["ebu", "wbf"])
def test_cards_mark_what_the_system_cannot_fill(layout: str) -> None:
    page = card_html(tree("sbu-level1", 2), layout)
    assert NOT_FILLED in page  # the partners' names
    assert "12-14" in page
    assert ("Slam conventions" in page) == (layout == "ebu")
    assert ("artificial?" in page)


@needs_browser
def test_chromium_shows_the_tree(tmp_path: Path) -> None:
    page = notes("sbu-level1", 3)
    dom = rendered_dom(page)
    assert "Our openings" in dom and dom.count('class="row ours"') == sum(
        1 for _ in tree("sbu-level1", 3).calls())
    assert "jinja" not in dom.lower() and "undefined" not in dom.lower()
    shot = tmp_path / "notes.png"
    screenshot(notes_html(tree("sbu-level1", 3), expand="1NT P 2C"), shot)
    import matplotlib.image

    pixels = matplotlib.image.imread(str(shot))
    assert pixels.shape[0] >= 800 and pixels.std() > 0.05  # not a blank page


@needs_browser
def test_search_box_finds_calls() -> None:
    dom = rendered_dom(notes("sbu-level1", 3).replace(
        "var hash = decodeURIComponent(location.hash.slice(1));", "var hash = 'q=stayman';"))
    found = re.search(r'id="hits">(\d+) calls? found', dom)
    assert found and int(found.group(1)) >= 2
    assert 'class="row ours hit"' in dom


@needs_browser
@pytest.mark.skipif(shutil.which("pdftotext") is None,
                    reason="pdftotext absent (.ci/run installs poppler-utils)")
def test_pdf_has_the_notes_and_pages(tmp_path: Path) -> None:
    pdf = notes_pdf(tree("sbu-level1", 1))
    out = tmp_path / "notes.pdf"
    out.write_bytes(pdf)
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True,
                          check=True).stdout
    one_nt = next(c for c in tree("sbu-level1", 1).roots if str(c.call) == "1NT")
    assert "Contents" in text and one_nt.text in " ".join(text.split())
    pages = text.split("\f")
    assert len(pages) >= 3  # paginated
    # The contents give each section's page, and the section's heading is on that page.
    contents = " ".join(pages[0].split())
    numbers = {}
    for title in ("Options chosen", "Our openings", "When they open", "Leads and signals"):
        found = re.search(re.escape(title) + r" p\. (\d+)", contents)
        assert found, title
        numbers[title] = int(found.group(1))
        heading = [line.strip() for line in pages[numbers[title] - 1].splitlines()]
        assert title in heading, (title, numbers[title])
    assert len(set(numbers.values())) > 1
    assert numbers["Our openings"] < numbers["When they open"] <= numbers["Options chosen"]
    # Every contents entry, each opening's included, gives the page of the PDF's own
    # destination for its link.
    dests = pdf_destinations(pdf)
    assert dests is not None
    page = notes_html(tree("sbu-level1", 1), printable=True)
    toc = page[page.index('<nav id="toc">'):page.index("</nav>")]
    # (pdftotext may read the entries out of order: pair each number with its label)
    expected = {re.sub(r"<[^>]+>", "", label).split()[-1]: dests[anchor]
                for anchor, label in re.findall(r'<a href="#([^"]+)">(.*?)</a>', toc)}
    printed = {label: int(n) for label, n in re.findall(r"(\S+) p\. (\d+)", contents)}
    assert len(expected) > 20 and printed == expected
    card = tmp_path / "card.pdf"
    assert main(["publish", "--system", "sbu-level1", "--format", "card-wbf", "--depth", "2",
                 "-o", str(card)]) == 0
    assert card.read_bytes().startswith(b"%PDF")


def test_publish_cli_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["publish", "--system", "sbu-level1", "--format", "pdf"]) == 2
    assert "-o PATH" in capsys.readouterr().err
    assert main(["publish", "--system", "sbu-level1", "--format", "bml", "-o",
                 str(tmp_path / "x.pdf")]) == 2
    assert "not PDF" in capsys.readouterr().err
    assert main(["publish", "--system", "sbu-levl1", "--format", "bml"]) == 2
    assert "did you mean" in capsys.readouterr().err
    assert main(["publish", "--system", "sbu-level1", "--format", "bss", "--depth", "1",
                 "-o", str(tmp_path / "s.bss")]) == 0
    assert (tmp_path / "s.bss").read_text().startswith("*00{")
