"""Worker processes of a server process: the one place that starts them.

The computer players' and hints' decisions (app/live/computer/decide.py) and the reviews of
finished games (app/live/reviews.py) each run in a `WorkerPool` of their own, so a review never
holds a worker a decision waits for. Every worker is started with `spawn` (no copy of the
event loop or the database pool), ends with the server (`watch_parent`) and may run at a lower
CPU priority (`nice`). A pool whose worker died (BrokenProcessPool) is replaced once and the
call asked again.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable

log = logging.getLogger("osaka.workers")
PARENT_CHECK_S = 1.0  # how often a worker process checks that the server is still alive


def watch_parent(parent_pid: int, interval_s: float = PARENT_CHECK_S) -> None:
    """Worker initializer: a daemon thread that ends this worker process (`os._exit(0)`) once
    its parent, the server (`parent_pid`), is gone, checked every `interval_s` seconds.

    A server killed with SIGKILL cannot stop its pool; without this its workers (and then
    multiprocessing's resource tracker, which exits when they do) would live on as orphans."""
    def watch() -> None:
        while True:
            time.sleep(interval_s)
            if os.getppid() != parent_pid:
                os._exit(0)
    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def _start_worker(parent_pid: int, nice: int) -> None:
    """Initializer of every worker: end with the server, then lower the priority by `nice`."""
    watch_parent(parent_pid)
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)


class WorkerPool:
    """`max_workers` spawned worker processes, started on first use, at `nice` (0..19) below the
    server's CPU priority; `name` is what a log line about a dead worker calls the pool."""

    def __init__(self, name: str, max_workers: int, nice: int = 0):
        self.name, self.max_workers, self.nice = name, max_workers, nice
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.max_workers,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_start_worker, initargs=(os.getpid(), self.nice))
        return self._pool

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in a worker process (fn and args picklable) → its result; raises what fn
        raised. A dead worker (BrokenProcessPool) replaces the pool and asks once more."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), fn, *args)
        except BrokenProcessPool:
            log.warning("a worker process of the %s pool died; starting a new pool", self.name)
            self.shutdown()
            return await loop.run_in_executor(self._executor(), fn, *args)

    def shutdown(self) -> None:
        """Stop the worker processes without waiting (a later `run` starts new ones)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
