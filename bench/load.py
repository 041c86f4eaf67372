"""Load benchmark of one server process: R rooms of 4 simulated players playing random legal moves.

    python bench/load.py --rooms 25,50,100,250 --duration 30 --json out.json [--db sqlite|postgres]
    python bench/load.py --url http://127.0.0.1:PORT [--server-pid PID] --rooms 50

Without `--url` it starts `osaka serve` itself (127.0.0.1, a free port, `BOT_DELAY_S=0`, the
default `LOG_LEVEL=info`, as deployed: a line per refused action, none per applied one; `--env
KEY=VALUE` adds more) on a
fresh database for every step: a new SQLite file, or the PostgreSQL database `osaka_bench`
(dropped and created again; `--pg-admin-url` names the server). Each step:

1. Client worker processes (`--workers`, separate from the server so they do not share its
   CPU budget) create their rooms over HTTP (create + 3 joins + start, Bearer tokens) and open
   4 WebSockets per room (docs/protocol.md), each a real `websockets` client.
2. For `--duration` seconds every seat whose decision it is waits a think time (uniform in
   0.5..1.5 × `--think`, default 2 s), chooses with `bots.choose_action(view, "easy")` (a
   random legal move among non-silly ones, from its own view only) and sends `act`. When a
   room's game ends within the window, its host plays again (`POST /again`, then `/start`;
   `--no-again` leaves the room idle), so short think times keep every room busy.
3. Per action it measures the time from sending the `act` to the moment all 4 seats of the
   room hold the `state` frame of the new version (the 4 clients of a room live in the same
   worker, so one monotonic clock serves). Errors: failed setup calls, sockets closed by the
   server, actions not fully delivered within `--timeout`; refused = `error` frames.
4. The server process is sampled with psutil: CPU share over the measured window (percent of
   one core), its CPU time per action split into user time (the server's own code: Python,
   the interpreter, SQLite's library) and system time (the kernel on its behalf: socket
   reads and writes, the database file), peak RSS, and memory per room = (peak RSS - RSS of
   the idle server) / rooms.

`--wakeups` counts the server's event-loop callbacks over the measured window, per applied
action and with the loop thread's CPU in each (bench/wakeups/: the server runs asyncio's own
loop instead of uvloop under a probe, so its CPU figures are not comparable with a run without
it); the row's `wakeups` is [[callback, per action, µs of CPU per action], ...].

Prints a table per database and writes a JSON list, one object per step (keys: `db`, `rooms`,
`players`, `actions`, `actions_per_s`, `p50_ms`, `p95_ms`, `p99_ms`, `max_ms`, `errors`,
`refused`, `server_cpu_pct`, `server_cpu_ms_per_action`, `server_user_ms_per_action`,
`server_sys_ms_per_action`, `server_rss_mb`, `mem_per_room_kb`, `client_cpu_pct`, `loadavg`…).
Every loop is bounded in count and time; only 127.0.0.1 is ever contacted.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import platform
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from app.testing.launcher import NO_ADDRESS_LIMITS, ServerProcess  # noqa: E402 - after the path

SETUP_TIMEOUT_S = 600.0       # creating and connecting the rooms of one step
DRAIN_S = 5.0                 # after the window: wait this long for actions still in flight
HTTP_CONCURRENCY = 8          # room setups at once per worker
CONNECT_CONCURRENCY = 16      # WebSocket handshakes at once per worker
PG_DB = "osaka_bench"
EVENT_FRAME = '{"type":"event",'  # how the server's `event` frames begin (app/live/hub.dumps)


# ============================================================== client worker (own process)

@dataclass
class Seat:
    """One simulated player: its socket and the newest state it holds."""
    seat: int
    token: str
    ws: Any = None
    version: int = -1
    view: dict | None = None
    acted_version: int = -1      # the version it last sent an act for
    game: int = 1                # the game its version counts in
    task: asyncio.Task | None = None


@dataclass
class RoomPlay:
    """One room of 4 seats in a worker: pending actions and their timings."""
    code: str
    seats: list[Seat]
    pending: dict[int, tuple[float, bool]] = field(default_factory=dict)  # new version → (t_sent, in window)
    over: bool = False
    game: int = 1                # the room's current game (play again counts up)

    def delivered(self, version: int) -> bool:
        return all(s.version >= version for s in self.seats)


class Worker:
    """Plays the rooms of one worker process and counts what happens."""

    def __init__(self, cfg: dict):
        self.cfg = cfg
        self.base = cfg["url"].rstrip("/")
        self.ws_base = "ws" + self.base[4:]
        self.rng = random.Random(cfg["seed"])
        self.rooms: list[RoomPlay] = []
        self.latencies_ms: list[float] = []
        self.errors: dict[str, int] = {}
        self.refused: dict[str, int] = {}
        self.sent = 0
        self.games_over = 0
        self.window_start = 0.0
        self.window_end = 0.0
        self.stopping = False
        self.think_tasks: set[asyncio.Task] = set()
        self.http = None             # the HTTP client (setup, and playing again in the window)
        self.games_started = 0

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1

    # ------------------------------------------------------------------ setup
    async def make_room(self, http, sem: asyncio.Semaphore, i: int) -> None:
        async with sem:
            try:
                r = await http.post("/api/rooms", json={"name": "Bench0", "public": False})
                r.raise_for_status()
                host = r.json()
                code, tokens = host["code"], [host["token"]]
                for n in range(1, 4):
                    r = await http.post(f"/api/rooms/{code}/join", json={"name": f"Bench{n}"})
                    r.raise_for_status()
                    tokens.append(r.json()["token"])
                r = await http.post(f"/api/rooms/{code}/start",
                                    headers={"Authorization": f"Bearer {tokens[0]}"})
                r.raise_for_status()
            except Exception as exc:  # counted, the room is left out
                self.error(f"setup_http:{type(exc).__name__}")
                return
            self.rooms.append(RoomPlay(code, [Seat(n, t) for n, t in enumerate(tokens)]))

    async def connect_room(self, room: RoomPlay, sem: asyncio.Semaphore) -> None:
        from websockets.asyncio.client import connect
        async with sem:
            for seat in room.seats:
                try:
                    seat.ws = await asyncio.wait_for(connect(
                        f"{self.ws_base}/ws/rooms/{room.code}",
                        additional_headers={"Authorization": f"Bearer {seat.token}"},
                        max_size=2 ** 22, open_timeout=60, ping_interval=None), 90)
                except Exception as exc:
                    self.error(f"connect:{type(exc).__name__}")
                    continue
                seat.task = asyncio.create_task(self.read_loop(room, seat))

    # ------------------------------------------------------------------- play
    async def read_loop(self, room: RoomPlay, seat: Seat) -> None:
        """Read frames until the socket closes; track versions and schedule decisions."""
        from websockets.exceptions import ConnectionClosed
        try:
            async for raw in seat.ws:
                if raw.startswith(EVENT_FRAME):  # a player acts on `state` frames only
                    continue
                msg = orjson.loads(raw)
                kind = msg.get("type")
                if kind == "room":
                    game = (msg.get("room") or {}).get("game") or 1
                    if game > room.game:   # a new game: its versions start again at 0
                        room.game, room.over, room.pending = game, False, {}
                    if game == room.game and seat.game < game:
                        seat.game, seat.version, seat.view, seat.acted_version = game, -1, None, -1
                elif kind == "state":
                    if seat.game < room.game:
                        continue   # a late frame of the game before
                    if msg["version"] > seat.version:
                        seat.version, seat.view = msg["version"], msg["view"]
                    self.on_state(room, seat)
                elif kind == "error":
                    self.refused[msg.get("code", "?")] = self.refused.get(msg.get("code", "?"), 0) + 1
                    if msg.get("id") is not None:   # our act was refused: decide again
                        room.pending.pop(seat.version + 1, None)
                        seat.acted_version = -1
                        self.on_state(room, seat)
        except ConnectionClosed:
            pass
        except Exception as exc:
            self.error(f"reader:{type(exc).__name__}")
        if not self.stopping:
            self.error("socket_closed_by_server")

    def on_state(self, room: RoomPlay, seat: Seat) -> None:
        now = time.monotonic()
        for v in [v for v in room.pending if room.delivered(v)]:
            t_sent, counted = room.pending.pop(v)
            if counted:
                self.latencies_ms.append((now - t_sent) * 1000)
        view = seat.view
        if view is None:
            return
        if view["phase"] == "over":
            if not room.over:
                room.over = True
                self.games_over += 1
                if self.cfg.get("again") and not self.stopping and self.window_start > 0:
                    task = asyncio.create_task(self.play_again(room))
                    self.think_tasks.add(task)
                    task.add_done_callback(self.think_tasks.discard)
            return
        if (view["to_act"] == seat.seat and seat.acted_version != seat.version
                and not self.stopping and self.window_start > 0):
            seat.acted_version = seat.version
            task = asyncio.create_task(self.decide(room, seat, seat.version, seat.game))
            self.think_tasks.add(task)
            task.add_done_callback(self.think_tasks.discard)

    async def play_again(self, room: RoomPlay) -> None:
        """`--again`: the host asks for the next game (`POST /again`) and starts it, as a
        table of friends would; its actions count like any other."""
        host = room.seats[0]
        auth = {"Authorization": f"Bearer {host.token}"}
        try:
            r = await self.http.post(f"/api/rooms/{room.code}/again", json={"game": room.game}, headers=auth)
            r.raise_for_status()
            r = await self.http.post(f"/api/rooms/{room.code}/start", headers=auth)
            r.raise_for_status()
            self.games_started += 1
        except Exception as exc:
            if not self.stopping:
                self.error(f"again:{type(exc).__name__}")

    async def decide(self, room: RoomPlay, seat: Seat, version: int, game: int) -> None:
        import bots
        think = self.cfg["think"] * self.rng.uniform(0.5, 1.5)
        await asyncio.sleep(think)
        if (self.stopping or seat.version != version or seat.game != game
                or time.monotonic() >= self.window_end):
            return
        try:
            action = bots.choose_action(seat.view, "easy", seed=self.rng.getrandbits(32))
        except Exception as exc:
            self.error(f"choose:{type(exc).__name__}")
            return
        t_sent = time.monotonic()
        room.pending[version + 1] = (t_sent, t_sent < self.window_end)
        self.sent += 1
        try:
            await seat.ws.send(json.dumps({"type": "act", "id": uuid.uuid4().hex,
                                           "version": version, "action": action}))
        except Exception as exc:
            self.error(f"send:{type(exc).__name__}")

    # -------------------------------------------------------------- lifecycle
    async def run(self, pipe) -> dict:
        import httpx
        loop = asyncio.get_running_loop()
        limits = httpx.Limits(max_connections=HTTP_CONCURRENCY, max_keepalive_connections=HTTP_CONCURRENCY)
        # No cookie jar: a seat cookie would make the next join return the host's seat.
        no_cookies = CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))
        # One client for the setup and for playing again (closed at the end).
        self.http = httpx.AsyncClient(base_url=self.base, timeout=60, limits=limits, cookies=no_cookies)
        sem = asyncio.Semaphore(HTTP_CONCURRENCY)
        await asyncio.gather(*(self.make_room(self.http, sem, i) for i in range(self.cfg["rooms"])))
        sem = asyncio.Semaphore(CONNECT_CONCURRENCY)
        await asyncio.gather(*(self.connect_room(r, sem) for r in self.rooms))
        # every seat has its state (bounded wait)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not all(
                s.view is not None for r in self.rooms for s in r.seats if s.ws is not None):
            await asyncio.sleep(0.1)
        pipe.send(("ready", len(self.rooms)))
        go = await loop.run_in_executor(None, pipe.recv)   # ("go", duration)
        self.window_start = time.monotonic()
        self.window_end = self.window_start + go[1]
        for room in self.rooms:     # first decisions: whoever is to act now
            for seat in room.seats:
                self.on_state(room, seat)
        await asyncio.sleep(max(0.0, self.window_end - time.monotonic()))
        drain_end = time.monotonic() + DRAIN_S
        while time.monotonic() < drain_end and any(
                c for r in self.rooms for _, c in r.pending.values()):
            await asyncio.sleep(0.05)
        self.stopping = True
        for room in self.rooms:
            for v, (_, counted) in room.pending.items():
                if counted:
                    self.error("not_delivered_in_time")
        for task in list(self.think_tasks):
            task.cancel()
        await self.http.aclose()
        await asyncio.gather(*(s.ws.close() for r in self.rooms for s in r.seats if s.ws is not None),
                             return_exceptions=True)
        await asyncio.gather(*(s.task for r in self.rooms for s in r.seats if s.task is not None),
                             return_exceptions=True)
        return {"rooms": len(self.rooms), "latencies_ms": self.latencies_ms, "errors": self.errors,
                "refused": self.refused, "sent": self.sent, "games_over": self.games_over,
                "games_started": self.games_started}


def worker_main(pipe, cfg: dict) -> None:
    """Entry point of a client worker process (spawned): play, then send the results."""
    try:
        result = asyncio.run(Worker(cfg).run(pipe))
        pipe.send(("done", result))
    except Exception as exc:  # report, never hang the parent
        pipe.send(("failed", f"{type(exc).__name__}: {exc}"))


# ================================================================= the server under test

async def _pg_admin(admin_url: str, *sql: str) -> None:
    import asyncpg
    conn = await asyncpg.connect(admin_url)
    try:
        for stmt in sql:
            await conn.execute(stmt)
    finally:
        await conn.close()


def fresh_database(db: str, tmp: Path, step: int, pg_admin_url: str) -> str:
    """An empty database for one step → its SQLAlchemy URL."""
    if db == "sqlite":
        return f"sqlite+aiosqlite:///{tmp / f'bench{step}.db'}"
    asyncio.run(_pg_admin(pg_admin_url, f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)',
                          f'CREATE DATABASE "{PG_DB}"'))
    base = pg_admin_url.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://", 1)
    return f"{base}/{PG_DB}"


class Server(ServerProcess):
    """`osaka serve` of the checkout `root` on 127.0.0.1 (migrated first; the shared launcher,
    app/testing/launcher.py), optionally under py-spy (`profile`: its raw output path)."""

    def __init__(self, database_url: str, log_path: Path, env: dict[str, str],
                 profile: str | None = None, root: Path = ROOT):
        wrap = None
        if profile:
            spy = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")
            if spy is None:
                raise RuntimeError("--profile needs py-spy (pip install py-spy)")
            # --gil: only samples of the thread holding the GIL, i.e. where the CPU goes
            wrap = [spy, "record", "--format", "raw", "--rate", "100", "--gil", "-o", profile, "--"]
        # All load clients come from 127.0.0.1: the per-address limits on creating and joining
        # rooms (README) are off, else they would refuse the bench's rooms.
        super().__init__(database_url, log_path, env={"BOT_DELAY_S": "0", "LOG_LEVEL": "info",
                                                      **NO_ADDRESS_LIMITS, **env},
                         root=root, wrap=wrap)
        self.profile = profile
        self.url = self.base_url
        self._server_pid: int | None = None

    @property
    def pid(self) -> int | None:
        """The server's pid (under py-spy: its child)."""
        return self._server_pid

    def start(self, timeout_s: float = 60) -> Server:
        super().start(timeout_s, migrate_first=True)
        self._server_pid = self.proc.pid
        if self.profile:  # measure the server, not py-spy
            import psutil
            self._server_pid = psutil.Process(self.proc.pid).children()[0].pid
        return self

    def stop(self, timeout_s: float = 15) -> int | None:
        """SIGTERM the server first under py-spy (so that it writes its profile), then the group."""
        if self.profile and self._server_pid and self.proc is not None and self.proc.poll() is None:
            try:
                os.kill(self._server_pid, signal.SIGTERM)
                self.proc.wait(60)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
        return super().stop(timeout_s)


def pid_listening_on(url: str) -> int | None:
    """The pid of the local process listening on the URL's port (None if not visible)."""
    import psutil
    from urllib.parse import urlsplit
    port = urlsplit(url).port
    try:
        for c in psutil.net_connections("tcp"):
            if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port and c.pid:
                return c.pid
    except (psutil.AccessDenied, PermissionError):
        pass
    return None


# ======================================================================= one step

def window_profiler(args, pid: int | None, rooms: int) -> subprocess.Popen | None:
    """`--profile-window PREFIX`: `py-spy record --pid` on the server for the measured window only
    (raw collapsed stacks to PREFIX.<rooms>.txt; no setup, no start-up and no goodbyes in the samples: it
    stops 2 s before the window ends)."""
    if not getattr(args, "profile_window", None) or not pid:
        return None
    spy = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")
    if spy is None:
        raise RuntimeError("--profile-window needs py-spy (pip install py-spy)")
    out = f"{args.profile_window}.{rooms}.txt"
    return subprocess.Popen([spy, "record", "--pid", str(pid), "--duration", str(max(1, int(args.duration) - 2)),
                             "--rate", str(getattr(args, "profile_rate", 200)), "--gil", "--format", "raw", "-o", out],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


WAKEUPS = ROOT / "bench" / "wakeups"


def wakeups_env(env: dict[str, str]) -> dict[str, str]:
    """`env` with bench/wakeups/ first on the server's PYTHONPATH (the probe and its uvloop stand-in)."""
    rest = env.get("PYTHONPATH", os.environ.get("PYTHONPATH", ""))
    return {**env, "PYTHONPATH": os.pathsep.join(p for p in (str(WAKEUPS), rest) if p)}


def read_wakeups(pid: int, timeout_s: float = 10.0) -> dict:
    """Ask the probe in server `pid` for its counts (SIGUSR2) and read them → the probe's JSON
    (bench/wakeups/sitecustomize.py). RuntimeError when none comes (the server was started
    without the probe)."""
    path = Path(tempfile.gettempdir()) / f"osaka-wakeups.{pid}.json"
    path.unlink(missing_ok=True)
    os.kill(pid, signal.SIGUSR2)
    end = time.monotonic() + timeout_s
    while not path.exists():
        if time.monotonic() > end:
            raise RuntimeError(f"no counts from the probe in process {pid}: is bench/wakeups on its PYTHONPATH?")
        time.sleep(0.05)
    out = json.loads(path.read_text())
    path.unlink()
    return out


def wakeups_per_action(probe: dict, actions: int, top: int = 20) -> list[list]:
    """The probe's counts per applied action, most CPU first: [[name, callbacks per action,
    µs of the loop thread's CPU per action], ...] (`top` of them, then one "(all)" row)."""
    n = max(1, actions)
    rows = sorted(([name, count / n, 1e6 * probe["cpu_s"][name] / n] for name, count in probe["counts"].items()),
                  key=lambda r: -r[2])
    total = ["(all)", sum(r[1] for r in rows), sum(r[2] for r in rows)]
    return [[name, round(k, 3), round(us, 1)] for name, k, us in rows[:top] + [total]]


def print_wakeups(row: dict) -> None:
    """The `--wakeups` table of a step (nothing without it)."""
    if not row.get("wakeups"):
        return
    print("      callbacks/action  µs/action  (the event loop's thread; asyncio's loop under the probe)")
    for name, k, us in row["wakeups"]:
        print(f"      {k:16.2f} {us:10.1f}  {name}")


def machine() -> str:
    """The machine a benchmark runs on, for its first line: host name, cores, Python."""
    return f"{platform.node()} {os.cpu_count()} cores, Python {platform.python_version()}"


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of an ascending list; 0 for an empty one."""
    if not sorted_values:
        return 0.0
    k = max(0, min(len(sorted_values) - 1, int(round(q / 100 * len(sorted_values) + 0.5)) - 1))
    return sorted_values[k]


def run_step(url: str, pid: int | None, rooms: int, args, baseline_rss: int | None,
             watch: dict[str, int] | None = None, probes: dict[str, Any] | None = None) -> dict:
    """Run one step against a server and return its figures (see the module doc).

    `watch` names further processes ({name: pid}, e.g. the replicas and the proxy of
    bench/proxy_load.py) sampled like the server over the same window: the row's `procs` is
    {name: {"cpu_pct": percent of one core, "rss_mb": peak RSS}}. `probes` ({name: callable → a
    cumulative number, e.g. CPU seconds of the database server or its session count}) are read
    at the start and the end of the window: the row's `deltas` is {name: end - start}."""
    import psutil
    ctx = mp.get_context("spawn")
    workers = max(1, min(args.workers, rooms))
    share = [rooms // workers + (1 if i < rooms % workers else 0) for i in range(workers)]
    procs, pipes = [], []
    for i, n in enumerate(share):
        parent, child = ctx.Pipe()
        cfg = {"url": url, "rooms": n, "think": args.think, "seed": args.seed * 1000 + i, "again": args.again}
        p = ctx.Process(target=worker_main, args=(child, cfg), daemon=True)
        p.start()
        procs.append(p)
        pipes.append(parent)
    server = psutil.Process(pid) if pid else None
    t_setup = time.monotonic()
    ready = 0
    for pipe in pipes:
        if not pipe.poll(SETUP_TIMEOUT_S):
            raise RuntimeError("a client worker did not get ready in time")
        kind, payload = pipe.recv()
        if kind != "ready":
            raise RuntimeError(f"client worker: {payload}")
        ready += payload
    setup_s = time.monotonic() - t_setup
    load_before = os.getloadavg()
    clients = [psutil.Process(p.pid) for p in procs]
    times0 = server.cpu_times()[:2] if server else (0.0, 0.0)
    ccpu0 = sum(sum(c.cpu_times()[:2]) for c in clients)
    rss_idle = server.memory_info().rss if server else 0
    peak = rss_idle
    watched = {name: psutil.Process(p) for name, p in (watch or {}).items()}
    wcpu0 = {name: sum(w.cpu_times()[:2]) for name, w in watched.items()}
    wpeak = {name: w.memory_info().rss for name, w in watched.items()}
    probe0 = {name: f() for name, f in (probes or {}).items()}
    t0 = time.monotonic()
    for pipe in pipes:
        pipe.send(("go", args.duration))
    spy = window_profiler(args, pid, rooms)
    if getattr(args, "wakeups", False) and pid:
        os.kill(pid, signal.SIGUSR1)  # bench/wakeups/sitecustomize.py: count from now
    end = t0 + args.duration
    while time.monotonic() < end:
        if server:
            peak = max(peak, server.memory_info().rss)
        for name, w in watched.items():
            wpeak[name] = max(wpeak[name], w.memory_info().rss)
        time.sleep(0.25)
    wall = time.monotonic() - t0
    wakeups = read_wakeups(pid) if getattr(args, "wakeups", False) and pid else None
    watched_figures = {name: {"cpu_pct": round(100 * (sum(w.cpu_times()[:2]) - wcpu0[name]) / wall, 1),
                              "rss_mb": round(wpeak[name] / 2 ** 20, 1)} for name, w in watched.items()}
    deltas = {name: round(f() - probe0[name], 2) for name, f in (probes or {}).items()}
    times1 = server.cpu_times()[:2] if server else (0.0, 0.0)
    user, system = times1[0] - times0[0], times1[1] - times0[1]
    cpu = user + system
    ccpu = sum(sum(c.cpu_times()[:2]) for c in clients) - ccpu0
    load_after = os.getloadavg()
    if spy is not None:
        spy.wait(60)
    results = []
    for pipe in pipes:
        if not pipe.poll(DRAIN_S + 120):
            raise RuntimeError("a client worker did not finish in time")
        kind, payload = pipe.recv()
        if kind != "done":
            raise RuntimeError(f"client worker: {payload}")
        results.append(payload)
    for p in procs:
        p.join(30)
    lat = sorted(x for r in results for x in r["latencies_ms"])
    errors: dict[str, int] = {}
    refused: dict[str, int] = {}
    for r in results:
        for k, v in r["errors"].items():
            errors[k] = errors.get(k, 0) + v
        for k, v in r["refused"].items():
            refused[k] = refused.get(k, 0) + v
    base = baseline_rss if baseline_rss is not None else rss_idle
    return {
        "db": args.db if not args.url else "external", "rooms": ready, "rooms_asked": rooms,
        "players": 4 * ready, "duration_s": round(wall, 1), "think_s": args.think,
        "actions": len(lat), "actions_per_s": round(len(lat) / wall, 1),
        "p50_ms": round(percentile(lat, 50), 1), "p95_ms": round(percentile(lat, 95), 1),
        "p99_ms": round(percentile(lat, 99), 1), "max_ms": round(lat[-1], 1) if lat else 0.0,
        "mean_ms": round(statistics.fmean(lat), 1) if lat else 0.0,
        "errors": sum(errors.values()), "error_kinds": errors,
        "refused": sum(refused.values()), "refused_kinds": refused,
        "games_over": sum(r["games_over"] for r in results),
        "games_started": sum(r["games_started"] for r in results),
        "wakeups": wakeups_per_action(wakeups, len(lat)) if wakeups else None,
        "server_cpu_pct": round(100 * cpu / wall, 1) if server else None,
        # CPU time of the server per applied action: robust against other load on the machine
        "server_cpu_ms_per_action": round(1000 * cpu / len(lat), 2) if server and lat else None,
        # ... of which in the server's own code (user) and in the kernel for it (system: sockets, files)
        "server_user_ms_per_action": round(1000 * user / len(lat), 2) if server and lat else None,
        "server_sys_ms_per_action": round(1000 * system / len(lat), 2) if server and lat else None,
        "server_rss_mb": round(peak / 2 ** 20, 1) if server else None,
        "mem_per_room_kb": round((peak - base) / 1024 / max(1, ready), 1) if server else None,
        "client_cpu_pct": round(100 * ccpu / wall, 1), "client_workers": len(procs),
        "setup_s": round(setup_s, 1), "procs": watched_figures, "deltas": deltas,
        "loadavg": [round(x, 2) for x in load_before] + [round(load_after[0], 2)],
    }


# ============================================================================ main

def print_row(r: dict, header: bool = False) -> None:
    cols = [("rooms", 6), ("players", 8), ("actions", 8), ("actions_per_s", 9), ("p50_ms", 8),
            ("p95_ms", 8), ("p99_ms", 8), ("max_ms", 8), ("errors", 7), ("refused", 8),
            ("server_cpu_pct", 7), ("server_cpu_ms_per_action", 7), ("server_rss_mb", 8), ("mem_per_room_kb", 9), ("load1", 6)]
    names = {"actions_per_s": "act/s", "server_cpu_pct": "cpu%", "server_cpu_ms_per_action": "cpu ms", "server_rss_mb": "rss MB",
             "mem_per_room_kb": "KB/room", "load1": "load"}
    if header:
        print("".join(f"{names.get(c, c):>{w}}" for c, w in cols), flush=True)
    vals = {**r, "load1": r["loadavg"][0]}
    print("".join(f"{vals[c] if vals[c] is not None else '-':>{w}}" for c, w in cols), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", default="25,50,100,250", help="comma-separated room counts (the ramp)")
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds per step")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time per decision, s")
    parser.add_argument("--again", action=argparse.BooleanOptionalAction, default=True,
                        help="when a room's game ends in the window, its host plays again (POST /again, "
                             "/start), so fast play keeps every room busy (default: on)")
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--url", help="target a running server (http://127.0.0.1:PORT) instead")
    parser.add_argument("--server-pid", type=int, help="pid of the --url server (found by port if omitted)")
    parser.add_argument("--pg-admin-url", default="postgresql://postgres@127.0.0.1:5432/test",
                        help="PostgreSQL server for --db postgres (the bench database is created next to it)")
    parser.add_argument("--workers", type=int, default=2, help="client worker processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write the results here (a list, one object per step)")
    parser.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                        help="extra environment for the started server (repeatable)")
    parser.add_argument("--profile", metavar="PREFIX",
                        help="run the server under `py-spy record` (raw collapsed stacks to PREFIX.<rooms>.txt); "
                             "summarize with bench/profile_summary.py")
    parser.add_argument("--profile-window", metavar="PREFIX",
                        help="attach `py-spy record` to the server for the measured window only "
                             "(PREFIX.<rooms>.txt); summarize with bench/profile_summary.py")
    parser.add_argument("--profile-rate", type=int, default=200,
                        help="samples per second of --profile-window (default 200)")
    parser.add_argument("--server-root", metavar="DIR",
                        help="serve the app/engine of another checkout (e.g. a `git worktree` of an older "
                             "commit, for before/after figures); default: this one")
    parser.add_argument("--wakeups", action="store_true",
                        help="count the server's event-loop callbacks per action over the measured window "
                             "(bench/wakeups/: asyncio's loop instead of uvloop, so not for CPU figures; a "
                             "--url server must be started with PYTHONPATH=bench/wakeups)")
    args = parser.parse_args(argv)
    steps = [int(x) for x in args.rooms.split(",") if x.strip()]
    if args.url and not args.url.startswith(("http://127.0.0.1", "http://localhost")):
        parser.error("--url must be a loopback address (http://127.0.0.1:PORT)")
    extra_env = dict(kv.split("=", 1) for kv in args.env)
    if args.wakeups:
        extra_env = wakeups_env(extra_env)

    print(f"load benchmark: {args.db if not args.url else args.url}, rooms {steps}, "
          f"{args.duration:g} s per step, think {args.think:g} s, {args.workers} client workers; "
          f"{machine()}, load {os.getloadavg()[0]:.2f}", flush=True)
    out: list[dict] = []
    tmp = Path(tempfile.mkdtemp(prefix="osaka-bench-"))
    try:
        for i, rooms in enumerate(steps):
            if args.url:
                pid = args.server_pid or pid_listening_on(args.url)
                import psutil
                base_rss = psutil.Process(pid).memory_info().rss if pid else None
                row = run_step(args.url, pid, rooms, args, base_rss)
            else:
                db_url = fresh_database(args.db, tmp, i, args.pg_admin_url)
                profile = f"{args.profile}.{rooms}.txt" if args.profile else None
                server = Server(db_url, tmp / "server.log", extra_env, profile,
                                Path(args.server_root or ROOT)).start()
                try:
                    import psutil
                    time.sleep(0.5)
                    base_rss = psutil.Process(server.pid).memory_info().rss
                    row = run_step(server.url, server.pid, rooms, args, base_rss)
                except Exception:
                    print(f"server log tail:\n{server.log_path.read_text()[-3000:]}", file=sys.stderr)
                    raise
                finally:
                    server.stop()
            row["date"] = time.strftime("%Y-%m-%d %H:%M:%S")
            out.append(row)
            print_row(row, header=i == 0)
            print_wakeups(row)
            if row["errors"] or row["refused"]:
                print(f"      errors {row['error_kinds']}  refused {row['refused_kinds']}", flush=True)
    finally:
        if args.json:
            Path(args.json).parent.mkdir(parents=True, exist_ok=True)
            Path(args.json).write_text(json.dumps(out, indent=1) + "\n")
        if not args.url and args.db == "postgres":
            try:
                asyncio.run(_pg_admin(args.pg_admin_url, f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)'))
            except Exception as exc:
                print(f"could not drop {PG_DB}: {exc}", file=sys.stderr)
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
