"""Reading client frames off one connection, with the per-connection limits of
docs/protocol.md: the flood limit (`rate_limited`) and the bad-message budget (close 1008)."""
from __future__ import annotations

from typing import Any

from starlette.websockets import WebSocketDisconnect

from .hub import Connection
from ..refusals import Refusal
from .messages import message_id

GONE = object()  # next_frame: the connection is over
#: Bad or flooding frames one connection may send before it is closed (1008): far more than a
#: client that follows docs/protocol.md ever gets, few enough to end a broken or hostile loop.
MAX_BAD_MESSAGES = 50


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
