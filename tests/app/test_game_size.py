"""Issue 29: a stored finished game costs at most 25 KB, measured on real games stored by a real
server, and keeps everything a restart and a record need.

Four-player games (the host and three easy computer players, the host's seat handed to one
too) are played to the end through `osaka serve`; then what the database holds of them is
measured (app/testing/storage_size.py): on SQLite the pages of every table and index of a
`VACUUM INTO` copy minus those of an empty database, on PostgreSQL the rows' `pg_column_size`
(its 8 KB pages make a few games' relation sizes mostly slack). Both stored shapes of a finished
game: compacted at its end (app/records.py `compact_finished`: the room stays over, its log is
its `games` row) and archived by "play again". Before: ~51–56 KB as the last action left it
before the server compacted a game at its end (Actions._compact), ~45–48 KB archived
(docs/performance.md "Stored size of a game").
"""
from __future__ import annotations

import asyncio
import sqlite3

import httpx

from app.testing import storage_size
from app.testing.launcher import NO_ADDRESS_LIMITS, QUIET, ServerProcess

from .helpers import Client, auth
from .rematch_helpers import finished_room

LIMIT = 25 * 1024
GAMES = 3


def _game_cost(url: str, empty_url: str, games: int) -> tuple[float, dict]:
    """(bytes per game, per table) of the `games` games in the database at `url`."""
    if url.startswith("sqlite"):
        cost = storage_size.sqlite_game_cost(url.split("///", 1)[1], empty_url.split("///", 1)[1], games)
        return cost["total"], {t: round(v["bytes"]) for t, v in cost["tables"].items() if v["bytes"]}
    rows = {t: v["rows"] / games for t, v in storage_size.pg_sizes(url).items()}
    return sum(rows.values()), {t: round(v) for t, v in rows.items() if v}


def _empty(url: str, tmp_path) -> str:
    """A database at the head migration holding nothing (SQLite; PostgreSQL's rows need none)."""
    if not url.startswith("sqlite"):
        return url
    from app.migrate import upgrade
    empty = f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}"
    upgrade(empty)
    return empty


def _server(url: str, log) -> ServerProcess:
    """`osaka serve` on this test's own database (computer players without delay)."""
    return ServerProcess(url, log, env={**QUIET, **NO_ADDRESS_LIMITS}).start()


def _finished_rooms(base: str, n: int) -> list[tuple[str, str]]:
    rooms = []
    for _ in range(n):
        code, tokens = finished_room(base, people=1, bots=3)
        rooms.append((code, tokens[0]))
    return rooms


async def _arrival(ws_url: str, code: str) -> tuple[dict, dict]:
    """What a spectator gets on arrival: the history frame and the state frame."""
    c = await Client.open(ws_url, code)
    try:
        history = await c.wait(lambda m: m["type"] == "history")
        state = await c.wait(lambda m: m["type"] == "state")
        return history, state
    finally:
        await c.close()


def _seen(base: str, ws_url: str, code: str, number: int = 1) -> dict:
    """Everything the server shows of game `number` of the room."""
    out = {path: httpx.get(f"{base}/api/rooms/{code}/games/{number}/{path}") for path in
           ("record.json", "record.txt", "replay")}
    assert all(r.status_code == 200 for r in out.values()), {p: r.text for p, r in out.items()}
    seen = {"record": out["record.json"].json(), "text": out["record.txt"].text,
            "replay": out["replay"].json(), "games": httpx.get(f"{base}/api/rooms/{code}/games").json()["games"]}
    assert seen["replay"]["verified"]
    # The review is computed in the background after the end: its status moves on by itself
    # (and a migration down past 0015 drops it); tests/app/test_reviews.py checks it.
    seen["record"].pop("review", None)
    return seen


def _action_rows(url: str) -> int:
    if url.startswith("sqlite"):
        con = sqlite3.connect(url.split("///", 1)[1])
        try:
            return con.execute("SELECT count(*) FROM actions").fetchone()[0]
        finally:
            con.close()
    import asyncpg

    async def count() -> int:
        conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
        try:
            return await conn.fetchval("SELECT count(*) FROM actions")
        finally:
            await conn.close()
    return asyncio.run(count())


def test_a_compacted_finished_game_is_at_most_25_kb_and_a_restart_shows_it_alike(
        private_migrated_url, tmp_path):
    url, empty = private_migrated_url, _empty(private_migrated_url, tmp_path)
    a = _server(url, tmp_path / "a.log")
    try:
        rooms = _finished_rooms(a.base_url, GAMES)
        before = {code: _seen(a.base_url, a.ws_url, code) for code, _ in rooms}
        arrivals = {code: asyncio.run(_arrival(a.ws_url, code)) for code, _ in rooms}
    finally:
        a.stop()
    # The server compacted each game as its last action was stored (Actions._compact).
    assert _action_rows(url) == 0
    assert storage_size.compact_all(url) == 0, "compacting again changes nothing"
    size, tables = _game_cost(url, empty, GAMES)
    assert 3 * 1024 < size <= LIMIT, f"{size:.0f} bytes per finished game as the server left it ({tables})"

    # A restart loads the compacted games from their snapshot and packed log: the same records,
    # the same history and state for a newcomer; then "play again" archives nothing twice.
    b = _server(url, tmp_path / "b.log")
    try:
        for code, token in rooms:
            assert _seen(b.base_url, b.ws_url, code) == before[code]
            assert asyncio.run(_arrival(b.ws_url, code)) == arrivals[code]
            r = httpx.post(f"{b.base_url}/api/rooms/{code}/again", json={"game": 1}, headers=auth(token))
            assert r.status_code == 200 and r.json()["new"] is True, r.text
            after = _seen(b.base_url, b.ws_url, code)
            assert after["record"] == before[code]["record"] and after["text"] == before[code]["text"]
            assert [g["number"] for g in after["games"]] == [1] and after["games"] == before[code]["games"]
    finally:
        b.stop()
    archived, tables = _game_cost(url, empty, GAMES)
    assert 3 * 1024 < archived <= LIMIT, f"{archived:.0f} bytes per archived game ({tables})"


def test_a_finished_game_archived_by_play_again_is_at_most_25_kb(private_migrated_url, tmp_path):
    """The way the server stores a finished game today without compaction at its end: over,
    then "play again" moves it into `games` (packed)."""
    url, empty = private_migrated_url, _empty(private_migrated_url, tmp_path)
    a = _server(url, tmp_path / "a.log")
    try:
        rooms = _finished_rooms(a.base_url, GAMES)
        before = {code: _seen(a.base_url, a.ws_url, code) for code, _ in rooms}
        for code, token in rooms:
            r = httpx.post(f"{a.base_url}/api/rooms/{code}/again", json={"game": 1}, headers=auth(token))
            assert r.status_code == 200 and r.json()["new"] is True, r.text
            assert _seen(a.base_url, a.ws_url, code) == before[code]
    finally:
        a.stop()
    size, tables = _game_cost(url, empty, GAMES)
    assert 3 * 1024 < size <= LIMIT, f"{size:.0f} bytes per archived game ({tables})"
    # Most of it is the game's own row, and its review once the background has computed it
    # (app/live/reviews.py: ~8-10 KB a game, in the 25 KB).
    assert tables.get("games", 0) + tables.get("reviews", 0) > size / 2, tables
    assert _action_rows(url) == 0
