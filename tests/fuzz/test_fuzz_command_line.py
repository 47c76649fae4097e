"""Fuzzing the command line itself (issue 17): any arguments to ``bidbox eval`` and
``bidbox auction`` (hands starting with a void, stray dashes, unknown options, long or
binary words) end with status 0, or 2 and a short error on stderr; never a traceback."""

from __future__ import annotations

import contextlib
import io
from functools import cache
from unittest import mock

from hypothesis import given
from hypothesis import strategies as st

from bidbox.cli import main as cli
from tests.fuzz.harness import INTERNAL, bounded, fuzz_settings, mutated, text_of

HANDS = [b"AKQ2.J54.T9.8765", b"-.AKQJT98765432.-.-", b"T9876.-.AKQJ.432", b"..AKQJT98765432."]
WORDS = st.sampled_from(["--json", "--dealer", "N", "Q", "--vul", "ns", "sideways", "-", "--",
                         "-Z", "--hand", "-1", "-.", "-.x", "--dealer=E", "--vul=", "",
                         "1C P 1H X", "1C 1C", "P P P P", "1C 9Z", "-x.y.z", "-h"])
ARGUMENT = st.one_of(WORDS, mutated(HANDS, most=3).map(text_of))


BUILD = cli.build_parser


@cache
def parser() -> object:
    """One parser for every input: building it is most of a call's time, and argparse
    keeps no state between parses."""
    return BUILD()


def run(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err), \
            mock.patch.object(cli, "build_parser", parser):
        try:
            code = cli.main(argv)
        except SystemExit as stop:  # argparse refuses (2) or prints --help (0)
            code = int(stop.code or 0)
    return code, err.getvalue()


@given(st.sampled_from(["eval", "auction"]), st.lists(ARGUMENT, min_size=0, max_size=5))
@fuzz_settings(ci_examples=100)
def test_fuzz_command_line(command: str, rest: list[str]) -> None:
    with bounded("command line"):
        code, err = run([command, *rest])
    assert code in (0, 2), (code, err[-500:])
    assert not INTERNAL.search(err), err[-500:]
    if code == 2:
        said = [line for line in err.strip().splitlines()
                if line.startswith("bidbox")]  # usage lines aside
        assert 1 <= len(said) <= 2 and "error:" in said[0], err[-500:]
        assert len(said[0]) < 600, said[0][:600]
