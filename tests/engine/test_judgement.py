"""Judgement where the notes stop: forcing discipline, the captain's placement, and the
one auction step both bidders share."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from bidbox.core import PASS, Auction, Call, Hand, Seat, Side, Vulnerability
from bidbox.core.calls import GAME_LEVEL, Strain
from bidbox.engine import as_systems, bid_batch, bid_deal, choose_call, explain
from bidbox.engine.judgement import expected_scores, is_invitation, obligation, trick_distribution
from bidbox.engine.walk import TableState, described_suit, replay
from bidbox.evaluate import deal_batch
from bidbox.lang import System, compile_text, load_system


@cache
def sbu() -> dict[Side, System]:
    return as_systems(load_system("sbu-level1"))


def test_trick_distribution_is_a_distribution_around_its_mean() -> None:
    probs = trick_distribution(np.array([[9.3, 4.0]]), np.array([[1.0, 0.7]]))
    assert probs.shape == (1, 2, 14)
    assert np.allclose(probs.sum(axis=-1), 1.0)
    mean = (probs * np.arange(14)).sum(axis=-1)
    assert abs(mean[0, 0] - 9.3) < 0.05 and abs(mean[0, 1] - 4.0) < 0.05


def test_expected_score_of_a_sure_game_is_its_score() -> None:
    probs = np.zeros((1, 5, 14))
    probs[0, :, 10] = 1.0  # ten tricks in every strain, for certain
    options = [Call.parse("4S"), Call.parse("5S"), Call.parse("3NT")]
    ev = expected_scores(Auction.parse("1S P"), options, probs, False, False, False)
    assert ev[0].tolist() == [420.0, -50.0, 430.0]


def test_a_game_force_is_kept_to_game() -> None:
    # Responder's jump shift is game forcing; opener's 3D leaves the notes.
    result = choose_call(Hand.parse("AQT74.KJ743.A.Q5"), Auction.parse("1D P 2S P 3D P"),
                         sbu())
    assert result.source == "placement" and result.call.is_bid
    assert result.call.strain is not None
    if result.call.level < GAME_LEVEL[result.call.strain]:
        # Below game only to show a new five-card suit, which the force keeps open.
        state = replay(Auction.parse("1D P 2S P 3D P"), sbu())[1]
        assert described_suit(state, result.call) is result.call.strain
        assert Hand.parse("AQT74.KJ743.A.Q5").lengths[3 - int(result.call.strain)] >= 5


def test_partners_signoff_is_respected() -> None:
    system = compile_text("1NT hcp 15-17, balanced\n  2S hcp 0-7, 5+S [signoff]\n", "so.bbx")
    result = choose_call(Hand.parse("AK2.AK2.KQ32.432"), Auction.parse("1NT P 2S P"),
                         as_systems(system))
    assert result.call == PASS and "partner has placed" in result.reason


def test_an_artificial_call_is_never_left_in() -> None:
    system = compile_text("1C hcp 16+ [artificial]\n", "art.bbx")
    result = choose_call(Hand.parse("432.432.5432.432"), Auction.parse("1C P"),
                         as_systems(system))
    assert result.call != PASS and result.source == "placement"


def _final_bid_step(auction: Auction, systems: dict[Side, System]):  # type: ignore[no-untyped-def]
    steps, _ = replay(auction, systems)
    return steps[auction.last_bid_index()] if auction.last_bid_index() >= 0 else None


def test_no_final_contract_in_an_artificial_call_and_game_forces_reach_game() -> None:
    deals = deal_batch(300, seed=23)
    systems = sbu()
    for auction in bid_batch(deals, systems, Seat.N, Vulnerability.NONE).auctions():
        last = _final_bid_step(auction, systems)
        if last is None:
            continue
        assert last.entry is None or not last.entry.is_artificial, str(auction)
        steps, _ = replay(auction, systems)
        contract = auction.contract
        assert contract is not None
        for side in Side:
            forced = any(s.entry is not None and s.entry.forcing is not None
                         and s.entry.forcing.value == "gf" for s in steps if s.seat.side is side)
            if not forced or contract.doubled:
                continue
            # A game-forcing side that made the last bid reached game (or its notes released
            # the force with a non-forcing call, as Acol's 2C-2D-2NT).
            if contract.declarer.side is side:
                released = any(s.entry is not None and s.entry.forcing is not None
                               and s.entry.forcing.value in ("nf", "inv", "signoff")
                               for s in steps if s.seat.side is side)
                assert released or contract.level >= GAME_LEVEL[contract.strain], str(auction)


@pytest.mark.parametrize("vul", [Vulnerability.NONE, Vulnerability.BOTH])
def test_one_hand_and_batch_bidders_agree_with_both_sides_bidding(vul: Vulnerability) -> None:
    deals = deal_batch(120, seed=31)
    systems = sbu()
    auctions = bid_batch(deals, systems, Seat.W, vul).auctions()
    for i in range(len(deals)):
        alone, _ = bid_deal({s: deals.hand(i, s) for s in Seat}, systems, Seat.W, vul)
        assert alone == auctions[i], (i, str(alone), str(auctions[i]))


def test_a_game_signoff_in_the_notes_does_not_bar_a_slam() -> None:
    # 1NT (12-14) - 4S is the notes' sign-off with six spades and game values; they name
    # no slam route, so with 21 HCP the captain bids the slam.
    strong = choose_call(Hand.parse("AKQJ32.KQ2.AQ2.2"), Auction.parse("1NT P"), sbu())
    assert strong.call == Call.parse("6S") and strong.source == "placement"
    assert "sign off in 4S" in strong.reason
    # With game values only, the notes' sign-off stands.
    plain = choose_call(Hand.parse("KQJ932.K32.A2.32"), Auction.parse("1NT P"), sbu())
    assert plain.call == Call.parse("4S") and plain.source == "system"


def test_a_signoff_after_an_ace_ask_stands() -> None:
    # After our Blackwood showed the aces missing, the notes' 5H sign-off is informed:
    # the captain does not bid past it, however many points it holds.
    text = ("system bw\n1H hcp 12-19, 5+H\n"
            "  4NT hcp 16+, 3+H [ask, blackwood, artificial, f1]\n"
            "    5C aces 0-1 [answer, artificial]\n"
            "      5H any [signoff] \"aces missing: stop\"\n")
    systems = as_systems(compile_text(text, "bw.bbx"))
    result = choose_call(Hand.parse("KQJ.KQJ2.KQJ2.K2"), Auction.parse("1H P 4NT P 5C P"),
                         systems)
    assert result.call == Call.parse("5H") and result.source == "system"


WIDE_NO_TRUMP = "system nt\n1NT hcp 12-18, balanced [nf]\n"
"""A wide range, so that what partner holds within it decides the game."""


def test_a_judged_game_try_is_made_and_answered_by_strength() -> None:
    # The notes say nothing after 1NT: with 10 HCP opposite 12-18 the captain neither
    # passes nor guesses game but tries with 2NT, and opener accepts with the upper half.
    systems = as_systems(compile_text(WIDE_NO_TRUMP, "nt.bbx"))
    tried = choose_call(Hand.parse("Q32.K32.K432.Q32"), Auction.parse("1NT P"), systems)
    assert tried.call == Call.parse("2NT") and "game try" in tried.reason
    top = choose_call(Hand.parse("AK2.K32.A432.J32"), Auction.parse("1NT P 2NT P"), systems)
    bottom = choose_call(Hand.parse("AK2.J32.Q432.J32"), Auction.parse("1NT P 2NT P"),
                         systems)
    assert top.call == Call.parse("3NT") and "accepts" in top.reason  # 15 HCP
    assert bottom.call == PASS and "declines" in bottom.reason  # 12 HCP
    # A weak hand passes and a strong one bids game: the try is for the middle.
    assert choose_call(Hand.parse("K32.K32.Q432.432"), Auction.parse("1NT P"),
                       systems).call == PASS
    assert choose_call(Hand.parse("KQ2.K32.K432.432"), Auction.parse("1NT P"),
                       systems).call == Call.parse("3NT")


def test_only_an_uncontested_natural_bid_below_game_is_a_game_try() -> None:
    def calls(text: str) -> tuple[Call, ...]:
        return Auction.parse(text).calls

    assert is_invitation(calls("1NT P"), Call.parse("2NT"))
    assert is_invitation(calls("1H P 2H P"), Call.parse("3H"))
    assert not is_invitation(calls("1NT 2C"), Call.parse("2NT"))  # they competed
    assert not is_invitation(calls("1D P 1NT P"), Call.parse("3H"))  # hearts not bid
    assert not is_invitation(calls("1H P 2H P"), Call.parse("3D"))
    assert not is_invitation(calls("1H P 1NT P"), Call.parse("3NT"))


def test_a_game_the_notes_give_to_other_shapes_is_a_placement_for_the_strength() -> None:
    text = ("system floors\n1D hcp 12-19, 4+D\n  1NT hcp 6-9 [nf]\n"
            "    3NT hcp 19, balanced [signoff] \"19 balanced\"\n"
            "    2NT hcp 17-18, balanced [inv]\n    P any [priority -100] \"minimum\"\n")
    systems = as_systems(compile_text(text, "floors.bbx"))
    # 19 HCP, 4-4-4-1: no rebid fits, but 3NT is where the hand belongs.
    strong = choose_call(Hand.parse("AK64.AK83.K874.Q"), Auction.parse("1D P 1NT P"), systems)
    assert strong.call == Call.parse("3NT") and strong.source == "placement"
    # Below the strength the notes ask for, the game (and all above it) stays barred.
    for hand in ("AK64.AQ83.K874.2", "AK6.AQ83.KJ874.2"):  # 16 HCP each
        result = choose_call(Hand.parse(hand), Auction.parse("1D P 1NT P"), systems)
        assert result.call == PASS or result.call.rank < Call.parse("3NT").rank, hand


def test_a_game_forcing_relay_double_keeps_the_force() -> None:
    # Our double of their overcall is the game-forcing relay, not a penalty double:
    # after opener's judged answer the side still owes its game.
    text = ("system relay\n1D hcp 10-14, 4+D [nf]\n  (1H)\n"
            "    X hcp 11+ [relay, artificial, gf] \"game-forcing relay\"\n")
    systems = as_systems(compile_text(text, "relay.bbx"))
    _, state = replay(Auction.parse("1D 1H X P 1S P"), systems)
    assert state.side(Seat.N).game_forced
    penalty = ("system pen\n1D hcp 10-14, 4+D [nf]\n  (1H)\n"
               "    X hcp 11+, 4+H [penalty, gf] \"for penalties\"\n")
    _, state = replay(Auction.parse("1D 1H X"), as_systems(compile_text(penalty, "p.bbx")))
    assert not state.side(Seat.N).game_forced  # defending doubled is the force's end


def test_partners_forcing_pass_is_not_passed() -> None:
    # Partner's pass over their overcall forces us to call; with no continuation in the
    # notes the strong opener must not defend their 1S undoubled.
    text = ("system fp\n1C hcp 16+ [artificial, f1] \"strong\"\n  (1S)\n"
            "    P hcp 8+ [forcing-pass, artificial] \"positive: forces opener\"\n"
            "    X hcp 0-7 [artificial] \"negative\"\n")
    systems = as_systems(compile_text(text, "fp.bbx"))
    assert obligation(replay(Auction.parse("1C 1S P P"), systems)[1]) == "forced"
    result = choose_call(Hand.parse("986.AJ.AQ4.AQT94"), Auction.parse("1C 1S P P"), systems)
    assert result.call != PASS and "may not pass" in result.reason
    # Once the opponent between has bid, partner's pass no longer binds us.
    assert obligation(replay(Auction.parse("1C 1S P 2S"), systems)[1]) == "free"


def test_our_own_artificial_bid_doubled_is_not_left_in() -> None:
    # The strong club doubled, partner's 0-4 redouble, back to the opener: 1C redoubled is
    # no contract, though the notes end in a catch-all pass; a club suit the opening has
    # shown is one.
    def state_after(opening: str) -> TableState:
        text = (f"system own\n1C {opening} [artificial, f1] \"strong\"\n  (X)\n"
                "    XX hcp 0-4 [artificial] \"0-4\"\n      P any [priority -100] \"judgement\"\n")
        return replay(Auction.parse("1C X XX P"), as_systems(compile_text(text, "own.bbx")))[1]
    assert obligation(state_after("hcp 16+"), True) == "forced"
    assert obligation(state_after("hcp 16+, 7+C"), True) == "free"


def test_tosrs_positive_pass_over_interference_forces_game() -> None:
    # TOSR's pass over their overcall of the strong club is a full positive, game forcing.
    systems = as_systems(load_system("tosr"))
    _, state = replay(Auction.parse("1C 1S P P", Seat.W), systems)
    assert state.side(Seat.E).game_forced


def test_a_partscore_the_notes_give_another_shape_does_not_cap_a_rescue() -> None:
    # The notes' escapes after 1NT X P P XX are two-suiters (2C: clubs and diamonds);
    # with neither, their pass is the last resort. A hand with nothing, six clubs and a
    # singleton diamond still runs (in clubs, above the notes' 2C): 1NT redoubled
    # opposite 12 HCP goes several down. The notes' 2C used to cap every call from it up.
    system = compile_text(
        "1NT hcp 11-14, balanced [opening]\n"
        "  (X)\n"
        "    P any [artificial, priority -50]\n"
        "      XX any [artificial]\n"
        "        2C 4+C, 4+D [two-suited]\n"
        "        2H 4+H, 4+S [two-suited]\n"
        "        P any [priority -100]\n", "swine.bbx")
    auction = Auction.parse("1NT X P P XX P", dealer=Seat.S)
    result = choose_call(Hand.parse("T842.T9.8.875432"), auction, as_systems(system))
    assert result.source == "placement" and result.call.strain is Strain.C, result


def test_partners_overcall_before_our_first_call_does_not_bind_us() -> None:
    # W's 2S came before E had called at all: a guess at E's hand, not a placement E
    # must respect. E, with 17 HCP and five hearts, still bids (with 14 and the singleton
    # in partner's spades, which a judged 2S now shows four of, passing is judgement's).
    tosr = as_systems(load_system("tosr"))
    auction = Auction.parse("2C 2S P", dealer=Seat.S)
    result = choose_call(Hand.parse("A.AKT87.Q73.A987"), auction, tosr)
    assert result.call != PASS, result
    assert "partner has placed" not in result.reason


def test_partners_placement_after_hearing_us_is_respected() -> None:
    # A game after E's own pass: partner heard E and placed the contract. (A suit bid
    # below game there only competes: test_partners_judged_raise_in_competition...)
    system = compile_text("1C hcp 12+ [opening]\n", "one.bbx")
    auction = Auction.parse("P 1C 4S P", dealer=Seat.E)
    result = choose_call(Hand.parse("A.AT876.Q73.A987"), auction, as_systems(system))
    assert result.call == PASS and "partner has placed" in result.reason, result



def test_no_trump_in_competition_needs_their_suits_stopped() -> None:
    # 1C (1H) 1S, partner's hearts overcalled their clubs and spades. With Ax in clubs
    # the captain bids 3NT; the same values with 43 in clubs play in partner's suit.
    auction = Auction.parse("1C 1H 1S", dealer=Seat.E)
    stopped = choose_call(Hand.parse("KJ74.43.AKJT4.A4"), auction, sbu())
    assert stopped.call == Call.parse("3NT"), stopped
    unstopped = choose_call(Hand.parse("KJ74.A4.AKJT4.43"), auction, sbu())
    assert unstopped.call.is_bid and unstopped.call.strain is not Strain.NT, unstopped


def test_a_forced_hand_shows_its_four_card_major_before_no_trump() -> None:
    # Canary 1C P 1D P 2D P: responder must bid. With four spades he shows them (partner
    # with four places 4S); the same values without a four-card major bid no-trump.
    canary = as_systems(load_system("canary"))
    auction = Auction.parse("P P 1C P 1D P 2D P", dealer=Seat.W)
    major = choose_call(Hand.parse("9874.AJ5.T8.J975"), auction, canary)
    assert major.call == Call.parse("2S") and "four or more S" in major.reason, major
    flat = choose_call(Hand.parse("987.AJ54.T8.J975"), auction, canary)
    assert flat.call == Call.parse("2H"), flat
    none = choose_call(Hand.parse("987.AJ5.T84.J975"), auction, canary)
    assert none.call.is_bid and none.call.strain is Strain.NT, none
    # Partner with four spades and 19 plays in spades, trying for game or bidding it.
    after = Auction.parse("P P 1C P 1D P 2D P 2S P", dealer=Seat.W)
    game = choose_call(Hand.parse("AKT2.62.KQ652.AK"), after, canary)
    assert game.call.strain is Strain.S and game.call.level >= 3, game


def test_the_notes_3nt_gives_way_to_a_known_major_fit() -> None:
    # Opener shows five hearts; responder's 3NT is the notes' sign-off. With four
    # hearts (nine together) the captain plays 4H; with two, 3NT stands.
    system = as_systems(compile_text("1H hcp 12-14, 5+H [opening]\n"
                                     "  3NT hcp 13-15 [signoff]\n", "mg.bbx"))
    fit = choose_call(Hand.parse("KQ4.AJ54.KQ32.32"), Auction.parse("1H P"), system)
    assert fit.call == Call.parse("4H") and fit.source == "placement", fit
    assert "eight or more cards in H" in fit.reason
    short = choose_call(Hand.parse("KQ4.J5.KQ32.A432"), Auction.parse("1H P"), system)
    assert short.call == Call.parse("3NT") and short.source == "system", short
    # A weak relay that partner passes with a minimum (TOSR's 3NT asking for controls)
    # is mostly played in 3NT: the known fit plays in four instead. A 3NT that partner
    # must answer is never the contract, and stays the notes'.
    def relay(*answers: str) -> Call:
        text = "".join(f"    {a}\n" for a in answers)
        systems = as_systems(compile_text("1H hcp 12-14, 5+H [opening]\n"
                                          "  3NT hcp 13-15 [signoff, relay]\n" + text))
        return choose_call(Hand.parse("KQ4.AJ54.KQ32.32"), Auction.parse("1H P"),
                           systems).call

    assert relay("4C controls 5+ [answer]", "P any") == Call.parse("4H")
    assert relay("4C controls 5+ [answer]", "4D any [answer]") == Call.parse("3NT")


def test_the_notes_pass_of_partners_3nt_gives_way_to_a_known_major_fit() -> None:
    # A relayer who plays partner's 3NT answer (it shows five hearts) by the notes' pass
    # plays 4H with four hearts of its own; with two, the pass stands.
    system = as_systems(compile_text(
        '1C hcp 16+ [f1, artificial] "strong"\n'
        '  3NT hcp 8-10, 5+H, 0-3S, 2-3D, 2-3C [answer, artificial] "five hearts"\n'
        '    P any [signoff] "plays the 3NT answer"\n'))
    fit = choose_call(Hand.parse("KQ4.AJ54.K32.A32"), Auction.parse("1C P 3NT P"), system)
    assert fit.call == Call.parse("4H") and fit.source == "placement", fit
    short = choose_call(Hand.parse("KQ42.J5.KQ32.A32"), Auction.parse("1C P 3NT P"), system)
    assert short.call == PASS and short.source == "system", short


SLAM_TRY = "system sl\n1S hcp 11-21, 5+S [opening]\n  3S hcp 10-12, 4+S [inv]\n"
"""The notes stop after a limit raise: slam is the captain's to find."""


@cache
def slam_try() -> dict[Side, System]:
    return as_systems(compile_text(SLAM_TRY, "sl.bbx"))


def test_the_captain_asks_for_aces_with_slam_in_view() -> None:
    # 22 HCP opposite a limit raise: a slam to look for, not to bid blind.
    ask = choose_call(Hand.parse("AKQJ2.KQ2.A2.K32"), Auction.parse("1S P 3S P"), slam_try())
    assert ask.call == Call.parse("4NT") and ask.source == "placement"
    assert "Blackwood" in ask.reason
    # No ace of our own: partner's points seldom hold three aces, so no slam blind
    # (the trick model alone, which counts points, said slam).
    none = choose_call(Hand.parse("KQJ32.KQ2.KQ2.K2"), Auction.parse("1S P 3S P"), slam_try())
    assert none.call.is_bid and none.call.level < 6, none


@pytest.mark.parametrize(("hand", "answer"), [
    ("9876.K32.QJ2.Q32", "5C"), ("9876.A32.QJ2.Q32", "5D"), ("A876.A32.QJ2.Q32", "5H"),
    ("A876.A32.AJ2.Q32", "5S"), ("A876.A32.AJ2.A32", "5C")])
def test_partners_judged_blackwood_is_answered_by_aces(hand: str, answer: str) -> None:
    result = choose_call(Hand.parse(hand), Auction.parse("1S P 3S P 4NT P"), slam_try())
    assert result.call == Call.parse(answer) and "Blackwood" in result.reason


@pytest.mark.parametrize(("answer", "placed"), [("5C", "5S"), ("5D", "6S"), ("5H", "6S")])
def test_after_the_answer_two_aces_missing_stop_in_five(answer: str, placed: str) -> None:
    # The asker holds two aces: 5C (none) leaves two missing, 5D or 5H at most one.
    result = choose_call(Hand.parse("AKQJ2.KQ2.A2.K32"),
                         Auction.parse(f"1S P 3S P 4NT P {answer} P"), slam_try())
    assert result.call == Call.parse(placed), result


def test_a_judged_4nt_after_our_suit_is_read_as_blackwood() -> None:
    from bidbox.engine.judgement import asks_aces, judged_meaning
    _, state = replay(Auction.parse("1S P 3S P"), slam_try())
    assert asks_aces(state)
    steps, _ = replay(Auction.parse("1S P 3S P 4NT P 5D"), slam_try())
    assert judged_meaning(steps, 4) == "Blackwood: asks for aces"
    assert judged_meaning(steps, 6) == "answers Blackwood: one ace"
    assert judged_meaning(steps, 2) is None  # the notes' own 3S
    # Without a suit of ours bid naturally (only no-trump), 4NT is no ace ask.
    no_trump = as_systems(compile_text(WIDE_NO_TRUMP, "nt.bbx"))
    nt_steps, _ = replay(Auction.parse("1NT P 4NT"), no_trump)
    assert not asks_aces(replay(Auction.parse("1NT P"), no_trump)[1])
    assert judged_meaning(nt_steps, 2) is None
    explained = explain(Auction.parse("1S P 3S P 4NT P 5D"), slam_try())
    assert [c.meaning for c in explained.calls][4:] == [
        "Blackwood: asks for aces", explained.calls[5].meaning, "answers Blackwood: one ace"]


def test_partners_answer_to_our_forcing_call_is_no_placement() -> None:
    # Our 2H forces; the notes give opener no rebid, so opener's 2S is judgement's
    # answer, not a contract chosen after hearing us: the forcing hand is the captain.
    system = as_systems(compile_text("system fa\n1S hcp 12-19, 5+S [opening]\n"
                                     "  2H hcp 12+, 5+H [f1]\n", "fa.bbx"))
    result = choose_call(Hand.parse("Q2.AKJ54.KQ3.J32"), Auction.parse("1S P 2H P 2S P"),
                         system)
    assert result.call.is_bid and result.source == "placement", result


def test_partners_judged_raise_in_competition_is_no_placement() -> None:
    # The notes stop after their overcall; responder's 2H is judgement competing with a
    # fit and some values, so opener with a strong hand still bids the game.
    system = as_systems(compile_text("system cr\n1H hcp 12-19, 5+H [opening]\n", "cr.bbx"))
    result = choose_call(Hand.parse("A2.AKQ54.KQ3.J32"), Auction.parse("1H 1S 2H P"), system)
    assert result.call.is_bid and result.source == "placement", result


def test_a_minimum_declines_a_quantitative_4nt_in_every_strain() -> None:
    # 1NT (12-14) 2C 2H 4NT: quantitative, the notes' 6NT is for a maximum. With twelve
    # and four spades (the Stayman bidder may hold them) opener stops: no 6S instead.
    auction = Auction.parse("P 1NT P 2C P 2H P 4NT P", dealer=Seat.E)
    minimum = choose_call(Hand.parse("AK86.QJ42.52.Q98"), auction, sbu())
    assert minimum.call == PASS, minimum
    maximum = choose_call(Hand.parse("AK86.QJ42.A2.Q98"), auction, sbu())
    assert maximum.call.is_bid and maximum.call.level == 6, maximum


def test_slam_odds_see_the_shape() -> None:
    # The trick model counts points and combined lengths; at slam level a side singleton
    # opposite a fit is worth about a trick more than two flat hands with the same points.
    from bidbox.engine import judgement as J
    from bidbox.engine.features import HandFeatures
    _, state = replay(Auction.parse("1S P 3S P"), slam_try())

    def shift(hand: str) -> float:
        hf = HandFeatures(np.array([Hand.parse(hand).suits], dtype=np.int16))
        return float(J._shape_shift(J._prospects(state, hf))[0, 0])

    flat, singleton = shift("AKQJ2.KQ2.A32.32"), shift("AKQJ2.KQ32.A32.2")
    assert singleton - flat > 0.3, (flat, singleton)
    # 18 points, 4-3-3-3, opposite Acol's four-card limit raise (10-12): an eight-card fit
    # and no ruff in either hand, game (the points-only estimate bid 6H).
    game = choose_call(Hand.parse("KT7.AJ87.AT8.AQ2"), Auction.parse("1H P 3H P"), sbu())
    assert game.call == Call.parse("4H"), game


STRONG_NO_TRUMP = ('system nt\n2NT hcp 20-22, balanced [nf]\n'
                   '  3NT hcp 4-12 [signoff] "to play"\n')
"""A 2NT opening with a sign-off in 3NT below which nothing names a slam."""


def test_a_judged_4nt_over_partners_no_trump_is_quantitative() -> None:
    # No suit of ours bid: 4NT over partner's 2NT asks for the top of the range, both
    # where the notes stop and past their 3NT sign-off (4-12, which reaches slam).
    bare = as_systems(compile_text("system nt\n2NT hcp 20-22, balanced [nf]\n", "nt.bbx"))
    signoff = as_systems(compile_text(STRONG_NO_TRUMP, "nt.bbx"))
    for systems in (bare, signoff):
        ask = choose_call(Hand.parse("KJ2.Q32.K432.K32"), Auction.parse("2NT P"), systems)
        assert ask.call == Call.parse("4NT") and "quantitative" in ask.reason, ask
        # 10 HCP: 6NT is no even chance even opposite a maximum; game.
        assert choose_call(Hand.parse("K32.Q32.K432.Q32"), Auction.parse("2NT P"),
                           systems).call == Call.parse("3NT")
    top = choose_call(Hand.parse("AKJ.AQ4.AJ32.Q54"), Auction.parse("2NT P 4NT P"), bare)
    bottom = choose_call(Hand.parse("AQ4.AJ4.A432.K54"), Auction.parse("2NT P 4NT P"), bare)
    assert top.call == Call.parse("6NT") and "accepts" in top.reason  # 21 HCP
    assert bottom.call == PASS and "declines" in bottom.reason  # 20 HCP
    # After a natural suit of ours the same 4NT asks for aces (SLAM_TRY's 1S-3S).
    from bidbox.engine.judgement import quantitative_now
    assert quantitative_now(replay(Auction.parse("2NT P"), bare)[1])
    assert not quantitative_now(replay(Auction.parse("1S P 3S P"), slam_try())[1])
    assert not quantitative_now(replay(Auction.parse("2NT 3C"), bare)[1])  # they bid


def test_a_signoff_after_a_relay_is_no_slam_bar() -> None:
    # TOSR: 2S (clubs) - 2NT relay - 3C, and the notes' 3NT sign-off. The relay told
    # partner's shape, not our strength: with 20 HCP and three aces opposite six clubs
    # the captain bids the slam the notes do not name.
    tosr = as_systems(load_system("tosr"))
    auction = Auction.parse("2S P 2NT P 3C P", Seat.W, Vulnerability.BOTH)
    strong = choose_call(Hand.parse("AKQ.A.AQJ652.876"), auction, tosr)
    assert strong.call == Call.parse("6C") and strong.source == "placement", strong
    assert "sign off in 3NT" in strong.reason
    plain = choose_call(Hand.parse("KQ2.A32.AQ652.87"), auction, tosr)
    assert plain.call.is_bid and plain.call.level < 6, plain


def test_five_of_an_agreed_major_is_a_slam_try() -> None:
    # 1S-3S (10-12) is the notes' 4S sign-off for opener; with 17 HCP and three aces the
    # slam is no even chance blind, but it is opposite 11-12: 5S asks for the top of the
    # limit raise, and responder bids 6S with it, else passes.
    # (With a control to show, the cheaper try is the control bid below game, which
    # costs nothing when declined: 4D here.)
    auction = Auction.parse("1S P 3S P", Seat.S, Vulnerability.NS)
    tried = choose_call(Hand.parse("AQ862.AK9.A5.864"), auction, sbu())
    assert tried.call == Call.parse("4D") and "slam try" in tried.reason, tried
    answer = Auction.parse("1S P 3S P 5S P", Seat.S, Vulnerability.NS)
    top = choose_call(Hand.parse("T973.J6.KJ7.AKT2"), answer, sbu())  # 12 HCP
    bottom = choose_call(Hand.parse("T973.Q64.KJ7.KT2"), answer, sbu())  # 10 HCP
    assert top.call == Call.parse("6S") and "accepts" in top.reason
    assert bottom.call == PASS and "declines" in bottom.reason
    # After an ace ask of ours five of the trump suit signs off: no try.
    from bidbox.engine.judgement import slam_tries_now
    assert Call.parse("5S") in slam_tries_now(replay(auction, sbu())[1])
    asked = replay(Auction.parse("1S P 3S P 4NT P 5C P"), slam_try())[1]
    assert Call.parse("5S") not in slam_tries_now(asked)


CONTROL_ANSWERS = ('system ctl\n1C hcp 16+ [f1, artificial] "strong"\n'
                   '  1D hcp 0-7 [answer, artificial] "negative"\n'
                   '  1H hcp 8+, controls <=2 [answer, artificial] "positive, 0-2 controls"\n'
                   '  1S hcp 8+, controls 3-4 [answer, artificial] "positive, 3-4 controls"\n'
                   '  1NT hcp 8+, controls 5+ [answer, artificial] "positive, 5+ controls"\n')
"""A strong club whose positive answers tell controls (ace 2, king 1)."""


@pytest.mark.parametrize("answer, aces", [("1H", 1.0), ("1NT", 3.0)])
def test_partners_shown_controls_set_the_odds_of_its_aces(answer: str, aces: float) -> None:
    # Partner's ace count follows from the controls it has shown, not from its share of
    # the points: with 0-2 controls at most one ace, with 5+ opposite our one ace and two
    # kings (the rest: three aces, two kings) most often two or three of the aces.
    from bidbox.engine import judgement as J
    from bidbox.engine.features import HandFeatures
    systems = as_systems(compile_text(CONTROL_ANSWERS))
    _, state = replay(Auction.parse(f"1C P {answer} P"), systems)
    hf = HandFeatures(np.array([Hand.parse("AK32.K32.QJ2.QJ2").suits], dtype=np.int16))
    p = J._prospects(state, hf)
    assert p.partner_controls is not None and p.partner_aces is None
    weights = J._ace_weights(p, hf, np.array([0]))[0]
    assert weights.sum() == pytest.approx(1.0)
    expected = float((weights * np.arange(5)).sum()) - 1.0  # partner's, ours taken away
    if answer == "1H":
        assert weights[3:].sum() == pytest.approx(0.0) and expected < aces
    else:
        assert weights[:2].sum() == pytest.approx(0.0) and expected > 1.5
    # Without a word about controls the odds come from partner's share of the points.
    _, plain = replay(Auction.parse("1C P"), systems)
    assert J._prospects(plain, hf).partner_controls is None


def test_partners_shown_aces_are_read_as_told() -> None:
    from bidbox.engine import judgement as J
    from bidbox.engine.features import HandFeatures
    two_aces = '  2C hcp 8+, aces =2 [answer] "two aces"\n'
    text = CONTROL_ANSWERS.replace('  1D hcp 0-7', two_aces + '  1D hcp 0-7')
    _, state = replay(Auction.parse("1C P 2C P"), as_systems(compile_text(text)))
    hf = HandFeatures(np.array([Hand.parse("AK32.K32.QJ2.QJ2").suits], dtype=np.int16))
    p = J._prospects(state, hf)
    assert p.partner_aces is not None and p.partner_aces[2] == pytest.approx(1.0)
    weights = J._ace_weights(p, hf, np.array([0]))[0]
    assert weights[3] == pytest.approx(1.0)  # our ace and partner's two


STAYMAN = ('1NT hcp 15-17, balanced [opening, nf]\n'
           '  2C hcp 8+ [stayman, artificial, f1] "Stayman"\n'
           '    2D 0-3S, 0-3H [artificial] "no four-card major"\n'
           '      P any [priority -100] "the notes stop here"\n'
           '    2H 4+H [natural] "hearts"\n'
           '    2S 4+S, 0-3H [natural] "spades"\n')
"""Stayman whose notes stop after the denial: the asker must place the contract."""


def test_the_asker_never_leaves_partners_artificial_answer_in() -> None:
    # The catch-all pass after 2D is the notes stopping, not a licence to play 2D: the
    # answer says nothing of diamonds, and the hand that asked places the contract (five
    # diamonds to an 8-count left 2D in before).
    placed = choose_call(Hand.parse("K32.Q32.QJ432.32"), Auction.parse("1NT P 2C P 2D P"),
                         as_systems(compile_text(STAYMAN)))
    assert placed.call != PASS and "may not pass" in placed.reason, placed


def test_stayman_is_not_slam_exploration() -> None:
    # An ask below 3NT finds the strain; the notes' game after it is no slam bar, so a
    # 20-count that found four spades opposite 12-14 looks past 4S (magic-dlight's real
    # board: 4S, 6S makes). An ask from 3NT up, or a key-card ask, explored for slam.
    from bidbox.engine.judgement import _explores
    assert not _explores(Call.parse("2C"), ("ask", "artificial", "f1"))
    assert not _explores(Call.parse("3S"), ("cue", "ask", "artificial"))
    assert _explores(Call.parse("4C"), ("ask", "artificial"))
    assert _explores(Call.parse("2NT"), ("control", "artificial"))
    assert _explores(Call.parse("4NT"), ("blackwood", "artificial"))
    system = compile_text(
        "1NT hcp 12-14, balanced\n"
        "  2C hcp 11+, 4+S [ask, artificial, f1] \"asks for a major\"\n"
        "    2S 4+S [natural]\n"
        "      4S hcp 11+, 4+S [signoff] \"game\"\n"
        "    2D any [artificial, priority -5]\n", "stayman.bbx")
    hand = Hand.parse("AKQ4.3.AQ972.AJ7")
    result = choose_call(hand, Auction.parse("1NT P 2C P 2S P"), as_systems(system))
    assert result.source == "placement" and result.call.is_bid
    assert result.call.level >= 5 or result.call == Call.parse("4NT")
    small = Hand.parse("KQ54.32.Q972.KJ3")  # 11 HCP: the notes' game stands
    result = choose_call(small, Auction.parse("1NT P 2C P 2S P"), as_systems(system))
    assert result.call == Call.parse("4S") and result.source == "system"


def test_a_sacrifice_over_our_forced_game_is_doubled_not_passed_out() -> None:
    # Responder's game force reached 4S; the opponents bid 5D over it and two passes
    # follow: the last of the game-forcing side doubles rather than let them play it
    # undoubled (magic-dlight's real board passed 5D out). Without the game force, or
    # before the two passes, a pass stays a pass.
    system = compile_text(
        "1S hcp 12+, 5+S\n"
        "  2NT hcp 13+, 4+S [gf, artificial] \"game-forcing raise\"\n"
        "    4S any [signoff] \"minimum\"\n"
        "  3S hcp 10-12, 4+S [inv] \"limit raise\"\n"
        "    4S hcp 14+ [signoff] \"accepts\"\n", "gf.bbx")
    systems = as_systems(system)
    flat = Hand.parse("KJ852.Q73.KQ8.J4")  # a minimum: no reason to bid on at the five level
    forced = Auction.parse("P P P 1S P 2NT P 4S 5D P P")
    result = choose_call(flat, forced, systems)
    assert result.call == Call.parse("X") and result.source == "placement"
    assert "sacrificed in 5D" in result.reason
    # partner's direct pass over 5D is the forcing pass: a pass, or a bid, never a double
    direct = choose_call(Hand.parse("KJ843.AQ5.Q7.A95"), Auction.parse("P P P 1S P 2NT P 4S 5D"),
                         systems)
    assert direct.call != Call.parse("X")
    invited = Auction.parse("P P P 1S P 3S P 4S 5D P P")  # no game force: their 5D may stand
    assert choose_call(flat, invited, systems).call != Call.parse("X")


def test_the_notes_slam_try_gives_way_to_an_odds_on_slam() -> None:
    # The notes' 5S asks a 12-14 1NT for a maximum; a 20-count with four trumps and a
    # singleton is past asking (sbu-level1's real board: 5S declined, 6S made). An
    # 18-count that the same try fits still makes it.
    system = compile_text(
        "1NT hcp 12-14, balanced\n"
        "  2C hcp 11+ [ask, artificial, f1] \"asks for a major\"\n"
        "    2S 4+S [natural]\n"
        "      5S hcp 18-20, 4+S [inv] \"slam try\"\n"
        "        6S hcp 14 [signoff] \"maximum\"\n"
        "        P any [priority -100] \"minimum\"\n"
        "    2D any [artificial, priority -5]\n", "try.bbx")
    systems = as_systems(system)
    after = Auction.parse("1NT P 2C P 2S P")
    strong = choose_call(Hand.parse("AKQ4.3.AQ972.AJ7"), after, systems)
    assert strong.call == Call.parse("6S") and strong.source == "placement"
    assert "past the notes' try" in strong.reason
    modest = choose_call(Hand.parse("KQ54.Q32.AQ7.AJ3"), after, systems)
    assert modest.call == Call.parse("5S") and modest.source == "system"


def test_four_of_the_major_in_place_of_the_notes_3nt_still_looks_past_game() -> None:
    # TOSR's relays found partner's 3-4-2-4 opposite seven hearts: the notes' 3NT sign-off
    # becomes 4H for the major fit, and 4H is a game like any other, so the captain with
    # eleven trumps and controls looks past it (real board: 4H, 6H made). A relayer who
    # holds less stays in the game.
    systems = as_systems(load_system("tosr"))
    relays = Auction.parse("1D P 1H P 1S P 1NT P 2D P 2H P 2S P", Seat.S,
                           Vulnerability.parse("ew"))
    result = choose_call(Hand.parse("AJ6.AK98752.K3.J"), relays, systems)
    assert result.source == "placement"
    assert result.call in (Call.parse("6H"), Call.parse("4NT"))
    small = choose_call(Hand.parse("KJ6.AQ98752.Q3.J"), relays, systems)  # 13: game
    assert small.call == Call.parse("4H")


def test_shape_makes_up_for_a_point_in_the_notes_suit_game() -> None:
    # 1H-1S-3S: the notes accept with 8+. A 7-count with five trumps and a doubleton
    # bids the game on shape; the same 7 HCP with four trumps and a flat 4333 does not,
    # nor does a 5-count with the shape (more than SHAPE_POINTS short).
    auction = Auction.parse("1H P 1S P 3S P")
    shaped = choose_call(Hand.parse("KT975.T2.A3.9653"), auction, sbu())
    assert shaped.call == Call.parse("4S") and shaped.source == "placement"
    flat = choose_call(Hand.parse("KT97.T92.A32.965"), auction, sbu())
    assert flat.call == PASS
    weak = choose_call(Hand.parse("QT975.T2.J3.9653"), auction, sbu())
    assert weak.call == PASS


def test_a_weak_hand_rescues_partners_doubled_1nt_a_card_short_of_the_notes() -> None:
    # 1NT X: the notes' weak rescues ask for five cards. With two four-card minors and
    # 4 HCP the hand escapes into one of them rather than leave 1NT doubled in (it had
    # gone four down for 1100); a five-card suit is still the notes' own rescue, and a
    # hand with the points for the notes' redouble is not a rescuer.
    auction = Auction.parse("1NT X", Seat.N, Vulnerability.NS)
    weak = choose_call(Hand.parse("632.Q7.J874.JT83"), auction, sbu())
    assert weak.call in (Call.parse("2C"), Call.parse("2D"))
    assert weak.source == "placement" and "rescue" in weak.reason
    five = choose_call(Hand.parse("632.Q7.J87.JT832"), auction, sbu())
    assert five.call == Call.parse("2C") and five.source == "system"
    strong = choose_call(Hand.parse("A32.Q7.KJ87.QT83"), auction, sbu())
    assert strong.call == Call.parse("XX")
    # Partner reads the rescue as the notes' sign-off: opener passes it.
    after = Auction.parse(f"1NT X {weak.call} P", Seat.N, Vulnerability.NS)
    assert choose_call(Hand.parse("AK54.KJ5.Q32.K54"), after, sbu()).call == PASS


_NEGATIVE = """1S hcp 11+, 5+S [natural, opening]
  (2C)
    X  hcp 8+, 0-3S [negative, artificial] "negative double"
"""


@pytest.mark.parametrize("hand", ["KQJT7.Q.8732.K32", "KQJT7.Q2.Q32.K32"])
def test_partners_negative_double_is_not_left_in_without_their_suit(hand: str) -> None:
    # Three clubs and values looked like a penalty to the trick model: 2C doubled made.
    result = choose_call(Hand.parse(hand), Auction.parse("1S 2C X P"),
                         as_systems(compile_text(_NEGATIVE, "neg.bbx")))
    assert result.source == "placement" and result.call.is_bid


def test_partners_negative_double_may_be_left_in_with_their_suit() -> None:
    result = choose_call(Hand.parse("KQJT7.A2.3.KJT98"), Auction.parse("1S 2C X P"),
                         as_systems(compile_text(_NEGATIVE, "neg.bbx")))
    assert result.call == PASS


def test_shape_adds_tricks_at_every_level_and_flatness_takes_none() -> None:
    from bidbox.engine.estimate import PartnerView
    from bidbox.engine.judgement import _level_shape
    partner = PartnerView(np.array([8.0, 8.0]), 2.0, np.array([[3.0, 3.0, 4.0, 3.0]] * 2),
                          np.array([1.2, 1.2, 1.2, 1.2]))
    own = np.array([[6.0, 2.0, 0.0, 5.0], [5.0, 3.0, 3.0, 2.0]])  # 6-2-0-5; 5-3-3-2
    shift = _level_shape(own, partner)
    assert shift[0, 0] > 0.4  # nine spades with a void and a doubleton on the side
    assert (shift >= 0).all() and shift[:, 4].max() == 0  # nothing off, nothing in NT
    assert shift[1, 0] < shift[0, 0]


def test_a_shapely_balancer_bids_the_game_its_points_alone_do_not() -> None:
    # Real board 5 of ben-friends-daily-2024-07-19: 4S made; on points alone (15 HCP
    # opposite a passed partner) the balancer competed with 2S.
    auction = Auction.parse("1D P P 1S 2D P P", dealer=Seat.N)
    result = choose_call(Hand.parse("AKQJ95.A6..J8653"), auction, sbu())
    assert result.call == Call.parse("4S") and result.source == "placement", result


def test_after_the_answer_the_odds_take_the_residuals_spread(monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    """Partner's 5H shows the two aces we lack: with 21 HCP and seven diamonds opposite a
    1NT with diamond support, the grand is sure enough at the spread the solved deals
    show after the answer, and not at the full modelled one (dealt deal, 7D made): about
    75% against 69% for thirteen tricks, read at a bar between the two."""
    from bidbox.engine import judgement
    monkeypatch.setattr(judgement, "ASKED_GRAND_ODDS", 0.72)
    tosr = as_systems(load_system("tosr"))
    hand, auction = Hand.parse(".KQ84.AK98653.AQ"), Auction.parse("P 1NT 2S 3C P 3D P 4NT P 5H P")
    assert choose_call(hand, auction, tosr).call == Call.parse("7D")
    monkeypatch.setattr(judgement, "ACE_SPREAD", 1.0)
    assert choose_call(hand, auction, tosr).call == Call.parse("6D")


def test_a_grand_after_relays_that_told_every_ace_meets_the_asked_bar(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """TOSR's relays have told partner's controls, so no ace is missing: the grand needs
    the bar it meets after Blackwood, not the blind one (dealt deal, 7C made)."""
    from bidbox.engine import judgement
    tosr = as_systems(load_system("tosr"))
    hand = Hand.parse("6.QT9.AK82.AKQ98")
    auction = Auction.parse("P 1H P 1S P 1NT P 2C P 2D P 2H P 2S P 2NT P 3NT P", Seat.S,
                            Vulnerability.EW)
    grand = choose_call(hand, auction, tosr)
    assert grand.call == Call.parse("7C") and grand.reason.endswith("grand slam")
    monkeypatch.setattr(judgement, "ALL_ACES_TOLD", 1.01)  # never told: the blind bar
    small = choose_call(hand, auction, tosr)
    assert small.call == Call.parse("6C") and small.reason.endswith("small slam")


def test_the_ace_ask_weighs_the_answer_as_the_captain_will_read_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """11 HCP and five hearts opposite Acol's 16-18 raise to 3H: asking is worth it when
    each answer is valued at the spread the captain reads after it (6H made on the dealt
    deal, partner showing the two aces we lack); at the full spread he does not ask."""
    from bidbox.engine import judgement
    auction = Auction.parse("P P 1C P 1H P 3H P", Seat.E, Vulnerability.NONE)
    hand = Hand.parse("AJ53.QT832.A3.64")
    assert choose_call(hand, auction, sbu()).call == Call.parse("4NT")
    monkeypatch.setattr(judgement, "ACE_SPREAD", 1.0)
    # At the full spread it does not ask: it tries for slam with the control bid in
    # diamonds, which costs nothing (4H over a decline), instead.
    assert choose_call(hand, auction, sbu()).call == Call.parse("4D")


# --- control bids: a slam try below game once a major is agreed ---------------------------


def _meaning(system: dict[Side, System], auction: str, dealer: Seat = Seat.N) -> str:
    calls = explain(Auction.parse(auction, dealer, Vulnerability.NONE), system).calls
    return calls[-1].meaning


def test_a_new_suit_at_four_over_partners_three_of_a_major_is_a_control_bid() -> None:
    meaning = _meaning(sbu(), "1NT P 3S P 4D")
    assert "slam try in S" in meaning and "control" in meaning and "none in C" in meaning
    # The opponents in the auction, or our own natural suit not yet agreed: natural.
    assert "slam try" not in _meaning(sbu(), "1NT 2C 3S P 4D")
    assert "slam try" not in _meaning(sbu(), "1H P 1S P 2C P 3S P 4H")


def test_a_relays_answer_in_a_major_agrees_nothing() -> None:
    # TOSR's 3S here shows a minimum (two spades), not spades: 4H stays natural.
    tosr = as_systems(load_system("tosr"))
    assert "slam try" not in _meaning(tosr, "1C P 1NT P 2C P 2S P 2NT P 3D P 3H P 3S P 4H")


def test_the_control_bid_is_made_with_slam_values_and_the_cheapest_control() -> None:
    auction = Auction.parse("1NT P 3S P", Seat.S, Vulnerability.EW)
    tried = choose_call(Hand.parse("7542.AKQ.K3.Q975"), auction, sbu())
    # No club control: 4D, the cheapest suit it controls, and it says it is a try.
    assert tried.call == Call.parse("4D") and "slam try" in tried.reason
    minimum = choose_call(Hand.parse("7542.KQ2.K3.KJ75"), auction, sbu())
    assert minimum.call == Call.parse("4S")


@pytest.mark.parametrize(("hand", "call"), [
    ("AKJT8.Q2.AT76.A2", "4NT"),  # the upper half, and the club control 4D denied
    ("AKJT8.AQ.AT76.82", "4S"),   # as strong, but two small clubs: two quick losers
    ("KJT98.J2.QT76.82", "4S"),   # a minimum
])
def test_partner_goes_on_over_a_control_bid_only_with_values_and_the_denied_control(
        hand: str, call: str) -> None:
    auction = Auction.parse("1NT P 3S P 4D P", Seat.S, Vulnerability.EW)
    assert choose_call(Hand.parse(hand), auction, sbu()).call == Call.parse(call)


def test_an_accepted_control_bid_needs_only_three_aces_after_blackwood() -> None:
    # The estimate alone (partner's 12-14 and no more) would stop in 5S: the try and its
    # acceptance already weighed the slam, and Blackwood only checks the aces.
    auction = Auction.parse("1NT P 3S P 4D P 4NT P 5C P", Seat.S, Vulnerability.EW)
    result = choose_call(Hand.parse("AKJT8.J.AT765.A8"), auction, sbu())
    assert result.call == Call.parse("6S") and "accepted" in result.reason


# --- Penalty doubles by judgement ----------------------------------------------------------

def test_their_sacrifice_is_doubled_where_we_expect_to_beat_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """1S (2H) 2S (4H) 4S: the raise over our game is theirs to play; with three defensive
    tricks outside their trumps and partner's overcall, the defender doubles rather than
    passing, and partner, who overcalled, leaves the double in."""
    from bidbox.core.calls import DOUBLE
    from bidbox.engine import judgement
    from bidbox.engine.bidder import PENALTY_DOUBLE_TEXT
    hand, auction = Hand.parse("AJ5.K4.KQJ3.QT32"), Auction.parse("1S 2H 2S 4H 4S P P")
    result = choose_call(hand, auction, sbu())
    assert result.call == DOUBLE and result.source == "placement", result
    assert "to beat 4S" in result.reason and result.meaning == PENALTY_DOUBLE_TEXT
    partner = choose_call(Hand.parse("Q2.AQT983.72.K54"), Auction.parse("1S 2H 2S 4H 4S P P X P"),
                          sbu())
    assert partner.call == PASS and "doubled them for penalty" in partner.reason
    # The double is made in place of the pass: without it the same hand defends undoubled.
    monkeypatch.setattr(judgement, "PENALTY_SIDES", frozenset())
    assert choose_call(hand, auction, sbu()).call == PASS


def test_only_their_contract_is_doubled_and_only_where_penalty_is_the_default() -> None:
    from bidbox.engine.judgement import _final_looking, _takeout_by_default
    game = replay(Auction.parse("1S 2H 2S 4H 4S P P"), sbu())[1]
    assert _final_looking(game) and not _takeout_by_default(game, 4)
    # (1H) P (2H) P (P): partner has only passed, so a double of 2H is for takeout.
    protect = replay(Auction.parse("1H P 2H P P"), sbu())[1]
    assert _takeout_by_default(protect, 2) and not _final_looking(protect)
    # Stayman in the middle of their auction is no contract to double.
    assert not _final_looking(replay(Auction.parse("1NT P 2C"), sbu())[1])
    # Nor a game a relayer placed: 1C 1NT(relay) ... 4H in TOSR.
    tosr = as_systems(load_system("tosr"))
    assert not _final_looking(replay(Auction.parse("1C P 1S P 1NT P 2C P 2D P 3D P 4H P P"),
                                     tosr)[1])


def test_the_double_is_valued_in_imps_by_their_tricks() -> None:
    from bidbox.engine.judgement import _double_gain
    gain = _double_gain(Call.parse("4S"), True)
    assert gain[8] == 7  # two down vulnerable: 200 undoubled, 500 doubled
    assert gain[9] == 3  # one down: 100 against 200
    assert gain[10] == -5  # made: 620 against 790


def test_the_defence_calibration_moves_our_raw_estimate_of_their_tricks() -> None:
    """The shipped calibration (tools/build_defence_tricks.py): a distribution around the
    fitted mean, which shrinks our raw reading (13 less our tricks) towards theirs."""
    from bidbox.engine.judgement import _defence_model, defence_features, defence_tricks
    state = replay(Auction.parse("1S 2H 2S 4H 4S P P"), sbu())[1]
    ours = trick_distribution(np.array([6.0, 8.0]), np.array([1.2, 1.2]))
    theirs = defence_tricks(state, ours)
    assert np.allclose(theirs.sum(axis=1), 1.0)
    coef, _ = _defence_model()
    fitted = defence_features(state, ours) @ coef
    assert np.allclose(theirs @ np.arange(14), fitted, atol=0.05)
    raw = 13.0 - ours @ np.arange(14)
    assert 0.0 < coef[1] < 1.0  # shrunk: the raw reading was overconfident
    assert fitted[0] - fitted[1] < raw[0] - raw[1]
