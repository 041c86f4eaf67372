"""Frames out to a room's connections, every one built through the engine's player view.

`Publisher.publish` is the one way anything of a room reaches its connections here: the room
summary (`summary`, built in one place: app/rooms.py `summary` with every process's presence),
then the game, history, the events of new actions and the state. Every game frame is made for
the receiving connection's seat: `engine.player_view` (`Table.view`) and the events filtered by
`visible_to` (`Table.history`, `visible`), so hidden information is removed in one place
(docs/engine.md); each is built once per seat and shared by that seat's connections. Sending
never waits: frames are queued per connection (sockets/connection.py).
"""
from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from ... import pace, rooms as R
from ...config import Settings
from ...models import Room
from ..fanout.base import Fanout
from ..sockets.connection import Connection, Hub, dumps
from .table import Table, visible


def state_frame(table: Table, seat: int | None, clock: dict | None = None) -> dict:
    """A `state` frame for `seat` (`Table.state_message`: its player view, the result once over)
    with the turn clock (`Table.clock`)."""
    return {**table.state_message(seat), "clock": clock if clock is not None else table.clock()}


#: The last frame of a room the server's host closed (`Publisher.closed`).
ROOM_CLOSED = {"type": "room_closed"}


@dataclass
class Update:
    """What bringing a room up to date brought (`Held.sync`), for `Publisher.publish`: the room
    as read with its seats (None when none was read), whether its game has just started, and
    the (version, events) of the actions loaded now, committed elsewhere. `now`: the room's
    status and version read later than `room` (a connection's arrival reads only those under
    the lock: its summary says them)."""
    room: Room | None = None
    started: bool = False
    caught: list[tuple[int, list[dict]]] = field(default_factory=list)
    now: Any = None
    hints: list[int] = field(default_factory=list)  # versions of hints given elsewhere, read now


class Publisher:
    """Room summaries and game frames for the connections of this process (`hub`)."""

    def __init__(self, hub: Hub, settings: Settings, fanout: Fanout):
        self.hub = hub
        self.settings = settings
        self.fanout = fanout

    # ------------------------------------------------------------- presence
    def connected_seats(self, code: str) -> set[int]:
        """Seats of a room with a live connection here or in another process."""
        return self.hub.connected_seats(code) | self.fanout.remote_seats(code)

    def summary(self, room: Room, you: int | None, now: Any = None) -> dict:
        """The room summary (`RoomOut`, app/rooms.py) with presence from every process; `now`: a
        later read of the room's status and version (`Update.now`)."""
        out = R.summary(room, self.connected_seats(room.code), you,
                        lambda n: self.hub.offline_for(room.code, n), self.settings.handover_after_s,
                        R.turn_limits(self.settings.turn_limit_test_s),
                        lambda n: self.hub.since_start(room.code, n, room.created_at),
                        lambda n: self.hub.connected_for(room.code, n),
                        pace.turn_based_limits(self.settings.turn_based_test_s))
        if now is not None:
            out["status"], out["version"] = now.status, now.version
        return out

    # -------------------------------------------------------------- publish
    def publish(self, table: Table, news: Update, *, summary: bool = False,
                game: Literal["news", "history", "state"] = "news",
                to: Iterable[Connection] | None = None) -> None:
        """Tell the connections of `table`'s room here (`to`: only these) what `news` brought.

        Each connection gets, built for its seat now: the room summary of `news.room` when
        `summary` (its seat as `you`, its URL prefix); then the game (nothing before the start):
        `game="news"`: history and state when the game has just started (`news.started`), else
        the event frames of the actions caught up (their events visible to that seat) and the
        state after them, or nothing when none were; `"history"`: history and state (on connect,
        and to a connection that lost its seat); `"state"`: the state alone (an action id used
        twice)."""
        conns = self.hub.of(table.code) if to is None else list(to)
        if not conns:
            return
        base = self.summary(news.room, None, news.now) if summary and news.room is not None else None
        if game == "news" and news.started:
            game = "history"
        playing = table.state is not None and (game != "news" or bool(news.caught))
        clock = table.clock() if playing else None
        frames: dict[int | None, list[str]] = {}
        for conn in conns:
            if base is not None:
                conn.send(self._room_frame(base, news.room.code, conn))
            if not playing:
                continue
            if conn.seat not in frames:
                frames[conn.seat] = self._game_frames(table, conn.seat, game, news.caught, clock)
            for text in frames[conn.seat]:
                conn.send(text)

    def tell_seat(self, table: Table, seat: int, frame: dict) -> None:
        """`frame` to the connections here of `seat` alone, each only while its token holds
        the seat now (`Connection.holds`): a spectator or another seat never gets it."""
        text = dumps(frame)
        for conn in self.hub.of(table.code):
            if conn.seat == seat and table.holders is not None and conn.holds(seat, table.holders):
                conn.send(text)

    @staticmethod
    def _game_frames(table: Table, seat: int | None, game: str, caught: list, clock: dict | None) -> list[str]:
        """The game frames of `publish` for one seat, serialized (shared by its connections)."""
        if game == "history":
            out = [dumps({"type": "history", "version": table.version, "events": table.history(seat)})]
        elif game == "news":
            out = [dumps({"type": "event", "version": v, "events": visible(ev, seat)}) for v, ev in caught]
        else:
            out = []
        out.append(dumps(state_frame(table, seat, clock)))
        return out

    @staticmethod
    def _room_frame(base: dict, code: str, conn: Connection) -> dict:
        """The `room` frame of summary `base` for `conn` (its seat as `you`, its URL prefix)."""
        return {"type": "room", "room": {**base, "you": conn.seat, "url": R.room_url(code, conn.root)}}

    def closed(self, table: Table) -> int:
        """The room is gone from the database while connections here watch it (the server's
        host closed it: `Live.close_room`, or another process did): each gets
        `{"type": "room_closed"}` and is closed (1000 "room closed") once that was sent
        (docs/protocol.md). → how many were told."""
        conns = self.hub.of(table.code)
        for conn in conns:
            conn.send(ROOM_CLOSED)
            asyncio.get_running_loop().create_task(conn.finish(1000, "room closed"))
        return len(conns)

    # ---------------------------------------------------------- seat rights
    def unseat_stale(self, table: Table, room: Room | None = None) -> list[int]:
        """The one step that ends a seat's rights on this process's connections, run whenever
        the room's seats were just read under its lock (`Held.sync`, `Held.know_seats`; a change
        made in another process arrives that way too, through `RemoteChanges.on_change`): every
        connection whose seat is no longer held by the token it connected with (`table.holders`:
        a person left, a seat was freed and taken by someone else, a token replaced) becomes a
        spectator's at once and is sent, in this order, `{"type": "seat_lost", "seat": n}`, the
        room summary with `you: null` (when `room`, read with its seats, is given), and a
        spectator's history and state. Nothing of that seat's hand or VPs reaches it afterwards:
        every later frame is built for its new seat, None (docs/protocol.md "Who holds a seat").
        → the seats that lost a connection here (for `PresenceChanged`)."""
        holders = table.holders
        if holders is None:
            return []
        stale = [c for c in self.hub.of(table.code) if c.seat is not None and not c.holds(c.seat, holders)]
        lost = [self.hub.unseat(conn) for conn in stale]
        for conn, seat in zip(stale, lost):
            conn.send({"type": "seat_lost", "seat": seat})
        self.publish(table, Update(room=room), summary=True, game="history", to=stale)
        return lost
