"""`Hub.watched_seats` (app/live/sockets/connection.py): the seats with a visible page here,
kept between changes and built again after each kind of change (a connection added, removed,
unseated, shown or hidden), so the notification loop never skips or notifies on a stale set."""
from __future__ import annotations

import asyncio

from app.live.sockets.connection import Connection, Hub


class _Socket:
    scope: dict = {}

    async def send_text(self, text: str) -> None:
        pass


def test_the_watched_seats_follow_every_change_and_are_kept_between_them():
    async def scenario():
        hub = Hub()
        a0, a1 = (Connection(_Socket(), room="AAAA", seat=s) for s in (0, 1))
        b0 = Connection(_Socket(), room="BBBB", seat=0)
        watcher = Connection(_Socket(), room="BBBB", seat=None)
        for conn in (a0, a1, b0, watcher):
            hub.add(conn)
        first = hub.watched_seats()
        assert first == {("AAAA", 0), ("AAAA", 1), ("BBBB", 0)}
        assert hub.watched_seats() is first          # nothing changed: the same set, not built again
        hub.set_visible(a1, False)
        assert hub.watched_seats() == {("AAAA", 0), ("BBBB", 0)}
        hub.set_visible(a1, True)
        assert hub.watched_seats() == {("AAAA", 0), ("AAAA", 1), ("BBBB", 0)}
        assert hub.unseat(b0) == 0
        assert hub.watched_seats() == {("AAAA", 0), ("AAAA", 1)}
        hub.remove(a0)
        assert hub.watched_seats() == {("AAAA", 1)}
        again = Connection(_Socket(), room="AAAA", seat=0)
        hub.add(again)
        assert hub.watched_seats() == {("AAAA", 0), ("AAAA", 1)}
        assert first == {("AAAA", 0), ("AAAA", 1), ("BBBB", 0)}  # a set handed out is never changed
        for conn in (a0, a1, b0, watcher, again):
            conn.stop_writer()
        await asyncio.sleep(0)
    asyncio.run(scenario())
