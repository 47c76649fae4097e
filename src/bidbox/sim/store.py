"""The results store: one SQLite file per output folder, so a killed run resumes.

Board results are keyed by (match, source, deal index): the match key names the systems,
their options and the mode; the source names the deals (``seed:S`` or a PBN file's
digest). A batch of boards is written in one transaction when it is finished, so after a
kill every board is either stored whole or not at all, and a rerun plays exactly the
boards that are missing. Double-dummy cells are kept too, keyed by the deal itself, so a
later match on the same deals (another pair of systems, say) solves only new contracts.

SQLite from the standard library: one writer (the process that runs the match; workers
only compute), no server, and a file a person can open with any SQLite tool.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from bidbox.errors import StoreError as StoreError
from bidbox.sim.match import BoardResult

STORE_NAME = "sim.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    match TEXT PRIMARY KEY,
    description TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS boards (
    match TEXT NOT NULL,
    source TEXT NOT NULL,
    deal_index INTEGER NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY (match, source, deal_index)
);
CREATE TABLE IF NOT EXISTS double_dummy (
    deal TEXT NOT NULL,
    cell TEXT NOT NULL,
    tricks INTEGER NOT NULL,
    PRIMARY KEY (deal, cell)
);
"""


class ResultStore:
    """Finished boards and solved double-dummy cells in ``DIR/sim.sqlite`` (or in memory)."""

    def __init__(self, folder: Path | None) -> None:
        self.path = folder / STORE_NAME if folder is not None else None
        self.read_only = False
        """True once a write was refused (a read-only folder or file, a read-only mount):
        what is stored can still be read and reported; only new boards cannot be kept."""
        if folder is not None and folder.exists() and not folder.is_dir():
            # mkdir's own words ("File exists") would not say what is wrong with it
            raise StoreError(f"cannot keep results in '{folder}': it is a file, not a folder "
                             "(give --out a folder, new or one a match wrote)")
        try:
            if folder is not None:
                folder.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path) if self.path else ":memory:")
            self._db.executescript(_SCHEMA)  # a no-op (no write) when the tables exist
        except (OSError, sqlite3.Error) as err:
            raise StoreError(f"cannot open the results store {self.path}: {err}") from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def register(self, match: str, description: Mapping[str, Any]) -> None:
        """Record what a match key stands for (for people reading the store)."""
        try:
            with self._db:
                self._db.execute("INSERT OR IGNORE INTO matches VALUES (?, ?)",
                                 (match, json.dumps(description, sort_keys=True)))
        except sqlite3.OperationalError as err:
            if not _refused(err):
                raise StoreError(f"cannot write to the results store {self.path}: {err}"
                                 ) from None
            self.read_only = True  # a description only: a complete store still reports

    def refuse_new(self, count: int) -> None:
        """The error for boards that a read-only store cannot keep."""
        raise StoreError(f"cannot store {count:,} new board(s) in {self.path}: it is "
                         "read-only (make the folder writable, or give another --out)")

    def finished(self, match: str, source: str) -> set[int]:
        """Deal indices of this match and source that are already stored."""
        rows = self._db.execute("SELECT deal_index FROM boards WHERE match = ? AND source = ?",
                                (match, source))
        return {int(r[0]) for r in rows}

    def save(self, match: str, source: str, results: Iterable[BoardResult],
             cells: Mapping[str, Mapping[str, int]] | None = None) -> int:
        """Store finished boards (and new double-dummy cells) in one transaction.

        A board already stored is left as it is (never counted twice); the return value
        is the number of boards newly stored.
        """
        rows = [(match, source, r.deal_index, json.dumps(r.to_json())) for r in results]
        cell_rows = [(deal, cell, int(t)) for deal, found in (cells or {}).items()
                     for cell, t in found.items()]
        if not rows and not cell_rows:
            return 0  # nothing to write: a read-only store is no obstacle
        try:
            with self._db:
                before = self._db.total_changes
                self._db.executemany("INSERT OR IGNORE INTO boards VALUES (?, ?, ?, ?)", rows)
                stored = self._db.total_changes - before
                self._db.executemany("INSERT OR IGNORE INTO double_dummy VALUES (?, ?, ?)",
                                     cell_rows)
        except sqlite3.Error as err:
            if isinstance(err, sqlite3.OperationalError) and _refused(err):
                self.read_only = True
                self.refuse_new(len(rows))
            raise StoreError(f"cannot write to the results store {self.path}: {err}") from None
        return stored

    def load(self, match: str, source: str, count: int) -> list[BoardResult]:
        """The stored boards with deal index below ``count``, in deal order."""
        rows = self._db.execute(
            "SELECT result FROM boards WHERE match = ? AND source = ? AND deal_index < ? "
            "ORDER BY deal_index", (match, source, count))
        return [BoardResult.from_json(json.loads(r[0])) for r in rows]

    def known_cells(self, deals: Sequence[str]) -> dict[str, dict[str, int]]:
        """Double-dummy cells already solved for these deals (PBN strings)."""
        out: dict[str, dict[str, int]] = {}
        for start in range(0, len(deals), 500):
            part = list(deals[start:start + 500])
            marks = ",".join("?" * len(part))
            rows = self._db.execute(
                f"SELECT deal, cell, tricks FROM double_dummy WHERE deal IN ({marks})", part)
            for deal, cell, tricks in rows:
                out.setdefault(str(deal), {})[str(cell)] = int(tricks)
        return out


def _refused(err: sqlite3.OperationalError) -> bool:
    """Whether SQLite refused a write because the file or its folder is read-only."""
    return (getattr(err, "sqlite_errorname", "").startswith("SQLITE_READONLY")
            or "readonly database" in str(err))


__all__ = ["STORE_NAME", "ResultStore", "StoreError"]
