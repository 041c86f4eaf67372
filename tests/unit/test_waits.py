"""Timed waits never lose a cancellation (app/waits.py): the race that held CI until its time
limit (a background loop kicked in the same turn as it was cancelled at shutdown went round again,
and `Live.close()` waited for it forever, tests/unit/test_timers.py), and the rule that app/
waits only through app/waits.py."""
from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import pytest

from app.waits import wait_event, within

APP = Path(__file__).resolve().parents[2] / "app"


async def _kicked_and_cancelled_in_one_turn(wait) -> asyncio.Task:
    """A loop like Reviews.run / Notifier.run (wait for a kick or the poll, go round again),
    kicked and cancelled in the same turn of the event loop → the task, given 2 s to end."""
    kick = asyncio.Event()

    async def loop() -> None:
        while True:
            await wait(kick)
            kick.clear()

    task = asyncio.create_task(loop())
    await asyncio.sleep(0.01)  # it waits now
    kick.set()
    task.cancel()
    await asyncio.wait({task}, timeout=2)
    return task


def test_a_kick_in_the_turn_of_the_cancel_does_not_keep_the_loop_alive():
    async def scenario():
        return await _kicked_and_cancelled_in_one_turn(lambda ev: wait_event(ev, 30))
    task = asyncio.run(scenario())
    assert task.done() and task.cancelled()


def test_the_race_is_real_with_asyncio_wait_for_on_3_11():
    """The same loop with `asyncio.wait_for` keeps running on 3.11 (which is why app/ does not
    use it); from 3.12 on `wait_for` is built on `asyncio.timeout` and ends."""
    async def old(ev: asyncio.Event) -> None:
        try:
            await asyncio.wait_for(ev.wait(), 30)
        except TimeoutError:
            pass

    async def scenario():
        task = await _kicked_and_cancelled_in_one_turn(old)
        alive = not task.done()
        task.cancel()
        await asyncio.wait({task}, timeout=2)
        return alive
    assert asyncio.run(scenario()) is (sys.version_info < (3, 12))


def test_wait_event_and_within_time_out_and_return():
    async def scenario():
        ev = asyncio.Event()
        assert await wait_event(ev, 0.05) is False
        ev.set()
        assert await wait_event(ev, 0.05) is True
        assert await within(asyncio.sleep(0, result=7), 1) == 7
        with pytest.raises(TimeoutError):
            await within(asyncio.sleep(5), 0.05)
    asyncio.run(scenario())


def test_app_waits_with_a_time_limit_only_through_app_waits():
    users = [f"{p.relative_to(APP)}:{n}" for p in APP.rglob("*.py") if p.name != "waits.py"
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"\bwait_for\(", line)]
    assert not users, f"asyncio.wait_for loses cancellations on 3.11: use app/waits.py in {users}"


def test_live_close_goes_on_without_a_background_loop_that_does_not_end(settings, monkeypatch, caplog):
    """The whole kind of fault, bounded: a background loop that ignores its cancel (as the
    review loop did through wait_for) costs the shutdown BACKGROUND_STOP_S and an error line,
    never the process."""
    from app.live import service

    from inprocess import running
    monkeypatch.setattr(service, "BACKGROUND_STOP_S", 0.5)
    let_go = asyncio.Event()

    async def stubborn() -> None:
        while not let_go.is_set():
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                continue

    async def scenario() -> float:
        async with running(settings) as (live, _http):
            task = asyncio.create_task(stubborn(), name="stubborn")
            live._background.append(task)
            await asyncio.sleep(0.01)  # it runs: a task cancelled before its first step just ends
            began = asyncio.get_running_loop().time()
        took = asyncio.get_running_loop().time() - began
        let_go.set()
        task.cancel()
        await asyncio.wait({task}, timeout=2)
        return took

    took = asyncio.run(scenario())
    assert 0.4 < took < 3, took
    assert any("stubborn" in r.getMessage() and "did not end" in r.getMessage() for r in caplog.records)
