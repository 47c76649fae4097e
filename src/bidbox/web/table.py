"""The bidding table: one person bids one seat, robots bid the other three with their systems.

Everything here is plain Python over the public API (:mod:`bidbox.api`: ``load_system``,
``System.bid``, ``System.explain``, ``System.bid_deals``) and the simulation lab's dealing,
double dummy and scoring, so the web app and the CLI cannot tell two stories about one
auction. The FastAPI layer (:mod:`bidbox.web.app`) only turns requests into these calls
and :class:`~bidbox.errors.BidboxError` into 4xx answers.

A table is stored as its :class:`TableSpec` (what was asked for) and the list of calls
made, each with who made it; every state is recomputed from those two, which is what
makes undo and resume exact.
"""

from __future__ import annotations

import re
import secrets
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from bidbox.api import Bid, Explanation, System, get_regulation, load_system, parse_deal
from bidbox.core.auction import Auction
from bidbox.core.calls import Call
from bidbox.core.hand import Hand
from bidbox.core.seats import Seat, Side, Vulnerability
from bidbox.engine.features import HandFeatures
from bidbox.engine.predicates import compile_predicate
from bidbox.engine.walk import table_context
from bidbox.engine.wording import constraint_words, forcing_said
from bidbox.errors import BidboxError
from bidbox.errors import TableConflictError as TableConflictError
from bidbox.errors import TableError as TableError
from bidbox.evaluate.dealer import DealBatch, deal_batch
from bidbox.lang import parse_options, shipped_systems
from bidbox.lang.system import Forcing
from bidbox.sim.deals import (
    board_dealer,
    board_vulnerability,
    deal_boards,
    north_filter,
    read_board_file,
)
from bidbox.web.store import TableRow

PERSON = "you"
ROBOT = "robot"

REACH_ROUND = 200
"""Deals bid per round when looking for a board whose auction reaches a chosen node."""
REACH_ROUNDS = 10
"""Rounds before giving up (2,000 deals: the batch bidder needs some seconds for them)."""
MAX_PBN_BYTES = 2_000_000
"""A PBN upload larger than this is refused rather than parsed."""


@dataclass(frozen=True)
class TableSpec:
    """What a table was created with; never changes afterwards."""

    system: str
    opponents: str
    options: dict[str, str | bool]
    opponent_options: dict[str, str | bool]
    seat: str
    dealer: str
    vul: str
    deal: str  # PBN "N:S.H.D.C ..." with North first
    board: int
    origin: str  # how the deal was chosen, for the history list

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableSpec:
        return cls(**data)


@dataclass(frozen=True)
class TableRequest:
    """The body of ``POST /api/tables`` once read (see :func:`new_table`)."""

    system: str = "sbu-level1"
    opponents: str | None = None
    options: Sequence[str] | Mapping[str, str | bool] = ()
    opponent_options: Sequence[str] | Mapping[str, str | bool] | None = None
    seat: str = "S"
    dealer: str | None = None
    vul: str | None = None
    deal: str | None = None  # a PBN deal string
    pbn: str | None = None  # the text of a PBN file
    board: int | None = None  # which board of the PBN file (default the first)
    constraint: str | None = None  # the person's hand, in the system language
    reach: str | None = None  # an auction the robots' bidding of the deal must begin with
    seed: int | None = None


# --- systems --------------------------------------------------------------------------
def shipped_names() -> list[str]:
    return [s.name for s in shipped_systems()]


def _options(value: Sequence[str] | Mapping[str, str | bool] | None) -> dict[str, str | bool]:
    if value is None:
        return {}
    if isinstance(value, str):
        return parse_options([value])
    if isinstance(value, Mapping):
        return dict(value)
    return parse_options(list(value))


def check_name(name: str, what: str) -> str:
    """Only shipped systems: a server must not compile files named by a stranger."""
    text = name.strip()
    if "/" in text or "\\" in text or text.endswith(".bbx"):
        raise TableError(f"{what} '{name}': the server plays only shipped systems "
                         f"({', '.join(shipped_names())})")
    return text


@lru_cache(maxsize=64)
def _load(name: str, options: tuple[tuple[str, str | bool], ...]) -> System:
    return load_system(name, dict(options))


def system_of(name: str, options: Mapping[str, str | bool]) -> System:
    """A compiled shipped system, kept for every later request with the same options."""
    return _load(name, tuple(sorted(options.items())))


# --- a table in play --------------------------------------------------------------------
@dataclass
class Table:
    """A table being bid: its spec, the calls so far, and the systems of both sides."""

    spec: TableSpec
    calls: list[dict[str, Any]]

    @property
    def seat(self) -> Seat:
        return Seat.parse(self.spec.seat)

    @property
    def ours(self) -> System:
        return system_of(self.spec.system, self.spec.options)

    @property
    def theirs(self) -> System:
        return system_of(self.spec.opponents, self.spec.opponent_options)

    @property
    def hands(self) -> dict[Seat, Hand]:
        return parse_deal(self.spec.deal)

    def auction(self, upto: int | None = None) -> Auction:
        calls = self.calls if upto is None else self.calls[:upto]
        return Auction.parse(" ".join(c["call"] for c in calls),
                             Seat.parse(self.spec.dealer), Vulnerability.parse(self.spec.vul))

    def sides(self, seat: Seat) -> tuple[System, System]:
        """The system that bids ``seat`` and the one its opponents play."""
        if seat.side is self.seat.side:
            return self.ours, self.theirs
        return self.theirs, self.ours

    def ns_ew(self) -> tuple[System, System]:
        return self.sides(Seat.N)

    def robot_bid(self, auction: Auction) -> Bid:
        """The robot's call at ``auction``. Its reason does not restate what partner has
        shown: that costs an explanation of the auction per call, and the table's own
        known-now panel says it."""
        seat = auction.next_seat
        mine, other = self.sides(seat)
        return mine.bid(self.hands[seat], auction, opponents=other, describe_partner=False)

    def robots_bid(self) -> None:
        """Robots call until it is the person's turn or the auction has ended."""
        auction = self.auction()
        while not auction.is_ended and auction.next_seat is not self.seat:
            bid = self.robot_bid(auction)
            self.calls.append({"call": str(bid.call), "by": ROBOT, "reason": bid.reason})
            auction = auction.add(bid.call)

    def make_call(self, text: str, seat: str | None = None) -> None:
        """The person's call, checked under the Laws, then the robots' replies."""
        auction = self.auction()
        if auction.is_ended:
            raise TableConflictError(f"the auction '{auction}' has ended: no more calls")
        if seat is not None:
            try:
                claimed = Seat.parse(seat)
            except BidboxError as err:
                raise TableError(f"seat: {err}") from None
            if claimed is not auction.next_seat:
                raise TableConflictError(f"out of turn: it is {auction.next_seat}'s turn "
                                         f"to call, not {claimed}'s")
        if auction.next_seat is not self.seat:
            raise TableConflictError(f"out of turn: it is {auction.next_seat}'s turn, and "
                                     f"you sit {self.seat}")
        call = Call.parse(text)  # NotationError names the text
        auction.add(call)  # IllegalCallError says why
        self.calls.append({"call": str(call), "by": PERSON})
        self.robots_bid()

    def undo(self) -> None:
        """Take back the person's last call and the robots' calls after it."""
        mine = [i for i, c in enumerate(self.calls) if c["by"] == PERSON]
        if not mine:
            raise TableConflictError("nothing to undo: you have not called yet")
        del self.calls[mine[-1]:]

    def explanation(self) -> dict[str, Any]:
        """Every call of the auction so far read as ``System.explain`` reads it (meaning,
        forcing, alert with its rule, source), each marked with who made it.

        What each seat is known to hold is left out (see :meth:`knowledge`): measuring it
        over the profile space or the sampled pool is nine tenths of explain's time, and
        a table answers a call much more often than anybody looks at the knowledge.
        """
        ns, ew = self.ns_ew()
        data = _explain_calls(self.auction(), ns, ew).to_json()
        data.pop("knowledge", None)
        calls: list[dict[str, Any]] = list(data["calls"])  # type: ignore[call-overload]
        for row, made in zip(calls, self.calls, strict=True):
            _with_forcing_text(row)
            row["by"] = made["by"]
            if "reason" in made:
                row["reason"] = made["reason"]
        data["calls"] = calls
        return data

    def knowledge(self) -> dict[str, Any]:
        """What each seat is known to hold after the auction so far, as ``bidbox explain``
        states it (each seat's ``text``; ``partnerships``: what both seats of a side hold
        together), with the measured ranges beside it for other tools."""
        ns, ew = self.ns_ew()
        data = ns.explain(self.auction(), opponents=ew).to_json()
        return {"auction": data["auction"], "knowledge": data["knowledge"],
                "partnerships": data.get("partnerships", {})}

    def preview(self, text: str) -> dict[str, Any]:
        """What the person's call would show, its alert and Stop card, before it is made."""
        auction = self.auction()
        if auction.is_ended:
            raise TableConflictError(f"the auction '{auction}' has ended: no more calls")
        call = Call.parse(text)
        after = auction.add(call)
        ns, ew = self.ns_ew()
        return _with_forcing_text(_explain_calls(after, ns, ew)[len(after.calls) - 1].to_json())

    def state(self, explanation: Mapping[str, Any]) -> dict[str, Any]:
        """The JSON of ``GET /api/tables/{id}`` (keys are a public contract)."""
        auction = self.auction()
        contract = auction.contract
        hands = self.hands
        spec = self.spec
        return {
            "system": spec.system, "opponents": spec.opponents,
            "options": spec.options, "opponent_options": spec.opponent_options,
            "seat": spec.seat, "dealer": spec.dealer, "vul": spec.vul, "board": spec.board,
            "origin": spec.origin,
            "hand": hands[self.seat].pbn(),
            "auction": str(auction),
            "calls": explanation.get("calls", []),
            "next_seat": None if auction.is_ended else str(auction.next_seat),
            "your_turn": not auction.is_ended and auction.next_seat is self.seat,
            "legal_calls": [] if auction.is_ended else [str(c) for c in auction.legal_calls()],
            "ended": auction.is_ended,
            "contract": None if contract is None else str(contract),
            "declarer": None if contract is None else str(contract.declarer),
            "passed_out": auction.is_passed_out,
            "hands": {str(s): h.pbn() for s, h in hands.items()} if auction.is_ended else None,
        }

    # --- the review ----------------------------------------------------------------
    def review(self) -> dict[str, Any]:
        """The contract, the double-dummy table and par, the system's call at each of the
        person's turns (and why, where it differs), and a second table where the robots
        bid the person's seat too, scored against this one."""
        from bidbox.sim.double_dummy import full_tables
        from bidbox.sim.scoring import imps, ns_score

        auction = self.auction()
        if not auction.is_ended:
            raise TableConflictError("the review comes when the auction has ended")
        dealer, vul = Seat.parse(self.spec.dealer), Vulnerability.parse(self.spec.vul)
        tables, pars = full_tables([self.spec.deal], [dealer], [vul])
        table = tables[0]
        sign = 1 if self.seat.side is Side.NS else -1

        def result(of: Auction) -> dict[str, Any]:
            contract = of.contract
            tricks = None if contract is None else int(table[int(contract.strain),
                                                             int(contract.declarer)])
            return {"auction": str(of),
                    "contract": None if contract is None else str(contract),
                    "declarer": None if contract is None else str(contract.declarer),
                    "tricks": tricks, "score": sign * ns_score(contract, tricks, vul)}

        ns, ew = self.ns_ew()
        [robots] = ns.bid_deals([self.spec.deal], dealer, vul, opponents=ew)
        here, there = result(auction), result(robots)
        par = pars[0] if pars else None
        return {
            "hands": {str(s): h.pbn() for s, h in self.hands.items()},
            "double_dummy": {str(strain): {str(seat): int(table[int(strain), int(seat)])
                                           for seat in Seat}
                             for strain in reversed(list(_strains()))},
            "par": None if par is None else {"score": sign * par.ns_score,
                                             "contracts": par.contracts},
            "table": here,
            "robot_table": there,
            "imps": imps(here["score"] - there["score"]),
            "your_calls": self._your_calls(auction),
        }

    def _your_calls(self, auction: Auction) -> list[dict[str, Any]]:
        ns, ew = self.ns_ew()
        explained = _explain_calls(auction, ns, ew)
        hand = self.hands[self.seat]
        features = HandFeatures(np.asarray([hand.suits], dtype=np.int16))
        out = []
        for i, made in enumerate(self.calls):
            if made["by"] != PERSON:
                continue
            before = self.auction(i)
            robot = self.robot_bid(before)
            yours = explained[i]
            fits: bool | None = None
            if yours.shows is not None:
                try:
                    predicate = compile_predicate(yours.shows)
                    fits = bool(predicate(features, table_context(auction, i))[0])
                except BidboxError:
                    fits = None
            row: dict[str, Any] = {
                "index": i, "auction_before": str(before), "call": made["call"],
                "meaning": yours.meaning,
                "shows": None if yours.shows is None else str(yours.shows),
                "shows_text": None if yours.shows is None else
                constraint_words(yours.shows, table_context(auction, i)),
                "hand_fits": fits,
                "system_call": str(robot.call), "system_meaning": robot.meaning,
                "system_reason": robot.reason, "system_source": robot.source,
                "agrees": str(robot.call) == made["call"],
            }
            if not row["agrees"]:
                row["why"] = _why(row, hand)
            out.append(row)
        return out


def _explain_calls(auction: Auction, ns: System, ew: System) -> Explanation:
    """``System.explain`` without the per-seat knowledge: the calls read by the engine's
    explain and judged by the regulation, the same two steps ``rules.alerts`` takes to
    decide one bid's alert."""
    from bidbox.engine.explain import Explanation as EngineExplanation
    from bidbox.engine.explain import _read_calls
    from bidbox.rules.alerts import decide_alerts

    calls, _ = _read_calls(auction, {Side.NS: ns.compiled, Side.EW: ew.compiled},
                           denials=True)
    result = EngineExplanation(auction, calls, {})
    return Explanation(result, tuple(decide_alerts(result, get_regulation("sbu"))))


def _with_forcing_text(row: dict[str, Any]) -> dict[str, Any]:
    """Add ``forcing_text``: the forcing word as ``bidbox explain`` prints it, empty when
    the meaning already says it (one forcing word, not "invitational, invitational")."""
    forcing = Forcing(row["forcing"]) if row.get("forcing") else None
    row["forcing_text"] = ("" if forcing is None or forcing_said(str(row["meaning"]), forcing)
                           else str(forcing))
    return row


def _strains() -> Sequence[Any]:
    from bidbox.core.calls import Strain

    return list(Strain)


def _why(row: Mapping[str, Any], hand: Hand) -> str:
    """One sentence on a call that differs from the system's, from the meanings."""
    shows = row.get("shows_text") or row["shows"]
    if row["hand_fits"] is False:
        mine = f"your {row['call']} shows {shows}, which your hand ({hand.pbn()}) does not hold"
    elif shows is None:
        mine = f"your {row['call']} is not in the system here"
    else:
        mine = f"your {row['call']} shows {shows}"
    return (f"{mine}; the system bids {row['system_call']} ({row['system_meaning']}): "
            f"{row['system_reason']}")


# --- creating a table ---------------------------------------------------------------
def new_table(request: TableRequest, board_hint: int = 1) -> Table:
    """A table from a request: systems checked, the deal chosen, the robots' first calls.

    ``board_hint`` numbers a dealt board (the session's count of tables plus one), so
    dealer and vulnerability follow the 16-board cycle unless the request names them.
    """
    system = check_name(request.system, "system")
    opponents = check_name(request.opponents or request.system, "opponents")
    options = _options(request.options)
    opponent_options = (options if request.opponent_options is None and opponents == system
                        else _options(request.opponent_options))
    system_of(system, options)  # unknown systems and options fail here, before dealing
    system_of(opponents, opponent_options)
    try:
        seat = Seat.parse(request.seat)
    except BidboxError as err:
        raise TableError(f"seat: {err}") from None
    seed = request.seed if request.seed is not None else secrets.randbelow(2**31)
    board = board_hint
    deal: str
    dealer = vul = None
    if request.deal is not None:
        parse_deal(request.deal)
        deal, origin = _north_first(request.deal), "deal given"
    elif request.pbn is not None:
        deal, board, dealer, vul = _from_pbn(request.pbn, request.board)
        origin = f"PBN board {board}"
    else:
        deal, origin = "", ""
    dealer = Seat.parse(request.dealer) if request.dealer else dealer or board_dealer(board)
    vul = (Vulnerability.parse(request.vul) if request.vul
           else vul or board_vulnerability(board))
    if not deal:
        deal, origin = _dealt(request, seed, seat, dealer, vul, system, opponents,
                              options, opponent_options)
    spec = TableSpec(system, opponents, options, opponent_options, str(seat), str(dealer),
                     str(vul), deal, board, origin)
    table = Table(spec, [])
    table.robots_bid()
    return table


# North opens, East passes, South (the person) passes: every step of a table's first
# answer (robots' bids with their reasons, the person's call, the alerts and the worded
# denials) runs once on it.
WARM_DEAL = "N:AKQ2.K54.AQ4.J53 J43.AQ2.K876.Q42 T98.JT9.JT9.AK87 765.8763.532.T96"


def warm_up(names: Sequence[str]) -> None:
    """Build, before the first request, what a new process otherwise builds while a person
    waits for the first table (about 1.5 s): the compiled systems, the dealt pool the
    alert readings measure meanings on and its packed masks, the profile space and its
    masks, the trick model and the score table, the compiled predicates of the first
    round. A table is dealt from ``WARM_DEAL`` in each system, called to the end of a
    round and explained; nothing is stored. Every one of those caches is filled the
    same way by any first table, so no answer depends on whether it ran."""
    for name in names:
        table = new_table(TableRequest(system=name, deal=WARM_DEAL, dealer="N", seat="S"))
        table.explanation()
        table.preview("P")
        table.make_call("P")
        table.explanation()


def _north_first(text: str) -> str:
    hands = parse_deal(text)
    return "N:" + " ".join(hands[s].pbn() for s in Seat)


_LIN_DEAL = re.compile(r"(?:^|\|)\s*md\|", re.IGNORECASE)


def _from_pbn(text: str, board: int | None) -> tuple[str, int, Seat, Vulnerability]:
    """One board of an uploaded PBN or LIN file (read by the simulation lab's reader; a
    text with a LIN deal, ``md|``, and no PBN tag is LIN: a vugraph match's deal once)."""
    if len(text.encode()) > MAX_PBN_BYTES:
        raise TableError(f"pbn: the file is larger than {MAX_PBN_BYTES:,} bytes")
    lin = _LIN_DEAL.search(text) is not None and "[" not in text
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / ("upload.lin" if lin else "upload.pbn")
        path.write_text(text, encoding="utf-8")
        try:
            boards = read_board_file(path)
        except BidboxError as err:
            raise TableError(f"pbn: {str(err).replace(str(path), 'the file')}") from None
    numbers = [int(n) for n in boards.numbers]
    row = 0 if board is None else (numbers.index(board) if board in numbers else -1)
    if row < 0:
        raise TableError(f"pbn: no board {board} in the file (it has boards "
                         f"{', '.join(str(n) for n in numbers[:20])})")
    return boards.pbn(row), numbers[row], boards.dealer(row), boards.vul(row)


def _dealt(request: TableRequest, seed: int, seat: Seat, dealer: Seat, vul: Vulnerability,
           system: str, opponents: str, options: dict[str, str | bool],
           opponent_options: dict[str, str | bool]) -> tuple[str, str]:
    """A random deal, one where the person's hand meets ``constraint``, or one whose
    robot auction begins with ``reach`` (and meets the constraint, when both are given)."""
    where = None
    if request.constraint:
        try:
            where = north_filter(request.constraint)
        except BidboxError as err:
            raise TableError(str(err).replace("--where", "constraint", 1)) from None
    if not request.reach:
        try:
            boards = deal_boards(1, seed, where, max_deals=200_000)
        except BidboxError as err:
            raise TableError(str(err).replace("--where", "constraint", 1)) from None
        masks = _rotate(boards.masks[0], seat)
        origin = f"seed {seed}" + (f", your hand: {request.constraint}" if where else "")
        return _pbn(masks), origin
    try:
        target = Auction.parse(request.reach, dealer, vul)
    except BidboxError as err:
        raise TableError(f"reach: {err}") from None
    ours, theirs = system_of(system, options), system_of(opponents, opponent_options)
    ns, ew = (ours, theirs) if seat.side is Side.NS else (theirs, ours)
    predicate = None if where is None else compile_predicate(where)
    from bidbox.engine.predicates import TableContext

    ctx = TableContext(1, False, False, False)
    want = [str(c) for c in target.calls]
    for round_no in range(REACH_ROUNDS):
        masks = deal_batch(REACH_ROUND, int(np.random.SeedSequence([seed, round_no])
                                            .generate_state(1)[0])).masks
        if predicate is not None:
            masks = masks[predicate(HandFeatures(masks[:, int(seat), :]), ctx)]
        if len(masks) == 0:
            continue
        deals = [_pbn(m) for m in masks]
        for deal, auction in zip(deals, ns.bid_deals(deals, dealer, vul, opponents=ew),
                                 strict=True):
            if [str(c) for c in auction.calls[:len(want)]] == want:
                extra = f", your hand: {request.constraint}" if where is not None else ""
                return deal, f"seed {seed}, reaches '{target}'{extra}"
    raise TableError(f"reach: none of {REACH_ROUND * REACH_ROUNDS:,} dealt boards was bid "
                     f"'{target}' by the robots (dealer {dealer}); try a shorter auction or "
                     "one the system bids more often")


def _rotate(masks: Any, seat: Seat) -> Any:
    """The deal turned so that North's hand (the one the filter read) is ``seat``'s."""
    out = np.empty_like(masks)
    for s in Seat:
        out[int(seat.after(int(s)))] = masks[int(s)]
    return out


def _pbn(masks: Any) -> str:
    return DealBatch(np.asarray([masks], dtype=np.int16)).pbn(0)


# --- rows ------------------------------------------------------------------------------
def new_id() -> str:
    return secrets.token_urlsafe(9)


def table_of(row: TableRow) -> Table:
    return Table(TableSpec.from_json(row.spec), list(row.calls))


def row_of(table: Table, session: str, table_id: str | None = None) -> TableRow:
    now = time.time()
    return TableRow(table_id or new_id(), session, now, now, table.spec.to_json(),
                    list(table.calls))


__all__ = ["PERSON", "ROBOT", "Table", "TableConflictError", "TableError", "TableRequest",
           "TableSpec", "check_name", "new_table", "row_of", "shipped_names", "system_of",
           "table_of"]
