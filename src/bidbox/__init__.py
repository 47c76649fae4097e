"""bidbox: contract-bridge bidding systems as executable data.

The Python API (:mod:`bidbox.api`) and the core types are reachable from here::

    >>> import bidbox
    >>> bidbox.Hand.parse("AKQ2.J54.T9.8765").lengths
    (4, 3, 2, 4)

Names load on first use (PEP 562), so ``import bidbox`` costs no numpy, engine or
plotting import; a script that only reads hands never pays for the bidder.
"""

from __future__ import annotations

from bidbox.errors import BidboxError

TYPE_CHECKING = False  # not typing's: importing typing alone costs more than this module
if TYPE_CHECKING:
    from bidbox.api import (
        AuctionEndedError,
        Bid,
        DealError,
        ExplainedCall,
        Explanation,
        System,
        TableMismatchError,
        UnknownRegulationError,
        check,
        load_system,
    )
    from bidbox.core import (
        Auction,
        Call,
        CallKind,
        Contract,
        Hand,
        Seat,
        Side,
        Strain,
        Vulnerability,
    )
    from bidbox.errors import HandError, IllegalCallError, NotationError
    from bidbox.evaluate import DealBatch, deal_batch
    from bidbox.lang import OptionError, SystemFileError, shipped_systems
    from bidbox.lang.loader import UnknownSystemError
    from bidbox.rules import AlertDecision, CheckReport, LicenceFinding
    from bidbox.verify import Finding

__version__ = "0.1.0"

_LAZY: dict[str, str] = {
    **dict.fromkeys(("AuctionEndedError", "Bid", "DealError", "ExplainedCall", "Explanation",
                     "System", "TableMismatchError", "UnknownRegulationError", "check",
                     "load_system"), "bidbox.api"),
    **dict.fromkeys(("Auction", "Call", "CallKind", "Contract", "Hand", "Seat", "Side",
                     "Strain", "Vulnerability"), "bidbox.core"),
    **dict.fromkeys(("HandError", "IllegalCallError", "NotationError"), "bidbox.errors"),
    **dict.fromkeys(("DealBatch", "deal_batch"), "bidbox.evaluate"),
    **dict.fromkeys(("OptionError", "SystemFileError", "shipped_systems"), "bidbox.lang"),
    "UnknownSystemError": "bidbox.lang.loader",
    **dict.fromkeys(("AlertDecision", "CheckReport", "LicenceFinding"), "bidbox.rules"),
    "Finding": "bidbox.verify",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'bidbox' has no attribute '{name}'")
    from importlib import import_module

    value = getattr(import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = ["AlertDecision", "Auction", "AuctionEndedError", "Bid", "BidboxError", "Call",
           "CallKind", "CheckReport", "Contract", "DealBatch", "DealError", "ExplainedCall",
           "Explanation", "Finding", "Hand", "HandError", "IllegalCallError", "LicenceFinding",
           "NotationError", "OptionError", "Seat", "Side", "Strain", "System",
           "SystemFileError", "TableMismatchError", "UnknownRegulationError",
           "UnknownSystemError", "Vulnerability", "__version__", "check", "deal_batch",
           "load_system", "shipped_systems"]
