"""`shutdown_step` (app/shutdown.py): a step of the lifespan's shutdown that overruns is
logged once, by name, with the stack it waits in; a quick one logs nothing; neither is cut off."""
from __future__ import annotations

import asyncio
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
