"""Live connections: one bounded send queue and one writer task per WebSocket.

A slow or dead peer never delays anyone else: frames are queued without waiting
(`Connection.send`), and a connection whose queue is full is dropped (closed with 1013).
Under `osaka serve` a frame is written at once instead when nothing of its connection is
queued and the socket takes it (`send_text_now`, app/ws_protocol.py): the same bytes in the
same order, without a writer task's turn and the ASGI `send` chain for each frame.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from datetime import datetime
from typing import Any, Callable

import orjson
from starlette.websockets import WebSocket

from ... import metrics
from ...models import utcnow
from ...prefix import root_of
from ...ratelimit import OwnWindows, RateLimitItem
from ...waits import within
from ...ws_protocol import SEND_NOW

log = logging.getLogger("osaka.hub")
CLOSE_TIMEOUT_S = 5.0
#: Frames queued per connection before a slow one is dropped (1013): a reconnecting browser
#: gets the whole state again, so a peer this far behind is better served by reconnecting.
SEND_QUEUE_SIZE = 256


def dumps(msg: dict[str, Any]) -> str:
    """Serialize one outgoing message (compact JSON text, UTF-8, integer keys as strings: the
    same text as `json.dumps(msg, separators=(",", ":"), ensure_ascii=False)`, ~5x faster;
    https://github.com/ijl/orjson). What orjson refuses (a lone surrogate, as in an `id` echoed
    from a client's `"\\ud800"`; an integer over 64 bits) is written by `json.dumps` with
    non-ASCII characters escaped: the same JSON value, and text a WebSocket frame can carry
    (UTF-8 has no encoding for a lone surrogate, so the frame could not be sent at all)."""
    try:
        return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(msg, separators=(",", ":"))


class Connection:
    """One accepted WebSocket with its seat (None for a spectator or the lobby feed).

    `seat` and `holder` (the token hash the socket connected with) are the seat's rights as
    this process last knew them: a seat that changes hands takes them away at once
    (`Hub.unseat`, called by `Publisher.unseat_stale` whenever a room's seats are read under
    its lock), and every frame that needs a seat is checked against the seat as it is then
    (`holds`; docs/protocol.md "Who holds a seat")."""

    def __init__(self, ws: WebSocket, *, room: str | None, seat: int | None,
                 flood: list[RateLimitItem] | None = None, queue_size: int = SEND_QUEUE_SIZE,
                 holder: str | None = None):
        self.ws = ws
        self.room = room
        self.seat = seat
        self.holder = holder if seat is not None else None
        self.root = root_of(getattr(ws, "scope", {}))  # the URL prefix it came under (app/prefix.py)
        self.closed = False
        self.closing = False  # set when the connection must be closed after a flush
        self.on_drop: Callable[[Connection], None] | None = None  # told when dropped for slowness
        self.bad_messages = 0
        self.lobby_relevant = False  # a public waiting room's connection (its comings and goings change the lobby)
        self.departed = False        # its disconnect was handled (Presence.departed)
        self.visible = True          # its page is shown (a `visible` frame says otherwise; app/notify/)
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=queue_size)
        self._writer = asyncio.create_task(self._write(), name=f"ws-writer-{room}")
        self._writing = False  # the writer holds a frame it has not finished sending
        # The server's direct send (app/ws_protocol.py), when it offers one (not under a test client).
        extensions = (getattr(ws, "scope", None) or {}).get("extensions") or {}
        self._send_now: Callable[[str], bool] | None = extensions.get(SEND_NOW)
        self._flood = OwnWindows(flood) if flood else None  # FLOOD_LIMIT, counted here

    def send(self, msg: dict[str, Any] | str) -> None:
        """Send one frame without waiting: at once when nothing is queued before it and the
        socket takes it, else through the queue; drop the connection if its queue is full."""
        if self.closed:
            return
        text = msg if isinstance(msg, str) else dumps(msg)
        if (self._send_now is not None and not self._writing and not self._queue.qsize()
                and self._send_now(text)):
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            log.info("dropping a slow connection (room %s, seat %s)", self.room, self.seat)
            metrics.SEND_DROPPED.inc()
            self.drop(1013, "too slow")
            if self.on_drop is not None:
                self.on_drop(self)

    def holds(self, seat: int, holders: dict[int, str] | None) -> bool:
        """True when this connection may act for `seat` now: it connected with the token of
        the person who holds that seat in `holders` (`Table.holders`, read under the room's
        lock; None = not known, which holds nothing)."""
        return (self.seat == seat and self.holder is not None and holders is not None
                and holders.get(seat) == self.holder)

    def allow(self) -> bool:
        """Count one incoming message against the connection's `flood` limits (FLOOD_LIMIT:
        `limits` items, counted in fixed windows of this connection's own, `OwnWindows`,
        app/ratelimit.py); False when the client floods. Without `flood` every message is
        allowed."""
        return self._flood is None or self._flood.allow()

    async def _write(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    break
                self._writing = True
                await self.ws.send_text(text)
                self._writing = False
        except asyncio.CancelledError:
            raise
        except Exception:  # the peer went away: the reader loop will notice too
            self.closed = True

    def drop(self, code: int = 1000, reason: str = "") -> None:
        """Stop sending at once and close the socket in the background."""
        if self.closed:
            return
        self.closed = True
        self._writer.cancel()
        asyncio.get_running_loop().create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await within(self.ws.close(code, reason), CLOSE_TIMEOUT_S)

    async def finish(self, code: int = 1000, reason: str = "") -> None:
        """Flush what is queued (bounded by CLOSE_TIMEOUT_S), then close."""
        if self.closed:
            return
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(None)
        with contextlib.suppress(Exception):  # TimeoutError too
            await within(asyncio.shield(self._writer), CLOSE_TIMEOUT_S)
        self.closed = True
        self._writer.cancel()
        await self._close(code, reason)

    def stop_writer(self) -> None:
        """Forget the connection after its reader ended (the socket is gone)."""
        self.closed = True
        self._writer.cancel()


class Hub:
    """Who is connected where, in this process: room code → connections, and the lobby feed."""

    def __init__(self) -> None:
        self.rooms: dict[str, set[Connection]] = {}
        self.lobby: set[Connection] = set()
        # (room code, seat) → time.monotonic() when that seat's last connection here ended.
        # In memory, per process: after a restart every seat counts as gone since the start.
        self.seat_left: dict[tuple[str, int], float] = {}
        # (room code, seat) → time.monotonic() when that seat's first live connection here began:
        # a seat that just came back has not been sitting on its decision (connected_for).
        self.seat_came: dict[tuple[str, int], float] = {}
        self.started = time.monotonic()
        self.started_at = utcnow()  # the same moment, as stored times are (naive UTC)
        # `watched_seats` is built again only after a change of what it reads (`_changed`).
        self._changes = 0
        self._watched: tuple[int, set[tuple[str, int]]] = (-1, set())

    def _changed(self) -> None:
        """A connection was added, removed, unseated or shown/hidden: `watched_seats` is stale."""
        self._changes += 1

    def watched_seats(self) -> set[tuple[str, int]]:
        """(code, seat) of every seat with a connection here whose page is visible (it did not
        send `{"type": "visible", "visible": false}` last): notifications skip them (app/notify/).
        Built again only after a change (`add`, `remove`, `unseat`, `set_visible`): the
        notification loop asks every round, at most twice a second, and building it over 4,000
        connections was 4 % of a busy server's CPU at 1,000 rooms (docs/performance.md).
        Read-only for the caller."""
        at, seats = self._watched
        if at != self._changes:
            seats = {(code, c.seat) for code, conns in self.rooms.items() for c in conns
                     if c.seat is not None and c.visible and not c.closed}
            self._watched = (self._changes, seats)
        return seats

    def set_visible(self, conn: Connection, visible: bool) -> None:
        """`conn`'s page was shown or hidden (its `visible` frame)."""
        if conn.visible != visible:
            conn.visible = visible
            self._changed()

    def add(self, conn: Connection) -> None:
        """Register a room connection."""
        self._changed()
        if conn.seat is not None and not any(c.seat == conn.seat for c in self.of(conn.room)):
            self.seat_came[(conn.room, conn.seat)] = time.monotonic()
        self.rooms.setdefault(conn.room, set()).add(conn)
        if conn.seat is not None:
            self.seat_left.pop((conn.room, conn.seat), None)

    def remove(self, conn: Connection) -> None:
        """Unregister a room connection (a seat's last one starts its offline time)."""
        self._changed()
        conns = self.rooms.get(conn.room)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.rooms[conn.room]
        if conn.seat is not None:
            self._left_if_gone(conn.room, conn.seat)

    def _left_if_gone(self, code: str, seat: int) -> None:
        """`seat` of room `code` has no live connection here any more: its offline time starts."""
        if not any(c.seat == seat for c in self.of(code)):
            self.seat_left[(code, seat)] = time.monotonic()
            self.seat_came.pop((code, seat), None)

    def unseat(self, conn: Connection) -> int | None:
        """`conn` no longer holds its seat (the seat changed hands): from now on it is a
        spectator's connection; a seat left without a connection here starts its offline time.
        → the seat it held (None if it held none)."""
        seat = conn.seat
        if seat is None:
            return None
        conn.seat, conn.holder = None, None
        self._changed()
        self._left_if_gone(conn.room, seat)
        return seat

    def offline_for(self, code: str, seat: int) -> float:
        """Seconds since `seat` of room `code` last had a connection in this process (since
        the process started if it never had one here). Meaningful only for a seat that is
        not connected now; entries are dropped when the seat connects again."""
        return time.monotonic() - self.seat_left.get((code, seat), self.started)

    def connected_for(self, code: str, seat: int) -> float | None:
        """Seconds since `seat` of room `code` connected here without a break (its first live
        connection of the several it may have), None when it has none here."""
        came = self.seat_came.get((code, seat))
        return None if came is None else time.monotonic() - came

    def since_start(self, code: str, seat: int, room_created_at: datetime) -> bool:
        """True when `seat` of room `code` may have been connected until this server process
        started and has had no connection here since (a restart): the room is older than the
        process and the seat has not come or gone here. Its offline time then counts from the
        start, and even the host waits HANDOVER_AFTER_S (app/rooms.py `hand_seat_to_bot`). A
        room made after the start has no such seat: whoever never connected is simply away.
        Meaningful only for a seat that is not connected now."""
        return room_created_at < self.started_at and (code, seat) not in self.seat_left

    def of(self, code: str) -> list[Connection]:
        """Live connections of a room."""
        return [c for c in self.rooms.get(code, ()) if not c.closed]

    def connected_seats(self, code: str) -> set[int]:
        """Seats with at least one live connection in this process."""
        return {c.seat for c in self.of(code) if c.seat is not None}

    def busy_rooms(self) -> set[str]:
        """Codes of rooms with at least one live connection."""
        return {code for code in self.rooms if self.of(code)}
