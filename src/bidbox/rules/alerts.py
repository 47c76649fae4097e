"""Alert decisions for every call of an explained auction."""

from __future__ import annotations

from bidbox.core.auction import Auction
from bidbox.engine.explain import Explanation
from bidbox.engine.walk import table_context
from bidbox.rules.regulation import AlertDecision, CallSituation, Regulation


def decide_alerts(explanation: Explanation, regulation: Regulation) -> list[AlertDecision]:
    """One decision per call, each naming the rule and section that made it."""
    auction: Auction = explanation.auction
    entries = tuple(c.entry for c in explanation.calls)
    meanings = tuple(c.effective for c in explanation.calls)
    return [regulation.alert(CallSituation(auction, i, entries, table_context(auction, i),
                                           meanings))
            for i in range(len(auction.calls))]
