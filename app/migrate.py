"""Apply and check Alembic migrations programmatically (used by `osaka migrate/serve`, /readyz).

Several processes may migrate one database at once (replicas started together, `docker compose
up --scale app=3`): the upgrade is serialized, so the first applies the migrations and the
others find the schema at the head. PostgreSQL: a transaction-level advisory lock taken by
migrations/env.py before Alembic reads or creates `alembic_version`
(https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS); SQLite: an
exclusive `flock` on a file next to the database (`<file>-migrate.lock`).
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import make_url

try:
    import fcntl
except ImportError:  # not on Windows; the project runs on Linux
    fcntl = None

ROOT = Path(__file__).resolve().parent.parent
MIGRATION_LOCK_KEY = 0x6F73616B61  # "osaka": the advisory lock key held while migrating


def alembic_config(database_url: str) -> Config:
    """An Alembic Config for this project's migrations/ and the given database URL."""
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    cfg.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return cfg


def upgrade(database_url: str) -> None:
    """Bring the database schema to the head revision, one process at a time (module
    docstring). Must not run inside an event loop."""
    with sqlite_file_lock(database_url):
        command.upgrade(alembic_config(database_url), "head")


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
    """The head revision ids of the migration scripts."""
    return set(ScriptDirectory.from_config(alembic_config(database_url)).get_heads())


def current_revisions(sync_conn) -> set[str]:
    """The revisions the database is at (for use inside `AsyncConnection.run_sync`)."""
    return set(MigrationContext.configure(sync_conn).get_current_heads())
