"""'(X) [system on]': our calls after their pass are kept on after their double, from the
same lines, so a change to the undisturbed continuation changes the doubled one; the
lines under the double win; misuse is an error at file:line:column."""

from __future__ import annotations

from pathlib import Path

import pytest

from bidbox.lang import SystemFileError, compile_text
from bidbox.lang.system import CallEntry, Node, System


def node_at(system: System, *path: str) -> Node:
    node = system.root
    for token in path:
        if token.startswith("("):
            node = next(o.node for o in node.opp if str(o.call) == token[1:-1])
        else:
            node = next(e.node for e in node.calls if str(e.call) == token)
    return node


def entry_at(system: System, *path: str) -> CallEntry:
    *before, last = path
    return next(e for e in node_at(system, *before).calls if str(e.call) == last)


def problems(text: str) -> list[str]:
    with pytest.raises(SystemFileError) as info:
        compile_text(text, "m.bbx")
    return [f"{d.location.file}:{d.location.line}:{d.location.col} {d.message}"
            for d in info.value.diagnostics]


def doc_example() -> str:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "language.md").read_text()
    section = doc[doc.index("- **System on after their double**"):]
    return section.split("```\n", 2)[1]


RELAY = ["1D", "1S", "1NT", "2C"]


def test_the_language_md_example_keeps_the_relay_on() -> None:
    system = compile_text(doc_example(), "example.bbx")
    doubled = node_at(system, *RELAY, "(X)")
    # the lines under (X) first, then the kept calls; their pass a call nobody makes
    assert [str(e.call) for e in doubled.ordered()] == ["XX", "P", "2D"]
    assert str(entry_at(system, *RELAY, "(X)", "P").shows) == "none"
    kept = entry_at(system, *RELAY, "(X)", "2D")
    plain = entry_at(system, *RELAY, "2D")
    assert kept.shows is plain.shows and kept.tags == plain.tags == ("relay",)
    assert " ".join(map(str, kept.auction)) == "1D P 1S P 1NT P 2C X 2D"
    assert kept.location == plain.location   # made from the same line


def test_a_change_to_the_undisturbed_continuation_changes_the_doubled_one() -> None:
    text = doc_example()
    line = "        2D  any                   [relay]"
    assert text.count(line) == 1
    edited = compile_text(text.replace(line, "        2D  hcp 20+               [relay]\n"
                                                 "        2NT any                   [nf]"),
                          "edited.bbx")
    before = compile_text(text, "example.bbx")
    assert str(entry_at(before, *RELAY, "(X)", "2D").shows) == "any"
    assert str(entry_at(edited, *RELAY, "(X)", "2D").shows) == "hcp 20+"
    assert [str(e.call) for e in node_at(edited, *RELAY, "(X)").ordered()] == [
        "XX", "P", "2D", "2NT"]


KEPT_DEEPER = """
module answers
  1S  =4S   [answer]
  1NT any   [answer]
  (X)  [system on]
    XX  5+H  "to play"
1C  hcp 16+   [artificial, f1]
  1D  hcp 0-7   [artificial]
    1H  any  [relay]
      use answers
    (X)  [system on]
      XX  5+D  "to play"
    (1S)
      X  hcp 8+
"""


def test_modules_and_doubles_deeper_in_the_kept_calls() -> None:
    system = compile_text(KEPT_DEEPER, "m.bbx")
    assert [str(e.call) for e in node_at(system, "1C", "1D", "(X)").ordered()] == ["XX", "1H"]
    # the module's answers and its own (X) [system on] come along under the kept 1H
    deeper = node_at(system, "1C", "1D", "(X)", "1H", "(X)")
    assert [str(e.call) for e in deeper.ordered()] == ["XX", "1S", "1NT"]
    made = entry_at(system, "1C", "1D", "(X)", "1H", "(X)", "1S")
    assert " ".join(map(str, made.auction)) == "1C P 1D X 1H X 1S"
    # only our calls are kept: the answer to their 1S beside the double is not
    assert [o.pattern for o in node_at(system, "1C", "1D").opp] == ["X", "1S"]
    assert node_at(system, "1C", "1D", "(X)").opp == []


def test_misuse_is_an_error_at_its_place() -> None:
    found = problems("""system m
1C  hcp 16+   [artificial, f1]
  1D  hcp 0-7   [artificial, system on]
  (1S)  [system on]
    X  hcp 8+
  (X)  [system of]
    XX hcp 8+
""")
    assert found[0].startswith("m.bbx:3:30 [system on] belongs on their double")
    assert "not on our own call" in found[0]
    assert found[1].startswith("m.bbx:4:10 [system on] belongs on their double")
    assert "not on their (1S): after a bid of theirs" in found[1]
    assert found[2] == "m.bbx:6:9 write 'system on' (on their double: '(X) [system on]')"
    assert len(found) == 3


def test_nothing_to_keep_on_is_an_error() -> None:
    found = problems("""system m
1D  hcp 12+
  (X)  [system on]
    XX hcp 10+
""")
    assert found == ["m.bbx:3:3 [system on] keeps our calls after their pass on after "
                     "their double, but no call of ours is written after their pass here "
                     "(or the lines under the double define them all)"]
