"""Room affinity's two halves without a server (app/live/fanout/affinity.py, postgres.py):
a presence that adds a seat in another process is heard as kind "a"; a process moves only its
routed connections of that room (handshake header `X-Osaka-Room` = the room's code), at most
once per room within the cooldown. The whole path with real processes behind Caddy:
tests/deploy/test_replicas.py."""
from __future__ import annotations

import asyncio

from app.live.fanout.affinity import MOVED_CLOSE_CODE, Affinity, routed
from app.live.fanout.postgres import PgFanout
from app.live.sockets.connection import Hub


class FakeWs:
    def __init__(self, headers: dict[str, str]):
        self.headers = headers


class FakeConn:
    """What Affinity reads of a Connection: room, ws.headers, closed, drop()."""

    def __init__(self, room: str, headers: dict[str, str], seat: int | None = None):
        self.room, self.seat, self.ws, self.closed, self.dropped = room, seat, FakeWs(headers), False, None

    def drop(self, code: int = 1000, reason: str = "") -> None:
        self.closed, self.dropped = True, (code, reason)


def _hub(*conns: FakeConn) -> Hub:
    hub = Hub()
    for c in conns:
        hub.rooms.setdefault(c.room, set()).add(c)
    return hub


def test_only_sockets_routed_by_their_own_room_code_are_moved():
    a = FakeConn("ROOMA", {"x-osaka-room": "ROOMA"}, seat=0)
    b = FakeConn("ROOMA", {}, seat=1)                            # direct, or another proxy
    c = FakeConn("ROOMA", {"x-osaka-room": "ROOMB"}, seat=None)  # a header for another room
    other = FakeConn("ROOMB", {"x-osaka-room": "ROOMB"}, seat=0)
    aff = Affinity(_hub(a, b, c, other))
    assert [routed(x) for x in (a, b, c, other)] == [True, False, False, True]
    assert aff.arrived_elsewhere("ROOMA") == 1
    assert a.dropped == (MOVED_CLOSE_CODE, "moved") and b.dropped is None and c.dropped is None
    assert other.dropped is None and aff.moved == 1


def test_a_room_moves_at_most_once_per_cooldown():
    first = FakeConn("ROOMA", {"x-osaka-room": "ROOMA"})
    hub = _hub(first)
    aff = Affinity(hub, cooldown_s=3600)
    assert aff.arrived_elsewhere("ROOMA") == 1
    again = FakeConn("ROOMA", {"x-osaka-room": "ROOMA"})
    hub.rooms["ROOMA"].add(again)
    assert aff.arrived_elsewhere("ROOMA") == 0 and again.dropped is None
    aff_now = Affinity(hub, cooldown_s=0)
    assert aff_now.arrived_elsewhere("ROOMA") == 1 and again.dropped == (MOVED_CLOSE_CODE, "moved")
    assert aff_now.arrived_elsewhere("ROOMX") == 0  # nobody of that room here


def _fanout() -> PgFanout:
    async def on_remote(_batch):
        return None
    return PgFanout("postgresql+asyncpg://nobody@127.0.0.1:1/none", None, on_remote, set, presence_ttl_s=60)


def test_a_presence_that_adds_a_seat_elsewhere_is_heard_as_arrived():
    async def run():
        f = _fanout()
        f._on_notify(None, 0, "", "other p ROOMA 0")
        assert f._pending == {"ROOMA": {"p", "a"}}
        f._pending.clear()
        f._on_notify(None, 0, "", "other p ROOMA 0")      # the same seats again (a refresh)
        f._on_notify(None, 0, "", "other p ROOMA 0,1")    # seat 1 came: arrived
        assert f._pending == {"ROOMA": {"p", "a"}}
        f._pending.clear()
        f._on_notify(None, 0, "", "other p ROOMA 1")      # seat 0 left there: no arrival
        f._on_notify(None, 0, "", "other p ROOMA ")       # everyone left there
        f._on_notify(None, 0, "", f"{f.origin} p ROOMA 0,1,2")  # its own: ignored
        assert f._pending == {"ROOMA": {"p"}}
        f._on_notify(None, 0, "", "third p ROOMA 1")      # another process: seat 1 is new there
        assert f._pending == {"ROOMA": {"p", "a"}}
    asyncio.run(run())
