"""Which actions wake the notification loop (app/notify/service.py `Notify.applied`): only those
in a room with a live target. Every action used to wake it, so under load it ran a round (the
scan's two queries, the outbox claim) every MIN_ROUND_S however few rooms had anything to tell:
the largest of the background loops' cost per action at 250 rooms (docs/performance.md)."""
from __future__ import annotations

import asyncio

from sqlalchemy import insert, select

from app.config import Settings
from app.models import WEBHOOK_SEAT, NotifyTarget, Room
from app.notify import triggers
from inprocess import auth, running
from test_remote_catch_up import _move
from test_timers import started_room


def test_only_actions_in_rooms_with_a_target_wake_the_loop(private_migrated_url):
    settings = Settings(database_url=private_migrated_url, bot_delay_s=0, log_level="warning", timer_poll_s=3600,
                        notify_allow_private=True, notify_poll_s=3600)

    async def scenario():
        async with running(settings) as (live, http):
            notify = http._transport.app.state.notify  # the app's own, subscribed to its actions
            plain, _ = await started_room(http, 2, None)
            told, tokens = await started_room(http, 2, None)
            elsewhere, _ = await started_room(http, 2, None)
            for code in (plain, told, elsewhere):
                async with live.tables.hold(code) as held:
                    held.publish(await held.sync())
            await notify.keys.get()  # as the loop's start makes them (the route reads them)
            await notify.once()  # the first round reads which rooms have a target: none

            await _move(live, plain)
            assert not notify._wake.is_set()   # nothing can be due in a room without a target

            r = await http.put(f"/api/rooms/{told}/notify", json={"apprise": "json://127.0.0.1/hook"},
                               headers=auth(tokens[1]))
            assert r.status_code == 200, r.text
            assert notify._wake.is_set()       # saving it nudges the loop
            notify._wake.clear()
            await _move(live, told)
            assert notify._wake.is_set()       # and from now on that room's actions do
            notify._wake.clear()
            await _move(live, plain)
            assert not notify._wake.is_set()

            # A target saved through another process (a row this one did not write) is read at
            # the next round at least NOTIFY_POLL_S after the last read, and then nudges here too.
            async with live.sessions() as session:
                room_id = (await session.execute(select(Room.id).where(Room.code == elsewhere))).scalar_one()
                await session.execute(insert(NotifyTarget).values(
                    room_id=room_id, seat=WEBHOOK_SEAT, kind="webhook", url="json://127.0.0.1/x",
                    base_url="http://osaka.test", off_hash="f" * 64, off_salt="s"))
                await session.commit()
            await notify.once()   # within NOTIFY_POLL_S of the last read: not read again
            await _move(live, elsewhere)
            assert not notify._wake.is_set()
            notify._targeted_read -= settings.notify_poll_s
            await notify.once()
            assert notify._targeted == {told, elsewhere}
            await _move(live, elsewhere)
            assert notify._wake.is_set()

    asyncio.run(scenario())


def test_a_target_saved_while_the_rooms_with_targets_are_read_is_kept(private_migrated_url, monkeypatch):
    """PostgreSQL lets a save commit (and nudge) while the loop's read of the rooms with targets
    is under way; that read may not see it, and replacing the set with it would forget the room
    until the next read (found in review)."""
    settings = Settings(database_url=private_migrated_url, bot_delay_s=0, log_level="warning", timer_poll_s=3600,
                        notify_allow_private=True, notify_poll_s=3600)

    async def scenario():
        async with running(settings) as (live, http):
            notify = http._transport.app.state.notify
            code, _ = await started_room(http, 2, None)
            async with live.tables.hold(code) as held:
                held.publish(await held.sync())
            read = triggers.targeted_rooms

            async def read_while_a_target_is_saved(session):
                found = await read(session)     # read before the save committed: not in it
                notify.nudge(code)              # the save's nudge, while the read is under way
                return found

            monkeypatch.setattr(triggers, "targeted_rooms", read_while_a_target_is_saved)
            await notify.once()
            assert code in notify._targeted
            notify._wake.clear()
            await _move(live, code)
            assert notify._wake.is_set()

    asyncio.run(scenario())
