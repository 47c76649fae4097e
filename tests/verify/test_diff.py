"""``verify.diff``: two versions whose difference is known by construction.

The small systems open 1NT on one range or another, 1C on any other 12+ hand and pass
below: the hands that change are exactly the balanced 12-14 and 15-17 HCP hands that get
to open, and the exact probabilities follow from counting hands, done here independently
of the profile space.
"""

from __future__ import annotations

import itertools
import subprocess
from math import comb
from pathlib import Path

import numpy as np
import pytest

from bidbox.core.hand import Hand
from bidbox.core.seats import Seat
from bidbox.evaluate import evaluate_hand
from bidbox.sim.deals import deal_boards
from bidbox.verify.diff import (
    DiffInputError,
    behaviour_diff,
    exact_opening_changes,
    load_version,
    structural_diff,
)

STRONG = """system small
1NT hcp 15-17, balanced
1C hcp 12+
P hcp 0-11
"""
WEAK = STRONG.replace("15-17", "12-14")


@pytest.fixture()
def pair(tmp_path: Path) -> tuple[Path, Path]:
    strong, weak = tmp_path / "strong.bbx", tmp_path / "weak.bbx"
    strong.write_text(STRONG, encoding="utf-8")
    weak.write_text(WEAK, encoding="utf-8")
    return strong, weak


def balanced_share(low: int, high: int) -> float:
    """P(a hand is 4333, 4432 or 5332 with low..high HCP), by counting holdings."""
    honours = (4, 3, 2, 1)

    def suit(length: int) -> dict[int, int]:
        out: dict[int, int] = {}
        for k in range(0, min(4, length) + 1):
            for held in itertools.combinations(honours, k):
                out[sum(held)] = out.get(sum(held), 0) + comb(9, length - k)
        return out

    shapes = {p for base in ((4, 3, 3, 3), (4, 4, 3, 2), (5, 3, 3, 2))
              for p in itertools.permutations(base)}
    hands = 0
    for shape in shapes:
        total: dict[int, int] = {0: 1}
        for length in shape:
            step: dict[int, int] = {}
            for h1, n1 in total.items():
                for h2, n2 in suit(length).items():
                    step[h1 + h2] = step.get(h1 + h2, 0) + n1 * n2
            total = step
        hands += sum(n for h, n in total.items() if low <= h <= high)
    return hands / comb(52, 13)


def test_structure_names_the_one_changed_call(pair: tuple[Path, Path]) -> None:
    strong, weak = (load_version(str(p)) for p in pair)
    nodes = structural_diff(strong.system, weak.system)
    assert [(n.auction, n.change) for n in nodes] == [("", "changed")]
    [change] = nodes[0].calls
    assert change.call == "1NT" and change.change == "changed" and "shows" in change.what
    assert change.was is not None and change.now is not None
    assert "12-14" in change.was.meaning and "15-17" in change.now.meaning
    assert change.was.location.endswith("weak.bbx:2:1")
    assert change.now.line == "1NT hcp 15-17, balanced"


def test_identical_versions_have_an_empty_diff(pair: tuple[Path, Path]) -> None:
    one, two = load_version(str(pair[0])), load_version(str(pair[0]))
    assert structural_diff(one.system, two.system) == []
    boards = deal_boards(200, 5)
    found = behaviour_diff(one.system, two.system, boards.masks,
                           [boards.dealer(r) for r in range(200)],
                           [boards.vul(r) for r in range(200)])
    assert found.changed_share == 0 and found.changes == []
    assert exact_opening_changes(one.system, two.system)["changed"] == 0


def test_exact_opening_changes_match_counting(pair: tuple[Path, Path]) -> None:
    strong, weak = (load_version(str(p)) for p in pair)
    exact = exact_opening_changes(strong.system, weak.system)
    assert exact["method"] == "exact" and exact["decided"] == pytest.approx(1.0)
    assert set(exact["changes"]) == {("1NT", "1C"), ("1C", "1NT")}
    assert exact["changes"][("1NT", "1C")][0] == pytest.approx(balanced_share(12, 14), rel=1e-9)
    assert exact["changes"][("1C", "1NT")][0] == pytest.approx(balanced_share(15, 17), rel=1e-9)
    for (_, _), (_, witness) in exact["changes"].items():
        assert witness is not None and evaluate_hand(Hand.parse(witness))["balanced"]


def test_the_sample_finds_exactly_the_moved_hands(pair: tuple[Path, Path]) -> None:
    strong, weak = (load_version(str(p)) for p in pair)
    n = 600
    boards = deal_boards(n, 11)
    dealers = [boards.dealer(r) for r in range(n)]
    found = behaviour_diff(strong.system, weak.system, boards.masks, dealers,
                           [boards.vul(r) for r in range(n)])
    deals = boards.deals()
    for row in range(n):
        # Counted without the engine: the first hand from the dealer with 12+ HCP opens.
        opener = None
        for k in range(4):
            seat = Seat((int(dealers[row]) + k) % 4)
            values = evaluate_hand(deals.hand(row, seat))
            if int(values["hcp"]) >= 12:
                opener = (k, values)
                break
        moved = (opener is not None and bool(opener[1]["balanced"])
                 and 12 <= int(opener[1]["hcp"]) <= 17)
        one, two = found.now_ns[row], found.was_ns[row]
        if moved:
            assert opener is not None
            position = opener[0]
            assert one.calls[:position] == two.calls[:position]
            assert {str(one.calls[position]), str(two.calls[position])} == {"1NT", "1C"}
        elif opener is not None:
            assert one.calls[opener[0]] == two.calls[opener[0]]
    openings = [c for c in found.changes if set(c.auction.split()) <= {"P"}]
    assert {(c.was, c.now) for c in openings} == {("1NT", "1C"), ("1C", "1NT")}
    for change in openings:
        values = evaluate_hand(Hand.parse(change.witness))
        assert values["balanced"]
        assert (12 <= int(values["hcp"]) <= 14) == (change.was == "1NT")
        assert (15 <= int(values["hcp"]) <= 17) == (change.now == "1NT")
    dealer = {(c.was, c.now): c for c in openings if c.auction == ""}
    for key, low, high in ((("1NT", "1C"), 12, 14), (("1C", "1NT"), 15, 17)):
        p = balanced_share(low, high)
        assert dealer[key].exact == pytest.approx(p)
        assert abs(dealer[key].count / n - p) < 4 * np.sqrt(p * (1 - p) / n)
        assert "12-14" in dealer[key].explanation["1NT"]["was"]
        assert "15-17" in dealer[key].explanation["1NT"]["now"]


def test_sbu_five_card_majors_moves_four_card_major_openings() -> None:
    now = load_version("sbu-level1", {"five-card-majors": True})
    was = load_version("sbu-level1")
    changed = {(n.auction, c.call) for n in structural_diff(now.system, was.system)
               for c in n.calls}
    assert ("", "1H") in changed and ("", "1S") in changed
    exact = exact_opening_changes(now.system, was.system)
    moved = {k: v for k, v in exact["changes"].items() if k[0] in ("1H", "1S")}
    assert moved
    for (was_call, now_call), (_, witness) in moved.items():
        if now_call in ("1H", "1S") or witness is None:
            continue
        suit = "SH".index(was_call[1])
        # Four-card majors opened the major; five-card majors never open it with four.
        assert Hand.parse(witness).lengths[suit] == 4


def test_a_file_at_a_git_revision(tmp_path: Path, pair: tuple[Path, Path]) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    path = repo / "notes.bbx"
    path.write_text(WEAK, encoding="utf-8")
    git = ["git", "-C", str(repo), "-c", "user.email=t@example.org", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "notes.bbx"], check=True)
    subprocess.run([*git, "commit", "-qm", "weak"], check=True)
    path.write_text(STRONG, encoding="utf-8")
    then = load_version(f"{path}@HEAD", name="--against")
    assert then.text == WEAK and then.revision == "HEAD"
    nodes = structural_diff(load_version(str(path)).system, then.system)
    assert nodes[0].calls[0].was is not None and "12-14" in nodes[0].calls[0].was.meaning
    with pytest.raises(DiffInputError, match=r"--against .*notes\.bbx@nope.*'nope'"):
        load_version(f"{path}@nope", name="--against")
    outside = pair[0]
    with pytest.raises(DiffInputError, match=r"--system .*not a git repository"):
        load_version(f"{outside}@HEAD", name="--system")


def test_git_missing_is_a_clear_error(tmp_path: Path, pair: tuple[Path, Path],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(DiffInputError, match=r"--against .*needs git"):
        load_version(f"{pair[0]}@HEAD", name="--against")


def test_a_missing_file_names_the_argument() -> None:
    with pytest.raises(DiffInputError, match=r"--against 'nowhere\.bbx'"):
        load_version("nowhere.bbx", name="--against")
