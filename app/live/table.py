"""The in-memory cache of one room's game, rebuilt from the database (seed + action log).

The database is the truth: before each action the table catches up with any actions another
process committed (`Table.sync`), by replaying them through `engine.play`.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

import engine

from ..models import ActionRow, Room

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

    async def sync(self, session: AsyncSession, room: Room) -> list[tuple[int, list[dict]]]:
        """Catch up with the database: new game on the start, replay actions after `version`.

        `room` is the room row as read now (a `Room` or any row with `seed`, `num_players` and
        `version`). Afterwards `action_ids` holds the (seat, id) of every action up to `room.version`.

        Returns the (version, events) of the actions replayed now (committed elsewhere)."""
        if room.seed is None:
            self.state, self.version, self.events, self.seed = None, 0, [], None
            self.action_ids = set()
            return []
        if self.state is None or self.seed != room.seed:
            self.state = engine.new_game(room.num_players, room.seed)
            self.seed, self.version, self.events, self.action_ids = room.seed, 0, [], set()
        if room.version <= self.version:
            # Equal: nothing new. Lower: `room` was read before our last commit (the log only grows).
            return []
        caught: list[tuple[int, list[dict]]] = []
        rows = (await session.scalars(
            select(ActionRow).where(ActionRow.room_id == self.room_id,
                                    ActionRow.version > self.version)
            .order_by(ActionRow.version))).all()
        for row in rows:
            if row.version != self.version + 1:
                raise RuntimeError(f"room {self.code}: action log has a gap at {row.version}")
            self.state, events = engine.play(self.state, row.seat, row.action)
            self.version = row.version
            self.events.append(events)
            self.action_ids.add((row.seat, row.action_id))
            caught.append((row.version, events))
        return caught

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
