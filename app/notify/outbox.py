"""The outbox: notifications to send, in the database, each once.

- `enqueue`: one row per (target, key) -- key e.g. "turn:{game_no}:{version}" -- inserted with
  `INSERT … ON CONFLICT DO NOTHING` (both databases), so however many processes see the same
  decision, and however often, the notification exists once.
- `claim`: the rows due, leased to this process for `LEASE_S` seconds in one statement:
  `UPDATE … SET lease_until WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) RETURNING …` on
  PostgreSQL (two senders never claim the same row and never wait for each other); SQLite has
  one writer at a time, so there the same statement without row locks is as good. A row whose
  lease ran out (its sender died mid-way) is due again: a restart loses nothing.
- `finish`, `retry`, `defer`: what became of a claimed row (sent / dropped / dead; tried again
  after a backoff; moved on without counting a failure). Each only acts while the lease is
  this claim's (`lease_until` as claimed), so a sender that took longer than its lease cannot
  overwrite what another sender did.
- `prune`: rows done with (sent, dropped, dead) of decisions that are no longer current go
  after KEEP_S; a `result` row stays (it is how a finished game is known to be told), and so
  does every row of the decisions still to be made (the scan would enqueue it again): a seat's
  `turn` row is its run's, keyed by the run's start (`run_start`; triggers.py), so a run that
  lasts longer than KEEP_S keeps it.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, bindparam, delete, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from ..models import ActionRow, OutboxRow, Room, utcnow

#: Seconds a claimed row stays with its sender: longer than a delivery's timeouts (5 s connect,
#: 5 s read, the rechecks), so it expires only when the sender died.
LEASE_S = 60
#: Rows one claim takes.
BATCH = 20
#: Seconds a row done with is kept (longer than any rate window: the rates count sent rows).
KEEP_S = 7 * 86400


def insert_ignore(model: Any, values: dict | list[dict], keys: list[str], session: AsyncSession):
    """`INSERT … ON CONFLICT (keys) DO NOTHING` of `values` into `model`'s table, for the
    session's database (PostgreSQL or SQLite)."""
    dialect = postgresql if session.bind.dialect.name == "postgresql" else sqlite
    return dialect.insert(model.__table__).values(values).on_conflict_do_nothing(index_elements=keys)


async def enqueue(session: AsyncSession, rows: list[dict]) -> None:
    """Insert the outbox `rows` ({target_id, room_id, key, kind, seat, game_no, version,
    due_at}) that are not there yet (unique per target and key). Does not commit."""
    if not rows:
        return
    now = utcnow()
    full = [{"attempts": 0, "state": "pending", "created_at": now, "lease_until": None, **r} for r in rows]
    await session.execute(insert_ignore(OutboxRow, full, ["target_id", "key"], session))


_OUTBOX = OutboxRow.__table__
_NOW = bindparam("now", type_=_OUTBOX.c.due_at.type)
#: A row a sender may claim at `now`: pending, due, and not leased to a sender (or its lease ran out).
_CLAIMABLE = and_(_OUTBOX.c.state == "pending", _OUTBOX.c.due_at <= _NOW,
                  or_(_OUTBOX.c.lease_until.is_(None), _OUTBOX.c.lease_until < _NOW))


def _claim_statement(batch: int):
    """`claim`'s UPDATE … RETURNING for `batch` rows, with the bind parameters `now` and `until`."""
    o = _OUTBOX
    due = (select(o.c.id).where(_CLAIMABLE).order_by(o.c.due_at, o.c.id).limit(batch)
           .with_for_update(skip_locked=True))
    return (update(o).where(o.c.id.in_(due.scalar_subquery()))
            .values(lease_until=bindparam("until", type_=o.c.lease_until.type)).returning(o.c.id, o.c.room_id))


#: `claim`'s statement for the usual batch, built once: every process runs it every round
#: (building a statement costs more CPU than the database takes to answer it).
_CLAIM = _claim_statement(BATCH)
#: Whether any row is claimable (a read, answered from the index): most rounds there is none,
#: and the UPDATE would take the database's write lock for nothing (SQLite has one writer).
_ANY_DUE = select(_OUTBOX.c.id).where(_CLAIMABLE).limit(1)


async def claim(session: AsyncSession, now: datetime | None = None,
                batch: int = BATCH) -> list[tuple[int, datetime, int]]:
    """Lease up to `batch` due rows to this sender (module docstring) and commit → their
    (id, lease_until, room_id)."""
    now = now or utcnow()
    until = now + timedelta(seconds=LEASE_S)
    if (await session.execute(_ANY_DUE, {"now": now})).first() is None:
        await session.commit()
        return []
    statement = _CLAIM if batch == BATCH else _claim_statement(batch)
    rows = (await session.execute(statement, {"now": now, "until": until})).all()
    await session.commit()
    return [(r[0], until, r[1]) for r in rows]


def _mine(row_id: int, lease: datetime):
    o = OutboxRow.__table__
    return and_(o.c.id == row_id, o.c.lease_until == lease, o.c.state == "pending")


async def finish(session: AsyncSession, row_id: int, lease: datetime, state: str, error: str | None = None) -> bool:
    """Mark a claimed row `state` ("sent", "dropped", "dead"); → False when the lease was no
    longer this claim's. Does not commit."""
    o = OutboxRow.__table__
    values: dict[str, Any] = {"state": state, "lease_until": None}
    if state == "sent":
        values["sent_at"] = utcnow()
    if error is not None:
        values["error"] = error[:300]
    result = await session.execute(update(o).where(_mine(row_id, lease)).values(**values))
    return result.rowcount == 1


async def release(session: AsyncSession, rows: dict[int, datetime]) -> int:
    """Give back claimed rows not started (`rows`: id → lease as claimed), due as they were:
    the process is stopping, and another sends them at once instead of after `LEASE_S`
    (app/notify/service.py `Notify.close`) → rows given back. Does not commit."""
    o = OutboxRow.__table__
    given = 0
    for row_id, lease in rows.items():
        given += (await session.execute(update(o).where(_mine(row_id, lease)).values(lease_until=None))).rowcount
    return given


async def defer(session: AsyncSession, row_id: int, lease: datetime, due_at: datetime,
                failed: bool = False, error: str | None = None) -> bool:
    """Give a claimed row back, due again at `due_at`; `failed` counts one more failed try.
    Does not commit."""
    o = OutboxRow.__table__
    values: dict[str, Any] = {"due_at": due_at, "lease_until": None}
    if failed:
        values["attempts"] = o.c.attempts + 1
    if error is not None:
        values["error"] = error[:300]
    result = await session.execute(update(o).where(_mine(row_id, lease)).values(**values))
    return result.rowcount == 1


def backoff_s(attempts: int, base_s: float = 2.0) -> float:
    """Seconds before the next try after `attempts` (>= 1) failed ones: `base_s` (NOTIFY_BACKOFF_S)
    times 1, 2, 4, 8, … (at most one hour)."""
    return min(3600.0, base_s * 2.0 ** (max(1, attempts) - 1))


def run_start(room_id, seat):
    """The version at which `seat`'s current run of decisions in room `room_id` began (both SQL
    expressions, e.g. columns of the outer query): the version of the last action by another
    seat, 0 when there was none -- a correlated scalar subquery, answered from the end of the
    room's (room_id, version) index (ActionRow holds the current game's actions only)."""
    a = aliased(ActionRow)
    last = (select(a.version).where(a.room_id == room_id, a.seat != seat)
            .order_by(a.version.desc()).limit(1).scalar_subquery())
    return func.coalesce(last, 0)


async def prune(session: AsyncSession, before: datetime) -> int:
    """Delete the rows created before `before` that are done with (not pending), are no
    `result`, and are not of the current run of decisions of the room's seat to act (the
    run's `turn`, its reminders: module docstring) → rows deleted. Does not commit."""
    o = OutboxRow.__table__
    # A row of the seat to act's current run of decisions (its `turn` at the run's start, its
    # reminders since): the scan would enqueue it again.
    current = select(Room.id).where(Room.id == o.c.room_id, Room.status == "playing", Room.game_no == o.c.game_no,
                                    Room.to_act == o.c.seat,
                                    o.c.version >= run_start(Room.id, Room.to_act)).exists()
    result = await session.execute(delete(o).where(o.c.state != "pending", o.c.kind != "result",
                                                   o.c.created_at < before, ~current))
    return result.rowcount or 0
