"""The WebSocket protocol `osaka serve` runs (app/ws_protocol.py): the frames a connection sends
in one pass of the event loop reach the socket in one write, complete and in order, on both
event loops uvicorn may use; `close()` writes what is collected first, `abort()` drops it."""
from __future__ import annotations

import asyncio
import socket

import pytest
import uvicorn
import uvloop
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.testing.launcher import free_port
from app.ws_protocol import CoalescingTransport, CoalescingWebSocketProtocol

LOOPS = {"asyncio": asyncio.new_event_loop, "uvloop": uvloop.new_event_loop}


class _Recording:
    """In front of the real transport: records every write that reaches it."""

    def __init__(self, transport, writes: list[bytes]):
        self._transport, self.writes = transport, writes

    def write(self, data) -> None:
        self.writes.append(bytes(data))
        self._transport.write(data)

    def __getattr__(self, name):
        return getattr(self._transport, name)


async def _burst_app(scope, receive, send):
    """Accepts, sends five text frames at once, waits for the client's word, closes with 4000."""
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    assert (await receive())["type"] == "websocket.connect"
    await send({"type": "websocket.accept"})
    for i in range(5):
        await send({"type": "websocket.send", "text": f"frame-{i}"})
    assert (await receive()).get("text") == "bye"
    await send({"type": "websocket.close", "code": 4000})


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_frames_sent_together_reach_the_socket_in_one_write(loop):
    writes: list[bytes] = []

    class Recorded(CoalescingWebSocketProtocol):
        def connection_made(self, transport):
            super().connection_made(_Recording(transport, writes))

    async def scenario():
        port = free_port()
        server = uvicorn.Server(uvicorn.Config(_burst_app, host="127.0.0.1", port=port, ws=Recorded,
                                               log_level="warning", lifespan="on"))
        task = asyncio.create_task(server.serve())
        try:
            async with asyncio.timeout(30):
                while not server.started:
                    await asyncio.sleep(0.02)
                async with connect(f"ws://127.0.0.1:{port}/", compression=None) as ws:
                    got = [await ws.recv() for _ in range(5)]
                    await ws.send("bye")
                    with pytest.raises(ConnectionClosed) as closed:
                        await ws.recv()
        finally:
            server.should_exit = True
            await asyncio.wait_for(task, 30)
        return got, closed.value.rcvd.code

    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        got, code = runner.run(scenario())
    assert got == [f"frame-{i}" for i in range(5)] and code == 4000
    # unmasked text frames of 7 bytes: 0x81 0x07 payload
    frames = [b"\x81\x07" + f"frame-{i}".encode() for i in range(5)]
    carrying = [n for n, w in enumerate(writes) for f in frames if f in w]
    assert len(set(carrying)) == 1, [len(w) for w in writes]   # all five in one write
    (one,) = set(carrying)
    assert writes[one].index(frames[0]) < writes[one].index(frames[4])
    assert any(w.startswith(b"\x88") for w in writes[one + 1:])  # the close frame came after them


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_close_writes_what_is_collected_and_abort_drops_it(loop):
    async def scenario():
        running = asyncio.get_running_loop()
        results = []
        for ending in ("close", "abort"):
            ours, peer = socket.socketpair()
            transport, _ = await running.connect_accepted_socket(asyncio.Protocol, ours)
            coalescing = CoalescingTransport(transport, running)
            coalescing.write(b"one,")
            coalescing.writelines([b"two,", memoryview(b"three")])
            assert coalescing.get_write_buffer_size() == 13
            getattr(coalescing, ending)()
            assert coalescing.get_write_buffer_size() == 0
            coalescing.write(b"late")  # after close/abort: never written
            await asyncio.sleep(0.05)
            peer.settimeout(5)
            data = b""
            while chunk := peer.recv(1024):
                data += chunk
            peer.close()
            results.append(data)
        return results

    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        closed, aborted = runner.run(scenario())
    assert closed == b"one,two,three" and aborted == b""
