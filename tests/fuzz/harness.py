"""What every fuzzer of issue 17 checks, and how hard it tries.

A fuzzer feeds one reader of user input (system files, ``--where`` constraints, hands,
auctions, PBN/LIN files) inputs that are mostly broken, and asserts that each ends in a
*valid result* or a *BidboxError that names the place*, in bounded time and memory, with
no Python exception text in the message.

``make test`` runs the short, derandomized profile (the same inputs every run, a few
seconds per fuzzer). ``tools/fuzz.py`` runs the long profile (fresh random inputs, many
more of them) and reports how many inputs each fuzzer tried.
"""

from __future__ import annotations

import os
import re
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from bidbox.errors import BidboxError

CORPUS = Path(__file__).parents[1] / "data" / "fuzz"
"""The seed corpus: broken inputs found so far, one file each (lines, for the one-line
readers), that every fuzzer mutates and that is also replayed as it is."""

LONG = os.environ.get("BIDBOX_FUZZ") == "long"

SECONDS = 10.0
"""The most CPU time one input may take. Inputs are small (a few kilobytes) and take
milliseconds; CPU time, not wall time, so a loaded machine does not trip it."""

MEGABYTES = 200
"""The most memory (Python allocations, traced) one input may take."""

TRIED: Counter[str] = Counter()
"""Inputs tried per fuzzer in this process (printed at the end of the pytest run)."""

# Python's own words for what went wrong inside: none may reach a user.
INTERNAL = re.compile(r"Traceback|list index out of range|invalid literal for int|"
                      r"object has no attribute|NoneType|unhashable|not subscriptable|"
                      r"KeyError|IndexError|ValueError|TypeError|RecursionError|"
                      r"unexpected keyword|positional argument")


def fuzz_settings(ci_examples: int) -> settings:
    """Hypothesis settings: ``ci_examples`` derandomized inputs in make test, or the long
    profile's count (``BIDBOX_FUZZ_EXAMPLES``, default 3,000) of random ones."""
    common = {"deadline": None, "database": None, "print_blob": True,
              "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large,
                                        HealthCheck.filter_too_much,
                                        HealthCheck.function_scoped_fixture]}
    if LONG:
        return settings(max_examples=int(os.environ.get("BIDBOX_FUZZ_EXAMPLES", "3000")),
                        derandomize=False, **common)  # type: ignore[arg-type]
    return settings(max_examples=ci_examples, derandomize=True, **common)  # type: ignore[arg-type]


@contextmanager
def bounded(name: str) -> Iterator[None]:
    """Count one input of fuzzer ``name`` and check it kept to the time and memory bound."""
    TRIED[name] += 1
    tracemalloc.start()
    started = time.process_time()
    try:
        yield
    finally:
        seconds = time.process_time() - started
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert seconds < SECONDS, f"{name}: one input took {seconds:.1f} s"
    assert peak < MEGABYTES * 2**20, f"{name}: one input took {peak / 2**20:.0f} MB"


T = TypeVar("T")


def result_or_located_error(call: Callable[[], T], must_name: str | None = None
                            ) -> T | BidboxError:
    """``call()``'s result, or the BidboxError it raised after checking that the message
    says something, names ``must_name`` (a file) when given, is not Python's own text and
    is of bounded length. Any other exception fails the test (it is a bug)."""
    try:
        return call()
    except BidboxError as err:
        message = str(err)
        assert message.strip(), f"empty message from {type(err).__name__}"
        assert not INTERNAL.search(message), message[:500]
        if must_name is not None:
            assert must_name in message, message[:500]
        first = message.splitlines()[0]
        assert len(first) <= 600, f"first line of the message is {len(first)} characters"
        return err


def corpus_files(*suffixes: str) -> list[Path]:
    return sorted(p for p in CORPUS.iterdir() if p.suffix in suffixes)


def corpus_lines(name: str) -> list[str]:
    """The non-comment lines of a one-line-per-case corpus file."""
    text = (CORPUS / name).read_text(encoding="utf-8")
    return [line for line in text.split("\n") if line and not line.startswith("#")]


# --- mutation ----------------------------------------------------------------------------

PIECES = [b"(", b")", b"not ", b"hcp ", b"99999999999999", b"+", b"-", b"{", b"}", b"[", b"]",
          b"\xef\xbb\xbf", b"\r", b"\r\n", b"\n", b"\t", b'"', b"#", b"use ", b"module ",
          b"def ", b"include ", b"=", b",", b"|", b"13+S", b"M", b"oM", b"  ", b"1C", b"2NT",
          b"(1H)", b"[seat 3-4]", b"\x00", b"\xff", b"\xe9", b"{if x: 1 else 2}", b"option ",
          b"end use ", b"base ", b".", b"[Deal \"", b"[Board \"", b"\"]", b"N:", b"AKQJT",
          b"|md|", b"|mb|", b"|pg||", b"md|", b"pn|", b"X", b"XX", b"P", b"AP", b"-1",
          b"4294967296", b"\\", b"\xc3", b"\xe2\x99\xa0"]
"""Pieces worth inserting: the languages' own punctuation and keywords, numbers at the
edges, encodings' tell-tale bytes, line ends."""


@st.composite
def mutated(draw: st.DrawFn, bases: list[bytes], most: int = 6) -> bytes:
    """One of ``bases`` with 1 to ``most`` mutations: pieces inserted (some repeated
    hundreds of times, for nesting), random bytes, cuts, repeated or swapped lines."""
    data = bytearray(draw(st.sampled_from(bases)))
    for _ in range(draw(st.integers(1, most))):
        kind = draw(st.integers(0, 6))
        pos = draw(st.integers(0, len(data)))
        if kind == 0:
            data[pos:pos] = draw(st.sampled_from(PIECES))
        elif kind == 1:
            data[pos:pos] = draw(st.binary(min_size=1, max_size=8))
        elif kind == 2:
            del data[pos:pos + draw(st.integers(1, 40))]
        elif kind == 3:  # a line repeated
            start = data.rfind(b"\n", 0, pos) + 1
            end = data.find(b"\n", pos)
            line = bytes(data[start:(end if end >= 0 else len(data))]) + b"\n"
            data[start:start] = line * draw(st.integers(1, 60))
        elif kind == 4 and data:
            data[min(pos, len(data) - 1)] = draw(st.integers(0, 255))
        elif kind == 5:  # deep nesting or a long run
            piece = draw(st.sampled_from([b"(", b"not ", b"  ", b"x", b"9", b"{", b"1C "]))
            data[pos:pos] = piece * draw(st.integers(50, 600))
        else:  # two lines swapped
            lines = bytes(data).split(b"\n")
            if len(lines) > 1:
                i = draw(st.integers(0, len(lines) - 1))
                j = draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
                data = bytearray(b"\n".join(lines))
    return bytes(data)


def text_of(data: bytes) -> str:
    """Mutated bytes as text, for the readers that take a str (bad bytes replaced)."""
    return data.decode("utf-8", errors="replace")
