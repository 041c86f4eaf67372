"""The WebSocket protocol `osaka serve` runs (app/ws_protocol.py): the frames a connection sends
in one pass of the event loop reach the socket in one write, complete and in order, on both
event loops uvicorn may use; `close()` writes what is collected first, `abort()` drops it."""
from __future__ import annotations

import asyncio
import contextlib
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


async def _lifespan(scope, receive, send) -> bool:
    """Answer the server's lifespan messages; True when `scope` was the lifespan's."""
    if scope["type"] != "lifespan":
        return False
    while (await receive())["type"] != "lifespan.shutdown":
        await send({"type": "lifespan.startup.complete"})
    await send({"type": "lifespan.shutdown.complete"})
    return True


@contextlib.asynccontextmanager
async def _served(app, protocol, **config):
    """The port of a real uvicorn server running `app` over `protocol` in this event loop,
    stopped afterwards."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, ws=protocol,
                                           log_level="warning", lifespan="on", **config))
    task = asyncio.create_task(server.serve())
    try:
        async with asyncio.timeout(30):
            while not server.started:
                await asyncio.sleep(0.02)
            yield port
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 30)


def _receive_then_bye(loop: str, app, protocol, frames: int, **client) -> tuple[list[str], int]:
    """Serve `app` over `protocol` on event loop `loop` (a key of LOOPS); a real websockets
    client (`client`: its `connect` options) receives `frames` text frames, sends "bye" and
    waits for the server's close → (the texts received, the close code the server sent)."""
    async def scenario():
        async with _served(app, protocol) as port:
            async with connect(f"ws://127.0.0.1:{port}/", **client) as ws:
                got = [await ws.recv() for _ in range(frames)]
                await ws.send("bye")
                with pytest.raises(ConnectionClosed) as closed:
                    await ws.recv()
        return got, closed.value.rcvd.code

    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        return runner.run(scenario())


async def _burst_app(scope, receive, send):
    """Accepts, sends five text frames at once, waits for the client's word, closes with 4000."""
    if await _lifespan(scope, receive, send):
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

    got, code = _receive_then_bye(loop, _burst_app, Recorded, 5, compression=None)
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


# ----------------------------------------------------------------- keep-alive for quiet peers

async def _echo_app(scope, receive, send):
    """Accepts, then sends every text frame back."""
    if await _lifespan(scope, receive, send):
        return
    assert (await receive())["type"] == "websocket.connect"
    await send({"type": "websocket.accept"})
    while (msg := await receive())["type"] == "websocket.receive":
        await send({"type": "websocket.send", "text": msg.get("text") or ""})


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_pings_go_only_to_quiet_connections_and_a_silent_peer_is_dropped(loop):
    """Interval 0.25 s, timeout 0.25 s: a client that talks every 0.05 s gets no ping in 1.5 s,
    an idle one is pinged (and answers) again and again, a peer that never answers is closed
    by the keep-alive (close code 1011) within interval + timeout."""
    pings: dict[str, int] = {}

    class Counted(CoalescingWebSocketProtocol):
        def send_keepalive_ping(self):
            before = self.pending_ping_payload
            super().send_keepalive_ping()
            if self.pending_ping_payload is not None and self.pending_ping_payload != before:
                who = dict(self.scope["headers"]).get(b"x-who", b"?").decode()
                pings[who] = pings.get(who, 0) + 1

    async def scenario():
        async with _served(_echo_app, Counted, ws_ping_interval=0.25, ws_ping_timeout=0.25) as port:
            url = f"ws://127.0.0.1:{port}/"
            async with connect(url, additional_headers={"x-who": "busy"}, ping_interval=None) as busy, \
                    connect(url, additional_headers={"x-who": "idle"}, ping_interval=None) as idle:
                # a raw client that completes the handshake, then never reads or answers
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                             b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                             b"x-who: silent\r\n\r\n")
                assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 101")
                end = asyncio.get_running_loop().time() + 1.5
                while asyncio.get_running_loop().time() < end:
                    await busy.send("hi")
                    assert await busy.recv() == "hi"
                    await asyncio.sleep(0.05)
                await idle.send("still here")  # the idle client answered every ping by itself
                assert await idle.recv() == "still here"
                rest = await asyncio.wait_for(reader.read(), 5)  # up to EOF: the server closed it
                writer.close()
        return rest

    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        rest = runner.run(scenario())
    assert pings.get("busy", 0) == 0, pings
    assert pings.get("idle", 0) >= 3, pings      # ~every 0.25 s for 1.5 s
    assert pings.get("silent", 0) >= 1, pings
    assert rest.startswith(b"\x89")                # a ping first, then a close frame with 1011:
    assert b"\x88\x18\x03\xf3keepalive ping timeout" in rest


# ----------------------------------------------------------------- sending without the ASGI chain

def test_direct_sends_and_queued_sends_keep_their_order():
    """`Connection.send` writes at once while nothing is queued; once the socket refuses (its
    buffer is full) later frames queue behind the refused one, and direct sends resume only
    after the queue has drained: the peer sees every frame once, in order."""
    from app.live.sockets.connection import Connection
    from app.ws_protocol import SEND_NOW

    wire: list[str] = []
    open_ = {"now": True}

    def send_now(text: str) -> bool:
        if not open_["now"]:
            return False
        wire.append(text)
        return True

    class FakeSocket:
        scope = {"extensions": {SEND_NOW: send_now}}

        async def send_text(self, text: str) -> None:
            while not open_["now"]:        # the ASGI send waits for the buffer to drain
                await asyncio.sleep(0.01)
            wire.append(text)

    async def scenario():
        conn = Connection(FakeSocket(), room="R", seat=0, queue_size=16)
        conn.send("1")
        conn.send("2")
        open_["now"] = False
        conn.send("3")                     # refused: queued
        await asyncio.sleep(0.05)          # the writer holds "3", waiting for the socket
        open_["now"] = True
        conn.send("4")                     # the writer is busy: queued behind "3"
        conn.send("5")
        await asyncio.sleep(0.1)
        conn.send("6")                     # queue empty again: direct
        assert wire == ["1", "2", "3", "4", "5", "6"]
        conn.stop_writer()

    asyncio.run(scenario())


#: Payload lengths on both sides of each length encoding of RFC 6455 §5.2 (7 bits, 16, 64).
EDGES = [0, 1, 125, 126, 127, 65535, 65536, 70000]


def test_text_frame_is_the_librarys_frame():
    from websockets.frames import Frame, Opcode

    from app.ws_protocol import text_frame
    for n in EDGES:
        for payload in ("x" * n).encode(), ("ä" * (n // 2)).encode():
            assert text_frame(payload) == Frame(Opcode.TEXT, payload).serialize(mask=False, extensions=[]), n


@pytest.mark.parametrize("loop", sorted(LOOPS))
@pytest.mark.parametrize("compression", [None, "deflate"])
def test_send_text_now_frames_arrive_whole_in_order(loop, compression):
    """`send_text_now` frames its text itself while no extension is negotiated (`text_frame`) and
    through the websockets library with one (permessage-deflate): a real client gets every
    length and every character exactly, in order, either way; after the close has begun it
    sends nothing (False: the ASGI path answers)."""
    from app.ws_protocol import SEND_NOW
    texts = ["x" * n for n in EDGES] + ["Schiff über Ōsaka ⚓" * 200]
    after_close: list[bool] = []

    async def app(scope, receive, send):
        if await _lifespan(scope, receive, send):
            return
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        now = scope["extensions"][SEND_NOW]
        assert all(now(t) for t in texts)
        assert (await receive()).get("text") == "bye"
        await send({"type": "websocket.close", "code": 4000})
        after_close.append(now("late"))

    got, code = _receive_then_bye(loop, app, CoalescingWebSocketProtocol, len(texts),
                                  compression=compression, max_size=None)
    assert got == texts and code == 4000
    assert after_close == [False]
