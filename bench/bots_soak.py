"""Soak of computer players through the real server: the server's CPU per computer player's move.

    python bench/bots_soak.py --games 100 --rooms 25 [--level easy] [--db sqlite|postgres] [--json out.json]

Starts `osaka serve` (127.0.0.1, a free port, `BOT_DELAY_S=0`, `LOG_LEVEL=info` as deployed;
`--env KEY=VALUE` adds more; `--server-root` serves another checkout, for before/after figures)
on a fresh database, then keeps `--rooms` games in play until `--games` games have finished.
Each game is a room of four computer players of `--level`: the host creates the room, adds three
computer players over HTTP, starts, and hands its own seat to a fourth (docs/protocol.md); from
then on the server plays the whole game by itself (app/live/computer/bots.py), no WebSocket is open.

Reported: moves (rows of the action log), moves/s, the server process's CPU time over the soak
(psutil; its bot worker processes are children and are reported apart, not included), its CPU
per move ("cpu ms/move", the figure to compare: robust against other load on the machine), and
the workers' CPU per move. Progress is read from the database file/server directly (no HTTP
polling that would cost the server CPU). Only 127.0.0.1 is contacted; every wait is bounded.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from app.testing.launcher import NO_ADDRESS_LIMITS, ServerProcess  # noqa: E402 - after the path

PG_DB = "osaka_bench"
GAME_TIMEOUT_S = 600.0


async def _pg(url: str, sql: str, *stmts: str):
    import asyncpg
    conn = await asyncpg.connect(url)
    try:
        for stmt in stmts:
            await conn.execute(stmt)
        return await conn.fetchrow(sql) if sql else None
    finally:
        await conn.close()


class Progress:
    """(games over, moves so far) read straight from the database, not through the server."""

    def __init__(self, db: str, sqlite_path: Path | None, pg_url: str | None):
        self.db, self.sqlite_path, self.pg_url = db, sqlite_path, pg_url

    async def read(self) -> tuple[int, int]:
        sql = "SELECT (SELECT count(*) FROM rooms WHERE status = 'over'), (SELECT count(*) FROM actions)"
        if self.db == "sqlite":
            with sqlite3.connect(f"file:{self.sqlite_path}?mode=ro", uri=True, timeout=30) as conn:
                over, moves = conn.execute(sql).fetchone()
            return over, moves
        row = await _pg(self.pg_url, sql)
        return row[0], row[1]


async def one_game(http, level: str) -> str:
    """Create a room of four computer players of `level` and start it → its code."""
    r = await http.post("/api/rooms", json={"name": "Soak", "public": False})
    r.raise_for_status()
    code, token = r.json()["code"], r.json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(3):
        (await http.post(f"/api/rooms/{code}/bots", json={"level": level}, headers=auth)).raise_for_status()
    (await http.post(f"/api/rooms/{code}/start", headers=auth)).raise_for_status()
    (await http.post(f"/api/rooms/{code}/seats/0/bot", json={"level": level}, headers=auth)).raise_for_status()
    return code


async def soak(base_url: str, pid: int, progress: Progress, args) -> dict:
    """Keep `args.rooms` games running until `args.games` are over; → the figures."""
    import httpx
    import psutil
    server = psutil.Process(pid)
    started = 0
    t0 = time.monotonic()
    cpu0, kids0 = server.cpu_times(), sum(sum(c.cpu_times()[:2]) for c in server.children(recursive=True))
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:
        over, moves = 0, 0
        deadline = t0 + GAME_TIMEOUT_S * max(1, args.games // max(1, args.rooms))
        while over < args.games and time.monotonic() < deadline:
            want = min(args.games, over + args.rooms) - started
            if want > 0:
                await asyncio.gather(*(one_game(http, args.level) for _ in range(want)))
                started += want
            await asyncio.sleep(0.5)
            over, moves = await progress.read()
    wall = time.monotonic() - t0
    cpu1 = server.cpu_times()
    kids = sum(sum(c.cpu_times()[:2]) for c in server.children(recursive=True)) - kids0
    cpu = (cpu1.user + cpu1.system) - (cpu0.user + cpu0.system)
    return {"db": args.db, "level": args.level, "games": over, "concurrent_rooms": args.rooms,
            "moves": moves, "wall_s": round(wall, 1), "moves_per_s": round(moves / wall, 1),
            "server_cpu_s": round(cpu, 2), "server_cpu_pct": round(100 * cpu / wall, 1),
            "server_cpu_ms_per_move": round(1000 * cpu / max(1, moves), 2),
            "workers_cpu_ms_per_move": round(1000 * kids / max(1, moves), 2),
            "loadavg": [round(x, 2) for x in os.getloadavg()], "date": time.strftime("%Y-%m-%d %H:%M:%S")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games to play to the end")
    parser.add_argument("--rooms", type=int, default=25, help="games in play at once")
    parser.add_argument("--level", default="easy", choices=["easy", "normal", "hard"])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--pg-admin-url", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--env", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--server-root", metavar="DIR", help="serve another checkout (before/after)")
    parser.add_argument("--json", help="append the result object to this JSON list")
    parser.add_argument("--profile", metavar="FILE", help="attach `py-spy record --gil` to the server for the "
                        "soak (raw collapsed stacks; bench/profile_summary.py FILE)")
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="osaka-soak-"))
    sqlite_path = pg_url = spy = None
    if args.db == "sqlite":
        sqlite_path = tmp / "soak.db"
        db_url = f"sqlite+aiosqlite:///{sqlite_path}"
    else:
        asyncio.run(_pg(args.pg_admin_url, "", f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)',
                        f'CREATE DATABASE "{PG_DB}"'))
        pg_url = args.pg_admin_url.rsplit("/", 1)[0] + f"/{PG_DB}"
        db_url = pg_url.replace("postgresql://", "postgresql+asyncpg://", 1)
    env = {"BOT_DELAY_S": "0", "LOG_LEVEL": "info", **NO_ADDRESS_LIMITS,  # every room comes from 127.0.0.1
           **dict(kv.split("=", 1) for kv in args.env)}
    print(f"bots soak: {args.db}, {args.games} games of 4 {args.level} computer players, {args.rooms} at once; "
          f"{platform.node()} {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load {os.getloadavg()[0]:.2f}", flush=True)
    server = ServerProcess(db_url, tmp / "server.log", env=env, root=Path(args.server_root or ROOT))
    try:
        server.start(60, migrate_first=True)
        spy = None
        if args.profile:
            exe = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")
            spy = subprocess.Popen([exe, "record", "--pid", str(server.proc.pid), "--rate", "200", "--gil",
                                    "--format", "raw", "-o", args.profile],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        row = asyncio.run(soak(server.base_url, server.proc.pid, Progress(args.db, sqlite_path, pg_url), args))
    except Exception:
        print(f"server log tail:\n{server.log_path.read_text()[-3000:]}", file=sys.stderr)
        raise
    finally:
        server.stop()
        if spy is not None:
            spy.wait(60)
        if args.db == "postgres":
            asyncio.run(_pg(args.pg_admin_url, "", f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)'))
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(row), flush=True)
    if args.json:
        path = Path(args.json)
        old = json.loads(path.read_text()) if path.exists() else []
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(old + [row], indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
