"""Apply and check Alembic migrations programmatically (used by `osaka migrate/serve`, /readyz)."""
from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

ROOT = Path(__file__).resolve().parent.parent


def alembic_config(database_url: str) -> Config:
    """An Alembic Config for this project's migrations/ and the given database URL."""
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    cfg.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return cfg


def upgrade(database_url: str) -> None:
    """Bring the database schema to the head revision. Must not run inside an event loop."""
    command.upgrade(alembic_config(database_url), "head")


def head_revisions(database_url: str) -> set[str]:
    """The head revision ids of the migration scripts."""
    return set(ScriptDirectory.from_config(alembic_config(database_url)).get_heads())


def current_revisions(sync_conn) -> set[str]:
    """The revisions the database is at (for use inside `AsyncConnection.run_sync`)."""
    return set(MigrationContext.configure(sync_conn).get_current_heads())
