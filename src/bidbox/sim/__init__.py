"""The simulation lab: two systems bid the same boards, scored double dummy, in IMPs.

- :mod:`bidbox.sim.deals`: boards dealt by seed (optionally filtered) or read from PBN;
- :mod:`bidbox.sim.match`: the team match on a batch of boards (the unit of work);
- :mod:`bidbox.sim.double_dummy` and :mod:`bidbox.sim.scoring`: DDS, scores, IMPs;
- :mod:`bidbox.sim.store`, :mod:`bidbox.sim.parallel`, :mod:`bidbox.sim.runner`: the
  resumable store, the local pool or Dask cluster, and the run that ties them together;
- :mod:`bidbox.sim.report` and :mod:`bidbox.sim.plots`: what a person reads and sees.
"""

from bidbox.sim.deals import (
    BoardFileError,
    Boards,
    DealConstraintError,
    board_dealer,
    board_vulnerability,
    deal_boards,
    north_filter,
    read_board_file,
    read_pbn_boards,
    write_pbn_boards,
)
from bidbox.sim.match import BoardResult, MatchSpec, SystemRef, TableResult, play_boards
from bidbox.sim.report import MatchReport, build_report
from bidbox.sim.runner import MatchRun, run_match
from bidbox.sim.scoring import imps

__all__ = [
    "BoardFileError", "BoardResult", "Boards", "DealConstraintError", "MatchReport",
    "MatchRun", "MatchSpec", "SystemRef", "TableResult", "board_dealer",
    "board_vulnerability", "build_report", "deal_boards", "imps", "north_filter",
    "play_boards", "read_board_file", "read_pbn_boards", "run_match", "write_pbn_boards",
]
