"""Magic D-light: its modules are shared by many preludes, so one edit to a module must
change the meaning at every prelude that uses it (and nowhere else); its two seat columns
and the Red option; its SBU verdict for the weak one-level majors."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from bidbox.core import Auction, Call, Hand, Seat, Side, Vulnerability
from bidbox.engine import as_systems, choose_call
from bidbox.lang import System, load_system
from bidbox.lang.loader import shipped_dir
from bidbox.rules import SBU
from tests.systems.cases import Case, read_cases

SOURCE = shipped_dir() / "magic-dlight.bbx"

# TS2M a) (5.1.2): after a raise of 1M, the 1M bidder invites with 3M holding five or more
# trumps.  Every prelude the notes list for it, with a hand that invites there.
TS2M_A_PRELUDES = [
    ("1H P 2H P", "K32.AQ432.Q2.432", "3H"),             # 1M-2M
    ("1S P 2S P", "AQ432.K32.Q2.432", "3S"),
    ("1H P 2D P", "K32.AQ432.Q2.432", "3H"),             # 1M-TRA2M
    ("1S P 2H P", "AQ432.K32.Q2.432", "3S"),
    ("1C P 1H P 2H P", "K32.AQ432.Q2.432", "3H"),        # 1C-1M, raised
    ("1C P 1D P 1H P 2H P", "K32.AQ432.K32.Q2", "3H"),   # 1C-1D; 1M, raised
    ("P P 1H P 2H P", "K32.AQ432.K32.Q2", "3H"),         # third seat (our reading)
]
TS2M_A_LINE = "3{M}  {inv}, 5+{M}                          [inv, priority 20]"
EDITED_LINE = "3{M}  {inv}, 6+{M}                          [inv, priority 20]"


# 18.5.1 doubled (l.1275): '(X) [system on]' keeps the relay scheme on after their double,
# from the same lines, so an edit to the undisturbed step answers changes the doubled ones.
STEP_LINE = '+({shift}+1)  {long}, 0-1{lo}                    [answer, artificial]'
STEP_EDIT = '+({shift}+1)  {long}, 0-1{hi}, 0-1{lo}           [answer, artificial]'
RELAY_PRELUDES = [
    "1D P 1S P 1NT P 2C P 2D P",        # undisturbed
    "1D P 1S P 1NT P 2C P 2D X",        # their double of the relay
    "1D P 1S P 1NT P 2C X 2D P",        # their double of the answer before it
]


@cache
def shipped() -> System:
    return load_system("magic-dlight")


def _bid(system: System, auction: str, hand: str) -> Call:
    parsed = Auction.parse(auction, Seat.N, Vulnerability.NONE)
    return choose_call(Hand.parse(hand), parsed, as_systems(system)).call


@pytest.fixture(scope="module")
def edited(tmp_path_factory: pytest.TempPathFactory) -> System:
    # Two edits far apart in one compile (each compile of the file costs seconds): TS2M
    # a)'s invitation and the relay scheme's first step (the tests below).
    text = SOURCE.read_text(encoding="utf-8")
    assert text.count(TS2M_A_LINE) == 1, "the TS2M a) invitation line moved: update the test"
    assert text.count(STEP_LINE) == 1, "the relay step line moved: update the test"
    path = tmp_path_factory.mktemp("mdl") / "magic-dlight-edited.bbx"
    path.write_text(text.replace(TS2M_A_LINE, EDITED_LINE).replace(STEP_LINE, STEP_EDIT),
                    encoding="utf-8")
    return load_system(str(path))


@pytest.mark.parametrize(("auction", "hand", "call"), TS2M_A_PRELUDES)
def test_one_module_edit_changes_every_prelude(edited: System, auction: str, hand: str,
                                               call: str) -> None:
    assert _bid(shipped(), auction, hand) == Call.parse(call)
    assert _bid(edited, auction, hand) != Call.parse(call)


@pytest.mark.parametrize(("auction", "hand", "call"), [
    ("1NT P", "KQ32.K32.Q32.J32", "2C"),
    ("1D P 1H P", "AK2.KQ2.KJ32.Q32", "1NT"),
    ("1H P 2NT P", "K32.QJ432.32.Q32", "3C"),
])
def test_the_edit_leaves_other_modules_alone(edited: System, auction: str, hand: str,
                                             call: str) -> None:
    assert _bid(shipped(), auction, hand) == _bid(edited, auction, hand) == Call.parse(call)


def test_seat_columns_differ() -> None:
    # 5332 with five hearts and 10 HCP: 1H in first seat, a pass in third (11-16 there)
    assert _bid(shipped(), "", "K32.KJ432.32.Q32") == Call.parse("1H")
    assert _bid(shipped(), "P P", "K32.KJ432.32.Q32") == Call.parse("P")
    # 15-17 balanced: 1C in first seat, 1NT in third
    assert _bid(shipped(), "", "AQ2.KQ2.KJ32.Q32") == Call.parse("1C")
    assert _bid(shipped(), "P P", "AQ2.KQ2.KJ32.Q32") == Call.parse("1NT")


def test_red_option_changes_the_two_level_two_suiters() -> None:
    red = load_system("magic-dlight", {"red": True})
    hearts_diamonds = "2.KQ432.AQ432.32"
    assert _bid(shipped(), "", hearts_diamonds) == Call.parse("2S")   # Brown: H+D is 2S
    assert _bid(red, "", hearts_diamonds) == Call.parse("2H")         # Red: hearts + a minor


def test_sbu_finds_rule_of_18_breaches_of_the_weak_majors() -> None:
    report = SBU().check(shipped())
    breaches = [f for f in report.findings if "Rule of 18" in (f.rule or "")]
    assert {"1H", "1S"} <= {f.call for f in breaches}
    for finding in breaches:
        assert finding.level is None and finding.witness is not None
        # counted here by hand, independently of bidbox's measures
        suits = finding.witness.split(".")
        hcp = sum("JQKA".index(card) + 1 for suit in suits for card in suit if card in "JQKA")
        two_longest = sum(sorted(map(len, suits), reverse=True)[:2])
        assert len("".join(suits)) == 13 and hcp + two_longest <= 17


def test_errata_beside_the_file() -> None:
    errata = Path(SOURCE).with_name("magic-dlight.errata.md").read_text(encoding="utf-8")
    for topic in ("Red", "1D", "key card", "TS2N", "missing"):
        assert topic in errata


# Defence cases: the dealer's side plays the system the file is named after, with the
# file's OPTIONS; Magic D-light's lines for their calls ask what those calls mean there.
AGAINST = [case for path in sorted((Path(__file__).parent / "data" / "magic-dlight-against")
                                   .glob("*.cases")) for case in read_cases(path)]


@cache
def _theirs(name: str, options: tuple[tuple[str, str | bool], ...]) -> System:
    return load_system(name, dict(options))


@pytest.mark.parametrize("case", AGAINST, ids=[c.id for c in AGAINST])
def test_defence_against_another_system(case: Case) -> None:
    assert case.hand is not None, f"{case.id}: the against-files hold bidding cases only"
    theirs = _theirs(Path(case.file).stem, case.options)
    dealer_side = case.dealer.side
    other = Side.EW if dealer_side is Side.NS else Side.NS
    auction = Auction.parse(case.auction, case.dealer, case.vul)
    result = choose_call(Hand.parse(case.hand), auction, {dealer_side: theirs, other: shipped()})
    assert result.call == Call.parse(case.expect), (
        f"{case.id}: bid {result.call} ({result.meaning}; {result.reason}), "
        f"expected {case.expect}")


def test_defence_asks_for_their_meaning() -> None:
    # Their 2H is natural and weak (sbu-level1 weak-twos): our double is followed by
    # Lebensohl; Magic D-light's own 2H is an artificial two-suiter, so the same
    # advancing hand has no Lebensohl 2NT there.
    hand = Hand.parse("32.432.432.QJ432")
    auction = Auction.parse("2H X P", Seat.N, Vulnerability.NONE)
    natural = _theirs("sbu-level1", (("weak-twos", True),))
    against = {Side.NS: natural, Side.EW: shipped()}
    assert choose_call(hand, auction, against).call == Call.parse("2NT")
    assert choose_call(hand, auction, as_systems(shipped())).call != Call.parse("2NT")


@pytest.mark.parametrize("auction", RELAY_PRELUDES)
def test_the_doubled_relay_scheme_follows_the_undisturbed_one(edited: System,
                                                              auction: str) -> None:
    five_four_short_hearts = "K32.2.QJ432.K432"   # diamonds not good enough to redouble
    assert _bid(shipped(), auction, five_four_short_hearts) == Call.parse("3C")
    assert _bid(edited, auction, five_four_short_hearts) != Call.parse("3C")
