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
from bidbox.core.boardtext import (
    LinBoard,
    LinFileError,
    decode_board_bytes,
    pbn_for_endplay,
    read_lin_records,
)
from bidbox.core.calls import Call, CallKind, Strain
from bidbox.core.seats import Seat, Side, Vulnerability
from bidbox.errors import BidboxError, plain_reason
from bidbox.errors import BoardFormatError as BoardFormatError
from bidbox.files import describe_error, write_file
from bidbox.formats.alerting import AlertReader
from bidbox.lang.system import System
from bidbox.rules.regulation import Regulation

FORMATS = {".pbn": "pbn", ".lin": "lin"}

SUIT_SYMBOLS = {"!C": "♣", "!D": "♦", "!H": "♥", "!S": "♠"}


def board_format(path: Path) -> str:
    """'pbn' or 'lin', by the extension of ``path``; anything else is an error naming it."""
    kind = FORMATS.get(path.suffix.lower())
    if kind is None:
        raise BoardFormatError(f"'{path}': a board file ends in .pbn or .lin")
    return kind


def read_boards(path: Path) -> list[Any]:
    """endplay Boards of a PBN or LIN file (by its extension), with their auctions and
    alert notes; a file endplay cannot read is an error naming it."""
    from endplay.parsers import pbn

    kind = board_format(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise BoardFormatError(f"cannot read '{path}': {err.strerror}") from None
    text = decode_board_bytes(data)  # any line ends (issue 17)
    if kind == "lin":
        return [record for _, record in read_lin_boards(path, text)]
    text, _ = pbn_for_endplay(text)  # unseparated boards, annotation glyphs
    try:
        boards = pbn.load(StringIO(text))
    except Exception as err:  # endplay raises many kinds for bad input
        raise BoardFormatError(f"'{path}': not a readable PBN file: "
                               f"{plain_reason(err)}") from None
    return list(boards)


def read_lin_boards(path: Path, text: str | None = None, play: bool = True
                    ) -> list[tuple[LinBoard, Any]]:
    """A LIN file's boards, a hand record's or a vugraph file's
    (``core.boardtext.read_lin_records``), each with the endplay Board read from it.
    ``text``: the file's text, if already read; ``play=False``: the auctions only. An
    error names the board's line."""
    if text is None:
        try:
            text = decode_board_bytes(path.read_bytes())
        except OSError as err:
            raise BoardFormatError(f"cannot read '{path}': {err.strerror}") from None
    try:
        return read_lin_records(text, str(path), play)
    except LinFileError as err:
        raise BoardFormatError(str(err)) from None


_RESULT = re.compile(r'^\[Result "[^"]*"\]$', re.MULTILINE)


def write_boards(boards: Iterable[Any], path: Path) -> None:
    """Write endplay Boards as PBN or LIN (by the extension)."""
    from endplay.parsers import lin, pbn

    kind = board_format(path)
    records = list(boards)
    if kind == "pbn":
        text = pbn.dumps(records)
        # Each board has one [Result] tag, in order: a contract bid but not played has
        # no result (endplay, given none, writes the contract as made).
        unplayed = iter([bool(getattr(b, UNPLAYED, False)) for b in records])
        text = _RESULT.sub(lambda m: '[Result "?"]' if next(unplayed, False)
                          else m.group(0), text)
    else:
        buffer = StringIO()
        lin.dump(records, buffer)
        text = buffer.getvalue()
    try:
        write_file(path, text)  # whole or not at all: never a cut-short board
    except OSError as err:
        raise BoardFormatError(f"cannot write '{path}': {describe_error(err)} (nothing "
                               "written there)") from None


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
                      regulation: Regulation, reader: AlertReader | None = None) -> list[Any]:
    """The auction's calls as endplay Bids: each alerted call marked, with the meaning
    the caller's system gives it as its note (what `bidbox explain` says). A ``reader``
    shared by many auctions of the same systems reads their common beginnings once."""
    if reader is None:
        reader = AlertReader(systems, regulation)
    out = []
    for read in reader.read(auction):
        alert = read.decision.alert
        out.append(_endplay_call(read.reading.step.call, alert,
                                 read.meaning if alert else None))
    return out


UNPLAYED = "bidbox_unplayed"
"""Set on an endplay Board whose contract was bid but not played: its [Result] is '?'
(endplay would write the contract as made exactly)."""


def annotated_board(deal: str, auction: Auction, systems: Mapping[Side, System],
                    regulation: Regulation, board_number: int | None = None,
                    info: Mapping[str, str] | None = None, tricks: int | None = None,
                    reader: AlertReader | None = None) -> Any:
    """An endplay Board: the deal (PBN), the auction with alert marks and notes, the
    contract with its declarer, dealer and vulnerability. ``tricks`` (declarer's, e.g.
    double dummy) is the [Result]; without it the result is written as unknown."""
    from endplay.types import Board, Contract, Deal, Player, Vul

    vul = {Vulnerability.NONE: Vul.none, Vulnerability.NS: Vul.ns,
           Vulnerability.EW: Vul.ew, Vulnerability.BOTH: Vul.both}[auction.vul]
    bids = annotated_auction(auction, systems, regulation, reader)
    contract = None
    if auction.is_ended:
        final = auction.contract
        contract = final.to_endplay() if final is not None else Contract("Pass")
        if final is not None and tricks is not None:
            contract.result = tricks - 6 - final.level
    board = Board(Deal(deal), bids, board_num=board_number, vul=vul,
                  dealer=Player(int(auction.dealer)), contract=contract)
    setattr(board, UNPLAYED, tricks is None)
    for key, value in (info or {}).items():
        board.info[key] = value
    return board


def board_auction(board: Any, with_calls: bool = True) -> Auction:
    """A board's auction as a bidbox Auction (dealer and vulnerability from the board);
    ``with_calls`` False gives only the empty auction of its dealer and vulnerability."""
    from endplay.types import Vul

    vul = {Vul.none: Vulnerability.NONE, Vul.ns: Vulnerability.NS, Vul.ew: Vulnerability.EW,
           Vul.both: Vulnerability.BOTH}[board.vul]
    empty = Auction(Seat(int(board.dealer)), vul)
    return empty.extend(bidbox_call(b) for b in board.auction) if with_calls else empty


def bid_boards(boards: Sequence[Any], ns: System, ew: System, regulation: Regulation,
               keep_original: bool = True, info: Mapping[str, str] | None = None
               ) -> list[Any]:
    """Every board bid by the systems (``ns`` for North-South, ``ew`` for East-West),
    each followed by the board as it was played, as a second table (``keep_original``).
    Boards that share a dealer and vulnerability are bid in one batch."""
    import numpy as np
    from endplay.types import Player

    from bidbox.core.hand import Hand
    from bidbox.engine.batch import bid_batch
    from bidbox.evaluate.dealer import DealBatch

    systems = {Side.NS: ns, Side.EW: ew}
    masks = np.zeros((len(boards), 4, 4), dtype=np.int16)
    places: dict[tuple[Seat, Vulnerability], list[int]] = {}
    for row, board in enumerate(boards):
        for seat in Seat:
            try:
                masks[row, int(seat)] = Hand.parse(board.deal[Player(int(seat))].to_pbn()).suits
            except BidboxError as err:
                raise BoardFormatError(f"board {board.board_num or row + 1}: {seat}'s hand: "
                                       f"{err}") from None
        start = board_auction(board, with_calls=False)
        places.setdefault((start.dealer, start.vul), []).append(row)
    auctions: list[Auction | None] = [None] * len(boards)
    for (dealer, vul), rows in places.items():
        for row, auction in zip(rows, bid_batch(DealBatch(masks[rows]), systems, dealer,
                                                vul).auctions(), strict=True):
            auctions[row] = auction
    reader = AlertReader(systems, regulation)
    tags = {"Event": f"bidbox: {ns.name} v {ew.name}", **({"Room": "bidbox"}
                                                           if keep_original else {}),
            **(info or {})}
    out: list[Any] = []
    for row, board in enumerate(boards):
        bid = auctions[row]
        assert bid is not None
        out.append(annotated_board(board.deal.to_pbn(), bid, systems, regulation,
                                   board.board_num or row + 1, tags, reader=reader))
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


__all__ = ["UNPLAYED", "BoardFormatError", "annotated_auction", "annotated_board", "bid_boards",
           "bidbox_call", "board_auction", "board_format", "note_text", "read_boards",
           "read_lin_boards", "write_boards"]
