"""Backups as docs/deploy.md tells self-hosters to take them (issue 11): taken while the server
runs and a game is in progress, restored into a fresh database, a new server on it continues
the game from exactly the backed-up position.

SQLite: `VACUUM INTO` (the Python one-liner of docs/deploy.md); PostgreSQL: `pg_dump
--format=custom` and `pg_restore --no-owner` into a new database.
"""
from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
import subprocess
import sys
from pathlib import Path

from sqlalchemy import make_url

from tests.conftest import Server, migrate, pg_database

from .helpers import Client, new_game, pick_action


def _libpq_url(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


def _pg_tool(name: str) -> str:
    found = shutil.which(name) or next(iter(sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"),
                                                   reverse=True)), None)
    assert found, f"{name} is needed for the PostgreSQL backup test (postgresql-client)"
    return str(found)


def backup(url: str, dest: Path) -> None:
    """Back up the live database `url` into the file `dest` (docs/deploy.md, Backups)."""
    if url.startswith("sqlite"):
        db = make_url(url).database
        subprocess.run([sys.executable, "-c", "import sqlite3; "
                        f"sqlite3.connect('{db}').execute(\"VACUUM INTO '{dest}'\")"], check=True)
    else:
        subprocess.run([_pg_tool("pg_dump"), "--format=custom", f"--file={dest}", _libpq_url(url)],
                       check=True)


def restore(dump: Path, url: str, sqlite_path: Path) -> str:
    """Restore `dump` into an empty database `url` (PostgreSQL) or as the file `sqlite_path`."""
    if url.startswith("sqlite"):
        shutil.copyfile(dump, sqlite_path)
        return f"sqlite+aiosqlite:///{sqlite_path}"
    subprocess.run([_pg_tool("pg_restore"), "--no-owner", f"--dbname={_libpq_url(url)}", str(dump)],
                   check=True)
    return url


async def _play(srv: Server, code: str, tokens: list[str], rng: random.Random, n: int,
                clients: list[Client] | None = None) -> tuple[list[Client], int]:
    """Play `n` random actions on `srv` (opening the seats' sockets if needed) → (clients, version)."""
    clients = clients or [await Client.open(srv.ws_url, code, t, seat=i) for i, t in enumerate(tokens)]
    version = (await clients[0].state(0))["version"]
    for _ in range(n):
        actor = clients[(await clients[0].state(version))["view"]["to_act"]]
        await actor.act(version, pick_action((await actor.state(version))["view"], rng))
        version += 1
        await asyncio.gather(*(c.state(version) for c in clients))
        await asyncio.sleep(0.06)  # under the flood limit
    return clients, version


def test_backup_while_running_and_restore(fresh_database_url, tmp_path):
    migrate(fresh_database_url)
    a = Server(fresh_database_url, tmp_path / "a.log").start()
    try:
        code, tokens = new_game(a.base_url, 3)
        rng = random.Random(3)

        async def before():
            clients, version = await _play(a, code, tokens, rng, 12)
            views = [(await c.state(version))["view"] for c in clients]
            backup(fresh_database_url, tmp_path / "osaka.backup")  # sockets open, game going on
            _, later = await _play(a, code, tokens, rng, 3, clients)  # not in the backup
            for c in clients:
                await c.close()
            return version, views, later
        version, views, later = asyncio.run(before())
    finally:
        a.stop()
    assert later == version + 3

    with (contextlib.nullcontext() if fresh_database_url.startswith("sqlite") else pg_database()) as empty:
        url = restore(tmp_path / "osaka.backup", empty or "sqlite", tmp_path / "restored.db")
        migrate(url)  # `osaka serve` does this too: the restored schema is at the head already
        b = Server(url, tmp_path / "b.log").start()
        try:
            async def after():
                clients = [await Client.open(b.ws_url, code, t, seat=i) for i, t in enumerate(tokens)]
                states = [await c.state(0) for c in clients]
                assert [s["version"] for s in states] == [version] * 3
                assert [s["view"] for s in states] == views
                _, now = await _play(b, code, tokens, random.Random(9), 5, clients)
                assert now == version + 5
                for c in clients:
                    await c.close()
            asyncio.run(after())
        finally:
            b.stop()

