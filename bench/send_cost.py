"""CPU per frame of the hub's send path, through the server's real WebSocket protocol.

    python bench/send_cost.py [--frames 20000] [--repeat 2] [--deflate both|on|off]

uvicorn serves a one-route ASGI app over `app.ws_protocol.CoalescingWebSocketProtocol` (as
`osaka serve` does); a client in another process reads every frame. The app sends `--frames`
real frames (a player's `event` and `state` of each step of random four-player games, two per
loop pass as an action sends them, built as the server builds them: `engine.player_view`,
`engine.visible_events`, orjson) with `app.live.hub.Connection.send`, once with the protocol's
`send_text_now` ("direct") and once with it switched off (every frame through the
connection's queue, its writer task and the ASGI `send` chain: "queued"), each with
permessage-deflate negotiated ("deflate", `WS_COMPRESSION=true`) and not ("plain", the
default), and prints the server thread's CPU time per frame (`time.thread_time`, so the
client is not counted) and the bytes per frame on the socket. Figures: docs/performance.md.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import uvicorn  # noqa: E402
import uvloop  # noqa: E402
from starlette.websockets import WebSocket  # noqa: E402

import engine  # noqa: E402
from app.live.sockets.connection import Connection, dumps  # noqa: E402
from app.testing.launcher import free_port  # noqa: E402
from app.ws_protocol import SEND_NOW, CoalescingWebSocketProtocol  # noqa: E402


def real_frames(n: int) -> list[str]:
    """`n` frames (an even number) as seat 0 of random four-player games receives them: for
    each action its `event` frame, then its `state` frame."""
    rng, out, seed = random.Random(1), [], 0
    while len(out) < n:
        state, version, seed = engine.new_game(4, seed), 0, seed + 1
        while not engine.is_over(state) and len(out) < n:
            seat = state.to_act
            state, events = engine.play(state, seat, rng.choice(engine.legal_actions(state, seat)))
            version += 1
            out.append(dumps({"type": "event", "version": version, "events": engine.visible_events(events, 0)}))
            out.append(dumps({"type": "state", "version": version, "view": engine.player_view(state, 0)}))
    return out


class _Counting:
    """An asyncio transport that counts the bytes written through it."""

    def __init__(self, transport):
        self._transport, self.bytes = transport, 0

    def write(self, data) -> None:
        self.bytes += len(data)
        self._transport.write(data)

    def __getattr__(self, name):
        return getattr(self._transport, name)


CLIENT = """
import asyncio, sys
from websockets.asyncio.client import connect
async def main(url, n):
    async with connect(url, max_size=None) as ws:
        await ws.send("go")
        for _ in range(n):
            await ws.recv()
        await ws.send("done")
asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


async def measure(frames: list[str], direct: bool, deflate: bool) -> tuple[float, float]:
    """(server CPU µs per frame, bytes per frame on the socket) for one run."""
    result: dict[str, float] = {}

    async def app(scope, receive, send):
        ws = WebSocket(scope, receive, send)
        await ws.accept()
        coalescing = scope["extensions"][SEND_NOW].__self__.transport
        counting = coalescing._transport = _Counting(coalescing._transport)
        conn = Connection(ws, room="bench", seat=0, queue_size=len(frames) + 1)
        if not direct:
            conn._send_now = None
        await ws.receive_text()
        start, sent = time.thread_time(), counting.bytes
        for i in range(0, len(frames), 2):
            conn.send(frames[i])
            conn.send(frames[i + 1])
            await asyncio.sleep(0)
        while conn._queue.qsize() or conn._writing:
            await asyncio.sleep(0)
        result["us"] = (time.thread_time() - start) / len(frames) * 1e6
        await asyncio.sleep(0)  # the last coalesced write
        result["bytes"] = (counting.bytes - sent) / len(frames)
        await ws.receive_text()
        conn.stop_writer()

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, ws=CoalescingWebSocketProtocol,
                                           ws_per_message_deflate=deflate, log_level="warning", lifespan="off"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.02)
    client = subprocess.Popen([sys.executable, "-c", CLIENT, f"ws://127.0.0.1:{port}/", str(len(frames))])
    while client.poll() is None:
        await asyncio.sleep(0.05)
    server.should_exit = True
    await task
    return result["us"], result["bytes"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--deflate", choices=("both", "on", "off"), default="both",
                        help="permessage-deflate negotiated or not (default: both, one after the other)")
    args = parser.parse_args()
    frames = real_frames(args.frames // 2 * 2)
    print(f"send cost: {len(frames)} frames per run (event + state of random four-player games, "
          f"{sum(map(len, frames)) / len(frames):,.0f} B of JSON each on average), Python {sys.version.split()[0]}")
    deflates = {"both": (True, False), "on": (True,), "off": (False,)}[args.deflate]
    for _ in range(args.repeat):
        for deflate in deflates:
            for direct in (False, True):
                us, size = uvloop.run(measure(frames, direct, deflate))
                print(f"  {'deflate' if deflate else 'plain':7}  {'direct' if direct else 'queued':6}  "
                      f"{us:6.1f} µs server CPU per frame  {size:7,.0f} B per frame on the socket")
    return 0


if __name__ == "__main__":
    sys.exit(main())
