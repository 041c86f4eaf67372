"""uvicorn's WebSocket protocol with coalesced writes: one socket write per loop iteration.

An action sends each player of the room two frames (its `state` and its `event`,
docs/protocol.md), queued one after the other by the connection's writer task
(app/live/hub.py). uvicorn writes every frame to the transport at once: one system call, and
one wake-up of the peer, per frame. Here the frames a connection sends during one pass of the
event loop are collected and written together, in order, by a callback the loop runs right
after the current one (`loop.call_soon`): the same bytes in one `write`, with no timer and no
added wait (docs/performance.md, "2026-12-01: fewer system calls per action": 13.9 → 6.6
socket writes per action).

`close()` and `abort()` behave as the transport's own: `close()` first writes what is
collected (so a close frame still follows the frames before it), `abort()` drops it.
"""
from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class CoalescingTransport:
    """Wraps an `asyncio.Transport`: `write(data)` collects, the loop's next callback writes
    everything collected with one `transport.write`. Every other attribute is the wrapped
    transport's. `get_write_buffer_size()` counts what is collected too (uvicorn's flow control
    and the hub's slow-peer check see the same bytes as before)."""

    __slots__ = ("_transport", "_loop", "_pending", "_size")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop):
        self._transport = transport
        self._loop = loop
        self._pending: list[bytes] = []
        self._size = 0

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
    `CoalescingTransport`; pass the class as `uvicorn.Config(ws=...)`."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:  # type: ignore[override]
        super().connection_made(CoalescingTransport(transport, self.loop))  # type: ignore[arg-type]
