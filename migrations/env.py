"""Alembic environment (async). URL: the `sqlalchemy.url` main option if set, else DATABASE_URL."""
from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from app.config import Settings
from app.db import make_engine
from app.migrate import lock_for_migrations
from app.models import Base

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    return config.get_main_option("sqlalchemy.url") or Settings().database_url


def run_migrations_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def _do_run(connection: Connection) -> None:
    # One process at a time (app/migrate.py): the lock is held until the commit below.
    lock_for_migrations(connection)
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


async def run_migrations_online() -> None:
    engine = make_engine(_url())
    try:
        async with engine.connect() as conn:
            await conn.run_sync(_do_run)
            await conn.commit()
    finally:
        await engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    asyncio.run(run_migrations_online())
