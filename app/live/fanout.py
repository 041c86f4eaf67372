"""Cross-process fan-out: how one server process tells the others that a room changed.

`Fanout` is the interface the rest of app/live uses (no caller asks which one it has):

- `LocalFanout`: one process (SQLite, or a single PostgreSQL server) — nothing to tell;
- `PgFanout` (pg_fanout.py): several `osaka serve` on one PostgreSQL database, over
  LISTEN/NOTIFY.

The composition root (service.py) picks one from the database URL.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Awaitable, Callable

from sqlalchemy import bindparam, update
from sqlalchemy.ext.asyncio import AsyncSession

from ..models import Room

_ROOMS = Room.__table__
#: Optimistic concurrency (the action's commit): 0 rows when another process committed this
#: version first. Parameters: room_id, old_version, new_version, new_status, and the game's
#: snapshot after the action: state, to_act, turn_at, deadline_at (store.snapshot_values). This
#: version check is also what decides between a player's decision and its time-out
#: (app/live/timers.py): both move the room from the same version, only one can.
BUMP_VERSION = (update(_ROOMS)
                .where(_ROOMS.c.id == bindparam("room_id"), _ROOMS.c.version == bindparam("old_version"))
                .values(version=bindparam("new_version"), status=bindparam("new_status"),
                        state=bindparam("state", type_=_ROOMS.c.state.type),
                        to_act=bindparam("to_act", type_=_ROOMS.c.to_act.type),
                        turn_at=bindparam("turn_at", type_=_ROOMS.c.turn_at.type),
                        deadline_at=bindparam("deadline_at", type_=_ROOMS.c.deadline_at.type)))

def describe_error(error: BaseException) -> str:
    """`Type: message` of the driver's error (SQLAlchemy's `orig`, else `error` itself) on one
    line, at most 200 characters of its message: what a warning about a broken or unreachable
    database says instead of a traceback."""
    inner = getattr(error, "orig", None) or error
    text = " ".join(str(inner).split())
    if len(text) > 200:
        text = text[:197] + "..."
    return f"{type(inner).__name__}: {text}" if text else type(inner).__name__


#: Called with {room code: kinds} when other processes changed rooms (kinds ⊆ {"g", "r", "p", "c"}),
#: what was heard since the last call, coalesced per room (app/live/remote.py).
RemoteBatch = Callable[[dict[str, set[str]]], Awaitable[None]]


class Fanout(ABC):
    """What this process tells the other processes, and what it heard from them."""

    #: Other processes may change the rooms too (then only the database knows a room's seats).
    shared = False

    async def start(self, listen_timeout_s: float = 5.0) -> None:
        """Begin hearing the others (lifespan start); waits up to `listen_timeout_s`."""

    async def close(self) -> None:
        """Stop hearing the others (shutdown)."""

    @abstractmethod
    async def bump_version(self, session: AsyncSession, code: str, params: dict) -> bool:
        """Inside an action's transaction: move room `params["room_id"]` from `old_version` to
        `new_version` (and `new_status`). False when another process got there first. The
        others hear of the action only if, and when, the transaction commits."""

    async def bump_versions(self, conn, bumps: list[tuple[str, dict]]) -> bool | None:
        """Several rooms' `bump_version` (code, params) in one statement, if this fan-out and
        the driver can tell that every one of them moved: True all did, False some did not (the
        caller rolls back), None not supported here (the caller does them one by one)."""
        return None

    def action_notice(self, code: str) -> str | None:
        """The payload of the notification an action of room `code` sends when it commits
        (pg_fanout.py); None when there is nobody to tell."""
        return None

    async def notify(self, kind: str, code: str, seats: set[int] | frozenset[int] | None = None) -> None:
        """Tell the others, after a commit: `kind` "r" (room changed) or "p" (presence: `seats`
        connected here). Never raises."""

    def remote_seats(self, code: str) -> set[int]:
        """Seats of room `code` with a live connection in another process."""
        return set()

    def remote_codes(self) -> set[str]:
        """Rooms with a seat connected in another process, as last heard (`remote_seats` is
        the one that drops what expired)."""
        return set()


class LocalFanout(Fanout):
    """A single process: nobody else to tell or hear."""

    async def bump_version(self, session: AsyncSession, code: str, params: dict) -> bool:
        return (await session.execute(BUMP_VERSION, params)).rowcount == 1

    async def bump_versions(self, conn, bumps: list[tuple[str, dict]]) -> bool | None:
        if not conn.dialect.supports_sane_multi_rowcount:
            return None
        return (await conn.execute(BUMP_VERSION, [params for _, params in bumps])).rowcount == len(bumps)

