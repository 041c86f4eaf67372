"""`shutdown_step` (app/shutdown.py): a step of the lifespan's shutdown that overruns is
logged once, by name, with the stack it waits in; a quick one logs nothing; neither is cut off."""
from __future__ import annotations

import asyncio
import contextlib
import logging

from app.shutdown import shutdown_step


async def _stuck_in_here(s: float) -> None:
    await asyncio.sleep(s)


def test_an_overrunning_step_is_logged_with_where_it_waits_and_a_quick_one_is_not(caplog):
    async def scenario():
        async with shutdown_step("quick", warn_s=0.2):
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)
        async with shutdown_step("live", warn_s=0.1):
            await _stuck_in_here(0.35)
        return "ended"

    with caplog.at_level(logging.INFO, logger="osaka.shutdown"):
        assert asyncio.run(scenario()) == "ended"
    lines = [r for r in caplog.records if r.getMessage() == "shutdown_step_slow"]
    assert len(lines) == 1
    fields = lines[0].fields
    assert lines[0].levelno == logging.ERROR and fields["step"] == "live" and fields["s"] >= 0.1
    assert "_stuck_in_here (unit/test_shutdown_step.py:" in fields["waiting_in"]


def test_a_step_in_a_lifespan_context_managers_exit_is_followed_into_the_step(caplog):
    """The lifespan is an `asynccontextmanager`: its shutdown runs in the generator, which the
    `__aexit__` awaits through an `asend`/`athrow` object that shows no frame (the first real
    hang's line stopped at contextlib's `__aexit__`)."""

    @contextlib.asynccontextmanager
    async def lifespan():
        try:
            yield
        finally:
            async with shutdown_step("live", warn_s=0.1):
                await _stuck_in_here(0.3)

    async def scenario():
        async with lifespan():
            pass

    with caplog.at_level(logging.INFO, logger="osaka.shutdown"):
        asyncio.run(scenario())
    lines = [r for r in caplog.records if r.getMessage() == "shutdown_step_slow"]
    assert len(lines) == 1
    where = lines[0].fields["waiting_in"]
    assert where.startswith("scenario (") and "lifespan (unit/test_shutdown_step.py:" in where, where
    assert where.index("lifespan (") < where.index("_stuck_in_here (unit/test_shutdown_step.py:"), where
