"""BML read by the reference implementation (bridge-markup), BSS fields from meanings."""

from __future__ import annotations

import re
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import bidbox
from bidbox.api import get_regulation
from bidbox.core.calls import Call, Strain
from bidbox.formats.bml import bml_call, opponents_shorthand, write_bml
from bidbox.formats.bss import fields, write_bss
from bidbox.formats.tree import PublishedCall, PublishedTree, read_tree

bml = pytest.importorskip("bml.bml")


@cache
def tree(name: str, depth: int | None, *options: str) -> PublishedTree:
    system = bidbox.load_system(name, list(options) or None).compiled
    return read_tree(system, get_regulation("sbu"), depth)


def _expected(published: PublishedCall) -> tuple[str, ...]:
    theirs_first = bool(published.path) and not published.path[0].ours
    return tuple(bml_call(c, ours=(i % 2 == 1) == theirs_first)
                 for i, c in enumerate(published.entry.auction))


def _expand(sequence: tuple[str, ...]) -> list[tuple[str, ...]]:
    """A sequence with BML's several-strain bids of the opponents ((2CDHSN)) spelt out."""
    out: list[tuple[str, ...]] = [()]
    for token in sequence:
        m = re.fullmatch(r"\((\d)([CDHSN]{2,})\)", token)
        options = [f"({m.group(1)}{s})" for s in m.group(2)] if m else [token]
        out = [(*head, o) for head in out for o in options]
    return out


def _sequences(content: Any) -> list[tuple[tuple[str, ...], str, str, str]]:
    """(sequence, description, seat, vul) of every node of every bidding table."""
    out = []

    def visit(node: Any) -> None:
        for child in node.children:
            if child.bid not in ("root", ""):
                for sequence in _expand(tuple(child.get_sequence())):
                    out.append((sequence, child.desc, child.seat, child.vul))
            visit(child)

    for kind, value in content.nodes:
        if kind == bml.ContentType.BIDTABLE:
            visit(value)
    return out


@pytest.mark.parametrize(("name", "depth"), [("sbu-level1", None), ("tosr", 3)])
def test_bridge_markup_reads_every_call(name: str, depth: int | None) -> None:
    bml.args = bml.Args()
    content = bml.content_from_string(write_bml(tree(name, depth)))
    read = {seq for seq, *_ in _sequences(content)}
    calls = [c for c in tree(name, depth).calls() if all(t.call is not None for t in c.path)]
    assert len(calls) > 300
    missing = [c.auction_text for c in calls if _expected(c) not in read]
    assert not missing, missing[:5]
    assert content.meta["TITLE"] == tree(name, depth).system.title


def test_seat_and_vulnerability_tables() -> None:
    bml.args = bml.Args()
    content = bml.content_from_string(write_bml(tree("sbu-level1", 2,
                                                     "nt-range=weak-nv-strong-v")))
    openings = {(seq, desc, vul) for seq, desc, _, vul in _sequences(content) if seq == ("1N",)}
    vuls = {vul for *_, vul in openings}
    assert {"N0", "Y0"} <= vuls
    assert any("15-17" in desc and vul == "Y0" for _, desc, vul in openings)
    assert any("12-14" in desc and vul == "N0" for _, desc, vul in openings)


def test_bml2html_shows_the_tree(tmp_path: Path) -> None:
    source = tmp_path / "sbu.bml"
    source.write_text(write_bml(tree("sbu-level1", 3)), encoding="utf-8")
    script = Path(sys.executable).with_name("bml2html")
    subprocess.run([str(script), str(source)], check=True, capture_output=True, timeout=300)
    html = (tmp_path / "sbu.htm").read_text(encoding="utf-8")
    assert "Stayman: asks for a four-card major" in html
    assert html.count("<li") >= sum(1 for _ in tree("sbu-level1", 3).calls()) // 2


def _bss_records(text: str) -> dict[str, str]:
    out = {}
    for line in text.splitlines()[1:]:
        head, _, rest = line.partition("=")
        out[head] = rest
    return out


def test_bss_fields_come_from_the_meaning() -> None:
    records = _bss_records(write_bss(tree("sbu-level1", 2)))
    one_spade = records["001S"]
    assert one_spade[0] == "N"                      # natural
    assert one_spade[1:7] == "YYYYYY"               # every outcome still open
    assert one_spade[7] == "2"                      # non-forcing
    assert one_spade[8:10] == "48"                  # four or more spades (8: any)
    assert records["002C"][0] == "Y"                # Acol 2C: artificial
    assert records["002C"][1:8] == "YYYYYN6"        # game forcing: no undoubled defence
    assert records["001NP2C"][0] == "Y"             # Stayman
    assert records["001NP2C"][7] == "D"             # tagged an asking bid
    assert records["001N"][7] == "2"                # no length digits after no-trump
    assert records["001N"][8:].startswith("12-14")
    assert records["003S"][8:10] == "77"            # a seven-card pre-empt
    assert records["001NP4S"][1:7] == "NNNYNN"      # a sign-off in spades


def test_bss_matches_each_calls_meaning_and_reads_back(tmp_path: Path) -> None:
    t = tree("sbu-level1", None)
    records = _bss_records(write_bss(t))
    for published in t.calls():
        if any(tok.call is None for tok in published.path):
            continue
        theirs_first = bool(published.path) and not published.path[0].ours
        calls = "".join(bml_call(c) for c in published.entry.auction)
        key = ("*" if theirs_first else "") + "00" + calls
        assert key in records, published.auction_text
        assert records[key].startswith(fields(published))
        if published.call.strain is not None and published.call.strain is not Strain.NT:
            lo, hi = published.length_range(published.call.strain)
            assert fields(published)[-2:] == f"{min(lo, 8)}{hi if hi <= 7 else 8}"
    source = tmp_path / "sbu.bss"
    source.write_text(write_bss(t), encoding="utf-8")
    script = Path(sys.executable).with_name("bss2bml")
    subprocess.run([str(script), str(source)], check=True, capture_output=True, timeout=300)
    assert "Stayman" in (tmp_path / "sbu.bml").read_text(encoding="utf-8")


def test_wildcard_calls_are_written_in_each_formats_convention(tmp_path: Path) -> None:
    """sbu-level1 defends 1NT doubled, (any), by calls that do not depend on the
    opponents' call: BML writes the calls the wildcard stands for as several-strain bids,
    one row per level, and bml2bss (the reference reader) expands them into exactly the
    records bidbox's BSS writes, one per call, with the same fields."""
    t = tree("sbu-level1", None)
    text = write_bml(t)
    # (2Z) and (3Z) have their own double (four of their suit); the wildcard keeps the rest.
    assert "\n  (4CDHSN)\n    D  penalty double: 9+\n" in text
    assert "\n  (2H)\n    D  penalty double: 9+ with four or more of their suit" in text
    wild = [c for c in t.calls() if any(tok.wildcard for tok in c.path)]
    assert len(wild) > 20
    source = tmp_path / "sbu.bml"
    source.write_text(text, encoding="utf-8")
    script = Path(sys.executable).with_name("bml2bss")
    subprocess.run([str(script), str(source)], check=True, capture_output=True, timeout=300)
    reference = _bss_records((tmp_path / "sbu.bss").read_text(encoding="utf-8"))
    ours = _bss_records(write_bss(t))
    assert len(ours) > 1000
    for key, rest in ours.items():
        assert key in reference, key
        # bml2bss writes fixed fields; the description (after the fields) must agree.
        description = rest[10:] if rest[8:9].isdigit() and key[-1] in "CDHS" else rest[8:]
        assert description.strip() in reference[key], key
    wild_sequences = {"".join(bml_call(c) for c in p.entry.auction) for p in wild}
    assert wild_sequences <= {key.lstrip("*")[2:] for key in ours}


def test_opponents_shorthand() -> None:
    calls = [Call.parse(c) for c in ("X", "2C", "2D", "2H", "2S", "2NT", "3C", "XX")]
    assert opponents_shorthand(calls) == ["(2CDHSN)", "(3C)", "(D)", "(R)"]
