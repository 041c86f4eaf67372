"""Group commit: one writer task stores the actions of many rooms in one transaction.

`Committer.commit(pending)` is awaited by the action path while it holds its room's lock (and no
database session: the room-lock rule, room/lock.py). The writer takes every action waiting at that
moment (up to `MAX_BATCH`) and hands them to the action store in one call
(app/store/actions.py `ActionStore.store`: one transaction, each room's version moved only
from the version the table was at, the action rows inserted; a batch with a conflict stored
one action per transaction); only once that returned is each caller answered — an action is
durable before anyone hears of it. While one batch commits, the next one gathers: under load
a commit (one WAL write, one fsync with PostgreSQL) carries dozens of actions.

A database error fails every action of its batch (the callers tell an outage:
app/db.py `database_unavailable`).
"""
from __future__ import annotations

import asyncio

from sqlalchemy.ext.asyncio import AsyncEngine

from ... import metrics
from ...store import open_action_store
from ...store.actions import ActionStore, Pending  # (Pending: for path.py)
from ..fanout.base import Fanout

MAX_BATCH = 256  # actions per transaction at most


class Committer:
    """The one writer of action rows of this process (see the module docstring). `fanout`
    gives only the payload of an action's notification (`Fanout.action_notice`)."""

    def __init__(self, engine: AsyncEngine, fanout: Fanout, max_batch: int = MAX_BATCH):
        self.store: ActionStore = open_action_store(engine, fanout.action_notice)
        self.max_batch = max_batch
        self._queue: list[Pending] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._closed = False  # after `close`: no writer starts again
        self.stored = 0      # actions stored

    @property
    def batches(self) -> int:
        """Transactions committed (for the benchmark's figures)."""
        return self.store.transactions

    async def commit(self, pending: Pending) -> bool:
        """Store one action; True once committed, False (nothing stored) when another process
        committed that version or that (seat, id) first, or (`pending.not_a_bot`) its seat is
        no longer that computer player's. Database errors are raised; after `close`,
        RuntimeError (nothing stored)."""
        if self._closed:
            raise RuntimeError("the server is shutting down")
        pending.done = asyncio.get_running_loop().create_future()
        self._queue.append(pending)
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="group-commit")
        return await pending.done

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                batch, self._queue = self._queue[:self.max_batch], self._queue[self.max_batch:]
                metrics.COMMIT_BATCH.observe(len(batch))
                try:
                    results = await self.store.store(batch)
                except asyncio.CancelledError:
                    self._fail(batch, asyncio.CancelledError())
                    raise
                except Exception as exc:  # database down or the like: every caller hears it
                    self._fail(batch, exc)
                else:
                    for pending, ok in zip(batch, results):
                        self.stored += ok
                        if not pending.done.done():
                            pending.done.set_result(ok)

    @staticmethod
    def _fail(batch: list[Pending], exc: BaseException) -> None:
        for pending in batch:
            if not pending.done.done():
                pending.done.set_exception(exc)

    async def close(self) -> None:
        """Stop the writer (after the last action was answered: shutdown drains first). For
        good: a later `commit` raises instead of starting a writer that would take a kept
        connection nobody closes."""
        self._closed = True
        self._fail(self._queue, RuntimeError("the server is shutting down"))
        self._queue = []
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None
        await self.store.close()
