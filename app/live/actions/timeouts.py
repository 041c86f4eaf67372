"""A time-out's decision on the action path: the decision a computer player made for a person's
seat at its deadline (computer/timers.py) counts only past that deadline, carries a `timed_out`
event first, and after TIMEOUTS_BEFORE_HANDOVER of them in a row the seat is handed to a
computer player until its player takes it back (docs/protocol.md) -- in a live room. In a
turn-based room each time-out decides that one decision and the seat stays its person's: a
person who sleeps through two decisions of hours comes back to their own seat, and the game
does not run on at computer speed meanwhile (docs/rules.md "Play across days")."""
from __future__ import annotations

import logging

from ... import rooms as R
from ...logs import log_event
from ...models import utcnow
from ...pace import TURN
from ..events import RoomChanged
from ..room.held import Held

log = logging.getLogger("osaka.live")
#: After this many time-outs of one seat in a row, the seat is handed to a computer player
#: (normal) until its player takes it back (computer/timers.py, docs/protocol.md).
TIMEOUTS_BEFORE_HANDOVER = 2
TIMEOUT_LEVEL = "normal"  # the computer player that decides at a time-out


def past_deadline(held: Held, seat: int) -> bool:
    """For a time-out (the room read under the lock just now): the game is on, `seat` is to
    act, is a person's, and its decision's deadline has passed by the server's clock (the game
    not paused: the action path refuses a paused game's actions before this, `game_paused`)."""
    table, room = held.table, held.room
    return (room is not None and room.status == "playing" and table.state is not None
            and table.state.to_act == seat and seat not in (table.bot_levels or {})
            and room.deadline_at is not None and room.deadline_at <= utcnow() and room.paused_at is None)


def marked(seat: int, events: list[dict]) -> list[dict]:
    """The events of a time-out's decision: `timed_out` first (public), then the action's."""
    return [{"type": "timed_out", "seat": seat, "visible_to": None}, *events]


def hand_over_due(held: Held, seat: int) -> bool:
    """After a time-out's decision was applied (the room read under the lock): `seat` has timed
    out TIMEOUTS_BEFORE_HANDOVER times in a row, in a live room (never in a turn-based one)."""
    room = held.room
    if room is None or room.pace == TURN:
        return False
    return held.table.timeouts_in_a_row(seat) >= TIMEOUTS_BEFORE_HANDOVER


async def hand_over(held: Held, seat: int) -> RoomChanged | None:
    """A computer player (TIMEOUT_LEVEL) plays `seat` until its player takes it back
    (R.take_seat_back). Committed here, under the lock; → the `RoomChanged` to publish after
    it (computer players, other processes, the lobby)."""
    room = held.room
    if not await R.seat_to_timeout_bot(held.session, held.table.room_id, seat, TIMEOUT_LEVEL):
        return None
    await held.session.commit()
    if held.table.bot_levels is not None:
        held.table.bot_levels = {**held.table.bot_levels, seat: TIMEOUT_LEVEL}
    log_event(log, "handover", room=held.table.code, seat=seat, by="timeout")
    return RoomChanged(held.table.code, "playing", bool(room is not None and room.public))
