"""The in-memory cache of one room's game, loaded from the database (snapshot + action log).

The database is the truth: before each action the table catches up with any actions another
process committed (`Table.sync`) by reading the room's stored snapshot and the new log rows
(app/live/store.py). Nothing is replayed through the engine: a table holds exactly what was
committed, whichever process or release committed it.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

import engine

from ..models import Room
from . import store

log = logging.getLogger("osaka.table")


#: The events a seat may see (`visible_to` null or that seat; spectator: null only). The engine
#: owns this rule next to `player_view`, so hidden information is removed in one place.
visible = engine.visible_events


class Table:
    """One room's game: state, version (= actions applied) and the events of each action."""

    def __init__(self, code: str, room_id: int):
        self.code = code
        self.room_id = room_id
        self.lock = asyncio.Lock()
        self.state: Any = None          # engine.GameState, or None before the start
        self.version = 0
        self.events: list[list[dict]] = []   # events[v - 1] = events of action v
        # (seat, id) of the actions applied: the exactly-once check is per seat.
        self.action_ids: set[tuple[int, str]] = set()
        self.seed: int | None = None
        # seat → level of the computer players, as last read with the room's seats under the
        # lock (`note_seats`); None = not known here (the action path then reads the room).
        self.bot_levels: dict[int, str] | None = None

    def note_seats(self, room: Any) -> None:
        """Remember which seats are computer players' from `room` read with its seats (under
        the room's lock); `forget_seats` when they may have changed without such a read."""
        self.bot_levels = {s.seat: s.bot_level for s in room.seats if s.bot_level is not None}

    def forget_seats(self) -> None:
        """The seats may have changed (elsewhere): the next action reads them again."""
        self.bot_levels = None

    async def sync(self, session: AsyncSession, room: Room) -> list[tuple[int, list[dict]]]:
        """Catch up with the database: load the stored snapshot when the game moved on.

        `room` is the room row as read now (a `Room` or any row with `seed` and `version`); when
        it is at the table's version nothing is read. Otherwise the snapshot (seed, version,
        state: one statement) and the log rows after the table's version up to the snapshot's
        are read, so state, events and `action_ids` all stand at the snapshot's version.

        Returns the (version, events) of the actions loaded now (committed elsewhere, or the
        whole game on the first load). Raises RuntimeError when the stored log has a gap."""
        same_game = self.state is not None and self.seed == room.seed
        if room.seed is None or (same_game and room.version <= self.version):
            # Equal: nothing new. Lower: `room` was read before our last commit (the log only grows).
            if room.seed is None:
                self._reset(None)
            return []
        snap = await store.read_snapshot(session, self.room_id)
        if snap is None or snap.seed is None:
            self._reset(None)
            return []
        if snap.state is None:
            raise RuntimeError(f"room {self.code}: the game has no stored state")
        if not (self.state is not None and self.seed == snap.seed):
            self._reset(snap.seed)
        if self.state is not None and snap.version <= self.version:
            return []
        rows = await store.read_log(session, self.room_id, self.version, snap.version)
        caught = []
        for row in rows:
            self.events.append(row.events)
            self.action_ids.add((row.seat, row.action_id))
            caught.append((row.version, row.events))
        self.state, self.version = store.load_state(snap.state), snap.version
        return caught

    def _reset(self, seed: int | None) -> None:
        """Forget the game (another one, or none yet)."""
        self.state, self.version, self.events, self.seed = None, 0, [], seed
        self.action_ids = set()

    def applied(self, state: Any, version: int, seat: int, action_id: str, events: list[dict]) -> None:
        """Record an action this process committed (the table is then at `version`)."""
        self.state, self.version = state, version
        self.events.append(events)
        self.action_ids.add((seat, action_id))

    def history(self, seat: int | None) -> list[dict]:
        """All past events of the game that `seat` may see, in order."""
        return [e for events in self.events for e in visible(events, seat)]

    def view(self, seat: int | None) -> dict:
        """`engine.player_view` for that seat (None = spectator)."""
        return engine.player_view(self.state, seat)

    def state_message(self, seat: int | None) -> dict:
        """The `state` frame for that seat (docs/protocol.md): version and view, and once the
        game is over `result` = `engine.game_result` (public then: every VP total is shown)."""
        msg = {"type": "state", "version": self.version, "view": self.view(seat)}
        if self.state.phase == "over":
            msg["result"] = engine.game_result(self.state, [e for evs in self.events for e in evs])
        return msg
