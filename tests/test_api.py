"""The Python API: what a library user calls, its JSON equal to the CLI's, its errors."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

import bidbox
from bidbox.cli.main import main
from bidbox.engine import bid_deal, choose_call
from bidbox.errors import BidboxError
from bidbox.evaluate import deal_batch

MINI = "tests/data/mini.bbx"


@pytest.fixture(scope="module")
def mini() -> bidbox.System:
    return bidbox.load_system(MINI)


@pytest.fixture(scope="module")
def sbu() -> bidbox.System:
    return bidbox.load_system("sbu-level1")


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_load_system_keeps_the_compiled_system(mini: bidbox.System) -> None:
    from bidbox.lang import System as CompiledSystem

    assert isinstance(mini.compiled, CompiledSystem)
    assert (mini.name, mini.title) == ("mini", "Mini test system")
    assert mini.options == {"five-card-majors": False, "nt": "weak"}
    assert repr(mini) == f"load_system({MINI!r})"
    strong = bidbox.load_system(MINI, {"nt": "strong"})
    assert strong.options["nt"] == "strong"
    assert repr(strong) == f"load_system({MINI!r}, options={{'nt': 'strong'}})"
    assert bidbox.load_system(MINI, ["nt=strong"]).options == strong.options


def test_bid_a_hand(mini: bidbox.System) -> None:
    bid = mini.bid("K432.AQ32.32.K32", "1NT P")
    assert bid.call == bidbox.Call.parse("2C") and str(bid) == "2C"
    assert bid.seat is bidbox.Seat.S and not bid.fallback
    assert bid.alert and bid.alert_rule.startswith("conventional")
    assert "ask" in bid.tags
    typed = mini.bid(bidbox.Hand.parse("K432.AQ32.32.K32"), bidbox.Auction.parse("1NT P"))
    assert typed.to_json() == bid.to_json()
    opening = mini.bid("AK2.QJ2.K32.Q432")
    assert str(opening.call) == "1C"  # 15 HCP: not the weak no-trump
    assert str(bidbox.load_system(MINI, {"nt": "strong"}).bid("AK2.QJ2.K432.Q32").call) == "1NT"


def test_bid_json_is_what_the_cli_prints(mini: bidbox.System,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    for hand, auction, dealer, vul in [("K432.AQ32.32.K32", "1NT P", "N", "none"),
                                       ("5432.5432.32.K32", "1C P 1H P", "E", "both"),
                                       ("AK2.QJ2.K432.Q32", "", "W", "ns")]:
        printed = cli_json(capsys, "bid", "--system", MINI, "--hand", hand, "--auction",
                           auction, "--dealer", dealer, "--vul", vul, "--json")
        data = mini.bid(hand, auction, dealer=dealer, vul=vul).to_json()
        assert json.loads(json.dumps(data)) == printed
        assert list(data) == list(printed)  # key order too
        for key in ("call", "meaning", "forcing", "alert", "fallback", "reason", "tags",
                    "alert_rule", "stop_card"):
            assert key in data


def test_explain_merges_the_alert_decisions(mini: bidbox.System,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    explanation = mini.explain("1NT P 2C P 2D")
    assert [str(c.call) for c in explanation] == ["1NT", "P", "2C", "P", "2D"]
    stayman = explanation[2]
    assert stayman.alert and stayman.alert_rule.startswith("conventional")
    assert not explanation[0].alert
    known = explanation.knowledge[bidbox.Seat.N]
    assert known.ranges["hcp"] == (12, 14) and known.ranges["H"] == (2, 3)
    printed = cli_json(capsys, "explain", "--system", MINI, "--auction", "1NT P 2C P 2D",
                       "--json")
    assert json.loads(json.dumps(explanation.to_json())) == printed
    row = explanation.to_json()["calls"][2]  # type: ignore[index]
    assert set(row) >= {"alert", "alert_rule", "alert_reason", "alert_override", "stop_card"}


def test_two_systems(mini: bidbox.System, sbu: bidbox.System,
                     capsys: pytest.CaptureFixture[str]) -> None:
    printed = cli_json(capsys, "explain", "--ns", MINI, "--ew", "sbu-level1", "--auction",
                       "1C 1NT", "--json")
    ours = mini.explain("1C 1NT", opponents=sbu).to_json()
    assert json.loads(json.dumps(ours)) == printed
    # The seat to call bids with the system asked, its opponents with theirs.
    from bidbox.core import Hand, Side

    hand, auction = "AK2.QJ2.K432.Q32", bidbox.Auction.parse("1C")
    expected = choose_call(Hand.parse(hand), auction, {Side.NS: mini.compiled,
                                                       Side.EW: sbu.compiled})
    assert sbu.bid(hand, auction, opponents=mini).call == expected.call


def test_bid_deals_gives_the_one_hand_bidders_auctions(mini: bidbox.System) -> None:
    from bidbox.core import Seat, Side, Vulnerability

    deals = deal_batch(40, seed=7)
    auctions = mini.bid_deals(deals, "E", "ew")
    systems = {Side.NS: mini.compiled, Side.EW: mini.compiled}
    assert len(auctions) == 40
    for i, auction in enumerate(auctions):
        hands = {seat: deals.hand(i, seat) for seat in Seat}
        alone, _ = bid_deal(hands, systems, Seat.E, Vulnerability.EW)
        assert auction == alone and auction.is_ended
    as_text = mini.bid_deals([deals.pbn(i, Seat.S) for i in range(40)], Seat.E, "ew")
    assert as_text == auctions


def test_lint_check_and_card(mini: bidbox.System) -> None:
    assert any(f.code == "hole" for f in mini.lint())
    report = bidbox.check(mini, regulation="sbu")
    assert report.system == "mini" and report.regulation == "sbu"
    assert bidbox.check(mini.compiled).verdict == report.verdict
    assert mini.card()["title"] == "Mini test system (mini)"


@pytest.mark.parametrize(("call", "error", "quoted"), [
    (lambda s: s.bid("AKQ2.J54.T9.876", "1NT P"), bidbox.HandError, "'AKQ2.J54.T9.876'"),
    (lambda s: s.bid("AKQ2.J54.T9.8765", "1NT 1C"), bidbox.IllegalCallError, "'1C'"),
    (lambda s: s.bid("AKQ2.J54.T9.8765", "1NT 9Z"), bidbox.NotationError, "'9Z'"),
    (lambda s: s.bid("AKQ2.J54.T9.8765", "1C P P P"), bidbox.AuctionEndedError, "'1C P P P'"),
    (lambda s: s.bid("AKQ2.J54.T9.8765", "", dealer="Q"), bidbox.NotationError, "'Q'"),
    (lambda s: s.bid("AKQ2.J54.T9.8765", bidbox.Auction.parse("1C"), dealer="E"),
     bidbox.TableMismatchError, "'1C'"),
    (lambda s: s.explain("1C", regulation="sbv"), bidbox.UnknownRegulationError,
     "'sbv' (did you mean 'sbu'?)"),
    (lambda s: s.bid_deals(["N:AKQ2.J54.T9.8765 - - -"]), bidbox.DealError, "deal 1"),
    (lambda s: s.bid_deals(["AKQ2.J54.T9.8765 x y z"]), bidbox.DealError, "first seat"),
    (lambda s: s.bid_deals(["N:AKQ2.J54.T9.8765 AKQ2.J54.T9.8765 AKQ2.J54.T9.8765 "
                            "AKQ2.J54.T9.8765"]), bidbox.DealError, "the SA is in two hands"),
    (lambda s: s.bid_deals(["X:AKQ2.J54.T9.8765 AKQ2.J54.T9.8765 AKQ2.J54.T9.8765 "
                            "AKQ2.J54.T9.8765"]), bidbox.DealError, "unknown seat 'X'"),
])
def test_wrong_input_names_itself(mini: bidbox.System, call: object, error: type[Exception],
                                  quoted: str) -> None:
    assert callable(call)
    with pytest.raises(error) as caught:
        call(mini)
    assert isinstance(caught.value, BidboxError)
    assert quoted in str(caught.value)


def test_unknown_system_and_option() -> None:
    with pytest.raises(bidbox.UnknownSystemError, match=r"'sbu-levl1' \(did you mean 'sbu-level1'"):
        bidbox.load_system("sbu-levl1")
    with pytest.raises(bidbox.OptionError, match="takes one of weak, strong"):
        bidbox.load_system(MINI, {"nt": "medium"})
    with pytest.raises(bidbox.SystemFileError, match=r"broken.bbx:3:3"):
        bidbox.load_system("tests/data/broken.bbx")


def test_from_text() -> None:
    system = bidbox.System.from_text("system tiny\n1NT hcp 15-17, balanced\n", "tiny.bbx")
    assert system.name == "tiny"
    assert str(system.bid("AK2.QJ2.K432.Q32").call) == "1NT"
    assert str(system.bid("AK2.QJ2.K432.Q32", "1NT").call) == "P"  # no notes there: fallback


def test_import_is_light_and_lazy() -> None:
    code = ("import sys, bidbox\n"
            "heavy = ['numpy', 'matplotlib', 'dask', 'bidbox.engine', 'bidbox.lang']\n"
            "print(sorted(m for m in heavy if m in sys.modules))\n"
            "bidbox.Hand\n"
            "print(sorted(m for m in heavy if m in sys.modules))\n"
            "bidbox.load_system\n"
            "print(sorted(m for m in heavy if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out[0] == "[]" and out[1] == "[]"
    assert "bidbox.engine" in out[2] and "matplotlib" not in out[2] and "dask" not in out[2]


def test_every_exported_name_resolves() -> None:
    for name in bidbox.__all__:
        assert getattr(bidbox, name) is not None, name
    assert set(bidbox.__all__) <= set(dir(bidbox))
    with pytest.raises(AttributeError, match="no attribute 'nosuch'"):
        bidbox.nosuch  # noqa: B018
