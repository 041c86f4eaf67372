"""The action path, top to bottom in this module: room lock → version check → `engine.play` →
commit → every seat told through its player view. A person's action comes from their room
socket (sockets/endpoint.py: the frame read and checked by sockets/frames.py), a computer
player's from computer/; both enter at `Actions.act`.

1. `Actions.act` notes the attempt (attempt.py) and applies it (`_apply`);
2. `_apply` takes the room's lock (`Tables.hold`), brings the table up to date only when it
   may be behind (`Held.sync`), refuses a seat its connection no longer holds, duplicates and
   stale versions, and asks the engine (`engine.action_from_json`, `engine.play`; refusals
   carry `IllegalAction.code`);
3. the action is stored and the room's version moved through the group commit
   (commits.py: the actions of many rooms in one transaction; optimistic: another process may
   have committed that version first: `_lost_race`);
4. the new events and state go to every connection, each through its seat's player view
   (`Held.publish`); after the lock `ActionApplied` is published (computer players react).

An action is committed before anyone hears of it. Beside it: attempt.py (one action's log line,
refusal and rows), timeouts.py (what a time-out's decision adds), commits.py (the group commit).
"""
from __future__ import annotations

import logging
import time

from sqlalchemy import select

import engine

from ... import metrics, records
from ...config import Settings
from ...db import database_unavailable
from ...models import ActionRow
from ...refusals import Refusal
from ...store import games as store
from ..events import ActionApplied, Events, RoomChanged
from ..fanout.base import Fanout
from ..room.held import Held
from ..room.lock import Tables
from ..room.publish import Update
from ..room.table import Table
from ..sockets.connection import Connection
from . import timeouts
from .attempt import Attempt, NotABotSeat, action_rows
from .commits import Committer, Pending

__all__ = ["Actions", "NotABotSeat"]
log = logging.getLogger("osaka.live")


class Actions:
    """Applies actions exactly once, for people (their room socket: sockets/endpoint.py) and
    computer players (computer/), all through `act`."""

    def __init__(self, settings: Settings, tables: Tables, fanout: Fanout, events: Events, committer: Committer):
        self.settings = settings
        self.committer = committer
        self.tables = tables
        self.fanout = fanout
        self.events = events

    async def act(self, code: str, seat: int, action_id: str, version: int, action: dict, *,
                  reply: Connection | None = None, bot_level: str | None = None,
                  timed_out: bool = False) -> bool:
        """Apply one action exactly once; True when it was applied.

        Refusals go to `reply` as `error` frames: `stale_version`, `game_not_started`, the
        engine's `IllegalAction.code`, `unavailable` (the database cannot be reached: nothing
        was stored, the socket stays open, sending the same id again later is safe); an
        `action_id` this seat already used gets the current state instead (ids are unique per
        seat, not per room: docs/protocol.md).
        A computer player's action (`bot_level` set) raises `NotABotSeat` if the seat is no
        longer played by a computer player of that level when the action would be stored
        (its player took it back, here or in another process; logged once, here).
        `timed_out`: the decision a computer player made for a person's seat at its deadline
        (computer/timers.py; timeouts.py): applied only while the room is still at `version`, that seat is
        a person's and its deadline has passed, with a `timed_out` event first in its events.
        It and the person's own decision move the room from the same version (the commit's
        `UPDATE … WHERE version = :v`): exactly one counts."""
        table = self.tables.get(code)
        if table is None:
            return False
        attempt = Attempt(code, seat, action_id, version, action, reply, bot_level is not None or timed_out)
        attempt.timed_out = timed_out
        try:
            applied = await self._apply(table, attempt, bot_level)
        except Exception as exc:
            if not database_unavailable(exc):
                raise
            if attempt.committed is None:  # nothing stored, nobody told
                return attempt.refuse(Refusal("unavailable"))
            # Committed and sent to everyone; only what came after (the room summary) failed.
            log.warning("the database went away after action %s of room %s was committed",
                        attempt.committed.version, code)
            applied = attempt.committed
        if not applied:  # refused (False)
            return False
        attempt.note("applied", applied.version)
        await self.events.publish(applied)
        if attempt.handed_over is not None:
            await self.events.publish(attempt.handed_over)
        if attempt.archived is not None:
            await self.events.publish(attempt.archived)
        return True

    async def _apply(self, table: Table, attempt: Attempt, bot_level: str | None) -> ActionApplied | bool:
        """`act` under the room's lock: → the event to publish, or False when refused."""
        seat, action_id, version = attempt.seat, attempt.action_id, attempt.version
        async with self.tables.hold(table) as held:
            # Hot path (docs/performance.md): no read at all when the table is in play and knows
            # its computer players: the version check in the commit is what guarantees that the
            # table was current (a table behind the database loses it: `_lost_race` catches up).
            if table.state is None or not table.seats_known() or attempt.timed_out:
                news = await held.sync()   # the room with its seats; the table caught up
                held.publish(news)         # what was committed elsewhere goes out first
                room = news.room
                if room is None:
                    return attempt.refuse(Refusal("room_not_found"))
                if room.seed is None:
                    return attempt.refuse(Refusal("game_not_started"))
            # A person's frame counts only while its connection holds the seat now (the seats
            # as read under this lock: a seat that changed hands was taken from it already).
            if attempt.reply is not None and not attempt.reply.holds(seat, table.holders):
                return attempt.refuse(Refusal("not_seated"))
            if (seat, action_id) in table.action_ids:
                return self._duplicate(attempt, held)
            if version != table.version:
                return attempt.refuse(Refusal("stale_version", version=table.version, sent=version))
            if table.paused_at is not None:  # the host paused the game (app/pace.py): nothing counts
                return attempt.refuse(Refusal("game_paused"))
            if bot_level is not None and not self._still_the_bot(held, seat, bot_level):
                raise attempt.not_a_bot()
            if attempt.timed_out and not timeouts.past_deadline(held, seat):
                return attempt.refuse(Refusal("not_timed_out"))
            try:
                parsed = engine.action_from_json(attempt.action)
                new_state, events = engine.play(table.state, seat, parsed)
            except engine.IllegalAction as exc:
                return attempt.refuse(Refusal(exc.code, exc.message))
            if attempt.timed_out:
                events = timeouts.marked(seat, events)
            new_version = table.version + 1
            clock = store.clock_values(new_state, table.turn_limit_s, away_until=table.away.get(new_state.to_act))
            # Several processes: the seat's controller is checked again in the storing
            # transaction, with its row locked (app/store/), so a take-back committed by another
            # process at any moment before is seen.
            pending = Pending(table.code, *action_rows(table, seat, action_id, parsed.to_json(), new_state, events,
                                                       clock),
                              bot=(seat, bot_level) if bot_level is not None and self.fanout.shared else None)
            await held.end_transaction()  # hold no connection while the writer needs one (SQLite has one)
            if not await self.committer.commit(pending):
                if pending.not_a_bot:
                    raise attempt.not_a_bot()
                return await self._lost_race(held, attempt)
            metrics.COMMITTED.observe(time.perf_counter() - attempt.start)
            table.applied(new_state, new_version, seat, action_id, events, clock)
            if attempt.timed_out and timeouts.hand_over_due(held, seat):
                attempt.handed_over = await timeouts.hand_over(held, seat)
            attempt.committed = ActionApplied(attempt.code, new_version, bool(table.bot_levels))
            held.publish(Update(caught=[(new_version, events)]))  # each seat's events and state
            if engine.is_over(new_state):
                # Stored as its `games` row first, so the summary's standings count it.
                await self._compact(held, attempt)
            if (engine.is_over(new_state) or attempt.handed_over is not None) and held.watched():
                held.publish(await held.sync(), summary=True)  # the room as committed now
        return attempt.committed

    @staticmethod
    async def _compact(held: Held, attempt: Attempt) -> None:
        """After a game's last action, under the lock: the finished game is stored as its
        `games` row and its action rows go (`records.compact_finished`: ~51 KB → ~11 KB on
        SQLite, docs/performance.md "Stored size of a game"), the room's standings count it
        (app/standings.py); the other processes hear of it (`attempt.archived`: their summary
        may have been read before). The action is committed and sent already; a failure here
        only leaves the rows (a rematch archives the game then)."""
        try:
            if await records.compact_finished(held.session, held.table.room_id):
                await held.session.commit()
                attempt.archived = RoomChanged(held.table.code, "over", False)
        except Exception as exc:
            await held.session.rollback()
            if not database_unavailable(exc):
                log.exception("compacting the finished game of room %s failed", held.table.code)

    def _still_the_bot(self, held: Held, seat: int, level: str) -> bool:
        """Under the room's lock: is `seat` still played by the computer player of `level` that
        chose the action? One process: the table knows (every seat change here goes through
        this lock and refreshes `Table.bot_levels`). Several processes (PostgreSQL): a seat may
        change in another one at any moment, so this is decided in the storing transaction
        instead, against the seat's row (`Pending.bot`, app/store/): True here."""
        if self.fanout.shared:
            return True
        return bool(held.table.bot_levels) and held.table.bot_levels.get(seat) == level

    async def _lost_race(self, held: Held, attempt: Attempt) -> bool:
        """Another process committed first: catch up and answer like a late client."""
        news = await held.sync()
        held.publish(news)
        if news.room is None:
            return attempt.refuse(Refusal("room_not_found"))
        table = held.table
        if table.paused_at is not None:  # paused meanwhile (the commit's version move refuses a paused room)
            return attempt.refuse(Refusal("game_paused"))
        dup = await held.session.scalar(select(ActionRow.id).where(
            ActionRow.room_id == table.room_id, ActionRow.seat == attempt.seat,
            ActionRow.action_id == attempt.action_id))
        if dup is not None:
            return self._duplicate(attempt, held)
        return attempt.refuse(Refusal("stale_version", f"The game is at version {table.version}."))

    @staticmethod
    def _duplicate(attempt: Attempt, held: Held) -> bool:
        """An id this seat already used: the current state instead of a refusal."""
        attempt.note("duplicate")
        if attempt.reply is not None:
            held.publish(Update(), game="state", to=[attempt.reply])
        return False

