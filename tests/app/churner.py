"""A misbehaving client of one seat: opens and closes the room's WebSocket in a tight loop.

    python -m tests.app.churner WS_BASE CODE TOKEN SECONDS

Each time a connection is accepted it reads up to the `state` frame and, when it is this seat's
decision, plays a legal move (so the game goes on), then closes at once; a refused connection
(`error` frame) is retried at once. Runs in its own process, so its loop does not slow the
test's own clients. Prints one JSON line: {"opened", "refused", "acted", "errors"}.
"""
from __future__ import annotations

import asyncio
import json
import random
import sys
import time
import uuid

from websockets.asyncio.client import connect

from .helpers import auth, pick_action


async def churn(ws_base: str, code: str, token: str, seconds: float) -> dict:
    """Churn for `seconds`; → the counts."""
    counts = {"opened": 0, "refused": 0, "acted": 0, "errors": 0, "close_codes": {}}
    rng, stop = random.Random(7), time.monotonic() + seconds
    while time.monotonic() < stop:
        try:
            async with connect(f"{ws_base}/ws/rooms/{code}", additional_headers=auth(token)) as ws:
                counts["opened"] += 1
                while True:
                    msg = json.loads(await ws.recv())
                    if msg["type"] == "error":
                        counts["refused"] += 1
                        await ws.wait_closed()
                        close = str(ws.close_code)
                        counts["close_codes"][close] = counts["close_codes"].get(close, 0) + 1
                        break
                    if msg["type"] != "state":
                        continue
                    if msg["view"]["to_act"] == msg["view"]["seat"]:
                        await ws.send(json.dumps({"type": "act", "id": uuid.uuid4().hex, "version": msg["version"],
                                                  "action": pick_action(msg["view"], rng)}))
                        while json.loads(await ws.recv())["type"] not in ("state", "error"):
                            pass
                        counts["acted"] += 1
                    break
        except Exception:  # noqa: BLE001 - a socket cut by the server is part of the churn
            counts["errors"] += 1
    return counts


if __name__ == "__main__":
    print(json.dumps(asyncio.run(churn(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])))))
