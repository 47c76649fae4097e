"""The SBU check judges a call in every table context the notes can tell apart: an
opening is never a passed hand's, a later call may come from a hand that passed before
the opening, passed later or has not passed."""

from __future__ import annotations

from bidbox.lang import compile_text
from bidbox.lang.system import CallEntry
from bidbox.rules import SBU
from bidbox.rules.sbu import _contexts

SYSTEM = """system contexts
1C hcp 12+, 3+C
  1H hcp 6+, 4+H
(1H)
  P  hcp 0-7
    (2H)
      P  hcp 0-5
        2S hcp 6-9, 5+S
  2C hcp 8-11, 5+D, passed_before_opening | hcp 12-16, 5+C, not passed_before_opening
"""


def _entry(system_text: str, *path: str) -> CallEntry:
    """The call at the end of ``path`` (opponents' calls in parentheses, their passes left
    out as the system file leaves them)."""
    node = compile_text(system_text, "c.bbx").root
    entry = None
    for call in path:
        if call.startswith("("):
            node = next(o.node for o in node.opp if str(o.call) == call.strip("()"))
        else:
            entry = next(e for e in node.calls if str(e.call) == call)
            node = entry.node
    assert entry is not None
    return entry


def test_openings_are_never_a_passed_hands_call() -> None:
    contexts = _contexts(_entry(SYSTEM, "1C"))
    assert {c.seat for c in contexts} == {1, 2, 3, 4}
    assert not any(c.passed or c.passed_before_opening for c in contexts)


def test_later_calls_come_from_passed_and_unpassed_hands() -> None:
    # Responder to a third- or fourth-seat 1C passed before it.
    response = _contexts(_entry(SYSTEM, "1C", "1H"))
    assert any(c.passed_before_opening for c in response)
    assert any(not c.passed for c in response)
    # After (1H) P (2H) P (P), our 2S is a hand that passed after the opening.
    later = _contexts(_entry(SYSTEM, "(1H)", "P", "(2H)", "P", "2S"))
    assert all(c.passed for c in later)
    assert any(not c.passed_before_opening for c in later)


def test_an_overcall_is_judged_where_it_is_worst() -> None:
    # Unpassed, 2C is a natural overcall (Level 1); after a pass before their opening it
    # shows diamonds: a conventional overcall, Level 3, and the finding names that context.
    report = SBU().check(compile_text(SYSTEM, "c.bbx"))
    [two_clubs] = [f for f in report.findings if f.call == "2C" and f.auction == "(1H)"]
    assert two_clubs.level == 3 and two_clubs.rule == "conventional overcall"
    assert "passed before the opening" in two_clubs.message
    assert two_clubs.code == "licence" and two_clubs.location is not None
