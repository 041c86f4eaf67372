"""Frames out to a room's connections, every one built through the engine's player view.

Every game frame is made from `engine.player_view` for the receiving connection's seat
(`Table.view`) and from events filtered by `visible_to` (`Table.history`, `visible`), so hidden
information is removed in one place (docs/engine.md). Sending never waits: frames are queued
per connection (hub.py).
"""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload

from .. import rooms as R
from ..config import Settings
from ..models import Room
from .fanout import Fanout
from .hub import Connection, Hub, dumps
from .table import Table, visible


def state_frame(table: Table, seat: int | None, clock: dict | None = None) -> dict:
    """A `state` frame for `seat` (`Table.state_message`: its player view, the result once over)
    with the turn clock (`Table.clock`)."""
    return {**table.state_message(seat), "clock": clock if clock is not None else table.clock()}


class Broadcaster:
    """Room summaries and game frames for the connections of this process (`hub`)."""

    def __init__(self, hub: Hub, settings: Settings, fanout: Fanout):
        self.hub = hub
        self.settings = settings
        self.fanout = fanout

    # ------------------------------------------------------------- presence
    def connected_seats(self, code: str) -> set[int]:
        """Seats of a room with a live connection here or in another process."""
        return self.hub.connected_seats(code) | self.fanout.remote_seats(code)

    def summary(self, room: Room, you: int | None) -> dict:
        """The room summary (`RoomOut`, app/rooms.py) with presence from every process."""
        return R.summary(room, self.connected_seats(room.code), you,
                         lambda n: self.hub.offline_for(room.code, n), self.settings.handover_after_s,
                         R.turn_limits(self.settings.turn_limit_test_s),
                         lambda n: self.hub.since_start(room.code, n, room.created_at),
                         lambda n: self.hub.connected_for(room.code, n))

    async def broadcast_room(self, session: AsyncSession, code: str) -> None:
        """Send the room summary, as committed now, to every connection of the room."""
        conns = self.hub.of(code)
        if not conns:
            return
        room = await session.scalar(select(Room).where(Room.code == code)
                                    .options(selectinload(Room.seats)).execution_options(populate_existing=True))
        if room is not None:
            self.send_room(room)

    def send_room(self, room: Room) -> None:
        """Send the summary of `room` (read under its lock) to every connection of the room."""
        base = self.summary(room, None)
        for conn in self.hub.of(room.code):
            conn.send(self._room_frame(base, room.code, conn))

    @staticmethod
    def _room_frame(base: dict, code: str, conn: Connection) -> dict:
        """The `room` frame of summary `base` for `conn` (its seat as `you`, its URL prefix)."""
        return {"type": "room", "room": {**base, "you": conn.seat, "url": R.room_url(code, conn.root)}}

    # ---------------------------------------------------------- seat rights
    def unseat_stale(self, table: Table, room: Room | None = None) -> list[int]:
        """The one step that ends a seat's rights on this process's connections, run whenever
        the room's seats were just read under its lock (`Held.read_room`, `Held.know_seats`,
        `Tables._announce`; a change made in another process arrives that way too, through
        `RemoteChanges.on_change`): every connection whose seat is no longer held by the token
        it connected with (`table.holders`: a person left, a seat was freed and taken by
        someone else, a token replaced) becomes a spectator's at once and is sent, in this
        order, `{"type": "seat_lost", "seat": n}`, the room summary with `you: null` (when
        `room`, read with its seats, is given), and a spectator's history and state. Nothing
        of that seat's hand or VPs reaches it afterwards: every later frame is built for its
        new seat, None (docs/protocol.md "Who holds a seat"). → the seats that lost a
        connection here (for `PresenceChanged`)."""
        holders = table.holders
        if holders is None:
            return []
        stale = [c for c in self.hub.of(table.code) if c.seat is not None and not c.holds(c.seat, holders)]
        lost = [self.hub.unseat(conn) for conn in stale]
        base = self.summary(room, None) if stale and room is not None else None  # presence as it is now
        for conn, seat in zip(stale, lost):
            conn.send({"type": "seat_lost", "seat": seat})
            if base is not None:
                conn.send(self._room_frame(base, room.code, conn))  # `you` is None now
            self.send_sync(conn, table)
        return lost

    # ----------------------------------------------------------------- game
    def send_sync(self, conn: Connection, table: Table) -> None:
        """History, then state, to one connection (on connect, and when a game starts)."""
        if table.state is None:
            return
        conn.send({"type": "history", "version": table.version, "events": table.history(conn.seat)})
        conn.send(state_frame(table, conn.seat))

    def send_state(self, conn: Connection, table: Table) -> None:
        """The current state to one connection."""
        if table.state is not None:
            conn.send(state_frame(table, conn.seat))

    def broadcast_game(self, table: Table, actions: list[tuple[int, list[dict]]]) -> None:
        """For each (version, events): the events filtered per seat; then the current state.
        Frames are built once per seat and shared by that seat's connections."""
        if not actions:
            return
        frames: dict[int | None, list[str]] = {}
        clock = table.clock()
        for conn in self.hub.of(table.code):
            if conn.seat not in frames:
                out = [dumps({"type": "event", "version": v, "events": visible(ev, conn.seat)})
                       for v, ev in actions]
                out.append(dumps(state_frame(table, conn.seat, clock)))
                frames[conn.seat] = out
            for text in frames[conn.seat]:
                conn.send(text)

    async def catch_up(self, session: AsyncSession, table: Table, room) -> tuple[bool, list]:
        """`sync` then `tell`: the table brought up to `room` and the room's connections told.
        → (started, [(version, events) caught up])."""
        started, caught = await self.sync(session, table, room)
        self.tell(table, started, caught)
        return started, caught

    @staticmethod
    async def sync(session: AsyncSession, table: Table, room) -> tuple[bool, list]:
        """Bring `table` up to `room` as read now (`Table.sync`), telling nobody yet.
        → (the game has just started, [(version, events) of the actions committed elsewhere])."""
        started = table.state is None and room.seed is not None
        return started, await table.sync(session, room)

    def tell(self, table: Table, started: bool, caught: list) -> None:
        """After `sync`: history and state to every connection if the game has just started,
        else the events and state of the actions caught up."""
        if started:
            for conn in self.hub.of(table.code):
                self.send_sync(conn, table)
        else:
            self.broadcast_game(table, caught)
