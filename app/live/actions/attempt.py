"""One submitted action on the action path (path.py): its log line, its refusal, and the rows the
group commit stores for it (commits.py, app/store/actions.py)."""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any

import engine

from ... import metrics
from ...logs import action_kind, log_event
from ...models import utcnow
from ...refusals import Refusal
from ...store import games as store
from ..events import ActionApplied, RoomChanged
from ..room.table import Table
from ..sockets.connection import Connection

log = logging.getLogger("osaka.live")
#: The level of an applied action's log line (`Attempt.note`).
APPLIED_LEVEL = logging.DEBUG


class NotABotSeat(Refusal):
    """The refusal `not_a_bot_seat` (never sent, logged once): a computer player's action for a
    seat its player has taken back (`Actions.act`); its own class so that the bot driver
    catches exactly this refusal."""

    def __init__(self, seat: int, room: str):
        super().__init__("not_a_bot_seat", seat=seat, room=room)


@dataclass
class Attempt:
    """One submitted action, for its log line and its refusal."""
    code: str
    seat: int
    action_id: str
    version: int
    action: dict
    reply: Connection | None
    by_bot: bool
    start: float = field(default_factory=time.perf_counter)
    committed: ActionApplied | None = None  # set once the action is committed
    timed_out: bool = False                 # decided for its seat at a time-out (timeouts.py)
    handed_over: RoomChanged | None = None  # ... which handed the seat to a computer player
    archived: RoomChanged | None = None  # ... which ended the game, now stored in `games`

    def note(self, outcome: str, at: int | None = None) -> None:
        """One log line per action outcome: its type and outcome code, never its payload
        (app/logs.py), and `ms` since the action was submitted (waiting for the room's lock
        included; for an applied action, until its frames were queued for everyone). An
        applied action's line is at `debug`, every other outcome's (a refusal, a duplicate)
        at `info`: at `info` a busy server wrote one line per move (~8 GB a day at 1,000
        rooms) and spent ~10 % of its action path on it; the counts and latencies of applied
        actions are in /metrics (`osaka_actions_total`, `osaka_action_seconds`) at every level
        (docs/deploy.md "Logs")."""
        took = time.perf_counter() - self.start
        by = "timeout" if self.timed_out else "bot" if self.by_bot else "player"
        log_event(log, "action", APPLIED_LEVEL if outcome == "applied" else logging.INFO, room=self.code,
                  seat=self.seat, action=action_kind(self.action), version=self.version if at is None else at,
                  outcome=outcome, by=by, ms=round(took * 1000, 1))
        metrics.ACTIONS.labels(outcome=outcome, by=by).inc()
        if outcome == "applied":
            metrics.SENT.observe(took)

    def refuse(self, refusal: Refusal) -> bool:
        """Log and answer a refusal (its `error` frame with the action's id); → False (the
        action was not applied)."""
        self.note(refusal.code)
        if self.reply is not None:
            self.reply.send(refusal.frame(self.action_id))
        return False

    def not_a_bot(self) -> NotABotSeat:
        """Log the refusal `not_a_bot_seat` (once: the bot driver does not log it again) → the
        exception to raise."""
        self.note("not_a_bot_seat")
        return NotABotSeat(self.seat, self.code)


def action_rows(table: Table, seat: int, action_id: str, action: dict, new_state: Any,
                events: list[dict], clock: dict) -> tuple[dict, dict]:
    """The action's row and its version move (with the new state's snapshot when it is due,
    `store.snapshot_due`, else None; and the next decision's `clock`, turn_at and deadline_at:
    app/store/games.py) → (row, bump) of `Pending`
    (app/store/actions.py; stored through the group commit, commits.py; the other processes
    hear of it on commit)."""
    row = {"room_id": table.room_id, "version": table.version + 1, "action_id": action_id,
           "seat": seat, "action": action, "events": events, "created_at": utcnow()}
    bump = {"room_id": table.room_id, "old_version": table.version,
            "new_version": table.version + 1,
            "new_status": "over" if engine.is_over(new_state) else "playing",
            "state": new_state.to_json() if store.snapshot_due(table.version + 1, new_state) else None,
            "to_act": new_state.to_act, **clock}
    return row, bump
