"""The JSON log line (app/logs.py `JsonFormatter`): one object per line, its `ts` the record's
time in UTC with milliseconds exactly as `datetime.isoformat` writes it, and what orjson
refuses written by `json.dumps` instead of lost."""
from __future__ import annotations

import json
import logging
from datetime import datetime, timezone
from pathlib import PurePosixPath

from app.logs import JsonFormatter


def _record(created: float, **fields) -> logging.LogRecord:
    record = logging.LogRecord("osaka.live", logging.INFO, __file__, 1, "action", (), None)
    record.created = created
    record.fields = fields
    return record


def test_the_timestamp_is_isoformats_with_milliseconds():
    formatter = JsonFormatter()
    times = [0.0, 1.5, 1764612345.0004999, 1764612345.9994999, 1764612345.9999996, 1764612346.123456,
             1764612346.999, 1764612399.000001, 1764698399.9995]
    for created in times:
        want = (datetime.fromtimestamp(created, timezone.utc).isoformat(timespec="milliseconds")
                .replace("+00:00", "Z"))
        assert formatter.timestamp(created) == want, created
        assert json.loads(formatter.format(_record(created)))["ts"] == want


def test_a_line_is_one_json_object_with_the_fields_whatever_they_hold():
    formatter = JsonFormatter()
    line = formatter.format(_record(1764612346.5, room="7KQ2M9XR4T", seat=1, ms=1.2, note="ü€\u2028",
                                    ok=True, none=None))
    assert "\n" not in line
    assert json.loads(line) == {"ts": "2025-12-01T18:05:46.500Z", "level": "info", "logger": "osaka.live",
                                "msg": "action", "room": "7KQ2M9XR4T", "seat": 1, "ms": 1.2,
                                "note": "ü€\u2028", "ok": True, "none": None}
    # what orjson refuses: an integer over 64 bits, a lone surrogate (json.dumps writes them)
    assert json.loads(formatter.format(_record(0.0, big=2 ** 70)))["big"] == 2 ** 70
    assert json.loads(formatter.format(_record(0.0, odd="\ud800")))["odd"] == "\ud800"
    # a datetime in ISO 8601; anything else that is not JSON: its str()
    assert json.loads(formatter.format(_record(0.0, when=datetime(2026, 1, 2, 3, 4, 5))))["when"] == \
        "2026-01-02T03:04:05"
    assert json.loads(formatter.format(_record(0.0, path=PurePosixPath("/a/b"))))["path"] == "/a/b"


def test_an_applied_action_is_logged_at_debug_and_every_other_outcome_at_info(caplog):
    """At `info` (as deployed) a busy server writes no line per move: an applied action's line is
    at `debug`; a refusal or a duplicate, which a host looks for, at `info`
    (app/live/actions/attempt.py `Attempt.note`, docs/deploy.md "Logs")."""
    from app.live.actions.attempt import Attempt

    def lines(level: int) -> list[tuple[str, str]]:
        caplog.clear()
        with caplog.at_level(level, logger="osaka.live"):
            for outcome in ("applied", "stale_version", "duplicate", "payment_too_small"):
                Attempt("7KQ2M9XR4T", 1, "a1", 4, {"type": "buy"}, None, False).note(outcome, 5)
        return [(r.levelname, r.fields["outcome"]) for r in caplog.records if r.name == "osaka.live"]

    assert lines(logging.INFO) == [("INFO", "stale_version"), ("INFO", "duplicate"), ("INFO", "payment_too_small")]
    assert lines(logging.DEBUG) == [("DEBUG", "applied"), ("INFO", "stale_version"), ("INFO", "duplicate"),
                                    ("INFO", "payment_too_small")]
