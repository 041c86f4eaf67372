"""The authoritative table service: per-room lock → version check → engine → commit → fan-out.

Every frame to a connection is built from `engine.player_view` for that connection's seat and
from events filtered by `visible_to`. An action is committed before anyone hears of it.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import bindparam, delete, exists, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import selectinload
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

import engine

from .. import rooms as R
from ..config import Settings
from ..errors import ApiError
from ..logs import action_kind, log_event
from ..models import ActionRow, Room, Seat, utcnow
from ..security import cookie_name, normalize_code
from .fanout import NOTIFY_EXPR, Fanout
from .hub import Connection, Hub, dumps
from .table import Table, visible

log = logging.getLogger("osaka.live")
MAX_ACTION_ID = 128
LOBBY_MIN_INTERVAL_S = 0.5  # the lobby list is recomputed at most this often
_GONE = object()  # _next_frame: the connection is over
BOT_ID_PREFIX = "bot:"  # reserved for the server's computer players (app/live/bots.py)


def error_msg(code: str, message: str, msg_id: Any = None) -> dict:
    """An `error` frame (the `id` of the refused message when it had a usable one)."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if isinstance(msg_id, str) and len(msg_id) <= MAX_ACTION_ID:
        out["id"] = msg_id
    return out


class BadMessage(Exception):
    """A client frame that is not a valid message (→ `bad_message`); `msg_id` is the frame's
    `id` when it had one (echoed in the error frame)."""

    def __init__(self, message: str, msg_id: Any = None):
        super().__init__(message)
        self.msg_id = msg_id


def parse_client_message(text: str) -> dict:
    """Check one client frame: `{"type": "ping"}` or `{"type": "act", "id", "version", "action"}`.

    Raises BadMessage with a reason for anything else."""
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage("The message is not JSON.") from None
    if not isinstance(msg, dict):
        raise BadMessage("A message is a JSON object.")
    kind, msg_id = msg.get("type"), msg.get("id")
    if kind == "ping":
        return msg
    if kind != "act":
        raise BadMessage("Unknown message type.", msg_id)
    version, action = msg.get("version"), msg.get("action")
    if not isinstance(msg_id, str) or not 1 <= len(msg_id) <= MAX_ACTION_ID:
        raise BadMessage(f"`id` is a string of 1 to {MAX_ACTION_ID} characters.", msg_id)
    if msg_id.startswith(BOT_ID_PREFIX):
        raise BadMessage(f"Ids starting with `{BOT_ID_PREFIX}` are reserved for computer players.", msg_id)
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise BadMessage("`version` is a non-negative integer.", msg_id)
    if not isinstance(action, dict):
        raise BadMessage("`action` is a JSON object.", msg_id)
    return msg


class Live:
    """Rooms being watched or played in this process, on top of the database."""

    def __init__(self, settings: Settings, sessions: async_sessionmaker[AsyncSession]):
        from .bots import BotDriver  # local: bots imports this module's types
        self.settings = settings
        self.sessions = sessions
        self.hub = Hub()
        self.tables: dict[str, Table] = {}
        self.bots = BotDriver(self)
        # Several processes on one PostgreSQL database hear of each other's changes (fanout.py).
        self.fanout = Fanout(self, settings.database_url) if settings.database_url.startswith("postgresql") else None
        self._lobby_sent: str | None = None
        self._lobby_dirty = asyncio.Event()
        self._idle_since: dict[str, Any] = {}  # code → when its last connection left (not yet stored)
        self._background: list[asyncio.Task] = []

    async def start(self, listen_timeout_s: float = 5.0) -> None:
        """Start the background tasks (lifespan): the lobby feed, and LISTEN on PostgreSQL
        (waited for up to `listen_timeout_s`, so a fresh process misses nothing; it keeps
        retrying in the background if the database is not reachable yet)."""
        loop = asyncio.get_running_loop()
        self._background.append(loop.create_task(self._lobby_loop(), name="lobby"))
        if self.fanout is not None:
            self._background.append(loop.create_task(self.fanout.run(), name="fanout-listen"))
            self._background.append(loop.create_task(self.fanout.process(), name="fanout-process"))
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.fanout.connected.wait(), listen_timeout_s)

    # ---------------------------------------------------------------- tables
    def table(self, room: Room) -> Table:
        """The cached table of a room (created empty; `Table.sync` fills it)."""
        table = self.tables.get(room.code)
        if table is None or table.room_id != room.id:
            table = self.tables[room.code] = Table(room.code, room.id)
        return table

    @staticmethod
    async def fresh_room(session: AsyncSession, room_id: int) -> Room | None:
        """The room row as committed now (read it again after taking the room lock)."""
        return await session.scalar(select(Room).where(Room.id == room_id)
                                    .execution_options(populate_existing=True))

    # ------------------------------------------------------------- summaries
    def connected_seats(self, code: str) -> set[int]:
        """Seats of a room with a live connection here or (PostgreSQL) in another process."""
        seats = self.hub.connected_seats(code)
        if self.fanout is not None:
            seats |= self.fanout.remote_seats(code)
        return seats

    def summary(self, room: Room, you: int | None) -> dict:
        """Room summary with presence from every process's connections."""
        return R.summary(room, self.connected_seats(room.code), you,
                         lambda n: self.hub.offline_for(room.code, n), self.settings.handover_after_s)

    async def broadcast_room(self, session: AsyncSession, code: str) -> None:
        """Send the fresh room summary to every connection of the room."""
        conns = self.hub.of(code)
        if not conns:
            return
        room = await session.scalar(select(Room).where(Room.code == code)
                                    .options(selectinload(Room.seats)).execution_options(populate_existing=True))
        if room is None:
            return
        base = self.summary(room, None)
        for conn in conns:
            conn.send({"type": "room", "room": {**base, "you": conn.seat}})

    def send_sync(self, conn: Connection, table: Table) -> None:
        """History, then state, to one connection (on connect)."""
        if table.state is None:
            return
        conn.send({"type": "history", "version": table.version, "events": table.history(conn.seat)})
        conn.send({"type": "state", "version": table.version, "view": table.view(conn.seat)})

    def send_state(self, conn: Connection, table: Table) -> None:
        """The current state to one connection."""
        if table.state is not None:
            conn.send({"type": "state", "version": table.version, "view": table.view(conn.seat)})

    def broadcast_game(self, table: Table, actions: list[tuple[int, list[dict]]]) -> None:
        """For each (version, events): the events filtered per seat; then the current state.
        Frames are built once per seat and shared by that seat's connections."""
        if not actions:
            return
        frames: dict[int | None, list[str]] = {}
        for conn in self.hub.of(table.code):
            if conn.seat not in frames:
                out = [dumps({"type": "event", "version": v, "events": visible(ev, conn.seat)})
                       for v, ev in actions]
                out.append(dumps({"type": "state", "version": table.version,
                                  "view": table.view(conn.seat)}))
                frames[conn.seat] = out
            for text in frames[conn.seat]:
                conn.send(text)

    # ------------------------------------------------------------ HTTP hooks
    async def room_created(self, code: str, public: bool) -> None:
        """A room was created: a public one shows up in the lobby (here and in other processes)."""
        if public:
            self.mark_lobby_dirty()
            if self.fanout is not None:
                await self.fanout.notify("r", code)

    async def after_room_change(self, code: str, *, game_started: bool = False) -> None:
        """Tell a room's connections (and the lobby, and other processes) after an HTTP change
        (join, computer player, start, seat handed to a computer player); start bots."""
        async with self.sessions() as session:
            room = await session.scalar(select(Room).where(Room.code == code)
                                        .options(selectinload(Room.seats)))
            await session.commit()  # no transaction may wait on the room lock
            if room is not None:
                table = self.table(room)
                async with table.lock:
                    await self.broadcast_room(session, code)
                    if game_started:
                        await table.sync(session, await self.fresh_room(session, room.id))
                        for conn in self.hub.of(code):
                            self.send_sync(conn, table)
        if room is None:
            return
        if room.public and (room.status == "waiting" or game_started):
            self.mark_lobby_dirty()
        if self.fanout is not None:
            await self.fanout.notify("r", code)
        if room.status == "playing":
            self.bots.kick(code)

    async def remote_change(self, code: str, kinds: set[str]) -> None:
        """Another process changed room `code` (`kinds` ⊆ {"g", "r", "p"}, fanout.py): catch the
        table up from the database and tell this process's connections; refresh the lobby."""
        if "r" in kinds:
            self.mark_lobby_dirty()
        if not self.hub.of(code):
            return  # nobody watches it here: the table catches up on its next use
        async with self.sessions() as session:
            room = await session.scalar(select(Room).where(Room.code == code))
            await session.commit()  # no transaction may wait on the room lock
            if room is None:
                return
            table = self.table(room)
            async with table.lock:
                fresh = await self.fresh_room(session, room.id)
                if fresh is None:
                    return
                started = table.state is None and fresh.seed is not None
                caught = await table.sync(session, fresh)
                if started or "r" in kinds or "p" in kinds or (caught and fresh.status == "over"):
                    await self.broadcast_room(session, code)
                if started:
                    for conn in self.hub.of(code):
                        self.send_sync(conn, table)
                else:
                    self.broadcast_game(table, caught)

    # ------------------------------------------------------------- WebSocket
    async def serve_room(self, ws: WebSocket, raw_code: str) -> None:
        """Run one room WebSocket from handshake to close (docs/protocol.md).

        The handshake is accepted only after the room was read: a client opening connections
        in a loop waits for the server instead of piling up work behind its back."""
        code = normalize_code(raw_code)
        token, from_cookie = _token_of(ws, code)
        async with self.sessions() as session:
            try:
                room = await R.load_room(session, raw_code)
            except ApiError as exc:
                await _refuse(ws, exc.code, exc.message)
                return
            seat = None
            if token is not None:
                if from_cookie and not _same_origin(ws):
                    await _refuse(ws, "bad_origin", "Cross-site connections may not use the seat cookie.")
                    return
                found = R.seat_of(room, token)
                if found is None:
                    await _refuse(ws, "bad_token", "This token does not belong to a seat of this room.")
                    return
                seat = found.seat
            await session.commit()  # nothing is held while the client answers the handshake
            await ws.accept()
            conn = Connection(ws, room=room.code, seat=seat, queue_size=self.settings.send_queue_size,
                              flood_rate=self.settings.flood_rate, flood_burst=self.settings.flood_burst)
            conn.on_drop = self._dropped
            # Only a public waiting room's comings and goings can change the lobby list.
            conn.lobby_relevant = room.public and room.status == "waiting"
            table = self.table(room)
            await session.commit()  # no transaction may wait on the room lock
            async with table.lock:
                took_back = seat is not None and found.bot_level is not None and found.token_hash is not None
                if took_back:
                    found.bot_level = None  # the player takes the seat back from the computer
                was_busy = bool(self.hub.of(room.code))
                # `active_at` is not written per connection: the cleanup loop stores it for busy
                # rooms and for rooms whose last connection left (`_idle_since`).
                self._idle_since.pop(room.code, None)
                if took_back:
                    await session.commit()
                now = (await session.execute(_ROOM_NOW, {"room_id": room.id})).first()
                if now is None:  # deleted meanwhile (an idle waiting room)
                    await _refuse(ws, "room_not_found", "There is no room with this code.")
                    conn.stop_writer()
                    return
                self.broadcast_game(table, await table.sync(session, now))
                seat_arrived = seat is not None and seat not in self.hub.connected_seats(room.code)
                self.hub.add(conn)
                if seat_arrived or took_back:
                    await self.broadcast_room(session, room.code)  # presence changed: tell everyone
                else:  # a spectator or another tab: only this connection needs the summary
                    conn.send({"type": "room", "room": {**self.summary(room, seat),
                                                        "status": now.status, "version": now.version}})
                self.send_sync(conn, table)
        if not was_busy and conn.lobby_relevant:
            self.mark_lobby_dirty()
        if (seat_arrived or took_back) and self.fanout is not None:
            await self.fanout.notify("p", room.code, self.hub.connected_seats(room.code))
        try:
            await self._read_loop(conn, table)
        finally:
            conn.stop_writer()
            self.hub.remove(conn)
            await self._after_disconnect(conn)

    def _dropped(self, conn: Connection) -> None:
        """A laggard was dropped: forget it now and tell the room (presence)."""
        self.hub.remove(conn)
        asyncio.get_running_loop().create_task(self._after_disconnect(conn))

    async def _after_disconnect(self, conn: Connection) -> None:
        """Presence after a connection left (once per connection): when its seat has no other
        connection here, tell the room (and other processes); when the room has none at all,
        note the time for `active_at` (written by the cleanup loop) and refresh the lobby if the
        room can be in it. A spectator leaving costs no database work at all."""
        if conn.departed:
            return
        conn.departed = True
        code = conn.room
        try:
            seat_gone = conn.seat is not None and conn.seat not in self.hub.connected_seats(code)
            room_idle = not self.hub.of(code)
            if not (seat_gone or room_idle):
                return
            if room_idle:
                self._idle_since[code] = utcnow()
            table = self.tables.get(code)
            if seat_gone and table is not None:
                async with self.sessions() as session:
                    async with table.lock:
                        await self.broadcast_room(session, code)
            if room_idle and conn.lobby_relevant:
                self.mark_lobby_dirty()
            if seat_gone and self.fanout is not None:
                await self.fanout.notify("p", code, self.hub.connected_seats(code))
        except Exception:  # the server may be shutting down
            log.exception("after disconnect of room %s", code)

    async def _read_loop(self, conn: Connection, table: Table) -> None:
        limit = self.settings.max_frame_bytes
        while True:
            text = await self._next_frame(conn)
            if text is _GONE:
                return
            if text is None:
                self._bad(conn, "bad_message", "Messages are JSON text frames.")
                continue
            if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
                self._bad(conn, "bad_message", f"A message is at most {limit} bytes.")
                continue
            try:
                msg = parse_client_message(text)
            except BadMessage as exc:
                self._bad(conn, "bad_message", str(exc), exc.msg_id)
                continue
            if msg["type"] == "ping":
                conn.send({"type": "pong"})
                continue
            if conn.seat is None:
                conn.send(error_msg("not_seated", "Spectators cannot act.", msg["id"]))
                continue
            await self.act(table.code, conn.seat, msg["id"], msg["version"], msg["action"], reply=conn)

    async def _next_frame(self, conn: Connection) -> Any:
        """The next client frame's text (None for a binary frame), or `_GONE` once the
        connection is over (disconnected, or closed now with 1008 after too many bad
        messages). Frames over the flood limit are refused here (`rate_limited`) and skipped."""
        while not conn.closed:
            if conn.closing:
                await conn.finish(1008, "too many bad messages")
                return _GONE
            try:
                frame = await conn.ws.receive()
            except (WebSocketDisconnect, RuntimeError):
                return _GONE
            if frame["type"] == "websocket.disconnect":
                return _GONE
            if not conn.allow():
                self._bad(conn, "rate_limited", "Too many messages; slow down.")
                continue
            return frame.get("text")
        return _GONE

    def _bad(self, conn: Connection, code: str, message: str, msg_id: Any = None) -> None:
        """Refuse one client frame (echoing its string `id`, if any); after `max_bad_messages`
        the connection is closed (1008)."""
        conn.bad_messages += 1
        conn.send(error_msg(code, message, msg_id))
        if conn.bad_messages >= self.settings.max_bad_messages:
            conn.closing = True

    async def serve_lobby(self, ws: WebSocket) -> None:
        """The lobby feed: `{"type": "rooms", "rooms": [...]}` on connect and on every change."""
        await ws.accept()
        conn = Connection(ws, room=None, seat=None, queue_size=self.settings.send_queue_size,
                          flood_rate=self.settings.flood_rate, flood_burst=self.settings.flood_burst)
        if not self.hub.lobby:
            self._lobby_sent = None  # not kept up to date while nobody listened
        self.hub.lobby.add(conn)
        try:
            async with self.sessions() as session:
                rooms = await R.lobby_rooms(session, self.settings.lobby_idle_s, self.hub.busy_rooms())
            conn.send({"type": "rooms", "rooms": rooms})
            while True:
                text = await self._next_frame(conn)
                if text is _GONE:
                    return
                if text is not None and len(text) <= 1024 and _is_ping(text):
                    conn.send({"type": "pong"})
                else:
                    self._bad(conn, "bad_message", "The lobby feed only answers pings.")
        finally:
            conn.stop_writer()
            self.hub.lobby.discard(conn)

    def mark_lobby_dirty(self) -> None:
        """The lobby list may have changed: the lobby task recomputes it soon (coalesced: at
        most once per LOBBY_MIN_INTERVAL_S, however many changes come in meanwhile)."""
        self._lobby_dirty.set()

    async def _lobby_loop(self) -> None:
        while True:
            await self._lobby_dirty.wait()
            self._lobby_dirty.clear()
            try:
                await self.push_lobby()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lobby refresh failed")
            await asyncio.sleep(LOBBY_MIN_INTERVAL_S)

    async def push_lobby(self) -> None:
        """Recompute the open public rooms and push them to lobby connections if the list
        changed (no query at all while nobody watches the lobby)."""
        if not self.hub.lobby:
            self._lobby_sent = None
            return
        async with self.sessions() as session:
            rooms = await R.lobby_rooms(session, self.settings.lobby_idle_s, self.hub.busy_rooms())
        text = dumps({"type": "rooms", "rooms": rooms})
        if text == self._lobby_sent:
            return
        self._lobby_sent = text
        for conn in list(self.hub.lobby):
            conn.send(text)

    # --------------------------------------------------------------- actions
    async def act(self, code: str, seat: int, action_id: str, version: int, action: dict, *,
                  reply: Connection | None = None, bot_level: str | None = None) -> bool:
        """Apply one action exactly once; True when it was applied.

        Refusals go to `reply` as `error` frames: `stale_version`, `game_not_started`, the
        engine's `IllegalAction.code`; an `action_id` this seat already used gets the current
        state instead (ids are unique per seat, not per room: docs/protocol.md).
        A computer player's action (`bot_level` set) is dropped if the seat is no longer a bot's.
        """
        table = self.tables.get(code)
        if table is None:
            return False
        def note(outcome: str, at: int = version) -> None:
            # One line per action outcome: its type and outcome code, never its payload (app/logs.py).
            log_event(log, "action", room=code, seat=seat, action=action_kind(action), version=at,
                      outcome=outcome, by="player" if bot_level is None else "bot")

        def refuse(err: str, message: str) -> bool:
            note(err)
            if reply is not None:
                reply.send(error_msg(err, message, action_id))
            return False
        async with table.lock:
            async with self.sessions() as session:
                # Hot path (docs/performance.md): one Core read of the room row (+ whether any
                # seat is a computer player's), the exactly-once check against the ids the
                # synced table holds, then INSERT + UPDATE + COMMIT: one transaction.
                room = (await session.execute(_ROOM_FOR_ACT, {"room_id": table.room_id})).first()
                if room is None:
                    return refuse("room_not_found", "The room is gone.")
                if room.seed is None:
                    return refuse("game_not_started", "The game has not started yet.")
                self.broadcast_game(table, await table.sync(session, room))
                if (seat, action_id) in table.action_ids:
                    note("duplicate")
                    if reply is not None:
                        self.send_state(reply, table)
                    return False
                if version != table.version:
                    return refuse("stale_version", f"The game is at version {table.version}, not {version}.")
                if bot_level is not None:
                    level = await session.scalar(select(Seat.bot_level).where(
                        Seat.room_id == room.id, Seat.seat == seat))
                    if level is None:
                        note("not_a_bot_seat")
                        return False
                try:
                    parsed = engine.action_from_json(action)
                    new_state, events = engine.play(table.state, seat, parsed)
                except engine.IllegalAction as exc:
                    return refuse(exc.code, exc.message)
                new_version = table.version + 1
                status = "over" if new_state.phase == "over" else "playing"
                try:
                    await session.execute(_INSERT_ACTION, {
                        "room_id": room.id, "version": new_version, "action_id": action_id,
                        "seat": seat, "action": parsed.to_json(), "created_at": utcnow()})
                    bump = {"room_id": room.id, "old_version": table.version,
                            "new_version": new_version, "new_status": status}
                    if self.fanout is None:
                        moved = (await session.execute(_BUMP_VERSION, bump)).rowcount
                    else:  # NOTIFY the other processes, delivered only when this commits
                        bump["notify_payload"] = self.fanout.payload("g", code)
                        moved = len((await session.execute(_BUMP_VERSION_NOTIFY, bump)).all())
                    if moved != 1:
                        raise IntegrityError("version moved", None, Exception("lost race"))
                    await session.commit()
                except IntegrityError:
                    # Another process committed first: catch up and answer like a late client.
                    await session.rollback()
                    room = await self.fresh_room(session, table.room_id)
                    self.broadcast_game(table, await table.sync(session, room))
                    dup = await session.scalar(select(ActionRow.id).where(
                        ActionRow.room_id == room.id, ActionRow.seat == seat,
                        ActionRow.action_id == action_id))
                    if dup is not None:
                        note("duplicate")
                        if reply is not None:
                            self.send_state(reply, table)
                        return False
                    return refuse("stale_version", f"The game is at version {table.version}.")
                table.applied(new_state, new_version, seat, action_id, events)
                self.broadcast_game(table, [(new_version, events)])
                if status == "over":
                    await self.broadcast_room(session, code)
        note("applied", new_version)
        if room.has_bots:  # read in the action's transaction; seats handed over later kick themselves
            self.bots.kick(code)
        return True

    # ------------------------------------------------------- upkeep/lifespan
    async def resume(self) -> None:
        """After a (re)start: let computer players continue in every game that is theirs to move."""
        async with self.sessions() as session:
            codes = (await session.scalars(select(Room.code).where(Room.status == "playing"))).all()
        for code in codes:
            self.bots.kick(code)

    async def cleanup_once(self) -> None:
        """Mark rooms with live connections as active, delete long-idle waiting rooms,
        forget tables nobody watches, and refresh the lobby feed."""
        busy = self.hub.busy_rooms()
        now = utcnow()
        idle = [{"c": code, "t": at} for code, at in self._idle_since.items() if code not in busy]
        self._idle_since.clear()
        async with self.sessions() as session:
            if busy:
                await session.execute(update(Room).where(Room.code.in_(busy)).values(active_at=now))
            if idle:
                await session.execute(_SET_ACTIVE_AT, idle)
            stale = delete(Room).where(Room.status == "waiting",
                                       Room.active_at < now - timedelta(seconds=self.settings.room_ttl_s))
            if busy:
                stale = stale.where(Room.code.not_in(busy))
            await session.execute(stale)
            await session.commit()
        for code in list(self.tables):
            if code not in busy and not self.bots.running(code):
                del self.tables[code]
        for conn in list(self.hub.lobby):
            if conn.closed:
                self.hub.lobby.discard(conn)
        self.mark_lobby_dirty()
        if self.fanout is not None:  # keep this process's presence fresh in the others
            for code in busy:
                seats = self.hub.connected_seats(code)
                if seats:
                    await self.fanout.notify("p", code, seats)

    async def cleanup_loop(self) -> None:
        """Run `cleanup_once` every `cleanup_interval_s` seconds until cancelled."""
        while True:
            await asyncio.sleep(self.settings.cleanup_interval_s)
            try:
                await self.cleanup_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cleanup failed")

    async def close(self) -> None:
        """Close every connection, stop the background tasks and the computer players (shutdown)."""
        for task in self._background:
            task.cancel()
        for task in self._background:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._background.clear()
        with contextlib.suppress(Exception):  # store when rooms were last watched
            async with self.sessions() as session:
                idle = [{"c": code, "t": at} for code, at in self._idle_since.items()]
                if idle:
                    await session.execute(_SET_ACTIVE_AT, idle)
                await session.commit()
        self.bots.shutdown()
        for conn in [c for conns in self.hub.rooms.values() for c in conns] + list(self.hub.lobby):
            conn.drop(1001, "server shutting down")


# The statements of `Live.act`, built once (Core, on the tables: no ORM bookkeeping per action).
_ROOMS, _SEATS = Room.__table__, Seat.__table__
# The room row as `act` needs it, and whether any seat is a computer player's.
_ROOM_FOR_ACT = select(
    _ROOMS.c.id, _ROOMS.c.seed, _ROOMS.c.num_players, _ROOMS.c.version,
    exists().where(_SEATS.c.room_id == _ROOMS.c.id, _SEATS.c.bot_level.is_not(None)).label("has_bots"),
).where(_ROOMS.c.id == bindparam("room_id"))
# The room row as a connecting client needs it (read after taking the room lock).
_ROOM_NOW = select(_ROOMS.c.id, _ROOMS.c.seed, _ROOMS.c.num_players, _ROOMS.c.version,
                   _ROOMS.c.status).where(_ROOMS.c.id == bindparam("room_id"))
_INSERT_ACTION = insert(ActionRow.__table__)
# When a room's last connection left (executemany from the cleanup loop).
_SET_ACTIVE_AT = (update(_ROOMS).where(_ROOMS.c.code == bindparam("c"))
                  .values(active_at=bindparam("t")))
# Optimistic concurrency: 0 rows when another process committed this version first.
_BUMP_VERSION = (update(_ROOMS)
                 .where(_ROOMS.c.id == bindparam("room_id"), _ROOMS.c.version == bindparam("old_version"))
                 .values(version=bindparam("new_version"), status=bindparam("new_status")))
# PostgreSQL: the same, with `pg_notify` in its RETURNING (one row when the version moved).
_BUMP_VERSION_NOTIFY = _BUMP_VERSION.returning(NOTIFY_EXPR)


def _is_ping(text: str) -> bool:
    """True for the lobby's `{"type": "ping"}`; False for anything else, including JSON nested
    too deeply for the parser (RecursionError)."""
    try:
        return json.loads(text) == {"type": "ping"}
    except (ValueError, RecursionError):
        return False


def _token_of(ws: WebSocket, code: str | None) -> tuple[str | None, bool]:
    """(token, came_from_cookie): the Bearer header wins over the room's cookie."""
    auth = ws.headers.get("authorization", "")
    if auth[:7].lower() == "bearer ":
        return auth[7:].strip() or None, False
    if code is not None:
        token = ws.cookies.get(cookie_name(code))
        if token:
            return token, True
    return None, False


def _same_origin(ws: WebSocket) -> bool:
    """A browser's handshake from another site must not ride on the seat cookie."""
    origin = ws.headers.get("origin")
    if not origin:
        return True
    return urlsplit(origin).netloc.lower() == ws.headers.get("host", "").lower()


async def _refuse(ws: WebSocket, code: str, message: str) -> None:
    """Accept (if not yet), send `error {code}` and close with 1008."""
    try:
        if ws.application_state == WebSocketState.CONNECTING:
            await ws.accept()
        await ws.send_text(dumps(error_msg(code, message)))
        await ws.close(1008, code)
    except Exception:
        pass
