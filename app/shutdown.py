"""Graceful shutdown on SIGTERM/SIGINT (`docker stop`, `docker compose restart`, Ctrl+C).

Order, all within `SHUTDOWN_BUDGET_S` (docker's default stop timeout is 10 s):

1. Stop accepting connections (the listening sockets are closed).
2. Take every room's lock: an action being applied (a person's or a bot's) finishes —
   committed and broadcast — first. Then the computer players stop, and every room and lobby
   connection is sent ``{"type": "server_restarting"}`` after what it was already due.
3. Each connection's queue is flushed and the socket closed with 1012 "service restart"
   (RFC 6455 §7.4.1 / IANA registry); browsers reconnect by themselves with backoff
   (static/js/net.js), and land on the restarted server with the game as it was committed.
4. uvicorn's own shutdown: wait for the remaining requests (`GRACEFUL_TIMEOUT_S`,
   `timeout_graceful_shutdown`), then the app's lifespan shutdown (bots, the turn timers —
   which store when this server stopped, so that a restart does not count the time nobody
   served against the person to act: app/live/computer/downtime.py — and the database pool).

An action frame the server had not read before step 2 is not applied; its sender hears nothing
of it and sees the unchanged version after reconnecting (resending the same `id` is safe).
"""
from __future__ import annotations

import asyncio
import gc
import logging
import signal
import socket
import time
import types

import uvicorn

from .live.sockets.connection import Connection
from .live.service import Live
from .logs import log_event
from .waits import within

log = logging.getLogger("osaka.shutdown")
RESTART_CLOSE_CODE = 1012           # "Service Restart"
RESTART_NOTICE = {"type": "server_restarting"}
DRAIN_TIMEOUT_S = 3.0               # steps 2-3
GRACEFUL_TIMEOUT_S = 4.0            # step 4 (uvicorn's timeout_graceful_shutdown)
SHUTDOWN_BUDGET_S = 10.0


async def drain(live: Live, timeout_s: float = DRAIN_TIMEOUT_S) -> int:
    """Steps 2-3 above on `live`; returns how many connections were told. Never raises for a
    peer that went away; gives up waiting after `timeout_s` seconds (the rest is closed by
    uvicorn with 1012 anyway)."""
    told: list[Connection] = []

    async def notify_all() -> None:
        # Every room's lock: an action being applied finishes — committed and broadcast — before
        # its room is told; bots are cancelled only outside their critical section.
        told.extend(await live.tell_restarting(RESTART_NOTICE))
        await asyncio.gather(*(c.finish(RESTART_CLOSE_CODE, "service restart") for c in told),
                             return_exceptions=True)

    start = time.perf_counter()
    try:
        await within(notify_all(), timeout_s)
    except TimeoutError:
        log.warning("drain timed out after %.1f s", timeout_s)
    log_event(log, "drained", connections=len(told), ms=round((time.perf_counter() - start) * 1000, 1))
    return len(told)


class GracefulServer(uvicorn.Server):
    """uvicorn's Server with steps 1-3 before its own shutdown (`uvicorn.Server.shutdown`, which
    would otherwise close every WebSocket with a bare 1012 before the app can say anything)."""

    def __init__(self, config: uvicorn.Config, live: Live):
        super().__init__(config)
        self.live = live

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Stop accepting, drain the live connections, then uvicorn's shutdown."""
        for server in getattr(self, "servers", []):
            server.close()
        try:
            await drain(self.live)
        except Exception:  # a failed drain must not prevent the shutdown
            log.exception("drain failed")
        await super().shutdown(sockets)


def serve(app, live: Live, **config) -> None:
    """Run `app` under GracefulServer until SIGTERM/SIGINT; returns normally after a graceful stop.

    uvicorn (>= 0.29) re-raises a captured signal after its shutdown to the handler that was
    installed before it ("cooperative signal handling"); the handlers installed here only ask
    the server to exit, so a stop requested by the platform ends with exit status 0 instead of
    death by SIGTERM (143) — and a signal arriving just before uvicorn took over still stops it.
    """
    server = GracefulServer(uvicorn.Config(app, timeout_graceful_shutdown=GRACEFUL_TIMEOUT_S, **config),
                            live)

    def stop(_sig, _frame) -> None:
        server.should_exit = True

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        server.run()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


#: A step of the lifespan's shutdown (app/main.py) still running after this long is logged.
STEP_WARN_S = 3.0


class shutdown_step:
    """`async with shutdown_step("name"):` around one step of the lifespan's shutdown
    (app/main.py): when the step is still running after `STEP_WARN_S`, one `error` line names
    it with the chain of coroutines it is waiting in (outermost first: `_awaiting`), so a stop that overran its
    budget (`SHUTDOWN_BUDGET_S`; docker then kills the process) says where it hung. Changes
    nothing else: the step runs to its end. (A test server once hung 15 s in "Waiting for
    application shutdown" with nothing in its log to say in which step.)"""

    def __init__(self, name: str, warn_s: float = STEP_WARN_S):
        self.name, self.warn_s = name, warn_s
        self._watch: asyncio.TimerHandle | None = None

    async def __aenter__(self) -> None:
        task, began = asyncio.current_task(), time.monotonic()

        def overran() -> None:
            where = " > ".join(f"{f.f_code.co_name} ({'/'.join(f.f_code.co_filename.rsplit('/', 2)[-2:])}:"
                               f"{f.f_lineno})" for f in _awaiting(task.get_coro() if task is not None else None))
            log_event(log, "shutdown_step_slow", logging.ERROR, step=self.name,
                      s=round(time.monotonic() - began, 1), waiting_in=where)
        self._watch = asyncio.get_running_loop().call_later(self.warn_s, overran)

    async def __aexit__(self, *exc) -> None:
        if self._watch is not None:
            self._watch.cancel()


def _awaiting(coro) -> list:
    """The frames of `coro` and of what it awaits, down to the innermost (`cr_await`,
    `gi_yieldfrom`, `ag_await`): `Task.get_stack` gives only the outermost frame of a suspended
    task. An async generator's `asend`/`athrow` awaitable (what an `asynccontextmanager`'s
    `__aexit__` awaits: the lifespan itself) exposes neither frame nor target; its generator is
    found among what it refers to (`gc.get_referents`)."""
    frames = []
    seen: set[int] = set()
    while coro is not None and id(coro) not in seen:
        seen.add(id(coro))
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None) or getattr(coro, "ag_frame", None)
        if frame is not None:
            frames.append(frame)
        inner = (getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
                 or getattr(coro, "ag_await", None))
        if inner is None and frame is None:
            inner = next((r for r in gc.get_referents(coro) if isinstance(r, types.AsyncGeneratorType)), None)
        coro = inner
    return frames
