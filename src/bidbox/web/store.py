"""The bidding table's store: every table (a board being bid or bid to the end) in SQLite.

One row per table: the session that owns it, what was asked for (systems, seat, deal),
the calls made so far with who made them, and the last explanation and review computed,
so a page load never re-runs the engine. Rows are written in one statement each, so a
request that fails part-way (an illegal call) leaves the stored table as it was.

Several server processes may share the file (``bidbox serve --workers N``): the lock of
one process does not hold the others back, so every row carries a ``version`` that each
change must name. The UPDATE matches only the version the change was computed from and
raises it by one; a second change computed from the same version finds no row to update
and gets :class:`StaleTableError` (the API's 409) instead of silently overwriting the
first one's calls.
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

from bidbox.errors import StaleTableError as StaleTableError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    session TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    spec TEXT NOT NULL,
    calls TEXT NOT NULL,
    explanation TEXT,
    review TEXT,
    version INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS tables_by_session ON tables (session, created);
"""


_COLUMNS = "id, session, created, updated, spec, calls, explanation, review, version"


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
    version: int = 0
    """The stored version this row was read at (or written as): see the module notes."""


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
            columns = {r[1] for r in db.execute("PRAGMA table_info(tables)")}
            if "version" not in columns:  # a store written before versions existed
                db.execute("ALTER TABLE tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0")

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
            db.execute(f"INSERT INTO tables ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (row.id, row.session, row.created, row.updated, json.dumps(row.spec),
                        json.dumps(row.calls), _dump(row.explanation), _dump(row.review),
                        row.version))

    def update(self, row: TableRow) -> None:
        """Store the row's calls, explanation and review (the spec never changes), if the
        stored table is still at ``row.version``; then ``row.version`` is the new one.

        One UPDATE statement checks and raises the version, so SQLite's write lock makes
        the check and the write one step even across processes.
        """
        updated = time.time()
        with self._write_lock, self._connect() as db:
            changed = db.execute(
                "UPDATE tables SET updated = ?, calls = ?, explanation = ?, review = ?, "
                "version = version + 1 WHERE id = ? AND session = ? AND version = ?",
                (updated, json.dumps(row.calls), _dump(row.explanation), _dump(row.review),
                 row.id, row.session, row.version)).rowcount
        if changed != 1:
            raise StaleTableError(f"table '{row.id}' was changed by another request while "
                                  "this one was computed: reload it and try again")
        row.updated, row.version = updated, row.version + 1

    def get(self, table_id: str, session: str) -> TableRow | None:
        """The table, or None when it does not exist or belongs to another session."""
        with self._connect() as db:
            found = db.execute(f"SELECT {_COLUMNS} FROM tables WHERE id = ? AND session = ?",
                               (table_id, session)).fetchone()
        return None if found is None else _row(found)

    def history(self, session: str, limit: int = 200) -> list[TableRow]:
        """The session's tables, newest first."""
        with self._connect() as db:
            rows = db.execute(f"SELECT {_COLUMNS} FROM tables WHERE session = ? "
                              "ORDER BY created DESC "
                              "LIMIT ?", (session, limit)).fetchall()
        return [_row(r) for r in rows]


def _dump(value: dict[str, Any] | None) -> str | None:
    return None if value is None else json.dumps(value)


def _row(found: tuple[Any, ...]) -> TableRow:
    table_id, session, created, updated, spec, calls, explanation, review, version = found
    return TableRow(table_id, session, created, updated, json.loads(spec), json.loads(calls),
                    None if explanation is None else json.loads(explanation),
                    None if review is None else json.loads(review), int(version))


__all__ = ["StaleTableError", "TableRow", "TableStore", "default_db_path"]
