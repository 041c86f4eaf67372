"""Structured logs: one JSON object per line on stderr (stdlib `logging`), level from LOG_LEVEL.

Every line has ``ts`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger`` and ``msg``, plus
the fields of the event::

    {"ts":"2025-01-01T12:00:00.123Z","level":"info","logger":"osaka.access","msg":"http",
     "method":"POST","path":"/api/rooms","status":201,"ms":4.1,"client":"203.0.113.9"}
    {"ts":...,"logger":"osaka.access","msg":"ws","path":"/ws/rooms/7KQ2M9XR4T",
     "accepted":true,"close_code":1000,"ms":61234.5,"client":"203.0.113.9"}
    {"ts":...,"logger":"osaka.live","msg":"action","room":"7KQ2M9XR4T","seat":1,
     "action":"buy","version":17,"outcome":"stale_version","by":"player"}

An action's line is at `info` for a refusal or a duplicate and at `debug` when it was applied
(app/live/actions/attempt.py `Attempt.note`: a busy server's moves are counted in /metrics).

What is never logged: seat tokens, the Authorization and Cookie headers, query strings, action
payloads (cards of a hand, payments) — an action line carries its type and outcome code only.
Third-party loggers that would print headers, frames or SQL parameters at debug level
(``websockets``, ``sqlalchemy``, ``aiosqlite``, …) are held at WARNING whatever LOG_LEVEL says,
and ``uvicorn.error`` (which uvicorn lends to the websockets library) at INFO.
"""
from __future__ import annotations

import json
import logging
import re
import sys
import time
from typing import Any

import orjson

access_log = logging.getLogger("osaka.access")

# Loggers that print secrets at DEBUG/INFO: websockets logs handshake headers (Authorization,
# Cookie) and every frame; SQLAlchemy logs SQL parameters (token hashes, action JSON).
QUIET_LOGGERS = ("websockets", "sqlalchemy", "aiosqlite", "asyncpg", "asyncio", "multipart",
                 "python_multipart", "httpx", "httpcore")
_ACTION_KIND = re.compile(r"[a-z_]{1,32}")


class JsonFormatter(logging.Formatter):
    """Formats a record as one JSON line; the record's `fields` (dict, via `extra`) are merged in.

    The line is orjson's compact JSON (a log line per action, so a few times cheaper than
    `json.dumps`), or `json.dumps`'s for what orjson refuses (an integer over 64 bits, a lone surrogate);
    a datetime is written in ISO 8601, anything else that is not JSON as its `str()`."""

    def __init__(self) -> None:
        super().__init__()
        self._second = -1        # the whole second of the last timestamp made
        self._second_text = ""   # ... as "YYYY-MM-DDTHH:MM:SS" (UTC)

    def timestamp(self, created: float) -> str:
        """`created` (seconds since the epoch) as ISO 8601 UTC with milliseconds, "…T12:00:00.123Z"
        (the date and time of a second are made once per second)."""
        second, micro = divmod(round(created * 1_000_000), 1_000_000)
        if second != self._second:
            self._second, self._second_text = second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        return f"{self._second_text}.{micro // 1000:03d}Z"

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": self.timestamp(record.created),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            out.update(fields)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        try:
            return orjson.dumps(out, default=str, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:  # orjson.JSONEncodeError
            return json.dumps(out, ensure_ascii=False, default=str)


class _UvicornWebSocketFilter(logging.Filter):
    """uvicorn hands its `uvicorn.error` logger to the websockets library, which logs every
    handshake header (Authorization, Cookie) and every frame at DEBUG: those never pass. Its
    `'<client> - "WebSocket <path>" [accepted]'`, "connection open" and "connection closed"
    lines are dropped too: our `ws` access line (AccessLog) is the one line per connection."""

    REPLACED = ("connection open", "connection closed")

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.INFO:
            return False
        msg = record.msg if isinstance(record.msg, str) else ""
        return not ('"WebSocket %s"' in msg or msg in self.REPLACED)


def configure(level: str) -> None:
    """Send all logging to stderr as JSON lines at `level` ('debug', 'info', 'warning', 'error').

    Replaces the root logger's handlers (idempotent). Raises ValueError for an unknown level."""
    numeric = logging.getLevelName(level.upper())
    if not isinstance(numeric, int):
        raise ValueError(f"unknown LOG_LEVEL {level!r}")
    # No line names its caller, thread or process: skip gathering them for every record (the
    # caller's frame walk was about half the cost of an action's line; "Optimization" in the logging
    # HOWTO, https://docs.python.org/3/howto/logging.html#optimization).
    logging._srcfile = None  # type: ignore[attr-defined]
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(numeric)
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(max(numeric, logging.WARNING))
    uvicorn_error = logging.getLogger("uvicorn.error")
    uvicorn_error.filters[:] = [f for f in uvicorn_error.filters
                                if not isinstance(f, _UvicornWebSocketFilter)]
    uvicorn_error.addFilter(_UvicornWebSocketFilter())


def uvicorn_level(level: str) -> str:
    """The level to give uvicorn for LOG_LEVEL `level`: never below 'info' (at 'debug' uvicorn's
    websockets protocol would print handshake headers and frames)."""
    return "info" if level.lower() in ("debug", "trace") else level.lower()


def log_event(logger: logging.Logger, msg: str, level: int = logging.INFO, **fields: Any) -> None:
    """Log one structured event: `msg` names it, `fields` become keys of the JSON line."""
    if logger.isEnabledFor(level):
        logger.log(level, msg, extra={"fields": fields})


def action_kind(action: Any) -> str:
    """The `type` of a client's action for the logs (`"buy"`, `"take"`, …), never its payload;
    `"?"` when it is not a short lower-case word (it is client input)."""
    kind = action.get("type") if isinstance(action, dict) else None
    return kind if isinstance(kind, str) and _ACTION_KIND.fullmatch(kind) else "?"


def _client(scope: dict) -> str | None:
    client = scope.get("client")
    return client[0] if client else None


class AccessLog:
    """Pure ASGI middleware: one `http` line per request (method, path without the query string,
    status, ms, client) and one `ws` line per WebSocket when it ends (path, accepted, close_code,
    ms, client). `client` is the peer address after uvicorn's proxy-headers handling, i.e. the
    `X-Forwarded-For` address when the proxy is trusted (FORWARDED_ALLOW_IPS). Headers are never
    logged."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        start = time.perf_counter()
        info: dict[str, Any] = {"status": None, "accepted": False, "close_code": None}

        async def watch_send(message):
            t = message["type"]
            if t == "http.response.start":
                info["status"] = message["status"]
            elif t == "websocket.accept":
                info["accepted"] = True
            elif t == "websocket.close" and info["close_code"] is None:
                info["close_code"] = message.get("code", 1000)
            elif t == "websocket.http.response.start":
                info["status"] = message["status"]
            await send(message)

        async def watch_receive():
            message = await receive()
            if message["type"] == "websocket.disconnect" and info["close_code"] is None:
                info["close_code"] = message.get("code", 1005)
            return message

        try:
            await self.app(scope, watch_receive, watch_send)
        except BaseException:
            if kind == "http" and info["status"] is None:
                info["status"] = 500
            raise
        finally:
            ms = round((time.perf_counter() - start) * 1000, 1)
            if kind == "http":
                log_event(access_log, "http", method=scope["method"], path=scope["path"],
                          status=info["status"], ms=ms, client=_client(scope))
            else:
                log_event(access_log, "ws", path=scope["path"], accepted=info["accepted"],
                          close_code=info["close_code"], status=info["status"], ms=ms,
                          client=_client(scope))
