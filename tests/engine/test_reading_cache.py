"""The batch bidder's auctions do not depend on what the process bid before.

Readings of calls are kept between batches; one kept under another dealer (the same
calls made by another seat) once filed its facts under the wrong seat, so a balancing
decision changed with the order in which boards were bid.
"""

from __future__ import annotations

from pathlib import Path

import bidbox.engine.batch as batch
import bidbox.engine.estimate as estimate
import bidbox.engine.inference as inference
import bidbox.engine.walk as walk
from bidbox.core.seats import Side
from bidbox.lang.compiler import compile_text
from bidbox.sim.deals import deal_boards
from bidbox.sim.match import bid_table

STRONG = """system small
1NT hcp 15-17, balanced
1C hcp 12+
P hcp 0-11
"""


def _forget() -> None:
    inference._READINGS.clear()
    estimate._CACHE.clear()
    estimate._BY_STATE.clear()
    estimate._BY_CALLS.clear()
    estimate._MASKS.clear()
    batch._LEARNT.clear()
    walk._CHILDREN.clear()
    walk._STARTS.clear()


def test_auctions_do_not_depend_on_earlier_batches(tmp_path: Path) -> None:
    strong = compile_text(STRONG, str(tmp_path / "strong.bbx"))
    weak = compile_text(STRONG.replace("15-17", "12-14"), str(tmp_path / "weak.bbx"))
    boards = deal_boards(48, 3)
    seatings = ({Side.NS: strong, Side.EW: weak}, {Side.NS: weak, Side.EW: strong})
    _forget()
    together = [bid_table(boards, systems)[0] for systems in seatings]
    for row in range(len(boards)):
        _forget()
        alone = [bid_table(boards.take([row]), systems)[0][0] for systems in seatings]
        assert [str(a) for a in alone] == [str(t[row]) for t in together], row
