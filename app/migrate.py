"""Apply and check Alembic migrations programmatically (used by `osaka migrate/serve`, /readyz).

Several processes may migrate one database at once (replicas started together, `docker compose
up --scale app=3`): the upgrade is serialized, so the first applies the migrations and the
others find the schema at the head. PostgreSQL: a transaction-level advisory lock taken by
migrations/env.py before Alembic reads or creates `alembic_version`
(https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS); SQLite: an
exclusive `flock` on a file next to the database (`<file>-migrate.lock`).

Starting a server whose database is already at the head needs no Alembic at all
(`upgrade_if_needed`): the head revision comes from the migration scripts' text
(`script_heads`, checked against Alembic's own reading by tests/unit/test_migrate_fast.py), the
database's from one read of `alembic_version`; Alembic is imported and run only when they
differ (docs/performance.md, "Restart").
"""
from __future__ import annotations

import asyncio
import contextlib
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy.engine import make_url

if TYPE_CHECKING:
    from alembic.config import Config

try:
    import fcntl
except ImportError:  # not on Windows; the project runs on Linux
    fcntl = None

ROOT = Path(__file__).resolve().parent.parent
MIGRATION_LOCK_KEY = 0x6F73616B61  # "osaka": the advisory lock key held while migrating


VERSIONS = ROOT / "migrations" / "versions"
_REVISION = re.compile(r"^(down_revision|revision)\s*(?::[^=]*)?=\s*(.+)$", re.MULTILINE)


def alembic_config(database_url: str) -> Config:
    """An Alembic Config for this project's migrations/ and the given database URL."""
    from alembic.config import Config  # noqa: PLC0415 - Alembic only when it is needed
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    cfg.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return cfg


def upgrade(database_url: str) -> None:
    """Bring the database schema to the head revision, one process at a time (module
    docstring). Must not run inside an event loop."""
    from alembic import command  # noqa: PLC0415
    with sqlite_file_lock(database_url):
        command.upgrade(alembic_config(database_url), "head")


def upgrade_if_needed(database_url: str) -> None:
    """`upgrade`, unless the database is already at the head (`at_head`: then nothing is
    imported or locked). Must not run inside an event loop."""
    if not at_head(database_url):
        upgrade(database_url)


def script_heads(versions: Path = VERSIONS) -> set[str]:
    """The head revision ids of migrations/versions, from the scripts' `revision` and
    `down_revision` assignments (string literals, a tuple of them for a merge): the revisions
    no other script names as its `down_revision`. The same set as Alembic's
    `ScriptDirectory.get_heads()`, without importing Alembic or the scripts."""
    revisions, parents = set(), set()
    for path in versions.glob("*.py"):
        for name, value in _REVISION.findall(path.read_text(encoding="utf-8")):
            ids = set(re.findall(r"[\"']([^\"']+)[\"']", value))
            (revisions if name == "revision" else parents).update(ids)
    return revisions - parents


def at_head(database_url: str) -> bool:
    """Is the database's `alembic_version` exactly `script_heads()`? One read (SQLite: the
    file opened read-only; PostgreSQL: one asyncpg connection); False on any error (no
    database file yet, no table, unreachable: `upgrade` then does it properly or says why)."""
    url = make_url(database_url)
    try:
        if url.get_backend_name() == "sqlite":
            path = url.database or ""
            if path in ("", ":memory:") or path.startswith("file:") or not Path(path).is_file():
                return False
            con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
            try:
                current = {r[0] for r in con.execute("SELECT version_num FROM alembic_version")}
            finally:
                con.close()
        elif url.get_backend_name() == "postgresql" and url.get_driver_name() == "asyncpg":
            current = asyncio.run(_pg_versions(database_url))
        else:
            return False
    except Exception:  # noqa: BLE001 - any doubt: the full upgrade decides
        return False
    return current == script_heads()


async def _pg_versions(database_url: str) -> set[str]:
    import asyncpg  # noqa: PLC0415
    con = await asyncpg.connect(database_url.replace("postgresql+asyncpg://", "postgresql://", 1), timeout=10)
    try:
        return {r[0] for r in await con.fetch("SELECT version_num FROM alembic_version")}
    finally:
        await con.close()


def lock_for_migrations(sync_conn) -> None:
    """PostgreSQL: wait for the migration advisory lock (`pg_advisory_xact_lock`), held until
    the migration transaction ends (commit or rollback, also when the process dies). Call it
    first on the connection that migrates (migrations/env.py). Other databases: nothing."""
    if sync_conn.dialect.name == "postgresql":
        sync_conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK_KEY})")


@contextlib.contextmanager
def sqlite_file_lock(database_url: str) -> Iterator[None]:
    """SQLite with a file: hold an exclusive `flock` on `<file>-migrate.lock` (released when
    the block ends or the process dies). A separate file, because closing any descriptor of the
    database file itself would drop SQLite's own POSIX locks. Other databases: nothing."""
    url = make_url(database_url)
    path = url.database or ""
    if url.get_backend_name() != "sqlite" or fcntl is None or path in ("", ":memory:") or path.startswith("file:"):
        yield
        return
    with open(f"{path}-migrate.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def head_revisions(database_url: str) -> set[str]:
    """The head revision ids of the migration scripts, as Alembic reads them."""
    from alembic.script import ScriptDirectory  # noqa: PLC0415
    return set(ScriptDirectory.from_config(alembic_config(database_url)).get_heads())


def current_revisions(sync_conn) -> set[str]:
    """The revisions the database is at (for use inside `AsyncConnection.run_sync`)."""
    from alembic.runtime.migration import MigrationContext  # noqa: PLC0415
    return set(MigrationContext.configure(sync_conn).get_current_heads())
