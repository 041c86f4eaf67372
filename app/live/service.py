"""`Live`, the front door and the composition root of the live part: it builds the parts of
app/live, wires them, and is the only way in for the rest of the app (the HTTP routes, the app's
lifespan, the shutdown use its methods and properties below, never its parts:
tests/unit/test_live_front_door.py). Its parts stay attributes for the tests.

One concept, one place (docs/architecture.md walks one purchase through them, top to bottom):

- sockets/ — the socket and its frames: `Connection` and `Hub` (connection.py: one send queue
  per socket), the handshake and its limits (handshake.py: `Admission`, `AdmissionGate`),
  client frames in (frames.py), the room WebSocket from handshake to close (endpoint.py:
  `RoomSockets`).
- room/ — the room: its game in memory (table.py: `Table`, no I/O), its lock (lock.py:
  `Tables.hold`/`change`, the only way in), the room under its lock (held.py: `Held.sync`, the
  one way a table catches up), the one publish to its seats (publish.py: `Publisher.publish`,
  every frame through the player view; the room summary built there only), who is connected
  (presence.py: `Presence`), the upkeep (cleanup.py: `Cleanup`).
- actions/ — the action path (path.py: `Actions`, frame → lock → engine → commit → publish;
  attempt.py, timeouts.py) and the group commit (commits.py: `Committer`).
- fanout/ — other server processes: `Fanout` (base.py; postgres.py: LISTEN/NOTIFY) and what
  they changed (remote.py: `RemoteChanges`).
- computer/ — computer players and time-outs: the one decision for a seat (decide.py:
  `Decider`, its worker processes, the fallback), the computer players' seats (bots.py:
  `BotDriver`), the turn timers (timers.py: `TurnTimers`) and their clocks across restarts
  (downtime.py).
- chat.py (`Chat`), hints.py (`Hints`: a seat's hint, searched by the decider), reviews.py
  (`Reviews`: every finished game's review, in a niced worker process of its own), lobby.py (`LobbyFeed`); events.py (`RoomChanged`, `ActionApplied`,
  `PresenceChanged` → lobby, fan-out, computer players: the code changing a room calls none of
  them); outages.py (a database outage is one warning line).
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from contextlib import AbstractAsyncContextManager
from typing import NamedTuple

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.websockets import WebSocket

from ..config import Settings
from ..lobby import present_people
from ..models import Room
from .actions.commits import Committer
from .actions.path import Actions
from .chat import Chat
from .computer.bots import BotDriver
from .computer.decide import Decider
from .computer.timers import TurnTimers
from .events import ActionApplied, Events, PresenceChanged, RoomChanged
from .fanout.affinity import Affinity
from .fanout.base import Fanout, LocalFanout
from .fanout.postgres import PgFanout
from .fanout.remote import RemoteChanges
from .hints import Hints
from .reviews import Reviews
from .lobby import LobbyFeed
from .mine import MineFeed
from .notice import NOTICE_CODE, Notice, Shown
from .room.cleanup import Cleanup
from .room.held import Held
from .room.lock import Tables
from .room.presence import Presence
from .room.publish import Publisher
from .sockets.connection import Connection, Hub
from .sockets.endpoint import RoomSockets
from .sockets.handshake import Admission

log = logging.getLogger("osaka.live")
#: How long `Live.close` waits for its cancelled background loops before it goes on without them.
BACKGROUND_STOP_S = 5.0


class SeatPresence(NamedTuple):
    """What this process knows of one seat's connections, for handing it to a computer player
    (`Live.seat_presence`; app/rooms.py `hand_seat_to_bot`)."""
    connected: set[int]        # the room's seats connected here or in another process
    offline_s: float           # seconds since the seat last had a connection here (Hub.offline_for)
    since_start: bool          # it may have been connected until this process started (Hub.since_start)
    connected_s: float | None  # seconds it has been connected here without a break (Hub.connected_for)


class Live:
    """Rooms being watched or played in this process, on top of the database."""

    def __init__(self, settings: Settings, sessions: async_sessionmaker[AsyncSession]):
        self._settings = settings
        self._sessions = sessions
        self.hub = Hub()
        self.events = Events()
        self.fanout: Fanout = LocalFanout()
        if settings.database_url.startswith("postgresql"):  # several processes may share it
            self.fanout = PgFanout(settings.database_url, sessions, self._remote_changes, self.hub.busy_rooms,
                                   presence_ttl_s=3 * settings.cleanup_interval_s)
        self.publisher = Publisher(self.hub, settings, self.fanout)
        self.tables = Tables(sessions, self.publisher, self.events)
        self.lobby = LobbyFeed(settings, sessions, self.hub, lambda: present_people(
            set(self.hub.rooms) | self.fanout.remote_codes(), self.publisher.connected_seats))
        db = sessions.kw["bind"]  # the AsyncEngine behind the sessions
        self.committer = Committer(db, self.fanout)
        self.chat = Chat(settings, self.tables, self.hub, self.fanout)
        self.mine = MineFeed(settings, sessions)  # "My games" (/ws/mine)
        self.chat.told = self.mine.mark
        self.actions = Actions(settings, self.tables, self.fanout, self.events, self.committer)
        self.presence = Presence(self.hub, self.tables, self.lobby, self.events, self.chat)
        self.decider = Decider(settings, self.tables)  # the computer players' choices, in worker processes
        self.hints = Hints(settings, self.tables, self.decider, self.fanout)  # "what would the computer do?"
        self.sockets = RoomSockets(settings, sessions, self.hub, self.tables, self.presence, self.actions, self.chat,
                                   self.hints)
        self.bots = BotDriver(settings, sessions, self.tables, self.actions, self.decider)
        self.cleanup = Cleanup(settings, sessions, self.hub, self.tables, self.presence, self.lobby,
                               self.bots.busy_rooms, self.fanout)
        self.timers = TurnTimers(settings, sessions, self.tables, self.actions, self.decider,
                                 shared=self.fanout.shared)
        self.affinity = Affinity(self.hub)  # a room's routed sockets in one process (fanout/affinity.py)
        self.remote = RemoteChanges(db, self.hub, self.tables, self.lobby, self.chat, self.affinity)
        self.notice = Notice(settings, sessions, self.hub, self.fanout)  # the host's (admin page)
        self.reviews = Reviews(settings, sessions, self.hub, self.fanout)  # every finished game's review
        self.sockets.greet = self.lobby.greet = self.notice.greet
        # Who reacts to what: the lobby, the other processes, then the computer players.
        self.events.subscribe(RoomChanged, self.lobby.on_room_changed)
        self.events.subscribe(RoomChanged, lambda e: self.fanout.notify("r", e.code))
        self.events.subscribe(RoomChanged, self.bots.on_room_changed)
        self.events.subscribe(ActionApplied, self.bots.on_action_applied)
        self.events.subscribe(PresenceChanged, lambda e: self.fanout.notify("p", e.code, e.seats))
        self.events.subscribe(PresenceChanged, self.bots.on_presence_changed)
        self.events.subscribe(RoomChanged, self.mine.on_event)
        self.events.subscribe(RoomChanged, self.reviews.kick)  # a game ended here: its review is due
        self.events.subscribe(ActionApplied, self.mine.on_event)
        # The turn timers of one process rest until the next deadline: every change that may set one wakes them.
        self.events.subscribe(ActionApplied, self.timers.on_action_applied)
        self.events.subscribe(RoomChanged, self.timers.on_room_changed)
        self.events.subscribe(PresenceChanged, self.timers.on_room_changed)
        self._background: list[asyncio.Task] = []

    async def _remote_changes(self, changes: dict[str, set[str]]) -> None:
        if changes.pop(NOTICE_CODE, None) is not None:
            await self.notice.on_remote()
        if any("r" in kinds for kinds in changes.values()):  # a game may have ended there: its review is due
            self.reviews.kick()
        for code in [c for c, kinds in changes.items() if "v" in kinds]:  # a review's progress there
            await self.reviews.on_remote(code)
            changes[code].discard("v")
            if not changes[code]:
                del changes[code]
        await self.remote.on_changes(changes)
        for code in changes:  # "My games" lists holding these rooms are sent again
            self.mine.mark(code)

    @property
    def settings(self) -> Settings:
        """The settings this process was started with."""
        return self._settings

    @property
    def sessions(self) -> async_sessionmaker[AsyncSession]:
        """The database sessions (one per HTTP request: app/deps.py)."""
        return self._sessions

    @property
    def admission(self) -> Admission:
        """The connection limits of room WebSockets (sockets/handshake.py; the app's `AdmissionGate`)."""
        return self.sockets.admission

    # ------------------------------------------------------------ lifespan
    async def settle_clocks(self) -> None:
        """Before anyone is served: the time no server ran off the turn clocks (computer/downtime.py).
        A failure (the database away, say) is one warning line; the turn timers then settle
        before they look for anything due."""
        try:
            await self.timers.settle()
        except Exception as exc:
            self.timers.outage.failed(exc, "taking the servers' downtime off the turn clocks")

    async def start(self, listen_timeout_s: float = 5.0) -> None:
        """Start the background tasks (lifespan): the lobby feed and the fan-out's listener
        (waited for up to `listen_timeout_s`, so a fresh process misses nothing)."""
        self._background.append(asyncio.get_running_loop().create_task(self.lobby.run(), name="lobby"))
        self._background.append(asyncio.get_running_loop().create_task(self.timers.run(), name="turn-timers"))
        self._background.append(asyncio.get_running_loop().create_task(self.mine.run(), name="mine"))
        self._background.append(asyncio.get_running_loop().create_task(self.notice.run(), name="notice"))
        self._background.append(asyncio.get_running_loop().create_task(self.reviews.run(), name="reviews"))
        await self.fanout.start(listen_timeout_s)

    async def resume(self) -> None:
        """After a (re)start: let computer players continue in every game that is theirs to move."""
        await self.bots.resume()

    async def cleanup_once(self) -> None:
        """One round of upkeep (room/cleanup.py)."""
        await self.cleanup.once()

    async def cleanup_loop(self) -> None:
        """Upkeep every `cleanup_interval_s` seconds until cancelled (room/cleanup.py)."""
        await self.cleanup.loop()

    async def close(self) -> None:
        """Close every connection, stop the background tasks and the computer players (shutdown)."""
        for task in self._background:
            task.cancel()
        if self._background:  # bounded: a loop that does not end must not hold the shutdown
            done, stuck = await asyncio.wait(self._background, timeout=BACKGROUND_STOP_S)
            for task in stuck:
                log.error("background task %s did not end within %.0f s of its cancel", task.get_name(),
                          BACKGROUND_STOP_S)
            for task in done:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    task.result()
        self._background.clear()
        await self.timers.close()
        await self.fanout.close()
        with contextlib.suppress(Exception):  # store when rooms were last watched
            async with self.sessions() as session:
                await self.presence.store_idle(session)
                await session.commit()
        self.bots.shutdown()
        self.decider.shutdown()
        await self.reviews.close()
        await self.committer.close()
        for conn in [c for conns in self.hub.rooms.values() for c in conns] + list(self.hub.lobby) \
                + self.mine.connections():
            conn.drop(1001, "server shutting down")

    async def tell_restarting(self, notice: dict) -> list[Connection]:
        """The graceful stop's drain (app/shutdown.py): take every room's lock (an action being
        applied finishes, committed and sent, first), stop the computer players, and queue
        `notice` on every room and lobby connection after what it was already due. → the
        connections told (the caller flushes and closes them)."""
        told: list[Connection] = []
        async with self.tables.hold_all():
            self.bots.shutdown()
            self.decider.shutdown()
            for conns in list(self.hub.rooms.values()):
                told.extend(c for c in conns if not c.closed)
            told.extend(c for c in self.hub.lobby if not c.closed)
            told.extend(c for c in self.mine.connections() if not c.closed)
            for conn in told:
                conn.send(notice)
        return told

    # ----------------------------------------------------------- endpoints
    async def serve_room(self, ws: WebSocket, raw_code: str) -> None:
        """A room WebSocket from handshake to close (sockets/endpoint.py)."""
        await self.sockets.serve(ws, raw_code)

    async def serve_lobby(self, ws: WebSocket) -> None:
        """The lobby feed WebSocket (lobby.py)."""
        await self.lobby.serve(ws)

    async def serve_mine(self, ws: WebSocket) -> None:
        """The "My games" WebSocket (mine.py)."""
        await self.mine.serve(ws)

    # ------------------------------------------------------- for the routes
    def connected_seats(self, code: str) -> set[int]:
        """Seats of a room with a live connection here or in another process."""
        return self.publisher.connected_seats(code)

    def watched_seats(self) -> set[tuple[str, int]]:
        """(code, seat) of every seat with a connection here whose page is visible (it did not
        send `{"type": "visible", "visible": false}` last): notifications skip them (app/notify/).
        `Hub.watched_seats`: read-only."""
        return self.hub.watched_seats()

    async def gauges(self) -> dict:
        """What a metrics scrape reads now (app/metrics.py `Gauges`): {"rooms": {status: n} (the
        database's, every process's rooms), "sockets": {"seat", "spectator", "lobby", "mine": n}
        (this process's open connections), "pool": database connections checked out here}."""
        async with self._sessions() as session:
            rooms = dict((await session.execute(select(Room.status, func.count()).group_by(Room.status))).all())
        conns = [c for cs in self.hub.rooms.values() for c in cs if not c.closed]
        seated = sum(1 for c in conns if c.seat is not None)
        pool = self._sessions.kw["bind"].sync_engine.pool
        return {"rooms": rooms, "pool": pool.checkedout() if hasattr(pool, "checkedout") else 0,
                "sockets": {"seat": seated, "spectator": len(conns) - seated, "lobby": len(self.hub.lobby),
                            "mine": len(self.mine.connections())}}

    def review_due(self) -> None:
        """A finished game's review was made pending (GET .../review of an older game): this
        process's review worker looks for it now (reviews.py)."""
        self.reviews.kick()

    def on_action_applied(self, handler) -> None:
        """Call `handler(code)` after every action this process committed (app/notify/: a nudge)."""
        self.events.subscribe(ActionApplied, lambda e: handler(e.code))

    def summary(self, room: Room, you: int | None) -> dict:
        """Room summary with presence from every process's connections."""
        return self.publisher.summary(room, you)

    def seat_presence(self, room: Room, seat: int) -> SeatPresence:
        """What this process knows of `seat`'s connections in `room` (read under its lock)."""
        code = room.code
        return SeatPresence(self.connected_seats(code), self.hub.offline_for(code, seat),
                            self.hub.since_start(code, seat, room.created_at), self.hub.connected_for(code, seat))

    async def lobby_rooms(self, session: AsyncSession | None = None) -> list[dict]:
        """The open public rooms now (app/lobby.py), in `session` or a session of its own."""
        return await self.lobby.rooms(session)

    def change(self, raw_code: str, *, release: AsyncSession | None = None) -> AbstractAsyncContextManager[Held]:
        """`async with live.change(code) as held:` an HTTP change of a room's seats or status,
        under its lock (`Tables.change`): `held.room` read there, changed through
        `held.session` without committing; on leaving it is committed and the room's
        connections, the lobby, the other processes and the computer players are told."""
        return self.tables.change(raw_code, release=release)

    async def room_created(self, code: str, public: bool) -> None:
        """A room was created (and committed): a public one shows up in the lobby, here and in
        the other processes."""
        if public:
            await self.events.publish(RoomChanged(code, "waiting", public))

    async def act(self, code: str, seat: int, action_id: str, version: int, action: dict, **kw) -> bool:
        """Apply one action exactly once (Actions.act)."""
        return await self.actions.act(code, seat, action_id, version, action, **kw)

    # ------------------------------------------------------ the admin page
    async def close_room(self, raw_code: str) -> None:
        """The server's host closes a room for everyone (app/routes/admin.py): deleted under its
        lock through `Tables.change` (its seats, log, games and chat go with it: ON DELETE
        CASCADE); every connection to it here gets `room_closed` and is closed, the other
        processes hear `r` and do the same (fanout/remote.py), the lobby and "My games" drop
        it. Raises `RoomGone` (404 `room_not_found`) for a code of no room."""
        async with self.change(raw_code) as held:
            await held.session.execute(delete(Room).where(Room.id == held.room.id))

    def notice_out(self) -> dict | None:
        """The maintenance notice shown now (`Notice.out`), None when there is none."""
        return self.notice.out()

    async def set_notice(self, restart_at, text: str | None) -> None:
        """Store and show the host's notice (`restart_at` UTC or None, `text` or None; both
        None: clear it) on every table and lobby connection of every process (notice.py)."""
        await self.notice.save(None if restart_at is None and text is None else Shown(restart_at, text))
