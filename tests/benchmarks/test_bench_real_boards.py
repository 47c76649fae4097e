"""The real-board replay (benchmarks/bench_real_boards.py) on a few boards: its figures must
agree with independent computations (the files' own scores, DDS's par, sim.scoring), and
its per-auction checks must flag the auctions they describe.

Only boards that carry their own double-dummy table are used, so no DDS solving is needed
except one full table that checks the par computed from a table.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import numpy as np
import pytest

from bidbox.core import Auction, Call, Seat, Side, Vulnerability
from bidbox.core.calls import PASS
from bidbox.lang import load_system
from bidbox.lang.system import Forcing
from bidbox.sim.double_dummy import full_tables
from bidbox.sim.scoring import best_for_side, contract_class, imps

from .support import load_benchmark

ROOT = Path(__file__).parents[2]
REAL_PBN = ROOT / ".." / "shared" / "data" / "real-pbn"


def bench() -> ModuleType:
    return load_benchmark("bench_real_boards")


@cache
def five_boards() -> list[Any]:
    if not REAL_PBN.is_dir():
        pytest.skip(f"real boards not found at {REAL_PBN} (shared/data beside the checkout)")
    loaded, counts = bench().load_real_boards(REAL_PBN, limit=40)
    assert counts.with_auction >= len(loaded) == 40
    picked = [b for b in loaded if b.tricks is not None][:5]
    assert len(picked) == 5
    return picked


@cache
def replayed() -> Any:
    return bench().replay(five_boards(), load_system("sbu-level1"))


def file_scores() -> dict[str, tuple[int, int]]:
    """Each board's [Score] (NS) and the tricks taken, as the file records them."""
    from endplay.parsers import pbn

    out = {}
    for path in sorted(REAL_PBN.glob("*.pbn"))[:6]:
        for record in pbn.loads(path.read_text(encoding="utf-8")):
            score = record.info.get("Score", "")
            played = record.contract  # endplay keeps [Result] as over/undertricks
            if score.startswith("NS ") and played is not None and played.level:
                out[f"{path.stem}#{record.board_num}"] = (
                    int(score[3:]), played.level + 6 + int(played.result))
    return out


def test_recorded_tables_score_as_the_files_say_when_the_play_was_double_dummy() -> None:
    boards = {b.board_id: b for b in five_boards()}
    checked = 0
    for row in replayed().boards:
        board = boards[row.board_id]
        recorded = file_scores().get(row.board_id)
        contract = board.contract
        if recorded is None or contract is None:
            continue
        score, result = recorded
        if int(board.tricks[int(contract.strain), int(contract.declarer)]) == result:
            assert row.recorded_ns == score, row.board_id
            checked += 1
    assert checked >= 1, "no board whose play took the double-dummy tricks"


def test_par_is_dds_par_and_lies_between_what_each_side_scores_alone() -> None:
    boards = five_boards()
    tricks, pars = full_tables([b.deal for b in boards[:1]], [b.dealer for b in boards[:1]],
                               [b.vul for b in boards[:1]])
    assert pars is not None
    assert np.array_equal(tricks[0], boards[0].tricks)  # the file's table is DDS's
    assert bench().board_par(boards[0].tricks, boards[0].dealer, boards[0].vul)[0] == (
        pars[0].ns_score)
    for board, row in zip(boards, replayed().boards, strict=True):
        ns_alone = best_for_side(board.tricks, Side.NS, board.vul).score
        ew_alone = best_for_side(board.tricks, Side.EW, board.vul).score
        assert -ew_alone <= row.par <= ns_alone, row.board_id


def test_gap_sources_and_summary_are_coherent() -> None:
    run = replayed()
    rows = run.boards
    assert [r.board_id for r in rows] == [b.board_id for b in five_boards()]
    for r in rows:
        assert r.auction.is_ended and r.contract == r.auction.contract
        bidbox_loss = -abs(imps(r.ns - r.par))
        recorded_loss = -abs(imps(r.recorded_ns - r.par))
        assert r.gap == bidbox_loss - recorded_loss, r.board_id
        assert sum(r.sources.values()) == len(r.auction.calls)
        assert r.agrees == (r.batch_auction.calls == r.auction.calls)
    summary = bench().summarize(run)
    gaps = [r.gap for r in rows]
    assert summary["boards"] == 5
    assert summary["par_gap"]["mean"] == pytest.approx(float(np.mean(gaps)))
    lo, hi = summary["par_gap"]["ci95"]
    assert lo <= summary["par_gap"]["mean"] <= hi
    assert sum(summary["call_sources"].values()) == pytest.approx(1.0)
    assert summary["calls"] == sum(len(r.auction.calls) for r in rows)
    games = sum(r.contract is not None and contract_class(r.contract) != "partscore"
                for r in rows)
    assert summary["games"]["bidbox"] == games
    for who, contract, ns in (("bidbox", "contract", "ns"),
                              ("recorded", "recorded_contract", "recorded_ns")):
        slams = [r for r in rows if getattr(r, contract) is not None
                 and getattr(r, contract).level >= 6]
        made = [r for r in slams if (getattr(r, ns) if getattr(r, contract).declarer.side
                                     is Side.NS else -getattr(r, ns)) > 0]
        assert summary["slams_made"][who] == len(made) <= summary["slams"][who]
    assert summary["batch_disagreements"] == sum(not r.agrees for r in rows)
    worst = bench().worst(run, 3)
    assert [r.gap for r in worst] == sorted(gaps)[:3]
    lines = bench().report_lines([summary])
    assert any(line.startswith("par gap") for line in lines)


def fake(call: str, forcing: Forcing | None = None, fallback: bool = False,
         artificial: bool = False) -> Any:
    """A stand-in for BidResult with just what the checks read (no 'source': the old form)."""
    entry = None if fallback else SimpleNamespace(is_artificial=artificial)
    return SimpleNamespace(call=Call.parse(call), entry=entry, forcing=forcing,
                           fallback=fallback)


def test_the_auction_checks_flag_what_they_describe() -> None:
    b = bench()
    gf = Forcing.GAME_FORCING
    # N 2C game forcing, then N-S stop in 2NT: the force is dropped...
    auction = Auction.parse("2C P 2D P 2NT P P P", Seat.N, Vulnerability.NONE)
    calls = [fake("2C", gf), fake("P", fallback=True), fake("2D", artificial=True),
             fake("P", fallback=True), fake("2NT"), fake("P", fallback=True), fake("P"),
             fake("P", fallback=True)]
    assert b.game_force_dropped(auction, calls)
    # ...unless they reach game, or a penalty double of the final contract is passed.
    game = Auction.parse("2C P 2D P 3NT P P P", Seat.N, Vulnerability.NONE)
    assert not b.game_force_dropped(game, calls)
    doubled = Auction.parse("2C P 2D P 2NT X P P P", Seat.N, Vulnerability.NONE)
    assert not b.game_force_dropped(doubled, [*calls[:5], fake("X"), *calls[5:]])
    assert not b.game_force_dropped(auction, [fake(str(c)) for c in auction.calls])
    # E's fallback passes come over North's bids; the first pass (before any bid) is not.
    assert b.fallback_pass_over_bid(auction, calls)
    quiet = [fake(str(c), fallback=str(c) == "P" and i == 0)
             for i, c in enumerate(Auction.parse("P 1H P P P", Seat.N).calls)]
    assert not b.fallback_pass_over_bid(Auction.parse("P 1H P P P", Seat.N), quiet)
    # The final contract is the 2D bid only if 2D was the last bid.
    relay_end = Auction.parse("2C P 2D P P P", Seat.N)
    assert b.artificial_final(relay_end, calls[:3] + [fake("P")] * 3)
    assert not b.artificial_final(auction, calls)
    # Who left it in: a pass the notes list is theirs; one judgement made alone is not.
    notes_pass = calls[:3] + [fake("P")] * 3
    assert b.artificial_left_by(relay_end, notes_pass) == "system"
    judged = SimpleNamespace(call=PASS, entry=None, forcing=None, fallback=False,
                             source="placement")
    assert b.artificial_left_by(relay_end, [*calls[:3], fake("P"), judged, fake("P")]) \
        == "placement"
    # The notes' catch-all pass taken by judgement is judgement's, not the notes' answer.
    catch_all = SimpleNamespace(call=PASS, entry=SimpleNamespace(is_default_pass=True),
                                forcing=None, fallback=True, source="placement")
    assert b.artificial_left_by(relay_end, [*calls[:3], fake("P"), catch_all, fake("P")]) \
        == "placement"
    assert b.artificial_left_by(auction, calls) == ""
    # A pass-or-correct bid left in by the pass the notes write for it is partner's
    # suit, not an artificial contract; left in by judgement's catch-all pass it is.
    poc = SimpleNamespace(call=Call.parse("3D"), forcing=Forcing.PASS_OR_CORRECT,
                          fallback=False,
                          entry=SimpleNamespace(is_artificial=True))
    brown = Auction.parse("2NT P 3D P P P", Seat.N)
    opener = [fake("2NT", artificial=True), fake("P"), poc, fake("P")]
    assert not b.artificial_final(brown, [*opener, fake("P"), fake("P")])
    assert b.artificial_final(brown, [*opener, catch_all, fake("P")])
    assert [b.call_source(c) for c in calls[:2]] == ["system", "fallback"]
    assert b.call_source(SimpleNamespace(source="placement", fallback=False)) == "placement"


def test_tosr_non_forcing_relay_passed_with_its_suit_is_not_artificial() -> None:
    # Real board 06-22#5: 2S (here the weak hand with six clubs), 3C the non-forcing
    # relay, which opener passes holding the clubs: the notes' pass-or-correct, a known
    # fit of eight, not a relay left in.
    from bidbox.core.hand import Hand
    from bidbox.engine import as_systems, bid_deal
    b = bench()
    hands = {Seat.N: Hand.parse("5.QT962.QJ7642.4"), Seat.E: Hand.parse("K2.87.K93.QJT976"),
             Seat.S: Hand.parse("AT96.AKJ.T8.K853"), Seat.W: Hand.parse("QJ8743.543.A5.A2")}
    auction, results = bid_deal(hands, as_systems(load_system("tosr")), Seat.N,
                                Vulnerability.NS)
    assert str(auction) == "P 2S P 3C P P P"
    assert results[3].forcing is Forcing.PASS_OR_CORRECT
    assert not b.artificial_final(auction, results)
    assert b.artificial_left_by(auction, results) == ""


def test_an_artificial_final_in_a_suit_nobody_showed_is_told_apart() -> None:
    # 1C that says nothing of clubs, passed out: the strain is a guess. The same call
    # when partner's pass promises four clubs beside opener's three: a known fit.
    from bidbox.engine import as_systems
    from bidbox.lang import compile_text
    b = bench()
    auction = Auction.parse("1C P P P", Seat.N)
    calls = [fake("1C", artificial=True)] + [fake("P")] * 3
    short = as_systems(compile_text('1C hcp 12+ [artificial, opening] "any 12+"\n'
                                    '  P any [signoff] "weak"\n'))
    assert b.artificial_unshown(auction, calls, short)
    shown = as_systems(compile_text('1C hcp 12+, 3+C [artificial, opening] "12+, 3+C"\n'
                                    '  P 4+C [signoff] "weak with clubs"\n'))
    assert not b.artificial_unshown(auction, calls, shown)
    # A final contract in no-trump names its strain, and a natural one is not counted.
    no_trump = Auction.parse("1NT P P P", Seat.N)
    assert not b.artificial_unshown(no_trump, [fake("1NT", artificial=True)] + [fake("P")] * 3,
                                    short)
    assert not b.artificial_unshown(auction, [fake("1C")] + [fake("P")] * 3, short)


def test_a_slam_makes_when_the_side_that_plays_it_scores() -> None:
    ours = Auction.parse("6S P P P", Seat.N, Vulnerability.NONE).contract
    theirs = Auction.parse("P 6H P P P", Seat.N, Vulnerability.NONE).contract
    assert bench().makes(ours, 980) and not bench().makes(ours, -50)
    assert bench().makes(theirs, -980) and not bench().makes(theirs, 50)
    assert not bench().makes(None, 0)


def test_lin_files_are_read_beside_pbn_ones(tmp_path: Path) -> None:
    """A vugraph LIN file (both rooms of a match, as world-championship records come) is
    read as boards like a PBN file: the same deal, dealer, vulnerability and recorded
    auction as the PBN record it was written from, one board per room, and no trick
    table (LIN has none: DDS solves it)."""
    from endplay.types import ContractBid

    from bidbox.formats.pbn import read_boards

    if not REAL_PBN.is_dir():
        pytest.skip(f"real boards not found at {REAL_PBN}")
    source = sorted(REAL_PBN.glob("*.pbn"))[0]
    from_pbn, _ = bench().load_real_boards(REAL_PBN, limit=4)
    lines = ["vg|test,1,I,1,4,A,0,B,0|", "pn|s1,w1,n1,e1,s2,w2,n2,e2|pg||"]
    for k, record in enumerate(read_boards(source)[:4]):
        calls = "".join(
            f"mb|{c.level}{'CDHSN'[(3, 2, 1, 0, 4).index(int(c.denom))]}|"
            if isinstance(c, ContractBid) else f"mb|{ {1: 'p', 2: 'd', 4: 'r'}[int(c.penalty)]}|"
            for c in record.auction)
        lines.append(f"qx|{'oc'[k % 2]}{record.board_num}|md|"
                     f"{record.deal.to_lin(record.dealer)}|sv|{record.vul.to_lin()}|"
                     f"nt|a word from the commentator|{calls}pg||")
    (tmp_path / "match.lin").write_text("\n".join(lines) + "\n", encoding="utf-8")
    from_lin, counts = bench().load_real_boards(tmp_path)
    assert counts.files == 1 and counts.with_auction == len(from_lin) == len(from_pbn) == 4
    for a, b in zip(from_pbn, from_lin, strict=True):
        assert (a.deal, a.dealer, a.vul, a.recorded, a.contract) == (
            b.deal, b.dealer, b.vul, b.recorded, b.contract)
        assert b.tricks is None and b.place.startswith(f"{tmp_path / 'match.lin'}:")
    assert from_lin[1].board_id == f"match#c{from_pbn[1].board_id.split('#')[1]}"


def test_unreadable_boards_and_files_are_left_out_and_named(tmp_path: Path) -> None:
    """Thousands of boards from other programs hold a few that cannot be read; the replay
    leaves each out with its place and reason instead of stopping: a board whose recorded
    auction is not legal, and a file that is not a board file at all."""
    if not REAL_PBN.is_dir():
        pytest.skip(f"real boards not found at {REAL_PBN}")
    source = sorted(REAL_PBN.glob("*.pbn"))[0]
    good, _ = bench().load_real_boards(REAL_PBN, limit=1)
    text = source.read_text(encoding="utf-8")
    start = text.index("[Auction")
    body = text[start:text.index("\n[", start + 1)]
    broken = text.replace(body, '[Auction "N"]\n1S\tPass\t1C\tPass', 1)  # insufficient
    second = broken.index('[Deal "', start + 1)  # the next board's deal
    deal = broken[second:broken.index("]", second)]
    broken = broken.replace(deal, deal.rsplit(" ", 1)[0] + ' -"', 1)  # a hand unknown
    (tmp_path / "a.pbn").write_text(broken, encoding="utf-8")
    (tmp_path / "b.lin").write_text("not a lin file\n", encoding="utf-8")
    loaded, counts = bench().load_real_boards(tmp_path)
    assert counts.files == 2 and len(counts.skipped) == 3
    no_deal, first_board, whole_file = counts.skipped
    assert first_board.startswith(f"{tmp_path / 'a.pbn'}:") and "auction" in first_board
    assert no_deal.startswith(f"{tmp_path / 'a.pbn'}:") and "52 cards" in no_deal
    assert whole_file.startswith(f"{tmp_path / 'b.lin'}:1: ")  # named once, with its line
    assert whole_file.count(str(tmp_path / "b.lin")) == 1
    assert whole_file.endswith("(the whole file left out)")
    assert good[0].board_id not in {b.board_id for b in loaded}
    assert len(loaded) == counts.with_auction - 1  # every other board of the file
    assert counts.boards == text.count('[Deal "')  # the boards left out counted too


def test_a_board_played_at_several_tables_keeps_one_id_each(tmp_path: Path) -> None:
    """A traveller (one board number at several tables of a file) and two files of one
    name (.pbn and .lin) gave boards the same id, so the per-board report merged them;
    every repeat is told apart as ``id/2``, ``id/3``. LIN calls padded with spaces and a
    ten written 10 are read too."""
    deal = "3S3456H567D567C5610,S2H234JD234JC24JQ,SJQKAHQKADQKAC3KA,"
    table = ("pn|a,b,c,d|md|{deal}|ah|Board 5|sv|n|mb| 1C |mb|p|mb|1S|mb|p|mb|3N|"
             "mb|p|mb|p|mb|p|pg||\n")
    (tmp_path / "five.lin").write_text(table.format(deal=deal) * 3, encoding="utf-8")
    boards, counts = bench().load_real_boards(tmp_path)
    assert not counts.skipped
    assert [b.board_id for b in boards] == ["five#5", "five#5/2", "five#5/3"]
    assert str(boards[0].recorded).startswith("1C P 1S P 3NT")
    assert boards[0].deal.split()[0] == "N:AKQJ.AKQ.AKQ.AK3"  # LIN: South first, then W, N


def test_other_programs_spellings_give_the_same_boards(tmp_path: Path) -> None:
    """One real file rewritten as other programs write PBN (latin-1 with CRLF, the
    vulnerability as Love/Both/N-S, tens as 10, comments among the calls, the auction
    table started at North with '-' for no call) replays as the same boards: deal, dealer,
    vulnerability, recorded auction, contract and trick table."""
    import re

    if not REAL_PBN.is_dir():
        pytest.skip(f"real boards not found at {REAL_PBN}")
    source = sorted(REAL_PBN.glob("*.pbn"))[1]
    text = source.read_text(encoding="utf-8")
    names = {"None": "Love", "All": "Both", "Both": "all", "NS": "n-s", "EW": "E-W"}
    text = re.sub(r'\[Vulnerable "(\w+)"\]', lambda m: f'[Vulnerable "{names[m.group(1)]}"]',
                  text)
    text = re.sub(r'\[Deal "[^"]*"\]', lambda m: m.group(0).replace("T", "10"), text)

    def table_from_north(m: re.Match[str]) -> str:
        seat, calls = m.group(1), m.group(2)
        dashes = "- " * "NESW".index(seat)
        return f'[Auction "N"]\n{dashes}{{bidding:}} {calls.replace(chr(10), " ; x" + chr(10), 1)}'

    text = re.sub(r'\[Auction "([NESW])"\]\n([^\[]*)', table_from_north, text)
    assert "{bidding:}" in text and "- " in text and "10" in text and "Love" in text
    (tmp_path / "other.pbn").write_bytes(text.replace("\n", "\r\n").encode("latin-1",
                                                                          "replace"))
    (tmp_path / "same.pbn").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    boards, counts = bench().load_real_boards(tmp_path)
    assert not counts.skipped and len(boards) % 2 == 0 and boards
    half = len(boards) // 2
    for a, b in zip(boards[:half], boards[half:], strict=True):
        assert a.board_id.replace("other#", "same#") == b.board_id
        assert (a.deal, a.dealer, a.vul, a.recorded, a.contract) == (
            b.deal, b.dealer, b.vul, b.recorded, b.contract), a.board_id
        assert (a.tricks is None and b.tricks is None) or (a.tricks == b.tricks).all()
