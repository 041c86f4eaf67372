"""Client frames in: the pure checks of docs/protocol.md §WebSocket, and reading them off one
connection with its limits.

- `parse_client_message` checks one frame's text (no I/O); a refused one raises the `Refusal`
  `bad_message` (app/refusals.py), which `Refusal.frame` turns into the `error` frame;
  `message_id` finds the id of a frame refused unparsed; `bot_action_id` makes the ids of the
  computer players' actions, in a prefix clients may not use.
- `next_frame` reads the next frame of a connection with the flood limit (`rate_limited`) and
  the bad-message budget (close 1008); `next_message` the next checked message of a room
  connection (size, `parse_client_message`); `refuse` answers one refused frame.
"""
from __future__ import annotations

import json
import re
import uuid
from typing import Any

from starlette.websockets import WebSocketDisconnect

from ...refusals import MAX_ECHOED_ID, Refusal
from .connection import Connection

MAX_ACTION_ID = MAX_ECHOED_ID
# `"id": "<1..128 characters>"` anywhere in a frame's text (JSON string escapes allowed).
_ID_MEMBER = re.compile(r'"id"\s*:\s*"((?:[^"\\]|\\.){1,%d})"' % MAX_ACTION_ID)
BOT_ID_PREFIX = "bot:"  # action ids reserved for the server's computer players (computer/)


def parse_client_message(text: str) -> dict:
    """Check one client frame: `{"type": "ping"}`, `{"type": "act", "id", "version", "action"}`,
    `{"type": "chat", "text"}` (a spectator's with `"name"`; its text is checked by chat.py),
    `{"type": "visible", "visible": bool}` (the page shown or hidden) or `{"type": "hint",
    "version"}` (what would the computer do: app/live/hints.py).

    Raises the Refusal `bad_message` with the reason (and the frame's `id` when it had one,
    echoed in the error frame) for anything else."""
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise _bad("The message is not JSON.") from None
    if not isinstance(msg, dict):
        raise _bad("A message is a JSON object.")
    kind, msg_id = msg.get("type"), msg.get("id")
    if kind == "ping":
        return msg
    if kind == "visible":  # the page is shown or hidden (notifications: app/notify/watch.py)
        if not isinstance(msg.get("visible"), bool):
            raise _bad("`visible` is true or false.", msg_id)
        return msg
    if kind == "chat":
        if not isinstance(msg.get("text"), str) or not isinstance(msg.get("name", ""), str):
            raise _bad("`text` (and a spectator's `name`) are strings.", msg_id)
        return msg
    version, action = msg.get("version"), msg.get("action")
    if kind == "hint":  # `id` optional, echoed in a refusal
        if msg_id is not None and (not isinstance(msg_id, str) or not 1 <= len(msg_id) <= MAX_ACTION_ID):
            raise _bad(f"`id` is a string of 1 to {MAX_ACTION_ID} characters.", None)
        if not isinstance(version, int) or isinstance(version, bool) or version < 0:
            raise _bad("`version` is a non-negative integer.", msg_id)
        return msg
    if kind != "act":
        raise _bad("Unknown message type.", msg_id)
    if not isinstance(msg_id, str) or not 1 <= len(msg_id) <= MAX_ACTION_ID or not _unicode_text(msg_id):
        raise _bad(f"`id` is a string of 1 to {MAX_ACTION_ID} characters of Unicode text.", msg_id)
    if msg_id.startswith(BOT_ID_PREFIX):
        raise _bad(f"Ids starting with `{BOT_ID_PREFIX}` are reserved for computer players.", msg_id)
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise _bad("`version` is a non-negative integer.", msg_id)
    if not isinstance(action, dict):
        raise _bad("`action` is a JSON object.", msg_id)
    return msg


def _bad(reason: str, msg_id: Any = None) -> Refusal:
    return Refusal("bad_message", reason, msg_id=msg_id)


def _unicode_text(value: str) -> bool:
    """True unless `value` holds a lone surrogate (a JSON escape such as `\\ud800` decodes to
    one): such text cannot be stored (UTF-8 has no encoding for it), so it never gets that far."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def message_id(text: str | None) -> str | None:
    """The `id` of a frame refused without being parsed (over the size or the flood limit): the
    first `"id": "…"` member in its text, found by one linear scan (never a JSON parse of a
    frame that big or that many), its escapes decoded; None when there is none."""
    match = _ID_MEMBER.search(text) if isinstance(text, str) else None
    if match is None:
        return None
    try:
        value = json.loads(f'"{match.group(1)}"')
    except ValueError:
        return None
    return value if isinstance(value, str) and 1 <= len(value) <= MAX_ACTION_ID else None


def is_ping(text: str) -> bool:
    """True for the lobby's `{"type": "ping"}`; False for anything else, including JSON nested
    too deeply for the parser (RecursionError)."""
    try:
        return json.loads(text) == {"type": "ping"}
    except (ValueError, RecursionError):
        return False


def bot_action_id() -> str:
    """A fresh id for a computer player's action: `BOT_ID_PREFIX` + 128 random bits (uuid4).

    Unpredictable, and in a prefix clients may not use (`bad_message`), so no player can
    plant an id that makes a bot's move come back as a duplicate."""
    return f"{BOT_ID_PREFIX}{uuid.uuid4().hex}"


GONE = object()  # next_frame, next_message: the connection is over
#: Bad or flooding frames one connection may send before it is closed (1008): far more than a
#: client that follows docs/protocol.md ever gets, few enough to end a broken or hostile loop.
MAX_BAD_MESSAGES = 50
#: Client frames larger than this (in UTF-8 bytes) are refused (`bad_message`); the largest a
#: client sends (an action or a chat message) is well under 1 KB.
MAX_FRAME_BYTES = 65536


def refuse(conn: Connection, refusal: Refusal, msg_id: Any = None, *,
           max_bad: int = MAX_BAD_MESSAGES) -> None:
    """Refuse one client frame with its `error` frame (echoing its string `id`, if any);
    after `max_bad` refusals the connection is closed (1008) by the next `next_frame`."""
    conn.bad_messages += 1
    conn.send(refusal.frame(msg_id))
    if conn.bad_messages >= max_bad:
        conn.closing = True


async def next_frame(conn: Connection, *, max_bad: int = MAX_BAD_MESSAGES) -> Any:
    """The next client frame's text (None for a binary frame), or `GONE` once the connection
    is over (disconnected, or closed now with 1008 after too many bad messages). Frames over
    the flood limit are refused here (`rate_limited`) and skipped."""
    while not conn.closed:
        if conn.closing:
            await conn.finish(1008, "too many bad messages")
            return GONE
        try:
            frame = await conn.ws.receive()
        except (WebSocketDisconnect, RuntimeError):
            return GONE
        if frame["type"] == "websocket.disconnect":
            return GONE
        if not conn.allow():
            refuse(conn, Refusal("rate_limited", "Too many messages; slow down."), message_id(frame.get("text")),
                   max_bad=max_bad)
            continue
        return frame.get("text")
    return GONE


async def next_message(conn: Connection) -> Any:
    """The next message of a room connection, checked (`parse_client_message`: `ping`, `act`
    or `chat`), or `GONE` once the connection is over. A frame that is no such message (binary,
    over MAX_FRAME_BYTES, not JSON, not of docs/protocol.md) is refused here (`bad_message`,
    counted against the budget: `refuse`) and skipped, as are frames over the flood limit
    (`next_frame`)."""
    limit = MAX_FRAME_BYTES
    while (text := await next_frame(conn)) is not GONE:
        if text is None:
            refuse(conn, Refusal("bad_message", "Messages are JSON text frames."))
        elif len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
            refuse(conn, Refusal("bad_message", f"A message is at most {limit} bytes."), message_id(text))
        else:
            try:
                return parse_client_message(text)
            except Refusal as exc:  # bad_message
                refuse(conn, exc)
    return GONE
