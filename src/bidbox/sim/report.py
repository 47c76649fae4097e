"""What a match shows: IMPs with their uncertainty, and what each system does differently.

Everything here is computed from the stored board results alone, so a resumed run
reports exactly what an uninterrupted one would (only the timings differ).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bidbox.core.calls import Call
from bidbox.core.seats import Seat, Side
from bidbox.sim.match import SOURCES, BoardResult, MatchSpec, TableResult
from bidbox.sim.scoring import contract_class, imps, parse_contract

SYSTEMS = ("a", "b")
HCP_BAND = (8, 12)
NOTES_HCP_BAND_SHARE = 0.45
"""The share of hands with 8-12 HCP claimed by the Magic D-light notes (section 1.2)."""
CONTRACT_CLASSES = ("partscore", "game", "small slam", "grand slam")


@dataclass
class RunInfo:
    """How the results were produced (this invocation): for the timing part of a report."""

    spec: MatchSpec
    source: str
    requested: int
    seconds: float = 0.0
    bidding_seconds: float = 0.0
    dds_seconds: float = 0.0
    cells_solved: int = 0
    tables_solved: int = 0
    boards_computed: int = 0
    boards_from_store: int = 0
    workers: int = 1
    scheduler: str | None = None
    out: str | None = None


@dataclass(frozen=True)
class MatchReport:
    """The public figures of a match (fixed JSON keys) and everything else in ``extra``."""

    boards: int
    imps_per_board: float
    ci95: tuple[float, float]
    aggressiveness: dict[str, float]
    opening_frequencies: dict[str, dict[str, float]]
    fallback_rate: dict[str, float]
    seconds: float
    dds_seconds: float
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"boards": self.boards, "imps_per_board": self.imps_per_board,
                "ci95": list(self.ci95), "aggressiveness": self.aggressiveness,
                "opening_frequencies": self.opening_frequencies,
                "fallback_rate": self.fallback_rate, "seconds": self.seconds,
                "dds_seconds": self.dds_seconds, **self.extra}

    def lines(self) -> list[str]:
        """A plain-text summary for the terminal."""
        x = self.extra
        names = x["systems"]
        out = [f"{x['mode']} match, {self.boards} boards ({x['source']}): "
               f"A = {names['a']}, B = {names['b']}"]
        if self.boards == 0:
            return [*out, "no boards played"]
        lo, hi = self.ci95
        out.append(f"IMPs per board to A: {self.imps_per_board:+.2f} "
                   f"(95% interval {lo:+.2f} to {hi:+.2f}; total {x['imps_total']:+d})")
        for s in SYSTEMS:
            label = s.upper()
            vs = ""
            if x.get("imps_vs_par") is not None:
                vs = f", vs par {x['imps_vs_par'][s]:+.2f} IMPs/table"
            if x.get("imps_vs_best_alone") is not None:
                vs = (f", vs best contract alone {x['imps_vs_best_alone'][s]:+.2f} IMPs/board"
                      f" (reached it on {x['reached_best_alone'][s]:.0%})")
            # fallback_rate keeps its JSON name; what it counts is a judged call
            out.append(f"{label}: aggressiveness {self.aggressiveness[s]:.2f}, a judged call "
                       f"in {self.fallback_rate[s]:.1%} of its auctions{vs}")
            shares = (x.get("call_sources") or {}).get(s)
            if shares:
                out.append("   calls by: " + ", ".join(
                    f"{_SOURCE_WORDS[k]} {shares[k]:.1%}" for k in SOURCES))
            top = [f"{call} {share:.1%}" for call, share in
                   sorted(self.opening_frequencies[s].items(), key=lambda kv: -kv[1])[:7]]
            out.append(f"   openings: {', '.join(top)}")
            reached = x["contracts"][s]
            out.append("   declares: " + ", ".join(
                f"{c} {reached[c]['share']:.0%} (made {reached[c]['made']:.0%})"
                for c in CONTRACT_CLASSES if reached[c]["share"] > 0))
        band = x["hcp_8_12_share"]
        out.append(f"hands with 8-12 HCP: {band['measured']:.1%} (the notes say about "
                   f"{band['notes_claim']:.0%})")
        out.append(f"time: {self.seconds:.1f} s; work in the workers: double dummy "
                   f"{self.dds_seconds:.1f} s, bidding {x['bidding_seconds']:.2f} s; "
                   f"{x['boards_computed']} boards played now, {x['boards_from_store']} "
                   "from the store")
        if x["swings"]:
            out.append("biggest swings:")
            for swing in x["swings"][:5]:
                t1, t2 = swing["tables"]
                out.append(f"   board {swing['board']} (dealer {swing['dealer']}, vul "
                           f"{swing['vul']}) {swing['imps']:+d} IMPs: {_result_text(t1)} | "
                           f"{_result_text(t2)}")
        return out


def _result_text(t: dict[str, Any]) -> str:
    contract = f"{t['contract']} {t['declarer']} {t['tricks']} tricks" if t["contract"] \
        else "passed out"
    return f"{t['ns'].upper()} N-S: {t['auction']} -> {contract}, N-S {t['ns_score']:+d}"


def opening_weight(call: str) -> int:
    """The notes' weight of an opening: pass 0, 1C 1, 1D 2 ... one per step up the ladder."""
    return 0 if call in ("P", "X", "XX") else Call.parse(call).rank + 1


def aggressiveness(results: Sequence[BoardResult], system: str) -> float:
    """Magic D-light's aggressiveness (section 1.2): the mean weight of the opening call.

    Reading of the notes: every hand of every deal gets its *opening opportunity*, the
    call it would make in its own seat (counted from the board's dealer, with the board's
    vulnerability) after the seats before it have passed; pass weighs 0, 1C 1, 1D 2 and so
    on, one per step up the bidding ladder (1NT 5, 2C 6 ... 7NT 35). The measure is the
    average weight over all four seats of all deals, i.e. the sum over calls of weight x
    frequency, with the frequencies those of :func:`opening_frequencies`. The notes put a
    standard system at about 1 and weak-opening systems up to about 2.
    """
    weights = [opening_weight(c) for r in results for c in r.openings[system]]
    return float(np.mean(weights)) if weights else 0.0


def opening_frequencies(results: Sequence[BoardResult], system: str) -> dict[str, float]:
    """Share of opening opportunities (four per deal) taken by each call, 'P' for pass."""
    counts = Counter(c for r in results for c in r.openings[system])
    total = sum(counts.values())
    order = sorted(counts, key=opening_weight)
    return {call: counts[call] / total for call in order} if total else {}


def system_tables(result: BoardResult, system: str) -> list[tuple[TableResult, Side]]:
    """The table results in which ``system`` took part, with the side it sat."""
    out = []
    for table in result.tables:
        if table.ns == system:
            out.append((table, Side.NS))
        elif table.ew == system and not _uncontested(result):
            out.append((table, Side.EW))
    return out


def _uncontested(result: BoardResult) -> bool:
    return result.side_best_score is not None


def fallback_rate(results: Sequence[BoardResult], system: str) -> float:
    """Share of the system's auctions in which its pair made at least one fallback call."""
    flags = [t.fallback_ns if side is Side.NS else t.fallback_ew
             for r in results for t, side in system_tables(r, system)]
    return float(np.mean(flags)) if flags else 0.0


_SOURCE_WORDS = {"system": "the notes", "base": "the natural base", "placement": "judgement"}


def call_sources(results: Sequence[BoardResult], system: str) -> dict[str, float] | None:
    """Share of the system's calls by who decided them (the notes, the base, judgement:
    ``match.SOURCES``), over every table it sat at; None when the boards were stored
    before the calls were counted."""
    totals = np.zeros(3, dtype=np.int64)
    for r in results:
        for t, side in system_tables(r, system):
            totals += np.asarray(t.sources_ns if side is Side.NS else t.sources_ew)
    count = int(totals.sum())
    if count == 0:
        return None
    return {name: float(totals[k]) / count for k, name in enumerate(SOURCES)}


def contracts_reached(results: Sequence[BoardResult], system: str
                      ) -> dict[str, dict[str, float]]:
    """Per contract class, the share of the system's tables where it declared one, and the
    share of those it made double dummy; plus defending and passed-out shares."""
    declared: dict[str, list[bool]] = {c: [] for c in CONTRACT_CLASSES}
    other = Counter[str]()
    total = 0
    for r in results:
        for table, side in system_tables(r, system):
            total += 1
            contract = parse_contract(table.contract, table.declarer)
            if contract is None:
                other["passed out"] += 1
            elif contract.declarer.side is side:
                assert table.tricks is not None
                declared[contract_class(contract)].append(table.tricks >= contract.level + 6)
            else:
                other["defending"] += 1
    out: dict[str, dict[str, float]] = {
        c: {"share": len(v) / total if total else 0.0,
            "made": float(np.mean(v)) if v else 0.0} for c, v in declared.items()}
    for name in ("defending", "passed out"):
        out[name] = {"share": other[name] / total if total else 0.0}
    return out


def imps_vs_par(results: Sequence[BoardResult], system: str) -> float | None:
    """Mean IMPs per table of the system's results against the double-dummy par."""
    values = []
    for r in results:
        if r.par_score is None:
            return None
        for table, side in system_tables(r, system):
            diff = table.ns_score - r.par_score
            values.append(imps(diff if side is Side.NS else -diff))
    return float(np.mean(values)) if values else None


def imps_vs_best_alone(results: Sequence[BoardResult], system: str) -> tuple[float, float]:
    """Uncontested: mean IMPs against the best contract North-South could reach alone,
    and the share of boards where the system reached that contract (level and strain)."""
    values, reached = [], []
    for r in results:
        assert r.side_best_score is not None and r.side_best_contract is not None
        table = r.tables[0] if system == "a" else r.tables[1]
        values.append(imps(table.ns_score - r.side_best_score))
        best = r.side_best_contract
        mine = table.contract or "pass"
        reached.append(mine.rstrip("X") == (best if best == "pass" else best[:-1]))
    return float(np.mean(values)), float(np.mean(reached))


def hcp_band_share(results: Sequence[BoardResult], band: tuple[int, int] = HCP_BAND) -> float:
    """The share of all hands (four per deal) with HCP inside ``band``."""
    values = np.array([h for r in results for h in r.hcp])
    if not len(values):
        return 0.0
    return float(np.mean((values >= band[0]) & (values <= band[1])))


def swings(results: Sequence[BoardResult], count: int = 10) -> list[dict[str, Any]]:
    """The boards with the largest IMP swings, both auctions shown."""
    ranked = sorted(results, key=lambda r: (-abs(r.imps), r.deal_index))[:count]
    return [{"board": r.board, "deal_index": r.deal_index, "dealer": r.dealer, "vul": r.vul,
             "deal": r.deal, "imps": r.imps,
             "tables": [{"ns": t.ns, "auction": t.auction, "contract": t.contract,
                         "declarer": t.declarer, "tricks": t.tricks, "ns_score": t.ns_score}
                        for t in r.tables],
             "par_score": r.par_score, "par_contracts": r.par_contracts,
             "best_alone": r.side_best_contract}
            for r in ranked if r.imps != 0]


def confidence_interval(values: Sequence[int]) -> tuple[float, float, float, float]:
    """Mean, sample standard deviation and the 95% interval mean +- 1.96 sd / sqrt(n)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0, 0.0
    mean = float(np.mean(values))
    sd = float(np.std(values, ddof=1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return mean, sd, mean - half, mean + half


def build_report(results: Sequence[BoardResult], info: RunInfo) -> MatchReport:
    """The report of a match from its board results and how this run produced them."""
    spec = info.spec
    board_imps = [r.imps for r in results]
    mean, sd, lo, hi = confidence_interval(board_imps)
    names = {"a": _system_name(spec, "a"), "b": _system_name(spec, "b")}
    extra: dict[str, Any] = {
        "systems": names,
        "mode": "uncontested" if spec.uncontested else "contested",
        "source": info.source,
        "boards_requested": info.requested,
        "complete": len(results) >= info.requested,
        "imps_total": int(sum(board_imps)),
        "imps_sd": sd,
        "bidding_seconds": info.bidding_seconds,
        "dds_cells_solved": info.cells_solved,
        "dds_tables_solved": info.tables_solved,
        "boards_computed": info.boards_computed,
        "boards_from_store": info.boards_from_store,
        "workers": info.workers,
        "scheduler": info.scheduler,
        "hcp_8_12_share": {"measured": hcp_band_share(results),
                           "notes_claim": NOTES_HCP_BAND_SHARE},
        "contracts": {s: contracts_reached(results, s) for s in SYSTEMS},
        "imps_vs_par": None,
        "swings": swings(results),
        "match_key": spec.key,
        "options": {"a": dict(spec.a.options), "b": dict(spec.b.options)},
    }
    sources = {s: call_sources(results, s) for s in SYSTEMS}
    if all(v is not None for v in sources.values()):
        extra["call_sources"] = sources
    if spec.uncontested and results:
        pairs = {s: imps_vs_best_alone(results, s) for s in SYSTEMS}
        extra["imps_vs_best_alone"] = {s: v[0] for s, v in pairs.items()}
        extra["reached_best_alone"] = {s: v[1] for s, v in pairs.items()}
    elif spec.par and results:
        vs = {s: imps_vs_par(results, s) for s in SYSTEMS}
        extra["imps_vs_par"] = vs if all(v is not None for v in vs.values()) else None
    return MatchReport(
        boards=len(results), imps_per_board=mean, ci95=(lo, hi),
        aggressiveness={s: aggressiveness(results, s) for s in SYSTEMS},
        opening_frequencies={s: opening_frequencies(results, s) for s in SYSTEMS},
        fallback_rate={s: fallback_rate(results, s) for s in SYSTEMS},
        seconds=info.seconds, dds_seconds=info.dds_seconds, extra=extra)


def _system_name(spec: MatchSpec, which: str) -> str:
    ref = spec.a if which == "a" else spec.b
    options = " ".join(k if v is True else f"{k}={v}" for k, v in ref.options)
    return f"{ref.load().name}" + (f" [{options}]" if options else "")


def opening_hcp(results: Sequence[BoardResult], system: str) -> dict[str, list[int]]:
    """The HCP of the hands behind each opening call (for the plots)."""
    out: dict[str, list[int]] = {}
    for r in results:
        for seat in Seat:
            out.setdefault(r.openings[system][int(seat)], []).append(r.hcp[int(seat)])
    return dict(sorted(out.items(), key=lambda kv: opening_weight(kv[0])))


__all__ = ["HCP_BAND", "NOTES_HCP_BAND_SHARE", "MatchReport", "RunInfo", "aggressiveness",
           "build_report", "call_sources", "confidence_interval", "contracts_reached",
           "fallback_rate", "hcp_band_share", "imps_vs_best_alone", "imps_vs_par",
           "opening_frequencies", "opening_hcp", "opening_weight", "swings"]
