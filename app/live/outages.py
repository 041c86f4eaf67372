"""A periodic task meeting a database outage: one warning line, not a traceback.

`unavailable(exc)` is app/db.py's `database_unavailable`, which once missed what SQLAlchemy 2.1
hands on as a plain `DBAPIError` (a connection refused while PostgreSQL shuts down, SQLSTATE
57P03, or one it cut, 57P01): the turn timers' loop then logged it with a 146-line traceback
every time it looked.

`OutageLog` is what such a loop logs: a warning of one line when the database first fails
(then at most one every `REPEAT_S` while it stays unavailable), an info line when it answers
again, and anything else with its traceback (that one is a bug).
"""
from __future__ import annotations

import logging
import time

from ..db import database_unavailable, error_chain

REPEAT_S = 60.0   # while the database stays unavailable, one more warning this often

#: What counts as an outage: app/db.py's `database_unavailable` (which also reads the driver's
#: error behind a plain `DBAPIError`: SQLSTATE 57P03 while PostgreSQL shuts down, 57P01).
unavailable = database_unavailable


def describe(error: BaseException) -> str:
    """`Type: message` of the innermost cause of `error`, on one line (for the warning)."""
    inner = error
    for e in error_chain(error):
        inner = e
    text = " ".join(str(inner).split())
    if len(text) > 200:
        text = text[:197] + "..."
    return f"{type(inner).__name__}: {text}" if text else type(inner).__name__


class OutageLog:
    """What one periodic task (`what`, e.g. "turn timers") logs when a round fails."""

    def __init__(self, logger: logging.Logger, what: str, repeat_s: float = REPEAT_S):
        self.log = logger
        self.what = what
        self.repeat_s = repeat_s
        self.down_since: float | None = None   # monotonic time of the outage's first failure
        self._warned_at = 0.0

    def failed(self, error: BaseException, doing: str) -> None:
        """A round failed while `doing` (e.g. "looking for time-outs"): an outage gets a
        warning of one line (the first, then one every `repeat_s`); anything else its traceback."""
        if not unavailable(error):
            self.log.error("%s failed", doing, exc_info=error)
            return
        now = time.monotonic()
        if self.down_since is None:
            self.down_since = self._warned_at = now
            self.log.warning("%s: the database is unavailable (%s); %s tries again by itself",
                             doing, describe(error), self.what)
        elif now - self._warned_at >= self.repeat_s:
            self._warned_at = now
            self.log.warning("%s: the database is still unavailable after %.0f s (%s)",
                             doing, now - self.down_since, describe(error))

    def succeeded(self) -> None:
        """A round went through: after an outage, one info line saying so."""
        if self.down_since is not None:
            self.log.info("%s: the database answers again (unavailable for %.1f s)", self.what,
                          time.monotonic() - self.down_since)
            self.down_since = None
