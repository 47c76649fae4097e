"""Every measure's scalar and batch forms agree on random hands; hand-level examples."""

from __future__ import annotations

import pytest

from bidbox.core import Hand, Seat
from bidbox.errors import NotationError
from bidbox.evaluate import all_measures, deal_batch, evaluate_hand, get_measure
from bidbox.evaluate.dealer import masks_of

SAMPLE = deal_batch(1500, seed=20261201)


@pytest.mark.parametrize("name", [m.name for m in all_measures()])
def test_scalar_and_batch_forms_agree_on_random_hands(name: str) -> None:
    measure = get_measure(name)
    for seat in Seat:
        rows = measure.batch(SAMPLE.hands(seat))
        for i in range(len(SAMPLE)):
            hand = SAMPLE.hand(i, seat)
            assert measure.decode(rows[i]) == measure.scalar(hand), (name, hand)


def test_batch_of_hand_objects_equals_dealt_batch() -> None:
    hands = [SAMPLE.hand(i, Seat.E) for i in range(50)]
    assert (masks_of(hands) == SAMPLE.hands(Seat.E)[:50]).all()


@pytest.mark.parametrize(("hand", "expected"), [
    ("AKQ2.J54.T9.8765", {"hcp": 10, "controls": 3, "lengths": [4, 3, 2, 4],
                          "pattern": "4432", "balanced": True, "rule_points": 18,
                          "rule_of_18": True, "rule_of_20": False, "ltc": 8}),
    ("AKQJT98765432...", {"hcp": 10, "pattern": "13-0-0-0", "single_suited": True,
                          "solid": [True, False, False, False], "playing_tricks": 13}),
    ("KQJ2.A5.QJ74.852", {"hcp": 13, "balanced": True, "two_suited": False,
                          "shape": "4-2-4-3"}),
    ("AQ543.KJ1052.3.A2", {"two_suited": True, "semi_balanced": False, "controls": 5,
                           "roman_losers": 5.0, "three_suited": False}),
    ("K432.AJ54.Q763.2", {"three_suited": True, "pattern": "4441", "quick_tricks": 1.5}),
    ("AK2.83.9532.KQ74", {"semi_balanced": True, "balanced": True, "quick_tricks": 3.0,
                          "stoppers": [True, False, False, True]}),
    ("AK.83.QJ109532.74", {"semi_balanced": False, "single_suited": True, "rule_points": 19}),
])
def test_known_hands(hand: str, expected: dict[str, object]) -> None:
    values = evaluate_hand(Hand.parse(hand))
    for name, value in expected.items():
        assert values[name] == value, name


def test_unknown_measure_suggests_the_near_name() -> None:
    with pytest.raises(NotationError, match="did you mean 'controls'"):
        get_measure("contrls")
