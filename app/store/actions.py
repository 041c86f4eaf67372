"""Storing actions: the one call (`ActionStore.store`) and what every implementation shares.

`ActionStore.store(batch)` stores a batch of actions of any rooms (`Pending`, one per action)
and returns, in the batch's order, whether each was stored: False when its version check
failed (another process or a time-out moved the room first), its (seat, id) or version was
stored meanwhile (a unique constraint), or it is a computer player's action whose seat is no
longer that computer player's (`Pending.not_a_bot` is then set). The batch is ONE transaction
when nothing in it conflicts; otherwise its actions are stored one transaction each, with the
same statements, so one loser never costs the others. A database that cannot be used raises
SQLAlchemy's exceptions (app/db.py `database_unavailable` tells an outage). The rooms of a
batch are stored in the order of their ids: a global lock order, so two processes' batches
cannot deadlock on PostgreSQL.

The version move (`BUMP_VERSION`) is also what decides between a player's decision and its
time-out (app/live/computer/timers.py): both move the room from the same version, only one can.
"""
from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Callable

from sqlalchemy import bindparam, case, func, insert, null, update

from ..models import ActionRow, Room

_ROOMS = Room.__table__
_STATE = bindparam("state", type_=_ROOMS.c.state.type)  # JSON(none_as_null=True): None binds NULL
#: Optimistic concurrency: 0 rows when another process committed this version first.
#: Parameters: room_id, old_version, new_version, new_status, and the game after the action:
#: state (its full JSON when the snapshot is stored with this action, `games.snapshot_due`;
#: else None: the room keeps its snapshot, and `state_version` the version it is at), to_act,
#: turn_at, deadline_at (games.snapshot_values). app/store/postgres.py says the same in one
#: statement per batch.
BUMP_VERSION = (update(_ROOMS)
                .where(_ROOMS.c.id == bindparam("room_id"), _ROOMS.c.version == bindparam("old_version"),
                       _ROOMS.c.paused_at.is_(None))  # nothing counts while the host paused the game (app/pace.py)
                .values(version=bindparam("new_version"), status=bindparam("new_status"),
                        state=func.coalesce(_STATE, _ROOMS.c.state),
                        state_version=case((_STATE.is_(None), func.coalesce(_ROOMS.c.state_version,
                                                                            _ROOMS.c.version)), else_=null()),
                        to_act=bindparam("to_act", type_=_ROOMS.c.to_act.type),
                        turn_at=bindparam("turn_at", type_=_ROOMS.c.turn_at.type),
                        deadline_at=bindparam("deadline_at", type_=_ROOMS.c.deadline_at.type)))
#: The action row's INSERT.
INSERT_ACTION = insert(ActionRow.__table__)
#: The shapes of `Pending.row` and `Pending.bump` (app/live/actions/attempt.py `action_rows`).
ROW_KEYS = ("room_id", "version", "action_id", "seat", "action", "events", "created_at")
BUMP_KEYS = ("room_id", "old_version", "new_version", "new_status", "state", "to_act", "turn_at", "deadline_at")


def check_shapes(batch: list["Pending"]) -> None:
    """ValueError unless every action's `row` and `bump` have exactly the columns the stores
    write (`ROW_KEYS`, `BUMP_KEYS`): a column the statements do not know would be dropped."""
    for p in batch:
        if p.row.keys() != _ROW_SET or p.bump.keys() != _BUMP_SET:
            raise ValueError(f"an action of room {p.code} has columns the action store does not know")


_ROW_SET, _BUMP_SET = frozenset(ROW_KEYS), frozenset(BUMP_KEYS)
#: A notification's payload for an action of room `code` (the fan-out's), or None: nobody to tell.
Notice = Callable[[str], "str | None"]


@dataclass
class Pending:
    """One action to store: `code` (the room's, for its notification), `row` (the actions
    row's columns, `ROW_KEYS`) and `bump` (the version move's parameters, `BUMP_KEYS`); `bot`:
    (seat, level) when the action is a computer player's that may be stored only while that
    seat is still played by that level, as committed (checked in the storing transaction, the
    seat's row share-locked: a take-back in another process serializes with it)."""
    code: str
    row: dict
    bump: dict
    bot: tuple[int, str] | None = None
    done: asyncio.Future = field(default=None)  # type: ignore[assignment]  # (the group commit's)
    not_a_bot: bool = False  # set when refused because the seat is no longer that computer player's


class ActionStore(ABC):
    """Stores batches of actions in one database (module docstring)."""

    #: Transactions committed (for the benchmark's figures and the tests).
    transactions = 0

    @abstractmethod
    async def store(self, batch: list[Pending]) -> list[bool]:
        """Store `batch` (sorted here by room id) → one bool per action, in the batch's order
        after sorting: True stored, False refused (module docstring). Raises SQLAlchemy's
        exceptions for a database that cannot be used (nothing of the batch is then known to
        be stored), RuntimeError after `close`."""

    @abstractmethod
    async def close(self) -> None:
        """Give back every connection this store keeps; `store` raises RuntimeError afterwards."""
