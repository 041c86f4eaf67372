"""A periodic task meeting a database outage (issue 28): one warning line, not a traceback.

`unavailable(exc)` is app/db.py's `database_unavailable` plus what it does not see: SQLAlchemy
2.1 hands asyncpg's errors on as a plain `DBAPIError` (not `OperationalError`, its connection
not invalidated), the asyncpg error only its `__cause__`. So a connection refused while
PostgreSQL shuts down ("the database system is shutting down", SQLSTATE 57P03) or one it cut
(57P01 "terminating connection due to administrator command") was taken for a bug, and the turn
timers' loop logged it with a 146-line traceback every time it looked.

`OutageLog` is what such a loop logs: a warning of one line when the database first fails
(then at most one every `REPEAT_S` while it stays unavailable), an info line when it answers
again, and anything else with its traceback (that one is a bug).
"""
from __future__ import annotations

import logging
import time

from sqlalchemy import exc as sa_exc

from ..db import database_unavailable

REPEAT_S = 60.0   # while the database stays unavailable, one more warning this often
#: SQLSTATE classes of an unreachable database: 08 connection exception, 57P operator
#: intervention (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now, ...).
#: https://www.postgresql.org/docs/current/errcodes-appendix.html
_OUTAGE_SQLSTATES = ("08", "57P")


def _asyncpg_outages() -> tuple[type, ...]:
    try:
        import asyncpg  # noqa: PLC0415 - only with PostgreSQL
    except ImportError:  # pragma: no cover - asyncpg is a dependency
        return ()
    return (asyncpg.PostgresConnectionError, asyncpg.exceptions.OperatorInterventionError,
            asyncpg.ConnectionDoesNotExistError)


_ASYNCPG_OUTAGES = _asyncpg_outages()


def _chain(error: BaseException):
    """`error`, the driver error a SQLAlchemy error wraps (`orig`), and their causes."""
    seen: set[int] = set()
    todo = [error]
    while todo and len(seen) < 16:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        yield e
        todo.extend((getattr(e, "orig", None), e.__cause__))


def unavailable(error: BaseException) -> bool:
    """True when `error` means the database cannot be used right now (see the module
    docstring): `database_unavailable`, or a SQLAlchemy `DBAPIError` whose driver error is
    asyncpg's for a connection refused or cut, or has an SQLSTATE of those classes."""
    if database_unavailable(error):
        return True
    if not isinstance(error, sa_exc.DBAPIError):
        return False
    for e in _chain(error):
        if isinstance(e, _ASYNCPG_OUTAGES):
            return True
        state = getattr(e, "sqlstate", None)
        if isinstance(state, str) and state.startswith(_OUTAGE_SQLSTATES):
            return True
    return False


def describe(error: BaseException) -> str:
    """`Type: message` of the innermost cause of `error`, on one line (for the warning)."""
    inner = error
    for e in _chain(error):
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
