"""Hand measures (one registry, scalar and numpy forms) and the batch dealer."""

from bidbox.evaluate.dealer import DealBatch, deal_batch
from bidbox.evaluate.measures import (
    Measure,
    Value,
    all_measures,
    evaluate_hand,
    get_measure,
    pattern_name,
    shape_name,
)

__all__ = [
    "DealBatch", "Measure", "Value", "all_measures", "deal_batch", "evaluate_hand",
    "get_measure", "pattern_name", "shape_name",
]
