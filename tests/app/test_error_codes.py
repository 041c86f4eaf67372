"""Every error code the server can send is listed in docs/protocol.md (which the browser's
catalogues are checked against in tests/e2e/test_i18n.py): the codes are read from the
server's and the engine's source, the list from the protocol's error tables."""
from __future__ import annotations

import re
from pathlib import Path

from app.errors import FIELD_CODES, _HTTP_CODES

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = ROOT / "docs" / "protocol.md"
CODE = re.compile(r"`([a-z][a-z0-9]*(?:_[a-z0-9]+)*)`")
SOURCE_PATTERNS = [
    re.compile(r"ApiError\(\s*\d+\s*,\s*\"([a-z_]+)\""),
    re.compile(r"IllegalAction\(\s*\"([a-z_]+)\""),
    re.compile(r"\b(?:_bad|_refuse|refuse|error_msg)\(\s*(?:[a-z_.]+\s*,\s*)?\"([a-z_]+)\""),
]


def documented_codes(text: str | None = None) -> set[str]:
    """The error codes in the tables under "HTTP error codes" and "WebSocket error codes" of
    docs/protocol.md: the `codes` column of the status table, else a table's first column."""
    text = text if text is not None else PROTOCOL.read_text(encoding="utf-8")
    codes: set[str] = set()
    for start, end in (("### HTTP error codes", "## WebSocket `/ws/rooms/{code}`"),
                       ("### WebSocket error codes", "Close codes:")):
        section = text[text.index(start):text.index(end)]
        column = 1
        for line in section.splitlines():
            if not line.startswith("|") or line.startswith("| ---"):
                continue
            cells = line.split("|")
            if cells[1].strip() in ("status", "code"):  # a header row picks the column
                column = 2 if cells[1].strip() == "status" else 1
                continue
            codes |= set(CODE.findall(cells[column]))
    return codes


def source_codes() -> dict[str, str]:
    """{code: file} for every error code raised or sent in app/ and engine/."""
    found = {c: "app/errors.py" for c in [*_HTTP_CODES.values(), *FIELD_CODES.values()]}
    for folder in ("app", "engine"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for pattern in SOURCE_PATTERNS:
                for code in pattern.findall(text):
                    found.setdefault(code, str(path.relative_to(ROOT)))
    return found


def test_the_protocol_lists_the_error_codes_of_both_tables():
    codes = documented_codes()
    # Spot checks of each kind: HTTP, WebSocket, engine; fields are not codes.
    assert {"room_full", "not_yet", "stale_version", "bad_origin", "payment_not_minimal"} <= codes
    assert "retry_after_s" not in codes and "id" not in codes


def test_every_error_code_the_server_sends_is_documented():
    found = source_codes()
    assert len(found) > 30, found
    missing = {c: f for c, f in found.items() if c not in documented_codes()}
    assert not missing, f"error codes missing from docs/protocol.md: {missing}"


def test_a_new_undocumented_code_would_be_caught():
    """The scan sees a code in a new refusal (the check can fail)."""
    text = 'raise ApiError(409, "brand_new_code", "x")\nreturn refuse("other_new", "y")'
    assert {m for p in SOURCE_PATTERNS for m in p.findall(text)} == {"brand_new_code", "other_new"}
