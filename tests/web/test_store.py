"""Two server processes on one store: each table change names the version it was computed
from, so of two changes made from the same version the second is refused (409), not
silently written over the first."""

from __future__ import annotations

import sqlite3
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bidbox.web.app import SESSION_COOKIE, create_app
from bidbox.web.store import StaleTableError, TableRow, TableStore
from bidbox.web.table import PERSON

from .conftest import DEAL


def _row() -> TableRow:
    return TableRow("t1", "s" * 20, 1.0, 1.0, {"system": "sbu-level1"}, [])


def test_a_stale_change_from_a_second_connection_is_refused(db_path: Path) -> None:
    first, second = TableStore(db_path), TableStore(db_path)  # as two processes would
    first.insert(_row())
    mine, theirs = first.get("t1", "s" * 20), second.get("t1", "s" * 20)
    assert mine is not None and theirs is not None and mine.version == theirs.version == 0
    theirs.calls = [{"call": "1C", "by": "robot"}]
    second.update(theirs)
    assert theirs.version == 1
    mine.calls = [{"call": "1D", "by": "robot"}]
    with pytest.raises(StaleTableError, match="changed by another request"):
        first.update(mine)
    stored = first.get("t1", "s" * 20)
    assert stored is not None and stored.calls == theirs.calls and stored.version == 1
    stored.calls.append({"call": "P", "by": "person"})
    first.update(stored)  # a change from the current version goes through
    again = second.get("t1", "s" * 20)
    assert again is not None and again.version == 2 and len(again.calls) == 2


def test_a_store_without_versions_gets_the_column(db_path: Path) -> None:
    with sqlite3.connect(db_path) as db:  # the schema before versions existed
        db.execute("CREATE TABLE tables (id TEXT PRIMARY KEY, session TEXT NOT NULL, "
                   "created REAL NOT NULL, updated REAL NOT NULL, spec TEXT NOT NULL, "
                   "calls TEXT NOT NULL, explanation TEXT, review TEXT)")
        db.execute("INSERT INTO tables VALUES ('old', ?, 1, 1, '{}', '[]', NULL, NULL)",
                   ("s" * 20,))
    db.close()
    store = TableStore(db_path)
    row = store.get("old", "s" * 20)
    assert row is not None and row.version == 0
    store.update(row)
    assert row.version == 1


def test_two_apps_racing_on_one_table_lose_no_call(db_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """App 1 reads the table; app 2 (another worker process) calls on it before app 1
    writes; app 1's call is then refused with 409 and app 2's call stays stored."""
    one, two = create_app(db_path), create_app(db_path)
    with TestClient(one) as first, TestClient(two) as second:
        table = first.post("/api/tables", json={"deal": DEAL, "dealer": "N", "vul": "none",
                                                "seat": "S"}).json()
        second.cookies.set(SESSION_COOKIE, first.cookies[SESSION_COOKIE])
        store = one.state.store
        original = store.get

        def get_then_race(table_id: str, session: str) -> Any:
            row = original(table_id, session)
            monkeypatch.setattr(store, "get", original)  # race once
            assert second.post(f"/api/tables/{table_id}/calls",
                               json={"call": "2C"}).status_code == 200
            return row

        monkeypatch.setattr(store, "get", get_then_race)
        answer = first.post(f"/api/tables/{table['id']}/calls", json={"call": "2D"})
        assert answer.status_code == 409 and "another request" in answer.json()["detail"]
        now = first.get(f"/api/tables/{table['id']}").json()
        person = [c["call"] for c in now["calls"] if c["by"] == PERSON]
        assert person == ["2C"]
