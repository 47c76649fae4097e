"""Canary Club: the relays after the 2H/2S openings reveal opener's exact pattern, and
the step answers to the asking bids skip the shortness steps where the notes delete them.

North opens 2H or 2S (dealt hands that the system opens so), South relays with the
cheapest bid twice where the notes give a second relay (n.1155-1540), North's answers
are chosen by the bidder, and ``explain`` must then state North's shape exactly: every
2M pattern the notes list ends in an answer that names it.
"""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from bidbox.core import Auction, Call, Hand, Seat, Side, Vulnerability
from bidbox.engine import as_systems, choose_call, explain
from bidbox.evaluate import deal_batch
from bidbox.lang import System, load_system
from tests.systems.cases import Case, read_cases

# Cases against another system's opponents: the file's name is the system the dealer's
# side plays, so their calls carry that system's meanings (CRASH only over a strong 1C).
AGAINST = [case for path in sorted((Path(__file__).parent / "data" / "canary-against")
                                   .glob("*.cases")) for case in read_cases(path)]

# After 2H: 2S relays; 2NT and 3C are shortness answers that get a second relay.
# After 2S: 2NT relays; 3C and 3D get a second relay.
SECOND_RELAY = {"2H": {"2NT": "3C", "3C": "3D"}, "2S": {"3C": "3D", "3D": "3H"}}
FIRST_RELAY = {"2H": "2S", "2S": "2NT"}
# Answers that show a pattern without a second relay, and the one the notes leave
# undefined (2H-2S-3S, n.1338): those are counted, not decoded.
PARTIAL = {("2H", "3D"), ("2H", "3NT"), ("2H", "4C"), ("2S", "3H"), ("2S", "3NT"), ("2S", "4C")}


@cache
def canary() -> System:
    return load_system("canary")


@cache
def relay_bench() -> ModuleType:
    """benchmarks/bench_canary_relays.py, whose measurement runs here on a few hands."""
    path = Path(__file__).parents[2] / "benchmarks" / "bench_canary_relays.py"
    spec = importlib.util.spec_from_file_location("bench_canary_relays", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_canary_relays"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _shape(hand: Hand) -> str:
    text = str(hand)
    return "-".join(str(len(s)) for s in text.split("."))


def _decode(opening: str, hand: Hand) -> tuple[str, str | None]:
    systems = as_systems(canary())
    auction = Auction.parse(f"{opening} P {FIRST_RELAY[opening]} P", Seat.N, Vulnerability.NONE)
    answer = choose_call(hand, auction, systems).call
    text = f"{opening} P {FIRST_RELAY[opening]} P {answer}"
    relay2 = SECOND_RELAY[opening].get(str(answer))
    if relay2 is not None:
        auction = Auction.parse(f"{text} P {relay2} P", Seat.N, Vulnerability.NONE)
        text = f"{text} P {relay2} P {choose_call(hand, auction, systems).call}"
    elif (opening, str(answer)) in PARTIAL:
        return text, None
    known = explain(Auction.parse(text, Seat.N, Vulnerability.NONE), systems).to_json()
    knowledge = known["knowledge"]
    assert isinstance(knowledge, dict)
    shape = knowledge["N"].get("shape")
    return text, shape if isinstance(shape, str) else None


def _two_major_openers(count: int) -> list[tuple[str, Hand]]:
    deals = deal_batch(40_000, seed=12)
    out: list[tuple[str, Hand]] = []
    systems = as_systems(canary())
    empty = Auction.parse("", Seat.N, Vulnerability.NONE)
    for i in range(len(deals)):
        hand = deals.hand(i, Seat.N)
        lengths = [len(s) for s in str(hand).split(".")]
        if not (lengths[3] >= 4 and (lengths[0] >= 5 or lengths[1] >= 5)):
            continue  # cheap pre-filter: 2H/2S need five of a major and four clubs
        call = str(choose_call(hand, empty, systems).call)
        if call in ("2H", "2S"):
            out.append((call, hand))
            if len(out) == count:
                break
    return out


def test_two_major_relays_reveal_the_exact_pattern() -> None:
    openers = _two_major_openers(60)
    assert len(openers) == 60
    decoded = 0
    for opening, hand in openers:
        auction, shape = _decode(opening, hand)
        if shape is None:
            continue
        assert shape == _shape(hand), (
            f"{auction}: explain says {shape}, hand {hand} is {_shape(hand)}")
        decoded += 1
    assert decoded >= len(openers) // 2


@pytest.mark.parametrize(("holding", "full", "long"), [
    ("K8532", "6C", "5NT"),     # the king: step 3 of six, step 2 once shortness is deleted
    ("A8532", "6D", "6C"),      # the ace without the king: step 4, or step 3
    ("J8532", "5S", "5S"),      # no ace or king: step 1 either way
])
def test_shortness_steps_are_deleted_in_a_suit_shown_long(holding: str, full: str,
                                                         long: str) -> None:
    # 1S-2NT-3H shows four spades and five or more hearts, so hearts cannot be short:
    # the jump cue 5H is answered from the four-step table (n.569).
    hand = Hand.parse(f"KQ52.{holding}.A4.K4" if "K" not in holding else f"KQ52.{holding}.A4.Q4")
    auction = Auction.parse("1S P 2NT P 3H P 5H P", Seat.N, Vulnerability.NONE)
    got = str(choose_call(hand, auction, as_systems(canary())).call)
    assert got == long, f"{holding}: {got}; the six-step table would give {full}"


def test_step_answers_in_a_suit_that_may_be_short_keep_all_six_steps() -> None:
    # 1S-2NT-3S: clubs are unknown, so 5C is answered from the six-step table.
    systems = as_systems(canary())
    auction = Auction.parse("1S P 2NT P 3S P 5C P", Seat.N, Vulnerability.NONE)
    answers = {"84": "5D", "4": "5H", "K4": "5S", "A4": "5NT", "": "6C", "AK4": "6D"}
    for clubs, want in answers.items():
        spades_etc = {"84": "AQJ852.K84.Q4", "4": "AQJ852.K84.Q84", "K4": "AQJ852.Q84.84",
                      "A4": "AQJ852.Q84.84", "": "AQJ852.K84.Q842",
                      "AK4": "AJ9852.Q84.4"}[clubs]
        hand = Hand.parse(f"{spades_etc}.{clubs}")
        got = str(choose_call(hand, auction, systems).call)
        assert got == want, f"clubs {clubs or 'void'}: {got}, expected {want}"


def test_first_and_second_chair_need_quick_tricks_and_losers() -> None:
    # 12 HCP, one quick trick: no opening in first or second chair, 1S in third or fourth.
    hand = Hand.parse("QJ52.4.KQJ32.QJ3")
    systems = as_systems(canary())
    for before, want in (("", "P"), ("P", "P"), ("P P", "1S"), ("P P P", "1S")):
        auction = Auction.parse(before, Seat.N, Vulnerability.NONE)
        assert str(choose_call(hand, auction, systems).call) == want, before
    assert Call.parse("1S")  # the call text round-trips


@pytest.mark.parametrize("case", AGAINST, ids=[c.id for c in AGAINST])
def test_the_defence_follows_their_notes(case: Case) -> None:
    assert case.hand is not None, f"{case.id}: the against-files hold bidding cases only"
    theirs = load_system(Path(case.file).stem)
    dealer_side = case.dealer.side
    other = Side.EW if dealer_side is Side.NS else Side.NS
    auction = Auction.parse(case.auction, case.dealer, case.vul)
    result = choose_call(Hand.parse(case.hand), auction, {dealer_side: theirs, other: canary()})
    assert result.call == Call.parse(case.expect), (
        f"{case.id}: bid {result.call} ({result.meaning}; {result.reason}), "
        f"expected {case.expect}")


def test_relays_after_the_one_bids_and_two_majors_never_misstate_opener() -> None:
    # The benchmark's measurement on 20 hands (5,000 in benchmarks/bench_canary_relays.py):
    # South relays to the end, explain's statement of North must hold for every hand, and
    # the relays must pin the whole shape for some hands of both families.
    tallies = relay_bench().measure(20, seed=5)
    assert sum(t.dealt for t in tallies.values()) == 20
    assert {"1D", "1H", "1S"} & set(tallies) and {"2H", "2S"} & set(tallies)
    wrong = [line for t in tallies.values() for line in t.wrong]
    assert not wrong, wrong[:3]
    one = sum(tallies[o].exact for o in ("1D", "1H", "1S") if o in tallies)
    two = sum(tallies[o].exact for o in ("2H", "2S") if o in tallies)
    assert one >= 1 and two >= 1, (one, two)
