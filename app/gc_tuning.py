"""The garbage collector of a serving process.

A server holds many long-lived objects: each WebSocket connection keeps ~250 of them (its
coroutine frames through the ASGI stack, queues, events, the websockets protocol), so 4,000
connected players are about a million objects. CPython's cyclic collector with its default
thresholds (700, 10, 10) collected the youngest generation every 700 allocations and all
generations every ~10 s at 1,000 rooms, each full collection visiting every object: 0.5–2 s
with the event loop stopped, ~25 % of the server's CPU and every move in that window late
(`bench/load.py --rooms 1000`: p99 1.1 s; docs/performance.md, "Garbage collection").

What the server does instead: no collection at all while its modules load (`app/cli.py`
disables the collector before its first import, which saves part of a start),
then, once everything is imported and the app is built (`tune`):
- `gc.freeze()` moves the objects alive at that moment (modules, classes, functions, the app:
  ~110,000 objects that live as long as the process) to the permanent generation, which no
  collection visits (https://docs.python.org/3/library/gc.html#gc.freeze);
- larger thresholds (`THRESHOLDS`): the young generation is collected every 20,000 net
  allocations of tracked objects instead of 700 (~10 ms each at 1,000 rooms), and a full
  collection is considered after 20 × 10 young ones, i.e. every few minutes under load (and,
  as always in CPython, done only once the objects promoted since the last one are 25 % of the
  long-lived ones). Objects freed by reference counting (nearly all) are unaffected; garbage
  in reference cycles (a closed connection leaves some) waits longer, bounded by that 25 %
  rule as before.
"""
from __future__ import annotations

import gc

#: (generation 0, 1, 2) thresholds of `gc.set_threshold` for a serving process.
THRESHOLDS = (20_000, 20, 10)


def tune() -> None:
    """Freeze what is alive, raise the thresholds and enable the collector (see the module
    docstring). Call once per serving process, after imports and `create_app`; never in a
    process that builds many apps (tests), whose earlier apps' cycles would never be collected.
    What is frozen is not collected first: a collection here would delay the first answer, and
    the garbage of the imports is a few thousand objects."""
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    gc.enable()
