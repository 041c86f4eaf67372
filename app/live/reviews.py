"""The review of every finished game (docs/protocol.md "Review", docs/bots.md "Review"), computed
in the background: never on the event loop, never in the computer players' worker processes.

- A finished game gets its `reviews` row, `pending`, in the transaction that stores its `games`
  row (app/records.py `store_game`); a finished game without one (stored before migration 0015)
  gets it when someone asks for its review (app/records.py `review_of`).
- `Reviews.run` (one background task per server process) claims one review at a time —
  `pending`, or `running` with no progress for `LEASE_S` (its process died) — by a guarded
  UPDATE, so with several processes on PostgreSQL each review is computed by one of them; a
  review left pending or running at a restart is taken up again on the next start. It looks at
  once when a room changed here or in another process (a game may have ended: `kick`), else
  every `REVIEW_POLL_S`.
- The work is `bots.review.review_part` on slices of `SLICE` decisions in this module's own
  process pool of ONE worker process started at a lower CPU priority (`nice` +`NICE`): a review
  takes tens of seconds of CPU, and in the decider's pool (app/live/computer/decide.py) it would
  hold a worker the computer players' and hints' decisions wait for; in its own niced process
  the operating system gives the computer players the CPU first, and a review never delays a
  move by more than the scheduler's share. After each slice the progress (0..100) is stored and
  the frame `{"type": "review", "game", "status", "progress"}` goes to the room's connections
  here; the other processes hear fanout kind "v" and send the stored status to theirs
  (fanout/remote.py). Then the review is stored `ready` (or `failed`, with a short reason).

The review holds what every seat saw and what the computer would have done: it exists only for a
finished game (the GET route answers 409 `game_not_over` before), like the record (R-info-3).
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import undefer

from ..config import Settings
from ..models import GameRow, ReviewRow, Room, utcnow
from ..waits import wait_event
from .fanout.base import Fanout
from .outages import OutageLog
from .sockets.connection import Hub
from .workers import WorkerPool

log = logging.getLogger("osaka.reviews")
#: A running review without progress for this many seconds is taken up again (its process died).
LEASE_S = 120.0
#: Person decisions per worker call: the progress steps.
SLICE = 8
#: How much lower than the server's the review worker's CPU priority is (os.nice).
NICE = 10
STATUSES = ("pending", "running", "ready", "failed")


def review_slice(record: dict, indexes: list[int], simulations: int) -> tuple[list[dict], int]:
    """Runs in the review worker: `bots.review.review_part` of those decisions."""
    from bots.review import review_part  # noqa: PLC0415 - lazy: the bots package in the worker only
    return review_part(record, indexes, simulations=simulations)


def assemble_in_worker(record: dict, decisions: list[dict], forced: int, simulations: int) -> dict:
    """Runs in the review worker: `bots.review.assemble` (the totals replay the game once more)."""
    from bots.review import assemble  # noqa: PLC0415
    return assemble(record, decisions, forced, simulations)


def frame(number: int, status: str, progress: int) -> dict:
    """The room's `review` frame (docs/protocol.md "Review")."""
    return {"type": "review", "game": number, "status": status, "progress": progress}


class Reviews:
    """This process's review worker (module docstring)."""

    def __init__(self, settings: Settings, sessions: async_sessionmaker[AsyncSession], hub: Hub, fanout: Fanout):
        self.settings = settings
        self.sessions = sessions
        self.hub = hub
        self.fanout = fanout
        self.pool = WorkerPool("review", 1, nice=NICE)
        self._wake = asyncio.Event()
        self._outage = OutageLog(log, "the game reviews")
        self._current: int | None = None  # the review being computed here

    def kick(self, *_args) -> None:
        """Look for a review to compute now (a game ended here), not only at the next poll."""
        self._wake.set()

    async def run(self) -> None:
        """Until cancelled: compute every claimable review, then wait for a kick or the poll."""
        if self.settings.review_simulations <= 0:
            return
        while True:
            self._wake.clear()
            try:
                while await self.once():
                    pass
                self._outage.succeeded()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # an outage: one line; anything else: its traceback
                self._outage.failed(exc, "computing a game's review")
            await wait_event(self._wake, self.settings.review_poll_s)

    async def once(self) -> bool:
        """Claim one review and compute it → True when there was one (ready or failed now)."""
        claimed = await self._claim()
        if claimed is None:
            return False
        review_id, code, number = claimed
        self._current = review_id
        try:
            record = await self._record(review_id)
            await self._compute(review_id, code, number, record)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("the review of game %s of room %s failed", number, code)
            await self._set(review_id, code, number, status="failed", error=f"{type(exc).__name__}: {exc}"[:200])
        finally:
            self._current = None
        return True

    async def _claim(self) -> tuple[int, str, int] | None:
        """The oldest claimable review, set `running` by a guarded UPDATE (another process may
        claim the same one: only one UPDATE matches) → (id, room code, game number) or None."""
        async with self.sessions() as session:
            stale = utcnow() - timedelta(seconds=LEASE_S)
            rows = (await session.execute(
                select(ReviewRow.id, ReviewRow.status, ReviewRow.updated_at, ReviewRow.number, Room.code)
                .join(Room, Room.id == ReviewRow.room_id)
                .where((ReviewRow.status == "pending")
                       | ((ReviewRow.status == "running") & (ReviewRow.updated_at < stale)))
                .order_by(ReviewRow.id).limit(5))).all()
            for row in rows:
                result = await session.execute(
                    update(ReviewRow).where(ReviewRow.id == row.id, ReviewRow.status == row.status,
                                            ReviewRow.updated_at == row.updated_at)
                    .values(status="running", progress=0, updated_at=utcnow()))
                await session.commit()
                if result.rowcount == 1:
                    return row.id, row.code, row.number
        return None

    async def _record(self, review_id: int) -> dict:
        """What the review needs of the game's record: seed, players, rules version, actions."""
        async with self.sessions() as session:
            review = await session.get(ReviewRow, review_id)
            game = await session.scalar(select(GameRow).where(GameRow.room_id == review.room_id,
                                                              GameRow.seed == review.seed)
                                        .options(undefer(GameRow.log)))
            if game is None:
                raise LookupError("the game's record is gone")
            log_rows = game.log
            return {"seed": game.seed, "num_players": game.num_players, "rules_version": game.rules_version,
                    "players": [{"seat": p["seat"], "computer": bool(p.get("computer"))} for p in game.players],
                    "actions": [{"seat": a["seat"], "action": a["action"]} for a in log_rows]}

    async def _compute(self, review_id: int, code: str, number: int, record: dict) -> None:
        from bots.review import person_decisions  # noqa: PLC0415 - cheap: the replay is not run here
        sims = self.settings.review_simulations
        indexes = person_decisions(record)
        decisions: list[dict] = []
        forced = 0
        await self._set(review_id, code, number, status="running", progress=0)
        for start in range(0, len(indexes), SLICE):
            part, n_forced = await self._in_worker(review_slice, record, indexes[start:start + SLICE], sims)
            decisions += part
            forced += n_forced
            done = min(len(indexes), start + SLICE)
            await self._set(review_id, code, number, status="running", progress=min(99, 100 * done // len(indexes)))
        review = await self._in_worker(assemble_in_worker, record, decisions, forced, sims)
        await self._set(review_id, code, number, status="ready", progress=100, review=review)

    async def _in_worker(self, fn, *args):
        return await self.pool.run(fn, *args)

    async def _set(self, review_id: int, code: str, number: int, *, status: str, progress: int = 0,
                   review: dict | None = None, error: str | None = None) -> None:
        """Store the review's status (and the review or error), tell the room here and elsewhere."""
        async with self.sessions() as session:
            await session.execute(update(ReviewRow).where(ReviewRow.id == review_id).values(
                status=status, progress=progress, review=review, error=error, updated_at=utcnow()))
            await session.commit()
        self.tell(code, frame(number, status, progress))
        await self.fanout.notify("v", code)

    def tell(self, code: str, msg: dict) -> None:
        """Send a `review` frame to every connection of room `code` in this process."""
        for conn in self.hub.of(code):
            conn.send(msg)

    async def on_remote(self, code: str) -> None:
        """Another process changed a review of room `code` (fanout kind "v"): send the latest
        review status of the room to its connections here."""
        if not self.hub.of(code):
            return
        async with self.sessions() as session:
            row = (await session.execute(
                select(ReviewRow.number, ReviewRow.status, ReviewRow.progress).join(Room, Room.id == ReviewRow.room_id)
                .where(Room.code == code).order_by(ReviewRow.updated_at.desc(), ReviewRow.id.desc()).limit(1))).first()
        if row is not None:
            self.tell(code, frame(row.number, row.status, row.progress))

    async def close(self) -> None:
        """At shutdown (after `run` was cancelled): stop the worker and put a review being
        computed here back to `pending`, so the next start (here or elsewhere) takes it up."""
        self.shutdown()
        if self._current is not None:
            with contextlib.suppress(Exception):
                async with self.sessions() as session:
                    await session.execute(update(ReviewRow).where(ReviewRow.id == self._current,
                                                                  ReviewRow.status == "running")
                                          .values(status="pending", progress=0, updated_at=utcnow()))
                    await session.commit()
            self._current = None

    def shutdown(self) -> None:
        """Stop the review worker (a review running there is taken up again after the lease)."""
        self.pool.shutdown()


__all__ = ["LEASE_S", "Reviews", "STATUSES", "frame"]
