"""Export of played tables to PBN and LIN through endplay: deal, auction with alert notes,
contract.

An alerted call carries its meaning as a PBN note (``=1=`` in the auction, ``[Note "1:..."]``
after it; in LIN ``!`` and ``an|...|``), which is how other programs show alerts; the
double-dummy result is written when the review has been computed.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from bidbox.core.auction import Auction
from bidbox.core.seats import Seat, Vulnerability
from bidbox.sim.deals import to_endplay_vul
from bidbox.web.store import TableRow


def _board(row: TableRow) -> Any:
    from endplay.types import Bid, Board, Deal, Player

    spec = row.spec
    auction = Auction.parse(" ".join(c["call"] for c in row.calls),
                            Seat.parse(spec["dealer"]), Vulnerability.parse(spec["vul"]))
    board = Board(Deal(spec["deal"]), board_num=int(spec["board"]),
                  vul=to_endplay_vul(auction.vul), dealer=Player(int(auction.dealer)))
    explained = (row.explanation or {}).get("calls", [])
    bids = []
    for i, call in enumerate(auction.calls):
        bid = Bid(str(call))
        if i < len(explained) and explained[i].get("alert"):
            bid.alertable = True
            bid.announcement = str(explained[i].get("meaning") or "alert")
        bids.append(bid)
    board.auction = bids
    board.info["Event"] = "bidbox bidding table"
    board.info["Site"] = f"table {row.id}"
    names = {"N": "North", "E": "East", "S": "South", "W": "West"}
    you = spec["seat"]
    for seat, tag in names.items():
        partners = Seat.parse(seat).side is Seat.parse(you).side
        system = spec["system"] if partners else spec["opponents"]
        board.info[tag] = "you" if seat == you else f"robot ({system})"
    contract = auction.contract
    if contract is not None:
        played = contract.to_endplay()
        tricks = (row.review or {}).get("table", {}).get("tricks")
        if tricks is not None:
            played.result = int(tricks) - 6 - contract.level
        board.contract = played
    return board


def tables_to_pbn(rows: Sequence[TableRow]) -> str:
    """The PBN text of the given tables, one board each, in the order given."""
    from endplay.parsers import pbn

    out = io.StringIO()
    pbn.dump([_board(r) for r in rows], out)
    return out.getvalue()


def tables_to_lin(rows: Sequence[TableRow]) -> str:
    """The LIN text of the given tables (BBO's format), one board each."""
    from endplay.parsers import lin

    out = io.StringIO()
    lin.dump([_board(r) for r in rows], out)
    return out.getvalue()


__all__ = ["tables_to_lin", "tables_to_pbn"]
