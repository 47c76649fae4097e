"""The team match: two systems bid the same boards at two tables, scored double dummy.

At table 1 system A sits North-South and system B East-West; at table 2 they change
places. Each board therefore compares A and B holding the same cards against the same
opponents, and the IMPs on the board (from A's point of view) measure the systems, not the
deal. In an *uncontested* match one side bids alone (North-South; East-West pass
throughout): table 1 is A's auction, table 2 is B's, and each is also measured against the
best contract North-South could reach alone double dummy.

:func:`play_boards` is the unit of work: it takes a few hundred boards and returns their
results. It is a plain function of picklable values (a :class:`MatchSpec` names the
systems by file, not as compiled objects), so a process pool or a Dask cluster can run it.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from bidbox.core.auction import Auction, Contract
from bidbox.core.calls import PASS, Call
from bidbox.core.seats import Seat, Side, Vulnerability
from bidbox.engine.batch import bid_batch, choose_at_node
from bidbox.engine.decide import PLACEMENT
from bidbox.engine.features import HandFeatures
from bidbox.engine.predicates import TableContext, compile_predicate
from bidbox.engine.walk import BASE, SYSTEM, WalkStep, walk
from bidbox.evaluate.dealer import DealBatch
from bidbox.lang.compiler import compile_text
from bidbox.lang.diagnostics import read_system_file
from bidbox.lang.loader import system_path
from bidbox.lang.system import System
from bidbox.sim.deals import VULNERABILITIES, Boards
from bidbox.sim.double_dummy import (
    Cell,
    Par,
    cells_from_json,
    cells_to_json,
    full_tables,
    solve_cells,
    table_cells,
)
from bidbox.sim.scoring import best_for_side, imps, ns_score

Options = tuple[tuple[str, str | bool], ...]
RESULT_VERSION = 1
"""The layout of a stored :class:`BoardResult`; part of every match key, so that a store
written by an older layout is recomputed rather than misread."""
_INCLUDE = re.compile(r'^\s*include\s+"([^"]+)"', re.MULTILINE)


@dataclass(frozen=True)
class SystemRef:
    """A system as a worker can load it: its file and text, options, and a digest.

    The text travels with the reference, so a worker on another machine compiles the same
    system (files it includes are read beside ``path`` there). The digest covers the text,
    the files it includes and the options, so stored results are reused only for exactly
    the system that produced them.
    """

    label: str
    path: str
    text: str
    options: Options
    digest: str

    @classmethod
    def resolve(cls, name_or_path: str, options: Mapping[str, str | bool] | None = None
                ) -> SystemRef:
        """Find and compile the system now, so a bad name or file fails before any work."""
        path = system_path(name_or_path).resolve()
        chosen: Options = tuple(sorted((options or {}).items()))
        text = read_system_file(path)
        parts = [text]
        for name in _INCLUDE.findall(text):
            included = path.parent / name
            if included.is_file():
                parts.append(read_system_file(included))
        parts.append(json.dumps(chosen))
        digest = hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:16]
        ref = cls(name_or_path, str(path), text, chosen, digest)
        ref.load()
        return ref

    def load(self) -> System:
        """The compiled system (compiled once per process)."""
        return _compile(self.path, self.text, self.options)


@cache
def _compile(path: str, text: str, options: Options) -> System:
    return compile_text(text, path, dict(options))


@dataclass(frozen=True)
class MatchSpec:
    """What is played: system A against system B, contested or not, with par or not."""

    a: SystemRef
    b: SystemRef
    uncontested: bool = False
    par: bool = False

    @property
    def needs_full_tables(self) -> bool:
        """Par, and the best contract for a side alone, need all 20 cells of each deal."""
        return self.par or self.uncontested

    @property
    def key(self) -> str:
        """Identifies the results of this match in a store (systems, options, mode)."""
        raw = json.dumps([RESULT_VERSION, self.a.digest, self.b.digest, self.uncontested,
                          self.par])
        return hashlib.sha256(raw.encode()).hexdigest()[:16]

    def describe(self) -> dict[str, Any]:
        return {"a": {"system": self.a.label, "file": self.a.path,
                      "options": dict(self.a.options)},
                "b": {"system": self.b.label, "file": self.b.path,
                      "options": dict(self.b.options)},
                "uncontested": self.uncontested, "par": self.par}

    def table_systems(self) -> tuple[dict[Side, System], dict[Side, System]]:
        """The systems at table 1 and table 2, by side."""
        a, b = self.a.load(), self.b.load()
        if self.uncontested:
            return {Side.NS: a, Side.EW: a}, {Side.NS: b, Side.EW: b}
        return {Side.NS: a, Side.EW: b}, {Side.NS: b, Side.EW: a}


@dataclass(frozen=True)
class TableResult:
    """One table's auction and result. ``ns`` is the system ('a' or 'b') sitting N-S."""

    ns: str
    auction: str
    contract: str | None
    declarer: str | None
    tricks: int | None
    ns_score: int
    fallback_ns: bool
    fallback_ew: bool
    sources_ns: tuple[int, int, int] = (0, 0, 0)
    """North-South's calls by who decided them: the notes, the base, judgement
    (:data:`SOURCES`). Boards stored before these were counted hold zeros."""
    sources_ew: tuple[int, int, int] = (0, 0, 0)

    @property
    def ew(self) -> str:
        return "b" if self.ns == "a" else "a"


@dataclass(frozen=True)
class BoardResult:
    """Everything the reports need about one board, as stored (JSON-friendly values).

    ``imps`` are A's (table 1 North-South score minus table 2's). ``openings`` gives, per
    system, the call each seat (N, E, S, W) would open with when every seat before it has
    passed, the measure behind aggressiveness and the opening frequencies.
    """

    deal_index: int
    board: int
    dealer: str
    vul: str
    deal: str
    hcp: tuple[int, int, int, int]
    tables: tuple[TableResult, TableResult]
    imps: int
    openings: dict[str, tuple[str, str, str, str]]
    par_score: int | None = None
    par_contracts: str | None = None
    side_best_score: int | None = None
    side_best_contract: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BoardResult:
        tables = tuple(TableResult(**{**t, **{k: tuple(t[k]) for k in _SOURCE_KEYS if k in t}})
                       for t in data["tables"])
        openings = {k: tuple(v) for k, v in data["openings"].items()}
        return cls(**{**data, "tables": tables, "openings": openings,
                      "hcp": tuple(data["hcp"])})


@dataclass
class ChunkResult:
    """The results of a batch of boards, with the cells newly solved and the time spent."""

    boards: list[BoardResult]
    new_cells: dict[str, dict[str, int]] = field(default_factory=dict)
    bidding_seconds: float = 0.0
    dds_seconds: float = 0.0
    cells_solved: int = 0
    tables_solved: int = 0


# --- bidding -----------------------------------------------------------------------------
def bid_table(boards: Boards, systems: Mapping[Side, System], silent: Side | None = None,
              *, sources: Mapping[Side, npt.NDArray[np.int64]] | None = None
              ) -> tuple[list[Auction], dict[Side, npt.NDArray[np.bool_]]]:
    """Every board's auction at one table, and which side used a fallback call on it.
    ``sources``: per side an ``(n, 3)`` array, filled with each board's calls of that
    side by who decided them (:data:`SOURCES`).

    The batch bidder takes one dealer and vulnerability per call, so the boards go in
    groups by their place in the board cycle.
    """
    n = len(boards)
    auctions: list[Auction | None] = [None] * n
    fallback = {side: np.zeros(n, dtype=bool) for side in Side}
    for dealer, vul, rows in boards.table_groups():
        deals = DealBatch(boards.masks[rows])
        result = bid_batch(deals, systems, dealer, vul, silent)
        features = {seat: HandFeatures(deals.hands(seat)) for seat in Seat}
        for auction, index, used_fallback in result.groups:
            for i in index:
                auctions[int(rows[i])] = auction
            if sources is not None:
                counted = call_sources(auction, index, systems, features, silent,
                                       judged=used_fallback)
                for side, counts in counted.items():
                    sources[side][rows[index]] = counts
                    fallback[side][rows[index]] = counts[:, PLACEMENT_COLUMN] > 0
            elif used_fallback:
                for side, hit in fallback_sides(auction, index, systems, features,
                                                silent).items():
                    fallback[side][rows[index[hit]]] = True
    done = [a for a in auctions if a is not None]
    if len(done) != n:
        raise RuntimeError(f"the batch bidder left {n - len(done)} boards without an auction")
    return done, fallback


def fallback_sides(auction: Auction, index: npt.NDArray[np.int64],
                   systems: Mapping[Side, System], features: Mapping[Seat, HandFeatures],
                   silent: Side | None) -> dict[Side, npt.NDArray[np.bool_]]:
    """For the deals of one auction, whether each side made a call its system lacked.

    The batch bidder flags an auction when *anyone* fell back; a match needs to know
    *whose* system ran out, so each call is checked again. The bidder takes the first
    call whose meaning fits, so a call was the system's exactly when the tree has it at
    that point and the hand fits its meaning (had the hand fitted an earlier call, it
    would have made that one); every other call was the fallback's.
    """
    steps, _ = walk(auction, dict(systems))
    out = {side: np.zeros(len(index), dtype=bool) for side in Side}
    for step in steps:
        side = step.seat.side
        if side is silent or out[side].all():
            continue
        out[side] |= ~_fits_entry(step, index, features)
    return out


SOURCES = (SYSTEM, BASE, PLACEMENT)
"""Who decided a call, in the column order of :func:`call_sources`: the system's notes,
the natural base, judgement (the captain's placement, or a pass where the notes end)."""
PLACEMENT_COLUMN = SOURCES.index(PLACEMENT)
_SOURCE_KEYS = ("sources_ns", "sources_ew")


def call_sources(auction: Auction, index: npt.NDArray[np.int64],
                 systems: Mapping[Side, System], features: Mapping[Seat, HandFeatures],
                 silent: Side | None, *, judged: bool = True
                 ) -> dict[Side, npt.NDArray[np.int64]]:
    """For the deals of one auction, each side's calls by who decided them: an
    ``(len(index), 3)`` count per side in :data:`SOURCES` order, read as
    :func:`fallback_sides` reads them (a call is the notes' or the base's where that
    entry is at that point and the hand fits it, judgement's otherwise). A silent
    side's passes are not counted. ``judged=False``: the batch bidder flagged no judged
    call in this auction, so every call is its entry's and no predicate is run again
    (only the notes' and the base's calls are told apart)."""
    steps, _ = walk(auction, dict(systems))
    out = {side: np.zeros((len(index), 3), dtype=np.int64) for side in Side}
    every = np.ones(len(index), dtype=bool)
    for step in steps:
        side = step.seat.side
        if side is silent:
            continue
        fits = _fits_entry(step, index, features) if judged else every
        column = SOURCES.index(BASE if step.source == BASE else SYSTEM)
        out[side][:, column] += fits
        out[side][:, PLACEMENT_COLUMN] += ~fits
    return out


def _fits_entry(step: WalkStep, index: npt.NDArray[np.int64],
                features: Mapping[Seat, HandFeatures]) -> npt.NDArray[np.bool_]:
    """Per deal of ``index``: whether the call at ``step`` was its notes' or base's
    entry (the entry is there and the hand fits it); otherwise judgement made it, and a
    default pass is judgement's too."""
    if step.entry is None or step.entry.is_default_pass:
        return np.zeros(len(index), dtype=bool)
    hands = features[step.seat].take(index)
    fits: npt.NDArray[np.bool_] = np.asarray(
        compile_predicate(step.entry.choose)(hands, step.context), dtype=bool)
    return fits


def opening_calls(system: System, boards: Boards) -> npt.NDArray[np.int8]:
    """The call each hand would open with, by seat: the bid's ladder rank, -1 for pass.

    The hand in each seat is given its opening opportunity: the seats before it (from
    the dealer) have passed, and it calls from the root of its system with the board's
    dealer and vulnerability as context. Hands that fit no opening pass (the fallback).
    The choice depends on the hand and its table context only (seat position, own and
    opponents' vulnerability), so all hands that share a context are bid in one batch.
    """
    n = len(boards)
    seats = np.arange(4)
    position = (seats[None, :] - boards.dealers[:, None].astype(np.int64)) % 4  # 0 = dealer
    vul_table = np.array([[v.is_vulnerable(Seat(s)) for s in range(4)]
                          for v in VULNERABILITIES], dtype=bool)
    vulnerable = vul_table[boards.vuls.astype(np.int64)]  # (n, 4 seats)
    they = vulnerable[:, (seats + 1) % 4]
    key = (position * 4 + vulnerable * 2 + they).ravel()
    hands = boards.masks.reshape(n * 4, 4)
    out = np.full(n * 4, -1, dtype=np.int8)
    for k in np.unique(key):
        rows = np.flatnonzero(key == k)
        passes = int(k) // 4
        ctx = TableContext(passes + 1, bool(int(k) & 2), bool(int(k) & 1), False)
        auction = Auction(Seat.N, Vulnerability.NONE, (PASS,) * passes)
        for entry, hit in choose_at_node(system.root, HandFeatures(hands[rows]), ctx, auction):
            out[rows[hit]] = entry.call.rank if entry.call.is_bid else -1
    return out.reshape(n, 4)


def call_name(rank: int) -> str:
    """'P' for -1, else the bid at that ladder rank ('1C' for 0)."""
    return "P" if rank < 0 else str(Call.from_rank(rank))


# --- a batch of boards --------------------------------------------------------------------
def play_boards(spec: MatchSpec, boards: Boards,
                known_cells: Mapping[str, Mapping[str, int]] | None = None) -> ChunkResult:
    """Bid both tables of every board, solve what the results need, score them.

    ``known_cells`` are double-dummy cells already solved for these deals (by deal PBN),
    e.g. from the store; they are not solved again. The result carries the newly solved
    cells back, so the caller can keep them.
    """
    start = time.perf_counter()
    tables = spec.table_systems()
    silent = Side.EW if spec.uncontested else None
    sources = [{side: np.zeros((len(boards), 3), dtype=np.int64) for side in Side}
               for _ in tables]
    bid = [bid_table(boards, systems, silent, sources=counts)
           for systems, counts in zip(tables, sources, strict=True)]
    openings = {name: opening_calls(ref.load(), boards)
                for name, ref in (("a", spec.a), ("b", spec.b))}
    hcp = np.stack([HandFeatures(boards.masks[:, int(seat), :]).value("hcp")
                    for seat in Seat], axis=1).astype(int)
    bidding_seconds = time.perf_counter() - start

    n = len(boards)
    deals = [boards.pbn(row) for row in range(n)]
    contracts = [[auctions[row].contract for row in range(n)] for auctions, _ in bid]
    known = [cells_from_json((known_cells or {}).get(d, {})) for d in deals]
    start = time.perf_counter()
    pars: list[Par] | None = None
    trick_tables: npt.NDArray[np.int64] | None = None
    cells_solved = tables_solved = 0
    new_cells: dict[str, dict[str, int]] = {}
    if spec.needs_full_tables:
        trick_tables, pars = full_tables(deals, [boards.dealer(r) for r in range(n)],
                                         [boards.vul(r) for r in range(n)])
        tables_solved = n
        cells = [table_cells(trick_tables[row]) for row in range(n)]
        new_cells = {deals[row]: cells_to_json(cells[row]) for row in range(n)}
    else:
        needed: list[set[Cell]] = []
        for row in range(n):
            wanted = {(c.strain, c.declarer) for c in (contracts[0][row], contracts[1][row])
                      if c is not None}
            needed.append(wanted - known[row].keys())
        solved = solve_cells(deals, needed)
        cells_solved = sum(len(s) for s in solved)
        cells = [{**known[row], **solved[row]} for row in range(n)]
        new_cells = {deals[row]: cells_to_json(solved[row]) for row in range(n) if solved[row]}
    dds_seconds = time.perf_counter() - start

    results = []
    for row in range(n):
        vul = boards.vul(row)
        table_results = []
        for k, (auctions, fallback) in enumerate(bid):
            contract = contracts[k][row]
            tricks = cells[row][(contract.strain, contract.declarer)] if contract else None
            table_results.append(_table_result(
                "a" if k == 0 else "b", auctions[row], contract, tricks, vul,
                {side: (bool(fallback[side][row]), _counts(sources[k][side][row]))
                 for side in Side}))
        t1, t2 = table_results
        best = (best_for_side(trick_tables[row], Side.NS, vul)
                if spec.uncontested and trick_tables is not None else None)
        par = pars[row] if pars is not None else None
        results.append(BoardResult(
            deal_index=int(boards.indices[row]), board=int(boards.numbers[row]),
            dealer=str(boards.dealer(row)), vul=str(vul), deal=deals[row],
            hcp=(int(hcp[row, 0]), int(hcp[row, 1]), int(hcp[row, 2]), int(hcp[row, 3])),
            tables=(t1, t2), imps=imps(t1.ns_score - t2.ns_score),
            openings={name: _seat_calls(calls[row]) for name, calls in openings.items()},
            par_score=par.ns_score if par else None,
            par_contracts=par.contracts if par else None,
            side_best_score=best.score if best else None,
            side_best_contract=str(best) if best else None))
    return ChunkResult(results, new_cells, bidding_seconds, dds_seconds, cells_solved,
                       tables_solved)


def _counts(row: npt.NDArray[np.int64]) -> tuple[int, int, int]:
    return (int(row[0]), int(row[1]), int(row[2]))


def _seat_calls(ranks: npt.NDArray[np.int8]) -> tuple[str, str, str, str]:
    n, e, s, w = (call_name(int(r)) for r in ranks)
    return (n, e, s, w)


def _table_result(ns: str, auction: Auction, contract: Contract | None, tricks: int | None,
                  vul: Vulnerability,
                  calls: Mapping[Side, tuple[bool, tuple[int, int, int]]]) -> TableResult:
    """``calls``: per side, whether some call of it was judged, and its calls by source."""
    return TableResult(ns=ns, auction=str(auction),
                       contract=str(contract) if contract else None,
                       declarer=str(contract.declarer) if contract else None,
                       tricks=tricks, ns_score=ns_score(contract, tricks, vul),
                       fallback_ns=calls[Side.NS][0], fallback_ew=calls[Side.EW][0],
                       sources_ns=calls[Side.NS][1], sources_ew=calls[Side.EW][1])


__all__ = ["SOURCES", "BoardResult", "ChunkResult", "MatchSpec", "SystemRef", "TableResult",
           "bid_table", "call_name", "call_sources", "fallback_sides", "opening_calls",
           "play_boards"]
