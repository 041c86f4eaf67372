"""`Notify`: the notification part of one server process, started by the app's lifespan.

One loop (`run`) every NOTIFY_POLL_S seconds, and at once when nudged (an action committed
here in a room with a live target, a target saved): stamp the seats with a visible page here
(watch.py, every STAMP_S), enqueue what the rooms' state says is due (triggers.py), deliver what
is due (sender.py), and once an hour forget the rows done with (outbox.prune). Every process
runs it; the outbox's unique keys and leases make each notification go out once. A database
outage is one warning line (app/live/outages.py), and the loop goes on.

Only a room with a live target can have anything due (triggers.py reads no other), so an
action in any other room wakes nothing, and while no room has one a round does not scan. Which
rooms have one (`_targeted`) is read again by the first round at least NOTIFY_POLL_S after the
last read: a target saved through another process is known here within about that time (that
process, nudged by the save, tells it meanwhile). Every action used to nudge the loop, so a
busy server ran a round every MIN_ROUND_S whether or not anyone had asked to be told
(docs/performance.md).
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..config import Settings
from ..live.outages import OutageLog
from ..live.service import Live
from ..models import utcnow
from ..waits import wait_event
from . import outbox, triggers, watch
from .keys import VapidKeys
from .sender import Sender

log = logging.getLogger("osaka.notify")
#: Seconds between two prunings of the outbox in one process.
PRUNE_EVERY_S = 3600
#: A round of the loop starts at most this often (s), however often actions nudge it.
MIN_ROUND_S = 0.5
#: At a stop, how long the deliveries under way may take to finish (s; `Notify.close`).
CLOSE_GRACE_S = 3.0


class Notify:
    """This process's notifications: `keys` (the VAPID pair), `sender`, the loop."""

    def __init__(self, settings: Settings, sessions: async_sessionmaker[AsyncSession], live: Live):
        self.settings = settings
        self.sessions = sessions
        self.live = live
        self.keys = VapidKeys(sessions)
        self.sender = Sender(settings, sessions, self.keys, live.watched_seats)
        self.outage = OutageLog(log, "the notification sender")
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._stamped = 0.0
        self._pruned = 0.0
        self._visible: set[tuple[str, int]] = set()  # the seats with a visible page here at the last round
        self._targeted: set[str] = set()  # codes of the rooms with a live target, as last read
        self._targeted_read = -math.inf   # monotonic time of that read
        self._saved_meanwhile: set[str] | None = None  # codes nudged while that read is under way
        live.on_action_applied(self.applied)

    def nudge(self, code: str | None = None) -> None:
        """Look now rather than at the next poll (a target saved: in room `code`, whose actions
        nudge from now on)."""
        if code is not None:
            self._targeted.add(code)
            if self._saved_meanwhile is not None:  # a read under way may not see it: kept after it
                self._saved_meanwhile.add(code)
        self._wake.set()

    def applied(self, code: str) -> None:
        """An action was committed here in room `code`: look now if that room has a live target
        (a turn or a result may be due); any other room has nothing to tell (module docstring)."""
        if code in self._targeted:
            self._wake.set()

    async def once(self) -> None:
        """One round: stamps, triggers, deliveries. Raises what the database raises."""
        now = utcnow()
        visible = self.live.watched_seats()  # the same set while nothing changed (`Hub.watched_seats`)
        new, gone = (set(), set()) if visible is self._visible else (visible - self._visible, self._visible - visible)
        every = time.monotonic() - self._stamped >= watch.STAMP_S  # all of them, now and then
        if new or gone or every:
            async with self.sessions() as session:
                await watch.stamp(session, gone, None)
                await watch.stamp(session, visible if every else new, now)
                await session.commit()
            if every:
                self._stamped = time.monotonic()
        self._visible = visible
        async with self.sessions() as session:
            if time.monotonic() - self._targeted_read >= self.settings.notify_poll_s:
                self._saved_meanwhile = set()
                try:
                    self._targeted = await triggers.targeted_rooms(session) | self._saved_meanwhile
                finally:
                    self._saved_meanwhile = None
                self._targeted_read = time.monotonic()
            if self._targeted:  # with no target anywhere, nothing can be due (triggers.py)
                await triggers.scan(session, now)
        while await self.sender.run_once() >= 1:
            pass
        if time.monotonic() - self._pruned >= PRUNE_EVERY_S:
            async with self.sessions() as session:
                await outbox.prune(session, now - timedelta(seconds=outbox.KEEP_S))
                await session.commit()
            self._pruned = time.monotonic()

    async def run(self) -> None:
        """`once` every NOTIFY_POLL_S seconds or when nudged (at most every MIN_ROUND_S), until
        cancelled."""
        with contextlib.suppress(Exception):
            await self.keys.get()  # made at the first start, before anyone asks
        while True:
            began = time.monotonic()
            try:
                await self.once()
                self.outage.succeeded()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.outage.failed(exc, "sending notifications")
            await wait_event(self._wake, self.settings.notify_poll_s)
            self._wake.clear()
            # Nudged by every action: at most one round per MIN_ROUND_S however busy the server
            # (each round reads the rooms whose turn it is; back to back they were a steady load).
            await asyncio.sleep(max(0.0, MIN_ROUND_S - (time.monotonic() - began)))

    def start(self) -> None:
        """Start the loop (the app's lifespan)."""
        self._task = asyncio.get_running_loop().create_task(self.run(), name="notify")

    async def close(self) -> None:
        """Stop the loop: nothing more is claimed or started; the deliveries under way get up to
        CLOSE_GRACE_S to finish, then are cut off (such a row's lease runs out, `outbox.LEASE_S`,
        and whichever process comes next tries it again: it may have been delivered, so it is
        not given back sooner); the rows claimed here and not started are given back at once
        (`Sender.release`), so another process sends them now. (A graceful stop during a
        delivery round held a turn's notification back for a minute: test_across_days's
        restart.)"""
        self.sender.stopping = True
        end = time.monotonic() + CLOSE_GRACE_S
        while self.sender.sending and time.monotonic() < end and self._task is not None and not self._task.done():
            await asyncio.sleep(0.02)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        try:
            await self.sender.release()
        except Exception as exc:  # the database is gone: the leases run out instead
            log.warning("could not give back the claimed notifications: %s", exc)
