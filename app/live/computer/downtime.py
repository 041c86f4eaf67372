"""Time while no server ran does not count on the turn clocks.

A decision's deadline is stored (`rooms.deadline_at`, app/live/computer/timers.py), so it survives a
restart; but without this module the time the servers were down counted against the person to
act: 30 s timer, SIGTERM 4 s into the decision, 40 s down, and within 5 s of the restart the
time-out had made the decision for them.

Every server process stamps the one row of `server_clock` with `alive_at` = now every `BEAT_S`
seconds (one UPDATE, whichever process; `beat`), and once more when it stops cleanly (`stop`:
the exact stop time). A process that starts (`settle`, before it serves and before its turn
timers look for anything due) and finds `alive_at` older than `PAUSE_AFTER_S` knows that no
server ran for that long: in ONE transaction it moves `alive_at` to now with
`UPDATE … WHERE alive_at = :seen` and, only if that UPDATE changed the row, moves the start
(`turn_at`) and the deadline (`deadline_at`) of every running decision on by the gap. Two
processes starting at once read the same `alive_at`; the first UPDATE locks the row (PostgreSQL;
SQLite has one writer at a time), the second finds it changed and moves nothing: the shift
happens once. A killed process (SIGKILL, power loss) says nothing: the gap then begins at its
last stamp, at most `BEAT_S` before it died, so the person gets back that much more at most.

"Running decision": a game in play, with a timer, whose seat to act is a person's (a computer
player's decisions are not timed: their clock shows no time left). Waiting and finished games,
games without a timer and seats played by a computer player are not touched, nor paused games
(app/pace.py): their resume moves the deadline on by the whole paused time, the servers'
downtime within it included, so that time is given back once, not twice. Each room is moved
only at the version and deadline it was read at (`WHERE version = :v AND deadline_at = :d`), so
a decision made meanwhile through another process keeps its own fresh clock.

A database outage while servers run is not a pause: those servers go on (their turn timers
cannot look while the database is away, and look again once it is back).
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime, timedelta

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ...logs import log_event
from ...models import Room, Seat, ServerClock, utcnow
from ...waits import within

log = logging.getLogger("osaka.timers")
BEAT_S = 1.0          # how often each process stamps `server_clock.alive_at`
#: Nobody alive for longer than this: the running clocks are moved on. Two beats: a live process
#: has stamped within one (a process starting beside it moves nothing unless that beat is over a
#: second late), and a quick restart costs the person to act at most this much (5 s until a
#: break test saw a 4 s restart cost 5 s of a 30 s timer, and a 4 s timer run out for it).
PAUSE_AFTER_S = 2.0
ROW = 1

_CLOCK = ServerClock.__table__
_ROOMS = Room.__table__
# The decisions whose clock runs: in play, a deadline, a person to act, not paused.
_RUNNING = (select(_ROOMS.c.id, _ROOMS.c.code, _ROOMS.c.version, _ROOMS.c.turn_at, _ROOMS.c.deadline_at)
            .join(Seat.__table__, (Seat.room_id == _ROOMS.c.id) & (Seat.seat == _ROOMS.c.to_act))
            .where(_ROOMS.c.status == "playing", _ROOMS.c.deadline_at.is_not(None), Seat.bot_level.is_(None),
                   _ROOMS.c.paused_at.is_(None)))
_MOVE = (update(_ROOMS)
         .where(_ROOMS.c.id == bindparam("rid"), _ROOMS.c.version == bindparam("v"),
                _ROOMS.c.deadline_at == bindparam("old_deadline"))
         .values(turn_at=bindparam("new_turn_at"), deadline_at=bindparam("new_deadline")))
#: `alive_at` = :now, never back (with several processes the latest stamp wins). Built once: the
#: beat runs every second in every process, and building the statement cost more CPU than
#: the database's answer (docs/performance.md).
_STAMP = (update(_CLOCK).where(_CLOCK.c.id == ROW)
          .where(_CLOCK.c.alive_at.is_(None) | (_CLOCK.c.alive_at < bindparam("now")))
          .values(alive_at=bindparam("now")))


class Downtime:
    """`settle` once at the start, then `run` (the stamps) until `stop`."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], *, beat_s: float = BEAT_S,
                 pause_after_s: float = PAUSE_AFTER_S):
        self.sessions = sessions
        self.beat_s = beat_s
        self.pause_after = timedelta(seconds=pause_after_s)
        self.settled = False          # `settle` went through (the clocks are right)
        # (code, version, old deadline, new turn_at, new deadline) of the decisions `settle` moved on
        self.moved: list[tuple[str, int, datetime, datetime | None, datetime]] = []

    async def settle(self, now: datetime | None = None) -> timedelta | None:
        """At the start: when nobody was alive for longer than `PAUSE_AFTER_S`, move every
        running decision's clock on by the gap, once across all processes (module docstring);
        stamp `alive_at` = now either way. → the gap when this process moved the clocks, else None.
        Raises what the database raises (an outage: try again later; nothing is half-done)."""
        moved: list[tuple[str, int, datetime, datetime | None, datetime]] = []
        async with self.sessions() as session, session.begin():
            seen = (await session.execute(select(_CLOCK.c.alive_at).where(_CLOCK.c.id == ROW))).first()
            now = now or utcnow()  # (SQLite: after BEGIN IMMEDIATE, which may have waited)
            if seen is None:  # the row is made by migration 0008; a copy without it gets one
                try:
                    async with session.begin_nested():
                        await session.execute(insert(_CLOCK).values(id=ROW, alive_at=now))
                except IntegrityError:
                    pass  # another process made it meanwhile
                gap = None
            elif seen.alive_at is None or now - seen.alive_at <= self.pause_after:
                await session.execute(_STAMP, {"now": now})
                gap = None
            else:
                gap = now - seen.alive_at
                taken = await session.execute(update(_CLOCK).where(
                    _CLOCK.c.id == ROW, _CLOCK.c.alive_at == seen.alive_at).values(alive_at=now))
                if taken.rowcount != 1:
                    gap = None  # another process started at the same moment and moved them
                else:
                    rows = (await session.execute(_RUNNING)).all()
                    params = [{"rid": r.id, "v": r.version, "old_deadline": r.deadline_at,
                               "new_turn_at": r.turn_at + gap if r.turn_at is not None else None,
                               "new_deadline": r.deadline_at + gap} for r in rows]
                    if params:
                        await session.execute(_MOVE, params)
                    moved = [(r.code, r.version, r.deadline_at, p["new_turn_at"], p["new_deadline"])
                             for r, p in zip(rows, params)]
        self.settled = True
        if gap is not None:
            self.moved = moved
            log_event(log, "turn_clocks_paused", logging.INFO, downtime_s=round(gap.total_seconds(), 1),
                      games=len(moved))
        return gap

    async def beat(self, now: datetime | None = None) -> None:
        """One stamp: a server is alive now."""
        async with self.sessions() as session, session.begin():
            await session.execute(_STAMP, {"now": now or utcnow()})

    async def run(self, on_error=None, on_success=None) -> None:
        """Until cancelled: `beat` every `beat_s` seconds; a failed stamp is passed to
        `on_error(exc)` (an outage: the next one tries again)."""
        while True:
            try:
                await self.beat()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if on_error is None:
                    raise
                on_error(exc)
            else:
                if on_success is not None:
                    on_success()
            await asyncio.sleep(self.beat_s)

    async def stop(self) -> None:
        """The last stamp of a process stopping cleanly (the exact stop time); never raises."""
        if not self.settled:
            return  # it never knew the clocks were right: leave the gap to the next start
        with contextlib.suppress(Exception):
            await within(self.beat(), 2.0)
