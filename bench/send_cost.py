"""CPU per frame of the hub's send path, through the server's real WebSocket protocol.

    python bench/send_cost.py [--frames 20000] [--repeat 2]

uvicorn serves a one-route ASGI app over `app.ws_protocol.CoalescingWebSocketProtocol` (as
`osaka serve` does); a client in another process reads every frame. The app sends `--frames`
state-sized text frames (~1.2 KB of JSON, two per loop pass as an action sends a player its
`event` and `state`) with `app.live.hub.Connection.send`, once with the protocol's
`send_text_now` ("direct") and once with it switched off (every frame through the
connection's queue, its writer task and the ASGI `send` chain: "queued"), and prints the
server thread's CPU time per frame (`time.thread_time`, so the client is not counted;
permessage-deflate on both ways, as the browser negotiates it). Figures: docs/performance.md.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import uvicorn  # noqa: E402
import uvloop  # noqa: E402
from starlette.websockets import WebSocket  # noqa: E402

from app.live.hub import Connection  # noqa: E402
from app.testing.launcher import free_port  # noqa: E402
from app.ws_protocol import CoalescingWebSocketProtocol  # noqa: E402

FRAME = json.dumps({"type": "state", "version": 1, "view": {"cards": list(range(300))}})
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


async def measure(frames: int, direct: bool) -> float:
    """Server CPU µs per frame for one run."""
    result: dict[str, float] = {}

    async def app(scope, receive, send):
        ws = WebSocket(scope, receive, send)
        await ws.accept()
        conn = Connection(ws, room="bench", seat=0, queue_size=frames + 1, flood_rate=1, flood_burst=1)
        if not direct:
            conn._send_now = None
        await ws.receive_text()
        start = time.thread_time()
        for _ in range(frames // 2):
            conn.send(FRAME)
            conn.send(FRAME)
            await asyncio.sleep(0)
        while conn._queue.qsize() or conn._writing:
            await asyncio.sleep(0)
        result["us"] = (time.thread_time() - start) / (frames // 2 * 2) * 1e6
        await ws.receive_text()
        conn.stop_writer()

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, ws=CoalescingWebSocketProtocol,
                                           log_level="warning", lifespan="off"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.02)
    client = subprocess.Popen([sys.executable, "-c", CLIENT, f"ws://127.0.0.1:{port}/", str(frames // 2 * 2)])
    while client.poll() is None:
        await asyncio.sleep(0.05)
    server.should_exit = True
    await task
    return result["us"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    print(f"send cost: {args.frames} frames of {len(FRAME)} B per run, Python {sys.version.split()[0]}")
    for _ in range(args.repeat):
        for direct in (False, True):
            us = uvloop.run(measure(args.frames, direct))
            print(f"  {'direct' if direct else 'queued':6}  {us:6.1f} µs server CPU per frame")
    return 0


if __name__ == "__main__":
    sys.exit(main())
