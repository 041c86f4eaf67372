"""What the host's admin page reads and checks (app/routes/admin.py; docs/protocol.md "Admin"):
the rooms with their seats as stored (`live_rooms`, so the list is the same from every process
sharing the database), and the maintenance notice a host types (`check_notice`). Never commits.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload

from .models import Room, utcnow
from .names import INVISIBLE
from .refusals import Refusal
from .rooms import iso

#: The longest free text of a notice (characters, after trimming).
NOTICE_MAX_CHARS = 200
#: The farthest restart a notice announces (minutes from now).
RESTART_MAX_MINUTES = 24 * 60
#: At most this many rooms are listed, most recently active first.
LIST_LIMIT = 500
_BAD = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}  # as a chat message: no control or invisible characters


def check_notice(restart_in_min: int | None, text: str | None, now: datetime | None = None) -> tuple[datetime | None, str | None]:
    """The notice a host typed → (restart_at (UTC, naive, whole seconds) or None, text or None).
    The text is NFC, trimmed. Raises the Refusal `notice_empty` (neither, or a text with
    nothing visible), `notice_bad_minutes` (not 1..RESTART_MAX_MINUTES), `notice_too_long`,
    `notice_bad_char` (a control, format or invisible character)."""
    if text is not None:
        text = unicodedata.normalize("NFC", text).strip()
        if not text or all(c.isspace() or ord(c) in INVISIBLE for c in text):
            raise Refusal("notice_empty")  # a text given must say something (null: none)
    if restart_in_min is None and text is None:
        raise Refusal("notice_empty")
    if restart_in_min is not None and not 1 <= restart_in_min <= RESTART_MAX_MINUTES:
        raise Refusal("notice_bad_minutes", max_minutes=RESTART_MAX_MINUTES)
    if text is not None and len(text) > NOTICE_MAX_CHARS:
        raise Refusal("notice_too_long", max_chars=NOTICE_MAX_CHARS)
    if text is not None and any(unicodedata.category(c) in _BAD for c in text):
        raise Refusal("notice_bad_char")
    at = None
    if restart_in_min is not None:
        at = ((now or utcnow()) + timedelta(minutes=restart_in_min)).replace(microsecond=0)
    return at, text


async def live_rooms(session: AsyncSession, connected: Callable[[str], set[int]]) -> list[dict]:
    """The rooms in the database, most recently active first (at most LIST_LIMIT): `AdminRoomOut`
    (app/schemas.py) each — code, status (waiting/playing/over), paused, pace, public, game
    number, created and last active (ISO 8601 UTC), and per taken seat its name, whether a
    computer plays it (`bot_level`) and whether it has a live connection in any process
    (`connected(code)`: `Live.connected_seats`)."""
    rooms = (await session.scalars(select(Room).options(selectinload(Room.seats))
                                   .order_by(Room.active_at.desc(), Room.id.desc()).limit(LIST_LIMIT))).all()
    out = []
    for room in rooms:
        here = connected(room.code)
        out.append({
            "code": room.code, "status": room.status, "paused": room.paused_at is not None, "pace": room.pace,
            "public": room.public, "game": room.game_no, "created_at": iso(room.created_at),
            "active_at": iso(room.active_at),
            "players": [{"seat": s.seat, "name": s.name, "bot": s.bot_level is not None, "bot_level": s.bot_level,
                         "connected": s.bot_level is None and s.seat in here} for s in room.seats],
        })
    return out
