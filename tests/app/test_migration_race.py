"""Several processes migrating one empty database at once (replicas behind a proxy, `docker
compose up --scale app=3`): the migrations are serialized (app/migrate.py: a PostgreSQL
advisory lock, a file lock for SQLite), so every process exits 0 / starts and the schema is
created exactly once (one row in alembic_version, at the head)."""
from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import sys
import time

import httpx
import pytest
from sqlalchemy import create_engine, text

from app.migrate import head_revisions
from tests.conftest import ROOT, Server, _pg_admin

# Trials on PostgreSQL: (processes at once, trials); 20 trials in all.
PG_TRIALS = [(5, 12), (10, 6)]
SERVER_TRIALS = 2  # and two trials of three full `osaka serve` processes


def _migrate_at_once(url: str, n: int, tmp) -> list[tuple[int, str]]:
    """Start `n` `osaka migrate` processes together; (exit status, output) of each."""
    env = {**os.environ, "DATABASE_URL": url, "LOG_LEVEL": "warning"}
    logs = [tmp / f"migrate{i}.log" for i in range(n)]
    procs = [subprocess.Popen([sys.executable, "-m", "app.cli", "migrate"], cwd=ROOT, env=env,
                              stdout=open(log, "wb"), stderr=subprocess.STDOUT) for log in logs]
    return [(p.wait(120), log.read_text()) for p, log in zip(procs, logs)]


async def _versions(url: str) -> list[str]:
    import asyncpg  # noqa: PLC0415
    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
    try:
        return [r[0] for r in await conn.fetch("SELECT version_num FROM alembic_version")]
    finally:
        await conn.close()


class _EmptyDatabase:
    """A fresh empty PostgreSQL database next to TEST_DATABASE_URL's, dropped on exit."""

    def __enter__(self) -> str:
        self.base = os.environ["TEST_DATABASE_URL"]
        self.name = f"osaka_race_{secrets.token_hex(4)}"
        asyncio.run(_pg_admin(self.base, f'CREATE DATABASE "{self.name}"'))
        return self.base.rsplit("/", 1)[0] + "/" + self.name

    def __exit__(self, *exc) -> None:
        asyncio.run(_pg_admin(self.base, f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'))


@pytest.mark.postgresql_only
def test_many_migrate_processes_at_once_on_an_empty_postgresql_database(database_url, tmp_path):
    heads = sorted(head_revisions(database_url))
    trial = 0
    for n, trials in PG_TRIALS:
        for _ in range(trials):
            trial += 1
            with _EmptyDatabase() as url:
                results = _migrate_at_once(url, n, tmp_path)
                failed = [out for status, out in results if status != 0]
                assert not failed, f"trial {trial} ({n} at once): {failed[0][-2000:]}"
                assert asyncio.run(_versions(url)) == heads, f"trial {trial}"
    print(f"{trial} trials of {', '.join(f'{n} processes' for n, _ in PG_TRIALS)}: all exited 0")


@pytest.mark.postgresql_only
def test_three_servers_start_at_once_on_an_empty_postgresql_database(database_url, tmp_path):
    heads = sorted(head_revisions(database_url))
    for trial in range(SERVER_TRIALS):
        with _EmptyDatabase() as url:
            servers = [Server(url, tmp_path / f"t{trial}-s{i}.log") for i in range(3)]
            procs = [_spawn(s) for s in servers]
            try:
                for srv, proc in zip(servers, procs):
                    _wait_ready(srv, proc)
                assert asyncio.run(_versions(url)) == heads
            finally:
                for proc in procs:
                    proc.terminate()
                for proc in procs:
                    proc.wait(20)


def _spawn(srv: Server) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(srv.port)],
        cwd=ROOT, env=srv.env, stdout=open(srv.log_path, "ab"), stderr=subprocess.STDOUT)


def _wait_ready(srv: Server, proc: subprocess.Popen, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"server exited {proc.returncode}: {srv.log_path.read_text()[-2000:]}"
        try:
            if httpx.get(srv.base_url + "/readyz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise AssertionError("server not ready in time")


def test_many_migrate_processes_at_once_on_an_empty_sqlite_file(tmp_path):
    path = tmp_path / "race.db"
    url = f"sqlite+aiosqlite:///{path}"
    results = _migrate_at_once(url, 5, tmp_path)
    assert all(status == 0 for status, _ in results), [out for status, out in results if status][:1]
    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as conn:
        rows = [r[0] for r in conn.execute(text("SELECT version_num FROM alembic_version"))]
    engine.dispose()
    assert rows == sorted(head_revisions(url))
