"""Waiting with a time limit without ever losing a cancellation: the one place that does it.

On Python 3.11 `asyncio.wait_for(aw, timeout)` swallows a cancellation that arrives in the same
turn of the event loop as the awaited thing's completion (CPython gh-86296, fixed in 3.12 by
rebuilding it on `asyncio.timeout`): the cancelled task gets the result instead of
CancelledError. A background loop such as "compute what is due, then wait for a kick or the
poll" is kicked by every action; cancelled at shutdown in the turn a kick came, it went round
again and `Live.close()` waited for it forever (tests/unit/test_timers.py held CI until its
time limit). Every timed wait of the server goes through `wait_event` or `within` below, which use
`asyncio.timeout` (3.11+, cancellation-safe: a time-out is told from an outside cancellation
by `Task.uncancel()`); tests/unit/test_waits.py checks the race and that app/ has no other
`asyncio.wait_for`.
"""
from __future__ import annotations

import asyncio
from typing import Awaitable, TypeVar

T = TypeVar("T")


async def wait_event(event: asyncio.Event, timeout_s: float) -> bool:
    """Wait until `event` is set, at most `timeout_s` seconds → True when it was set, False on
    the time-out. A cancellation of the waiting task is always raised (CancelledError), also
    when the event was set in the same turn."""
    try:
        async with asyncio.timeout(timeout_s):
            await event.wait()
        return True
    except TimeoutError:
        return False


async def within(aw: Awaitable[T], timeout_s: float) -> T:
    """`await aw`, cancelled after `timeout_s` seconds → its result; raises TimeoutError on the
    time-out, what `aw` raised otherwise, and CancelledError when the waiting task is cancelled
    (never swallowed, unlike `asyncio.wait_for` on 3.11)."""
    async with asyncio.timeout(timeout_s):
        return await aw


__all__ = ["wait_event", "within"]
