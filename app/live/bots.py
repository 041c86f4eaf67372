"""The computer-player driver: when a bot seat must decide, ask `bots.choose_action` in a
worker process (never on the event loop), then submit the answer through the same path as a
human's action (`Actions.act`: version check, engine, commit, broadcast).

It reacts to events (events.py): `ActionApplied` in a room with computer players and
`RoomChanged` of a game in play wake the room's bot task (`kick`).

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
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

import engine

from ..config import Settings
from ..db import database_unavailable
from ..logs import action_kind
from ..models import Room, Seat
from .actions import Actions, NotABotSeat
from .events import ActionApplied, PresenceChanged, RoomChanged
from .messages import bot_action_id
from .tables import RoomGone, Tables

log = logging.getLogger("osaka.bots")
RESUME_POLL_S = 0.05  # BotDriver.resume: how often it looks for a free slot
UNAVAILABLE_RETRY_S = 1.0        # a bot turn the database refused is tried again after this,
UNAVAILABLE_RETRY_MAX_S = 15.0   # ... doubling up to this
FALLBACK_TRIES = 3  # random legal actions tried after a refused choice, before giving up the turn


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

    def __init__(self, settings: Settings, sessions: async_sessionmaker[AsyncSession], tables: Tables,
                 actions: Actions):
        self.settings = settings
        self.sessions = sessions
        self.tables = tables
        self.actions = actions
        self._tasks: dict[str, asyncio.Task] = {}
        self._pending: set[str] = set()
        self._pool: ProcessPoolExecutor | None = None
        self._resuming: dict[str, None] = {}  # rooms still to kick after a restart (`resume`), in order
        self._resumer: asyncio.Task | None = None

    def running(self, code: str) -> bool:
        """True while a bot task is busy with this room."""
        return code in self._tasks

    def busy_rooms(self) -> set[str]:
        """Codes of the rooms a bot task is busy with."""
        return set(self._tasks)

    def on_action_applied(self, event: ActionApplied) -> None:
        """An action was committed: a computer player may be next."""
        if event.has_bots:  # read in the action's transaction; seats handed over later kick themselves
            self.kick(event.code)

    def on_room_changed(self, event: RoomChanged) -> None:
        """A game started, or a seat was handed to a computer player."""
        if event.status == "playing":
            self.kick(event.code)

    async def resume(self) -> None:
        """After a (re)start: computer players continue in every game where one is to move.

        One query finds those rooms (`rooms.to_act`); no game is loaded here. A background task
        kicks them one after another, most recently active first, while fewer than
        `bot_workers` rooms have a bot task (the worker processes could not think faster
        anyway): a player's first action after a restart does not queue behind them, and rooms
        where people play now keep their computer players prompt. A room whose player comes
        back meanwhile is kicked at once (`on_presence_changed`)."""
        async with self.sessions() as session:
            codes = (await session.scalars(
                select(Room.code).join(Seat, (Seat.room_id == Room.id) & (Seat.seat == Room.to_act))
                .where(Room.status == "playing", Seat.bot_level.is_not(None))
                .order_by(Room.active_at.desc()))).all()
        self._resuming = dict.fromkeys(codes)
        if codes:
            self._resumer = asyncio.get_running_loop().create_task(self._resume_slowly(), name="resume-bots")

    async def _resume_slowly(self) -> None:
        while self._resuming:
            while len(self._tasks) >= self.settings.bot_workers:
                await asyncio.sleep(RESUME_POLL_S)
            if self._resuming:
                code = next(iter(self._resuming))
                del self._resuming[code]
                self.kick(code)

    def on_presence_changed(self, event: PresenceChanged) -> None:
        """A player arrived: a game still waiting to be resumed is resumed now."""
        if event.code in self._resuming:
            del self._resuming[event.code]
            self.kick(event.code)

    def kick(self, code: str) -> None:
        """Something changed in the room: make sure a bot that must decide gets to it."""
        if code in self._tasks:
            self._pending.add(code)
            return
        self._tasks[code] = asyncio.get_running_loop().create_task(self._run(code), name=f"bot-{code}")

    async def _run(self, code: str) -> None:
        retry_s = UNAVAILABLE_RETRY_S
        try:
            while True:
                self._pending.discard(code)
                try:
                    progressed = await self._one_turn(code)
                    retry_s = UNAVAILABLE_RETRY_S
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    if not database_unavailable(exc):
                        log.exception("bot turn failed in room %s", code)
                        progressed = False
                    else:  # the database is away: try again later (the game must not stall)
                        log.warning("bot turn in room %s: database unavailable; again in %.0f s", code, retry_s)
                        await asyncio.sleep(retry_s)
                        retry_s, progressed = min(2 * retry_s, UNAVAILABLE_RETRY_MAX_S), True
                if not progressed and code not in self._pending:
                    break
        finally:
            self._tasks.pop(code, None)

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.settings.bot_workers,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=watch_parent, initargs=(os.getpid(),))
        return self._pool

    async def _one_turn(self, code: str) -> bool:
        """Play one bot decision if it is a bot's; True if something was submitted."""
        seen = await self._whose_turn(code)
        if seen is None:
            return False
        table, seat, level, version = seen
        if self.settings.bot_delay_s > 0:
            await asyncio.sleep(self.settings.bot_delay_s)
        async with self.tables.hold(table):
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
        try:
            return await self._submit(code, table, seat, level, version, state, action, seed)
        except NotABotSeat:  # its player took the seat back meanwhile (logged once by `act`)
            return False

    async def _submit(self, code: str, table, seat: int, level: str, version: int, state,
                      action: dict | None, seed: int) -> bool:
        """Submit the chosen action, else (refused, or no choice) up to FALLBACK_TRIES random
        legal ones; True when one was applied or the game moved on meanwhile."""
        if action is not None:
            if await self.actions.act(code, seat, bot_action_id(), version, action, bot_level=level):
                return True
            if table.version != version:
                return True
            log.warning("bot action %s refused in room %s; playing a random legal action",
                        action_kind(action), code)  # its type only: the payload shows a hand
        legal = engine.legal_actions(state, seat)
        rng = random.Random(seed)
        for _ in range(min(FALLBACK_TRIES, len(legal))):
            fallback = rng.choice(legal).to_json()
            if await self.actions.act(code, seat, bot_action_id(), version, fallback, bot_level=level):
                return True
            if table.version != version:
                return True
        log.warning("no bot action was applied in room %s (seat %s); waiting for a change", code, seat)
        return False

    async def _whose_turn(self, code: str):
        """Under the room lock, with the table caught up: (table, seat, bot level, version) when
        a computer player must decide in room `code`, else None. One process: the table knows
        (every change goes through its lock), nothing is read; several: the room is read."""
        try:
            async with self.tables.hold(code) as held:
                table = held.table
                if self.actions.fanout.shared or table.state is None or table.bot_levels is None:
                    news = await held.sync()   # notes the seats' computer players
                    held.publish(news)
                    room = news.room
                    if room is None or room.status != "playing":
                        return None
                if table.state is None or engine.is_over(table.state):
                    return None
                seat = table.state.to_act
                level = (table.bot_levels or {}).get(seat)
                return None if level is None else (table, seat, level, table.version)
        except RoomGone:
            return None

    async def choose(self, view: dict, level: str, history: list[dict], seed: int) -> dict:
        """A computer player's action JSON for `view` (a seat's player view) and `history` (the
        events it may see), decided in a worker process (the turn timers use it too)."""
        return await self._choose(view, level, history, seed)

    async def _choose(self, view: dict, level: str, history: list[dict], seed: int) -> dict:
        """Ask a worker process; a pool whose worker died is replaced once and asked again."""
        loop = asyncio.get_running_loop()
        args = (choose_in_worker, view, level, history, seed, self.settings.bot_time_budget_s)
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
        if self._resumer is not None:
            self._resumer.cancel()
        for task in self._tasks.values():
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
