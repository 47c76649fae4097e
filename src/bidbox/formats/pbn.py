"""PBN and LIN boards with auctions, alert marks and the explanation of each alerted call.

Reading and writing are endplay's (``endplay.parsers.pbn`` and ``.lin``): a PBN auction's
``=n=`` marks with ``[Note "n: ..."]`` tags, and LIN's ``mb|1C!|an|...|``, are endplay's
``Bid.alertable`` and ``Bid.announcement``. What bidbox adds is the content: each call of
an auction bid by a system carries the regulation's alert decision and, when alerted,
the meaning the system gives it, the same text `bidbox explain` prints.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from io import StringIO
from pathlib import Path
from typing import Any

from bidbox.core.auction import Auction
from bidbox.core.calls import Call, CallKind, Strain
from bidbox.core.seats import Seat, Side, Vulnerability
from bidbox.engine.explain import Explanation, _read_calls
from bidbox.errors import BidboxError
from bidbox.lang.system import System
from bidbox.rules.alerts import decide_alerts
from bidbox.rules.regulation import Regulation


class BoardFormatError(BidboxError):
    """A PBN or LIN file that cannot be read or written."""


FORMATS = {".pbn": "pbn", ".lin": "lin"}

SUIT_SYMBOLS = {"!C": "♣", "!D": "♦", "!H": "♥", "!S": "♠"}


def _format_of(path: Path) -> str:
    kind = FORMATS.get(path.suffix.lower())
    if kind is None:
        raise BoardFormatError(f"'{path}': a board file ends in .pbn or .lin")
    return kind


def read_boards(path: Path) -> list[Any]:
    """endplay Boards of a PBN or LIN file (by its extension), with their auctions and
    alert notes; a file endplay cannot read is an error naming it."""
    from endplay.parsers import lin, pbn

    kind = _format_of(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise BoardFormatError(f"cannot read '{path}': {err.strerror}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    try:
        boards = pbn.load(StringIO(text)) if kind == "pbn" else lin.load(StringIO(text))
    except Exception as err:  # endplay raises many kinds for bad input
        raise BoardFormatError(f"'{path}': not a readable {kind.upper()} file: {err}"
                               ) from None
    return list(boards)


def write_boards(boards: Iterable[Any], path: Path) -> None:
    """Write endplay Boards as PBN or LIN (by the extension)."""
    from endplay.parsers import lin, pbn

    kind = _format_of(path)
    records = list(boards)
    try:
        with path.open("w", encoding="utf-8") as out:
            if kind == "pbn":
                pbn.dump(records, out)
            else:
                lin.dump(records, out)
    except OSError as err:
        raise BoardFormatError(f"cannot write '{path}': {err.strerror}") from None


def _endplay_call(call: Call, alert: bool, note: str | None) -> Any:
    from endplay.types import Bid

    return Bid(str(call), alertable=alert, announcement=note)


def bidbox_call(bid: Any) -> Call:
    """An endplay Bid as a bidbox Call."""
    from endplay.types import ContractBid, Penalty

    if isinstance(bid, ContractBid):
        strain = {0: Strain.S, 1: Strain.H, 2: Strain.D, 3: Strain.C, 4: Strain.NT}[
            int(bid.denom)]
        return Call.bid(bid.level, strain)
    return Call({Penalty.passed: CallKind.PASS, Penalty.doubled: CallKind.DOUBLE,
                 Penalty.redoubled: CallKind.REDOUBLE}[bid.penalty])


def annotated_auction(auction: Auction, systems: Mapping[Side, System],
                      regulation: Regulation) -> list[Any]:
    """The auction's calls as endplay Bids: each alerted call marked, with the meaning
    the caller's system gives it as its note (what `bidbox explain` says)."""
    calls, _ = _read_calls(auction, systems)
    decisions = decide_alerts(Explanation(auction, calls, {}), regulation)
    out = []
    for explained, decision in zip(calls, decisions, strict=True):
        note = explained.meaning if decision.alert else None
        out.append(_endplay_call(explained.call, decision.alert, note))
    return out


def annotated_board(deal: str, auction: Auction, systems: Mapping[Side, System],
                    regulation: Regulation, board_number: int | None = None,
                    info: Mapping[str, str] | None = None) -> Any:
    """An endplay Board: the deal (PBN), the auction with alert marks and notes, the
    contract, dealer and vulnerability."""
    from endplay.types import Board, Contract, Deal, Player, Vul

    vul = {Vulnerability.NONE: Vul.none, Vulnerability.NS: Vul.ns,
           Vulnerability.EW: Vul.ew, Vulnerability.BOTH: Vul.both}[auction.vul]
    bids = annotated_auction(auction, systems, regulation)
    contract = None
    if auction.is_ended:
        final = auction.contract
        contract = Contract(str(final)) if final is not None else Contract("Pass")
    board = Board(Deal(deal), bids, board_num=board_number, vul=vul,
                  dealer=Player(int(auction.dealer)), contract=contract)
    for key, value in (info or {}).items():
        board.info[key] = value
    return board


def board_auction(board: Any) -> Auction:
    """A board's auction as a bidbox Auction (dealer and vulnerability from the board)."""
    from endplay.types import Vul

    vul = {Vul.none: Vulnerability.NONE, Vul.ns: Vulnerability.NS, Vul.ew: Vulnerability.EW,
           Vul.both: Vulnerability.BOTH}[board.vul]
    return Auction(Seat(int(board.dealer)), vul).extend(bidbox_call(b) for b in board.auction)


def bid_boards(boards: Sequence[Any], ns: System, ew: System, regulation: Regulation,
               keep_original: bool = True) -> list[Any]:
    """Every board bid by the systems (``ns`` for North-South, ``ew`` for East-West),
    each followed by the board as it was played, as a second table."""
    import numpy as np
    from endplay.types import Player

    from bidbox.core.hand import Hand
    from bidbox.engine.batch import bid_batch
    from bidbox.evaluate.dealer import DealBatch

    out: list[Any] = []
    systems = {Side.NS: ns, Side.EW: ew}
    for number, board in enumerate(boards, 1):
        deal = board.deal.to_pbn()
        original = board_auction(board)
        masks = np.zeros((1, 4, 4), dtype=np.int16)
        for seat in Seat:
            try:
                masks[0, int(seat)] = Hand.parse(board.deal[Player(int(seat))].to_pbn()).suits
            except BidboxError as err:
                raise BoardFormatError(f"board {board.board_num or number}: {seat}'s hand: "
                                       f"{err}") from None
        [auction] = bid_batch(DealBatch(masks), systems, original.dealer,
                              original.vul).auctions()
        tag = board.board_num or number
        out.append(annotated_board(deal, auction, systems, regulation, tag,
                                   {"Room": "bidbox", "Event": f"bidbox: {ns.name} v {ew.name}"}))
        if keep_original:
            board.info["Room"] = "original"
            out.append(board)
    return out


def note_text(text: str | None) -> str:
    """A note as it reads after endplay's LIN decoding (BBO's ``!C`` suit codes as
    symbols), trimmed: the form in which PBN and LIN notes compare."""
    if text is None:
        return ""
    return re.sub(r"![CDHScdhs]", lambda m: SUIT_SYMBOLS[m.group(0).upper()], text).strip()


__all__ = ["BoardFormatError", "annotated_auction", "annotated_board", "bid_boards",
           "bidbox_call", "board_auction", "note_text", "read_boards", "write_boards"]
