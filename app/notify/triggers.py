"""What is to be told, derived from the durable room state (so a crash or a restart loses
nothing, and two processes enqueue the same rows, which exist once: outbox.enqueue).

Every NOTIFY_POLL_S seconds in every process (and at once after an action this process
committed in a room with a target; not at all while no room has one: service.py) `scan`
reads, in two indexed queries:

- the rooms in play whose seat to act is a person (no computer player) with a live target, or
  with a room webhook. A seat that acts several times in a row is told once: its `turn` row is
  the run's, keyed and versioned by the run's start (`outbox.run_start`: the version of the last
  action by another seat, 0 when there was none), so the scan enqueues the same row whichever
  moment of the run it sees -- its first decision or a later one. (It was enqueued only when
  the scan saw the run's first decision: a run played within one round of the loop was never
  told, and the last seat of a quick exchange waited in silence.) Rows: `turn` (due now) per
  target, and for a seat's own targets in a timed room a `reminder` due at turn_at + 80 % of
  (deadline_at − turn_at) of the decision at this version (every decision, also the next one
  of a seat in a row);
- the rooms that are over with a webhook: a `result` row.
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from ..models import WEBHOOK_SEAT, NotifyTarget, OutboxRow, Room, Seat
from . import outbox

#: The share of a decision's time after which a reminder is due.
REMINDER_AT = 0.8


def reminder_due(turn_at: datetime, deadline_at: datetime) -> datetime:
    """When a decision's reminder is due: 80 % of its time past its start."""
    return turn_at + (deadline_at - turn_at) * REMINDER_AT


def _queries():
    """The two queries of `scan`, built once (they run every round of every process; building a
    statement costs more CPU than the database takes to answer it: docs/performance.md)."""
    t, s = NotifyTarget, Seat
    turns = (select(Room.id, Room.game_no, Room.version, Room.to_act, Room.turn_at, Room.deadline_at, t.id, t.seat,
                    outbox.run_start(Room.id, Room.to_act))
             .join(s, and_(s.room_id == Room.id, s.seat == Room.to_act))
             .join(t, and_(t.room_id == Room.id, or_(t.seat == Room.to_act, t.seat == WEBHOOK_SEAT)))
             .where(Room.status == "playing", Room.to_act.is_not(None), s.bot_level.is_(None),
                    s.token_hash.is_not(None), t.failed.is_(None)))
    told = select(OutboxRow.id).where(OutboxRow.target_id == t.id, OutboxRow.kind == "result",
                                      OutboxRow.game_no == Room.game_no).exists()
    results = (select(Room.id, Room.game_no, Room.version, t.id)
               .join(t, and_(t.room_id == Room.id, t.seat == WEBHOOK_SEAT))
               .where(Room.status == "over", t.failed.is_(None), ~told))  # finished rooms told already: skipped
    return turns, results


_TURNS, _RESULTS = _queries()
#: The codes of the rooms with a live target (a seat's or the webhook): built once, like the two above.
_TARGETED = (select(Room.code).join(NotifyTarget, NotifyTarget.room_id == Room.id)
             .where(NotifyTarget.failed.is_(None)).distinct())


async def targeted_rooms(session: AsyncSession) -> set[str]:
    """The codes of the rooms with at least one live notification target: the only rooms an
    action can make a notification due in (`scan` reads nothing else)."""
    return set((await session.execute(_TARGETED)).scalars())


async def scan(session: AsyncSession, now: datetime) -> int:
    """Enqueue every notification due by the rules above (module docstring) → rows offered
    (inserted or there already). Commits."""
    rows: list[dict] = []
    for room_id, game_no, version, seat, turn_at, deadline_at, target_id, target_seat, began in (
            await session.execute(_TURNS)).all():
        base = {"target_id": target_id, "room_id": room_id, "seat": seat, "game_no": game_no}
        rows.append({**base, "version": began, "key": f"turn:{game_no}:{began}", "kind": "turn", "due_at": now})
        if target_seat != WEBHOOK_SEAT and turn_at is not None and deadline_at is not None:
            rows.append({**base, "version": version, "key": f"reminder:{game_no}:{version}", "kind": "reminder",
                         "due_at": reminder_due(turn_at, deadline_at)})
    for room_id, game_no, version, target_id in (await session.execute(_RESULTS)).all():
        rows.append({"target_id": target_id, "room_id": room_id, "seat": None, "game_no": game_no, "version": version,
                     "key": f"result:{game_no}", "kind": "result", "due_at": now})
    await outbox.enqueue(session, rows)
    await session.commit()
    return len(rows)
