"""Turn timers: a decision not made by its deadline is made by a computer player.

The host picks a time per decision (`rooms.turn_limit_s`: 30, 60, 120 or 300 s, or a short
test value, `Settings.turn_limit_test_s`). Every action's version move stores when the next
decision began and its deadline (`rooms.turn_at`, `rooms.deadline_at`: store.clock_values), so
the deadline survives a restart and the server's clock decides.

Every server process looks for the games whose person to act is past the deadline (one indexed
query; `due`): with several processes every `timer_poll_s`; a process alone (SQLite) when the
earliest deadline to come is reached, which it learns from the same look and from its own actions
and room changes (`_rest`; at least every `IDLE_POLL_S`), so a server whose games have no time
limit does not ask the database twice a second for nothing. It then lets a computer player
(`TIMEOUT_LEVEL`, actions/timeouts.py) decide for that seat (`expire`, through the decider: decide.py). That
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
from datetime import datetime

from sqlalchemy import bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ...config import Settings
from ...models import Room, Seat, utcnow
from ...waits import wait_event
from ..actions.path import Actions
from ..actions.timeouts import TIMEOUT_LEVEL
from ..events import ActionApplied
from ..outages import OutageLog
from ..room.lock import RoomGone, Tables
from ..sockets.frames import bot_action_id
from .decide import Decider
from .downtime import Downtime

log = logging.getLogger("osaka.timers")

#: The queries of `TurnTimers.due`, built once (they run in every process, every `timer_poll_s`
#: at most: building a statement costs more CPU than SQLite takes to answer it).
_PENDING = ((Room.status == "playing") & Seat.bot_level.is_(None) & Room.paused_at.is_(None)
            & Room.deadline_at.is_not(None))
_DUE = (select(Room.code, Room.version, Room.to_act)
        .join(Seat, (Seat.room_id == Room.id) & (Seat.seat == Room.to_act))
        .where(_PENDING, Room.deadline_at <= bindparam("now"))
        .order_by(Room.deadline_at))
_NEXT = (select(func.min(Room.deadline_at))
         .join(Seat, (Seat.room_id == Room.id) & (Seat.seat == Room.to_act))
         .where(_PENDING, Room.deadline_at > bindparam("now")))
#: One process alone (SQLite): the longest rest between two looks without a known deadline. Every
#: deadline is set by this process (an action, a room change, a seat's arrival), which wakes the
#: loop, so this is only a safety net.
IDLE_POLL_S = 2.0


class TurnTimers:
    """The time-outs of this process's share of the rooms (see the module docstring)."""

    def __init__(self, settings: Settings, sessions: async_sessionmaker[AsyncSession], tables: Tables,
                 actions: Actions, decider: Decider, *, shared: bool = False):
        self.settings = settings
        # Several processes (PostgreSQL): another one may set a deadline at any moment, so the
        # loop looks every `timer_poll_s`. One process: it rests until the next deadline (`_rest`).
        self.shared = shared
        self._next_at: datetime | None = None  # the earliest deadline known to come (one process)
        self._wake = asyncio.Event()            # `_rest` looks again now
        self._requery = False                   # ... in the database (a room changed)
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
        to act is past the deadline (an away seat's deadline lies after its away already).
        One process (not `shared`): also notes the earliest deadline still to come (`_rest`)."""
        now = utcnow()
        async with self.sessions() as session:
            rows = (await session.execute(_DUE, {"now": now})).all()
            if not self.shared:
                self._next_at = (await session.execute(_NEXT, {"now": now})).scalar()
        return [(r.code, r.version, r.to_act) for r in rows]

    def on_action_applied(self, event: ActionApplied) -> None:
        """An action was committed here: its room's next deadline (in the table, from the
        commit) may come before the one the loop rests for (one process)."""
        table = self.tables.get(event.code)
        deadline = table.deadline_at if table is not None else None
        if deadline is not None and (self._next_at is None or deadline < self._next_at):
            self._next_at = deadline
            self._wake.set()

    def on_room_changed(self, _event: object = None) -> None:
        """A room's seats or status changed here (started, paused, resumed, a seat away or
        handed over): its deadline may have moved; the loop looks in the database again."""
        self._requery = True
        self._wake.set()

    async def _rest(self, looked_at: float) -> None:
        """Between two looks (`due`): several processes, `timer_poll_s`; one process, until the
        earliest deadline known (`_next_at`, kept by `on_action_applied`), a room change
        (`on_room_changed`) or `IDLE_POLL_S` — never sooner than `timer_poll_s` after the last
        look (`looked_at`, loop time), so at most one query per `timer_poll_s`."""
        loop = asyncio.get_running_loop()
        poll = self.settings.timer_poll_s
        if not self.shared:
            while not self._requery:
                self._wake.clear()
                wait = IDLE_POLL_S - (loop.time() - looked_at)
                if self._next_at is not None:
                    wait = min(wait, (self._next_at - utcnow()).total_seconds())
                if wait <= 0:
                    break
                await wait_event(self._wake, wait)
            self._requery = False
        await asyncio.sleep(max(0.0, poll - (loop.time() - looked_at)))

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
                looked_at = asyncio.get_running_loop().time()
                try:
                    due = await self.due()
                    if due:
                        self._requery = True  # still due (being decided, or refused): look again soon
                    for code, version, seat in due:
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
                    self._requery = True  # try again after `timer_poll_s`
                await self._rest(looked_at)
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
