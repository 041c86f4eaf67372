"""Test-side client of the protocol: HTTP helpers, a recording WebSocket client, a move
picker that sees only the player view, and the hidden-information check for every frame."""
from __future__ import annotations

import asyncio
import json
import random
import uuid
from typing import Any, Callable

import httpx
from websockets.asyncio.client import ClientConnection, connect

from engine import CARD_VALUES, COLORS, cheapest_payment

SECRET_KEYS = {"deck", "seed", "vp_cards", "token", "token_hash"}


def value(card: int) -> int:
    """Card value from its id (R-comp-1), from the engine's card catalogue."""
    return CARD_VALUES[card]


def create_room(base: str, name: str = "Alice", public: bool = True) -> dict:
    """POST /api/rooms → the answer (code, url, seat, token)."""
    r = httpx.post(base + "/api/rooms", json={"name": name, "public": public})
    assert r.status_code == 201, r.text
    return r.json()


def join_room(base: str, code: str, name: str) -> dict:
    """POST /api/rooms/{code}/join → the answer (seat, token)."""
    r = httpx.post(f"{base}/api/rooms/{code}/join", json={"name": name})
    assert r.status_code == 200, r.text
    return r.json()


def auth(token: str) -> dict:
    """The Authorization header of a seat token."""
    return {"Authorization": f"Bearer {token}"}


def start(base: str, code: str, host_token: str) -> None:
    """POST /api/rooms/{code}/start as the host."""
    r = httpx.post(f"{base}/api/rooms/{code}/start", headers=auth(host_token))
    assert r.status_code == 200, r.text


def room_log(srv: Any, code: str) -> list[dict]:
    """The JSON log lines of server `srv` about room `code` (its `room` field, or the code in
    the message).

    Servers of `server_factory` share the session's database with every earlier test, and a
    server resumes the computer players and turn timers of every game in it at start
    (`BotDriver.resume`): its log also holds other rooms' moves, which a test must not count."""
    lines = [json.loads(x) for x in srv.log_path.read_text().splitlines() if x.startswith("{")]
    return [x for x in lines if x.get("room") == code or code in str(x.get("msg", ""))]


def new_game(base: str, players: int) -> tuple[str, list[str]]:
    """A started room with `players` human seats → (code, tokens by seat)."""
    host = create_room(base, "Seat0", public=False)
    tokens = [host["token"]] + [join_room(base, host["code"], f"Seat{i}")["token"]
                                for i in range(1, players)]
    start(base, host["code"], host["token"])
    return host["code"], tokens


class Client:
    """A WebSocket client that records every frame it receives (raw and parsed)."""

    def __init__(self, ws: ClientConnection, seat: int | None):
        self.ws = ws
        self.seat = seat
        self.raw: list[str] = []
        self.msgs: list[dict] = []
        self._cond = asyncio.Condition()
        self._reader = asyncio.create_task(self._read())
        self.closed = asyncio.Event()

    @classmethod
    async def open(cls, ws_base: str, code: str, token: str | None = None, seat: int | None = None,
                   **kw: Any) -> Client:
        """Connect to /ws/rooms/{code}, with the token as a Bearer header if given."""
        headers = auth(token) if token else None
        ws = await connect(f"{ws_base}/ws/rooms/{code}", additional_headers=headers,
                           max_size=None, **kw)
        return cls(ws, seat)

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                async with self._cond:
                    self.raw.append(text)
                    self.msgs.append(json.loads(text))
                    self._cond.notify_all()
        except Exception:
            pass
        finally:
            self.closed.set()
            async with self._cond:
                self._cond.notify_all()

    async def wait(self, pred: Callable[[dict], bool], start: int = 0, timeout: float = 20) -> dict:
        """The first message at index >= start matching `pred` (waits for it)."""
        async def find():
            async with self._cond:
                while True:
                    for m in self.msgs[start:]:
                        if pred(m):
                            return m
                    if self.closed.is_set():
                        raise ConnectionError(f"closed; got {self.msgs[start:][-5:]}")
                    await self._cond.wait()
        try:
            return await asyncio.wait_for(find(), timeout)
        except TimeoutError:  # say what came instead (a refusal, an older state, nothing)
            last = [{k: m.get(k) for k in ("type", "version", "code", "message", "id") if k in m}
                    for m in self.msgs[start:][-6:]]
            raise TimeoutError(f"seat {self.seat}: no matching frame in {timeout} s; the last ones: {last}") from None

    async def state(self, min_version: int = 0, timeout: float = 20) -> dict:
        """The newest `state` message with version >= min_version (waits for one)."""
        await self.wait(lambda m: m["type"] == "state" and m["version"] >= min_version, timeout=timeout)
        return [m for m in self.msgs if m["type"] == "state"][-1]

    async def send(self, obj: Any) -> None:
        """Send one JSON frame (or a raw str/bytes frame)."""
        await self.ws.send(obj if isinstance(obj, (str, bytes)) else json.dumps(obj))

    async def act(self, version: int, action: dict, action_id: str | None = None) -> str:
        """Send an `act`; returns its id."""
        action_id = action_id or uuid.uuid4().hex
        await self.send({"type": "act", "id": action_id, "version": version, "action": action})
        return action_id

    async def close(self) -> None:
        """Close the socket and stop reading."""
        await self.ws.close()
        self._reader.cancel()


def pick_action(view: dict, rng: random.Random) -> dict:
    """A legal action for the viewing seat, derived from its view only."""
    seat = view["seat"]
    if view["phase"] == "token_draft":
        return {"type": "choose_token", "color": rng.choice(COLORS)}
    if view["phase"] == "insurance":
        return {"type": "insure", "discard": [], "goods": []}
    mine = [m["card"] for m in view["market"] if m["reserved_by"] in (None, seat)]
    options: list[dict] = [{"type": "take", "card": c} for c in mine]
    if view["players"][seat]["reservation_free"]:
        options += [{"type": "reserve", "card": m["card"]}
                    for m in view["market"] + view["farm"] if m["reserved_by"] is None]
    if mine:
        pay = cheapest_payment(view["players"][seat]["hand"], sum(value(c) for c in mine))
        if pay is not None and rng.random() < 0.7:
            return {"type": "buy", "payment": pay}
    if not options:
        return {"type": "pass"}
    return rng.choice(options)


async def play(clients: list[Client], n: int, rng: random.Random) -> int:
    """Play n actions from the current version, each by the seat to act (`clients` by seat,
    each action chosen by `pick_action`), waiting for seat 0 to see each new version; returns
    the version reached."""
    version = (await clients[0].state())["version"]
    for _ in range(n):
        view = (await clients[0].state(version))["view"]
        actor = clients[view["to_act"]]
        own = await actor.state(version)
        await actor.act(version, pick_action(own["view"], rng))
        version += 1
        await clients[0].state(version)
    return version


def _walk(obj: Any, path: str = ""):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield path, k, v
            yield from _walk(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _walk(v, f"{path}[{i}]")


def check_no_secrets(msg: dict, raw: str, seat: int | None, tokens: list[str]) -> None:
    """Assert one received frame holds nothing hidden from `seat` (R-info, docs/engine.md)."""
    for token in tokens:
        assert token not in raw, "a seat token was sent over the WebSocket"
    for path, key, _ in _walk(msg):
        assert key not in SECRET_KEYS, f"secret key {key!r} at {path}"
    if msg["type"] == "state":
        view = msg["view"]
        assert view["seat"] == seat
        for i, p in enumerate(view["players"]):
            if i != seat:
                assert "hand" not in p, f"seat {seat} sees seat {i}'s hand"
                if view["phase"] != "over":
                    assert "vp" not in p, f"seat {seat} sees seat {i}'s VP before the end"
    if msg["type"] in ("event", "history"):
        for e in msg["events"]:
            assert e["visible_to"] is None or e["visible_to"] == seat, f"seat {seat} got {e}"
