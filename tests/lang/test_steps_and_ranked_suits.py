"""Relay steps (R skips 3NT, ~N counts pass and double, shifted steps) and L1-L4 suits."""

from __future__ import annotations

import numpy as np

from bidbox.core import Hand
from bidbox.engine.features import HandFeatures
from bidbox.engine.predicates import TableContext, compile_predicate
from bidbox.lang import compile_text, parse_constraint

RELAY = """
module answers(shift)
  +(1+{shift})  hcp 8-11
  +(2+{shift})  hcp 12+
2NT hcp 20-21, balanced
  3S hcp 8+, 5+S
    R  any [relay]
1C hcp 16+ [artificial]
  1H hcp 8+
    R any [relay]
      use answers(0)
    +2 any [relay] "game probe"
      use answers(2)
  (1S)
    ~1 hcp 0-7 "pass: negative"
    ~2 hcp 8+ "double: positive"
"""


def calls_after(system: object, *path: str) -> list[str]:
    node = system.root  # type: ignore[attr-defined]
    for token in path:
        if token.startswith("("):
            node = next(o.node for o in node.opp if str(o.call) == token[1:-1])
        else:
            node = next(e.node for e in node.calls if str(e.call) == token)
    return [str(e.call) for e in node.calls]


def test_relay_skips_3nt_and_steps_shift() -> None:
    system = compile_text(RELAY, "relay.bbx")
    assert calls_after(system, "2NT", "3S") == ["4C"]  # 3NT is never a relay
    assert calls_after(system, "1C", "1H") == ["1S", "1NT"]
    assert calls_after(system, "1C", "1H", "1S") == ["1NT", "2C"]
    assert calls_after(system, "1C", "1H", "1NT") == ["2H", "2S"]  # shifted two steps
    assert calls_after(system, "1C", "(1S)") == ["P", "X"]  # pass and double are steps


def features(hand: str) -> HandFeatures:
    return HandFeatures(np.array([Hand.parse(hand).suits], dtype=np.int16))


CTX = TableContext(1, False, False, False)


def test_ranked_suits_follow_each_hand() -> None:
    hand = features("K2.AQJ54.Q5432.2")  # hearts then diamonds (tie broken to hearts)
    assert compile_predicate(parse_constraint("suit_controls(L1) 2+"))(hand, CTX)[0]
    assert compile_predicate(parse_constraint("suit_controls(L2) <=0"))(hand, CTX)[0]
    assert compile_predicate(parse_constraint("=5L1, =5L2, =2L3, =1L4"))(hand, CTX)[0]
    assert not compile_predicate(parse_constraint("suit_controls(L3) 1+"))(
        features("32.AQJ54.Q5432.K"), CTX)[0]
    assert compile_predicate(parse_constraint("suit_controls(L4) 1+"))(
        features("32.AQJ54.Q5432.K"), CTX)[0]


def test_module_arguments_keep_their_spelling_and_variables_skip_illegal_suits() -> None:
    text = """
option transfers-2nt "digits after a hyphen are fine"
module raise(bid)
  {bid} hcp 20-21, balanced
1C hcp 12+, 4+C
  1Y hcp 6+, 4+Y      # Y is a suit other than Z: only the legal ones (1D, 1H, 1S) expand
  use raise(2NT)
"""
    system = compile_text(text, "args.bbx")
    assert calls_after(system, "1C") == ["1D", "1H", "1S", "2NT"]
    assert "transfers-2nt" in system.options
