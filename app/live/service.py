"""`Live`, the composition root of the live part: builds the pieces of app/live and wires them.

Who does what (each a small module; docs/architecture.md follows one action through them):

- `Hub` (hub.py): the connections of this process; `Connection` queues frames per socket.
- `Tables` (tables.py): the tables (table.py) and `hold`/`change`, the only way into a room's lock.
- `Broadcaster` (broadcast.py): room summaries and game frames, through the player view.
- `Actions` (actions.py): the action path, frame → commit → fan-out; `Committer` (commits.py):
  the group commit of the actions of many rooms.
- `Chat` (chat.py): the room's chat messages, stored with the room.
- `RoomSockets` (sockets.py; handshake.py; admission.py: connection limits), `Presence`
  (presence.py), `LobbyFeed` (lobby.py).
- `Fanout` (fanout.py; pg_fanout.py): telling and hearing other processes.
- `Decider` (decide.py: a computer player decides for a seat, in a worker process, with the
  fallback), used by `BotDriver` (bots.py) and `TurnTimers` (timers.py: time-outs); `Cleanup`
  (cleanup.py), `RemoteChanges` (remote.py).
- `Events` (events.py): `RoomChanged`, `ActionApplied`, `PresenceChanged` → lobby, fan-out, bots.

The HTTP routes and the app's lifespan use `Live`'s methods below; nothing else reaches in.
"""
from __future__ import annotations

import asyncio
import contextlib
from contextlib import AbstractAsyncContextManager
from typing import NamedTuple

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.websockets import WebSocket

from ..config import Settings
from ..lobby import present_people
from ..models import Room
from .actions import Actions
from .admission import Admission
from .bots import BotDriver
from .broadcast import Broadcaster
from .chat import Chat
from .cleanup import Cleanup
from .commits import Committer
from .decide import Decider
from .events import ActionApplied, Events, PresenceChanged, RoomChanged
from .fanout import Fanout, LocalFanout
from .hub import Hub
from .lobby import LobbyFeed
from .pg_fanout import PgFanout
from .presence import Presence
from .remote import RemoteChanges
from .sockets import RoomSockets
from .hub import Connection
from .tables import Held, Tables
from .timers import TurnTimers


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
        self.broadcaster = Broadcaster(self.hub, settings, self.fanout)
        self.tables = Tables(sessions, self.broadcaster, self.events)
        self.lobby = LobbyFeed(settings, sessions, self.hub, lambda: present_people(
            set(self.hub.rooms) | self.fanout.remote_codes(), self.broadcaster.connected_seats))
        db = sessions.kw["bind"]  # the AsyncEngine behind the sessions
        self.committer = Committer(db, self.fanout)
        self.chat = Chat(settings, self.tables, self.hub, self.fanout)
        self.actions = Actions(settings, self.tables, self.fanout, self.events, self.committer, self.chat)
        self.presence = Presence(self.hub, self.tables, self.lobby, self.events, self.chat)
        self.sockets = RoomSockets(settings, sessions, self.hub, self.tables, self.presence, self.actions)
        self.decider = Decider(settings, self.tables)  # the computer players' choices, in worker processes
        self.bots = BotDriver(settings, sessions, self.tables, self.actions, self.decider)
        self.cleanup = Cleanup(settings, sessions, self.hub, self.tables, self.presence, self.lobby, self.bots,
                               self.fanout)
        self.timers = TurnTimers(settings, sessions, self.tables, self.actions, self.decider)
        self.remote = RemoteChanges(db, self.hub, self.tables, self.lobby, self.chat)
        # Who reacts to what: the lobby, the other processes, then the computer players.
        self.events.subscribe(RoomChanged, self.lobby.on_room_changed)
        self.events.subscribe(RoomChanged, lambda e: self.fanout.notify("r", e.code))
        self.events.subscribe(RoomChanged, self.bots.on_room_changed)
        self.events.subscribe(ActionApplied, self.bots.on_action_applied)
        self.events.subscribe(PresenceChanged, lambda e: self.fanout.notify("p", e.code, e.seats))
        self.events.subscribe(PresenceChanged, self.bots.on_presence_changed)
        self._background: list[asyncio.Task] = []

    async def _remote_changes(self, changes: dict[str, set[str]]) -> None:
        await self.remote.on_changes(changes)

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
        """The connection limits of room WebSockets (admission.py; the app's `AdmissionGate`)."""
        return self.sockets.admission

    # ------------------------------------------------------------ lifespan
    async def settle_clocks(self) -> None:
        """Before anyone is served: the time no server ran off the turn clocks (downtime.py).
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
        await self.fanout.start(listen_timeout_s)

    async def resume(self) -> None:
        """After a (re)start: let computer players continue in every game that is theirs to move."""
        await self.bots.resume()

    async def cleanup_once(self) -> None:
        """One round of upkeep (cleanup.py)."""
        await self.cleanup.once()

    async def cleanup_loop(self) -> None:
        """Upkeep every `cleanup_interval_s` seconds until cancelled (cleanup.py)."""
        await self.cleanup.loop()

    async def close(self) -> None:
        """Close every connection, stop the background tasks and the computer players (shutdown)."""
        for task in self._background:
            task.cancel()
        for task in self._background:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._background.clear()
        await self.timers.close()
        await self.fanout.close()
        with contextlib.suppress(Exception):  # store when rooms were last watched
            async with self.sessions() as session:
                await self.presence.store_idle(session)
                await session.commit()
        self.bots.shutdown()
        self.decider.shutdown()
        await self.committer.close()
        for conn in [c for conns in self.hub.rooms.values() for c in conns] + list(self.hub.lobby):
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
            for conn in told:
                conn.send(notice)
        return told

    # ----------------------------------------------------------- endpoints
    async def serve_room(self, ws: WebSocket, raw_code: str) -> None:
        """A room WebSocket from handshake to close (sockets.py)."""
        await self.sockets.serve(ws, raw_code)

    async def serve_lobby(self, ws: WebSocket) -> None:
        """The lobby feed WebSocket (lobby.py)."""
        await self.lobby.serve(ws)

    # ------------------------------------------------------- for the routes
    def connected_seats(self, code: str) -> set[int]:
        """Seats of a room with a live connection here or in another process."""
        return self.broadcaster.connected_seats(code)

    def summary(self, room: Room, you: int | None) -> dict:
        """Room summary with presence from every process's connections."""
        return self.broadcaster.summary(room, you)

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
