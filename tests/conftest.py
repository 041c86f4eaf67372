"""Shared fixtures: a fresh database per backend and a real `osaka serve` in a subprocess.

Backends: SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (a fresh database is
created per test session and dropped afterwards, so runs are repeatable).
"""
from __future__ import annotations

import asyncio
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _pg_admin(url: str, sql: str) -> None:
    import asyncpg
    dsn = url.replace("postgresql+asyncpg://", "postgresql://", 1)
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture(scope="session", params=BACKENDS)
def database_url(request, tmp_path_factory) -> str:
    """An empty database (no tables yet) for one test session, per backend."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('db') / 'osaka.db'}"
        return
    base = os.environ["TEST_DATABASE_URL"]
    name = f"osaka_test_{secrets.token_hex(4)}"
    asyncio.run(_pg_admin(base, f'CREATE DATABASE "{name}"'))
    try:
        yield base.rsplit("/", 1)[0] + "/" + name
    finally:
        asyncio.run(_pg_admin(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


class Server:
    """`osaka serve` in its own process group, on a free port of 127.0.0.1."""

    def __init__(self, database_url: str, log_path: Path, **env: str):
        self.database_url = database_url
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.env = {**os.environ, "DATABASE_URL": database_url, "BOT_DELAY_S": "0",
                    "LOG_LEVEL": "warning", **env}
        self.proc: subprocess.Popen | None = None

    def start(self, timeout_s: float = 30) -> Server:
        """Start and wait until /healthz answers."""
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-3000:]}")
            try:
                if httpx.get(self.base_url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.kill()
        raise RuntimeError("server did not start in time")

    def kill(self) -> None:
        """SIGKILL the whole process group (server and its bot workers) at once."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """SIGTERM (graceful), SIGKILL if it lingers; then the rest of the group."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(10)


def migrate(database_url: str) -> None:
    """`osaka migrate` against that database."""
    subprocess.run([sys.executable, "-m", "app.cli", "migrate"], cwd=ROOT, check=True,
                   env={**os.environ, "DATABASE_URL": database_url, "LOG_LEVEL": "warning"})


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


@pytest.fixture
def server_factory(migrated_url, tmp_path):
    """Start extra servers on the session's database (e.g. to kill and restart); all stopped after."""
    started: list[Server] = []

    def make(**env: str) -> Server:
        srv = Server(migrated_url, tmp_path / f"server{len(started)}.log", **env)
        started.append(srv)
        return srv.start()

    yield make
    for srv in started:
        srv.stop()


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers", "postgresql_only: runs only on the PostgreSQL backend (several server "
        "processes share one database through LISTEN/NOTIFY; SQLite is one process)")


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
