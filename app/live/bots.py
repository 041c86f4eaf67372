"""The computer-player driver: when a bot seat must decide, ask `bots.choose_action` in a
worker process (never on the event loop), then submit the answer through the same path as a
human's action (`Live.act`: version check, engine, commit, broadcast).

A bot only ever receives `engine.player_view` output and the events visible to its seat.
"""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import secrets
import threading
import time
import uuid
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING

from sqlalchemy import select

import engine

from ..logs import action_kind
from ..models import Room, Seat

if TYPE_CHECKING:
    from .service import Live

log = logging.getLogger("osaka.bots")
FALLBACK_TRIES = 3  # random legal actions tried after a refused choice, before giving up the turn


def bot_action_id() -> str:
    """A fresh id for a computer player's action: ``bot:`` + 128 random bits (uuid4).

    Unpredictable, and in a prefix clients may not use (`bad_message`), so no player can
    plant an id that makes a bot's move come back as a duplicate."""
    return f"bot:{uuid.uuid4().hex}"


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


def choose_in_worker(view: dict, level: str, history: list[dict], seed: int, budget_s: float) -> dict:
    """Runs in a worker process: import the bots package lazily and ask it for an action JSON."""
    import bots  # noqa: PLC0415 - lazy on purpose: the bots package is optional at import time
    return bots.choose_action(view, level, history=history, seed=seed, time_budget_s=budget_s)


class BotDriver:
    """One task per room at most, playing every consecutive bot decision of that room."""

    def __init__(self, live: Live):
        self.live = live
        self._tasks: dict[str, asyncio.Task] = {}
        self._pending: set[str] = set()
        self._pool: ProcessPoolExecutor | None = None

    def running(self, code: str) -> bool:
        """True while a bot task is busy with this room."""
        return code in self._tasks

    def kick(self, code: str) -> None:
        """Something changed in the room: make sure a bot that must decide gets to it."""
        if code in self._tasks:
            self._pending.add(code)
            return
        self._tasks[code] = asyncio.get_running_loop().create_task(self._run(code), name=f"bot-{code}")

    async def _run(self, code: str) -> None:
        try:
            while True:
                self._pending.discard(code)
                try:
                    progressed = await self._one_turn(code)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("bot turn failed in room %s", code)
                    progressed = False
                if not progressed and code not in self._pending:
                    break
        finally:
            self._tasks.pop(code, None)

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.live.settings.bot_workers,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=watch_parent, initargs=(os.getpid(),))
        return self._pool

    async def _one_turn(self, code: str) -> bool:
        """Play one bot decision if it is a bot's; True if something was submitted."""
        live = self.live
        async with live.sessions() as session:
            room = await session.scalar(select(Room).where(Room.code == code))
            if room is None or room.status != "playing":
                return False
            table = live.table(room)
            await session.commit()  # no transaction may wait on the room lock
            async with table.lock:
                room = await live.fresh_room(session, room.id)
                if room is None or room.status != "playing":
                    return False
                live.broadcast_game(table, await table.sync(session, room))
                seat = table.state.to_act if table.state is not None else None
                if seat is None:
                    return False
                level = await session.scalar(select(Seat.bot_level).where(
                    Seat.room_id == room.id, Seat.seat == seat))
                if level is None:
                    return False
                version = table.version
        if live.settings.bot_delay_s > 0:
            await asyncio.sleep(live.settings.bot_delay_s)
        async with table.lock:
            if table.version != version:
                return True  # someone moved meanwhile: look again
            view = table.view(seat)
            history = table.history(seat)
            state = table.state
        seed = secrets.randbits(32)
        try:
            action = await self._choose(view, level, history, seed)
        except Exception:
            log.exception("bots.choose_action failed (room %s, seat %s); playing a random legal action",
                          code, seat)
            action = None
        # Every submission has a fresh id. An action that is not applied (refused, or in theory a
        # duplicate) and did not move the game is no progress: after FALLBACK_TRIES random legal
        # actions the turn is given up (False) and the driver stops until the next kick, so it
        # never spins on a refusal.
        if action is not None:
            if await live.act(code, seat, bot_action_id(), version, action, bot_level=level):
                return True
            if table.version != version:
                return True
            log.warning("bot action %s refused in room %s; playing a random legal action",
                        action_kind(action), code)  # its type only: the payload shows a hand
        legal = engine.legal_actions(state, seat)
        rng = random.Random(seed)
        for _ in range(min(FALLBACK_TRIES, len(legal))):
            fallback = rng.choice(legal).to_json()
            if await live.act(code, seat, bot_action_id(), version, fallback, bot_level=level):
                return True
            if table.version != version:
                return True
        log.warning("no bot action was applied in room %s (seat %s); waiting for a change", code, seat)
        return False

    async def _choose(self, view: dict, level: str, history: list[dict], seed: int) -> dict:
        """Ask a worker process; a pool whose worker died is replaced once and asked again."""
        loop = asyncio.get_running_loop()
        args = (choose_in_worker, view, level, history, seed, self.live.settings.bot_time_budget_s)
        try:
            return await loop.run_in_executor(self._executor(), *args)
        except BrokenProcessPool:
            log.warning("a bot worker process died; starting a new pool")
            broken, self._pool = self._pool, None
            if broken is not None:
                broken.shutdown(wait=False, cancel_futures=True)
            return await loop.run_in_executor(self._executor(), *args)

    def shutdown(self) -> None:
        """Cancel bot tasks and stop the worker processes."""
        for task in self._tasks.values():
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
