"""In-process fixtures: the FastAPI app and its `Live` on a fresh, migrated SQLite file per
test (a copy of one migrated template), no server subprocess. HTTP goes through httpx's
ASGITransport in the test's own event loop, so tests can drive the live objects directly too."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from app.config import Settings
from app.migrate import upgrade


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory) -> Path:
    """An SQLite file with the schema at head (made once per session)."""
    path = tmp_path_factory.mktemp("template") / "osaka.db"
    upgrade(f"sqlite+aiosqlite:///{path}")
    return path


@pytest.fixture
def sqlite_url(migrated_template, tmp_path) -> str:
    """A fresh migrated SQLite database for this test."""
    path = tmp_path / "osaka.db"
    shutil.copyfile(migrated_template, path)
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture
def settings(sqlite_url) -> Settings:
    """Settings of an in-process server: the test's database, computer players without delay."""
    return Settings(database_url=sqlite_url, bot_delay_s=0, bot_time_budget_s=0.05, log_level="warning")
