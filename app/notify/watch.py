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

from sqlalchemy import select, tuple_, update
from sqlalchemy.ext.asyncio import AsyncSession

from ..models import Room, Seat

STAMP_S = 15
WATCHED_S = 40


#: (code, seat) pairs per statement of `stamp`: two bound values each, far below SQLite's
#: 32,766 (https://www.sqlite.org/limits.html, SQLITE_MAX_VARIABLE_NUMBER) and asyncpg's 32,767.
STAMP_BATCH = 4000


async def stamp(session: AsyncSession, seats: set[tuple[str, int]], now: datetime | None) -> None:
    """`watched_at = now` for these (code, seat) (`now` None: cleared, for the seats whose page
    here was hidden or closed), in one statement per `STAMP_BATCH` seats: a row-value `IN` with
    one expanding parameter, `(rooms.code, seats.seat) IN ((?, ?), …)`, whose statement is built
    and cached once whatever the number of seats. Does not commit.

    (It was an `OR` of one `AND` per seat: building it cost ~0.3 ms of CPU per seat, and from
    about 1,000 seats SQLite refused it, "Expression tree is too large (maximum depth 1000)";
    the notification loop then tried again after every action: half the server's CPU at 250
    busy rooms, bench/load.py with py-spy.)"""
    pairs = sorted(seats)
    for i in range(0, len(pairs), STAMP_BATCH):
        ids = (select(Seat.id).join(Room, Room.id == Seat.room_id)
               .where(tuple_(Room.code, Seat.seat).in_(pairs[i:i + STAMP_BATCH])).scalar_subquery())
        # No ORM session synchronisation: nothing in this session holds these seats, and
        # fetching the matched rows to synchronise cost more than the UPDATE.
        await session.execute(update(Seat).where(Seat.id.in_(ids)).values(watched_at=now)
                              .execution_options(synchronize_session=False))


def watched(stamped_at: datetime | None, here: bool, now: datetime) -> bool:
    """A seat is watched: a visible connection here, or another process stamped it lately."""
    return here or (stamped_at is not None and now - stamped_at < timedelta(seconds=WATCHED_S))
