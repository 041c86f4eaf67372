"""What stored games occupy in the database, per table and index (bench/game_size.py and
tests/app/test_game_size.py). Standard library only for SQLite; asyncpg for PostgreSQL.

SQLite: the file is first copied with `VACUUM INTO` (committed rows only, WAL included, no free
pages, every page packed as a fresh file would be), then its `dbstat` virtual table gives each
table's and index's pages and payload (https://www.sqlite.org/dbstat.html). The cost of N games
is that minus the same for a database at the same migration holding none (each table and index
has one page even when empty), divided by N.

PostgreSQL: `VACUUM FULL` (tables rewritten compactly), then `pg_total_relation_size` of each
table (its heap, TOAST and indexes, 8 KB pages), against an empty database migrated alike; and
`pg_column_size` of the rows themselves (what the rows hold, TOAST compression included,
without the pages' slack), which is what one game adds once many are stored.
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import tempfile
import time
from pathlib import Path

#: The app's tables (alembic_version and server_clock hold no game).
TABLES = ("rooms", "seats", "actions", "games", "chat_messages")


def sqlite_objects(path: str | Path) -> dict[str, dict]:
    """{table or index name: {"table", "pages", "bytes", "payload"}} of the SQLite file at
    `path` as `VACUUM INTO` would copy it."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "copy.db"
        src = sqlite3.connect(path)
        try:
            src.execute("VACUUM INTO ?", (str(copy),))
        finally:
            src.close()
        con = sqlite3.connect(copy)
        try:
            owner = dict(con.execute("SELECT name, tbl_name FROM sqlite_schema"))
            return {name: {"table": owner.get(name, name), "pages": pages, "bytes": size, "payload": payload}
                    for name, pages, size, payload in con.execute(
                        "SELECT name, count(*), sum(pgsize), sum(payload) FROM dbstat GROUP BY name")}
        finally:
            con.close()


def per_table(objects: dict[str, dict]) -> dict[str, dict]:
    """`sqlite_objects` summed by table (each table with its indexes)."""
    out: dict[str, dict] = {}
    for o in objects.values():
        t = out.setdefault(o["table"], {"bytes": 0, "payload": 0, "pages": 0})
        for k in t:
            t[k] += o[k]
    return out


def difference(stored: dict[str, dict], empty: dict[str, dict], games: int) -> dict[str, dict]:
    """(stored − empty) / games for every name and numeric key of `stored`."""
    return {name: {k: (v - empty.get(name, {}).get(k, 0)) / games for k, v in o.items()
                   if isinstance(v, (int, float))}
            for name, o in stored.items()}


def sqlite_columns(path: str | Path, tables: tuple[str, ...] = TABLES) -> dict[str, dict[str, int]]:
    """{table: {column: bytes}}: the stored length of every column's values (integers as SQLite
    stores them in the record, text and BLOBs by their length), summed over the rows."""
    con = sqlite3.connect(path)
    try:
        out = {}
        for table in tables:
            cols = [r[1] for r in con.execute(f"PRAGMA table_info({table})")]
            if not cols:  # no such table (an older schema)
                continue
            sums = con.execute("SELECT " + ", ".join(
                f"coalesce(sum(CASE typeof({c}) WHEN 'integer' THEN 1 + (abs({c}) > 127) + 2 * (abs({c}) > 32767)"
                f" + 4 * (abs({c}) > 8388607) WHEN 'null' THEN 0 ELSE length(CAST({c} AS BLOB)) END), 0)"
                for c in cols) + f" FROM {table}").fetchone()
            out[table] = dict(zip(cols, sums))
        return out
    finally:
        con.close()


def sqlite_game_cost(path: str | Path, empty_path: str | Path, games: int) -> dict:
    """What one game costs in the SQLite file `path` holding `games` games (and nothing else),
    against `empty_path` (the same migration, no rows): {"objects": per table and index,
    "owners": each object's table, "tables": per table with its indexes, "total": bytes}
    (pages, bytes and payload per game)."""
    stored, empty = sqlite_objects(path), sqlite_objects(empty_path)
    objects = difference(stored, empty, games)
    tables = difference(per_table(stored), per_table(empty), games)
    return {"objects": objects, "owners": {name: o["table"] for name, o in stored.items()},
            "tables": tables, "total": sum(t["bytes"] for t in tables.values())}


def _dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def _compact_all(url: str, timings: list | None) -> int:
    from sqlalchemy import select  # noqa: PLC0415

    from app.db import make_engine, make_sessionmaker  # noqa: PLC0415
    from app.models import Room  # noqa: PLC0415
    from app.records import compact_finished  # noqa: PLC0415
    db = make_engine(url)
    try:
        sessions = make_sessionmaker(db)
        async with sessions() as session:
            ids = (await session.scalars(select(Room.id).where(Room.status == "over"))).all()
        done = 0
        for room_id in ids:
            start = time.perf_counter()
            async with sessions() as session:
                done += await compact_finished(session, room_id)
                await session.commit()
            if timings is not None:
                timings.append(time.perf_counter() - start)
        return done
    finally:
        await db.dispose()


def compact_all(url: str, timings: list | None = None) -> int:
    """app/records.py `compact_finished` for every room that is over, one transaction each (no
    server may run on the database meanwhile) → how many were compacted. `timings` gets the
    seconds of each (session, call and commit)."""
    return asyncio.run(_compact_all(url, timings))


async def _pg_sizes(url: str) -> dict[str, dict]:
    import asyncpg  # noqa: PLC0415
    conn = await asyncpg.connect(_dsn(url))
    try:
        await conn.execute("VACUUM FULL")
        out = {}
        for table in TABLES:
            total = await conn.fetchval("SELECT pg_total_relation_size($1::regclass)", table)
            rows = await conn.fetchval(f"SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM {table} AS t")
            out[table] = {"bytes": total, "rows": rows}
        return out
    finally:
        await conn.close()


def pg_sizes(url: str) -> dict[str, dict]:
    """{table: {"bytes": pg_total_relation_size, "rows": sum of the rows' pg_column_size}}
    after `VACUUM FULL` (no server may run on the database meanwhile)."""
    return asyncio.run(_pg_sizes(url))


def pg_game_cost(url: str, empty_url: str, games: int) -> dict:
    """What one game costs in the PostgreSQL database `url` holding `games` games (and nothing
    else), against `empty_url`: {"tables": {table: {"bytes", "rows"}}, "total", "rows"}."""
    stored, empty = pg_sizes(url), pg_sizes(empty_url)
    tables = difference(stored, empty, games)
    return {"tables": tables, "total": sum(t["bytes"] for t in tables.values()),
            "rows": sum(t["rows"] for t in tables.values())}


@contextlib.contextmanager
def pg_database(admin_url: str, name: str):
    """A fresh PostgreSQL database `name` next to `admin_url` (dropped first and afterwards)."""
    import asyncpg  # noqa: PLC0415

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(_dsn(admin_url))
        try:
            await conn.execute(sql)
        finally:
            await conn.close()
    asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield admin_url.rsplit("/", 1)[0] + "/" + name
    finally:
        if not os.environ.get("KEEP_BENCH_DB"):
            asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
