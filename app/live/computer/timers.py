"""Turn timers: a decision not made by its deadline is made by a computer player.

The host picks a time per decision (`rooms.turn_limit_s`: 30, 60, 120 or 300 s, or a short
test value, `Settings.turn_limit_test_s`). Every action's version move stores when the next
decision began and its deadline (`rooms.turn_at`, `rooms.deadline_at`: store.clock_values), so
the deadline survives a restart and the server's clock decides.

Every server process looks every `timer_poll_s` for the games whose person to act is past the
deadline (one indexed query; `due`) and lets a computer player (`TIMEOUT_LEVEL`,
actions/timeouts.py) decide for that seat (`expire`, through the decider: decide.py). That
decision goes through `Actions.act` like any other, at the version the deadline belongs to,
with a `timed_out` event first in its events (the log says so). The person's own decision and
the time-out both move the room from that version with `UPDATE rooms … WHERE version = :v`
(the commit, app/store/actions.py BUMP_VERSION), so exactly one of them counts, in one process
or several (PostgreSQL: each process may try, one commits). After `TIMEOUTS_BEFORE_HANDOVER`
time-outs of one seat in a row a computer player plays the seat until its player takes it back
(`DELETE /api/rooms/{code}/seats/{seat}/bot`, or a new connection of that seat).

Time while no server ran does not count (app/live/computer/downtime.py): every process stamps
"a server was alive at" every few seconds, and a process that starts after nobody was alive for
longer than a few seconds moves every running decision's start and deadline on by the gap, once
(`settle`: before the app serves, and before this loop looks for anything due).

A database outage is one warning line, not a traceback (app/live/outages.py): the loop tries
again every `timer_poll_s` and goes on by itself once the database answers.
"""
from __future__ import annotations

import asyncio
import logging

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ...config import Settings
from ...models import Room, Seat, utcnow
from ..actions.path import Actions
from ..actions.timeouts import TIMEOUT_LEVEL
from ..outages import OutageLog
from ..room.lock import RoomGone, Tables
from ..sockets.frames import bot_action_id
from .decide import Decider
from .downtime import Downtime

log = logging.getLogger("osaka.timers")


class TurnTimers:
    """The time-outs of this process's share of the rooms (see the module docstring)."""

    def __init__(self, settings: Settings, sessions: async_sessionmaker[AsyncSession], tables: Tables,
                 actions: Actions, decider: Decider):
        self.settings = settings
        self.sessions = sessions
        self.tables = tables
        self.actions = actions
        self.decider = decider
        self._busy: set[str] = set()      # rooms whose time-out is being decided here
        self._tasks: set[asyncio.Task] = set()
        self.fired = 0                    # time-outs this process applied
        self.downtime = Downtime(sessions)  # the servers' downtime off the clocks; the stamps
        self.outage = OutageLog(log, "the turn timer")
        self._beats: asyncio.Task | None = None

    async def settle(self) -> None:
        """Before anything is due: the time nobody served moved off the running clocks
        (`Downtime.settle`; the app's lifespan calls it before serving, `run` until it went
        through). Raises what the database raises."""
        if self.downtime.settled:
            return
        await self.downtime.settle()
        for code, version, old_deadline, turn_at, deadline_at in self.downtime.moved:
            table = self.tables.get(code)  # loaded already only if settling waited for an outage
            if table is not None and table.version == version and table.deadline_at == old_deadline:
                table.turn_at, table.deadline_at = turn_at, deadline_at

    async def due(self) -> list[tuple[str, int, int]]:
        """(code, version, seat) of the games in play, not paused (app/pace.py), whose person
        to act is past the deadline (an away seat's deadline lies after its away already)."""
        async with self.sessions() as session:
            rows = (await session.execute(
                select(Room.code, Room.version, Room.to_act)
                .join(Seat, (Seat.room_id == Room.id) & (Seat.seat == Room.to_act))
                .where(Room.status == "playing", Room.deadline_at <= utcnow(), Seat.bot_level.is_(None),
                       Room.paused_at.is_(None))
                .order_by(Room.deadline_at))).all()
        return [(r.code, r.version, r.to_act) for r in rows]

    async def run(self) -> None:
        """Until cancelled: `settle` (until it went through), the stamps of "a server is alive"
        (`Downtime.run`), and every `timer_poll_s` an `expire` for each room that is `due`.
        A database outage is a warning of one line (`OutageLog`), and the next round tries again."""
        poll = self.settings.timer_poll_s
        while not self.downtime.settled:
            try:
                await self.settle()
                self.outage.succeeded()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.outage.failed(exc, "taking the servers' downtime off the turn clocks")
                await asyncio.sleep(poll)
        self._beats = asyncio.get_running_loop().create_task(
            self.downtime.run(lambda exc: self.outage.failed(exc, "noting that a server is alive")),
            name="server-clock")
        try:
            while True:
                try:
                    for code, version, seat in await self.due():
                        if code not in self._busy:
                            self._busy.add(code)
                            task = asyncio.get_running_loop().create_task(self._expire(code, version, seat),
                                                                          name=f"timeout-{code}")
                            self._tasks.add(task)
                            task.add_done_callback(self._tasks.discard)
                    self.outage.succeeded()
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    self.outage.failed(exc, "looking for time-outs")
                await asyncio.sleep(poll)
        finally:
            self._beats.cancel()

    async def _expire(self, code: str, version: int, seat: int) -> None:
        try:
            await self.expire(code, version, seat)
        except Exception as exc:
            self.outage.failed(exc, f"the time-out in room {code}")
        finally:
            self._busy.discard(code)

    async def expire(self, code: str, version: int, seat: int) -> bool:
        """`seat`'s decision at `version` timed out: a computer player decides for it
        (`Decider.decide`, as for the computer players' own seats), submitted by `submit`. True
        when that decision counted; False when the person (or another process's time-out) was
        first, or it is not due."""
        try:
            async with self.tables.hold(code) as held:
                news = await held.sync()
                held.publish(news)
                room, table = news.room, held.table
                if (room is None or room.status != "playing" or table.version != version
                        or table.state is None or table.state.to_act != seat
                        or seat in (table.bot_levels or {})
                        or room.deadline_at is None or room.deadline_at > utcnow()
                        or room.paused_at is not None):
                    return False
                view, history, state = table.view(seat), table.history(seat), table.state
        except RoomGone:
            return False
        applied = await self.decider.decide(code, seat, version, TIMEOUT_LEVEL, view, history, state,
                                            lambda action: self.submit(code, version, seat, action))
        return applied is True

    async def submit(self, code: str, version: int, seat: int, action: dict) -> bool:
        """The time-out's decision `action` for `seat` at `version` through the action path
        (`Actions.act(timed_out=True)`): True when it was committed (the version check in the
        commit refuses it once the person's decision counted)."""
        ok = await self.actions.act(code, seat, bot_action_id(), version, action, timed_out=True)
        if ok:
            self.fired += 1
        return ok

    async def close(self) -> None:
        """Stop the time-outs being decided here and the stamps (shutdown), then stamp once
        more: the exact time this server stopped (`Downtime.stop`)."""
        beats = [self._beats] if self._beats is not None else []
        for task in list(self._tasks) + beats:
            task.cancel()
        for task in list(self._tasks) + beats:
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        self._beats = None
        await self.downtime.stop()
