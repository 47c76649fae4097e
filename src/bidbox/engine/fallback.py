"""The natural fallback: what a hand calls where its system has nothing to say.

Where the notes are silent the engine must still call, and say that it did. The
fallback is deliberately plain: pass, unless partner's last call was forcing, in
which case it makes the cheapest bid in its longest suit (no-trump when balanced)
so that a forcing call is never dropped. Every fallback call is flagged.
"""

from __future__ import annotations

from bidbox.core.auction import Auction
from bidbox.core.calls import PASS, Call, Strain
from bidbox.lang.system import CallEntry

FALLBACK_PASS_TEXT = "no agreement here: natural fallback pass"
FALLBACK_BID_TEXT = "no agreement here: natural fallback, cheapest bid in the longest suit " \
    "(partner's call was forcing)"


def partner_forced(auction: Auction, partner_entry: CallEntry | None) -> bool:
    """Whether partner's last call obliges us to bid (and the right-hand opponent passed)."""
    if partner_entry is None or partner_entry.forcing is None:
        return False
    if not partner_entry.forcing.is_forcing:
        return False
    # An opponent's bid or double after the forcing call releases the obligation.
    return bool(auction.calls) and auction.calls[-1] == PASS


def fallback_bid(auction: Auction, lengths: list[int], balanced: bool) -> Call:
    """The cheapest legal bid in the longest suit (higher-ranking on a tie), or NT if balanced."""
    if balanced:
        strain = Strain.NT
    else:
        best = max(range(4), key=lambda i: (lengths[i], -i))
        strain = Strain.from_suit_index(best)
    last = auction.last_bid
    level = 1
    if last is not None:
        assert last.strain is not None
        level = last.level + (1 if strain <= last.strain else 0)
    if level > 7:
        return PASS
    return Call.bid(level, strain)
