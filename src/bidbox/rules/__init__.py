"""Regulations: alerting, licensing levels and the convention card, from the meanings."""

from bidbox.rules.alerts import decide_alerts
from bidbox.rules.regulation import (
    AlertDecision,
    CallSituation,
    CheckReport,
    LicenceFinding,
    Regulation,
)
from bidbox.rules.sbu import SBU

REGULATIONS: dict[str, Regulation] = {"sbu": SBU()}

__all__ = ["REGULATIONS", "SBU", "AlertDecision", "CallSituation", "CheckReport",
           "LicenceFinding", "Regulation", "decide_alerts"]
