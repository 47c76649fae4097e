"""BBOalert export: records parse back, lookups give each call's meaning, alerts are the SBU
rules' decisions, wildcards and option blocks are exact."""

from __future__ import annotations

import os
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

import bidbox
from bidbox.api import get_regulation
from bidbox.formats.bboalert import (
    BBOalertError,
    call_token,
    explanation,
    option_tags,
    read_bboalert,
    split_long,
    write_bboalert,
)
from bidbox.formats.tree import ALL_CONTEXTS, PublishedTree, read_tree

TOKEN = r"(?:[1-7][CDHSN]|--|Db|Rd)"


@cache
def tree(name: str, depth: int | None, *options: str) -> PublishedTree:
    system = bidbox.load_system(name, list(options) or None).compiled
    return read_tree(system, get_regulation("sbu"), depth)


@cache
def exported(name: str, depth: int | None, *options: str) -> str:
    return write_bboalert(tree(name, depth, *options))


CASES = [("sbu-level1", None), ("tosr", 2)]


@pytest.mark.parametrize(("name", "depth"), CASES)
def test_every_record_follows_the_grammar(name: str, depth: int | None) -> None:
    text = exported(name, depth)
    lines = text.splitlines()
    assert lines[0].startswith("BBOalert,")
    records = [line for line in lines[1:] if line.count(",") >= 2]
    assert records
    for line in records:
        context, call, expl = line.split(",", 2)
        assert "," not in expl, line
        assert re.fullmatch(TOKEN, call), line
        box = expl.split("#", 1)[0]
        assert 0 < len(box) <= 69, line
        # a context is tokens, groups of tokens or the wildcard
        pieces = re.sub(r"\((?:[^()]|\([^()]*\))*\)|\[1-7\]\.|__", "", context)
        assert re.fullmatch(f"{TOKEN}*", pieces), line
    assert len(read_bboalert(text).records) == len(records)


@pytest.mark.parametrize(("name", "depth"), CASES)
def test_lookup_gives_each_alerted_call_its_explanation(name: str, depth: int | None) -> None:
    """Every call of the tree looked up as BBOalert would at the table: an alerted call
    finds its explanation in every seat and vulnerability the notes reach it, a call the
    rules do not alert finds nothing (so no wildcard reaches too far)."""
    parsed = read_bboalert(exported(name, depth))
    checked = alerted = 0
    for published in tree(name, depth).calls():
        if any(t.call is None for t in published.path):
            continue  # a wildcard path: its representative call may have its own entry
        if published.reads_their_notes:
            continue  # BBOalert sees the calls only: their natural 1D, not a transfer 1D
        context = [call_token(c) for c in published.entry.auction[:-1]]
        for seat, vul, they in sorted(published.contexts)[::5]:
            found = parsed.lookup(context, call_token(published.call), seat, vul, they)
            if published.alert:
                assert found is not None, published.auction_text
                assert found.box == explanation(published).split("#")[0], published.auction_text
            else:
                assert found is None, (published.auction_text, found)
            checked += 1
        alerted += published.alert
    assert checked > 100 and alerted > 10


def test_stayman_reads_as_explain_says() -> None:
    sbu = bidbox.load_system("sbu-level1")
    call = sbu.explain("1NT P 2C").calls[2]
    assert call.alert
    parsed = read_bboalert(exported("sbu-level1", None))
    found = parsed.lookup(["1N", "--"], "2C", 3, False, False)
    assert found is not None
    assert found.text.startswith(call.meaning.replace(", ", "; "))
    # a natural opening is not alerted, and BBOalert finds no record for it
    assert not sbu.explain("1S").calls[0].alert
    assert parsed.lookup([], "1S", 1, False, False) is None


def test_alerts_are_the_sbu_decisions_on_sampled_auctions() -> None:
    sbu = bidbox.load_system("sbu-level1")
    parsed = read_bboalert(exported("sbu-level1", None))
    calls = [c for c in tree("sbu-level1", None).calls()
             if all(t.call is not None for t in c.path)][::40]
    assert len(calls) > 20
    for published in calls:
        explained = sbu.explain(published.auction)
        last = explained.calls[-1]
        context = [call_token(c) for c in published.entry.auction[:-1]]
        seat, vul, they = min(published.contexts)
        found = parsed.lookup(context, call_token(published.call), seat, vul, they)
        assert (found is not None) == last.alert, published.auction_text


def test_vulnerability_variants_become_option_blocks() -> None:
    text = exported("sbu-level1", 2, "nt-range=weak-nv-strong-v")
    parsed = read_bboalert(text)
    assert any("@n" in o for o in parsed.options) and any("@v" in o for o in parsed.options)
    # Stayman is alerted at both vulnerabilities, from the block BBOalert switches on
    for vul in (False, True):
        found = parsed.lookup(["1N", "--"], "2C", 3, vul, False)
        assert found is not None and found.option is not None
        assert ("@v" in found.option) == vul


def test_option_tags_cover_exactly() -> None:
    assert option_tags(ALL_CONTEXTS) == [""]
    thirds = frozenset(c for c in ALL_CONTEXTS if c[0] in (3, 4))
    assert option_tags(thirds) == ["@3@4"]
    vul = frozenset(c for c in ALL_CONTEXTS if c[1])
    assert option_tags(vul) == ["@v"]
    odd = frozenset({(1, True, False), (1, False, True)})
    assert sorted(option_tags(odd)) == ["@1@n@V", "@1@v@N"]


def test_long_text_is_split_for_the_chat() -> None:
    text = "word " * 30
    split = split_long(text.strip())
    box, chat = split.split("#")
    assert len(box) <= 69 and box + " " + chat == text.strip()
    assert split_long("short") == "short"


def test_readme_grammar_features() -> None:
    """Continuation lines, '+' contexts, markdown lists, regular expressions, options."""
    text = "\n".join([
        "BBOalert,test",
        "free text is ignored",
        ",1N,15-17",
        "- 2C Stayman",
        "    - 2D no major",
        "- Db,2D transfer",
        "1N--,\\",
        "  2H,transfer to spades",
        "+,2S,range ask",
        "Option,Opening_@3@4",
        ",1S,light",
        "Option",
        "1[HS]--,2N,Jacoby",
        "/4N--$/,5C,1 or 4",
    ])
    f = read_bboalert(text)
    assert f.lookup(["1N", "--"], "2C", 3, False, False).text == "Stayman"  # type: ignore[union-attr]
    assert f.lookup(["1N", "--", "2C", "--"], "2D", 1, False, False) is not None
    assert f.lookup(["1N", "Db"], "2D", 3, False, False).text == "transfer"  # type: ignore[union-attr]
    assert f.lookup(["1N", "--"], "2H", 3, False, False) is not None
    assert f.lookup(["1N", "--"], "2S", 3, False, False).text == "range ask"  # type: ignore[union-attr]
    assert f.lookup([], "1S", 3, False, False) is not None
    assert f.lookup([], "1S", 1, False, False) is None
    assert f.lookup(["1S", "--"], "2N", 3, False, False) is not None
    assert f.lookup(["1C", "--", "4N", "--"], "5C", 1, False, False) is not None
    with pytest.raises(BBOalertError, match="header"):
        read_bboalert("1N,2C,x")


def _upstream_files() -> list[tuple[str, str]]:
    """Sample system files of the BBOalert repository, when a checkout is named by
    BIDBOX_BBOALERT_REPO (a git directory); never copied into this project."""
    repo = os.environ.get("BIDBOX_BBOALERT_REPO")
    if not repo or not Path(repo).exists():
        return []
    names = subprocess.run(["git", "--git-dir", repo, "ls-tree", "-r", "--name-only", "HEAD",
                            "Systems"], capture_output=True, text=True, check=True)
    out = []
    for name in names.stdout.splitlines():
        if not name.endswith(".txt"):
            continue
        shown = subprocess.run(["git", "--git-dir", repo, "show", f"HEAD:{name}"],
                               capture_output=True, check=False)
        if shown.returncode == 0:  # a snapshot may leave its largest files out
            out.append((name, shown.stdout.decode("utf-8", "replace")))
    return out


def test_upstream_sample_files_parse() -> None:
    files = [(n, t) for n, t in _upstream_files() if t.lstrip("\ufeff").startswith("BBOalert")]
    if not files:
        pytest.skip("set BIDBOX_BBOALERT_REPO to a checkout of stanmaz/BBOalert")
    total = 0
    for name, text in files:
        parsed = read_bboalert(text.lstrip("\ufeff"), name)
        total += len(parsed.records)
        for record in parsed.records:
            assert record.call.strip(), (name, record.line)
    assert total > 1000
