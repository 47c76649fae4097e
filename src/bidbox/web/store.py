"""The bidding table's store: every table (a board being bid or bid to the end) in SQLite.

One row per table: the session that owns it, what was asked for (systems, seat, deal),
the calls made so far with who made them, and the last explanation and review computed,
so a page load never re-runs the engine. Rows are written in one statement each, so a
request that fails part-way (an illegal call) leaves the stored table as it was.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    session TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    spec TEXT NOT NULL,
    calls TEXT NOT NULL,
    explanation TEXT,
    review TEXT
);
CREATE INDEX IF NOT EXISTS tables_by_session ON tables (session, created);
"""


def default_db_path() -> Path:
    """The embedded default: ``bidbox.sqlite`` in the user's data directory.

    ``$XDG_DATA_HOME/bidbox`` (``~/.local/share/bidbox`` when unset), the place the
    freedesktop convention gives per-user application data on Linux and most Unixes.
    """
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bidbox" / "bidbox.sqlite"


@dataclass
class TableRow:
    """One stored table. ``spec`` and ``calls`` are JSON-ready values."""

    id: str
    session: str
    created: float
    updated: float
    spec: dict[str, Any]
    calls: list[dict[str, Any]]
    explanation: dict[str, Any] | None = None
    review: dict[str, Any] | None = None


class TableStore:
    """Tables in one SQLite file; safe to share between the server's worker threads.

    Each operation opens its own connection (sqlite3 connections are per thread) and
    the file runs in WAL mode, so readers do not wait for a writer.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._write_lock = threading.Lock()
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=30)
        try:
            with db:  # commits, or rolls back on an exception
                yield db
        finally:
            db.close()

    def insert(self, row: TableRow) -> None:
        with self._write_lock, self._connect() as db:
            db.execute("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (row.id, row.session, row.created, row.updated, json.dumps(row.spec),
                        json.dumps(row.calls), _dump(row.explanation), _dump(row.review)))

    def update(self, row: TableRow) -> None:
        """Store the row's calls, explanation and review (the spec never changes)."""
        row.updated = time.time()
        with self._write_lock, self._connect() as db:
            db.execute("UPDATE tables SET updated = ?, calls = ?, explanation = ?, review = ? "
                       "WHERE id = ? AND session = ?",
                       (row.updated, json.dumps(row.calls), _dump(row.explanation),
                        _dump(row.review), row.id, row.session))

    def get(self, table_id: str, session: str) -> TableRow | None:
        """The table, or None when it does not exist or belongs to another session."""
        with self._connect() as db:
            found = db.execute("SELECT * FROM tables WHERE id = ? AND session = ?",
                               (table_id, session)).fetchone()
        return None if found is None else _row(found)

    def history(self, session: str, limit: int = 200) -> list[TableRow]:
        """The session's tables, newest first."""
        with self._connect() as db:
            rows = db.execute("SELECT * FROM tables WHERE session = ? ORDER BY created DESC "
                              "LIMIT ?", (session, limit)).fetchall()
        return [_row(r) for r in rows]


def _dump(value: dict[str, Any] | None) -> str | None:
    return None if value is None else json.dumps(value)


def _row(found: tuple[Any, ...]) -> TableRow:
    table_id, session, created, updated, spec, calls, explanation, review = found
    return TableRow(table_id, session, created, updated, json.loads(spec), json.loads(calls),
                    None if explanation is None else json.loads(explanation),
                    None if review is None else json.loads(review))


__all__ = ["TableRow", "TableStore", "default_db_path"]
