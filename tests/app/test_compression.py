"""Per-message compression (RFC 7692 permessage-deflate) of the room WebSockets: off unless
`WS_COMPRESSION=true`, and either way a client reads the same frames (docs/protocol.md does
not depend on it). Browsers and the `websockets` client always offer the extension; the
server decides."""
from __future__ import annotations

import asyncio
import random

import pytest

from .helpers import Client, new_game, play


async def _two_actions(srv, code: str, tokens: list[str]) -> tuple[list[str | None], list[dict]]:
    """Both seats connect and play two actions → (each socket's negotiated extensions, seat 0's
    `event` and `state` messages)."""
    clients = [await Client.open(srv.ws_url, code, t, seat=i) for i, t in enumerate(tokens)]
    assert await play(clients, 2, random.Random(5)) == 2
    extensions = [c.ws.response.headers.get("Sec-WebSocket-Extensions") for c in clients]
    for c in clients:
        await c.close()
    return extensions, [m for m in clients[0].msgs if m["type"] in ("event", "state")]


@pytest.mark.parametrize("setting", [None, "false", "true"])
def test_compression_only_when_the_host_turns_it_on(server_factory, setting):
    srv = server_factory(**({} if setting is None else {"WS_COMPRESSION": setting}))
    code, tokens = new_game(srv.base_url, 2)
    extensions, msgs = asyncio.run(_two_actions(srv, code, tokens))
    if setting == "true":
        assert all(e and e.startswith("permessage-deflate") for e in extensions), extensions
    else:
        assert extensions == [None, None]
    # The same game either way: an event and a state per action after the first state.
    assert [(m["type"], m["version"]) for m in msgs][-4:] == [("event", 1), ("state", 1), ("event", 2), ("state", 2)]
