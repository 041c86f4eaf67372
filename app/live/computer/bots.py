"""The computer-player driver: when a bot seat must decide, the decider (decide.py) chooses in a
worker process and submits through the same path as a human's action (`Actions.act`: version
check, engine, commit, broadcast).

It reacts to events (events.py): `ActionApplied` in a room with computer players and
`RoomChanged` of a game in play wake the room's bot task (`kick`).
"""
from __future__ import annotations

import asyncio
import logging

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

import engine

from ...config import Settings
from ...db import database_unavailable
from ...models import Room, Seat
from ...tutorial import bot_delay_s
from ..actions.path import Actions, NotABotSeat
from ..events import ActionApplied, PresenceChanged, RoomChanged
from ..room.lock import RoomGone, Tables
from ..sockets.frames import bot_action_id
from .decide import Decider

log = logging.getLogger("osaka.bots")
RESUME_POLL_S = 0.05  # BotDriver.resume: how often it looks for a free slot
UNAVAILABLE_RETRY_S = 1.0        # a bot turn the database refused is tried again after this,
UNAVAILABLE_RETRY_MAX_S = 15.0   # ... doubling up to this


class BotDriver:
    """One task per room at most, playing every consecutive bot decision of that room."""

    def __init__(self, settings: Settings, sessions: async_sessionmaker[AsyncSession], tables: Tables,
                 actions: Actions, decider: Decider):
        self.settings = settings
        self.sessions = sessions
        self.tables = tables
        self.actions = actions
        self.decider = decider
        self._tasks: dict[str, asyncio.Task] = {}
        self._pending: set[str] = set()
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

    async def _one_turn(self, code: str) -> bool:
        """Play one bot decision if it is a bot's; True if something was submitted."""
        seen = await self._whose_turn(code)
        if seen is None:
            return False
        table, seat, level, version = seen
        delay_s = bot_delay_s(self.settings.bot_delay_s, table.tutorial)
        if delay_s > 0:
            await asyncio.sleep(delay_s)
        async with self.tables.hold(table):
            if table.version != version:
                return True  # someone moved meanwhile: look again
            view = table.view(seat)
            history = table.history(seat)
            state = table.state
        # Every submission has a fresh id. A decision that is not applied (refused, or in theory a
        # duplicate) and did not move the game is no progress: the decider gives up after its
        # fallbacks (False) and the driver stops until the next kick, so it never spins on a refusal.
        try:
            applied = await self.decider.decide(
                code, seat, version, level, view, history, state,
                lambda action: self.actions.act(code, seat, bot_action_id(), version, action, bot_level=level),
                tutorial=table.tutorial)
        except NotABotSeat:  # its player took the seat back meanwhile (logged once by `act`)
            return False
        return applied is not False  # applied, or the game moved on meanwhile: look again

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
                if table.state is None or engine.is_over(table.state) or table.paused_at is not None:
                    return None  # (paused: the resume's RoomChanged kicks the room again)
                seat = table.state.to_act
                level = (table.bot_levels or {}).get(seat)
                return None if level is None else (table, seat, level, table.version)
        except RoomGone:
            return None

    def shutdown(self) -> None:
        """Cancel the bot tasks (the worker processes are the decider's: `Decider.shutdown`)."""
        if self._resumer is not None:
            self._resumer.cancel()
        for task in self._tasks.values():
            task.cancel()
