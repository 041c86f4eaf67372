"""Shared fixtures: a fresh database per backend and a real `osaka serve` in a subprocess
(app/testing/launcher.py, the one launcher of the tests and the benchmark).

Backends: SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (a fresh database is
created per test session and dropped afterwards, so runs are repeatable).
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
from pathlib import Path

import pytest

from app.testing import launcher
from app.testing.launcher import NO_ADDRESS_LIMITS, QUIET, ServerProcess, free_port  # noqa: F401 - free_port: tests/deploy

ROOT = Path(__file__).resolve().parent.parent
BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])


async def _pg_admin(url: str, sql: str) -> None:
    import asyncpg
    dsn = url.replace("postgresql+asyncpg://", "postgresql://", 1)
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@contextlib.contextmanager
def pg_database():
    """An empty PostgreSQL database next to TEST_DATABASE_URL: yields its URL, drops it after."""
    base = os.environ["TEST_DATABASE_URL"]
    name = f"osaka_test_{secrets.token_hex(4)}"
    asyncio.run(_pg_admin(base, f'CREATE DATABASE "{name}"'))
    try:
        yield base.rsplit("/", 1)[0] + "/" + name
    finally:
        asyncio.run(_pg_admin(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(scope="session", params=BACKENDS)
def database_url(request, tmp_path_factory) -> str:
    """An empty database (no tables yet) for one test session, per backend."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('db') / 'osaka.db'}"
        return
    with pg_database() as url:
        yield url


@pytest.fixture
def fresh_database_url(database_url, tmp_path) -> str:
    """Another empty database on the session's backend, for one test only (e.g. to build it at
    an older migration); dropped afterwards."""
    if database_url.startswith("sqlite"):
        yield f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}"
        return
    with pg_database() as url:
        yield url


@pytest.fixture
def private_migrated_url(fresh_database_url) -> str:
    """A migrated database on the session's backend that only this test's own processes use.
    `migrated_url` is shared with the session's `server` (and every test's rooms), whose turn
    timers, computer players and cleanup act on any room in it that is due: a test that counts
    what exactly one of ITS processes did needs this one instead (issue 12: the session
    server's time-out was a third contender in tests/unit/test_timers.py)."""
    from app.migrate import upgrade
    upgrade(fresh_database_url)
    return fresh_database_url


class Server(ServerProcess):
    """`osaka serve` in its own process group on a free port of 127.0.0.1 (the shared
    launcher, app/testing/launcher.py): computer players without delay, warnings only;
    `env` adds or overrides settings."""

    def __init__(self, database_url: str, log_path: Path, **env: str):
        super().__init__(database_url, log_path, env={**QUIET, **NO_ADDRESS_LIMITS, **env})


def migrate(database_url: str) -> None:
    """`osaka migrate` against that database."""
    launcher.migrate(database_url)


@pytest.fixture(scope="session")
def migrated_url(database_url) -> str:
    """The session's database with the schema at the head migration."""
    migrate(database_url)
    return database_url


@pytest.fixture(scope="session")
def server(migrated_url, tmp_path_factory) -> Server:
    """One server per backend for the session (tests use their own rooms)."""
    srv = Server(migrated_url, tmp_path_factory.mktemp("log") / "server.log").start()
    yield srv
    srv.stop()


def _servers(database_url: str, folder: Path, prefix: str):
    """A `make(**env) -> Server` that starts servers on `database_url` (logs in `folder`),
    and stops every one it started when the generator is closed."""
    started: list[Server] = []

    def make(**env: str) -> Server:
        srv = Server(database_url, folder / f"{prefix}{len(started)}.log", **env)
        started.append(srv)
        return srv.start()

    yield make
    for srv in started:
        srv.stop()


@pytest.fixture
def server_factory(migrated_url, tmp_path):
    """Start extra servers on the session's database (e.g. to kill and restart); all stopped after."""
    yield from _servers(migrated_url, tmp_path, "server")


@pytest.fixture
def own_servers(private_migrated_url, tmp_path):
    """Start servers on a database of this test's own (`private_migrated_url`), all stopped
    after: the session's shared database is served by the session `server` too, which takes
    up any room in it that is due (a computer player's turn, a review to compute, a notification
    to send, the lobby feed), so a test that counts what ITS processes did or left undone needs
    this one."""
    yield from _servers(private_migrated_url, tmp_path, "own")


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers", "postgresql_only: runs only on the PostgreSQL backend (several server "
        "processes share one database through LISTEN/NOTIFY; SQLite is one process)")
    config.addinivalue_line(
        "markers", "slow: takes minutes of wall time (e.g. a hidden tab's throttled timers); runs in every suite")


def pytest_collection_modifyitems(config, items) -> None:
    """Tests marked postgresql_only are not collected for the SQLite backend (they do not
    apply there): deselected, not skipped."""
    keep, dropped = [], []
    for item in items:
        backend = getattr(item, "callspec", None) and item.callspec.params.get("database_url")
        if item.get_closest_marker("postgresql_only") and backend != "postgresql":
            dropped.append(item)
        else:
            keep.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep
        config._osaka_pg_only_dropped = len(dropped)  # reported in the summary below
        config._osaka_pg_configured = "postgresql" in BACKENDS


def pytest_terminal_summary(terminalreporter, config) -> None:
    dropped = getattr(config, "_osaka_pg_only_dropped", 0)
    if dropped and not getattr(config, "_osaka_pg_configured", False):
        terminalreporter.write_line(
            f"note: {dropped} multi-process tests run only on PostgreSQL; set TEST_DATABASE_URL "
            "(e.g. postgresql+asyncpg://postgres@127.0.0.1:5432/test) to run them")
