"""Golden snapshots of what a player reads in `bidbox explain` (issue 11 item 6): a change
to the text of these auctions shows in review as a diff of tests/data/explain_golden.

Regenerate after an intended change: .venv/bin/python tools/update_explain_golden.py
(or set BIDBOX_UPDATE_GOLDEN=1 for this test), then read the diff."""

from __future__ import annotations

import os

import pytest

from tests.cli.golden import UPDATE_ENV, golden_auctions, read_golden, render, write_golden

ITEMS = golden_auctions()


@pytest.fixture(scope="module", autouse=True)
def _update() -> None:
    if os.environ.get(UPDATE_ENV):
        write_golden()


@pytest.mark.parametrize("item", ITEMS, ids=[f"{i.system} [{i.auction}]" for i in ITEMS])
def test_explain_text_matches_its_snapshot(item) -> None:  # type: ignore[no-untyped-def]
    kept = read_golden(item.system).get(item.command)
    assert kept is not None, (f"no snapshot for {item.command}: run "
                              "tools/update_explain_golden.py")
    assert render(item) == kept


def test_every_system_listed_has_a_file_and_no_stale_blocks() -> None:
    listed = {(i.system, i.command) for i in ITEMS}
    for system in {s for s, _ in listed}:
        kept = set(read_golden(system))
        assert kept == {c for s, c in listed if s == system}, system
