"""bidbox: contract-bridge bidding systems as executable data."""

from bidbox.errors import BidboxError

__all__ = ["BidboxError", "__version__"]
__version__ = "0.1.0"
