"""The floor under `osaka serve`: bare WebSocket rooms that do only what every action must cost,
measured with bench/load.py's client side by side with the product (issue 33).

    python bench/floor.py --rooms 250,1000 --duration 30 --rounds 3 --json out.json
    python bench/floor.py --rooms 250,1000 --products /tmp/before,/tmp/after   # before/after, back to back
    python bench/floor.py serve --port 8100 --db /tmp/floor.db [--ws product|stock]

The floor server (`serve`) is uvicorn + FastAPI with the product's HTTP and WebSocket shapes,
just enough for load.py's players: `POST /api/rooms`, `/api/rooms/{code}/join`, `/start`
(tokens), `GET /healthz`, and `/ws/rooms/{code}` with a Bearer token. On an `act` from the
seat to act at the room's version it appends a ~600-byte row to SQLite (WAL,
`synchronous=NORMAL`, one transaction per batch of whatever is waiting: a group commit in one
writer thread), and only after that commit sends every seat of the room an `event` frame
(266 bytes) and its `state` frame (1,302 bytes as the product sends them at that point of a
game: real player views of a 4-player game, made once by the engine at start-up, the version
and seat to act filled in). No rules, no player views per action, no snapshot, no log line:
what is left is the web stack, JSON framing and the durable write — the floor.

`--ws product` (default) serves the sockets with the product's own protocol class
(app/ws_protocol.py `CoalescingWebSocketProtocol`), `--ws stock` with uvicorn's default; both
with the product's WebSocket settings (size limit, pings, compression).

The comparison (default command) runs, for each of `--rounds` rounds and each room count, the
floor server on a fresh SQLite file and then `osaka serve` on a fresh SQLite database (load.py's
`Server`: migrated, `LOG_LEVEL=info`, the per-address limits off), each under the same load.py
step (`--think`, `--duration`, `--workers`), back to back, and prints CPU milliseconds of the
server per applied action (psutil over the measured window) and its user/system split (the
server's own code / the kernel for it), p99, errors, and the ratio product / floor. Only 127.0.0.1 is contacted.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load  # noqa: E402 - bench/load.py, next to this file (it puts the root on the path)
from app.testing.launcher import ServerProcess  # noqa: E402
from fastapi import FastAPI, Header, HTTPException, WebSocket, WebSocketDisconnect  # noqa: E402 - module level:
# the endpoints' annotations are strings (__future__), resolved in this module's globals

ROW_BYTES = 600          # the stored row per action
EVENT_BYTES = 266        # the event frame per seat
STATE_BYTES = 1302       # the state frame per seat


# ========================================================================= the floor server

def canned_views() -> list[list[str]]:
    """views[k][s]: the JSON text of seat s's player view at a moment of a real 4-player game
    (engine, seed 7, random legal moves) where seat k is to act in the main phase; with the
    version left out (the server adds it)."""
    import random

    import engine
    rng = random.Random(7)
    state = engine.new_game(4, 7)
    found: dict[int, list[str]] = {}
    moves = 0
    while len(found) < 4 and not engine.is_over(state):
        seat = state.to_act
        moves += 1
        if state.phase == "turn" and seat not in found and moves > 12:
            found[seat] = [json.dumps(engine.player_view(state, s), separators=(",", ":")) for s in range(4)]
        state = engine.apply_action(state, seat, rng.choice(engine.legal_actions(state, seat)))
    if len(found) < 4:
        raise RuntimeError("the game ended before every seat had a main-phase decision")
    return [found[k] for k in range(4)]


class GroupCommit:
    """One writer thread: rows wait in a list; each round writes all that wait in one
    transaction and resolves their futures on the event loop."""

    def __init__(self, path: str, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("CREATE TABLE IF NOT EXISTS actions (room TEXT, version INTEGER, body BLOB, "
                        "PRIMARY KEY (room, version))")
        self.waiting: list[tuple[str, int, bytes, asyncio.Future]] = []
        self.cond = threading.Condition()
        self.batches = 0
        threading.Thread(target=self._run, daemon=True).start()

    def add(self, room: str, version: int, body: bytes) -> asyncio.Future:
        fut = self.loop.create_future()
        with self.cond:
            self.waiting.append((room, version, body, fut))
            self.cond.notify()
        return fut

    def _run(self) -> None:
        while True:
            with self.cond:
                while not self.waiting:
                    self.cond.wait()
                batch, self.waiting = self.waiting, []
            self.db.execute("BEGIN")
            self.db.executemany("INSERT INTO actions VALUES (?, ?, ?)", [(r, v, b) for r, v, b, _ in batch])
            self.db.execute("COMMIT")
            self.batches += 1
            for *_, fut in batch:
                self.loop.call_soon_threadsafe(_resolve, fut)


def _resolve(fut: asyncio.Future) -> None:
    if not fut.done():
        fut.set_result(None)


class FloorRoom:
    def __init__(self, code: str):
        self.code = code
        self.tokens: list[str] = []
        self.started = False
        self.version = 0
        self.to_act = 0
        self.sockets: dict[int, object] = {}
        self.lock = asyncio.Lock()


def make_app(db_path: str):
    """The floor's FastAPI app (module docstring)."""
    app = FastAPI()
    rooms: dict[str, FloorRoom] = {}
    views = canned_views()
    commit: dict[str, GroupCommit] = {}

    def state_frame(room: FloorRoom, seat: int) -> str:
        view = views[room.to_act][seat]
        text = f'{{"type":"state","version":{room.version},"view":{view}'
        return text + f',"pad":"{"x" * max(0, STATE_BYTES - len(text) - 10)}"}}'

    def event_frame(room: FloorRoom, seat: int) -> str:
        text = f'{{"type":"event","version":{room.version},"event":{{"type":"took","seat":{seat}}}'
        return text + f',"pad":"{"x" * max(0, EVENT_BYTES - len(text) - 10)}"}}'

    def seat_of(room: FloorRoom, authorization: str | None) -> int:
        token = (authorization or "").removeprefix("Bearer ")
        if token not in room.tokens:
            raise HTTPException(401)
        return room.tokens.index(token)

    @app.get("/healthz")
    async def healthz():
        return {"status": "ok"}

    @app.post("/api/rooms", status_code=201)
    async def create():
        if "db" not in commit:
            commit["db"] = GroupCommit(db_path, asyncio.get_running_loop())
        room = FloorRoom(secrets.token_hex(5).upper())
        rooms[room.code] = room
        room.tokens.append(secrets.token_urlsafe(16))
        return {"code": room.code, "seat": 0, "token": room.tokens[0]}

    @app.post("/api/rooms/{code}/join")
    async def join(code: str):
        room = rooms[code]
        room.tokens.append(secrets.token_urlsafe(16))
        return {"seat": len(room.tokens) - 1, "token": room.tokens[-1]}

    @app.post("/api/rooms/{code}/start")
    async def start(code: str, authorization: str | None = Header(None)):
        room = rooms[code]
        seat_of(room, authorization)
        room.started = True
        return {"status": "ok"}

    @app.websocket("/ws/rooms/{code}")
    async def sock(ws: WebSocket, code: str):
        room = rooms.get(code)
        if room is None:
            await ws.close(1008)
            return
        try:
            seat = seat_of(room, ws.headers.get("authorization"))
        except HTTPException:
            await ws.close(1008)
            return
        await ws.accept()
        room.sockets[seat] = ws
        await ws.send_text(state_frame(room, seat))
        try:
            while True:
                msg = json.loads(await ws.receive_text())
                if msg.get("type") != "act":
                    continue
                async with room.lock:
                    if msg.get("version") != room.version or seat != room.to_act:
                        await ws.send_text(json.dumps({"type": "error", "code": "stale_version", "id": msg.get("id")}))
                        continue
                    body = json.dumps({"room": code, "seat": seat, "action": msg.get("action"), "id": msg.get("id"),
                                       "pad": "x" * 400}).encode()[:ROW_BYTES].ljust(ROW_BYTES)
                    await commit["db"].add(code, room.version + 1, body)
                    room.version += 1
                    room.to_act = (room.to_act + 1) % 4
                    for s, other in list(room.sockets.items()):
                        try:
                            await other.send_text(event_frame(room, seat))
                            await other.send_text(state_frame(room, s))
                        except Exception:
                            room.sockets.pop(s, None)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            if room.sockets.get(seat) is ws:
                del room.sockets[seat]

    return app


def serve(port: int, db_path: str, ws: str) -> None:
    """Run the floor server on 127.0.0.1:`port` (blocks)."""
    import uvicorn

    from app.cli import WS_MAX_SIZE
    from app.config import Settings
    from app.ws_protocol import CoalescingWebSocketProtocol
    settings = Settings()
    uvicorn.run(make_app(db_path), host="127.0.0.1", port=port, log_config=None, log_level="warning",
                access_log=False, server_header=False, ws_max_size=WS_MAX_SIZE,
                ws_ping_interval=settings.ws_ping_interval_s, ws_ping_timeout=settings.ws_ping_timeout_s,
                ws_per_message_deflate=settings.ws_compression,
                ws=CoalescingWebSocketProtocol if ws == "product" else "auto")


# ============================================================================ the comparison

class FloorServer(ServerProcess):
    """`python bench/floor.py serve` as a subprocess (the shared launcher)."""

    def __init__(self, db_path: Path, log_path: Path, ws: str, env: dict[str, str] | None = None):
        super().__init__("", log_path, env=env)
        self.command = [sys.executable, str(Path(__file__).resolve()), "serve", "--port", str(self.port),
                        "--db", str(db_path), "--ws", ws]


def step(kind: str, rooms: int, args, tmp: Path, n: int, root: str | None = None) -> dict:
    """One load.py step against a fresh floor or product server (`root`: the checkout whose
    `osaka serve` runs; default this one) → load.py's row + `server`."""
    env = load.wakeups_env({}) if args.wakeups else {}
    if kind == "floor":
        srv = FloorServer(tmp / f"floor{n}.db", tmp / f"floor{n}.log", args.ws, env).start(60)
        pid = srv.pid
    else:
        srv = load.Server(f"sqlite+aiosqlite:///{tmp / f'osaka{n}.db'}", tmp / f"osaka{n}.log", env,
                          root=Path(root or load.ROOT)).start()
        pid = srv.pid
    try:
        time.sleep(0.5)
        row = load.run_step(srv.base_url, pid, rooms, args, None)
    finally:
        srv.stop()
    row["server"] = kind
    if root:
        row["server_root"] = root
    return row


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv and argv[0] == "serve":
        p = argparse.ArgumentParser(prog="floor.py serve")
        p.add_argument("--port", type=int, required=True)
        p.add_argument("--db", required=True)
        p.add_argument("--ws", choices=["product", "stock"], default="product")
        a = p.parse_args(argv[1:])
        serve(a.port, a.db, a.ws)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", default="250,1000", help="comma-separated room counts")
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds per step")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time per decision, s")
    parser.add_argument("--rounds", type=int, default=1, help="floor, then product, this many times")
    parser.add_argument("--workers", type=int, default=2, help="client worker processes")
    parser.add_argument("--ws", choices=["product", "stock"], default="product",
                        help="the floor's WebSocket protocol: the product's class or uvicorn's default")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write the rows here (a list)")
    parser.add_argument("--server-root", metavar="DIR",
                        help="serve `osaka serve` from another checkout (a `git worktree` of an older "
                             "commit, for before/after figures); default: this one")
    parser.add_argument("--products", metavar="DIR,DIR",
                        help="instead of the floor and this checkout: the floor, then `osaka serve` of each "
                             "checkout in turn (before/after back to back); the ratio is to the floor")
    parser.add_argument("--wakeups", action="store_true",
                        help="count each server's event-loop callbacks per action (load.py --wakeups: "
                             "asyncio's loop, so the CPU figures are not comparable with runs without it)")
    args = parser.parse_args(argv)
    args.db, args.url, args.again = "sqlite", None, False   # what load.run_step reads
    steps = [int(x) for x in args.rooms.split(",") if x.strip()]
    print(f"floor benchmark ({args.ws} WebSocket protocol) vs osaka serve, SQLite, rooms {steps}, "
          f"{args.duration:g} s per step, think {args.think:g} s, {args.rounds} rounds; {load.machine()}, "
          f"load {os.getloadavg()[0]:.2f}", flush=True)
    print(f"{'round':>5} {'rooms':>6} {'server':>7} {'actions':>8} {'act/s':>7} {'p99 ms':>8} {'errors':>7} "
          f"{'cpu%':>6} {'cpu ms/act':>11} {'user/sys':>10} {'ratio':>6} {'load':>5}", flush=True)
    rows: list[dict] = []
    tmp = Path(tempfile.mkdtemp(prefix="osaka-floor-"))
    n = 0
    try:
        for rnd in range(1, args.rounds + 1):
            for rooms in steps:
                floor_ms = None
                products = [("osaka", r) for r in args.products.split(",")] if args.products else [
                    ("osaka", args.server_root)]
                for kind, root in [("floor", None), *products]:
                    n += 1
                    row = step(kind, rooms, args, tmp, n, root)
                    row["round"] = rnd
                    if args.products and root:
                        kind = Path(root).name[:7]
                    rows.append(row)
                    ms = row["server_cpu_ms_per_action"]
                    ratio = f"{ms / floor_ms:.2f}" if kind != "floor" and ms and floor_ms else "-"
                    floor_ms = ms if kind == "floor" else floor_ms
                    split = f"{row['server_user_ms_per_action']}/{row['server_sys_ms_per_action']}"
                    print(f"{rnd:>5} {rooms:>6} {kind:>7} {row['actions']:>8} {row['actions_per_s']:>7} "
                          f"{row['p99_ms']!s:>8} {row['errors']:>7} {row['server_cpu_pct']:>6} {ms!s:>11} {split:>10} "
                          f"{ratio:>6} {row['loadavg'][0]:>5}", flush=True)
                    load.print_wakeups(row)
    finally:
        if args.json:
            Path(args.json).parent.mkdir(parents=True, exist_ok=True)
            Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
