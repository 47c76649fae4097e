"""Fixtures of the web tests: an app over a fresh SQLite file, and a client with a session."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():  # starlette's notice about httpx's successor
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bidbox.web.app import create_app

# North opens 1NT (12-14); South (the person) has 14 HCP and both majors.
DEAL = "N:KJ4.Q74.AJ62.K83 T876.J82.9543.72 AQ53.AK63.T7.J54 92.T95.KQ8.AQT96"


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "tables.sqlite"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path)) as test_client:
        yield test_client
