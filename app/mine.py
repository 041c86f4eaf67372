""""My games": the rooms a browser holds a seat in, from the seat cookies it sends (docs/protocol.md
"My games"). Nothing about the person is stored: the list is computed from the request's
`osaka_<CODE>` cookies each time, and a cookie whose token no longer holds a seat of its room is
left out (the room page's next request deletes it).

Each entry carries only public information (R-info): the room's status, its players, whose
decision it is and the deadline, and the last action's events as a spectator sees them
(`engine.visible_events(events, None)`), the newest chat message's id. Never a hand, a VP card,
the deck or a token.
"""
from __future__ import annotations

import math

from collections.abc import Mapping
from datetime import datetime

from sqlalchemy import and_, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload

import engine
from .models import ActionRow, ChatMessage, Room, utcnow
from .rooms import iso, room_url, seat_of
from .security import cookie_name, normalize_code

#: Seat cookies of one request read at most (a browser holds one per room it sat in).
MAX_MINE_ROOMS = 100
COOKIE_PREFIX = cookie_name("")
_GROUP = {"playing": 1, "waiting": 2, "over": 3}  # after "your decision" (0)


def seat_tokens(cookies: Mapping[str, str]) -> dict[str, str]:
    """{room code: seat token} of the request's seat cookies `osaka_<CODE>` (canonical codes
    only, at most MAX_MINE_ROOMS, in the cookies' order)."""
    out: dict[str, str] = {}
    for name, token in cookies.items():
        if not name.startswith(COOKIE_PREFIX) or not token:
            continue
        code = name[len(COOKIE_PREFIX):]
        if normalize_code(code) != code:
            continue
        out[code] = token
        if len(out) >= MAX_MINE_ROOMS:
            break
    return out


def _order(entry: dict) -> tuple:
    """Your decision first (soonest deadline first; paused ones and none last), then playing,
    waiting, over."""
    group = 0 if entry["your_turn"] else _GROUP.get(entry["status"], 4)
    deadline = (None if entry["paused"] else entry["deadline"]) or "9999"
    return (group, deadline if group == 0 else "", entry["code"])


async def my_rooms(session: AsyncSession, tokens: Mapping[str, str], root: str = "") -> list[dict]:
    """The "My games" list (`GET /api/mine`, `/ws/mine`) for {room code: seat token}: one entry
    per room whose token holds a seat now, ordered by `_order`. Three statements: the rooms with
    their seats, the last action of each started one, the newest chat id of each. Shape:
    docs/protocol.md "My games" (`MineRoomOut`, app/schemas.py)."""
    if not tokens:
        return []
    rooms = (await session.scalars(select(Room).where(Room.code.in_(list(tokens)))
                                   .options(selectinload(Room.seats)))).all()
    held = [(room, seat) for room in rooms if (seat := seat_of(room, tokens[room.code])) is not None]
    if not held:
        return []
    ids = [room.id for room, _ in held]
    last: dict[int, ActionRow] = {}
    started = [room.id for room, _ in held if room.version > 0]
    if started:
        rows = await session.execute(
            select(ActionRow.room_id, ActionRow.seat, ActionRow.version, ActionRow.events)
            .join(Room, and_(Room.id == ActionRow.room_id, Room.version == ActionRow.version))
            .where(ActionRow.room_id.in_(started)))
        last = {row.room_id: row for row in rows}
    chats = dict((await session.execute(
        select(ChatMessage.room_id, func.max(ChatMessage.id)).where(ChatMessage.room_id.in_(ids))
        .group_by(ChatMessage.room_id))).all())
    out = [_entry(room, seat.seat, last.get(room.id), chats.get(room.id), root) for room, seat in held]
    return sorted(out, key=_order)


def _when(ts: datetime | None) -> str | None:
    return None if ts is None else iso(ts)


def _entry(room: Room, you: int, last, chat_id: int | None, root: str) -> dict:
    seats = sorted(room.seats, key=lambda s: s.seat)
    mine = next(s for s in seats if s.seat == you)
    playing = room.status == "playing"
    now = utcnow()
    paused = playing and room.paused_at is not None
    left = (max(0, math.ceil((room.deadline_at - room.paused_at).total_seconds()))  # as the table's clock
            if paused and room.deadline_at is not None else None)
    return {
        "code": room.code, "url": room_url(room.code, root), "status": room.status, "game": room.game_no,
        "host": seats[0].name if seats and seats[0].seat == 0 else None,
        "you": you, "name": mine.name, "bot": mine.bot_level is not None,
        "players": [{"seat": s.seat, "name": s.name, "bot": s.bot_level is not None, "bot_level": s.bot_level,
                     "away_until": _when(s.away_until) if s.away_until is not None and s.away_until > now else None}
                    for s in seats],
        "turn_limit_s": room.turn_limit_s, "version": room.version,
        "to_act": room.to_act if playing else None,
        "your_turn": playing and room.to_act == you,
        "deadline": _when(room.deadline_at) if playing else None,
        "turn_at": _when(room.turn_at) if playing else None,
        "paused": paused, "left_s": left,
        # R-info: only what a spectator sees of the last action (engine/views.py visible_events).
        "last": None if last is None else {"version": last.version, "seat": last.seat,
                                           "events": engine.visible_events(last.events or [], None)},
        "chat_id": chat_id,
    }
