"""The engine: bid a hand, bid many deals, explain an auction."""

from bidbox.engine.batch import BatchAuctions, bid_batch
from bidbox.engine.bidder import BidResult, as_systems, bid_deal, choose_call
from bidbox.engine.explain import Explanation, explain

__all__ = ["BatchAuctions", "BidResult", "Explanation", "as_systems", "bid_batch", "bid_deal",
           "choose_call", "explain"]
