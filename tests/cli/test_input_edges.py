"""Careless input found by fuzzing the command line after issue 17: each case ends in a
result that keeps what the user gave, or in exit status 2 with a message naming the place,
never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from bidbox.cli.main import main

Capsys = pytest.CaptureFixture[str]
HAND = "AKQ2.J54.T9.8765"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory,
                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Compiles here go to a cache of their own, never the user's."""
    monkeypatch.setenv("BIDBOX_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def run_cli(argv: list[str]) -> int:
    """main's status, also when argparse refuses a value (it exits with status 2)."""
    try:
        return main(argv)
    except SystemExit as stop:
        return int(stop.code or 0)


def refused(capsys: Capsys, *argv: str) -> str:
    """Run the CLI, check it refused with status 2 and no traceback; the message."""
    code = run_cli(list(argv))
    captured = capsys.readouterr()
    assert code == 2, (code, captured.out[:300], captured.err)
    assert "Traceback" not in captured.err
    return captured.err


# --- a folder where a system is named ---------------------------------------------------
def test_folder_named_like_a_shipped_system_does_not_hide_it(
        tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    """`simulate --out tosr` makes a folder 'tosr'; `--system tosr` in that folder then
    said "no system file 'tosr'" instead of bidding with the shipped system."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sbu-level1").mkdir()
    assert main(["bid", "--system", "sbu-level1", "--hand", HAND]) == 0
    assert " bids " in capsys.readouterr().out


@pytest.mark.parametrize("name", ["folder", "folder.bbx"])
def test_folder_given_as_a_system_is_said_to_be_a_folder(tmp_path: Path, capsys: Capsys,
                                                         name: str) -> None:
    (tmp_path / name).mkdir()
    err = refused(capsys, "lint", "--system", str(tmp_path / name))
    assert f"'{tmp_path / name}' is a folder, not a system file" in err


# --- deal --boards: every deal checked before it is bid ---------------------------------
CORPUS = Path(__file__).parents[1] / "data" / "fuzz"


@pytest.mark.parametrize(("name", "expected"), [
    ("card-in-two-hands.pbn", ":3 (board 1): the card SK is in both N's and E's hands"),
    ("card-twice-in-a-suit.pbn", ":3 (board 1): N's hand: hand 'KJ972K.A9.QJ4.A9': card 'K' "
                                 "appears twice in suit 'KJ972K'"),
    ("card-missing.pbn", ":3 (board 1): N's hand:"),
    ("text-board-number.pbn", ":"),
    ("card-in-two-hands.lin", ":1 (board 1): not a readable LIN board: S's hand in md|"),
])
def test_deal_boards_checks_each_deal(tmp_path: Path, capsys: Capsys, name: str,
                                      expected: str) -> None:
    """`deal --boards` read the file with endplay alone: a card in two hands was bid and
    written as if the deal were sound, and a hand short of cards named no file or line."""
    out = tmp_path / "out.pbn"
    err = refused(capsys, "deal", "--boards", str(CORPUS / name), "--system", "sbu-level1",
                  "-o", str(out))
    assert f"{CORPUS / name}{expected}" in err
    assert not out.exists()


def test_lin_card_written_twice_is_refused_by_simulate(capsys: Capsys) -> None:
    """endplay keeps one of a card written twice in a LIN hand and fills the hand left
    out from what remains: the simulation played a deal the file did not hold."""
    path = CORPUS / "card-in-two-hands.lin"
    err = refused(capsys, "simulate", "--a", "sbu-level1", "--b", "sbu-level1", "--boards",
                  str(path), "--workers", "1", "--no-plots")
    assert f"{path}:1 (board 1): not a readable LIN board: S's hand in md|" in err
    assert "has the card S4 twice" in err


def test_a_hand_short_of_cards_is_said_to_need_thirteen(capsys: Capsys, tmp_path: Path) -> None:
    """The message spoke of "the simulation" also when `deal` read the board."""
    err = refused(capsys, "deal", "--boards", str(CORPUS / "card-missing.pbn"), "--system",
                  "sbu-level1", "-o", str(tmp_path / "out.pbn"))
    assert "a board needs all 52 cards, 13 in each hand" in err and "simulation" not in err


def test_results_folder_that_is_a_file_is_said_to_be_one(tmp_path: Path,
                                                         capsys: Capsys) -> None:
    """mkdir's "[Errno 17] File exists" did not say that --out names a file; the file is
    left as it was."""
    taken = tmp_path / "notes.txt"
    taken.write_text("mine")
    err = refused(capsys, "simulate", "--a", "sbu-level1", "--b", "sbu-level1", "--deals",
                  "4", "--workers", "1", "--no-plots", "--out", str(taken))
    assert f"cannot keep results in '{taken}': it is a file, not a folder" in err
    assert "Errno" not in err and taken.read_text() == "mine"


def test_deal_boards_keeps_both_rooms_of_a_lin_file(tmp_path: Path, capsys: Capsys) -> None:
    out = tmp_path / "out.pbn"
    assert main(["deal", "--boards", str(CORPUS / "good.lin"), "--system", "sbu-level1",
                 "-o", str(out)]) == 0
    assert "wrote 2 boards" in capsys.readouterr().err


# --- deal -o FILE.lin without --system --------------------------------------------------
def test_dealt_boards_to_a_lin_path_are_lin(tmp_path: Path, capsys: Capsys) -> None:
    """`deal --count N -o x.lin` wrote PBN text into the .lin file, which `simulate
    --boards x.lin` then refused ("not a LIN 'key|value|' pair: '% PBN 2.1'")."""
    from bidbox.sim.deals import read_board_file

    lin, pbn = tmp_path / "dealt.lin", tmp_path / "dealt.pbn"
    for path in (lin, pbn):
        assert main(["deal", "--count", "3", "--seed", "5", "-o", str(path)]) == 0
    capsys.readouterr()
    assert lin.read_text(encoding="utf-8").startswith("pn|")
    from_lin, from_pbn = read_board_file(lin), read_board_file(pbn)
    assert [from_lin.pbn(row) for row in range(3)] == [from_pbn.pbn(row) for row in range(3)]
    assert list(from_lin.numbers) == list(from_pbn.numbers) == [1, 2, 3]
    assert list(from_lin.dealers) == list(from_pbn.dealers)
    assert list(from_lin.vuls) == list(from_pbn.vuls)


# --- empty values (a script's unset variable) ---------------------------------------------
@pytest.mark.parametrize("argv", [
    # each of these was ignored: a random deal played, no file written, the default used
    ["simulate", "--a", "sbu-level1", "--b", "sbu-level1", "--deals", "2", "--boards", ""],
    ["simulate", "--a", "sbu-level1", "--b", "sbu-level1", "--deals", "2", "--pbn", ""],
    ["simulate", "--a", "sbu-level1", "--b", "sbu-level1", "--deals", "2", "--scheduler", ""],
    ["diff", "--system", "sbu-level1", "--deals", "0", "--html", ""],
    ["diff", "--system", "sbu-level1", "--deals", "0", "--out", ""],
    ["diff", "--system", "sbu-level1", "--deals", "0", "--against", ""],
    ["explain", "--system", "sbu-level1", "--ew", "", "--auction", "1C"],
    ["bid", "--system", "sbu-level1", "--them", "", "--hand", HAND],
    ["bid", "--system", "sbu-level1", "--vul", "", "--hand", HAND],
    ["auction", "1C P", "--vul", ""],
    # and these said "cannot write '.'" or "'' is a folder"
    ["deal", "--count", "2", "-o", ""],
    ["deal", "--boards", "", "--system", "sbu-level1", "-o", "x.pbn"],
    ["publish", "--system", "sbu-level1", "--format", "bml", "-o", ""],
    ["import", "", "-o", "x.bbx"],
    ["simulate", "--a", "", "--b", "sbu-level1", "--deals", "2"],
    ["lint", "--system", ""],
])
def test_empty_values_are_refused(tmp_path: Path, capsys: Capsys,
                                  monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    err = refused(capsys, *argv)
    assert "must not be empty" in err
    assert not list(tmp_path.iterdir())  # nothing written


def test_empty_system_name_through_the_api() -> None:
    from bidbox.api import load_system
    from bidbox.errors import UnknownSystemError

    with pytest.raises(UnknownSystemError, match="no system named"):
        load_system("")


# --- import: the draft's strings ------------------------------------------------------------
@pytest.mark.parametrize(("notes", "description"), [
    ("1C 12+, longest suit\\\n", '"12+, longest suit\\ "'),  # a final backslash
    ("1C 12+\x07 clubs\x00\n", '"12+ clubs"'),  # control characters
])
def test_imported_text_makes_a_draft_that_compiles(tmp_path: Path, capsys: Capsys,
                                                    notes: str, description: str) -> None:
    """A description ending in a backslash escaped its closing quote, and a control
    character was copied into the draft, which then did not compile."""
    from bidbox.lang.compiler import compile_text

    source = tmp_path / ("notes.txt" if notes.startswith("BBOalert") else "notes.bml")
    source.write_text(notes, encoding="utf-8")
    out = tmp_path / "draft.bbx"
    assert main(["import", str(source), "-o", str(out)]) == 0, capsys.readouterr().out
    text = out.read_text(encoding="utf-8")
    assert description in text
    compile_text(text, str(out))


def test_a_call_not_inferred_is_listed_with_its_control_characters_escaped(
        tmp_path: Path, capsys: Capsys) -> None:
    """The "not inferred" list printed the notes' bytes raw: an escape sequence in a
    description recoloured the terminal."""
    source = tmp_path / "notes.bml"
    source.write_text("1C 12+ clubs\n1D we\x01ird\x1b[31m\n", encoding="utf-8")
    assert main(["import", str(source), "-o", str(tmp_path / "draft.bbx")]) == 0
    out = capsys.readouterr().out
    assert "not inferred:" in out and "1D: we\\x01ird\\x1b[31m" in out
    assert "\x1b" not in out and "\x01" not in out


def test_bboalert_record_continued_at_the_end_of_the_file_is_read(tmp_path: Path,
                                                                  capsys: Capsys) -> None:
    """A last line ending in BBOalert's continuation mark was dropped with the record it
    held: "no calls found"."""
    source = tmp_path / "notes.txt"
    source.write_text("BBOalert\n,1C,12+ clubs\\\n", encoding="utf-8")
    out = tmp_path / "draft.bbx"
    assert main(["import", str(source), "-o", str(out)]) == 0, capsys.readouterr().err
    assert '"12+ clubs"' in out.read_text(encoding="utf-8")


def test_a_draft_that_does_not_compile_names_the_place(
        tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    """The message was the summary line alone, "1 problem in system file:"."""
    import bidbox.formats.draft as draft

    def broken(made: draft.Draft) -> tuple[str, list[str]]:
        return "system x\n1C  hcp 12+ [nosuch]\n", []

    monkeypatch.setattr(draft, "write_draft", broken)
    source = tmp_path / "notes.bml"
    source.write_text("1C 12+ clubs\n", encoding="utf-8")
    out = tmp_path / "draft.bbx"
    assert main(["import", str(source), "-o", str(out)]) == 1
    said = capsys.readouterr().out.splitlines()[-1]
    assert said.startswith("the draft does not compile yet: 1 problem in system file: "
                           f"{out}:2:"), said


# --- deal --where with a module's parameter ---------------------------------------------------
@pytest.mark.parametrize(("where", "column", "parameter"), [
    ("5+{Z}", 3, "{Z}"),
    ("hcp {al+al+6}-17", 5, "{al+al+6}"),
    ("hcp 15-17, 5+{A", 14, "{A"),
])
def test_where_with_a_module_parameter_names_the_column(tmp_path: Path, capsys: Capsys,
                                                        where: str, column: int,
                                                        parameter: str) -> None:
    """'5+{Z}' (copied from a module) was read as a suit named '{Z}' and failed while
    dealing: "unknown strain '{Z}'", naming neither --where nor the column."""
    err = refused(capsys, "deal", "--count", "2", "--seed", "1", "--where", where, "-o",
                  str(tmp_path / "x.pbn"))
    assert f'--where "{where}" at column {column}: \'{parameter}\' is a module\'s parameter' in err


@pytest.mark.parametrize(("name", "notes", "first", "again"), [
    ("notes.bml", "1C 12+ clubs\n1C 15-17 balanced\n", 1, 2),
    ("notes.txt", "BBOalert\n,1C,12+ clubs\n,1C,15-17 balanced\n", 2, 3),
])
def test_a_call_given_twice_lists_the_text_left_out(tmp_path: Path, capsys: Capsys,
                                                    name: str, notes: str, first: int,
                                                    again: int) -> None:
    """Notes giving one call two texts kept the last, and the first was gone from the
    draft without a word."""
    source = tmp_path / name
    source.write_text(notes, encoding="utf-8")
    assert main(["import", str(source), "-o", str(tmp_path / "draft.bbx")]) == 0
    assert (f"left out: {source}:{first}: 1C: '12+ clubs' left out: line {again} gives the "
            "call again") in capsys.readouterr().out
