"""Modules read once and bound at each use: typed and named parameters with defaults,
arithmetic on numbers, calls made only where legal, and errors at the use site."""

from __future__ import annotations

from pathlib import Path

import pytest

from bidbox.lang import SystemFileError, compile_text
from bidbox.lang.compiler import Compiler
from bidbox.lang.system import Node, System


def calls_after(system: System, *path: str) -> list[str]:
    node: Node = system.root
    for token in path:
        if token.startswith("("):
            node = next(o.node for o in node.opp if str(o.call) == token[1:-1])
        else:
            node = next(e.node for e in node.calls if str(e.call) == token)
    return [str(e.call) for e in node.calls]


def entry(system: System, *path: str):  # type: ignore[no-untyped-def]
    node: Node = system.root
    found = None
    for token in path:
        found = next(e for e in node.calls if str(e.call) == token)
        node = found.node
    return found


def problems(text: str) -> list[str]:
    with pytest.raises(SystemFileError) as info:
        compile_text(text, "m.bbx")
    return [f"{d.location.line}:{d.location.col} {d.message}" for d in info.value.diagnostics]


SHAPES = """
module shapes(shift=0, suit: suit, lo: number = 8)
  +({shift}+1)  hcp {lo}-{lo+3}, 5+{suit}   "minimum with five {suit}"
  +({shift}+2)  hcp {lo+4}+, 5+{suit}       "maximum"
1C hcp 16+ [artificial]
  1H hcp 8+, 5+H
    R any [relay]
      use shapes(suit=H)
    +2 any [relay] "game probe"
      use shapes(2, S, lo=10)
"""


def test_named_arguments_defaults_and_arithmetic() -> None:
    system = compile_text(SHAPES, "shapes.bbx")
    assert calls_after(system, "1C", "1H", "1S") == ["1NT", "2C"]
    low = entry(system, "1C", "1H", "1S", "1NT")
    assert str(low.shows) == "hcp 8-11, 5+H"  # lo defaults to 8, {lo+3} is 11
    assert low.description == "minimum with five H"
    assert str(entry(system, "1C", "1H", "1S", "2C").shows) == "hcp 12+, 5+H"
    # Positional shift and suit, named lo: two steps higher, 10-13 and 14+.
    assert calls_after(system, "1C", "1H", "1NT") == ["2H", "2S"]
    assert str(entry(system, "1C", "1H", "1NT", "2H").shows) == "hcp 10-13, 5+S"
    assert str(entry(system, "1C", "1H", "1NT", "2S").shows) == "hcp 14+, 5+S"


def test_a_constraint_argument_counts_as_one_part() -> None:
    text = """
module raise(what: constraint, lo: number = 6)
  2H  {what}, hcp {lo}+
1H hcp 12+, 5+H
  use raise(4+H | 3+H & controls 2+)
"""
    system = compile_text(text, "c.bbx")
    shows = entry(system, "1H", "2H").shows
    # (4+H | 3+H, controls 2+), hcp 6+: the argument is not spliced into the 'and'.
    assert str(shows) == "(4+H | 3+H, controls 2+), hcp 6+"


def test_untyped_parameters_keep_the_macro_meaning() -> None:
    # The old form splices the text: 'a | b' next to ', hcp 6+' binds as a | (b, hcp 6+).
    text = """
module raise(what)
  2H  {what}, hcp 6+
1H hcp 12+, 5+H
  use raise(4+H | 3+H)
"""
    shows = entry(compile_text(text, "u.bbx"), "1H", "2H").shows
    assert str(shows) == "4+H | 3+H, hcp 6+"


def test_module_names_built_from_arguments_still_work() -> None:
    text = """
module pos_tail(n)
  +1 hcp {n}+ "pos"
module neg_tail(n)
  +1 hcp <={n} "neg"
module relay(t, n)
  R any [relay]
    use {t}_tail({n})
1C hcp 16+
  1D hcp 0-7
    use relay(neg, 7)
  1H hcp 8+
    use relay(pos, 8)
"""
    system = compile_text(text, "names.bbx")
    assert entry(system, "1C", "1D", "1H", "1S").description == "neg"
    assert str(entry(system, "1C", "1H", "1S", "1NT").shows) == "hcp 8+"


ASK = """
module short_suit_ask
  4NT  any               [ask, artificial, if legal] "asks for the short suit"
  P    hcp 0-7           "weak"
1C hcp 16+
  1H hcp 8+
    use short_suit_ask
  4S hcp 8+
    use short_suit_ask
"""


def test_if_legal_makes_a_call_only_where_it_is_legal() -> None:
    system = compile_text(ASK, "ask.bbx")
    assert calls_after(system, "1C", "1H") == ["4NT", "P"]
    assert calls_after(system, "1C", "4S") == ["4NT", "P"]  # 4NT still legal over 4S
    above = ASK.replace("  4S hcp 8+", "  5C hcp 8+")
    assert calls_after(compile_text(above, "ask.bbx"), "1C", "5C") == ["P"]


def test_without_if_legal_an_illegal_call_is_an_error_at_that_use() -> None:
    text = ASK.replace(", if legal]", "]").replace("  4S hcp 8+", "  5C hcp 8+")
    found = problems(text)
    assert any(p.startswith("3:3 4NT is not legal after '1C P 5C P'") and "used at m.bbx:9:5" in p
               for p in found), found


@pytest.mark.parametrize(("use", "expected"), [
    ("use shapes(suit=X)", "8:23 argument 'suit' of module 'shapes' is a suit"),
    ("use shapes(suitt=H)", "8:18 module 'shapes' has no parameter 'suitt' (did you mean"),
    ("use shapes(shift=H, suit=H)", "8:24 argument 'shift' of module 'shapes' is a whole"),
    ("use shapes()", "8:11 module 'shapes' needs an argument for 'suit' (a suit)"),
    ("use shapes(1, H, 3, 4)", "8:27 module 'shapes' takes 3 argument(s)"),
    ("use shapes(suit=H, 2)", "8:26 an argument without a name after a named one"),
    ("use shapes(suit=H, suit=S)", "8:26 'suit' is given twice"),
    ("use shapes(suit=H, lo=hcp)", "8:29 argument 'lo' of module 'shapes' is a whole"),
])
def test_a_wrong_use_is_an_error_at_the_use_site(use: str, expected: str) -> None:
    text = SHAPES.split("1C hcp")[0] + "1C hcp 16+\n  1H hcp 8+\n    R any\n      " + use + "\n"
    found = problems(text)
    assert any(p.startswith(expected) for p in found), found


@pytest.mark.parametrize(("module", "expected"), [
    ("module m(s: colour)\n  +1 any\n", "2:10 unknown parameter kind 'colour'"),
    ("module m(s, s)\n  +1 any\n", "2:13 parameter 's' is listed twice"),
    ("module m(s)\n  +1 5+{t}\n", "3:8 't' is not a parameter of this module"),
    ("module m(s: suit = Q)\n  +1 5+{s}\n", "2:10 argument 's' of module 'm' is a suit"),
    ("module m(n)\n  +1 hcp {n*2}+\n", "3:10 cannot read '{n*2}'"),
])
def test_a_wrong_module_is_an_error_where_it_is_written(module: str, expected: str) -> None:
    found = problems("\n" + module + "1C hcp 16+\n")
    assert any(p.startswith(expected) for p in found), found


def test_arithmetic_on_a_word_is_an_error_at_the_use() -> None:
    found = problems("module m(t)\n  1H hcp {t+1}+\n1C hcp 12+\n  use m(pos)\n")
    assert any("'{t+1}' adds to 't', which is 'pos', not a number" in p
               and "used at m.bbx:4:3" in p for p in found), found


def test_place_holders_belong_in_module_bodies() -> None:
    found = problems('1C hcp 12+ "{x} is fine in a description"\n  1H hcp {x}\n')
    assert found == ["2:10 '{x}' is a module parameter: it can only be used in a module body"]


def test_a_module_line_is_parsed_once_however_often_it_is_used() -> None:
    text = "module m(s: suit)\n  +1 hcp 6+, 4+{s}\n  +2 hcp 10+\n" + "".join(
        f"{bid} hcp 12+\n  use m({'HSDC'[i % 4]})\n"
        for i, bid in enumerate(("1C", "1D", "1H", "1S", "1NT", "2C", "2D", "2H")))
    parsed: list[int] = []
    original = Compiler.split_line

    def counting(self: Compiler, raw, *args, **kwargs):  # type: ignore[no-untyped-def]
        parsed.append(raw.location.line)
        return original(self, raw, *args, **kwargs)

    Compiler.split_line = counting  # type: ignore[method-assign]
    try:
        system = compile_text(text, "once.bbx")
    finally:
        Compiler.split_line = original  # type: ignore[method-assign]
    assert len(system.root.calls) == 8
    assert parsed.count(2) == 1 and parsed.count(3) == 1, parsed
    # Uses that bind the same suit share the bound constraint itself.
    assert entry(system, "1C", "1D").shows is entry(system, "1NT", "2C").shows


def test_the_module_examples_of_language_md_compile_as_documented() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "language.md").read_text()
    section = doc[doc.index("## 8. Modules"):doc.index("## 9. Options")]
    blocks = [b.split("```", 1)[0] for b in section.split("```\n")[1::2]]
    systems = [compile_text(b, f"example{i}.bbx") for i, b in enumerate(blocks)
               if not b.startswith("m.bbx")]
    assert len(systems) == 4
    weak, shapes, raise_, ask = systems
    assert [str(e.call) for e in weak.root.calls] == ["2H", "2S"]
    assert str(entry(shapes, "1C", "1H", "1S", "1NT").shows) == "hcp 8-11, 5+H"
    assert str(entry(shapes, "1C", "1H", "1NT", "2H").shows) == "hcp 10-13, 5+H"
    assert str(entry(raise_, "1H", "2H").shows) == "(4+H | 3+H, controls 2+), hcp 6-9"
    assert calls_after(ask, "1C", "1H") == ["4NT", "P"]
    assert calls_after(ask, "1C", "5C") == ["P"]
