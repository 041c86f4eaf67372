"""Cross-process fan-out: how one server process tells the others that a room changed.

`Fanout` is the interface the rest of app/live uses (no caller asks which one it has):

- `LocalFanout`: one process (SQLite, or a single PostgreSQL server) — nothing to tell;
- `PgFanout` (postgres.py): several `osaka serve` on one PostgreSQL database, over
  LISTEN/NOTIFY.

The composition root (app/live/service.py) picks one from the database URL.
"""
from __future__ import annotations

from abc import ABC
from typing import Awaitable, Callable

#: Called with {room code: kinds} when other processes changed rooms (kinds ⊆ {"g", "r", "p", "a", "c", "h", "v"}),
#: what was heard since the last call, coalesced per room (app/live/fanout/remote.py).
RemoteBatch = Callable[[dict[str, set[str]]], Awaitable[None]]


class Fanout(ABC):
    """What this process tells the other processes, and what it heard from them."""

    #: Other processes may change the rooms too (then only the database knows a room's seats).
    shared = False

    async def start(self, listen_timeout_s: float = 5.0) -> None:
        """Begin hearing the others (lifespan start); waits up to `listen_timeout_s`."""

    async def close(self) -> None:
        """Stop hearing the others (shutdown)."""

    def action_notice(self, code: str) -> str | None:
        """The payload of the notification an action of room `code` sends when it commits
        (postgres.py; the action store puts it in the storing statement, app/store/postgres.py);
        None when there is nobody to tell."""
        return None

    async def notify(self, kind: str, code: str, seats: set[int] | frozenset[int] | None = None) -> None:
        """Tell the others, after a commit: `kind` "r" (room changed), "h" (a hint given:
        app/live/hints.py), "v" (a review's progress: app/live/reviews.py) or "p" (presence: `seats` connected here). Never raises."""

    def remote_seats(self, code: str) -> set[int]:
        """Seats of room `code` with a live connection in another process."""
        return set()

    def remote_codes(self) -> set[str]:
        """Rooms with a seat connected in another process, as last heard (`remote_seats` is
        the one that drops what expired)."""
        return set()


class LocalFanout(Fanout):
    """A single process: nobody else to tell or hear."""
