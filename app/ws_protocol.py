"""uvicorn's WebSocket protocol with coalesced writes: one socket write per loop iteration.

An action sends each player of the room two frames (its `state` and its `event`,
docs/protocol.md), queued one after the other by the connection's writer task
(app/live/sockets/connection.py). uvicorn writes every frame to the transport at once: one system call, and
one wake-up of the peer, per frame. Here the frames a connection sends during one pass of the
event loop are collected and written together, in order, by a callback the loop runs right
after the current one (`loop.call_soon`): the same bytes in one `write`, with no timer and no
added wait (about half the socket writes per action; the measurement is in
docs/history/performance-log.md).

`close()` and `abort()` behave as the transport's own: `close()` first writes what is
collected (so a close frame still follows the frames before it), `abort()` drops it.

Three more savings, all per connection:

- **Sending without the ASGI chain.** The protocol puts `send_text_now` in the connection's
  ASGI scope (`scope["extensions"][SEND_NOW]`): it encodes a text frame and hands it to the
  transport at once, returning False whenever the ordinary `websocket.send` must be used
  instead (handshake not complete, close sent or received, peer gone, the transport's buffer
  above its high-water mark). The hub (app/live/sockets/connection.py) calls it when nothing of that
  connection is queued, which skips its writer task, Starlette's `WebSocket.send` and each
  middleware's `send` wrapper for almost every frame.
- **Text frames framed here.** While no extension is negotiated (permessage-deflate is off
  by default) and the connection is open, `send_text_now` builds the frame itself
  (`text_frame`: two to ten header bytes and the payload, RFC 6455 §5.2), the very bytes the
  websockets library makes, without its per-frame objects: 0.27 against 1.1 µs a frame, eight
  frames an action. With an extension, or once a close has begun, the library frames it.
- **Keep-alive pings only for quiet connections.** A ping proves the peer is there and keeps
  proxies from closing an idle socket. A connection that has both received and sent within
  the ping interval needs neither, so the ping is put off until the interval has passed since
  the older of the two (RFC 6455 §5.5.2 leaves when to ping to the endpoint). A browser sends
  its heartbeat every few seconds when idle (static/js/net.js), so it is hardly ever pinged;
  a silent peer is pinged `ws_ping_interval` after it was last heard, and dropped when the
  pong does not come within `ws_ping_timeout`, as before.
"""
from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.protocol import OPEN

#: The ASGI scope extension under which the protocol offers `send_text_now(text) -> bool`.
SEND_NOW = "osaka.send_text_now"


def text_frame(payload: bytes) -> bytes:
    """One unfragmented, unmasked text frame of `payload` (UTF-8), as a server sends it without
    extensions (RFC 6455 §5.2: FIN, opcode 0x1, no mask; the payload length in the fewest
    bytes: 7 bits, else 126 and 16 bits, else 127 and 64 bits, network byte order). The same
    bytes as the websockets library's `Frame(Opcode.TEXT, payload).serialize(mask=False)`
    (tests/unit/test_ws_protocol.py); it only skips that library's per-frame bookkeeping."""
    n = len(payload)
    if n < 126:
        return bytes((0x81, n)) + payload
    if n < 65536:
        return b"\x81\x7e" + n.to_bytes(2, "big") + payload
    return b"\x81\x7f" + n.to_bytes(8, "big") + payload


class CoalescingTransport:
    """Wraps an `asyncio.Transport`: `write(data)` collects, the loop's next callback writes
    everything collected with one `transport.write`. Every other attribute is the wrapped
    transport's. `get_write_buffer_size()` counts what is collected too (uvicorn's flow control
    and the hub's slow-peer check see the same bytes as before)."""

    __slots__ = ("_transport", "_loop", "_pending", "_size", "sent_at")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop):
        self._transport = transport
        self._loop = loop
        self._pending: list[bytes] = []
        self._size = 0
        self.sent_at = loop.time()  # loop time of the last write that reached the transport

    def write(self, data: bytes) -> None:
        """Collect `data` (bytes-like) for the write at the end of this loop pass."""
        if not data:
            return
        if not self._pending:
            self._loop.call_soon(self.flush)
        self._pending.append(bytes(data))
        self._size += len(data)

    def writelines(self, chunks: Any) -> None:
        """Collect each of `chunks` in order (as `write`)."""
        for chunk in chunks:
            self.write(chunk)

    def flush(self) -> None:
        """Write what is collected now, in one `write` (nothing once the transport is closing)."""
        if not self._pending:
            return
        pending, self._pending, self._size = self._pending, [], 0
        if self._transport.is_closing():
            return
        self._transport.write(pending[0] if len(pending) == 1 else b"".join(pending))
        self.sent_at = self._loop.time()

    def close(self) -> None:
        """Write what is collected, then close the transport (it flushes its own buffer)."""
        self.flush()
        self._transport.close()

    def abort(self) -> None:
        """Drop what is collected and abort the transport."""
        self._pending, self._size = [], 0
        self._transport.abort()

    def get_write_buffer_size(self) -> int:
        """Bytes collected here plus the transport's own write buffer."""
        return self._size + self._transport.get_write_buffer_size()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class CoalescingWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's `websockets-sansio` protocol (what `ws="auto"` picks) over a
    `CoalescingTransport`, with `send_text_now` in the scope and pings for quiet connections
    only (module doc); pass the class as `uvicorn.Config(ws=...)`."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:  # type: ignore[override]
        self.heard_at = self.loop.time()  # loop time of the last bytes received
        super().connection_made(CoalescingTransport(transport, self.loop))  # type: ignore[arg-type]

    def data_received(self, data: bytes) -> None:
        self.heard_at = self.loop.time()
        super().data_received(data)

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # none when the handshake was refused
        if scope is not None:
            scope["extensions"][SEND_NOW] = self.send_text_now

    def send_text_now(self, text: str) -> bool:
        """Send one text frame now, outside the ASGI `send` (module doc). Returns True when the
        frame went to the transport; False when nothing was sent and the caller must use
        `websocket.send` (which waits for the buffer to drain, or raises for a closed peer)."""
        if (not self.handshake_complete or self.close_sent or self.disconnected
                or self.initial_response is not None or not self.writable.is_set()):
            return False
        conn = self.conn
        if conn.state is OPEN and not conn.extensions and not conn.expect_continuation_frame and not conn.writes:
            self.transport.write(text_frame(text.encode()))
            return True
        try:  # the library's way: a compression extension, a close under way (InvalidState)
            conn.send_text(text.encode())
        except InvalidState:  # the peer's close frame came: the ASGI path reports it
            return False
        self.transport.write(b"".join(conn.data_to_send()))
        return True

    def send_keepalive_ping(self) -> None:
        """Ping only when the connection has not both received and sent within the ping
        interval; else try again when the interval has passed since the older of the two."""
        quiet_since = min(self.heard_at, self.transport.sent_at)  # type: ignore[attr-defined]
        due = quiet_since + self.ping_interval - self.loop.time()  # type: ignore[operator]
        if due > 0 and not self.close_sent:
            self.ping_timer = self.loop.call_later(due, self.send_keepalive_ping)
            return
        super().send_keepalive_ping()
