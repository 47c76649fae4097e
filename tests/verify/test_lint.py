"""Lint finds unreachable calls and holes, each with a witness that really is one, in every
table situation a node is reached in."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bidbox.core import Auction, Hand
from bidbox.engine import as_systems, choose_call
from bidbox.engine.features import HandFeatures
from bidbox.engine.profiles import profile_space
from bidbox.evaluate import evaluate_hand
from bidbox.lang import compile_text, load_system
from bidbox.verify import lint_system
from bidbox.verify.lint import _Masks, _Sampler

SYSTEM = """
1NT hcp 15-17, balanced
  2C  hcp 8+             [ask]
  2H  hcp 0-7, 5+H
  2S  hcp 10+, 5+S       # unreachable: every such hand bids 2C first
  3NT hcp 10-15, balanced, 4+C  requires hcp 10-15, 4+C
"""


def test_unreachable_call_and_hole_with_witness() -> None:
    system = compile_text(SYSTEM, "lint.bbx")
    findings = lint_system(system)
    unreachable = [f for f in findings if f.code == "unreachable"]
    assert [f.call for f in unreachable] == ["2S", "3NT"]
    assert all(f.method == "exact" and not f.sampled for f in unreachable)
    assert all(f.severity == "warning" and f.contexts == () for f in unreachable)
    holes = [f for f in findings if f.code == "hole" and f.auction == "1NT P"]
    assert len(holes) == 1
    # Auctions are written with the passes, as the CLI reads them; the start is "".
    assert [f.auction for f in findings if f.code == "hole"] == ["", "1NT P"]
    assert "after 1NT P:" in holes[0].message
    # The witness is a hand that reaches 1NT's responses and gets the fallback.
    witness = Hand.parse(holes[0].witness or "")
    result = choose_call(witness, Auction.parse(holes[0].auction), as_systems(system))
    assert result.fallback


def test_clean_node_has_no_findings() -> None:
    system = compile_text("1NT hcp 15-17, balanced\n  P hcp 0-7\n  2C hcp 8+\n", "ok.bbx")
    assert [f for f in lint_system(system) if f.auction == "1NT P"] == []


def test_lint_asks_the_right_seat_after_our_own_call() -> None:
    system = compile_text("1H hcp 12+, 5+H\n  1S hcp 6+, 4+S\n    1NT hcp 12-14\n"
                          "    2H hcp 12+, 6+H\n", "seat.bbx")
    holes = {f.auction: f for f in lint_system(system) if f.code == "hole"}
    witness = Hand.parse(holes["1H P 1S P"].witness or "")
    # The seat to call after 1H P 1S P is the opener: the witness must have opened 1H.
    assert witness.lengths[1] >= 5


SEATS = """system seats
1NT hcp 12-14, balanced [seat 1-2]
  P   hcp 0-10
  2NT hcp 11-12
    P   hcp 12
    3NT hcp 13-14
  3NT hcp 13+
1NT hcp 15-17, balanced [seat 3-4]
  P   hcp 0-7
  2NT hcp 8-9
    P   hcp 15
    3NT hcp 16-17
  3NT hcp 10+
"""


def test_a_seat_variant_is_checked_with_its_own_hands() -> None:
    # Checked with dealer North only, the walk read 1NT as the 12-14 variant and found the
    # 15-17 variant's rebids unreachable (and a hole of every hand after 2NT).
    findings = [f for f in lint_system(compile_text(SEATS, "seats.bbx"))
                if f.auction.startswith("1NT")]
    assert findings == []
    broken = SEATS.replace("    P   hcp 15\n", "    P   hcp 12\n")  # a 12-14 rebid left in
    found = [f for f in lint_system(compile_text(broken, "seats.bbx"))
             if f.auction == "1NT P 2NT P"]
    assert [(f.code, f.call) for f in found] == [("unreachable", "P"), ("hole", None)]
    assert all(f.severity == "warning" and f.location == "seats.bbx:11:5" for f in found)


def test_a_call_dead_only_in_some_situations_names_them() -> None:
    # Opened in seat 3 or 4, responder has passed: no game-forcing hand is left for 3NT.
    # Its guard admits responder in seats 1-3, so the notes claim it there: an info.
    text = ("system s\n1NT hcp 15-17, balanced\n  P hcp 0-7\n  2NT hcp 8-9\n"
            "  3NT hcp 12+ [seat 1-3]\n1C hcp 12+\n")
    [finding] = [f for f in lint_system(compile_text(text, "s.bbx"))
                 if f.code == "unreachable"]
    assert finding.call == "3NT" and finding.severity == "info"
    assert finding.contexts == ("1NT opened in seat 3-4",)
    assert "(1NT opened in seat 3-4)" in finding.message
    # Without a guard it is only the table's inference about a passed hand: no finding.
    plain = text.replace(" [seat 1-3]", "")
    assert [f for f in lint_system(compile_text(plain, "s.bbx")) if f.code == "unreachable"
            ] == []


def test_vulnerability_is_a_situation_when_the_notes_read_it() -> None:
    text = SEATS.replace("[seat 1-2]", "[nonvul]").replace("[seat 3-4]", "[vul]")
    findings = [f for f in lint_system(compile_text(text, "v.bbx")) if f.auction]
    assert findings == []


def test_sampled_findings_are_marked_and_rest_on_enough_hands() -> None:
    # A five-level opening with ten hearts: a handful of the common pool's hands fit it, so
    # the rebid's verdict comes from hands dealt to fit the auction.
    text = ("system r\n5H 10+H, hcp 5-9\n  5NT stoppers(S), hcp 16+\n"
            "    7H top_honours(H) 3\n")
    findings = lint_system(compile_text(text, "r.bbx"))
    [hole] = [f for f in findings if f.auction == "5H P 5NT P"]
    assert hole.code == "hole" and hole.sampled and hole.to_json()["sampled"] is True
    assert "dealt to fit the auction" in hole.method and (hole.sample or 0) >= 200
    witness = Hand.parse(hole.witness or "")
    hcp = evaluate_hand(witness)["hcp"]
    assert witness.lengths[1] >= 10 and isinstance(hcp, int) and 5 <= hcp <= 9
    exact = [f for f in findings if f.auction == ""]
    assert exact and not exact[0].sampled and exact[0].to_json()["sampled"] is False


def test_targeted_hands_are_real_hands_of_their_points() -> None:
    sampler = _Sampler(_Masks(frozenset()))
    space = profile_space()
    points = np.random.default_rng(7).integers(0, space.n, 2000)
    hands = HandFeatures(sampler.deal(points))
    assert (hands.value("hcp") == space.hcp[points]).all()
    assert (hands.value("controls") == space.controls[points]).all()
    assert (hands.value("lengths") == space.lengths[points]).all()


def test_every_option_value_is_compiled(tmp_path: Path) -> None:
    # 1NT is defined twice only with the option on: lint with the defaults must say so.
    path = tmp_path / "o.bbx"
    path.write_text("system o\noption strong \"strong NT\"\n1NT hcp 15-17, balanced\n"
                    "1NT hcp 12-14, balanced [if strong]\n", encoding="utf-8")
    findings = lint_system(load_system(str(path)))
    [error] = [f for f in findings if f.code == "compile"]
    assert error.severity == "error" and "with --option strong" in error.message
    assert "defined twice" in error.message and (error.location or "").endswith("o.bbx:4:1")


def test_a_meaning_read_only_by_a_hand_that_passed_before_the_opening() -> None:
    # Drury written in the meaning: only a responder who passed before partner's third- or
    # fourth-seat 1S can make 2C. Lint used to read every seat's 2C as the first seat's
    # (the context was not told apart), so it called 2C dead and checked nothing below.
    text = ("system drury\n1S hcp 11+, 5+S\n  P  hcp 0-9\n"
            "  2C hcp 10-11, 3+S, passed_before_opening   [artificial]\n"
            "    2D hcp 11-13\n  2S hcp 6-11, 3+S\n")
    findings = lint_system(compile_text(text, "d.bbx"))
    assert not [f for f in findings if f.code == "unreachable" and f.call == "2C"]
    # Below 2C is checked: opener's 14+ hands have no rebid there.
    [hole] = [f for f in findings if f.code == "hole" and f.auction == "1S P 2C P"]
    witness = Hand.parse(hole.witness or "")
    hcp = evaluate_hand(witness)["hcp"]
    assert isinstance(hcp, int) and hcp >= 14 and witness.lengths[0] >= 5


def test_the_collector_is_paused_only_while_linting() -> None:
    import gc

    from bidbox.verify.lint import collector_paused

    system = compile_text(SYSTEM, "lint.bbx")
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():  # a nested pause does not resume it on leaving
            pass
        assert not gc.isenabled()
        lint_system(system, variants=False)
        assert not gc.isenabled()
    assert gc.isenabled()
    lint_system(system, variants=False)
    assert gc.isenabled()
    gc.disable()  # a caller that turned it off keeps it off
    try:
        lint_system(system, variants=False)
        assert not gc.isenabled()
    finally:
        gc.enable()
    try:  # a failing walk resumes it too
        with collector_paused():
            raise RuntimeError("walk failed")
    except RuntimeError:
        pass
    assert gc.isenabled()
