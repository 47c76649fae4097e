"""The shipped natural base: where a system's notes stop, natural competitive calls with a
meaning partner can read, and its catch-all passes left to judgement."""

from __future__ import annotations

from functools import cache

from bidbox.core import PASS, Auction, Call, Hand, Side
from bidbox.engine import as_systems, choose_call
from bidbox.engine.explain import explain
from bidbox.lang import System, compile_text, load_system
from bidbox.lang.system import Forcing


@cache
def tosr() -> dict[Side, System]:
    return as_systems(load_system("tosr"))


@cache
def bare() -> dict[Side, System]:
    """A system whose notes say nothing about competition: only the base speaks."""
    return as_systems(compile_text('system bare\nbase "natural.bbx"\n'
                                   "1H hcp 12-19, 5+H [natural]\n"
                                   "P any [priority -100]\n", "bare.bbx"))


def test_the_shipped_systems_walk_the_natural_base() -> None:
    for name in ("sbu-level1", "tosr"):
        system = load_system(name)
        assert system.base is not None and system.base.name == "natural"


def _against(opponents: str) -> dict[Side, System]:
    """TOSR for East-West against a one-line system for North-South (who deal)."""
    theirs = compile_text(f"system theirs\n{opponents}\n", "theirs.bbx")
    return {Side.NS: theirs, Side.EW: tosr()[Side.EW]}


def test_a_takeout_double_of_a_weak_two_comes_from_the_base() -> None:
    # TOSR's notes have no defence to a natural weak 2S; the base doubles for takeout.
    systems = _against("2S hcp 5-10, 6+S [preempt]")
    result = choose_call(Hand.parse("5.AQ54.KJ32.KQ43"), Auction.parse("2S"), systems)
    assert result.call == Call.parse("X") and result.source == "base"
    assert "natural.bbx" in result.reason


def test_the_base_does_not_read_an_artificial_bid_as_its_suit() -> None:
    # Their 2S shows the minors: the base's defence to a natural 2S does not apply.
    systems = _against("2S hcp 5-10, 5+C, 5+D [artificial]")
    result = choose_call(Hand.parse("5.AQ54.KJ32.KQ43"), Auction.parse("2S"), systems)
    assert result.source != "base"


def test_a_base_call_is_explained_with_its_meaning() -> None:
    systems = bare()
    explained = explain(Auction.parse("P 1S 2H"), systems)
    overcall = explained.calls[-1]
    assert overcall.source == "base" and "overcall" in overcall.meaning
    known = explained.knowledge[overcall.seat]
    assert known.ranges["hcp"][0] >= 8 and known.ranges["H"][0] >= 5


def test_the_base_catch_all_pass_is_left_to_judgement() -> None:
    # Nothing natural fits a flat 4-count over their 1S: judgement passes, not the base.
    result = choose_call(Hand.parse("432.5432.Q32.432"), Auction.parse("P 1S"), bare())
    assert result.call == PASS and result.source == "placement"


def test_responder_raises_over_an_overcall_from_the_base() -> None:
    # Our natural 1H, their 2C: the notes are silent; the base raises with support.
    result = choose_call(Hand.parse("K32.K432.Q432.32"), Auction.parse("1H 2C"), bare())
    assert result.call == Call.parse("2H") and result.source == "base"


def test_the_base_is_shipped_but_not_listed_as_a_system() -> None:
    from bidbox.lang.loader import shipped_systems
    assert "natural" not in {s.name for s in shipped_systems()}
    assert "natural" in {s.name for s in shipped_systems(bases=True)}


def test_the_base_answers_a_strong_club_two_by_its_meaning() -> None:
    # Their 2C is artificial and strong: the base's defence to it (a long suit overcalled)
    # applies, where reading their bids by name alone had to skip every artificial one.
    systems = _against("2C hcp 23+ [artificial, strong, gf]")
    result = choose_call(Hand.parse("KQJ932.32.432.32"), Auction.parse("2C"), systems)
    assert result.call == Call.parse("2S") and result.source == "base"


def test_opener_raises_responder_in_competition_from_the_base() -> None:
    # 1H P 1S and their 2C or double: four-card support and a minimum raise to 2S, so that
    # responder knows of the fit; without four cards the base says nothing.
    for auction in ("1H P 1S 2C", "1H P 1S X"):
        result = choose_call(Hand.parse("AQ54.AJ632.K4.32"), Auction.parse(auction), bare())
        assert result.call == Call.parse("2S") and result.source == "base", auction
    three = choose_call(Hand.parse("A54.AJ632.K4.432"), Auction.parse("1H P 1S 2C"), bare())
    assert three.source != "base"


def test_opener_jump_shifts_to_game_from_the_base() -> None:
    # 19 HCP with a second suit after 1H P 1S: 3D, forcing to game; a 16-count does not.
    result = choose_call(Hand.parse("A5.AKQ43.AKJ6.52"), Auction.parse("1H P 1S P"), bare())
    assert result.call == Call.parse("3D") and result.source == "base"
    assert result.forcing is Forcing.GAME_FORCING
    weaker = choose_call(Hand.parse("A5.AKQ43.QJ76.52"), Auction.parse("1H P 1S P"), bare())
    assert weaker.source != "base"


def test_their_four_level_opening_is_doubled_for_takeout() -> None:
    # Direct: 17 HCP and a singleton in their suit; protective (4S P P): a little lighter.
    direct = choose_call(Hand.parse("AK54.5.KJ32.AQ43"), Auction.parse("P 4H"), bare())
    assert direct.call == Call.parse("X") and direct.source == "base"
    protective = choose_call(Hand.parse("5.AQ54.KJ32.KQ43"), Auction.parse("4S P P"), bare())
    assert protective.call == Call.parse("X") and protective.source == "base"
    # Three cards in their suit: no takeout double.
    flat = choose_call(Hand.parse("Q65.AQ54.KJ32.43"), Auction.parse("4S P P"), bare())
    assert flat.call == PASS


def test_partners_takeout_double_of_a_weak_two_is_answered_by_the_base() -> None:
    # Their natural weak 2S, our takeout double, their pass: a weak hand names its longest
    # suit with a limit the doubler reads; strong trumps leave the double in.
    systems = _against("2S hcp 5-10, 6+S [preempt]")
    weak = choose_call(Hand.parse("52.QT854.J52.T42"), Auction.parse("2S X P"), systems)
    assert weak.call == Call.parse("3H") and weak.source == "base"
    explained = explain(Auction.parse(f"2S X P {weak.call}"), systems)
    known = explained.knowledge[explained.calls[-1].seat]
    assert known.ranges["hcp"][1] <= 10
    trumps = choose_call(Hand.parse("KQJ95.42.Q52.T42"), Auction.parse("2S X P"), systems)
    assert trumps.call == PASS and trumps.source == "base" and "trumps" in trumps.meaning
