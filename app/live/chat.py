"""The room's chat: short free-text messages of the seated players and spectators.

- A connection sends `{"type": "chat", "id": "…", "text": "…"}` (`id` optional, echoed in a
  refusal; a spectator also `"name"`: checked like a
  seat's name, and it may not look like a seated player's); the text is trimmed, 1 to
  `MAX_CHARS` characters without control characters. Refusals are `error` frames:
  `chat_empty`, `chat_too_long`, `chat_closed` (the host closed the chat to spectators),
  `chat_name` (a spectator's missing or refused name), `rate_limited` (`CHAT_LIMIT` per seat,
  or per address for spectators; field `retry_after_s`, whole seconds until the next message
  may be sent; its message names the seat or the address, not the HTTP limits).
- A message is stored under the room's lock (`Tables.hold`) with the room, then sent to every
  connection of the room (spectators only while the chat is open to them) as
  `{"type": "chat", "messages": [{"id", "seat", "name", "spectator", "text", "at"}]}`, and other
  server processes are told (`Fanout.notify("c")`: they read the messages they have not sent).
- On connect the last `HISTORY` messages come in the same frame with `"history": true`.

Chat is free text typed by people: the server adds nothing of the game to it.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Callable

from sqlalchemy import bindparam, insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from ..config import Settings
from ..models import ChatMessage, Room, Seat, utcnow
from ..names import INVISIBLE, check_name
from ..ratelimit import Limiter, address_key
from ..refusals import Refusal
from ..rooms import iso
from ..schemas import clean_name
from .fanout.base import Fanout
from .room.lock import RoomGone, Tables
from .sockets.connection import Connection, Hub

MAX_CHARS = 300
HISTORY = 50   # messages sent on connect
_CHAT = ChatMessage.__table__
_ROOM = Room.__table__
_BAD = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}  # no control, format or invisible characters (\n is refused too)
_LAST = (select(_CHAT.c.id, _CHAT.c.seat, _CHAT.c.name, _CHAT.c.text, _CHAT.c.created_at)
         .where(_CHAT.c.room_id == bindparam("room_id"))
         .order_by(_CHAT.c.id.desc()).limit(HISTORY))
_OPEN = select(_ROOM.c.chat_spectators).where(_ROOM.c.id == bindparam("room_id"))


def clean_text(text: object) -> str:
    """A chat text: NFC, trimmed, 1 to MAX_CHARS characters, no control/format characters.
    Raises the Refusal `chat_empty` (also for a text made only of invisible fillers,
    app/names.py INVISIBLE, as a name is blank), `chat_too_long`, `chat_bad_char` (a control,
    format or invisible character, also a lone surrogate or a text of nothing else),
    `bad_message` (a text that is no string)."""
    if not isinstance(text, str):
        raise Refusal("bad_message", "`text` is a string.")
    text = unicodedata.normalize("NFC", text).strip()
    if not text or all(c.isspace() or ord(c) in INVISIBLE for c in text):
        raise Refusal("chat_empty")  # nothing that draws: blank, or only fillers such as U+3164, U+2800
    if len(text) > MAX_CHARS:
        raise Refusal("chat_too_long", max_chars=MAX_CHARS)
    if any(unicodedata.category(c) in _BAD for c in text):
        raise Refusal("chat_bad_char")
    return text


def message_out(row) -> dict:
    """A stored message as the client sees it (`spectator`: no seat)."""
    return {"id": row.id, "seat": row.seat, "name": row.name, "spectator": row.seat is None,
            "text": row.text, "at": iso(row.created_at)}


class Chat:
    """Chat frames of this process's room connections (see the module docstring)."""

    def __init__(self, settings: Settings, tables: Tables, hub: Hub, fanout: Fanout):
        self.tables = tables
        self.hub = hub
        self.fanout = fanout
        self.limiter = Limiter({"chat": settings.chat_limit})
        # code → ids of the latest messages sent to its connections here (not a high-water mark:
        # two processes' messages may commit in another order than their ids)
        self._sent: dict[str, set[int]] = {}
        self.told: Callable[[str], None] | None = None  # a message of room `code` was stored here ("My games")

    async def on_frame(self, conn: Connection, msg: dict) -> None:
        """One `chat` frame of `conn`: check, limit, store, send to the room, tell the others."""
        try:
            text = clean_text(msg.get("text"))
        except Refusal as refusal:
            return conn.send(refusal.frame(msg.get("id")))
        key = f"{conn.room}:{conn.seat}" if conn.seat is not None else \
            f"{conn.room}:-:{address_key(conn.ws.client.host if conn.ws.client else None)}"
        try:
            async with self.tables.hold(conn.room) as held:
                room_id = held.table.room_id
                if conn.seat is None:
                    if not await held.session.scalar(_OPEN, {"room_id": room_id}):
                        return conn.send(Refusal("chat_closed").frame(msg.get("id")))
                    seats = (await held.session.execute(select(Seat.name).where(Seat.room_id == room_id))).scalars()
                    try:
                        name = clean_name(msg.get("name"))
                        check_name(name, list(seats))
                    except (ValueError, Refusal):  # clean_name's ValueError is a validator's (app/schemas.py)
                        return conn.send(Refusal("chat_name").frame(msg.get("id")))
                else:  # only while this connection's token holds the seat now (in any process)
                    name = await held.session.scalar(select(Seat.name).where(
                        Seat.room_id == room_id, Seat.seat == conn.seat, Seat.token_hash == conn.holder))
                    if name is None:
                        return conn.send(Refusal("not_seated").frame(msg.get("id")))
                if not self.limiter.allow("chat", key):  # only messages that would be stored count
                    wait = self.limiter.retry_after_s("chat", key)
                    per = "this seat" if conn.seat is not None else "spectators at this address"
                    return conn.send(Refusal("rate_limited", f"Too many chat messages from {per}; wait {wait} s.",
                                             retry_after_s=wait).frame(msg.get("id")))
                await held.session.execute(insert(_CHAT).values(
                    room_id=room_id, seat=conn.seat, name=name or "?", text=text, created_at=utcnow()))
                await held.session.commit()
                await self._send_new(held.session, conn.room, room_id)
        except RoomGone as gone:
            return conn.send(gone.frame(msg.get("id")))
        if self.told is not None:
            self.told(conn.room)
        await self.fanout.notify("c", conn.room)

    async def _send_new(self, session: AsyncSession, code: str, room_id: int) -> None:
        """Under the room's lock: the latest messages this process has not sent yet, to its
        connections (a client drops an id it already has)."""
        rows = (await session.execute(_LAST, {"room_id": room_id})).all()
        sent = self._sent.get(code, set())
        self._sent[code] = {r.id for r in rows}
        rows = [r for r in rows if r.id not in sent]
        if not rows:
            return
        spectators = bool(await session.scalar(_OPEN, {"room_id": room_id}))
        frame = {"type": "chat", "messages": [message_out(r) for r in reversed(rows)]}
        for c in self.hub.of(code):
            if c.seat is not None or spectators:
                c.send(frame)

    async def send_history(self, session: AsyncSession, conn: Connection, room_id: int) -> None:
        """On connect (under the room's lock): the last HISTORY messages, `"history": true`
        (none for a spectator while the chat is closed to spectators)."""
        rows = (await session.execute(_LAST, {"room_id": room_id})).all()
        self._sent.setdefault(conn.room, set()).update(r.id for r in rows)
        if conn.seat is None and not await session.scalar(_OPEN, {"room_id": room_id}):
            rows = []
        conn.send({"type": "chat", "history": True, "messages": [message_out(r) for r in reversed(rows)]})

    async def on_remote(self, code: str) -> None:
        """Another process stored a message of room `code`: send what this process has not."""
        if not self.hub.of(code):
            return
        try:
            async with self.tables.hold(code) as held:
                await self._send_new(held.session, code, held.table.room_id)
        except RoomGone:
            return

    def forget(self, keep: set[str]) -> None:
        """Forget the rooms not in `keep` (cleanup; a later message starts from its history)."""
        for code in list(self._sent):
            if code not in keep:
                del self._sent[code]

