"""What a player reads: known answers for explain's statements, call texts, denials and
bid's reasons (tests/engine/data/explain_text.cases; issue 11)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

import bidbox
from bidbox.core import Seat, Side
from bidbox.engine.statement import SeatView, apply_table, relax, symbolic_bounds, view_of
from bidbox.engine.wording import clean_description, forcing_said
from bidbox.lang.constraints import (
    ANY,
    NOTHING,
    And,
    MeasureRange,
    Not,
    Or,
    SuitFlag,
    SuitRange,
    TableContext,
)
from bidbox.lang.system import Forcing

DATA = Path(__file__).parent / "data" / "explain_text.cases"
CTX = TableContext(1, False, False, False)


@dataclass(frozen=True)
class TextCase:
    line: int
    system: str
    auction: str
    target: str
    check: str
    text: str
    options: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{DATA.name}:{self.line} {self.system} [{self.auction}] {self.target} " \
               f"{self.check} {self.text}"


def read_text_cases() -> list[TextCase]:
    out = []
    for number, raw in enumerate(DATA.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(" | ")]
        if len(fields) < 5 or fields[3] not in ("has", "lacks", "is", "consistent"):
            raise ValueError(f"{DATA}:{number}: expected SYSTEM | AUCTION | TARGET | "
                             "has/lacks/is/consistent | TEXT [| OPTIONS]")
        options = tuple(fields[5].split(",")) if len(fields) > 5 else ()
        out.append(TextCase(number, fields[0], "" if fields[1] == "-" else fields[1],
                            fields[2], fields[3], "" if fields[4] == "-" else fields[4],
                            options))
    return out


CASES = read_text_cases()


@cache
def system(name: str, options: tuple[str, ...]) -> bidbox.System:
    return bidbox.load_system(name, list(options))


@cache
def explained(name: str, options: tuple[str, ...], auction: str) -> bidbox.Explanation:
    return system(name, options).explain(auction)


def read_target(case: TextCase) -> tuple[str, bool]:
    """The text the case speaks of, and whether its seat is consistent."""
    sys_ = system(case.system, case.options)
    target = case.target
    if target.startswith(("bid:", "bid-line:")):
        kind, _, hand = target.partition(":")
        bid = sys_.bid(hand, case.auction)
        if kind == "bid":
            return bid.reason, True
        import contextlib
        import io

        from bidbox.cli.main import main

        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            main(["bid", "--system", case.system, "--hand", hand, "--auction", case.auction,
                  *[a for o in case.options for a in ("--option", o)]])
        return out.getvalue().splitlines()[0], True
    explanation = explained(case.system, case.options, case.auction)
    if target.startswith("#"):
        index, _, part = target[1:].partition(".")
        call = explanation[int(index) - 1]
        return ("; ".join(call.denial_words) if part == "denies" else call.meaning), True
    if "+" in target:
        side = Side.NS if target in ("N+S", "S+N") else Side.EW
        return explanation.partnerships.get(side, ""), True
    known = explanation.knowledge[Seat.parse(target)]
    return known.summary(), known.consistent


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_what_a_player_reads(case: TextCase) -> None:
    got, consistent = read_target(case)
    if case.check == "consistent":
        assert consistent and "inconsistent" not in got, f"{case.id}: {got!r}"
    elif case.check == "has":
        assert case.text in got, f"{case.id}: {got!r}"
    elif case.check == "lacks":
        assert case.text not in got, f"{case.id}: {got!r}"
    else:
        assert got == case.text, f"{case.id}: {got!r}"


def test_the_json_keeps_its_keys_and_adds_the_words() -> None:
    data = explained("sbu-level1", (), "1NT P 2C P 2H").to_json()
    north = data["knowledge"]["N"]  # type: ignore[index]
    assert north["hcp"] == [12, 14] and north["H"] == [4, 5]
    assert north["text"] == "12-14 HCP, balanced, 4-5 hearts"
    south = data["knowledge"]["S"]  # type: ignore[index]
    assert south["hand_types"] and all("HCP" in t for t in south["hand_types"])
    call = data["calls"][2]  # type: ignore[index]
    assert call["denies"] and call["denies_text"][0].startswith("denies ")
    assert call["description"] == "Stayman: asks for a four-card major"
    assert data["partnerships"] == {"NS": "23+ HCP"}


def test_bid_json_adds_reason_features() -> None:
    data = system("sbu-level1", ()).bid("K32.Q54.AQ4.QJ32").to_json()
    assert {"call", "meaning", "reason", "source"} <= data.keys()
    assert data["reason_features"] == {"hcp": 14, "shape": "3-3-3-4", "balanced": True}


def test_a_placement_says_what_partner_shows() -> None:
    """The captain decides on what partner's calls showed: the reason says it first, in
    explain's words, and the JSON adds it as ``partner_shows``; a call the notes make does
    not carry it."""
    sbu = system("sbu-level1", ())
    auction = "1D P 1H P 1S P 3S P"
    placed = sbu.bid("AJ985.7.AK6543.Q", auction, dealer="S", vul="ew")
    data = placed.to_json()
    assert data["source"] == "placement"
    known = sbu.explain(auction, dealer="S", vul="ew").to_json()["knowledge"]
    north = known["N"]  # type: ignore[index]
    assert data["partner_shows"] == north["text"]
    assert "HCP" in str(data["partner_shows"])
    assert f": placement: partner shows {north['text']}; we hold 14 HCP" in str(data["reason"])
    # A caller bidding many calls (the web table's robots) may leave the explanation out.
    quiet = sbu.bid("AJ985.7.AK6543.Q", auction, dealer="S", vul="ew",
                    describe_partner=False).to_json()
    assert quiet["call"] == data["call"] and "partner_shows" not in quiet
    assert "partner shows" not in str(quiet["reason"])
    noted = sbu.bid("K32.Q54.AQ4.QJ32").to_json()
    assert noted["source"] == "system" and "partner_shows" not in noted


# --- the pieces ---------------------------------------------------------------------
def test_relaxing_admits_every_hand_the_meaning_does() -> None:
    card = SuitFlag("stoppers", "H")
    assert relax(And((MeasureRange("hcp", 15, None), card))) == MeasureRange("hcp", 15, None)
    assert relax(Not(card)) == ANY  # not a stopper: any hand may lack one
    # Not (12-14 with a stopper): a 12-14 hand without one still fits.
    assert relax(Not(And((MeasureRange("hcp", 12, 14), card)))) == ANY
    assert relax(Not(Or((card, MeasureRange("hcp", 20, None))))) == Not(
        MeasureRange("hcp", 20, None))
    assert relax(Or((card, MeasureRange("hcp", 20, None)))) == ANY
    assert relax(And((card, Not(SuitFlag("solid", "S"))))) == ANY
    assert relax(Not(MeasureRange("hcp", 0, 40))) != ANY  # exact terms stay
    assert NOTHING != ANY


def test_symbolic_bounds_intersect_and_hull() -> None:
    tricks = MeasureRange("playing_tricks", 8, None)
    both = And((tricks, MeasureRange("playing_tricks", None, 10)))
    assert symbolic_bounds(both, "playing_tricks", None) == (8, 10)
    either = Or((tricks, MeasureRange("playing_tricks", 6, 7)))
    assert symbolic_bounds(either, "playing_tricks", None) == (6, None)
    assert symbolic_bounds(Not(tricks), "playing_tricks", None) == (None, None)
    spades = SuitRange("lengths", "S", 5, None)
    assert symbolic_bounds(spades, "lengths", "S") == (5, None)


def test_the_table_bounds_the_silent_seat() -> None:
    opener = view_of([(MeasureRange("hcp", 15, 17), CTX)])
    responder = view_of([(MeasureRange("hcp", 10, 12), CTX)])
    views: dict[Seat, SeatView | None] = {Seat.N: opener, Seat.S: responder,
                                          Seat.E: view_of([]), Seat.W: view_of([])}
    apply_table(views)
    east = views[Seat.E]
    assert east is not None and east.hcp == (0, 15)
    assert opener is not None and opener.hcp == (15, 17)


def test_errata_and_forcing_words() -> None:
    assert clean_description("23-24 balanced (our reading: stronger ones too)") == (
        "23-24 balanced")
    assert clean_description("our reading: game opposite the maximum") == (
        "game opposite the maximum")
    assert clean_description("maximum with clubs (Lissabon order, our reading)") == (
        "maximum with clubs (Lissabon order)")
    assert forcing_said("11-12 balanced, invitational", Forcing.INVITATIONAL)
    assert not forcing_said("non-forcing raise", Forcing.FORCING)
    assert forcing_said("new suit, forcing", Forcing.FORCING)
    assert not forcing_said("game forcing", Forcing.FORCING)


def test_explain_columns_break_between_words() -> None:
    from bidbox.cli.main import _wrap

    text = "23-24 balanced: the only rebid that is not forcing to game, by agreement"
    lines = _wrap(text, 20)
    assert " ".join(lines) == text and all(len(line) <= 20 for line in lines)


def test_targeted_hands_have_the_drawn_shapes_and_thirteen_cards() -> None:
    import numpy as np

    from bidbox.engine.features import shaped_hands

    shapes = np.array([[1, 8, 2, 2], [0, 7, 3, 3]])
    hands = shaped_hands(shapes, np.array([3.0, 1.0]), 4000, seed=7)
    lengths = hands.value("lengths")
    assert (lengths.sum(axis=1) == 13).all()
    first = (lengths == shapes[0]).all(axis=1)
    assert ((lengths == shapes[1]).all(axis=1) | first).all()
    assert 0.7 < first.mean() < 0.8  # drawn in proportion to the weights (3:1)
    # the cards within a suit are uniform: the ace of hearts in 8 of 13 eight-card holdings
    ace = (hands.masks[first, 1] >> 12) & 1
    assert abs(ace.mean() - 8 / 13) < 0.04
