"""Hints on request (docs/protocol.md "Hints"): in a room whose host allows them, the seat whose
decision it is may ask "what would the computer do?".

- The frame `{"type": "hint", "version": V}` (an optional `id`, echoed in a refusal) of a
  seated connection (sockets/endpoint.py).
  Refused (an `error` frame) unless its connection holds the seat now (`not_seated`), the room
  allows hints (`hints_off`), the game runs (`game_not_started`, `game_over`) and is not paused
  (`game_paused`), `V` is the game's version (`stale_version`) and the decision is that seat's
  (`not_your_turn`); `hint_failed` when the search failed (nothing is counted then).
- In a "Learn to play" room (app/tutorial.py) the hint is the tutorial's move instead
  (`Decider.suggest_tutorial`: the normal player seeded by the view, why `{"code": "tutorial"}`),
  the move its computer players' play was prepared with.
- The hint is the hard computer player's choice for exactly what a computer player in that
  seat would get: its player view and the events it may see (`Table.view`, `Table.history`),
  searched in the decider's worker processes for `HINT_BUDGET_S` (`Decider.suggest`, never on
  the event loop). One hint per decision: it is stored (`hints`, unique per game and version)
  before anyone hears of it, and asking again for the same decision, also after a restart,
  answers the stored hint without counting it again.
- The answer `{"type": "hint", "version", "seat", "action", "why"}` goes to that seat's
  connections only; everyone gets the public `hint_used` log event (who, never what) and the
  state again, whose `hints` counts every seat's hints (`Table.state_message`).

With several server processes the one that stored the hint tells the others (fanout kind "h"):
they read the game's hints again (`Held.sync`), their connections hear the log line and the
counts, and the seat's connections there get the hint too (fanout/remote.py).
"""
from __future__ import annotations

import asyncio
import logging

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

import engine

from ..config import Settings
from ..models import HintRow, utcnow
from ..refusals import Refusal
from .computer.decide import Decider
from .fanout.base import Fanout
from .room.lock import RoomGone, Tables
from .room.publish import Update
from .room.table import hint_event, hint_frame
from .sockets.connection import Connection

log = logging.getLogger("osaka.hints")
#: The seconds a hint's search may think (at most; BOT_TIME_BUDGET_S when that is shorter).
HINT_BUDGET_S = 1.0


class Hints:
    """The `hint` frames of this process's room connections (module docstring)."""

    def __init__(self, settings: Settings, tables: Tables, decider: Decider, fanout: Fanout):
        self.settings = settings
        self.fanout = fanout
        self.tables = tables
        self.decider = decider
        # (room, seed, version) → the search running for that decision (a second ask waits for it)
        self._running: dict[tuple[str, int, int], asyncio.Task] = {}

    @property
    def budget_s(self) -> float:
        """The hint's thinking time in seconds."""
        return min(HINT_BUDGET_S, self.settings.bot_time_budget_s)

    async def on_frame(self, conn: Connection, msg: dict) -> None:
        """One `hint` frame of a seated connection: check, find or search, store, answer."""
        try:
            found = await self._ask(conn, msg["version"])
            if isinstance(found, dict):  # this decision's hint, already given
                return conn.send(found)
            key, view, history, tutorial = found
            task = self._running.get(key)
            if task is None:
                search = (self.decider.suggest_tutorial(view, history) if tutorial
                          else self.decider.suggest(view, history, self.budget_s))
                task = asyncio.get_running_loop().create_task(search)
                self._running[key] = task
                task.add_done_callback(lambda _t, k=key: self._running.pop(k, None))
            try:
                hint = await asyncio.shield(task)
            except Exception:
                log.exception("the hint's search failed (room %s, seat %s)", conn.room, conn.seat)
                return conn.send(Refusal("hint_failed").frame(msg.get("id")))
            if await self._store(conn, key, hint):
                await self.fanout.notify("h", conn.room)  # the other processes' tables read it (fanout/remote.py)
        except Refusal as refusal:  # RoomGone too
            conn.send(refusal.frame(msg.get("id")))

    async def _ask(self, conn: Connection, version: int):
        """Under the room's lock, the table caught up: the checks of the module docstring → the
        stored hint frame of this decision, or ((room, seed, version), view, history, tutorial) to
        search (`tutorial`: a "Learn to play" room, whose hint is the tutorial's move)."""
        async with self.tables.hold(conn.room) as held:
            news = await held.sync()
            held.publish(news)
            room, table = news.room, held.table
            if room is None:
                raise RoomGone()
            seat = conn.seat
            if seat is None or not conn.holds(seat, table.holders):
                raise Refusal("not_seated")
            if not room.hints:
                raise Refusal("hints_off")
            if room.seed is None or table.state is None:
                raise Refusal("game_not_started")
            if engine.is_over(table.state):
                raise Refusal("game_over")
            if table.paused_at is not None:
                raise Refusal("game_paused")
            if version != table.version:
                raise Refusal("stale_version", version=table.version, sent=version)
            if table.state.to_act != seat:
                raise Refusal("not_your_turn", "It is not your decision.")
            if version in table.hints:
                return hint_frame(version, table.hints[version])
            # Exactly what a computer player in this seat gets (computer/bots.py `_one_turn`).
            return (conn.room, table.seed, version), table.view(seat), table.history(seat), table.tutorial

    async def _store(self, conn: Connection, key: tuple[str, int, int], hint: dict) -> bool:
        """Under the room's lock: store the hint of decision `key` once, tell everyone that it
        was used (the log event, the state with the counts) and the seat's connections what it
        says → True when this call stored it. A decision made meanwhile: `stale_version`, nothing
        stored."""
        _, seed, version = key
        stored = False
        async with self.tables.hold(conn.room) as held:
            table = held.table
            await held.know_seats()
            if table.seed != seed or table.version != version or table.paused_at is not None:
                raise Refusal("stale_version", version=table.version, sent=version)
            if version not in table.hints:
                seat = table.state.to_act
                try:
                    await held.session.execute(insert(HintRow.__table__).values(
                        room_id=table.room_id, seed=seed, version=version, seat=seat, action=hint["action"],
                        why=hint["why"], created_at=utcnow()))
                    await held.session.commit()
                    stored = True
                    table.hints[version] = {"seat": seat, "action": hint["action"], "why": hint["why"]}
                    held.publish(Update(caught=[(version, [hint_event(seat)])]))  # everyone: used, not what
                except IntegrityError:  # another process gave this decision's hint first: that one counts
                    await held.session.rollback()
                    row = (await held.session.execute(select(HintRow.seat, HintRow.action, HintRow.why).where(
                        HintRow.room_id == table.room_id, HintRow.seed == seed, HintRow.version == version))).one()
                    table.hints[version] = {"seat": row.seat, "action": row.action, "why": row.why}
            frame = hint_frame(version, table.hints[version])
            held.tell_seat(frame["seat"], frame)
        return stored

