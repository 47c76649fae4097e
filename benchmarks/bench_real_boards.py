"""Real-board replay: bidbox's tables against the recorded tables of real BBO boards.

Every board of ``../shared/data/real-pbn/*.pbn`` that has a recorded ``[Auction]`` (or of
the PBN and LIN files, vugraph records of both rooms included, of ``--boards DIR``) is bid
again by a bidbox system at all four seats (the same system for both sides), with the
board's own dealer and vulnerability. Both tables, bidbox's and the recorded one, are
scored double dummy on the same trick table, so card play does not enter the comparison.

Double-dummy tables: a board's ``[OptimumResultTable]`` is trusted (tests/sim checks such
tables against DDS); boards without one are solved with DDS (``full_tables``) once and
kept in a cache file keyed by the deal, so later runs need no DDS at all.

Par gap, per board. Par is North-South's double-dummy par score (endplay's ``par`` on the
board's table, with its dealer and vulnerability). Because bidbox sits on both sides, a
table's NS score seen from NS is not a performance of "bidbox": a table is judged by how
far from par it ended, whichever way. So a table's loss to par is ``-|imps(ns - par)|``
(0 at best), and the gap is ``bidbox's loss - the recorded table's loss``: negative means
bidbox ended further from par than the people and robots did. The mean gap is reported
with a 95% interval (normal approximation, ``sim.report.confidence_interval``).

Other figures, per system (definitions, because each is a choice):
- game / slam: final contracts at game level or higher (3NT, 4H, 4S, 5C, 5D and up, slams
  included) / at the six or seven level, by either side; and how many of those slams
  make double dummy (the score of the side that plays it is positive);
- calls by source: ``BidResult.source`` when the engine has it, else ``fallback`` when the
  call was the fallback's and ``system`` otherwise; shares of every call of every auction;
- fallback pass over the opponents' bid: auctions where a fallback pass was made while
  the last bid so far was the other side's;
- final contract in an artificial call: the bid that became the contract was made by a
  system entry that is artificial (``CallEntry.is_artificial``: relay, transfer, ...),
  unless it was a pass-or-correct bid that partner passed as the notes say (his suit);
  split by who left it in, the source of the call partner of its bidder made next: the
  notes (a pass they write for it: "plays the 3NT answer", a non-forcing relay passed
  with the suit it offers), the base, or judgement (the placement, the catch-all pass
  included; the issue's "never");
- game force dropped: auctions in which a side made a game-forcing call and did not end
  declaring a game, unless the final contract was doubled (a penalty double passed);
- one-hand against batch: each deal is also bid by ``bid_batch`` and the two auctions are
  compared; a disagreement is reported, not raised.

The bidding times are wall times of the one-hand path (``bid_deal`` per board) and of the
batch path (``bid_batch`` per dealer and vulnerability group), measured in the same run.

    python benchmarks/bench_real_boards.py [--system NAME ...] [--limit N] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bidbox.core.auction import Auction, Contract
from bidbox.core.calls import CallKind, Strain
from bidbox.core.hand import Hand
from bidbox.core.seats import Seat, Side, Vulnerability
from bidbox.engine import BidResult, as_systems, bid_batch, bid_deal
from bidbox.engine.estimate import SHOWN_FIT, estimate_seats, side_shown_length
from bidbox.engine.walk import replay as walk_replay
from bidbox.errors import BidboxError, plain_reason
from bidbox.evaluate.dealer import DealBatch
from bidbox.lang import System, load_system
from bidbox.lang.loader import shipped_systems
from bidbox.lang.system import Forcing
from bidbox.sim.deals import from_endplay_vul, read_pbn_boards, to_endplay_vul
from bidbox.sim.double_dummy import _contract_text, full_tables
from bidbox.sim.report import confidence_interval
from bidbox.sim.scoring import contract_class, imps, ns_score

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_BOARDS = ROOT.parent / "shared" / "data" / "real-pbn"
SOURCES = ("system", "base", "placement", "fallback")
WORST = 10
SKIPPED_SHOWN = 5


def default_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "bidbox" / "real-boards-dd.json"


class ReplayError(BidboxError):
    """Boards or a cache that the replay cannot use; the message names the place."""


# --- the boards ---------------------------------------------------------------------------
@dataclass(frozen=True)
class RealBoard:
    """One recorded board: the deal as bidbox reads it, the recorded table, the DD table."""

    board_id: str  # 'file-stem#7'
    place: str  # 'path:line' for messages
    masks: npt.NDArray[np.int16]  # (4 seats, 4 suits) as in DealBatch
    dealer: Seat
    vul: Vulnerability
    deal: str  # PBN, North first
    recorded: Auction
    contract: Contract | None
    tricks: npt.NDArray[np.int64] | None  # (5 strains, 4 seats), bidbox order; None: unknown

    def hands(self) -> dict[Seat, Hand]:
        out = {}
        for seat in Seat:
            s, h, d, c = (int(m) for m in self.masks[int(seat)])
            out[seat] = Hand((s, h, d, c))
        return out


@dataclass
class LoadCounts:
    files: int = 0
    boards: int = 0
    with_auction: int = 0
    with_table: int = 0  # boards used that have an [OptimumResultTable]
    skipped: list[str] = field(default_factory=list)
    """Boards (or whole files) that could not be read, as 'place: why'. Thousands of
    boards from other programs hold a few a reader cannot take (a call out of turn, a
    deal of 51 cards); they are reported and left out, not allowed to stop the run."""


def _recorded_auction(board: Any, dealer: Seat, vul: Vulnerability, where: str) -> Auction:
    """The recorded auction in bidbox's form (endplay's bids turned into call text)."""
    from endplay.types import ContractBid, Penalty

    tokens = []
    for call in board.auction:
        if isinstance(call, ContractBid):
            strain = Strain.NT if int(call.denom) == 4 else Strain(3 - int(call.denom))
            tokens.append(f"{call.level}{strain}")
        else:
            tokens.append({Penalty.passed: "P", Penalty.doubled: "X",
                           Penalty.redoubled: "XX"}[call.penalty])
    try:
        return Auction.parse(" ".join(tokens), dealer, vul)
    except BidboxError as err:
        raise ReplayError(f"{where}: the recorded auction cannot be read: {err}") from None


def _tag_contract(board: Any) -> Contract | None:
    """The [Contract]/[Declarer] tags as a contract (None for a passed-out board)."""
    tag = board.contract
    if tag is None or not tag.level:
        return None
    strain = Strain.NT if int(tag.denom) == 4 else Strain(3 - int(tag.denom))
    doubled = {1: 0, 2: 1, 4: 2}[int(tag.penalty)]
    return Contract(int(tag.level), strain, doubled, Seat(int(tag.declarer)))


def _table(board: Any, where: str) -> npt.NDArray[np.int64] | None:
    rows = (board.info.get("OptimumResultTable") or {}).get("rows") or []
    table = np.full((5, 4), -1, dtype=np.int64)
    for row in rows:
        try:
            declarer, strain, tricks = row
            table[int(Strain.parse(strain)), int(Seat.parse(declarer))] = int(tricks)
        except (BidboxError, ValueError, TypeError):
            raise ReplayError(f"{where}: cannot read the [OptimumResultTable] row "
                              f"{' '.join(map(str, row))!r}") from None
    if (table < 0).any() or (table > 13).any():
        return None  # incomplete: solved by DDS instead
    return table


def load_real_boards(directory: Path, limit: int | None = None
                     ) -> tuple[list[RealBoard], LoadCounts]:
    """Every board with a recorded auction in the PBN and LIN files of ``directory``
    (name order).

    PBN: ``sim.deals.read_pbn_boards`` reads the file once: the deal, dealer and
    vulnerability, and endplay's board records for the auction and the trick table. LIN (a
    BBO hand record or a vugraph file, both rooms): all from ``formats.pbn``'s reader;
    LIN has no trick table, so DDS solves them.
    """

    paths = sorted(p for p in directory.iterdir()
                   if p.is_file() and p.suffix.lower() in (".pbn", ".lin"))
    if not paths:
        raise ReplayError(f"no .pbn or .lin files in '{directory}' (the real boards live "
                          "in shared/data/real-pbn beside the checkout; see --boards)")
    counts = LoadCounts(files=len(paths))
    out: list[RealBoard] = []
    for path in paths:
        try:
            if path.suffix.lower() == ".lin":
                _load_lin(path, limit, counts, out)
            else:
                _load_pbn(path, limit, counts, out)
        except BidboxError as err:  # the message usually names the file, perhaps a line
            named = str(err).startswith(str(path))
            counts.skipped.append(f"{err} (the whole file left out)" if named
                                  else f"{path}: {err} (the whole file left out)")
        except Exception as err:  # endplay raises many kinds for bad input
            counts.skipped.append(f"{path}: the whole file: {plain_reason(err)}")
    return _unique_ids(out), counts


def _unique_ids(boards: list[RealBoard]) -> list[RealBoard]:
    """The boards, a repeated id (a board number played at several tables of one file, or
    two files with the same name, .pbn and .lin) told apart as ``id/2``, ``id/3``."""
    seen: Counter[str] = Counter()
    out = []
    for board in boards:
        seen[board.board_id] += 1
        if seen[board.board_id] > 1:
            board = replace(board, board_id=f"{board.board_id}/{seen[board.board_id]}")
        out.append(board)
    return out


def _load_pbn(path: Path, limit: int | None, counts: LoadCounts, out: list[RealBoard]
              ) -> None:
    """The boards of one PBN file with a recorded auction, appended to ``out``."""
    bad: list[tuple[int, str]] = []
    records: list[Any] = []  # endplay's boards of the rows read: auctions and tables
    ours = read_pbn_boards(path, skipped=bad, records=records)  # bad boards left out
    counts.boards += len(ours) + len(bad)
    counts.skipped += [why for _, why in bad]
    for row, record in enumerate(records):
        where = ours.place(row)
        if not record.auction:
            continue
        counts.with_auction += 1
        if limit is not None and len(out) >= limit:
            continue  # keep counting the files' boards
        dealer, vul = ours.dealer(row), ours.vul(row)
        try:
            recorded = _recorded_auction(record, dealer, vul, where)
            tricks = _table(record, where)
        except ReplayError as err:
            counts.skipped.append(str(err))
            continue
        contract = recorded.contract if recorded.is_ended else _tag_contract(record)
        counts.with_table += tricks is not None  # of the boards used
        out.append(RealBoard(f"{path.stem}#{int(ours.numbers[row])}", where,
                             ours.masks[row].copy(), dealer, vul, ours.pbn(row),
                             recorded, contract, tricks))


def _load_lin(path: Path, limit: int | None, counts: LoadCounts, out: list[RealBoard]
              ) -> None:
    """The boards of one LIN file with a recorded auction, appended to ``out``."""
    from bidbox.formats.pbn import read_lin_boards

    for cut, record in read_lin_boards(path, play=False):  # the auctions are enough
        counts.boards += 1
        where = f"{path}:{cut.line}" + (f" (board {cut.label})" if cut.label else "")
        if not record.auction:
            continue
        counts.with_auction += 1
        if limit is not None and len(out) >= limit:
            continue
        if record.vul is None:  # no sv| and no board number to take it from
            counts.skipped.append(f"{where}: the board has no vulnerability")
            continue
        dealer, vul = Seat(int(record.dealer)), from_endplay_vul(record.vul)
        hands = [Hand.from_endplay(record.deal[seat.to_endplay()]) for seat in Seat]
        masks = np.array([h.suits for h in hands], dtype=np.int16)
        deal = "N:" + " ".join(h.pbn() for h in hands)
        try:
            recorded = _recorded_auction(record, dealer, vul, where)
        except ReplayError as err:
            counts.skipped.append(str(err))
            continue
        contract = recorded.contract if recorded.is_ended else _tag_contract(record)
        label = cut.label or str(record.board_num or len(out) + 1)
        out.append(RealBoard(f"{path.stem}#{label}", where, masks, dealer, vul, deal,
                             recorded, contract, None))


def fill_tables(boards: Sequence[RealBoard], cache: Path | None
                ) -> tuple[list[RealBoard], int]:
    """The boards with every trick table known: from the cache, else solved by DDS.

    Returns the boards and how many tables DDS solved now. The cache maps a deal (PBN) to
    its table, so it cannot go stale: the deal fixes the table.
    """
    known: dict[str, list[list[int]]] = {}
    if cache is not None and cache.exists():
        try:
            known = json.loads(cache.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise ReplayError(f"cannot read the DD cache '{cache}': {err} (delete it or "
                              "pass --no-dd-cache)") from None
    missing = [b for b in boards if b.tricks is None and b.deal not in known]
    if missing:
        tricks, pars = full_tables([b.deal for b in missing], [b.dealer for b in missing],
                                   [b.vul for b in missing])
        assert pars is not None
        for k, board in enumerate(missing):
            known[board.deal] = tricks[k].tolist()
            # The par computed here from the table must be the one DDS computed itself.
            mine = board_par(tricks[k], board.dealer, board.vul)[0]
            if mine != pars[k].ns_score:
                raise ReplayError(f"{board.place}: par from the table {mine} differs from "
                                  f"DDS's {pars[k].ns_score}")
        if cache is not None:
            cache.parent.mkdir(parents=True, exist_ok=True)
            cache.write_text(json.dumps(known), encoding="utf-8")
    out = []
    for board in boards:
        if board.tricks is None:
            table = np.array(known[board.deal], dtype=np.int64)
            if table.shape != (5, 4) or (table < 0).any() or (table > 13).any():
                raise ReplayError(f"the DD cache '{cache}' has a bad table for "
                                  f"{board.place}; delete the cache")
            board = RealBoard(board.board_id, board.place, board.masks, board.dealer,
                              board.vul, board.deal, board.recorded, board.contract, table)
        out.append(board)
    return out, len(missing)


def board_par(tricks: npt.NDArray[np.int64], dealer: Seat, vul: Vulnerability
              ) -> tuple[int, str]:
    """North-South's par score and the par contracts, from a trick table (no solving).

    endplay's ``par`` accepts a table in place of a deal; its table type wraps DDS's
    result struct, so the struct is filled from the array (endplay order: S H D C NT).
    """
    import endplay._dds as dds
    from endplay.dds import par
    from endplay.dds.ddtable import DDTable
    from endplay.types import Player

    data = dds.ddTableResults()
    for strain in Strain:
        for seat in Seat:
            data.resTable[int(strain.to_endplay())][int(seat)] = int(
                tricks[int(strain), int(seat)])
    result = par(DDTable(data), to_endplay_vul(vul), Player(int(dealer)))
    return int(result.score), " ".join(sorted({_contract_text(c) for c in result}))


# --- one system over the boards ---------------------------------------------------------------
def is_game(contract: Contract | None) -> bool:
    return contract is not None and contract_class(contract) != "partscore"


def is_slam(contract: Contract | None) -> bool:
    return contract is not None and contract.level >= 6


def makes(contract: Contract | None, ns: int) -> bool:
    """Whether a contract makes, from the double-dummy score of the side that plays it."""
    if contract is None:
        return False
    return (ns if contract.declarer.side is Side.NS else -ns) > 0


def call_source(result: BidResult) -> str:
    """Who decided a call: the engine's ``source`` when it has one, else by ``fallback``."""
    source = getattr(result, "source", None)
    if source is None:
        return "fallback" if result.fallback else "system"
    return str(source)


def dd_ns_score(contract: Contract | None, tricks: npt.NDArray[np.int64],
                vul: Vulnerability) -> int:
    took = None if contract is None else int(tricks[int(contract.strain),
                                                    int(contract.declarer)])
    return ns_score(contract, took, vul)


def loss_to_par(score: int, par: int) -> int:
    """A table's distance from par in IMPs, as a loss (0 at best, negative otherwise)."""
    return -abs(imps(score - par))


@dataclass(frozen=True)
class BoardReplay:
    board_id: str
    dealer: Seat
    vul: Vulnerability
    auction: Auction
    contract: Contract | None
    ns: int
    recorded: Auction
    recorded_contract: Contract | None
    recorded_ns: int
    par: int
    par_contracts: str
    gap: int
    sources: Counter[str]
    fallback_pass_over_bid: bool
    artificial_final: bool
    game_force_dropped: bool
    batch_auction: Auction
    artificial_left_by: str = ""  # the source of the pass that left it in; "" if natural
    artificial_unshown: bool = False  # artificial final in a suit the side has not shown

    @property
    def agrees(self) -> bool:
        return self.batch_auction.calls == self.auction.calls

    def to_json(self) -> dict[str, Any]:
        return {"board": self.board_id, "dealer": str(self.dealer), "vul": str(self.vul),
                "auction": str(self.auction), "contract": _contract_str(self.contract),
                "ns": self.ns, "recorded_auction": str(self.recorded),
                "recorded_contract": _contract_str(self.recorded_contract),
                "recorded_ns": self.recorded_ns, "par": self.par,
                "par_contracts": self.par_contracts, "gap": self.gap,
                "sources": dict(self.sources),
                "fallback_pass_over_bid": self.fallback_pass_over_bid,
                "artificial_final": self.artificial_final,
                "artificial_left_by": self.artificial_left_by,
                "artificial_final_unshown": self.artificial_unshown,
                "game_force_dropped": self.game_force_dropped,
                "batch_auction": str(self.batch_auction)}


@dataclass
class SystemReplay:
    system: str
    boards: list[BoardReplay] = field(default_factory=list)
    one_hand_seconds: float = 0.0
    batch_seconds: float = 0.0


def _contract_str(contract: Contract | None) -> str:
    return "pass" if contract is None else f"{contract}{contract.declarer}"


def fallback_pass_over_bid(auction: Auction, results: Sequence[BidResult]) -> bool:
    """Whether someone made a fallback pass while the opponents held the last bid."""
    for i, result in enumerate(results):
        if result.call.kind is not CallKind.PASS or call_source(result) != "fallback":
            continue
        before = Auction(auction.dealer, auction.vul, auction.calls[:i])
        last = before.last_bid_index()
        if last >= 0 and before.seat_of(last).side is not auction.seat_of(i).side:
            return True
    return False


def artificial_final(auction: Auction, results: Sequence[BidResult]) -> bool:
    """Whether the bid that became the final contract was an artificial system call.

    A pass-or-correct bid (``[poc]``: Brown's 2NT-3D, "diamonds if you have the
    minors") that its bidder's partner passes with a pass the notes write for it is not
    one: the pass says "this is my suit", which is what the issue asks of such a call
    (it is corrected when the suit is wrong, left in when it is right)."""
    last = auction.last_bid_index()
    entry = results[last].entry if last >= 0 else None
    if entry is None or not entry.is_artificial:
        return False
    if results[last].forcing is Forcing.PASS_OR_CORRECT and last + 2 < len(results):
        answer = results[last + 2]
        if answer.call.kind is CallKind.PASS and _notes_line(answer):
            return False
    return True


def _notes_line(result: BidResult) -> bool:
    """Whether a call was made by a line the notes write at that point. Judgement taking
    the notes' catch-all pass (``P any [priority -N]``: the notes end there) does not
    count, whatever that line's text says."""
    entry = result.entry
    return entry is not None and not getattr(entry, "is_default_pass", False)


def artificial_left_by(auction: Auction, results: Sequence[BidResult]) -> str:
    """Who left an artificial final contract in: the next call of its bidder's partner,
    ``system`` when it is a pass the notes list there, else its source (``placement``:
    judgement passed it on its own); "" when the final contract is natural or nobody of
    that side called again."""
    if not artificial_final(auction, results):
        return ""
    after = auction.last_bid_index() + 2
    if after >= len(results):
        return ""
    # A pass the notes write for this call (the relayer's "plays the 3NT answer") is the
    # notes' answer: the partner who had to answer did.
    if _notes_line(results[after]):
        return "system"
    return call_source(results[after])


def artificial_unshown(auction: Auction, results: Sequence[BidResult],
                       systems: Mapping[Side, System]) -> bool:
    """Whether an artificial final contract is in a suit its side has not shown seven
    cards in between them (the least each partner's calls promise): a relay or an answer
    left in where the strain is not known to play. A no-trump contract, or a suit the
    side is known to hold (a non-forcing relay passed with six of it, a transfer's suit),
    names its strain as a contract whatever the call meant."""
    contract = auction.contract
    if contract is None or not artificial_final(auction, results):
        return False
    if contract.strain is Strain.NT:
        return False
    _, state = walk_replay(auction, systems)
    return side_shown_length(estimate_seats(state), contract.declarer,
                             contract.strain) < SHOWN_FIT


def game_force_dropped(auction: Auction, results: Sequence[BidResult]) -> bool:
    """Whether a side that made a game-forcing call did not declare a game, and the final
    contract is not doubled (a passed penalty double is the one exception)."""
    contract = auction.contract
    if contract is not None and contract.doubled:
        return False
    for side in Side:
        forced = any(r.forcing is Forcing.GAME_FORCING for i, r in enumerate(results)
                     if auction.seat_of(i).side is side)
        reached = contract is not None and contract.declarer.side is side and is_game(
            contract)
        if forced and not reached:
            return True
    return False


def batch_auctions(boards: Sequence[RealBoard], systems: Mapping[Side, System]
                   ) -> list[Auction]:
    """Every board's auction from the batch bidder, one call per dealer and vulnerability."""
    out: list[Auction | None] = [None] * len(boards)
    keys: dict[tuple[Seat, Vulnerability], list[int]] = {}
    for i, board in enumerate(boards):
        keys.setdefault((board.dealer, board.vul), []).append(i)
    for (dealer, vul), rows in keys.items():
        deals = DealBatch(np.stack([boards[i].masks for i in rows]))
        for k, auction in enumerate(bid_batch(deals, systems, dealer, vul).auctions()):
            out[rows[k]] = auction
    return [a for a in out if a is not None]


def replay(boards: Sequence[RealBoard], system: System, name: str | None = None
           ) -> SystemReplay:
    """Bid every board with ``system`` at all four seats and score it against its record.

    Every board must have its trick table (:func:`fill_tables`).
    """
    systems = as_systems(system)
    out = SystemReplay(name or system.name)
    began = time.perf_counter()
    bid = [bid_deal(b.hands(), systems, b.dealer, b.vul) for b in boards]
    out.one_hand_seconds = time.perf_counter() - began
    began = time.perf_counter()
    batch = batch_auctions(boards, systems)
    out.batch_seconds = time.perf_counter() - began
    for board, (auction, results), batch_auction in zip(boards, bid, batch, strict=True):
        if board.tricks is None:
            raise ReplayError(f"{board.place}: no double-dummy table (call fill_tables)")
        par, par_contracts = board_par(board.tricks, board.dealer, board.vul)
        contract = auction.contract
        ns = dd_ns_score(contract, board.tricks, board.vul)
        recorded_ns = dd_ns_score(board.contract, board.tricks, board.vul)
        out.boards.append(BoardReplay(
            board.board_id, board.dealer, board.vul, auction, contract, ns,
            board.recorded, board.contract, recorded_ns, par, par_contracts,
            loss_to_par(ns, par) - loss_to_par(recorded_ns, par),
            Counter(call_source(r) for r in results),
            fallback_pass_over_bid(auction, results), artificial_final(auction, results),
            game_force_dropped(auction, results), batch_auction,
            artificial_left_by(auction, results),
            artificial_unshown(auction, results, systems)))
    return out


# --- figures ----------------------------------------------------------------------------------
def summarize(run: SystemReplay) -> dict[str, Any]:
    """The figures of one system's replay (the JSON and the printed table use these)."""
    rows = run.boards
    gaps = [r.gap for r in rows]
    mean, sd, lo, hi = confidence_interval(gaps)
    calls: Counter[str] = Counter()
    for r in rows:
        calls.update(r.sources)
    total_calls = sum(calls.values())
    names = list(SOURCES) + sorted(set(calls) - set(SOURCES))
    n = len(rows)
    disagree = [r.board_id for r in rows if not r.agrees]
    return {
        "system": run.system,
        "boards": n,
        "par_gap": {"mean": mean, "sd": sd, "ci95": [lo, hi], "total": int(sum(gaps))},
        "loss_to_par": {
            "bidbox": float(np.mean([loss_to_par(r.ns, r.par) for r in rows])) if n else 0.0,
            "recorded": float(np.mean([loss_to_par(r.recorded_ns, r.par) for r in rows]))
            if n else 0.0},
        "games": {"bidbox": sum(is_game(r.contract) for r in rows),
                  "recorded": sum(is_game(r.recorded_contract) for r in rows)},
        "slams": {"bidbox": sum(is_slam(r.contract) for r in rows),
                  "recorded": sum(is_slam(r.recorded_contract) for r in rows)},
        # How many of those slams make double dummy: a slam count alone rewards bidding
        # failing ones.
        "slams_made": {"bidbox": sum(is_slam(r.contract) and makes(r.contract, r.ns)
                                     for r in rows),
                       "recorded": sum(is_slam(r.recorded_contract)
                                       and makes(r.recorded_contract, r.recorded_ns)
                                       for r in rows)},
        "passed_out": {"bidbox": sum(r.contract is None for r in rows),
                       "recorded": sum(r.recorded_contract is None for r in rows)},
        "calls": total_calls,
        "call_sources": {s: calls[s] / total_calls if total_calls else 0.0 for s in names},
        "fallback_pass_over_bid": sum(r.fallback_pass_over_bid for r in rows),
        "artificial_final": sum(r.artificial_final for r in rows),
        "artificial_final_left_by": dict(Counter(r.artificial_left_by for r in rows
                                                 if r.artificial_final)),
        "artificial_final_unshown": sum(r.artificial_unshown for r in rows),
        "game_force_dropped": sum(r.game_force_dropped for r in rows),
        "batch_disagreements": len(disagree),
        "batch_disagreement_boards": disagree,
        "one_hand_seconds": run.one_hand_seconds,
        "batch_seconds": run.batch_seconds,
    }


def worst(run: SystemReplay, count: int = WORST) -> list[BoardReplay]:
    """The boards where bidbox lost most against the recorded table (most negative gap)."""
    return sorted(run.boards, key=lambda r: (r.gap, r.board_id))[:count]


def _share(part: int, whole: int) -> str:
    return f"{part} ({part / whole:.1%})" if whole else str(part)


def report_lines(summaries: Sequence[dict[str, Any]]) -> list[str]:
    """The side-by-side table: one column per system, the recorded tables last."""
    if not summaries:
        return []
    n = summaries[0]["boards"]
    labels = [s["system"] for s in summaries] + ["recorded"]
    rows: list[tuple[str, list[str]]] = [
        ("boards", [str(s["boards"]) for s in summaries] + [str(n)]),
        ("par gap, IMPs/board [95%]",
         [f"{s['par_gap']['mean']:+.2f} [{s['par_gap']['ci95'][0]:+.2f}, "
          f"{s['par_gap']['ci95'][1]:+.2f}]" for s in summaries] + ["0"]),
        ("loss to par, IMPs/board",
         [f"{s['loss_to_par']['bidbox']:+.2f}" for s in summaries]
         + [f"{summaries[0]['loss_to_par']['recorded']:+.2f}"]),
        ("game or slam", [str(s["games"]["bidbox"]) for s in summaries]
         + [str(summaries[0]["games"]["recorded"])]),
        ("  game below slam / slam",
         [f"{s['games']['bidbox'] - s['slams']['bidbox']} / {s['slams']['bidbox']}"
          for s in summaries]
         + [f"{summaries[0]['games']['recorded'] - summaries[0]['slams']['recorded']} / "
            f"{summaries[0]['slams']['recorded']}"]),
        ("  slams that make (double dummy)",
         [str(s["slams_made"]["bidbox"]) for s in summaries]
         + [str(summaries[0]["slams_made"]["recorded"])]),
        ("passed out", [str(s["passed_out"]["bidbox"]) for s in summaries]
         + [str(summaries[0]["passed_out"]["recorded"])]),
    ]
    for source in summaries[0]["call_sources"]:
        rows.append((f"calls from {source}",
                     [f"{s['call_sources'].get(source, 0.0):.1%}" for s in summaries] + ["-"]))
    rows += [
        ("fallback pass over opp. bid",
         [_share(s["fallback_pass_over_bid"], s["boards"]) for s in summaries] + ["-"]),
        ("final contract artificial",
         [_share(s["artificial_final"], s["boards"]) for s in summaries] + ["0"]),
        ("  left in by notes / base / judgement",
         [" / ".join(str(s["artificial_final_left_by"].get(k, 0))
                     for k in ("system", "base", "placement")) for s in summaries] + ["-"]),
        ("  in a suit the side has not shown",
         [str(s["artificial_final_unshown"]) for s in summaries] + ["0"]),
        ("game force dropped below game",
         [_share(s["game_force_dropped"], s["boards"]) for s in summaries] + ["-"]),
        ("one-hand vs batch disagreements",
         [str(s["batch_disagreements"]) for s in summaries] + ["-"]),
        ("bidding s, one-hand / batch",
         [f"{s['one_hand_seconds']:.2f} / {s['batch_seconds']:.2f}" for s in summaries]
         + ["-"]),
    ]
    width = max(len(r[0]) for r in rows)
    cols = [max(len(labels[k]), *(len(r[1][k]) for r in rows)) for k in range(len(labels))]
    out = ["  ".join([" " * width, *(lab.rjust(c) for lab, c in zip(labels, cols,
                                                                     strict=True))])]
    for label, cells in rows:
        out.append("  ".join([label.ljust(width),
                              *(v.rjust(c) for v, c in zip(cells, cols, strict=True))]))
    for s in summaries:
        if s["batch_disagreements"]:
            first = ", ".join(s["batch_disagreement_boards"][:5])
            out.append(f"{s['system']}: one-hand and batch bidding disagree on "
                       f"{s['batch_disagreements']} boards, first {first}")
    return out


def worst_lines(run: SystemReplay, count: int = WORST) -> list[str]:
    out = [f"worst {count} boards for {run.system} (gap = bidbox's loss to par minus the "
           "recorded table's, IMPs):"]
    for r in worst(run, count):
        out.append(f"  {r.board_id} (dealer {r.dealer}, vul {r.vul}) gap {r.gap:+d}; par "
                   f"{r.par:+d} {r.par_contracts}")
        out.append(f"    bidbox:   {r.auction} -> {_contract_str(r.contract)}, NS {r.ns:+d}")
        out.append(f"    recorded: {r.recorded} -> {_contract_str(r.recorded_contract)}, "
                   f"NS {r.recorded_ns:+d}")
    return out


def commit_description() -> str:
    """The commit the engine ran on, and whether src/ had uncommitted changes.

    The engine is the ``bidbox`` package imported, which need not be this checkout's (a
    PYTHONPATH can put another version first); then its directory is named instead.
    """
    import bidbox

    package = Path(bidbox.__file__).resolve().parent
    if not package.is_relative_to(ROOT / "src"):
        return f"bidbox imported from {package}"
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--",
                                "src"], capture_output=True, text=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown commit (not a git checkout)"
    return "commit " + head + (" + uncommitted changes in src/" if dirty else "")


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--system", action="append", metavar="NAME",
                        help="a shipped system or a .bbx path (repeatable; default: every "
                             "shipped system)")
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N boards")
    parser.add_argument("--boards", type=Path, default=DEFAULT_BOARDS,
                        help="directory of PBN and LIN files, vugraph LIN included "
                             f"(default {DEFAULT_BOARDS})")
    parser.add_argument("--dd-cache", type=Path, default=default_cache(),
                        help="where DDS tables of boards without their own are kept "
                             "(default %(default)s)")
    parser.add_argument("--no-dd-cache", action="store_true", help="solve, keep nothing")
    parser.add_argument("--worst", type=int, default=WORST, help="boards in the worst table")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the figures")
    args = parser.parse_args(None if argv is None else list(argv))
    if args.limit is not None and args.limit < 1:
        parser.error(f"--limit must be at least 1, not {args.limit}")

    began = time.perf_counter()
    try:
        names = args.system or [s.name for s in shipped_systems()]
        systems = [(name, load_system(name)) for name in names]
        loaded, counts = load_real_boards(args.boards, args.limit)
        dd_began = time.perf_counter()
        boards, solved = fill_tables(loaded, None if args.no_dd_cache else args.dd_cache)
        dd_seconds = time.perf_counter() - dd_began
        runs = [replay(boards, system, name) for name, system in systems]
    except BidboxError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    summaries = [summarize(run) for run in runs]
    commit = commit_description()
    print(f"real boards: {counts.files} files, {counts.boards} boards, "
          f"{counts.with_auction} with a recorded auction; {len(boards)} used"
          + (f" (--limit {args.limit})" if args.limit else "")
          + f", {counts.with_table} of them with their own DD table")
    print(f"engine: {commit}; DD tables: {solved} solved by DDS now, the rest from "
          f"the files or the cache ({dd_seconds:.1f} s)")
    if counts.skipped:
        print(f"left out, unreadable: {len(counts.skipped)} (boards or files)")
        for line in counts.skipped[:SKIPPED_SHOWN]:
            print(f"  {line}")
        if len(counts.skipped) > SKIPPED_SHOWN:
            print(f"  ... and {len(counts.skipped) - SKIPPED_SHOWN} more (all in --json)")
    print()
    for line in report_lines(summaries):
        print(line)
    for run in runs:
        print()
        for line in worst_lines(run, args.worst):
            print(line)
    total = time.perf_counter() - began
    print(f"\ntotal {total:.1f} s")
    if args.json:
        payload = {"commit": commit, "counts": vars(counts), "boards_used": len(boards),
                   "dds_solved": solved, "dd_seconds": dd_seconds, "seconds": total,
                   "systems": {run.system: {**s, "worst": [r.to_json() for r in
                                                           worst(run, args.worst)],
                                            "per_board": [r.to_json() for r in run.boards]}
                               for run, s in zip(runs, summaries, strict=True)}}
        args.json.write_text(json.dumps(payload, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
