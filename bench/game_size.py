"""What a stored finished game occupies in the database, per table and index.

    python bench/game_size.py [--games 6] [--players 4] [--states over,archived,compacted]
        [--db sqlite|postgres|both] [--root CHECKOUT]
        [--pg-admin-url postgresql+asyncpg://postgres@127.0.0.1:5432/postgres] [--columns]

For each state, a fresh database (SQLite file / PostgreSQL database `osaka_bench_size`) at the
head migration of `--root` (default: this checkout) and a real `osaka serve` of that checkout
(computer players without delay): `--games` rooms of `--players` seats, the host and easy
computer players, the host's seat handed to one as well, are played to the end. States:

- `over`: as the game's last action left it (the room `over`, its snapshot, its action rows);
- `archived`: then every room plays again (the finished game moved to `games`, the room waits);
- `compacted`: `over`, then app/records.py `compact_finished` for every room (what the end of a
  game does once it calls it; this checkout only), with the server stopped.

Then the server stops and app/testing/storage_size.py measures: SQLite `VACUUM INTO` + `dbstat`,
PostgreSQL `VACUUM FULL` + `pg_total_relation_size` and the rows' `pg_column_size`, each minus
an empty database at the same migration, divided by the number of games. Prints KB (1,024
bytes) per game for every table with its indexes (SQLite also per index; `--columns`: the
bytes of each column's values).
`--root` serves another checkout, e.g. the code before a change:
`git archive HEAD | tar -x -C /tmp/before && python bench/game_size.py --root /tmp/before`.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from app.testing import storage_size  # noqa: E402
from app.testing.launcher import NO_ADDRESS_LIMITS, QUIET, ServerProcess, migrate  # noqa: E402

PG_DB, PG_EMPTY = "osaka_bench_size", "osaka_bench_size_empty"
STATES = ("over", "archived", "compacted")


def _auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def play_games(base: str, games: int, players: int, timeout_s: float = 300) -> list[tuple[str, str]]:
    """`games` rooms of `players` seats (the host + easy computer players, the host's seat handed
    to one too), all played to the end at once → [(code, host token)]."""
    rooms = []
    with httpx.Client(base_url=base, timeout=30) as http:
        for _ in range(games):
            host = http.post("/api/rooms", json={"name": "Host", "public": False}).json()
            code, token = host["code"], host["token"]
            for _ in range(players - 1):
                http.post(f"/api/rooms/{code}/bots", json={"level": "easy"}, headers=_auth(token)).raise_for_status()
            http.post(f"/api/rooms/{code}/start", headers=_auth(token)).raise_for_status()
            http.post(f"/api/rooms/{code}/seats/0/bot", json={"level": "easy"}, headers=_auth(token)).raise_for_status()
            rooms.append((code, token))
        deadline = time.monotonic() + timeout_s
        for code, _ in rooms:
            while http.get(f"/api/rooms/{code}").json()["status"] != "over":
                if time.monotonic() > deadline:
                    raise RuntimeError(f"room {code} did not finish")
                time.sleep(0.2)
    return rooms


def play_again(base: str, rooms: list[tuple[str, str]]) -> None:
    """Every room plays again (its finished game is archived; the room waits for game 2)."""
    with httpx.Client(base_url=base, timeout=30) as http:
        for code, token in rooms:
            r = http.post(f"/api/rooms/{code}/again", json={"game": 1}, headers=_auth(token))
            r.raise_for_status()
            assert r.json()["new"] is True, r.text


def fill(url: str, state: str, games: int, players: int, root: Path, log: Path) -> None:
    """The database at `url` (migrated) holds `games` finished games in `state`."""
    srv = ServerProcess(url, log, env={**QUIET, **NO_ADDRESS_LIMITS}, root=root).start(migrate_first=True)
    try:
        rooms = play_games(srv.base_url, games, players)
        if state == "archived":
            play_again(srv.base_url, rooms)
    finally:
        srv.stop()
    if state == "compacted":
        timings: list[float] = []
        n = storage_size.compact_all(url, timings)
        # The server compacts each game at its end (app/live/actions/path.py `_compact`): then none is left.
        assert n in (0, games), f"compacted {n} of {games}"
        if n == 0:
            return
        timings.sort()
        print(f"\ncompact_finished (with its session and commit): median {timings[len(timings) // 2] * 1000:.1f} ms, "
              f"max {timings[-1] * 1000:.1f} ms per game")


def _kb(n: float) -> str:
    return f"{n / 1024:8.1f}"


def sqlite_run(state: str, games: int, players: int, root: Path, columns: bool) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        path, empty = Path(tmp) / "osaka.db", Path(tmp) / "empty.db"
        migrate(f"sqlite+aiosqlite:///{empty}", root=root)
        fill(f"sqlite+aiosqlite:///{path}", state, games, players, root, Path(tmp) / "server.log")
        cost = storage_size.sqlite_game_cost(path, empty, games)
        print(f"\nSQLite, {state}: {games} games of {players} players, KB per game (pages; payload)")
        for name, t in sorted(cost["tables"].items(), key=lambda kv: -kv[1]["bytes"]):
            if max(abs(t["bytes"]), t["payload"]) >= 50:
                print(f"  {name:<34}{_kb(t['bytes'])}  ({_kb(t['payload']).strip()})")
                for obj, o in sorted(cost["objects"].items(), key=lambda kv: -kv[1]["bytes"]):
                    if obj != name and cost["owners"][obj] == name and max(abs(o["bytes"]), o["payload"]) >= 50:
                        print(f"    {obj:<32}{_kb(o['bytes'])}  ({_kb(o['payload']).strip()})")
        print(f"  {'total':<34}{_kb(cost['total'])}")
        if columns:
            for table, cols in storage_size.sqlite_columns(path).items():
                shown = {c: b / games for c, b in cols.items() if b}
                if shown:
                    print(f"  {table} columns, bytes per game: "
                          + ", ".join(f"{c} {b:,.0f}" for c, b in sorted(shown.items(), key=lambda kv: -kv[1])))
        return cost["total"]


def pg_run(state: str, games: int, players: int, root: Path, admin_url: str) -> float:
    with tempfile.TemporaryDirectory() as tmp, \
            storage_size.pg_database(admin_url, PG_EMPTY) as empty, storage_size.pg_database(admin_url, PG_DB) as url:
        migrate(empty, root=root)
        fill(url, state, games, players, root, Path(tmp) / "server.log")
        cost = storage_size.pg_game_cost(url, empty, games)
        print(f"\nPostgreSQL, {state}: {games} games of {players} players, KB per game "
              "(relation incl. TOAST and indexes; the rows' pg_column_size)")
        for name, t in sorted(cost["tables"].items(), key=lambda kv: -kv[1]["bytes"]):
            if t["bytes"] or t["rows"]:
                print(f"  {name:<34}{_kb(t['bytes'])}  ({_kb(t['rows']).strip()})")
        print(f"  {'total':<34}{_kb(cost['total'])}  ({_kb(cost['rows']).strip()})")
        return cost["total"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    ap.add_argument("--states", default=",".join(STATES))
    ap.add_argument("--db", default="sqlite", choices=("sqlite", "postgres", "both"))
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve (default: this one)")
    ap.add_argument("--pg-admin-url", default="postgresql+asyncpg://postgres@127.0.0.1:5432/postgres")
    ap.add_argument("--columns", action="store_true", help="SQLite: bytes of each column's values too")
    args = ap.parse_args()
    states = [s for s in args.states.split(",") if s]
    unknown = set(states) - set(STATES)
    if unknown:
        ap.error(f"unknown states: {', '.join(sorted(unknown))}")
    if "compacted" in states and args.root.resolve() != ROOT:
        ap.error("compacted: only with this checkout (it calls this checkout's app/records.py)")
    for state in states:
        if args.db in ("sqlite", "both"):
            sqlite_run(state, args.games, args.players, args.root, args.columns)
        if args.db in ("postgres", "both"):
            pg_run(state, args.games, args.players, args.root, args.pg_admin_url)


if __name__ == "__main__":
    main()
