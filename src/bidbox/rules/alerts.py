"""Alert decisions for every call of an explained auction, and their place in the JSON.

This is the one source of alert decisions: the CLI, the Python API and the convention
card all ask here, so a call is never alerted by one reader and not by another.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bidbox.core.auction import Auction
from bidbox.core.calls import Call
from bidbox.core.seats import Side
from bidbox.engine.explain import Explanation
from bidbox.engine.inference import CallReading, read_auction
from bidbox.engine.walk import table_context
from bidbox.lang.system import System
from bidbox.rules.regulation import AlertDecision, CallSituation, Regulation


def decide_alerts(explanation: Explanation, regulation: Regulation) -> list[AlertDecision]:
    """One decision per call, each naming the rule and section that made it."""
    auction: Auction = explanation.auction
    entries = tuple(c.entry for c in explanation.calls)
    meanings = tuple(c.effective for c in explanation.calls)
    return [regulation.alert(CallSituation(auction, i, entries, table_context(auction, i),
                                           meanings))
            for i in range(len(auction.calls))]


def decide_call_alert(auction: Auction, call: Call, systems: Mapping[Side, System],
                      regulation: Regulation) -> AlertDecision:
    """The decision for ``call`` made next in ``auction``.

    A regulation judges a call by what the whole auction so far says (negative
    inference included), so the call is explained in place rather than on its own.
    """
    # Only the calls' readings are judged: what each seat is known to hold (explain()'s
    # knowledge, measured on the profile space or 400,000 dealt hands) is not built here,
    # which would cost a `bidbox bid` most of its time; and only this call is judged.
    after = auction.add(call)
    return decide_reading_alert(after, read_auction(after, systems), regulation)


def decide_reading_alert(auction: Auction, readings: Sequence[CallReading],
                         regulation: Regulation) -> AlertDecision:
    """The decision for the last call of ``auction`` from the table's readings of its calls
    (``engine.inference``), which a caller reading many auctions may keep from one to the
    next: the same situation :func:`decide_alerts` judges, built from the same readings."""
    index = len(auction.calls) - 1
    entries = tuple(r.entry for r in readings)
    meanings = tuple(r.shows if r.entry is not None else None for r in readings)
    return regulation.alert(CallSituation(auction, index, entries,
                                          table_context(auction, index), meanings))


def alert_rule(decision: AlertDecision) -> str:
    """The rule with its section, as printed: 'conventional (2.3.2 §1)'."""
    return f"{decision.rule} ({decision.section})"


def bid_alert_json(data: dict[str, object], decision: AlertDecision) -> dict[str, object]:
    """A bid's JSON with the regulation's decision in it (``bidbox bid --json``).

    ``alert`` keeps its place and takes the regulation's value; the other keys are added
    after the engine's, so the order a reader sees never changes.
    """
    out = dict(data)
    out["alert"] = decision.alert
    out["alert_rule"] = alert_rule(decision)
    out["stop_card"] = decision.stop_card
    return out


def call_alert_json(row: dict[str, object], decision: AlertDecision) -> dict[str, object]:
    """One explained call's JSON with its decision merged (``bidbox explain --json``)."""
    out = dict(row)
    out["alert"] = decision.alert
    out["alert_rule"] = alert_rule(decision)
    out["alert_reason"] = decision.reason
    out["alert_override"] = decision.override
    out["stop_card"] = decision.stop_card
    return out


def explanation_alert_json(explanation: Explanation, decisions: Sequence[AlertDecision]
                           ) -> dict[str, object]:
    """The whole explanation's JSON with every call's decision merged."""
    data = explanation.to_json()
    data["calls"] = [call_alert_json(c.to_json(), d)
                     for c, d in zip(explanation.calls, decisions, strict=True)]
    return data
