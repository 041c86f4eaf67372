"""docs/protocol.md's code tables say what the refusal registry (app/refusals.py) holds: the
HTTP codes by status, their fields, the WebSocket codes and the engine's. (The browser's
catalogues are checked against the registry in tests/e2e/test_i18n.py.)"""
from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

import engine
from app.refusals import BY_STATUS, CODES, Refusal, responses

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = ROOT / "docs" / "protocol.md"
CODE = re.compile(r"`([a-z][a-z0-9]*(?:_[a-z0-9]+)*)`")


def _rows(text: str, start: str, end: str) -> list[list[str]]:
    """The cells of the table rows between the headings `start` and `end` (header rows too)."""
    section = text[text.index(start):text.index(end, text.index(start))]
    return [[c.strip() for c in line.split("|")[1:-1]] for line in section.splitlines()
            if line.startswith("|") and not line.startswith("| ---")]


def documented(text: str | None = None) -> dict:
    """What the protocol's tables list: `http` {status: codes} (not the codes a row's notes in
    parentheses name), `fields` {code: fields}, `ws` (the WebSocket table's codes), `engine`
    (the engine table's codes)."""
    text = text if text is not None else PROTOCOL.read_text(encoding="utf-8")
    out: dict = {"http": {}, "fields": {}, "ws": set(), "engine": set()}
    table = None
    for row in _rows(text, "### HTTP error codes", "## WebSocket `/ws/rooms/{code}`"):
        if row[0] in ("status", "code"):
            table = row[0]
        elif table == "status":
            out["http"][int(row[0])] = set(CODE.findall(_codes_only(row[1])))
        else:
            for code in CODE.findall(row[0]):
                out["fields"][code] = set(CODE.findall(row[1]))
    engine_table = "Engine codes (`IllegalAction.code`"
    for key, start, end in (("ws", "### WebSocket error codes", engine_table), ("engine", engine_table, "Close codes:")):
        for row in _rows(text, start, end):
            if row[0] != "code":
                out[key] |= set(CODE.findall(row[0]))
    return out


def _codes_only(cell: str) -> str:
    """A status row's codes, without its notes in parentheses."""
    depth, kept = 0, []
    for ch in cell:
        depth += ch == "("
        if not depth:
            kept.append(ch)
        depth -= ch == ")" and depth > 0
    return "".join(kept)


def registry() -> dict:
    """The registry in the shape of `documented`."""
    return {"http": {s: set(c) for s, c in BY_STATUS.items()},
            "fields": {c.code: set(c.fields) for c in CODES.values() if c.fields},
            "ws": {c.code for c in CODES.values() if c.ws and not c.engine},
            "engine": set(engine.REFUSAL_CODES)}


def test_the_protocol_tables_are_the_registry():
    assert documented() == registry()


def test_a_code_missing_from_the_tables_would_be_caught():
    """The check can fail: a table without `room_full`, or with a code of no refusal."""
    text = PROTOCOL.read_text(encoding="utf-8")
    assert documented(text.replace("`room_full`, ", "", 1)) != registry()
    assert documented(text.replace("| `not_your_turn` |", "| `not_your_turn`, `brand_new` |")) != registry()


def test_every_engine_code_is_a_websocket_refusal_of_an_act():
    assert set(engine.REFUSAL_CODES) <= set(CODES)
    assert all(CODES[c].ws and CODES[c].engine for c in engine.REFUSAL_CODES)
    assert CODES["game_over"].status == 409  # the engine's and the HTTP API's


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_default_message_can_be_made(code):
    """A refusal raised with its fields and template values has a message without braces."""
    names = {n for _, n, _, _ in string.Formatter().parse(CODES[code].message) if n}
    refusal = Refusal(code, **{n: 7 for n in names | set(CODES[code].fields)})
    assert "{" not in refusal.message and refusal.message.endswith((".", "'s."))
    assert set(refusal.fields) == set(CODES[code].fields)
    if CODES[code].status is not None:
        assert refusal.body()["error"]["code"] == code


def test_unknown_codes_and_websocket_codes_are_not_refusals_of_a_route():
    with pytest.raises(KeyError):
        Refusal("brand_new")
    with pytest.raises(ValueError):
        responses("bad_token")
    doc = responses("room_not_found", "rate_limited")
    assert set(doc) == {404, 413, 429, 503}
    assert doc[404]["content"]["application/json"]["schema"]["properties"]["error"]["properties"]["code"]["enum"] \
        == ["room_not_found"]
    assert doc[429]["headers"]["Retry-After"]["required"] is True
