"""A server killed with SIGKILL leaves no bot worker process (nor multiprocessing's resource
tracker) behind: the workers watch their parent and exit when it is gone."""
from __future__ import annotations

import asyncio
import os
import signal
import time

import httpx
import psutil

from .helpers import Client, auth, create_room, start

FAST = {"BOT_DELAY_S": "0", "BOT_TIME_BUDGET_S": "0.05", "BOT_WORKERS": "2"}


def test_sigkill_leaves_no_orphaned_bot_workers(server_factory):
    srv = server_factory(**FAST)
    host = create_room(srv.base_url, "Host", public=False)
    code = host["code"]
    for _ in range(3):
        r = httpx.post(f"{srv.base_url}/api/rooms/{code}/bots", json={"level": "easy"},
                       headers=auth(host["token"]))
        assert r.status_code == 200
    start(srv.base_url, code, host["token"])
    # The host hands their own seat to a bot too: four bots play, so the workers are busy.
    r = httpx.post(f"{srv.base_url}/api/rooms/{code}/seats/0/bot", json={"level": "easy"},
                   headers=auth(host["token"]))
    assert r.status_code == 200

    async def wait_for_bot_moves():
        c = await Client.open(srv.ws_url, code)
        await c.state(5, timeout=60)
        await c.close()

    asyncio.run(wait_for_bot_moves())
    server = psutil.Process(srv.proc.pid)
    children = server.children(recursive=True)
    assert children, "the bot workers should be running"
    os.kill(srv.proc.pid, signal.SIGKILL)   # the server only, not its process group
    srv.proc.wait(10)

    def alive(p: psutil.Process) -> bool:
        try:
            return p.is_running() and p.status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return False

    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(alive(p) for p in children):
        time.sleep(0.2)
    assert not [p.pid for p in children if alive(p)]
