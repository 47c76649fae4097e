"""Core bridge vocabulary: calls, auctions, seats, hands (thin over endplay)."""

from bidbox.core.auction import Auction, Contract, split_calls
from bidbox.core.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, SUITS, Call, CallKind, Strain
from bidbox.core.hand import Hand
from bidbox.core.seats import Seat, Side, Vulnerability

__all__ = [
    "ALL_BIDS", "DOUBLE", "PASS", "REDOUBLE", "SUITS", "Auction", "Call", "CallKind",
    "Contract", "Hand", "Seat", "Side", "Strain", "Vulnerability", "split_calls",
]
