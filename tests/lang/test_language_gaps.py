"""Gaps the system writers met (issue 9): the next bid in a suit as a call, which suit a
variable stands for, suits below/above theirs, a suit variable in a module's name, queens
and graded stoppers."""

from __future__ import annotations

import pytest

from bidbox.core.hand import Hand
from bidbox.evaluate import get_measure
from bidbox.evaluate import holdings as hd
from bidbox.lang import parse_constraint
from bidbox.lang.compiler import compile_text
from bidbox.lang.constraints import ANY, NOTHING, SuitIs, substitute
from bidbox.lang.diagnostics import ConstraintSyntaxError, SystemFileError
from bidbox.lang.system import Node, System


def node(system: System, path: str) -> Node:
    here = system.root
    for token in path.split():
        if token.startswith("("):
            here = next(o.node for o in here.opp if f"({o.call})" == token)
        else:
            here = next(e.node for e in here.calls if str(e.call) == token)
    return here


def shows(system: System, path: str) -> dict[str, str]:
    return {str(e.call): str(e.shows) for e in node(system, path).calls}


# --- the next bid in a suit ---------------------------------------------------------------
NEXT = """system x
module cue(A: suit)
  +{A}   hcp 10+, 3+{A}   [cue]      "cue-bid raise"
  ++{A}  hcp 0-6, 4+{A}   [preempt]  "jump raise"
(1Z)
  +H   hcp 8-16, 5+H
  +NT  hcp 15-18, balanced
1H  hcp 12+, 5+H
  (2C)
    use cue(C)
  (3D)
    +M   hcp 10+, 5+M
    ++NT hcp 20+
"""


def test_the_next_bid_in_a_suit_is_the_cheapest_above_the_last_bid() -> None:
    s = compile_text(NEXT, "x.bbx")
    assert list(shows(s, "(1D)")) == ["1H", "1NT"]
    assert list(shows(s, "(1S)")) == ["2H", "1NT"]  # over spades, hearts at the two level
    assert shows(s, "1H (2C)") == {"3C": "hcp 10+, 3+C", "4C": "hcp 0-6, 4+C"}
    assert shows(s, "1H (3D)") == {"3H": "hcp 10+, 5+H", "3S": "hcp 10+, 5+S",
                                   "4NT": "hcp 20+"}


def test_the_next_bid_past_seven_is_a_located_error_unless_if_legal() -> None:
    with pytest.raises(SystemFileError) as info:
        compile_text("system x\n7S  hcp 20+\n  ++S  any\n", "x.bbx")
    assert "x.bbx:3:3: error: ++S: there is no such bid after '7S P'" in str(info.value)
    s = compile_text("system x\n7S  hcp 20+\n  +NT  any\n  ++S  any [if legal]\n", "x.bbx")
    assert list(shows(s, "7S")) == ["7NT"]


def test_a_call_argument_may_be_the_next_bid_in_a_suit() -> None:
    s = compile_text("""system x
module answer(bid: call)
  {bid}  hcp 8+
(1H)
  use answer(+S)
(2H)
  use answer(+S)
""", "x.bbx")
    assert list(shows(s, "(1H)")) == ["1S"] and list(shows(s, "(2H)")) == ["2S"]


# --- which suit a variable stands for -----------------------------------------------------
@pytest.mark.parametrize(("text", "suits", "holds"), [
    ("Z is H", {"Z": "H"}, True), ("Z is H", {"Z": "S"}, False),
    ("Z is not C", {"Z": "C"}, False), ("Z is not C", {"Z": "D"}, True),
    ("Y below Z", {"Z": "H", "Y": "D"}, True), ("Y below Z", {"Z": "H", "Y": "S"}, False),
    ("Y above Z", {"Z": "C", "Y": "D"}, True), ("M above D", {"M": "H"}, True),
])
def test_a_suit_relation_is_settled_when_the_suits_are_bound(
        text: str, suits: dict[str, str], holds: bool) -> None:
    c = parse_constraint(text)
    assert isinstance(c, SuitIs) and parse_constraint(str(c)) == c
    assert substitute(c, suits) == (ANY if holds else NOTHING)


def test_two_written_suits_settle_as_they_are_read() -> None:
    assert parse_constraint("H is H") == ANY and parse_constraint("S below H") == NOTHING
    # '==' still compares lengths: hearts as long as spades
    assert "as long as" in parse_constraint("H == S").describe()


def test_a_relation_picks_the_hand_type_by_their_suit() -> None:
    s = compile_text("""system x
module over(A: suit)
  3H  hcp 8+, 5+H, {A} is not H
  3S  hcp 8+, 5+S, {A} below S
(1Z)
  2Z  hcp 8+, (Z below H, 5+H, 5+S | Z is H, 5+S, 5+m | Z is S, 5+H, 5+m)  "Michaels"
(2H)
  use over(H)
""", "x.bbx")
    assert shows(s, "(1C)")["2C"] == "hcp 8+, 5+H, 5+S"
    assert shows(s, "(1H)")["2H"] == "hcp 8+, 5+S, (5+C | 5+D)"
    assert shows(s, "(2H)") == {"3H": "none", "3S": "hcp 8+, 5+S"}


def test_a_relation_of_the_hands_ranked_suits_is_an_error() -> None:
    with pytest.raises(ConstraintSyntaxError, match="longest"):
        parse_constraint("L1 is H")


# --- a suit variable in a module's name ---------------------------------------------------
def test_a_bound_suit_variable_names_the_module() -> None:
    s = compile_text("""system x
module raise_H
  2H  hcp 6-9, 3+H
module raise_S
  2S  hcp 6-9, 3+S
module opening(lo: number)
  1M  hcp {lo}+, 5+M  [seat 3-4]
    use raise_{M}
1M  hcp 12+, 5+M  [seat 1-2]
  use raise_{M}
use opening(lo=10)
""", "x.bbx")
    assert len(s.root.calls) == 4  # at the root and in the module, each major
    for entry in s.root.calls:
        want = "2H" if str(entry.call) == "1H" else "2S"
        assert [str(c.call) for c in entry.node.calls] == [want]


def test_an_unbound_suit_variable_in_a_module_name_is_a_located_error() -> None:
    with pytest.raises(SystemFileError) as info:
        compile_text("system x\nmodule raise_H\n  2H  any\n1H  hcp 12+\n  use raise_{M}\n",
                     "x.bbx")
    assert "x.bbx:5:7: error: '{M}' in the module name 'raise_{M}'" in str(info.value)


# --- queens and graded stoppers -----------------------------------------------------------
@pytest.mark.parametrize(("holding", "stops"), [
    ("AK", 2), ("KQ2", 2), ("AKQJ", 4), ("A", 1), ("K2", 1), ("KQ", 1), ("Q32", 1),
    ("J432", 1), ("Q2", 0.5), ("J32", 0.5), ("K", 0), ("Q", 0), ("J2", 0), ("", 0),
    ("T98765", 0),
])
def test_stops_count_how_often_a_suit_stops_their_run(holding: str, stops: float) -> None:
    rest = "AKQJT98765432"
    filler = "".join(c for c in rest if c not in holding)[:13 - len(holding)]
    hand = Hand.parse(f"{holding}.{filler}..")
    value = get_measure("stops").scalar(hand)
    assert isinstance(value, list) and value[0] == stops
    assert hd.tables()["stops_halves"][hand.suits[0]] == 2 * stops


def test_graded_stoppers_and_queens_in_constraints() -> None:
    c = parse_constraint("stops(H) 2+, queens 2+")
    assert str(c) == "stops(H) 2+, queens 2+"
    assert c.describe() == "2+ stops in hearts, 2+ queens"
    assert parse_constraint("stops(S) 1+") != parse_constraint("stoppers(S)")  # same hands
    hand = Hand.parse("AK2.Q32.Q2.J5432")
    assert get_measure("queens").scalar(hand) == 2
    assert get_measure("stops").scalar(hand) == [2.0, 1.0, 0.5, 1.0]


# --- the examples of docs/language.md -----------------------------------------------------
def _doc_block(marker: str) -> str:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "language.md").read_text()
    blocks = [b.split("```", 1)[0] for b in doc.split("```\n")[1::2]]
    return next(b for b in blocks if marker in b)


def test_the_examples_of_language_md_compile_as_documented() -> None:
    cue = compile_text(_doc_block("module cue_raise"), "cue.bbx")
    assert list(shows(cue, "1H (1S)")) == ["2S", "3S"]
    assert list(shows(cue, "1H (2C)")) == ["3C", "4C"]
    stops = compile_text(_doc_block("stops(H) 2+"), "stops.bbx")
    assert shows(stops, "(1H)")["3NT"] == "hcp 19+, balanced, stops(H) 2+"
    which = compile_text(_doc_block('"Michaels"'), "which.bbx")
    assert shows(which, "(1S)")["2S"] == "hcp 8+, 5+H, (5+C | 5+D)"
    off = compile_text(_doc_block("use raises(none)"), "none.bbx")
    assert shows(off, "1S")["4NT"] == "none"
