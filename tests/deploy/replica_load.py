"""Players under load for the replica tests (test_replicas.py): rooms of 4 seats that play on
their own through a proxy, reconnect when their socket ends, and record what they saw.

Each seat is a real WebSocket client (`websockets`) that plays a legal move from its own view
(tests/app/helpers.py `pick_action`) after a short think time whenever it is its decision,
connects again through the proxy whenever its socket ends (a replica killed or restarting, a
room moved: close 4307), and notes every `state` frame. When a game ends the host plays again
(`POST /again`, `/start`), so the rooms stay busy however long a test runs. A room records:

- `firsts`: (monotonic time, game, version) of each version the first time any of its seats
  saw it: the room's progress, from which `longest_gap` finds the longest stall;
- `backwards`: a seat that was shown a version of its game lower than one it had seen before
  (after a reconnect): an action that was committed and shown, then lost;
- `closes`: the close codes of the seats' sockets that the server or proxy ended.
"""
from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy

import httpx
from websockets.asyncio.client import connect

from app.testing.launcher import log_records

from .support import proto

THINK_S = (0.1, 0.3)        # a seat's think time before its move, uniform (s)
RECONNECT_S = 0.1           # wait between two attempts to connect again


@dataclass
class LoadRoom:
    """One room of 4 seats under load (module docstring)."""
    code: str
    tokens: list[str]
    game: int = 1
    firsts: list[tuple[float, int, int]] = field(default_factory=list)
    top: dict[int, int] = field(default_factory=dict)          # game → highest version seen
    backwards: list[str] = field(default_factory=list)
    closes: list[int | None] = field(default_factory=list)
    connects: int = 0
    back_s: list[float] = field(default_factory=list)   # a socket ended → its first state again, s

    def saw(self, game: int, version: int) -> None:
        if version > self.top.get(game, -1):
            self.top[game] = version
            self.firsts.append((time.monotonic(), game, version))

    def longest_gap(self, start: float, end: float) -> tuple[float, float]:
        """The longest time in [start, end] without a new version → (seconds, when it began)."""
        times = [start] + [t for t, _, _ in self.firsts if start < t < end] + [end]
        gaps = [(b - a, a) for a, b in zip(times, times[1:])]
        return max(gaps)

    def first_after(self, t: float) -> float | None:
        """Seconds from `t` to the first new version seen after it (None: none yet)."""
        later = [x for x, _, _ in self.firsts if x > t]
        return min(later) - t if later else None


class Load:
    """`rooms` rooms of 4 seats playing through the proxy at `base` until `stop()`."""

    def __init__(self, base: str, rooms: int, seed: int = 33):
        self.base = base
        self.ws_base = "ws" + base[4:]
        self.n = rooms
        self.rng = random.Random(seed)
        self.rooms: list[LoadRoom] = []
        self.stopping = False
        self.errors: list[str] = []
        self._tasks: list[asyncio.Task] = []
        self.http: httpx.AsyncClient | None = None

    async def start(self) -> None:
        """Create the rooms over HTTP through the proxy and connect every seat."""
        # No cookie jar: a seat cookie would make the next join return the host's seat.
        self.http = httpx.AsyncClient(base_url=self.base, timeout=30,
                                      cookies=CookieJar(policy=DefaultCookiePolicy(allowed_domains=[])))
        for i in range(self.n):
            host = (await self.http.post("/api/rooms", json={"name": "Host", "public": False})).json()
            tokens = [host["token"]]
            for s in range(1, 4):
                r = await self.http.post(f"/api/rooms/{host['code']}/join", json={"name": f"P{s}"})
                assert r.status_code == 200, r.text
                tokens.append(r.json()["token"])
            r = await self.http.post(f"/api/rooms/{host['code']}/start", headers=proto.auth(tokens[0]))
            assert r.status_code == 200, r.text
            self.rooms.append(LoadRoom(host["code"], tokens))
        for room in self.rooms:
            for seat in range(4):
                self._tasks.append(asyncio.create_task(self._seat(room, seat)))

    async def stop(self) -> None:
        """Stop playing, close every socket."""
        self.stopping = True
        for t in self._tasks:
            t.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.http is not None:
            await self.http.aclose()

    async def _seat(self, room: LoadRoom, seat: int) -> None:
        seen = {}  # game → highest version this seat saw
        ended = None  # when its last socket ended
        while not self.stopping:
            try:
                ws = await connect(f"{self.ws_base}/ws/rooms/{room.code}", open_timeout=10,
                                   additional_headers=proto.auth(room.tokens[seat]), max_size=None)
            except Exception:
                await asyncio.sleep(RECONNECT_S)
                continue
            room.connects += 1
            acted = None
            try:
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg["type"] == "room":
                        room.game = max(room.game, (msg.get("room") or {}).get("game") or 1)
                    if msg["type"] != "state":
                        continue
                    game, version, view = room.game, msg["version"], msg["view"]
                    if ended is not None:
                        room.back_s.append(time.monotonic() - ended)
                        ended = None
                    if version < seen.get(game, -1):
                        room.backwards.append(f"seat {seat} game {game}: {version} after {seen[game]}")
                    seen[game] = max(seen.get(game, -1), version)
                    room.saw(game, version)
                    if view["phase"] == "over":
                        if seat == 0 and acted != (game, "again"):
                            acted = (game, "again")
                            asyncio.create_task(self._again(room, game))
                        continue
                    if view["to_act"] == seat and acted != (game, version):
                        acted = (game, version)
                        await asyncio.sleep(self.rng.uniform(*THINK_S))
                        await ws.send(json.dumps({"type": "act", "id": uuid.uuid4().hex, "version": version,
                                                  "action": proto.pick_action(view, self.rng)}))
            except asyncio.CancelledError:
                await ws.close()
                raise
            except Exception:
                pass
            room.closes.append(ws.close_code)
            ended = time.monotonic()
            if not self.stopping:
                await asyncio.sleep(RECONNECT_S)

    async def _again(self, room: LoadRoom, game: int) -> None:
        """The host plays again after game `game` (through the proxy, by room code)."""
        try:
            auth = proto.auth(room.tokens[0])
            r = await self.http.post(f"/api/rooms/{room.code}/again", json={"game": game}, headers=auth)
            if r.status_code == 200:
                await self.http.post(f"/api/rooms/{room.code}/start", headers=auth)
        except httpx.HTTPError as exc:
            self.errors.append(f"again {room.code}: {exc!r}")

    def check_nothing_lost(self) -> None:
        """No seat was shown a version lower than one it had seen; the database holds at least
        the newest version any seat saw of its room's current game (asked through the proxy)."""
        for room in self.rooms:
            assert not room.backwards, (room.code, room.backwards)
            now = httpx.get(f"{self.base}/api/rooms/{room.code}", timeout=10).json()
            assert now["version"] >= room.top.get(now["game"], -1), (room.code, now["game"], now["version"], room.top)

    async def settle(self, seconds: float) -> None:
        """Let the rooms play for `seconds`."""
        await asyncio.sleep(seconds)


def applied_rooms(log_text: str) -> dict[str, int]:
    """Room code → actions applied, from one replica's log (`action` lines, outcome `applied`)."""
    out: dict[str, int] = {}
    for rec in log_records(log_text):
        if rec.get("msg") == "action" and rec.get("outcome") == "applied":
            out[rec["room"]] = out.get(rec["room"], 0) + 1
    return out
