"""The storage layer below rooms and live: how a game and its actions reach the database.

- `games.py`: a game's stored snapshot and action log (reading them back, the room row's
  columns that follow the game state);
- `actions.py`: the one call that stores a batch of actions, `ActionStore.store(batch)` →
  which were stored (`open_action_store` below picks the implementation for the engine's
  database once, at start);
- `sqlite.py` and `postgres.py`: the two implementations.

Nothing here knows rooms' locks, sockets or the fan-out: the fan-out only gives the payload
an action's notification carries (`notice`), and the group commit (app/live/actions/commits.py) only
queues actions and answers their callers.
"""
from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from .actions import ActionStore, Notice


def open_action_store(engine: AsyncEngine, notice: Notice) -> ActionStore:
    """The `ActionStore` for `engine`'s database: SQLite (sqlite.py) or PostgreSQL with
    asyncpg (postgres.py). `notice(code)` is the payload an action's notification sends on
    PostgreSQL when it commits (None: no notification). ValueError for another database."""
    dialect = engine.dialect
    if dialect.name == "sqlite":
        from .sqlite import SqliteStore  # noqa: PLC0415 - one of the two, chosen once
        return SqliteStore(engine)
    if dialect.name == "postgresql" and dialect.driver == "asyncpg":
        from .postgres import PostgresStore  # noqa: PLC0415
        return PostgresStore(engine, notice)
    raise ValueError(f"no action store for {dialect.name}+{dialect.driver}")
