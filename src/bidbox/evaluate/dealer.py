"""The batch dealer: many random deals at once, as suit masks for the batch measures.

endplay deals one board at a time from Python; simulations and system checks need
millions of hands, so dealing is done here with numpy: each row shuffles the 52
owners (13 of each seat) and packs them into 13-bit suit masks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from bidbox.core.hand import Hand
from bidbox.core.seats import Seat

_RANK_WEIGHTS = (1 << np.arange(13, dtype=np.int32)).astype(np.int32)


@dataclass(frozen=True)
class DealBatch:
    """``masks[i, seat, suit]`` is the 13-bit holding of ``seat`` in ``suit`` on deal ``i``.

    Seats are in N, E, S, W order; suits in PBN order S, H, D, C.
    """

    masks: npt.NDArray[np.int16]
    seed: int | None = None

    def __len__(self) -> int:
        return int(self.masks.shape[0])

    def hands(self, seat: Seat) -> npt.NDArray[np.int16]:
        """The ``(N, 4)`` suit masks of one seat, the input of every batch measure."""
        return self.masks[:, int(seat), :]

    def hand(self, index: int, seat: Seat) -> Hand:
        row = self.masks[index, int(seat)]
        return Hand((int(row[0]), int(row[1]), int(row[2]), int(row[3])))

    def pbn(self, index: int, first: Seat = Seat.N) -> str:
        """The PBN deal string, e.g. 'N:AKQ2.J54.T9.8765 ...'."""
        seats = [first.after(k) for k in range(4)]
        return f"{first}:" + " ".join(self.hand(index, s).pbn() for s in seats)

    def to_endplay(self, index: int) -> Any:
        from endplay.types import Deal

        return Deal(self.pbn(index))


def deal_batch(count: int, seed: int | None = None) -> DealBatch:
    """Deal ``count`` random boards; the same seed always gives the same deals."""
    rng = np.random.default_rng(seed)
    owners = np.tile(np.repeat(np.arange(4, dtype=np.int8), 13), (count, 1))
    owners = rng.permuted(owners, axis=1)  # card c = suit*13 + rank index
    masks = np.empty((count, 4, 4), dtype=np.int16)
    for seat in range(4):
        held = (owners == seat).reshape(count, 4, 13).astype(np.int32)
        masks[:, seat, :] = held @ _RANK_WEIGHTS
    return DealBatch(masks, seed)


def masks_of(hands: list[Hand]) -> npt.NDArray[np.int16]:
    """Stack hands into the ``(N, 4)`` mask array the batch measures take."""
    return np.array([h.suits for h in hands], dtype=np.int16).reshape(len(hands), 4)
