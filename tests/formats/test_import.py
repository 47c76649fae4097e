"""`bidbox import`: draft system files from BML and BBOalert notes, meanings inferred
from plain text and the rest marked."""

from __future__ import annotations

from pathlib import Path

import pytest

import bidbox
from bidbox.api import get_regulation
from bidbox.cli.main import main
from bidbox.formats.bboalert import bboalert_draft, write_bboalert
from bidbox.formats.bml import read_bml_draft, write_bml
from bidbox.formats.draft import MARK, infer_meaning, write_draft
from bidbox.formats.tree import read_tree
from bidbox.lang.compiler import compile_text

# (notes text, constraint expected, attributes expected); extend freely
INFERENCE = [
    ("5+!h, 10-12 hcp", "hcp 10-12, 5+H", ()),
    ("12-14p balanced", "hcp 12-14, balanced", ()),
    ("4+ !S 6+ points", "hcp 6+, 4+S", ()),
    ("five or more hearts, forcing to game", "5+H", ("gf",)),
    ("17-18 balanced; invitational", "hcp 17-18, balanced", ("inv",)),
    ("1-3C, 6-9", "hcp 6-9, 1-3C", ()),
    ("0-7 HCP, or fewer than two controls", "any", ()),   # alternatives: not one hand
    ("12+ (or less with a good suit)", "any", ()),         # a loosened range
    ("Stayman", "any", ("ask",)),
    ("game forcing relay", "any", ("gf", "relay")),
]


@pytest.mark.parametrize(("text", "constraint", "attributes"), INFERENCE)
def test_meanings_inferred_from_plain_text(text: str, constraint: str,
                                           attributes: tuple[str, ...]) -> None:
    meaning = infer_meaning(text)
    assert meaning.constraint == constraint
    assert meaning.attributes == attributes
    assert meaning.inferred == (constraint != "any")


def _auctions(system: bidbox.System) -> set[str]:
    out = set()
    for node in system.compiled.nodes():
        for entry in node.calls:  # a marked pass is tried last: kept, as judgement's pass
            out.add(" ".join(str(c) for c in entry.auction))
    return out


def test_bml_export_imports_back_to_the_same_tree() -> None:
    original = bidbox.load_system("sbu-level1")
    tree = read_tree(original.compiled, get_regulation("sbu"), 3)
    draft = read_bml_draft(write_bml(tree), "sbu.bml")
    text, unknown = write_draft(draft)
    compiled = bidbox.System.from_text(text, "draft.bbx")
    published = {c.auction_text for c in tree.calls() if all(t.call for t in c.path)}
    assert _auctions(compiled) == published
    # every description survives; each call is inferred or marked, never silently empty
    assert "Stayman: asks for a four-card major" in text
    assert text.count(MARK) == len(unknown) > 0
    one_nt = compiled.explain("1NT").knowledge[bidbox.Seat.N]
    assert one_nt.ranges["hcp"] == (12.0, 14.0)  # "12-14 balanced" read as a meaning


def test_bboalert_export_imports_back() -> None:
    original = bidbox.load_system("tosr")
    tree = read_tree(original.compiled, get_regulation("sbu"), 2)
    draft = bboalert_draft(write_bboalert(tree), "tosr.txt")
    text, unknown = write_draft(draft)
    compiled = compile_text(text, "draft.bbx")
    alerted = {c.auction_text for c in tree.calls()
               if c.alert and all(t.call for t in c.path)}
    drafted = {" ".join(str(x) for x in e.auction)
               for n in compiled.nodes() for e in n.calls}
    assert alerted <= drafted
    assert unknown


def test_illegal_and_unplaceable_input_is_reported() -> None:
    text = "\n".join(["BBOalert,t", ",1N,15-17 balanced", "1N--,1C,nonsense",
                      "1N__,2H,transfer", "1N--2C--,2D,no major"])
    draft = bboalert_draft(text, "t.txt")
    system, _ = write_draft(draft)
    compile_text(system, "t.bbx")
    assert any("wildcard" in s for s in draft.skipped)
    assert any("1C" in s and "insufficient" in s for s in draft.skipped)
    assert "2D  " in system  # the record after an unwritten 2C still finds its place


def test_import_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "notes.bml"
    source.write_text("#+TITLE: t\n\n1N 15-17 balanced\n  2C Stayman\n    2D no major\n"
                      "  (D)\n    R 10+ hcp\n  2M weak\n    P\n", encoding="utf-8")
    out = tmp_path / "draft.bbx"
    assert main(["import", str(source), "-o", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "not inferred" in shown and "2M" in shown  # reported, with the pattern bid
    text = out.read_text()
    assert "1NT  hcp 15-17, balanced" in text and "(X)" in text and "XX  hcp 10+" in text
    assert main(["import", str(tmp_path / "missing.bml"), "-o", str(out)]) == 2
    assert "cannot read" in capsys.readouterr().err
