"""The pure parts of the web layer, without a database or a server: player names, room codes
and seat tokens, client frames."""
from __future__ import annotations

import json

import pytest

from app.refusals import Refusal
from app.live.sockets.frames import (BOT_ID_PREFIX, MAX_ACTION_ID, bot_action_id, is_ping,
                               parse_client_message)
from app.schemas import MAX_NAME, clean_name
from app.security import CODE_LENGTH, CROCKFORD, hash_token, new_room_code, new_token, normalize_code, token_matches


# ------------------------------------------------------------------ names
@pytest.mark.parametrize("raw, name", [("  Alice ", "Alice"), ("Zoë", "Zoë"), ("Zoe\u0308", "Zoë"),
                                       ("李雷", "李雷"), ("a b", "a b"), ("x" * MAX_NAME, "x" * MAX_NAME),
                                       ("Nguy\u1ec5n", "Nguy\u1ec5n"), ("e\u0323\u0302\u0301", "\u1ec7\u0301")])
def test_names_are_trimmed_and_nfc(raw, name):
    assert clean_name(raw) == name


@pytest.mark.parametrize("raw", ["", "   ", "x" * (MAX_NAME + 1), "a\u200bb", "a\nb", "\u3164", "\u2800 ",
                                 "\ufeffBob", "a\u202eb", "\ue000", 42, None,
                                 "Bob" + "\u0310" * 10, "Bo\u0310\u0311\u0312\u0313b"])  # marks drawn across the page
def test_names_without_anything_visible_or_with_hidden_characters_are_refused(raw):
    with pytest.raises(ValueError):
        clean_name(raw)


# ------------------------------------------------------------ room codes
def test_new_codes_are_canonical_crockford():
    codes = {new_room_code() for _ in range(200)}
    assert len(codes) == 200
    for code in codes:
        assert len(code) == CODE_LENGTH and set(code) <= set(CROCKFORD)
        assert normalize_code(code) == code


@pytest.mark.parametrize("raw, code", [("7kq2m-9xr4t", "7KQ2M9XR4T"), ("7KQ2M 9XR4T", "7KQ2M9XR4T"),
                                       ("ILOOO-11111", "1100011111"), ("abcde-fghjk", "ABCDEFGHJK")])
def test_codes_are_read_as_crockford_reads_them(raw, code):
    assert normalize_code(raw) == code


@pytest.mark.parametrize("raw", ["", "ABCDE", "ABCDEFGHJKM", "ABCDEFGHJU", "ABCDE_FGHJK", "ÄBCDEFGHJK"])
def test_strings_that_cannot_be_codes_are_none(raw):
    assert normalize_code(raw) is None


def test_tokens_match_only_their_hash():
    token = new_token()
    assert len(token) == 43 and token != new_token()
    assert token_matches(token, hash_token(token))
    assert not token_matches(token + "x", hash_token(token))
    assert not token_matches(token, None)


# ---------------------------------------------------------- client frames
def act(**over) -> str:
    msg = {"type": "act", "id": "a1", "version": 3, "action": {"type": "take"}}
    msg.update(over)
    return json.dumps(msg)


def test_a_valid_action_and_a_ping_parse():
    assert parse_client_message(act()) == {"type": "act", "id": "a1", "version": 3, "action": {"type": "take"}}
    assert parse_client_message('{"type": "ping"}') == {"type": "ping"}


@pytest.mark.parametrize("text, reason, msg_id", [
    ("not json", "not JSON", None),
    ("[1, 2]", "JSON object", None),
    ("[" * 100_000, "not JSON", None),                       # nested too deeply for the parser
    ('{"type": "hello", "id": "q"}', "Unknown message type", "q"),
    (act(id=""), "`id`", ""),
    (act(id="x" * (MAX_ACTION_ID + 1)), "`id`", "x" * (MAX_ACTION_ID + 1)),
    (act(id=7), "`id`", 7),
    (act(id=BOT_ID_PREFIX + "1"), "reserved", BOT_ID_PREFIX + "1"),
    (act(version=-1), "`version`", "a1"),
    (act(version=True), "`version`", "a1"),
    (act(version="3"), "`version`", "a1"),
    (act(action=[1]), "`action`", "a1"),
])
def test_bad_frames_are_refused_with_a_reason_and_their_id(text, reason, msg_id):
    with pytest.raises(Refusal) as caught:
        parse_client_message(text)
    assert caught.value.code == "bad_message"
    assert reason in str(caught.value)
    assert caught.value.msg_id == msg_id


def test_error_frames_echo_only_usable_ids():
    assert Refusal("stale_version", "m").frame("a1") == {"type": "error", "code": "stale_version",
                                                         "message": "m", "id": "a1"}
    assert "id" not in Refusal("bad_message", "m").frame(7)
    assert "id" not in Refusal("bad_message", "m").frame("x" * (MAX_ACTION_ID + 1))


def test_lobby_pings_and_bot_ids():
    assert is_ping('{"type": "ping"}') and is_ping('{ "type" : "ping" }')
    assert not is_ping('{"type": "ping", "x": 1}') and not is_ping("[" * 100_000) and not is_ping("ping")
    ids = {bot_action_id() for _ in range(100)}
    assert len(ids) == 100 and all(i.startswith(BOT_ID_PREFIX) and len(i) <= MAX_ACTION_ID for i in ids)
    with pytest.raises(Refusal):  # a client can never plant a computer player's id
        parse_client_message(act(id=ids.pop()))
