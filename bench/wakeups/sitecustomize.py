"""The event-loop probe of `bench/load.py --wakeups` (and `bench/floor.py --wakeups`): loaded
into the server by Python's `site` module when this directory is on its PYTHONPATH.

It counts every callback the asyncio event loop runs (`asyncio.Handle._run`: a task's step, an
I/O callback, a timer), named by what it runs (a task by its coroutine, e.g.
`task:Notify.run`), and the CPU time of this thread spent in each (`time.thread_time`: user and
system time, not the wall time a descheduled process waits). SIGUSR1 starts the count afresh,
SIGUSR2 writes it as JSON to `<tmp>/osaka-wakeups.<pid>.json`: {"elapsed": s, "cpu": process CPU
s, "counts": {name: n}, "cpu_s": {name: s}}. load.py sends the two signals at the start and the
end of its measured window.

The loop must be asyncio's own, whose callbacks are Python objects: uvloop's are not (the
`uvloop.py` beside this file makes uvicorn fall back to asyncio). So the figures are those of
an asyncio loop with the probe's overhead (~1 µs per callback): for comparing two servers, or
one server before and after a change, under the same probe — not for absolute CPU figures.
"""
import asyncio.events
import collections
import json
import os
import signal
import tempfile
import time

_counts: collections.Counter = collections.Counter()
_cpu: collections.Counter = collections.Counter()
_since = [time.monotonic(), time.process_time()]
_run = asyncio.events.Handle._run
_clock = time.thread_time


def _name(callback) -> str:
    owner = getattr(callback, "__self__", None)
    if owner is not None and hasattr(owner, "get_coro"):  # a task's step or wake-up
        coro = owner.get_coro()
        return "task:" + getattr(coro, "__qualname__", type(coro).__name__)
    name = getattr(callback, "__qualname__", None)
    if name is None and hasattr(callback, "func"):  # functools.partial
        name = "partial:" + getattr(callback.func, "__qualname__", repr(callback.func))
    return name or type(callback).__name__


def _counted_run(self):
    name = _name(self._callback)
    began = _clock()
    try:
        return _run(self)
    finally:
        _counts[name] += 1
        _cpu[name] += _clock() - began


def _start(*_):
    _counts.clear()
    _cpu.clear()
    _since[:] = [time.monotonic(), time.process_time()]


def _write(*_):
    out = {"elapsed": time.monotonic() - _since[0], "cpu": time.process_time() - _since[1],
           "counts": dict(_counts.most_common()), "cpu_s": {k: _cpu[k] for k in _counts}}
    path = os.path.join(tempfile.gettempdir(), f"osaka-wakeups.{os.getpid()}.json")
    with open(path + ".part", "w") as f:
        json.dump(out, f)
    os.replace(path + ".part", path)


asyncio.events.Handle._run = _counted_run
signal.signal(signal.SIGUSR1, _start)
signal.signal(signal.SIGUSR2, _write)
