"""Every mistake in a system file is reported as file:line:col, all at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from bidbox.lang import OptionError, SystemFileError, compile_text, load_system


def problems(text: str) -> list[str]:
    with pytest.raises(SystemFileError) as info:
        compile_text(text, "bad.bbx")
    return [f"{d.location.line}:{d.location.col} {d.message}" for d in info.value.diagnostics]


@pytest.mark.parametrize(("text", "expected"), [
    ("1NT hcpp 15-17", "1:5 unknown measure 'hcpp' (did you mean 'hcp'?)"),
    ("1NT weak_nt", "1:5 unknown measure or name 'weak_nt'"),
    ("1NT hcp 17-15", "1:9 impossible range '17-15'"),
    ("1H hcp 12+\n  1D hcp 6+", "2:3 1D is not legal after '1H P': insufficient"),
    ("1H hcp 12+\n  XX hcp 6+", "2:3 XX is not legal after '1H P'"),
    ("1H hcp 12+\n1H hcp 15+", "2:1 1H is defined twice at this point (also at line 1)"),
    ("1H hcp 12+\n  2H hcp 6-9\n 2S hcp 6-9", "3:2 bad indentation"),
    ("1H hcp 12+ [artifical]", "1:13 unknown attribute 'artifical' (did you mean 'artificial'?)"),
    ("1H 5H", "1:4 '5H' is ambiguous: write 5+H (at least) or =5H (exactly)"),
    ("1H 14+H", "1:4 impossible length '14+H'"),
    ("1H pattern 4333 5430", "1:17 impossible pattern '5430'"),
    ("1H\n  use stayman", "2:7 unknown module 'stayman'"),
    ("1Q hcp 12+", "1:1 cannot read call '1Q'"),
    ("(1H)\n  (2H) hcp 6+", "2:3 two opponents' calls in a row"),
    ("1H hcp 12+ [if five-card]", "1:16 unknown option 'five-card'"),
    ("def a = b\ndef b = a\n1H a", "defined in terms of itself"),
    ("1H hcp 12+ \"x\" 4+H", "a description must come after the constraint"),
    ("\t1H hcp 12+", "1:1 indent with spaces, not tabs"),
    ("1H +", "1:4 unexpected character '+'"),
])
def test_each_mistake_names_its_place(text: str, expected: str) -> None:
    found = problems(text)
    assert any(expected in p for p in found), found


def test_all_mistakes_of_a_file_are_reported_together() -> None:
    text = "1C hcpp 12+\n1D hcp 20-10\n1H hcp 12+\n  1C hcp 6+\n1S hcp 12+ [gff]\n"
    found = problems(text)
    assert [p.split(":")[0] for p in found] == ["1", "2", "4", "5"]


def test_error_text_quotes_the_line_with_a_caret() -> None:
    with pytest.raises(SystemFileError) as info:
        compile_text("1NT  hcpp 15-17\n", "demo.bbx")
    text = str(info.value)
    assert "demo.bbx:1:6: error: unknown measure 'hcpp' (did you mean 'hcp'?)" in text
    assert "    1NT  hcpp 15-17\n         ^" in text


def test_module_errors_name_the_module_and_its_use() -> None:
    text = "module m(S)\n  2{S} hcp 6+\n    3Q x\n1C hcp 12+\n  use m(H)\n"
    found = problems(text)
    assert any("cannot read call '3Q'" in p and p.startswith("3:") for p in found), found


def test_unknown_option_is_refused_with_the_choices() -> None:
    with pytest.raises(OptionError, match="did you mean 'five-card-majors'"):
        compile_text("option five-card-majors \"x\"\n1H hcp 12+\n", "x.bbx",
                     {"five-card-major": True})
    with pytest.raises(OptionError, match="takes one of weak, strong"):
        compile_text("option nt = weak | strong\n1H hcp 12+\n", "x.bbx", {"nt": "medium"})


def test_includes_stay_beside_the_file(tmp_path: object) -> None:
    found = problems('include "../etc/passwd"\n1H hcp 12+\n')
    assert any("only files beside the system file" in p for p in found), found


def test_a_base_is_compiled_beside_the_system(tmp_path: Path) -> None:
    (tmp_path / "nb.bbx").write_text("1H hcp 12+, 5+H\n  2H hcp 6-9, 3+H\n")
    (tmp_path / "s.bbx").write_text('system s\nbase "nb.bbx"\n1NT hcp 15-17, balanced\n')
    system = load_system(str(tmp_path / "s.bbx"))
    assert system.base is not None
    assert [str(e.call) for e in system.base.root.calls] == ["1H"]


def test_a_missing_base_names_its_line(tmp_path: Path) -> None:
    (tmp_path / "s.bbx").write_text('system s\nbase "nope.bbx"\n1NT hcp 15-17, balanced\n')
    with pytest.raises(SystemFileError, match=r"s\.bbx:2:1: error: base 'nope\.bbx'"):
        load_system(str(tmp_path / "s.bbx"))


@pytest.mark.parametrize(("name", "says"), [("bal", "short for the measure 'balanced'"),
                                            ("hcp", "the measure 'hcp'"),
                                            ("pattern", "a word of the language")])
def test_a_def_may_not_take_a_measures_name(name: str, says: str) -> None:
    # Once silently shadowed: `def bal = 0-4H` then `1C bal` read the measure.
    with pytest.raises(SystemFileError) as err:
        compile_text(f"system d\ndef {name} = 0-4H\n1C {name}\n", "d.bbx")
    assert "d.bbx:2:1" in str(err.value) and says in str(err.value)


def test_a_system_past_the_node_limit_is_a_located_error(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    # Nested modules multiply: three steps each using the next module, four deep, make
    # 120 auction points; with the limit at 50 the line that crosses it is named.
    from bidbox.lang import compiler
    monkeypatch.setattr(compiler, "MAX_NODES", 50)
    modules = "".join(
        f"module m{k}\n" + "".join(f"  +{s}  any\n" + (f"    use m{k + 1}\n" if k < 3 else "")
                                   for s in (1, 2, 3))
        for k in range(4))
    text = f"system t\n{modules}1C  hcp 16+\n  use m0\n"
    with pytest.raises(SystemFileError) as err:
        compile_text(text, "blow.bbx")
    message = str(err.value)
    assert "grows past 50 auction points" in message and "blow.bbx:" in message
    assert "used at blow.bbx:" in message
    monkeypatch.setattr(compiler, "MAX_NODES", 1000)
    assert compile_text(text, "blow.bbx").root.calls
