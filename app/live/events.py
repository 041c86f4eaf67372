"""What happened to a room, told to whoever listens (the lobby feed, the other processes, the
computer players), so that the code changing a room never calls into them.

`Events.publish` runs the handlers subscribed to that event's class in subscription order;
a failing handler is logged and does not stop the others. Handlers may be plain functions or
coroutine functions.
"""
from __future__ import annotations

import inspect
import logging
from dataclasses import dataclass
from typing import Any, Callable

log = logging.getLogger("osaka.events")


@dataclass(frozen=True)
class RoomChanged:
    """A room's seats or status changed and was committed (created, joined, a computer player
    added or removed, the start, a seat handed to a computer player, or the room closed by the
    server's host: `status` "closed"). `started`: this change started the game."""
    code: str
    status: str
    public: bool
    started: bool = False


@dataclass(frozen=True)
class ActionApplied:
    """An action was committed at `version`; `has_bots`: some seat is a computer player's."""
    code: str
    version: int
    has_bots: bool


@dataclass(frozen=True)
class PresenceChanged:
    """The seats with a live connection in this process changed (`seats`: the ones now)."""
    code: str
    seats: frozenset[int]


class Events:
    """A tiny synchronous-or-async observer list per event class."""

    def __init__(self) -> None:
        self._handlers: dict[type, list[Callable[[Any], Any]]] = {}

    def subscribe(self, kind: type, handler: Callable[[Any], Any]) -> None:
        """Call `handler(event)` for every published event of class `kind`."""
        self._handlers.setdefault(kind, []).append(handler)

    async def publish(self, event: Any) -> None:
        """Tell every handler of `type(event)`, in subscription order (awaiting coroutines)."""
        for handler in self._handlers.get(type(event), ()):
            try:
                result = handler(event)
                if result is not None and inspect.isawaitable(result):  # (None: a plain function's)
                    await result
            except Exception:
                log.exception("handler of %s failed", type(event).__name__)
