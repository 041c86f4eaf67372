"""Who is watching: a seat with a visible page in any process gets no notification.

A connection counts as visible until it says otherwise (`{"type": "visible", "visible":
false}`, docs/protocol.md). The process holding visible connections stamps those seats'
`seats.watched_at` every `STAMP_S` seconds (one UPDATE for all of them), so every process's
sender knows: a seat is watched when a visible connection is here, or its stamp is younger
than `WATCHED_S`. A seat that becomes visible here is stamped at once; one whose page here was
hidden or closed has its stamp cleared at once (if another process still shows it, that
process stamps it again within `STAMP_S`: for up to that long the seat may look unwatched).
"""
from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import and_, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from ..models import Room, Seat

STAMP_S = 15
WATCHED_S = 40


async def stamp(session: AsyncSession, seats: set[tuple[str, int]], now: datetime | None) -> None:
    """`watched_at = now` for these (code, seat) in one statement (`now` None: cleared, for
    the seats whose page here was hidden or closed). Does not commit."""
    if not seats:
        return
    pairs = or_(*[and_(Room.code == code, Seat.seat == seat) for code, seat in sorted(seats)])
    ids = select(Seat.id).join(Room, Room.id == Seat.room_id).where(pairs).scalar_subquery()
    await session.execute(update(Seat).where(Seat.id.in_(ids)).values(watched_at=now))


def watched(stamped_at: datetime | None, here: bool, now: datetime) -> bool:
    """A seat is watched: a visible connection here, or another process stamped it lately."""
    return here or (stamped_at is not None and now - stamped_at < timedelta(seconds=WATCHED_S))
